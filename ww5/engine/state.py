"""The immutable game state and the tables of canonical action strings.

A state is a frozen dataclass: every transition builds a new one. Pieces are a tuple
indexed by territory (sorted id order), each ``None`` or ``(player index, pips)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .board import SIZE_NAMES, Board

if TYPE_CHECKING:
    from .rules import Action

SMALL, MEDIUM, LARGE = 1, 2, 3
PIECES_PER_SIZE = 3
SETUP, PLAY, OVER = "setup", "play", "over"
STRICT, CASUAL = "strict", "casual"
MIN_PLAYERS, MAX_PLAYERS, WARN_PLAYERS = 2, 6, 5

Piece = tuple[int, int]  # (player index, pips 1-3)


def size_name(pips: int) -> str:
    return SIZE_NAMES[pips - 1]


@dataclass(frozen=True)
class Player:
    name: str
    home: int  # continent index


@dataclass(frozen=True)
class Retreat:
    """A defender's pending retreat choice (R22): two or more options."""

    player: int
    territory: int
    attacker: int
    origin: int
    options: tuple[int, ...]


@dataclass(frozen=True)
class State:
    board: Board
    setup: str
    retreat_into_origin: bool
    players: tuple[Player, ...]  # in turn order, the first player first
    phase: str
    to_move: int | None
    pieces: tuple[Piece | None, ...]
    pending: Retreat | None
    eliminated: tuple[int, ...]
    winner: int | None

    # The legal actions are computed once per state and kept beside the fields (a
    # frozen dataclass still has a __dict__); they take no part in equality.
    @property
    def legal(self) -> tuple[str, ...]:
        cached: tuple[str, ...] | None = self.__dict__.get("_legal")
        if cached is None:
            from .rules import generate_legal_actions

            cached = self.__dict__["_legal"] = generate_legal_actions(self)
        return cached

    @property
    def legal_set(self) -> frozenset[str]:
        cached: frozenset[str] | None = self.__dict__.get("_legal_set")
        if cached is None:
            cached = self.__dict__["_legal_set"] = frozenset(self.legal)
        return cached

    def in_game(self, player: int) -> bool:
        return player not in self.eliminated

    def player_index(self, name: str) -> int | None:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        return None

    def name_of(self, player: int | None) -> str | None:
        return None if player is None else self.players[player].name

    def home_territories(self, player: int) -> tuple[int, ...]:
        return self.board.continent_territories[self.players[player].home]

    def on_board(self, player: int, pips: int) -> int:
        return sum(1 for pc in self.pieces if pc is not None and pc == (player, pips))

    def supply(self, player: int, pips: int) -> int:
        return PIECES_PER_SIZE - self.on_board(player, pips)


@dataclass(frozen=True)
class ActionTable:
    """Every canonical action string of one board, and what each one means."""

    grow: tuple[str, ...]
    build: tuple[str, ...]
    # per territory: (neighbour, "move t n", "invade t n") for each neighbour
    edges: tuple[tuple[tuple[int, str, str], ...], ...]
    retreat: tuple[str, ...]
    place: tuple[tuple[str, ...], ...]  # [pips - 1][territory]
    place_all: tuple[tuple[str, ...], ...]  # [continent]: the six casual placements
    parsed: dict[str, Action]


@cache
def action_table(board: Board) -> ActionTable:
    ids = board.territories
    parsed: dict[str, Action] = {"pass": ("pass", ())}

    def add(text: str, action: Action) -> str:
        parsed[text] = action
        return text

    grow = tuple(add(f"grow {t}", ("grow", (i,))) for i, t in enumerate(ids))
    build = tuple(add(f"build {t}", ("build", (i,))) for i, t in enumerate(ids))
    edges = tuple(
        tuple(
            (
                b,
                add(f"move {ids[a]} {ids[b]}", ("move", (a, b))),
                add(f"invade {ids[a]} {ids[b]}", ("invade", (a, b))),
            )
            for b in board.neighbors[a]
        )
        for a in range(len(ids))
    )
    retreat = tuple(add(f"retreat {t}", ("retreat", (i,))) for i, t in enumerate(ids))
    place = tuple(
        tuple(add(f"place {size_name(pips)} {t}", ("place", (pips, i))) for i, t in enumerate(ids))
        for pips in (SMALL, MEDIUM, LARGE)
    )
    place_all = []
    for home in board.continent_territories:
        texts = []
        for s, m, lg in itertools.permutations(home):
            text = f"place small {ids[s]} medium {ids[m]} large {ids[lg]}"
            texts.append(add(text, ("place_all", (s, m, lg))))
        place_all.append(tuple(sorted(texts)))
    return ActionTable(grow, build, edges, retreat, place, tuple(place_all), parsed)
