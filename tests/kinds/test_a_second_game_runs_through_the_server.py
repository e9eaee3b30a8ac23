"""A second game, with hidden information and sealed decisions, runs through every part of
the server that World War 5 does: a Swiss event of bots to its end, an event's game cut
short by its round's deadline and ranked by the kind's own measure, a ladder whose games are
rated in the kind's own pool, and a game opened, filled and started in the lobby. The game
is a kind of these tests only (``tests.kinds.numbers``): nothing of it is outside the
tests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import selectors as game_selectors
from games import services as games
from games.models import Game, Seat
from ratings.models import Ladder, LadderGame, Rating
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.kinds.numbers import SecretNumbers
from tests.kinds.registered import registered
from tests.personas import make_user
from tests.tournaments.conftest import bot_event
from tests.tournaments.test_formats import run
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Table
from tournaments.selectors import history, report
from tournaments.services import rounds, sweeps

pytestmark = pytest.mark.django_db

LATER = timedelta(days=30)


@pytest.fixture(autouse=True)
def numbers() -> Iterator[SecretNumbers]:
    with registered(SecretNumbers()) as kind:
        yield kind


@pytest.fixture
def league(anna: Any) -> League:
    return services.create_league("Numbers League", anna)


@pytest.fixture
def anna(django_user_model: Any) -> Any:
    return make_user(django_user_model, "anna")


def people(django_user_model: Any, count: int) -> list[Any]:
    return [make_user(django_user_model, f"player{n}") for n in range(count)]


def test_a_swiss_event_of_bots_plays_the_second_game_to_its_end(
    league: League, anna: Any, numbers: SecretNumbers, django_capture_on_commit_callbacks: Any
) -> None:
    event = bot_event(league, anna, 6, kind=numbers.key, table_size=3, swiss_rounds=2)
    assert set(event.entries.values_list("bot", flat=True)) == {"random"}  # the kind's bot

    played = run(event, django_capture_on_commit_callbacks)

    assert [r.stage for r in played] == ["swiss", "swiss"]
    for table in Table.objects.filter(round__tournament=event):
        game = Game.objects.get(pk=table.game_id)
        assert game.kind == numbers.key and game.status == Game.Status.OVER
        assert game.options == {"rounds": 3}
        assert table.result_source == "game"
        state = numbers.load(game.position)
        by_points = sorted(state["scores"].values(), reverse=True)
        entry_of = {
            s.player_name: e
            for s, e in zip(
                game.seats.order_by("number"),
                table.seats.order_by("number").values_list("entry_id", flat=True),
                strict=True,
            )
        }
        first = table.result[0]
        assert {state["scores"][p] for p, e in entry_of.items() if e in first} == {by_points[0]}
    standings = history.standings(event)
    assert len(standings.lines) == 6
    published = report.event_report(event)
    assert published["status"] == "finished" and len(published["rounds"]) == 2


def test_an_events_table_size_is_the_kinds(
    league: League, anna: Any, numbers: SecretNumbers
) -> None:
    with pytest.raises(TournamentError, match="a table of Secret numbers has 2 to 4 players"):
        services.create_tournament(league, anna, "Too big", kind=numbers.key, table_size=5)


def test_a_game_cut_short_by_its_rounds_deadline_is_ranked_by_the_kinds_points(
    league: League, anna: Any, numbers: SecretNumbers, django_user_model: Any
) -> None:
    players = people(django_user_model, 3)
    event = services.create_tournament(
        league, anna, "Cut short", kind=numbers.key, table_size=3, swiss_rounds=1
    )
    services.open_registration(event, anna)
    for player in players:
        services.register(event, player)
    made = rounds.start(event.pk)
    assert made is not None
    table = made.tables.get()
    game = Game.objects.get(pk=table.game_id)
    user_of = {s.player_name: s.user for s in game.seats.all()}
    # round one: p1 alone picks 5 and scores; the others picked 1 together
    for player, pick in (("p1", "5"), ("p2", "1"), ("p3", "1")):
        games.submit_move(game.pk, user_of[player], f"pick {pick}", 0)
    game.refresh_from_db()
    assert numbers.load(game.position)["scores"] == {"p1": 1, "p2": 0, "p3": 0}

    sweeps.sweep(timezone.now() + LATER)

    table.refresh_from_db()
    game.refresh_from_db()
    assert table.result_source == "adjudicated"
    assert game.status == Game.Status.OVER
    entry_of = {
        s.player_name: Entry.objects.get(tournament=event, user=s.user).pk for s in game.seats.all()
    }
    assert table.result[0] == [entry_of["p1"]]
    ranking = report.event_report(event)["settings"]["house_rule"]["ranking"]
    assert ranking == ["points scored", "elimination order"]


def test_a_ladder_of_the_second_game_rates_it_in_its_own_pool(
    league: League,
    anna: Any,
    numbers: SecretNumbers,
    django_user_model: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    players = people(django_user_model, 2)
    ladder = ladders.create_ladder(
        league, anna, "Numbers ladder", kind=numbers.key, player_count="3"
    )
    for player in players:
        ladders.join(ladder, player, 1)
    Ladder.objects.filter(pk=ladder.pk).update(rates_bots=True)
    ladders.add_bot(ladder, anna)  # the kind's first bot
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=timezone.now())

    with django_capture_on_commit_callbacks(execute=True):  # the bot picks at once
        (made,) = matchmaking.match(ladder.pk, timezone.now())

    game = made.game
    assert game.kind == numbers.key and game.status == Game.Status.PLAY
    for _ in range(3):  # three rounds: the people pick, the bot picks on its own
        game.refresh_from_db()
        for seat in game_selectors.waiting_seats(game):
            if seat.user is not None:
                with django_capture_on_commit_callbacks(execute=True):
                    games.submit_move(game.pk, seat.user, "pick 3", game.turn_number)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    made.refresh_from_db()
    assert made.finished_at is not None
    rated = Rating.objects.filter(season__ladder=ladder)
    assert rated.count() == 3 and set(rated.values_list("kind", flat=True)) == {numbers.key}
    assert not Rating.objects.filter(kind="ww5").exists()
    assert LadderGame.objects.filter(season__ladder=ladder).count() == 1


def test_the_lobby_opens_fills_and_starts_a_game_of_the_second_kind(
    numbers: SecretNumbers, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = people(django_user_model, 2)
    game = games.create_lobby_game(alice, kind=numbers.key, seats=3, rounds=2)
    games.join_game(game.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):  # the bot picks at once
        games.add_bot(game.pk, alice, "random")
    game.refresh_from_db()

    assert game.status == Game.Status.PLAY and game.options == {"rounds": 2}
    assert [s.player_name for s in game.seats.order_by("number")] == ["p1", "p2", "p3"]
    assert not Seat.objects.filter(game=game).exclude(home="").exists()
    waiting = {s.player_name for s in game_selectors.waiting_seats(game)}
    assert waiting == {"p1", "p2"}  # the bot picked at once; the people are asked
