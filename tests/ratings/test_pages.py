"""Players' public pages, the ladder's page and forms, and the seat effect page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from ratings.models import Ladder, LadderPlayer
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.ratings.conftest import end, played, table
from tournaments.models import League
from ww5.engine import BOARDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(league: League, anna: Any) -> Ladder:
    return ladders.create_ladder(league, anna, "Weekly", player_count="2", min_games=1)


def test_a_players_page_shows_the_rating_its_chart_and_the_games(
    client: Client, alice: Any, bob: Any, carol: Any
) -> None:
    played([alice, bob], [[1], [2]])
    played([alice, carol], [[1], [2]])
    running = table([alice, carol])
    hidden = table([alice, bob])
    type(hidden).objects.filter(pk=hidden.pk).update(is_public=False, name="Secret")
    page = client.get("/players/alice/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and "Rating after each game" in html
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert "<script" not in svg and 'href="http' not in svg  # nothing fetched, no script
    assert "viewBox=" in svg and ' width="' not in svg.split(">", 1)[0]  # scales to a phone
    assert f"/games/{running.pk}/" in html
    assert "Secret" not in html  # a private game is not shown to others
    assert "Games played to their end: 2 of 2" in html
    client.force_login(bob)
    assert "Secret" in client.get("/players/alice/").content.decode()  # to its players it is


def test_the_charts_dates_stay_few_enough_to_read_on_a_phone(
    client: Client, alice: Any, bob: Any
) -> None:
    import re
    from datetime import timedelta

    from django.utils import timezone

    from games.services import core

    start = timezone.now() - timedelta(weeks=30)
    previous = core.use_clock(lambda: start)
    try:
        for week in range(20):
            core.use_clock(lambda week=week: start + timedelta(weeks=week))
            played([alice, bob], [[1 + week % 2], [2 - week % 2]])
    finally:
        core.use_clock(previous)
    html = client.get("/players/alice/").content.decode()
    axis = html.split('class="axis x', 1)[1].split('class="axis y', 1)[0]
    dates = re.findall(r"<text[^>]*>\d{4}-\d\d-\d\d</text>", axis)
    assert 2 <= len(dates) <= 5  # a few dates, not one per game running into each other
    assert html.count('class="dot') >= 20  # while every game is still a point


def test_games_played_the_same_day_name_their_date_once_on_the_chart(
    client: Client, alice: Any, bob: Any
) -> None:
    import re

    played([alice, bob], [[1], [2]])
    played([alice, bob], [[2], [1]])
    played([alice, bob], [[1], [2]])

    html = client.get("/players/alice/").content.decode()

    axis = html.split('class="axis x', 1)[1].split('class="axis y', 1)[0]
    dates = re.findall(r"<text[^>]*>(\d{4}-\d\d-\d\d)</text>", axis)
    assert len(dates) == len(set(dates)) >= 1  # each date once, not one a tick of hours
    assert html.count('class="dot') >= 3  # every game is still a point


def test_a_player_without_rated_games_has_no_chart(client: Client, alice: Any) -> None:
    html = client.get("/players/alice/").content.decode()
    assert "No rated game yet" in html and "<svg" not in html


def test_joining_pausing_and_leaving_through_the_ladder_page(
    client: Client, ladder: Ladder, alice: Any
) -> None:
    client.force_login(alice)
    client.post(f"/ladders/{ladder.pk}/join/", {"max_games": "2"})
    entry = LadderPlayer.objects.get(user=alice)
    assert entry.max_games == 2 and entry.status == "active"
    client.post(f"/ladders/{ladder.pk}/pause/")
    entry.refresh_from_db()
    assert entry.status == "paused" and entry.waiting_since is None
    client.post(f"/ladders/{ladder.pk}/resume/")
    entry.refresh_from_db()
    assert entry.status == "active" and entry.waiting_since is not None
    page = client.post(f"/ladders/{ladder.pk}/join/", {"max_games": "99"}, follow=True)
    assert "Refused" in page.content.decode()
    entry.refresh_from_db()
    assert entry.max_games == 2
    client.post(f"/ladders/{ladder.pk}/leave/")
    entry.refresh_from_db()
    assert entry.status == "left"


def test_the_ladder_page_shows_the_leaderboard_and_games_to_watch(
    client: Client, ladder: Ladder, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    for user in (alice, bob, carol, dave):
        ladders.join(ladder, user)
    first, second = matchmaking.match(ladder.pk)
    end(first.game, [[1], [2]])
    html = client.get(f"/ladders/{ladder.pk}/").content.decode()
    winner = first.game.seats.get(number=1).user
    assert f'href="/players/{winner.username}/"' in html
    assert f"/games/{second.game.pk}/" in html  # in progress, public: anyone may watch
    assert f"/games/{first.game.pk}/" not in html


def test_the_ladder_page_says_its_time_control_in_words_and_its_board_by_name(
    client: Client, league: League, anna: Any
) -> None:
    fixed = ladders.create_ladder(league, anna, "Daily", decision_time=timedelta(hours=36))
    bank = ladders.create_ladder(
        league, anna, "Banked", time_control="bank", bank_time=timedelta(days=14)
    )

    fixed_page = client.get(f"/ladders/{fixed.pk}/").content.decode()
    bank_page = client.get(f"/ladders/{bank.pk}/").content.decode()

    assert "1 day, 12 hours per decision" in fixed_page
    assert "a time bank of 14 days plus 1 day per decision" in bank_page
    assert "0:00:00" not in fixed_page + bank_page
    assert BOARDS[fixed.options["board"]].name in fixed_page and "board original" not in fixed_page
    listed = client.get("/ladders/").content.decode()
    assert f"{BOARDS['original'].name}</li>" in listed and "board original" not in listed


def test_the_seat_effect_page_is_for_organisers(
    client: Client, ladder: Ladder, anna: Any, alice: Any, bob: Any
) -> None:
    for user in (alice, bob):
        ladders.join(ladder, user)
    (made,) = matchmaking.match(ladder.pk)
    end(made.game, [[1], [2]])
    client.force_login(alice)
    assert client.get(f"/ladders/{ladder.pk}/seats/").status_code == 404
    client.force_login(anna)
    page = client.get(f"/ladders/{ladder.pk}/seats/")
    assert page.status_code == 200
    rows = page.context["shares"]
    assert [(s.players, s.seat, s.games, s.wins) for s in rows] == [(2, 1, 1, 1), (2, 2, 1, 0)]


def test_a_players_page_lists_their_places_in_finished_events(
    client: Client,
    league: League,
    anna: Any,
    alice: Any,
    bob: Any,
    carol: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Table, Tournament
    from tournaments.services import rounds, sweeps

    event = services.create_tournament(league, anna, "Spring Cup", table_size=3, swiss_rounds=1)
    services.open_registration(event, anna)
    for user in (alice, bob, carol):
        services.register(event, user)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start(event.pk)
    game = Table.objects.get(round__tournament=event).game
    assert game is not None
    with django_capture_on_commit_callbacks(execute=True):
        end(game, [[2], [1], [3]])
        sweeps.sweep(timezone.now() + timedelta(days=30))
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    second = game.seats.get(number=2).user
    html = client.get(f"/players/{second.username}/").content.decode()
    assert "Spring Cup" in html and "1 of 3" in html


def test_a_private_ladder_is_seen_by_the_leagues_members_not_by_one_who_left(
    client: Client, league: League, anna: Any, alice: Any, bob: Any
) -> None:
    from tournaments.models import Membership

    hidden = ladders.create_ladder(league, anna, "Backroom", player_count="2", is_public=False)
    Membership.objects.create(league=league, user=alice, status=Membership.Status.ACTIVE)
    Membership.objects.create(league=league, user=bob, status=Membership.Status.LEFT)
    client.force_login(alice)
    assert client.get(f"/ladders/{hidden.pk}/").status_code == 200
    client.force_login(bob)
    assert client.get(f"/ladders/{hidden.pk}/").status_code == 404
    assert client.get(f"/ladders/{hidden.pk}/leaderboard.json").status_code == 404
    assert "Backroom" not in client.get("/ladders/").content.decode()


def test_a_players_page_shows_a_private_games_points_and_lines_only_to_who_may_see_it(
    client: Client, django_user_model: Any, alice: Any, bob: Any, carol: Any
) -> None:
    played([alice, bob], [[1], [2]])
    hidden = played([alice, bob], [[2], [1]])
    type(hidden).objects.filter(pk=hidden.pk).update(is_public=False, name="Secret")
    client.force_login(carol)
    html = client.get("/players/alice/").content.decode()
    assert html.count('class="dot reactive') == 1  # the public game's point only
    assert "Secret" not in html
    client.force_login(bob)  # a player of the private game
    html = client.get("/players/alice/").content.decode()
    assert html.count('class="dot reactive') == 2 and "Secret" in html
    staff = django_user_model.objects.create_user("sam", is_staff=True)
    client.force_login(staff)  # staff alone organise nothing: not theirs to see
    html = client.get("/players/alice/").content.decode()
    assert html.count('class="dot reactive') == 1 and "Secret" not in html
    staff.user_permissions.add(Permission.objects.get(codename="organise_any_game"))
    staff = django_user_model.objects.get(pk=staff.pk)  # permissions are cached per object
    client.force_login(staff)  # who organises every game sees it too (games' rule)
    html = client.get("/players/alice/").content.decode()
    assert html.count('class="dot reactive') == 2 and "Secret" in html


def test_after_joining_the_ladder_page_shows_who_waits_and_when_the_next_table_forms(
    client: Client, league: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from accounts.services import profile_for

    four = ladders.create_ladder(league, anna, "Foursomes", player_count="4")
    ladders.join(four, bob)
    run = timezone.now() + timedelta(minutes=30)
    Ladder.objects.filter(pk=four.pk).update(match_due_at=run)
    profile = profile_for(alice)
    profile.time_zone = "Asia/Tokyo"
    profile.save()
    client.force_login(alice)

    page = client.post(f"/ladders/{four.pk}/join/", {"max_games": "1"}, follow=True)

    html = page.content.decode()
    waiting = html.split('id="waiting-heading"', 1)[1].split("</section>", 1)[0]
    assert "2 players with room for another game" in waiting
    assert 'href="/players/bob/">' in waiting and 'href="/players/alice/">' in waiting
    assert waiting.index("/players/bob/") < waiting.index("/players/alice/")  # longest first
    assert "(you), waiting less than a minute" in waiting
    assert "A table needs 4 players: 2 more must join" in waiting
    tokyo = timezone.localtime(run, timezone=ZoneInfo("Asia/Tokyo"))
    assert f"Matchmaking runs next at {tokyo:%-d %b %Y %H:%M} JST (Asia/Tokyo)" in waiting
    assert "then every minute." in waiting  # not "every 1 minute"
    assert "carol" not in waiting

    ladders.join(four, carol)
    ladders.join(four, dave)
    waiting = client.get(f"/ladders/{four.pk}/").content.decode().split('id="waiting-heading"')[1]
    assert "Enough players wait for a table of 4: it forms at the next matchmaking run" in waiting


def test_a_player_with_all_the_games_they_asked_for_is_not_listed_as_waiting(
    client: Client, ladder: Ladder, alice: Any, bob: Any
) -> None:
    ladders.join(ladder, alice)
    ladders.join(ladder, bob)
    matchmaking.match(ladder.pk)

    html = client.get(f"/ladders/{ladder.pk}/").content.decode()

    waiting = html.split('id="waiting-heading"', 1)[1].split("</section>", 1)[0]
    assert "No one is waiting for a table right now." in waiting
    assert "/players/alice/" not in waiting


def test_a_private_ladders_waiting_players_are_not_shown_to_outsiders(
    client: Client, league: League, anna: Any, alice: Any, bob: Any
) -> None:
    hidden = ladders.create_ladder(league, anna, "Backroom", player_count="2", is_public=False)
    ladders.join(hidden, alice)
    client.force_login(bob)

    response = client.get(f"/ladders/{hidden.pk}/")

    assert response.status_code == 404
    assert "/players/alice/" not in response.content.decode()
