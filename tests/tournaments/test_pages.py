"""The tournament page and ``/tournaments/<id>/standings.json``: rules, rounds with
their tables and games, byes, standings with every tie-break, the pods of a cut and
a round robin's schedule; private events stay private."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from risiko.kind import RisiKo
from tests.kinds.registered import registered
from tests.tournaments.conftest import bot_event
from tests.tournaments.test_formats import run
from tournaments import services
from tournaments.core.standings import compute_standings
from tournaments.models import Bye, League, Table, TableSeat, Tournament
from tournaments.selectors import history
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def standings_json(client: Client, event: Tournament) -> Any:
    response = client.get(reverse("tournaments:standings_json", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def page(client: Client, event: Tournament) -> str:
    response = client.get(reverse("tournaments:tournament", args=[event.league.slug, event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_json_of_a_finished_swiss_matches_the_stored_rounds_and_a_recomputation(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 9, swiss_rounds=2, points=Tournament.Points.WIN_ONLY)
    run(event, django_capture_on_commit_callbacks)

    data = standings_json(Client(), event)

    assert data["id"] == event.pk and data["format"] == "swiss" and data["status"] == "finished"
    settings = data["settings"]
    assert settings["points_table"]["by_table_size"]["4"] == [5.0, 0.0, 0.0, 0.0]
    assert settings["points_table"]["by_table_size"]["3"] == [5.0, 0.0, 0.0]
    assert settings["points_table"]["bye"] == 5.0
    assert [step["step"] for step in settings["tie_breaks"]] == [
        "points",
        "outfinished",
        "opponents",
        "draw",
    ]
    assert settings["house_rule"]["rule"] == "R28"
    assert settings["planned_rounds"] == 2
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    for round_data in data["rounds"]:
        for table_data in round_data["tables"]:
            table = Table.objects.get(
                round__tournament=event,
                round__number=round_data["number"],
                number=table_data["number"],
            )
            assert table_data["game"]["id"] == table.game_id
            assert table_data["game"]["record"] == f"/games/{table.game_id}/record.json"
            assert table_data["result"] == table.result
            seats = list(TableSeat.objects.filter(table=table).order_by("number"))
            assert [(s["seat"], s["player"], s["home"]) for s in table_data["seats"]] == [
                (s.number, s.entry_id, s.home) for s in seats
            ]
        byes = Bye.objects.filter(round__tournament=event, round__number=round_data["number"])
        assert sorted(b["player"] for b in round_data["byes"]) == sorted(
            byes.values_list("entry_id", flat=True)
        )
    recomputed = compute_standings(
        history.entrants(event),
        history.results(event),
        history.points_table(event),
        seed=event.seed,
    )
    assert len(data["standings"]) == 9
    for line, expected in zip(data["standings"], recomputed.lines, strict=True):
        assert (line["rank"], line["player"], line["points"]) == (
            expected.rank,
            expected.player,
            expected.points,
        )
        assert (line["outfinished"], line["opponents_average"], line["draw"]) == (
            expected.outfinished,
            expected.opponents_average,
            expected.draw,
        )
        assert line["separated_by"] == expected.separated_by


def test_each_table_of_the_json_links_a_game_whose_record_gives_the_same_result(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    run(event, django_capture_on_commit_callbacks)
    client = Client()

    table = standings_json(client, event)["rounds"][0]["tables"][0]
    record = client.get(table["game"]["record"])

    assert record.status_code == 200
    game = Game.objects.get(pk=table["game"]["id"])
    seat_of_entry = {s["player"]: s["seat"] for s in table["seats"]}
    ranks = {seat.number: seat.rank for seat in game.seats.all()}
    for place, group in enumerate(table["result"]):
        better = sum(len(g) for g in table["result"][:place])
        for entry in group:
            assert ranks[seat_of_entry[entry]] == better + 1


def test_the_page_shows_rules_rounds_games_and_the_standings_breakdown(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 5, swiss_rounds=2)
    run(event, django_capture_on_commit_callbacks)
    text = page(Client(), event)

    assert "House rule (R28), a turn limit" in text
    assert "4 players 5/3/2/1; 3 players 5/2.5/1" in text
    assert "Round 2" in text and "Round 1" in text
    for table in Table.objects.filter(round__tournament=event):
        assert f'href="/games/{table.game_id}/"' in text
    assert "Opponents' average" in text and "Split by" in text
    first = history.standings(event).lines[0]
    assert f"{first.opponents_average:.3f}" in text
    assert reverse("tournaments:standings_json", args=[event.pk]) in text


def test_a_player_sees_their_table_with_seat_home_and_a_link_to_the_game(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Humans")
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    rounds.start(event.pk)
    client = Client()
    client.force_login(alice)

    text = page(client, event)

    seat = TableSeat.objects.get(entry__user=alice)
    place = text.split('id="entry-heading"', 1)[1].split("</section>", 1)[0]
    assert f"table {seat.table.number}, seat {seat.number}, home " in place
    assert f'href="/games/{seat.table.game_id}/"' in place


def test_a_player_is_offered_their_game_once_in_the_current_round_line(
    league_a: League, anna: Any, django_user_model: Any
) -> None:
    event, alice = _six_humans(league_a, anna, django_user_model, swiss_rounds=3)
    client = Client()
    client.force_login(alice)
    seat = TableSeat.objects.get(entry__user=alice)
    game_link = f'<a href="/games/{seat.table.game_id}/">open your game</a>'

    playing = page(client, event)
    _end_table_of(alice)
    over = page(client, event)

    for text in (playing, over):
        assert text.count("open your game") == 1
        line = text.split('class="my-round"', 1)[1].split("</p>", 1)[0]
        assert game_link in line
        assert f"table {seat.table.number}, seat {seat.number}, home " in line


def test_a_cut_shows_its_pods_with_their_seeds(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(
        league_a, anna, 10, format=Tournament.Format.SWISS_CUT, swiss_rounds=2, cut_size=8
    )
    run(event, django_capture_on_commit_callbacks)

    text = page(Client(), event)
    data = standings_json(Client(), event)

    cut = next(r for r in data["rounds"] if r["stage"] == "cut")
    assert cut["costs"]["elimination"]["pods"]
    assert "the top cut" in text and "Pod 1: seeds 1, " in text
    assert "the final table" in text


def test_a_round_robin_publishes_its_schedule(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 5, format=Tournament.Format.ROUND_ROBIN, table_size=3)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start(event.pk)

    data = standings_json(Client(), event)
    text = page(Client(), event)

    schedule = rounds.schedule_of(event)
    assert len(data["schedule"]) == len(schedule.rounds) > 1
    assert [[p["player"] for p in t] for t in data["schedule"][1]["tables"]] == [
        list(t) for t in schedule.rounds[1].tables
    ]
    assert "The published schedule" in text and f"Round {len(schedule.rounds)}:" in text


def test_the_page_says_durations_counts_and_meetings_in_words(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(
        league_a, anna, 3, format=Tournament.Format.ROUND_ROBIN, table_size=3, missed_limit=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start(event.pk)

    text = page(Client(), event)

    assert "at its deadline (14 days after it starts)" in text
    assert "0:00:00" not in text
    assert "misses 1 turn of a game" in text
    assert "each pair meets once" in text
    assert " to 1 times" not in text
    assert "Board: Original (2008);" in text


def test_a_swiss_rounds_pairing_says_whether_any_pair_meets_again(
    league_a: League, anna: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league_a, anna, 8, swiss_rounds=2, table_size=4)
    run(event, django_capture_on_commit_callbacks)

    text = page(Client(), event)

    # Round 1 has no history; in round 2 each table of 4 holds two of an earlier table.
    assert "no pair meets again, score spread" in text
    # (four pairs, each meeting once again: the pairs are not counted twice)
    assert re.search(r"; 4 repeat meetings(, proven fewest)?, score spread", text)
    assert "repeats 0" not in text and "repeats 4" not in text


def test_a_private_event_is_hidden_from_strangers_and_shown_to_its_organiser(
    league_a: League, anna: Any, bob: Any
) -> None:
    event = bot_event(league_a, anna, 4, is_public=False)
    url = reverse("tournaments:standings_json", args=[event.pk])
    stranger = Client()
    stranger.force_login(bob)
    organiser = Client()
    organiser.force_login(anna)

    assert Client().get(url).status_code == 404
    assert stranger.get(url).status_code == 404
    response = organiser.get(url)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


def test_an_event_being_prepared_is_not_published(league_a: League, anna: Any) -> None:
    event = services.create_tournament(league_a, anna, "Later")

    assert Client().get(reverse("tournaments:standings_json", args=[event.pk])).status_code == 404


def test_the_short_address_leads_to_the_event_page(league_a: League, anna: Any) -> None:
    event = bot_event(league_a, anna, 4)

    response = Client().get(reverse("tournaments:by_id", args=[event.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournaments:tournament", args=[league_a.slug, event.slug]
    )


def test_the_index_lists_events_open_running_and_finished_but_not_private_ones(
    league_a: League, anna: Any, bob: Any
) -> None:
    bot_event(league_a, anna, 2, name="Open Cup")
    running = bot_event(league_a, anna, 4, name="Busy Cup", swiss_rounds=1)
    rounds.start(running.pk)
    hidden = bot_event(league_a, anna, 2, name="Quiet Cup", is_public=False)
    client = Client()
    client.force_login(bob)

    text = client.get(reverse("tournaments:index")).content.decode()

    assert "Registration open" in text and "Open Cup" in text
    assert "Running" in text
    assert reverse("tournaments:tournament", args=[league_a.slug, running.slug]) in text
    assert reverse("tournaments:tournament", args=[league_a.slug, hidden.slug]) not in text


# --- what happens next, for a player ----------------------------------------------------


def _six_humans(league: League, organiser: Any, django_user_model: Any, **settings: Any) -> Any:
    """A Swiss event of alice and five others, tables of three, round 1 started."""
    from tests.personas import make_user

    event = services.create_tournament(league, organiser, "Evening", table_size=3, **settings)
    services.open_registration(event, organiser)
    alice = make_user(django_user_model, "alice")
    services.register(event, alice)
    for n in range(5):
        services.register(event, make_user(django_user_model, f"p{n}"))
    rounds.start(event.pk)
    event.refresh_from_db()
    return event, alice


def _end_table_of(user: Any) -> None:
    from games import services as games

    seat = TableSeat.objects.get(entry__user=user, table__round__number=1)
    names = [s.player_name for s in seat.table.game.seats.order_by("number")]
    games.adjudicate(seat.table.game_id, [[name] for name in names], "a test")


def test_a_player_whose_table_is_over_is_told_how_the_round_ends_and_what_follows(
    league_a: League, anna: Any, django_user_model: Any
) -> None:
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from accounts.services import profile_for

    event, alice = _six_humans(league_a, anna, django_user_model, swiss_rounds=3)
    _end_table_of(alice)
    profile = profile_for(alice)
    profile.time_zone = "America/New_York"
    profile.save()
    client = Client()
    client.force_login(alice)

    text = page(client, event)

    place = text.split('id="entry-heading"', 1)[1].split("</section>", 1)[0]
    assert "You are registered" not in place and "You are checked in" not in place
    assert "Round 1 of 3:\nyour table is over: you finished in place" in place
    deadline = timezone.localtime(event.rounds.get().deadline, ZoneInfo("America/New_York"))
    assert (
        "the round ends when the other table finishes, or at its deadline, "
        f'<time datetime="{deadline.isoformat()}">'
        f"{deadline:%-d %b %Y %H:%M} {deadline.tzname()} (America/New_York)</time>"
    ) in place
    assert "Then round 2 is paired from the standings and starts at once" in place


def test_the_next_round_waits_for_the_organisers_review_when_the_event_says_so(
    league_a: League, anna: Any, django_user_model: Any
) -> None:
    event, alice = _six_humans(league_a, anna, django_user_model, swiss_rounds=3)
    Tournament.objects.filter(pk=event.pk).update(review_pairings=True)
    _end_table_of(alice)
    client = Client()
    client.force_login(alice)

    text = page(client, event)

    assert "and waits for an organiser to review the pairing and start it" in text
    assert "starts at once" not in text


def test_after_the_last_round_the_player_is_told_the_event_ends(
    league_a: League, anna: Any, django_user_model: Any
) -> None:
    event, alice = _six_humans(league_a, anna, django_user_model, swiss_rounds=1)
    _end_table_of(alice)
    client = Client()
    client.force_login(alice)

    text = page(client, event)

    assert "Then the event ends and its final standings are published." in text
    assert "round 2" not in text


def test_a_player_still_playing_sees_the_current_round_instead_of_checked_in(
    league_a: League, anna: Any, django_user_model: Any
) -> None:
    event, alice = _six_humans(league_a, anna, django_user_model, swiss_rounds=3)
    client = Client()
    client.force_login(alice)

    text = page(client, event)

    place = text.split('id="entry-heading"', 1)[1].split("</section>", 1)[0]
    game = TableSeat.objects.get(entry__user=alice).table.game_id
    assert "Round 1 of 3:\nyour game at table" in place
    assert f'(<a href="/games/{game}/">open your game</a>)' in place
    assert "You are registered" not in place and "You are checked in" not in place
    assert "What happens next" not in place


def rules_of(text: str) -> str:
    """The page's Rules list, as a reader reads it (tags and extra spaces gone)."""
    rules = text.split('id="rules-heading"', 1)[1].split("</ul>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", rules).replace("&#x27;", "'").split())


