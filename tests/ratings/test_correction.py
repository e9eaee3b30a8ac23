"""An organiser's correction of a tournament result replays the ratings after it."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.models import JournalEntry, Rating
from ratings.services import pools
from tests.ratings.conftest import end, played
from tournaments import services
from tournaments.models import League, Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def _global() -> dict[int, tuple[float, float, int]]:
    return {
        r.user_id: (r.mu, r.sigma, r.games)
        for r in Rating.objects.filter(season__isnull=True, games__gt=0)
    }


def test_a_corrected_result_replays_the_journal_from_that_game_on(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    event = services.create_tournament(league, anna, "Corrected", table_size=4)
    services.open_registration(event, anna)
    for user in (alice, bob, carol, dave):
        services.register(event, user)
    rounds.start(event.pk)
    table = Table.objects.get(round__tournament=event)
    game = table.game
    assert game is not None
    end(game, [[1], [2], [3], [4]])
    seat_one = game.seats.get(number=1).user
    later = played([alice, bob], [[1], [2]])  # a later game of two of them
    before_later = {r.user_id: r.mu_before for r in JournalEntry.objects.filter(game=later)}
    first_rows = {r.user_id: r.mu_after for r in JournalEntry.objects.filter(game=game)}

    table.refresh_from_db()
    entries = [group[0] for group in table.result]
    services.correct_result(
        event, anna, table.pk, [[entries[3]], [entries[2]], [entries[1]], [entries[0]]]
    )

    corrected = {r.user_id: r for r in JournalEntry.objects.filter(game=game)}
    assert corrected[seat_one.pk].rank == 4
    assert all(row.corrected for row in corrected.values())
    assert corrected[seat_one.pk].mu_after < first_rows[seat_one.pk]
    after_later = {r.user_id: r.mu_before for r in JournalEntry.objects.filter(game=later)}
    assert after_later != before_later  # the later game was rated again
    assert {
        k: (s.rating.mu, s.rating.sigma, s.games) for k, s in pools.recompute(None).items()
    } == _global()


def test_a_correction_to_the_same_order_changes_nothing(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = services.create_tournament(league, anna, "Same", table_size=3)
    services.open_registration(event, anna)
    for user in (alice, bob, carol):
        services.register(event, user)
    rounds.start(event.pk)
    table = Table.objects.get(round__tournament=event)
    assert table.game is not None
    end(table.game, [[1], [2], [3]])
    ratings = _global()
    table.refresh_from_db()
    services.correct_result(event, anna, table.pk, table.result)
    assert _global() == ratings
    assert not JournalEntry.objects.filter(corrected=True).exists()


def test_a_correction_to_a_tie_rates_the_tied_players_alike(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = services.create_tournament(league, anna, "Tied", table_size=3)
    services.open_registration(event, anna)
    for user in (alice, bob, carol):
        services.register(event, user)
    rounds.start(event.pk)
    table = Table.objects.get(round__tournament=event)
    game = table.game
    assert game is not None
    end(game, [[1], [2], [3]])
    later = played([alice, bob, carol], [[3], [2], [1]])
    table.refresh_from_db()
    first, second, third = (group[0] for group in table.result)
    services.correct_result(event, anna, table.pk, [[first, second], [third]])

    rows = {r.seat: r for r in JournalEntry.objects.filter(game=game)}
    assert (rows[1].rank, rows[2].rank, rows[3].rank) == (1, 1, 3)
    assert (rows[1].mu_after, rows[1].sigma_after) == (rows[2].mu_after, rows[2].sigma_after)
    assert rows[1].corrected and rows[2].corrected
    assert JournalEntry.objects.filter(game=later, corrected=False).count() == 3
    assert {
        k: (s.rating.mu, s.rating.sigma, s.games) for k, s in pools.recompute(None).items()
    } == _global()


def test_a_correction_keeps_each_game_whole_when_journal_rows_interleave(
    alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    """Two games of different players rated at the same moment may interleave their
    journal rows; replaying from one of them takes whole games, never half of the other."""
    first = played([alice, bob], [[1], [2]])
    second = played([carol, dave], [[1], [2]])
    rows = list(JournalEntry.objects.filter(season__isnull=True).order_by("pk"))
    assert [r.game_id for r in rows] == [first.pk, first.pk, second.pk, second.pk]
    # Renumber to first, second, first, second, as two concurrent inserts may leave them.
    top = max(r.pk for r in rows) + 100
    wanted = [rows[0], rows[2], rows[1], rows[3]]
    for offset, row in enumerate(wanted):
        JournalEntry.objects.filter(pk=row.pk).update(id=top + offset)
    first_rows = {
        r.user_id: (r.mu_after, r.sigma_after) for r in JournalEntry.objects.filter(game=first)
    }

    seats = {s.number: s.pk for s in second.seats.all()}
    pools.correct(second, {seats[1]: 2, seats[2]: 1})

    assert {
        r.user_id: (r.mu_after, r.sigma_after) for r in JournalEntry.objects.filter(game=first)
    } == first_rows
    flipped = {r.seat: r.rank for r in JournalEntry.objects.filter(game=second)}
    assert flipped == {1: 2, 2: 1}
    assert {
        k: (s.rating.mu, s.rating.sigma, s.games) for k, s in pools.recompute(None).items()
    } == _global()
