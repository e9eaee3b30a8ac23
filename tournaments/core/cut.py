"""Elimination in pods, and the top cut after a Swiss: seeded pods, the best of each
table advancing, until one final table.

Seeding spreads the top seeds: with P tables, table 1 gets seeds 1, 1+P, 1+2P, …,
table 2 gets 2, 2+P, … (a top 12 at four tables of 3: 1-5-9, 2-6-10, 3-7-11, 4-8-12).
The tables' sizes come from ``split_field``; where they differ, the smaller tables go
to the top seeds (fewer rivals is the reward for seeding), and so do byes when the
players left cannot be split into allowed tables: a bye advances without playing.

Once the players left fit at one table (no more than the largest allowed size; two at
least, R3), they play the final. Ties in a table's finishing order at the advancing
line go to the better seed (R24's simultaneous eliminations, an adjudication).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .results import Order, PlayerId
from .standings import Standing, Standings, line_key, separating_step
from .tables import FOURS_AND_THREES, TableSizes, split_field


@dataclass(frozen=True)
class Pod:
    """One table of an elimination round: its players and their seeds (1 best)."""

    players: tuple[PlayerId, ...]
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class EliminationRound:
    """A round's tables (top seed's first), the byes, and whether it is the final."""

    tables: tuple[Pod, ...]
    byes: tuple[PlayerId, ...]
    final: bool


def elimination_round(
    seeded: Sequence[PlayerId], sizes: TableSizes = FOURS_AND_THREES
) -> EliminationRound:
    """The round for the players still in, best seed first."""
    if len(set(seeded)) != len(seeded):
        raise ValueError("each player is seeded once")
    n = len(seeded)
    if n < 2:
        raise ValueError("an elimination round needs two players or more")
    if n <= max(sizes.allowed):
        everyone = Pod(tuple(seeded), tuple(range(1, n + 1)))
        return EliminationRound((everyone,), (), final=True)
    split = split_field(n, sizes)
    byes = tuple(seeded[: split.byes])
    playing = list(enumerate(seeded, start=1))[split.byes :]
    return EliminationRound(_stride(playing, sorted(split.tables)), byes, final=False)


def _stride(playing: list[tuple[int, PlayerId]], sizes: list[int]) -> tuple[Pod, ...]:
    """Deal the seeds out over the tables, one each in turn, skipping full tables."""
    seats: list[list[tuple[int, PlayerId]]] = [[] for _ in sizes]
    queue = iter(playing)
    while any(len(t) < s for t, s in zip(seats, sizes, strict=True)):
        for t, s in zip(seats, sizes, strict=True):
            if len(t) < s:
                t.append(next(queue))
    return tuple(Pod(tuple(p for _, p in t), tuple(s for s, _ in t)) for t in seats)


def advancing(
    round: EliminationRound, orders: Sequence[Order], advance: int = 1
) -> tuple[PlayerId, ...]:
    """Who goes on, best seed first: the byes and the top ``advance`` of each table
    (``orders``: each table's finishing order, in the round's table order). After the
    final, the champion alone (the first group's best seed)."""
    if len(orders) != len(round.tables):
        raise ValueError("one finishing order per table")
    if advance < 1:
        raise ValueError("at least one player of each table advances")
    going = list(round.byes)
    keep = 1 if round.final else advance
    for pod, order in zip(round.tables, orders, strict=True):
        if sorted(p for g in order for p in g) != sorted(pod.players):
            raise ValueError("a table's finishing order names its players")
        seed = dict(zip(pod.players, pod.seeds, strict=True))
        ranked = [p for group in order for p in sorted(group, key=seed.__getitem__)]
        going += ranked[:keep]
    rank = {p: i for i, p in enumerate(_seed_order(round))}
    return tuple(sorted(going, key=rank.__getitem__))


def _seed_order(round: EliminationRound) -> list[PlayerId]:
    seeds = {p: s for pod in round.tables for p, s in zip(pod.players, pod.seeds, strict=True)}
    return list(round.byes) + sorted(seeds, key=seeds.__getitem__)


def elimination_plan(
    players: int, sizes: TableSizes = FOURS_AND_THREES, advance: int = 1
) -> tuple[int, ...]:
    """The number of players in each round up to the final, published up front."""
    if advance >= min(sizes.allowed):
        raise ValueError("fewer players must advance than the smallest table seats")
    plan = []
    while players >= 2:
        plan.append(players)
        if players <= max(sizes.allowed):
            break
        split = split_field(players, sizes)
        players = split.byes + advance * len(split.tables)
    return tuple(plan)


@dataclass(frozen=True)
class CutLine:
    """The last player in and the first one out, and the step that parted them
    (one of ``standings.STEPS``)."""

    last_in: Standing
    first_out: Standing
    decided_by: str


@dataclass(frozen=True)
class TopCut:
    """The top K by standings (withdrawn players passed over), their first round, and
    the cut line (None when every player still in made the cut)."""

    seeded: tuple[PlayerId, ...]
    first_round: EliminationRound
    cut_line: CutLine | None


def top_cut(standings: Standings, k: int, sizes: TableSizes = FOURS_AND_THREES) -> TopCut:
    """The top cut after a Swiss: the standings order it (points, the tie-breaks, then
    the seeded draw), so a tie at the cut line is settled as the standings settle it."""
    eligible = [line for line in standings.lines if not line.withdrawn]
    if k < 2:
        raise ValueError("a top cut takes two players or more")
    made, missed = eligible[:k], eligible[k:]
    if len(made) < 2:
        raise ValueError("fewer than two players are left for the cut")
    line = None
    if missed:
        step = separating_step(line_key(made[-1]), line_key(missed[0]))
        line = CutLine(made[-1], missed[0], step)
    seeded = tuple(s.player for s in made)
    return TopCut(seeded, elimination_round(seeded, sizes), line)