def test_a_world_war_5_events_rules_name_its_setup_and_rule_ids(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)

    rules = rules_of(page(Client(), event))

    assert "Board: Original (2008); strict setup (R7), one piece at a time." in rules
    assert (
        "House rule (R28), a turn limit: a game still running at the deadline is ranked by "
        "territories held, then the size of pieces on the board, then elimination order."
    ) in rules
    assert "forfeits it (R31)" in rules


def test_a_risiko_events_rules_are_risikos_own(league_a: League, anna: Any) -> None:
    """Its games' options, the ranking its games are adjudicated by (RisiKo's measures,
    whatever World War 5's setting says) and its forfeit rule (K36); no World War 5 rule
    id, on its page or in its JSON."""
    with registered(RisiKo()):
        event = services.create_tournament(
            league_a, anna, "RisiKo Swiss", kind="risiko", table_size=4, swiss_rounds=2
        )
        services.open_registration(event, anna)
        text = page(Client(), event)
        settings = standings_json(Client(), event)["settings"]

    rules = rules_of(text)
    assert "Game: RisiKo, sealed placement, per-set bonus, dice." in rules
    assert (
        "House rule, a turn limit: a game still running at the deadline is ranked by "
        "progress towards their objective, then territories held, then armies on the board, "
        "then elimination order."
    ) in rules
    assert "forfeits it (K36)" in rules
    assert not re.search(r"\bR\d+\b", rules), rules
    assert settings["house_rule"]["rule"] is None
    assert settings["house_rule"]["ranking"] == [
        "progress towards their objective",
        "territories held",
        "armies on the board",
        "elimination order",
    ]
