"""An event's stored rounds read as the tournament core takes them: its entrants, the
results and byes so far, where each player sat, and the standings."""

from __future__ import annotations

from tournaments.core.results import Bye as ByeResult
from tournaments.core.results import GameResult, Result
from tournaments.core.seating import SeatRecord
from tournaments.core.standings import (
    FIVE_THREE_TWO_ONE,
    WIN_ONLY,
    Entrant,
    PointsTable,
    Standings,
    compute_standings,
)
from tournaments.core.tables import TableSizes
from tournaments.models import Bye, Entry, Table, TableSeat, Tournament

LEFT = (Entry.Status.WITHDRAWN, Entry.Status.DROPPED)


def points_table(tournament: Tournament) -> PointsTable:
    return WIN_ONLY if tournament.points == Tournament.Points.WIN_ONLY else FIVE_THREE_TWO_ONE


def table_sizes(tournament: Tournament) -> TableSizes:
    """Tables of the event's size filled with one smaller (tables of 4 filled with 3s),
    and tables of two only when the event allows them: tables of 3 are not filled with
    pairs, as the event's page says (a player left over has a bye)."""
    size = tournament.table_size
    allowed = {size, max(size - 1, 3)} if size > 3 else {size}
    if tournament.two_player_tables:
        allowed.add(2)
    return TableSizes(size, tuple(sorted(allowed)))


def entrants(tournament: Tournament) -> list[Entrant]:
    """Everyone who is or was in the event's rounds (not the waiting list, nor those
    dropped before it started); withdrawn and dropped players stay listed."""
    entries = tournament.entries.exclude(status=Entry.Status.WAITING).exclude(left_after_round=0)
    return [Entrant(e.pk, withdrawn=e.status in LEFT) for e in entries.order_by("pk")]


def results(tournament: Tournament) -> list[Result]:
    """The finished tables' orders (entry ids) and the byes, round by round. A table
    without a result (an abandoned game) counts as no game."""
    found: list[Result] = []
    tables = Table.objects.filter(round__tournament=tournament).exclude(result=[])
    for round_number, order in tables.values_list("round__number", "result"):
        found.append(GameResult(round_number, tuple(tuple(group) for group in order)))
    byes = Bye.objects.filter(round__tournament=tournament)
    found += [ByeResult(n, entry) for n, entry in byes.values_list("round__number", "entry_id")]
    return sorted(found, key=lambda r: r.round)


def seat_history(tournament: Tournament) -> list[SeatRecord]:
    seats = TableSeat.objects.filter(table__round__tournament=tournament)
    return [
        SeatRecord(entry, number - 1, home)
        for entry, number, home in seats.values_list("entry_id", "number", "home")
    ]


def standings(tournament: Tournament) -> Standings:
    return compute_standings(
        entrants(tournament), results(tournament), points_table(tournament), seed=tournament.seed
    )
