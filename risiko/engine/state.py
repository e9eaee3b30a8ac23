"""The game state: one dataclass per part of the position (contract, "Position format").

States are never changed once built: every engine function works on a :meth:`State.copy`
and returns the copy, so a refused action leaves its input exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board

PLACEMENT, PLAY, OVER = "placement", "play", "over"
SEALED, ROUNDS = "sealed", "rounds"
REINFORCE, ATTACK, MOVE_IN, WAR = "reinforce", "attack", "move-in", "war"
DICE, WAR_DIE = "dice", "war-die"
PER_SET, PER_CARD = "per-set", "per-card"
ELIMINATED, FORFEIT = "eliminated", "forfeit"
MIN_PLAYERS, MAX_PLAYERS = 3, 6
MAX_WAR_COST = 11


@dataclass(frozen=True)
class Options:
    board: str = "classic"
    placement: str = SEALED
    min_reinforcement: int = 0
    territory_bonus: str = PER_SET
    battle: str = DICE


@dataclass(frozen=True)
class Seat:
    name: str
    color: str


@dataclass(frozen=True)
class MoveIn:
    origin: str
    target: str
    moved: int
    max: int


@dataclass(frozen=True)
class War:
    origin: str
    target: str
    defender: str
    attack: str  # the attacker's sealed canonical attack action


@dataclass(frozen=True)
class Turn:
    player: str
    number: int
    step: str
    pool: int
    conquered: bool
    move_in: MoveIn | None = None
    war: War | None = None

    def but(self, **changes: object) -> Turn:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Placement:
    left: dict[str, int]
    sealed: dict[str, str | None] | None


@dataclass(frozen=True)
class Truce:
    attacker: str
    defender: str
    turn: int


@dataclass(frozen=True)
class Out:
    player: str
    how: str
    by: str | None


@dataclass
class State:
    board: Board
    options: Options
    players: tuple[Seat, ...]  # in turn order
    phase: str
    awaiting: list[str]
    owner: dict[str, str]
    armies: dict[str, int]
    objectives: dict[str, str]
    hands: dict[str, list[str]]
    deck: list[str]
    discard: list[str]
    placement: Placement | None
    turn: Turn | None
    truces: list[Truce]
    out: list[Out]
    winner: str | None

    def copy(self) -> State:
        placement = self.placement
        if placement is not None:
            placement = Placement(
                dict(placement.left),
                None if placement.sealed is None else dict(placement.sealed),
            )
        return State(
            board=self.board,
            options=self.options,
            players=self.players,
            phase=self.phase,
            awaiting=list(self.awaiting),
            owner=dict(self.owner),
            armies=dict(self.armies),
            objectives=dict(self.objectives),
            hands={p: list(h) for p, h in self.hands.items()},
            deck=list(self.deck),
            discard=list(self.discard),
            placement=placement,
            turn=self.turn,
            truces=list(self.truces),
            out=list(self.out),
            winner=self.winner,
        )

    # -- questions the rules ask ------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.players]

    def color_of(self, player: str) -> str:
        for seat in self.players:
            if seat.name == player:
                return seat.color
        raise KeyError(player)

    def is_out(self, player: str) -> bool:
        return any(o.player == player for o in self.out)

    def in_game(self) -> list[str]:
        gone = {o.player for o in self.out}
        return [seat.name for seat in self.players if seat.name not in gone]

    def territories_of(self, player: str) -> list[str]:
        return [t for t in self.board.sorted_territories if self.owner[t] == player]

    def in_truce(self, a: str, b: str) -> bool:
        return any({t.attacker, t.defender} == {a, b} for t in self.truces)
