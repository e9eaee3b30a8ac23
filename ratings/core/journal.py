"""Rating games one after another, and replaying a pool's whole journal.

The incremental update (a game just finished) and the replay (a correction, a check)
call the same ``rate_game`` with the same inputs in the same order, so a replay gives
exactly, bit for bit, the ratings the incremental updates gave.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from ratings.core.model import (
    DEFAULT,
    Rating,
    Settings,
    carried,
    grown,
    idle_weeks,
    initial,
    rate,
)


@dataclass(frozen=True)
class PlayerState:
    """A player's rating in a pool after their last rated game (``last_played``; for a
    rating carried into a season, the game it was last rated in, in an earlier one)."""

    rating: Rating
    games: int = 0
    last_played: datetime | None = None

    def now(self, when: datetime, settings: Settings = DEFAULT) -> Rating:
        """The rating as it stands at ``when``: sigma grown for each idle week."""
        return grown(self.rating, idle_weeks(self.last_played, when), settings)


def carried_start(
    state: PlayerState, extra_sigma: float, settings: Settings = DEFAULT
) -> PlayerState:
    """A player's state carried into a new season: mu kept, ``extra_sigma`` more
    uncertainty, no game yet in it. Idle weeks still count from their last rated game,
    however long before the season's start it was and however long they then wait."""
    return PlayerState(carried(state.rating, extra_sigma, settings), 0, state.last_played)


@dataclass(frozen=True)
class GameResult:
    """A rated game: when it finished, and each player's (key, rank, seat number)."""

    game: int
    when: datetime
    players: tuple[tuple[Hashable, int, int], ...]


@dataclass(frozen=True)
class Row:
    """One journal row: a player's rating before (idle growth applied) and after."""

    game: int
    key: Hashable
    rank: int
    seat: int
    before: Rating
    after: Rating
    when: datetime


def rate_game(
    states: Mapping[Hashable, PlayerState],
    result: GameResult,
    settings: Settings = DEFAULT,
    start: Mapping[Hashable, PlayerState] | None = None,
) -> tuple[list[Row], dict[Hashable, PlayerState]]:
    """Rate one game: the journal rows and the players' new states. A player with no
    state in the pool starts from ``start`` (a rating carried into the season, idle
    growth applied) or a new rating."""
    before: dict[Hashable, Rating] = {}
    for key, _, _ in result.players:
        state = states.get(key) or (start or {}).get(key)
        if state is None:
            before[key] = initial(settings)
        else:
            before[key] = state.now(result.when, settings)
    after = rate([(key, rank, before[key]) for key, rank, _ in result.players], settings)
    rows = [
        Row(result.game, key, rank, seat, before[key], after[key], result.when)
        for key, rank, seat in result.players
    ]
    new_states = {}
    for key, _, _ in result.players:
        old = states.get(key)
        games = old.games if old is not None else 0
        new_states[key] = PlayerState(after[key], games + 1, result.when)
    return rows, new_states


def replay(
    results: Iterable[GameResult],
    settings: Settings = DEFAULT,
    start: Mapping[Hashable, PlayerState] | None = None,
    states: Mapping[Hashable, PlayerState] | None = None,
) -> tuple[list[Row], dict[Hashable, PlayerState]]:
    """Rate the games in the order given, from ``states`` (the players' states before
    the first of them; none: a fresh pool). Returns every row and the final states."""
    current: dict[Hashable, PlayerState] = dict(states or {})
    rows: list[Row] = []
    for result in results:
        made, changed = rate_game(current, result, settings, start)
        rows.extend(made)
        current.update(changed)
    return rows, current


def with_rank(result: GameResult, ranks: Mapping[Hashable, int]) -> GameResult:
    """The game with corrected ranks (by key)."""
    players = tuple((key, ranks[key], seat) for key, _, seat in result.players)
    return replace(result, players=players)
