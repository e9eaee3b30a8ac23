"""The admin of events: organisers set events up, act on them, their players, rounds and
tables, correct results and export the standings, for their own leagues only; site
staff for all. Every refusal is an error message, and changes nothing."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any

import pytest
from django import forms
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from mail.models import OutgoingMail
from tests.tournaments.conftest import bot_event
from tests.tournaments.test_rounds import LATER
from tournaments import eventsettings, services
from tournaments.eventadmin import TournamentForm
from tournaments.models import Entry, League, Round, Table, Tournament
from tournaments.selectors import export, history
from tournaments.services import rounds, sweeps
from ww5.engine import BOARDS

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(response: Any) -> list[str]:
    """The admin's messages on the page a followed response ends at."""
    return [str(m) for m in response.context["messages"]]


def act(client: Client, model: str, action: str, *objects: Any) -> Any:
    """Run a list action of the admin on ``objects``, following to the page it ends at."""
    return client.post(
        reverse(f"admin:tournaments_{model}_changelist"),
        {"action": action, "_selected_action": [o.pk for o in objects]},
        follow=True,
    )


def settings_form(league: League, **overrides: Any) -> dict[str, Any]:
    """The admin's form for a new event, filled in as an organiser would."""
    data = {
        "league": league.pk,
        "name": "Spring Cup",
        "description": "Four rounds in April.",
        "format": "swiss",
        "is_public": "on",
        "board": "original",
        "time_control": "fixed",
        "decision_time": "2 00:00:00",
        "retreat_time": "12:00:00",
        "bank_time": "5 00:00:00",
        "increment": "1 00:00:00",
        "missed_limit": "3",
        "absence_pauses_clock": "on",
        "table_size": "4",
        "swiss_rounds": "4",
        "cut_size": "",
        "advance_per_table": "1",
        "points": "place",
        "first_player": "balanced",
        "round_time": "14 00:00:00",
        "adjudication": "territories",
        "registration_closes_at_0": "",
        "registration_closes_at_1": "",
        "cap": "16",
        "check_in_opens_at_0": "",
        "check_in_opens_at_1": "",
        "starts_at_0": "",
        "starts_at_1": "",
        "late_join_until_round": "2",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def event_a(league_a: League, anna: Any) -> Tournament:
    return bot_event(league_a, anna, 4, swiss_rounds=1)


@pytest.fixture
def event_b(league_b: League, boris: Any) -> Tournament:
    return bot_event(league_b, boris, 4, swiss_rounds=1)


def finished(event: Tournament) -> Tournament:
    """The event started and run to its end: its one round adjudicated at its deadline.
    Its bots never move (their jobs wait for a commit that never comes in a test), so
    no game between bots runs on in the test."""
    rounds.start(event.pk)
    sweeps.sweep(timezone.now() + LATER)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    return event


# --- scoping: league A's organiser and league B's objects --------------------------------


def test_an_organiser_lists_only_their_own_leagues_events_players_rounds_and_tables(
    event_a: Tournament, event_b: Tournament, anna: Any
) -> None:
    rounds.start(event_a.pk)
    rounds.start(event_b.pk)
    client = signed_in(anna)

    for model in ("tournament", "entry", "round", "table"):
        listing = client.get(reverse(f"admin:tournaments_{model}_changelist"))
        assert listing.status_code == 200
        shown = {o.pk for o in listing.context["cl"].result_list}
        mine = {
            "tournament": Tournament.objects.filter(pk=event_a.pk),
            "entry": Entry.objects.filter(tournament=event_a),
            "round": Round.objects.filter(tournament=event_a),
            "table": Table.objects.filter(round__tournament=event_a),
        }[model]
        assert shown == set(mine.values_list("pk", flat=True)), model
    # The event filter offers only the organiser's own events, and filters by them.
    page = client.get(reverse("admin:tournaments_entry_changelist")).content.decode()
    assert "Berlin Conquerors" not in page and f"?tournament={event_b.pk}" not in page
    for model in ("entry", "round", "table"):
        url = reverse(f"admin:tournaments_{model}_changelist")
        own = client.get(f"{url}?tournament={event_a.pk}").context["cl"].result_list
        other = client.get(f"{url}?tournament={event_b.pk}")
        assert len(own) >= 1 and not (other.context and other.context["cl"].result_list)
    made = event_a.rounds.get()
    assert client.get(reverse("admin:tournaments_round_change", args=[made.pk])).status_code == 200
    away = client.get(reverse("admin:tournaments_round_change", args=[event_b.rounds.get().pk]))
    assert away.status_code == 302 and away["Location"] == reverse("admin:index")


def test_an_organiser_cannot_view_or_change_another_leagues_event(
    league_a: League, event_b: Tournament, anna: Any
) -> None:
    client = signed_in(anna)
    url = reverse("admin:tournaments_tournament_change", args=[event_b.pk])

    viewed = client.get(url)
    changed = client.post(url, settings_form(event_b.league, name="Hijacked"))

    # The admin answers as if the event did not exist (it redirects to its index).
    index = reverse("admin:index")
    assert viewed.status_code == 302 and viewed["Location"] == index
    assert changed.status_code == 302 and changed["Location"] == index
    event_b.refresh_from_db()
    assert event_b.name == "Format test" and event_b.description == ""


def test_an_organiser_cannot_create_an_event_in_another_league(
    league_a: League, league_b: League, anna: Any
) -> None:
    response = signed_in(anna).post(
        reverse("admin:tournaments_tournament_add"), settings_form(league_b)
    )

    assert response.status_code == 200  # the form again, with its error
    assert "league" in response.context["adminform"].form.errors
    assert not Tournament.objects.exists()


def test_an_organiser_cannot_act_on_another_leagues_objects(
    league_a: League, event_b: Tournament, anna: Any
) -> None:
    event_b = finished(event_b)
    entry = event_b.entries.first()
    made = event_b.rounds.get()
    table = made.tables.get()
    result_before = table.result
    client = signed_in(anna)

    act(client, "tournament", "pause", event_b)
    act(client, "tournament", "add_bot", event_b)
    act(client, "entry", "drop", entry)
    act(client, "round", "pair_again", made)
    exported = client.get(reverse("admin:tournaments_tournament_standings", args=[event_b.pk]))
    correcting = client.post(
        reverse("admin:tournaments_table_correct", args=[table.pk]),
        {f"place_{p}": "1" for group in result_before for p in group},
    )

    assert exported.status_code == 404 and correcting.status_code == 404
    assert event_b.entries.count() == 4
    assert not event_b.entries.filter(status=Entry.Status.DROPPED).exists()
    table.refresh_from_db()
    assert table.result == result_before and table.result_source != "corrected"
    assert event_b.rounds.get().seed == made.seed


def test_a_list_action_on_another_leagues_event_changes_nothing(
    league_a: League, event_b: Tournament, anna: Any
) -> None:
    act(signed_in(anna), "tournament", "start", event_b)

    event_b.refresh_from_db()
    assert event_b.status == Tournament.Status.REGISTRATION and not event_b.rounds.exists()


def test_site_staff_see_and_manage_every_league(
    event_a: Tournament, event_b: Tournament, sam: Any
) -> None:
    client = signed_in(sam)

    listing = client.get(reverse("admin:tournaments_tournament_changelist"))
    started = act(client, "tournament", "start", event_b)

    assert {o.pk for o in listing.context["cl"].result_list} == {event_a.pk, event_b.pk}
    assert "Format test: started: round 1 is paired." in said(started)
    event_b.refresh_from_db()
    assert event_b.status == Tournament.Status.RUNNING


# --- setting events up --------------------------------------------------------------------


def test_an_organiser_creates_an_event_with_all_its_settings(league_a: League, anna: Any) -> None:
    client = signed_in(anna)
    form = client.get(reverse("admin:tournaments_tournament_add")).context["adminform"].form
    assert set(eventsettings.SETTINGS) <= set(form.fields)
    assert list(form.fields["league"].queryset) == [league_a]
    assert (form["board"].value(), form["time_control"].value()) == ("original", "fixed")

    response = client.post(
        reverse("admin:tournaments_tournament_add"),
        settings_form(league_a, format="swiss_cut", cut_size="8", first_player="roll"),
        follow=True,
    )

    assert response.status_code == 200
    event = Tournament.objects.get()
    assert (event.league, event.name, event.slug) == (league_a, "Spring Cup", "spring-cup")
    assert event.format == "swiss_cut" and event.cut_size == 8 and event.swiss_rounds == 4
    assert event.first_player == "roll" and event.cap == 16 and event.late_join_until_round == 2
    assert event.status == Tournament.Status.DRAFT and event.seed


def test_settings_that_make_no_playable_event_are_refused_in_the_form(
    league_a: League, anna: Any
) -> None:
    response = signed_in(anna).post(
        reverse("admin:tournaments_tournament_add"),
        settings_form(league_a, format="elimination", table_size="3", advance_per_table="3"),
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "Refused: with tables as small as 3, 1 to 2 of each table can advance" in page
    assert not Tournament.objects.exists()


def test_an_organiser_edits_an_event_until_it_starts_then_only_what_is_safe(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    client = signed_in(anna)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])

    client.post(url, settings_form(league_a, name="Renamed", table_size="3", swiss_rounds="2"))
    event.refresh_from_db()
    assert (event.name, event.table_size, event.swiss_rounds) == ("Renamed", 3, 2)
    assert event.slug == "format-test"  # its address stays

    services.start_event(event, anna)
    form = client.get(url).context["adminform"].form
    assert "name" in form.fields and "round_time" in form.fields
    assert "table_size" not in form.fields and "format" not in form.fields
    client.post(url, settings_form(league_a, name="Spring Cup", table_size="4"))
    event.refresh_from_db()
    assert (event.name, event.table_size) == ("Spring Cup", 3)


def test_a_refusal_when_saving_shows_as_an_error_and_saves_nothing(
    league_a: League, anna: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The services check again under the event's lock what the form checked before
    (another organiser may have changed the event meanwhile): their refusal wins."""
    event = services.create_tournament(league_a, anna, "Draft")
    monkeypatch.setattr(TournamentForm, "clean", forms.ModelForm.clean)  # a stale check
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])

    response = signed_in(anna).post(
        url, settings_form(league_a, name="Draft", round_time="00:30:00"), follow=True
    )

    assert said(response) == ["Refused: allow a round at least an hour. Nothing was changed."]
    assert response.redirect_chain[-1][0] == url
    event.refresh_from_db()
    assert event.round_time == timedelta(days=14)
    assert not LogEntry.objects.exists()


# --- acting on events -----------------------------------------------------------------------


def test_an_organiser_opens_registration_adds_bots_starts_pauses_and_resumes(
    league_a: League, anna: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Club night", swiss_rounds=1)
    client = signed_in(anna)

    too_early = act(client, "tournament", "start", event)
    assert "Club night: refused: only an event whose registration is open can start." in said(
        too_early
    )
    assert "Club night: registration is open." in said(
        act(client, "tournament", "open_registration", event)
    )
    assert "Club night: refused: registration opens only for an event being prepared." in said(
        act(client, "tournament", "open_registration", event)
    )
    assert "refused: an event needs at least two players to start" in " ".join(
        said(act(client, "tournament", "start", event))
    )
    for _ in range(3):
        act(client, "tournament", "add_bot", event)
    assert event.entries.filter(bot="greedy").count() == 3
    assert "Club night: started: round 1 is paired." in said(
        act(client, "tournament", "start", event)
    )
    assert "Club night: paused, with its 1 running game." in said(
        act(client, "tournament", "pause", event)
    )
    assert Game.objects.get().paused_at is not None
    assert "Club night: refused: only a running event can be paused." in said(
        act(client, "tournament", "pause", event)
    )
    assert "Club night: resumed, with its 1 running game." in said(
        act(client, "tournament", "resume", event)
    )
    assert "refused: bots join before the event starts" in " ".join(
        said(act(client, "tournament", "add_bot", event))
    )
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING and Game.objects.get().paused_at is None


def test_an_organiser_drops_and_reinstates_a_player(
    league_a: League, anna: Any, alice: Any, bob: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Club night")
    services.open_registration(event, anna)
    entry = services.register(event, alice)
    services.register(event, bob)
    client = signed_in(anna)

    assert "alice: dropped from Club night." in said(act(client, "entry", "drop", entry))
    assert "alice: refused: alice is not playing." in said(act(client, "entry", "drop", entry))
    assert "alice: registered again." in said(act(client, "entry", "reinstate", entry))
    assert "alice: refused: alice has not been dropped." in said(
        act(client, "entry", "reinstate", entry)
    )
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED and entry.note == "reinstated by an organiser"


def test_an_organiser_admits_a_player_from_the_waiting_list(
    league_a: League, anna: Any, alice: Any, bob: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Club night", cap=1)
    services.open_registration(event, anna)
    services.register(event, alice)
    waiting = services.register(event, bob)
    client = signed_in(anna)

    assert "bob: admitted to Club night." in said(act(client, "entry", "admit", waiting))
    assert "bob: refused: bob is not on the waiting list." in said(
        act(client, "entry", "admit", waiting)
    )
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.REGISTERED
    assert OutgoingMail.objects.filter(to_user=bob, kind="tournament_promoted").count() == 1


def test_an_organiser_pairs_a_reviewed_round_again_then_starts_it(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 8, swiss_rounds=1, review_pairings=True)
    services.start_event(event, anna)
    made = event.rounds.get()
    client = signed_in(anna)

    assert "Format test, round 1: paired again (draw 1)." in said(
        act(client, "round", "pair_again", made)
    )
    again = event.rounds.get()
    assert again.seed != made.seed and not Game.objects.exists()
    assert "Format test, round 1: started, 2 tables." in said(
        act(client, "round", "start_rounds", again)
    )
    assert Game.objects.count() == 2
    assert (
        "Format test, round 1: refused: only a paired round that has not started can be started."
        in said(act(client, "round", "start_rounds", again))
    )
    refused = act(client, "round", "pair_again", again)
    assert (
        "Format test, round 1: refused: a round that has started cannot be paired again."
        in said(refused)
    )
    assert event.rounds.get().seed == again.seed and Game.objects.count() == 2


# --- results and standings -----------------------------------------------------------------


def test_an_organiser_corrects_a_finished_tables_result(event_a: Tournament, anna: Any) -> None:
    event = finished(event_a)
    table = event.rounds.get().tables.get()
    order = [p for group in table.result for p in group]
    client = signed_in(anna)
    url = reverse("admin:tournaments_table_correct", args=[table.pk])

    page = client.get(url)
    # The last player wins, the others tie second.
    places = {f"place_{p}": "2" for p in order}
    places[f"place_{order[-1]}"] = "1"
    done = client.post(url, places, follow=True)

    assert page.status_code == 200 and "Correct the result" in page.content.decode()
    shown = client.get(reverse("admin:tournaments_table_change", args=[table.pk])).content
    assert url in shown.decode() and " &gt; " in shown.decode()
    assert f"{table}: the result is corrected." in said(done)
    table.refresh_from_db()
    assert table.result[0] == [order[-1]]
    assert sorted(table.result[1]) == sorted(order[:-1]) and table.result_source == "corrected"
    assert history.standings(event).lines[0].player == order[-1]


def test_a_result_of_a_table_still_playing_cannot_be_corrected(
    event_a: Tournament, anna: Any
) -> None:
    services.start_event(event_a, anna)
    table = event_a.rounds.get().tables.get()
    players = table.seats.values_list("entry_id", flat=True)

    refused = signed_in(anna).post(
        reverse("admin:tournaments_table_correct", args=[table.pk]),
        {f"place_{p}": str(i) for i, p in enumerate(players, start=1)},
        follow=True,
    )

    assert "Refused: only a finished table's result can be corrected. Nothing was changed." in (
        said(refused)
    )
    table.refresh_from_db()
    assert table.result == [] and table.result_source == ""


def test_the_standings_export_has_a_row_per_player_with_every_tie_break(
    event_a: Tournament, anna: Any
) -> None:
    event = finished(event_a)
    table = event.rounds.get().tables.get()
    # One player a place: the points by place and the tie-breaks differ.
    services.correct_result(event, anna, table.pk, [[p] for g in table.result for p in g])
    client = signed_in(anna)

    download = client.get(reverse("admin:tournaments_tournament_standings", args=[event.pk]))
    by_action = act(client, "tournament", "export_standings", event)

    assert download.status_code == 200 and download["Content-Type"].startswith("text/csv")
    assert "amsterdam-pyramids-format-test-standings.csv" in download["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert rows[0] == list(export.COLUMNS)
    assert by_action.content == download.content
    standings = history.standings(event)
    assert len(rows) == 1 + len(standings.lines) == 5
    for row, line in zip(rows[1:], standings.lines, strict=True):
        values = dict(zip(rows[0], row, strict=True))
        assert int(values["rank"]) == line.rank and int(values["entry"]) == line.player
        assert float(values["points"]) == pytest.approx(line.points)
        assert float(values["outfinished_share"]) == pytest.approx(line.outfinished_share)
        assert float(values["opponents_average"]) == pytest.approx(line.opponents_average)
        assert int(values["draw"]) == line.draw and int(values["games"]) == line.games
        assert values["player"] == Entry.objects.get(pk=line.player).name


def test_exporting_needs_one_event(event_a: Tournament, league_a: League, anna: Any) -> None:
    other = services.create_tournament(league_a, anna, "Another")

    response = act(signed_in(anna), "tournament", "export_standings", event_a, other)

    assert "Select one event to export." in said(response)


# --- words: durations as people write them, boards and time controls by name -----------


def test_an_organiser_types_durations_as_people_write_them(league_a: League, anna: Any) -> None:
    client = signed_in(anna)
    response = client.post(
        reverse("admin:tournaments_tournament_add"),
        settings_form(
            league_a,
            decision_time="2d",
            retreat_time="90 min",
            increment="1d 12h",
            round_time="14 days",
        ),
        follow=True,
    )

    assert response.status_code == 200
    event = Tournament.objects.get()
    assert event.decision_time == timedelta(days=2)
    assert event.retreat_time == timedelta(minutes=90)
    assert event.increment == timedelta(days=1, hours=12)
    assert event.round_time == timedelta(days=14)
    page = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    html = page.content.decode()
    assert 'name="decision_time" value="2d"' in html and 'value="1d 12h"' in html
    assert 'value="1h 30min"' in html and 'name="round_time" value="14d"' in html
    assert "0:00:00" not in html


def readonly_value(html: str, name: str) -> str:
    """What the admin page shows of read-only field ``name`` (its text, tags removed)."""
    found = re.search(
        rf'class="[^"]*\bfield-{name}\b.*?<div class="readonly">(.*?)</div>', html, re.S
    )
    assert found, f"{name} is not shown read-only"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def no_clock_durations(html: str) -> None:
    """No duration on the page reads as Python prints one ("2 days, 0:00:00")."""
    assert ", 0:00:00" not in html and not re.search(r"\b\d+ days?, \d", html)
    assert not re.search(r">\s*\d+:\d\d:\d\d\s*<", html)


def test_a_started_events_settings_show_their_durations_as_people_write_them(
    league_a: League, anna: Any
) -> None:
    event = bot_event(
        league_a,
        anna,
        4,
        swiss_rounds=1,
        decision_time=timedelta(days=2),
        retreat_time=timedelta(minutes=90),
        bank_time=timedelta(days=5),
        increment=timedelta(days=1, hours=12),
    )
    services.start_event(event, anna)

    page = signed_in(anna).get(reverse("admin:tournaments_tournament_change", args=[event.pk]))

    assert page.status_code == 200
    html = page.content.decode()
    shown = {name: readonly_value(html, name) for name in SHOWN_DURATIONS}
    assert shown == {
        "decision_time": "2d",
        "retreat_time": "1h 30min",
        "bank_time": "5d",
        "increment": "1d 12h",
    }
    assert 'name="round_time" value="14d"' in html  # still changed, from the next round
    no_clock_durations(html)
    # The board and the time control, fixed once it started, by their names, not keys.
    assert readonly_value(html, "board") == "Original (2008)"
    assert readonly_value(html, "time_control") == "A fixed time for each decision"


SHOWN_DURATIONS = ("decision_time", "retreat_time", "bank_time", "increment")


def test_a_started_event_of_another_league_shows_nothing(
    league_a: League, event_b: Tournament, anna: Any, boris: Any
) -> None:
    services.start_event(event_b, boris)

    page = signed_in(anna).get(reverse("admin:tournaments_tournament_change", args=[event_b.pk]))

    assert page.status_code == 302 and page["Location"] == reverse("admin:index")


def test_a_duration_that_says_nothing_is_refused_with_an_example(
    league_a: League, anna: Any
) -> None:
    response = signed_in(anna).post(
        reverse("admin:tournaments_tournament_add"), settings_form(league_a, round_time="soon")
    )

    assert response.status_code == 200
    assert "Write a duration such as" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_event_form_offers_boards_and_time_controls_by_name(
    league_a: League, anna: Any
) -> None:
    form = signed_in(anna).get(reverse("admin:tournaments_tournament_add")).context["adminform"]
    fields = form.form.fields

    assert flat(fields["board"].choices)["original"] == BOARDS["original"].name
    assert dict(fields["time_control"].choices)["bank"] == Game.TimeControl.BANK.label


def test_an_events_board_shows_chosen_in_its_form_and_saves_into_its_options(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, board="balanced", swiss_rounds=1)
    client = signed_in(anna)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])

    assert client.get(url).context["adminform"].form["board"].value() == "balanced"
    client.post(url, settings_form(league_a, name="Format test", board="pyramid-arcade"))
    event.refresh_from_db()
    assert event.options == {
        "board": "pyramid-arcade",
        "setup": "strict",
        "retreat_into_origin": False,
    }

    services.start_event(event, anna)
    html = client.get(url).content.decode()
    assert readonly_value(html, "board") == BOARDS["pyramid-arcade"].name


def flat(choices: Any) -> dict[Any, str]:
    """A choice field's choices by value, its groups (one a game) opened."""
    found: dict[Any, str] = {}
    for value, label in choices:
        found.update(label if isinstance(label, list | tuple) else {value: label})
    return found
