"""Standings: points by place, the tie-breaks, and each player's full breakdown.

Points: each game gives points by place from the organiser's points table; tied
players share the points of the places they tie for (two players tied for second at a
5/3/2/1 table get (3 + 2) / 2 = 2.5 each). A bye scores as a win: the table's first
value. Points are kept to six decimal places, so equal sums compare equal.

Tie-breaks, in order:

1. the share of opponents out-finished, over all games: each opponent who finished
   below the player counts 1, each tied with them 1/2, divided by the number of
   opponents faced (byes have none; no opponents: 0);
2. the opponents' average score: for each opponent faced (once per game together), the
   share of the most points they could have scored that they did score
   (points / (first-place points × rounds played, byes included)), with a floor of 0.33
   for a withdrawn opponent, averaged (no opponents: 0);
3. a draw from the event's seed: a number per player, the same all event long, lowest
   first.

A round a player missed (before joining late, or after withdrawing) scores nothing and
is no game: it counts in neither tie-break, theirs or their opponents'. So a player
joining at round 3 starts on 0 points and is paired with the players on the fewest
points. Withdrawn players keep their place in the standings, marked withdrawn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .results import Bye, GameResult, Order, PlayerId, Result

PLACES = 6  # decimal places points and tie-breaks are kept to
STEPS = ("points", "outfinished", "opponents", "draw")
DROPPED_FLOOR = 0.33


@dataclass(frozen=True)
class PointsTable:
    """Points by place for the largest table the organiser thinks of, best place first.

    Other table sizes are scaled (``row``): first place keeps the first value and last
    place the last value; the places between spread evenly over the values between
    (3 players at 5/3/2/1: 5, 2.5, 1; 6 players: 5, 3, 2.67, 2.33, 2, 1; "win only"
    stays a win only). ``rows`` sets a size's row outright instead, e.g.
    ``((3, (5.0, 3.0, 1.0)),)``.
    """

    places: tuple[float, ...]
    rows: tuple[tuple[int, tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        if len(self.places) < 2 or self.places[0] <= 0:
            raise ValueError("a points table has two places or more, and a win scores")
        for size, row in self.rows:
            if len(row) != size:
                raise ValueError(f"the row for {size} players has {size} values")

    @property
    def win(self) -> float:
        """What a win scores, and so a bye."""
        return self.places[0]

    def row(self, size: int) -> tuple[float, ...]:
        """Points by place at a table of ``size`` players."""
        for n, row in self.rows:
            if n == size:
                return row
        values = self.places
        if size == len(values):
            return values
        middle = values[1:-1]
        between: list[float] = []
        for i in range(size - 2):
            if not middle:
                between.append(values[-1])
            elif size == 3:
                between.append(_at(middle, (len(middle) - 1) / 2))
            else:
                between.append(_at(middle, i * (len(middle) - 1) / (size - 3)))
        return tuple(round(v, PLACES) for v in (values[0], *between, values[-1]))

    def points(self, order: Order) -> dict[PlayerId, float]:
        """Each player's points for one game: tied players share their places' points."""
        row = self.row(sum(len(group) for group in order))
        out, place = {}, 0
        for group in order:
            share = round(sum(row[place : place + len(group)]) / len(group), PLACES)
            for player in group:
                out[player] = share
            place += len(group)
        return out


def _at(values: Sequence[float], position: float) -> float:
    """The value at a fractional position, straight between its neighbours."""
    low = int(position)
    if low >= len(values) - 1:
        return values[-1]
    frac = position - low
    return values[low] * (1 - frac) + values[low + 1] * frac


WIN_ONLY = PointsTable((5.0, 0.0, 0.0, 0.0))
FIVE_THREE_TWO_ONE = PointsTable((5.0, 3.0, 2.0, 1.0))


@dataclass(frozen=True)
class Entrant:
    """A player of the event; a withdrawn player is paired no more but stays listed."""

    player: PlayerId
    withdrawn: bool = False


@dataclass(frozen=True)
class Standing:
    """One player's line: rank, points and every tie-break, as the pages show them.

    ``outfinished``: opponents out-finished (ties 1/2) of ``opponents`` faced;
    ``score_share``: the player's own points over the most they could have scored;
    ``separated_by``: the first step that ranks the player below the line above
    (one of ``STEPS``), None for the first line.
    """

    rank: int
    player: PlayerId
    points: float
    games: int
    byes: int
    opponents: int
    outfinished: float
    outfinished_share: float
    opponents_average: float
    score_share: float
    draw: int
    withdrawn: bool
    separated_by: str | None


@dataclass(frozen=True)
class Standings:
    """Every entrant's line, best first."""

    lines: tuple[Standing, ...]
    seed: int

    def active(self) -> tuple[PlayerId, ...]:
        """The players still in, best first: what a Swiss round pairs."""
        return tuple(s.player for s in self.lines if not s.withdrawn)

    def points(self) -> dict[PlayerId, float]:
        return {s.player: s.points for s in self.lines}

    def line(self, player: PlayerId) -> Standing:
        for s in self.lines:
            if s.player == player:
                return s
        raise KeyError(player)


