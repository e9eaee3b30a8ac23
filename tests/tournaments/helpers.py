"""Events played out on paper for the tournament core's tests: Swiss rounds paired by
the core, with finishing orders drawn from a seeded random source."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import strategies as st

from tournaments.core.pairing import SwissPairing, SwissSettings, pair_swiss
from tournaments.core.results import Bye, GameResult, PlayerId, Result
from tournaments.core.standings import (
    FIVE_THREE_TWO_ONE,
    Entrant,
    PointsTable,
    Standings,
    compute_standings,
)


def play(pairing: SwissPairing, round: int, rng: random.Random) -> list[Result]:
    """Every table's game finished in a drawn order, and the byes."""
    results: list[Result] = []
    for table in pairing.tables:
        order = list(table.players)
        rng.shuffle(order)
        results.append(GameResult.ranked(round, order))
    results += [Bye(round, p) for p in pairing.byes]
    return results


def swiss_event(
    players: Sequence[PlayerId],
    rounds: int,
    *,
    seed: int = 1,
    table: PointsTable = FIVE_THREE_TWO_ONE,
    settings: SwissSettings | None = None,
) -> tuple[list[Result], list[SwissPairing], Standings]:
    """A Swiss event played out: its results, each round's pairing, the standings."""
    rng = random.Random(seed)
    entrants = [Entrant(p) for p in players]
    history: list[Result] = []
    pairings = []
    standings = compute_standings(entrants, history, table, seed=seed)
    for round in range(1, rounds + 1):
        pairing = pair_swiss(
            standings.active(),
            standings.points(),
            history,
            seed=seed + round,
            settings=settings or SwissSettings(),
        )
        pairings.append(pairing)
        history += play(pairing, round, rng)
        standings = compute_standings(entrants, history, table, seed=seed)
    return history, pairings, standings


@st.composite
def events(draw: st.DrawFn, most: int = 17) -> tuple[list[int], list[Result]]:
    """A field and a history of earlier rounds drawn at random (its tables and byes need
    not follow any pairing rule)."""
    n = draw(st.integers(0, most))
    players = list(range(n))
    history: list[Result] = []
    for round in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(players))
        start = 0
        while start < n:
            size = draw(st.integers(1, 4))
            chunk = order[start : start + size]
            start += size
            if len(chunk) == 1:
                history.append(Bye(round, chunk[0]))
            else:
                history.append(GameResult.ranked(round, chunk))
    return players, history
