"""Adjudicating an unfinished game at a round's deadline: a turn-limit house rule.

A game's rules may have no turn limit (World War 5's R28); a tournament may add one,
clearly labelled, with its own published way of ranking the players of a game still
running when it is reached. The organiser picks the ranking as a list of the game
kind's measure names (``GameKind.adjudication_measures``), compared in order, e.g.
``("territories", "pips", "elimination")``; the kind measures each player still in the
game, and this module ranks them from those values alone: it knows no game.

Players still in the game rank above every eliminated player, by the ranking (higher
values first); players equal on every step are tied. Eliminated players follow as the
game's own finishing order ranks them: the later eliminated the better, players
eliminated at the same moment tied (R24), forfeiters below everyone eliminated in play,
the later the better (R31). So "elimination" ranks only the eliminated, and it applies
whether named or not.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

ELIMINATION = "elimination"
# A player's values on a ranking's measures, in its order; None for a player already out
# of the game.
Values = Mapping[str, tuple[int, ...] | None]


@dataclass(frozen=True)
class Elimination:
    """Players out of the game at one moment, in the order it happened; ``forfeit``:
    the player forfeited (R31)."""

    players: tuple[str, ...]
    forfeit: bool = False


@dataclass(frozen=True)
class PlayerValues:
    """What ranked a player: the ranking's values for a player still in the game; for
    an eliminated player, when they went out (1 first) and whether by forfeit."""

    player: str
    values: tuple[int, ...]
    eliminated: int | None
    forfeit: bool


@dataclass(frozen=True)
class Adjudication:
    """The finishing order (groups of the kind's player names, best first), the ranking
    used and each player's values; ``decided_by[i]``: what put group i + 1 below group i
    (a ranking name, or "elimination")."""

    order: tuple[tuple[str, ...], ...]
    ranking: tuple[str, ...]
    values: tuple[PlayerValues, ...]
    decided_by: tuple[str, ...]


def ranking_steps(ranking: Sequence[str], measures: Collection[str]) -> tuple[str, ...]:
    """The measures a ranking compares the players still in by (all its names but
    "elimination"), if every one is among ``measures`` and none is repeated."""
    steps = tuple(name for name in ranking if name != ELIMINATION)
    unknown = [name for name in steps if name not in measures]
    if unknown or len(set(ranking)) != len(ranking):
        raise ValueError(f"unknown or repeated rankings: {', '.join(unknown) or ranking}")
    return steps


def adjudicate(
    values: Values,
    ranking: Sequence[str],
    eliminations: Sequence[Elimination],
    *,
    measures: Collection[str],
) -> Adjudication:
    """Rank an unfinished game's players (see the module's text).

    ``values``: every player of the game, in its order, with their values on the
    ranking's steps (``ranking_steps``), or None for a player out of the game;
    ``eliminations``: the players out, in the order they went out; ``measures``: the
    names the game's kind measures, which the ranking may use.
    """
    steps = ranking_steps(ranking, measures)
    if any(v is not None and len(v) != len(steps) for v in values.values()):
        raise ValueError("each player still in needs one value for each step of the ranking")
    out = _checked(values, eliminations)
    survivors = [name for name, v in values.items() if v is not None]
    measured = {name: v for name, v in values.items() if v is not None}
    order, decided = _rank_survivors(survivors, measured, steps)
    behind, decided_out = _rank_eliminated(out)
    if order and behind:
        decided.append(ELIMINATION)
    order += behind
    decided += decided_out
    details = [PlayerValues(name, measured.get(name, ()), *_out_of(name, out)) for name in values]
    return Adjudication(tuple(order), tuple(ranking), tuple(details), tuple(decided))


def _checked(values: Values, eliminations: Sequence[Elimination]) -> list[Elimination]:
    """The eliminations, checked against the players out of the game."""
    gone = [name for name, v in values.items() if v is None]
    listed = [name for e in eliminations for name in e.players]
    if sorted(listed) != sorted(gone):
        raise ValueError("the eliminations do not match the game's eliminated players")
    return list(eliminations)


def _rank_survivors(
    survivors: list[str], values: dict[str, tuple[int, ...]], steps: Sequence[str]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Higher values first; equal values tied."""
    ranked = sorted(survivors, key=lambda n: tuple(-v for v in values[n]))
    groups: list[list[str]] = []
    decided: list[str] = []
    for name in ranked:
        if groups and values[groups[-1][0]] == values[name]:
            groups[-1].append(name)
            continue
        if groups:
            above = values[groups[-1][0]]
            decided.append(
                next(s for s, a, b in zip(steps, above, values[name], strict=True) if a != b)
            )
        groups.append([name])
    return [tuple(g) for g in groups], decided


def _rank_eliminated(out: list[Elimination]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The later eliminated in play the better, together tied; forfeiters after them."""
    in_play = [e.players for e in reversed(out) if not e.forfeit]
    forfeited = [e.players for e in reversed(out) if e.forfeit]
    order = in_play + forfeited
    return order, [ELIMINATION] * max(0, len(order) - 1)


def _out_of(name: str, out: list[Elimination]) -> tuple[int | None, bool]:
    for i, e in enumerate(out, start=1):
        if name in e.players:
            return i, e.forfeit
    return None, False