def draw_number(seed: int, player: PlayerId) -> int:
    """The player's number in the event's draw: from the seed and the player alone, so
    it stays the same whoever else joins or leaves."""
    digest = hashlib.blake2b(f"{seed}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass
class _Tally:
    points: float = 0.0
    games: int = 0
    byes: int = 0
    outfinished: float = 0.0


def compute_standings(
    entrants: Sequence[Entrant],
    history: Iterable[Result],
    table: PointsTable,
    *,
    seed: int,
    dropped_floor: float = DROPPED_FLOOR,
) -> Standings:
    """The standings after the games and byes of ``history`` (see the module's text)."""
    tally = {e.player: _Tally() for e in entrants}
    if len(tally) != len(entrants):
        raise ValueError("each entrant is listed once")
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in tally}
    for result in history:
        _count(result, table, tally, opponents)
    withdrawn = {e.player for e in entrants if e.withdrawn}
    share = {p: _score_share(t, table) for p, t in tally.items()}
    rated = {p: max(share[p], dropped_floor) if p in withdrawn else share[p] for p in tally}
    keys = {}
    for p, t in tally.items():
        faced = opponents[p]
        out_share = round(t.outfinished / len(faced), PLACES) if faced else 0.0
        average = round(sum(rated[q] for q in faced) / len(faced), PLACES) if faced else 0.0
        keys[p] = (-round(t.points, PLACES), -out_share, -average, draw_number(seed, p))
    order = sorted(tally, key=lambda p: keys[p])
    lines = []
    for rank, p in enumerate(order, start=1):
        t, key = tally[p], keys[p]
        above = keys[order[rank - 2]] if rank > 1 else None
        lines.append(
            Standing(
                rank=rank,
                player=p,
                points=-key[0],
                games=t.games,
                byes=t.byes,
                opponents=len(opponents[p]),
                outfinished=t.outfinished,
                outfinished_share=-key[1],
                opponents_average=-key[2],
                score_share=round(share[p], PLACES),
                draw=key[3],
                withdrawn=p in withdrawn,
                separated_by=None if above is None else separating_step(above, key),
            )
        )
    return Standings(tuple(lines), seed)


def separating_step(better: tuple[float, ...], worse: tuple[float, ...]) -> str:
    """The first step (of ``STEPS``) at which two sort keys differ."""
    for step, a, b in zip(STEPS, better, worse, strict=True):
        if a != b:
            return step
    raise ValueError("two players never share a draw number")


def line_key(line: Standing) -> tuple[float, float, float, int]:
    """The sort key of a standings line (``separating_step`` compares two)."""
    return (-line.points, -line.outfinished_share, -line.opponents_average, line.draw)


def _count(
    result: Result,
    table: PointsTable,
    tally: dict[PlayerId, _Tally],
    opponents: dict[PlayerId, list[PlayerId]],
) -> None:
    """Add one game or bye to the tallies."""
    if isinstance(result, Bye):
        t = _tally_of(tally, result.player)
        t.points += table.win
        t.byes += 1
        return
    assert isinstance(result, GameResult)
    points = table.points(result.order)
    players = result.players
    below = len(players)
    for group in result.order:
        below -= len(group)
        for p in group:
            t = _tally_of(tally, p)
            t.points += points[p]
            t.games += 1
            t.outfinished += below + (len(group) - 1) / 2
            opponents[p].extend(q for q in players if q != p)


def _tally_of(tally: dict[PlayerId, _Tally], player: PlayerId) -> _Tally:
    try:
        return tally[player]
    except KeyError:
        raise ValueError(f"player {player} played but is not an entrant") from None


def _score_share(t: _Tally, table: PointsTable) -> float:
    """The share of the most points the player could have scored in the rounds played."""
    rounds = t.games + t.byes
    return t.points / (table.win * rounds) if rounds else 0.0
