"""The contract's JSON position format: ``dump_position`` and a strict ``load_position``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import BOARDS, SIZE_NAMES, Board
from .errors import PositionError
from .rules import has_home_piece, holds_foreign_continent, retreat_options, setup_turn
from .state import (
    CASUAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PIECES_PER_SIZE,
    PLAY,
    SETUP,
    STRICT,
    Piece,
    Player,
    Retreat,
    State,
    size_name,
)

TOP_KEYS = (
    "board",
    "options",
    "players",
    "phase",
    "to_move",
    "pieces",
    "pending",
    "eliminated",
    "winner",
)
RETREAT_KEYS = ("player", "territory", "attacker", "from", "options")


def dump_position(state: State) -> dict[str, Any]:
    """The position as a JSON-ready dict; ``pieces`` sorted by territory id."""
    ids = state.board.territories
    name = state.name_of
    pending = None
    if state.pending is not None:
        r = state.pending
        pending = {
            "retreat": {
                "player": name(r.player),
                "territory": ids[r.territory],
                "attacker": name(r.attacker),
                "from": ids[r.origin],
                "options": [ids[t] for t in r.options],
            }
        }
    return {
        "board": state.board.id,
        "options": {"setup": state.setup, "retreat_into_origin": state.retreat_into_origin},
        "players": [
            {"name": p.name, "home": state.board.continents[p.home]} for p in state.players
        ],
        "phase": state.phase,
        "to_move": name(state.to_move),
        "pieces": {
            ids[t]: {"player": state.players[pc[0]].name, "size": size_name(pc[1])}
            for t, pc in enumerate(state.pieces)
            if pc is not None
        },
        "pending": pending,
        "eliminated": [state.players[p].name for p in state.eliminated],
        "winner": name(state.winner),
    }


def _fail(message: str) -> PositionError:
    return PositionError(f"bad position: {message}")


def _exact_keys(obj: Any, keys: tuple[str, ...], where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _fail(f"{where} must be an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise _fail(f"{where} lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(str(k) for k in obj if k not in keys)
    if extra:
        raise _fail(f"{where} has unexpected key {extra[0]!r}")
    return obj


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(f"{where} must be a string, not {value!r}")
    return value


class _Reader:
    def __init__(self, data: Any, boards: Mapping[str, Board]) -> None:
        self.data = _exact_keys(data, TOP_KEYS, "the position")
        board_id = _string(self.data["board"], "board")
        if board_id not in boards:
            raise _fail(f"unknown board {board_id!r}")
        self.board = boards[board_id]

    def options(self) -> tuple[str, bool]:
        options = _exact_keys(self.data["options"], ("setup", "retreat_into_origin"), "options")
        if options["setup"] not in (STRICT, CASUAL):
            raise _fail(f"unknown setup option {options['setup']!r} (strict or casual)")
        if not isinstance(options["retreat_into_origin"], bool):
            raise _fail("options.retreat_into_origin must be true or false")
        return options["setup"], options["retreat_into_origin"]

    def players(self) -> tuple[Player, ...]:
        raw = self.data["players"]
        if not isinstance(raw, list):
            raise _fail("players must be a list")
        if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
            raise _fail(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(raw)}")
        players: list[Player] = []
        for i, p in enumerate(raw):
            p = _exact_keys(p, ("name", "home"), f"players[{i}]")
            name = _string(p["name"], f"players[{i}].name")
            home = _string(p["home"], f"players[{i}].home")
            if not name:
                raise _fail(f"players[{i}] has an empty name")
            if home not in self.board.continent_index:
                raise _fail(f"unknown home continent {home!r} for {name}")
            if any(q.name == name for q in players):
                raise _fail(f"two players are named {name!r}")
            if any(self.board.continents[q.home] == home for q in players):
                raise _fail(f"two players have the home continent {home!r}")
            players.append(Player(name, self.board.continent_index[home]))
        return tuple(players)

    def player(self, value: Any, where: str, players: tuple[Player, ...]) -> int:
        name = _string(value, where)
        for i, p in enumerate(players):
            if p.name == name:
                return i
        raise _fail(f"{where}: {name!r} is not a player")

    def territory(self, value: Any, where: str) -> int:
        tid = _string(value, where)
        if tid not in self.board.territory_index:
            raise _fail(f"{where}: unknown territory {tid!r}")
        return self.board.territory_index[tid]

    def pieces(self, players: tuple[Player, ...]) -> tuple[Piece | None, ...]:
        raw = self.data["pieces"]
        if not isinstance(raw, dict):
            raise _fail("pieces must be an object")
        pieces: list[Piece | None] = [None] * len(self.board.territories)
        counts: dict[tuple[int, int], int] = {}
        for tid, spec in raw.items():
            t = self.territory(tid, "pieces")
            spec = _exact_keys(spec, ("player", "size"), f"pieces[{tid!r}]")
            p = self.player(spec["player"], f"pieces[{tid!r}].player", players)
            size = _string(spec["size"], f"pieces[{tid!r}].size")
            if size not in SIZE_NAMES:
                raise _fail(f"pieces[{tid!r}]: unknown size {size!r}")
            pips = SIZE_NAMES.index(size) + 1
            counts[p, pips] = counts.get((p, pips), 0) + 1
            if counts[p, pips] > PIECES_PER_SIZE:
                raise _fail(f"{players[p].name} has more than {PIECES_PER_SIZE} {size} pieces")
            pieces[t] = (p, pips)
        return tuple(pieces)

    def eliminated(self, players: tuple[Player, ...]) -> tuple[int, ...]:
        raw = self.data["eliminated"]
        if not isinstance(raw, list):
            raise _fail("eliminated must be a list")
        out: list[int] = []
        for value in raw:
            p = self.player(value, "eliminated", players)
            if p in out:
                raise _fail(f"{players[p].name} is listed twice in eliminated")
            out.append(p)
        return tuple(out)

    def optional_player(self, key: str, players: tuple[Player, ...]) -> int | None:
        value = self.data[key]
        return None if value is None else self.player(value, key, players)

    def pending(self, players: tuple[Player, ...]) -> Retreat | None:
        raw = self.data["pending"]
        if raw is None:
            return None
        outer = _exact_keys(raw, ("retreat",), "pending")
        retreat = _exact_keys(outer["retreat"], RETREAT_KEYS, "pending.retreat")
        options = retreat["options"]
        if not isinstance(options, list):
            raise _fail("pending.retreat.options must be a list")
        return Retreat(
            player=self.player(retreat["player"], "pending.retreat.player", players),
            territory=self.territory(retreat["territory"], "pending.retreat.territory"),
            attacker=self.player(retreat["attacker"], "pending.retreat.attacker", players),
            origin=self.territory(retreat["from"], "pending.retreat.from"),
            options=tuple(self.territory(t, "pending.retreat.options") for t in options),
        )


def load_position(data: Any, boards: Mapping[str, Board] | None = None) -> State:
    """Read a position (parsed JSON); reject a bad one with a :class:`PositionError`."""
    reader = _Reader(data, BOARDS if boards is None else boards)
    setup, retreat_into_origin = reader.options()
    players = reader.players()
    phase = reader.data["phase"]
    if phase not in (SETUP, PLAY, OVER):
        raise _fail(f"unknown phase {phase!r} (setup, play or over)")
    state = State(
        board=reader.board,
        setup=setup,
        retreat_into_origin=retreat_into_origin,
        players=players,
        phase=phase,
        to_move=reader.optional_player("to_move", players),
        pieces=reader.pieces(players),
        pending=reader.pending(players),
        eliminated=reader.eliminated(players),
        winner=reader.optional_player("winner", players),
    )
    for pc in state.pieces:
        if pc is not None and pc[0] in state.eliminated:
            raise _fail(f"a piece of {players[pc[0]].name}, who is eliminated")
    {SETUP: _check_setup, PLAY: _check_play, OVER: _check_over}[phase](state)
    return state


def _check_setup(state: State) -> None:
    if state.eliminated or state.pending is not None or state.winner is not None:
        raise _fail("during setup no one is eliminated, retreating or the winner")
    placed: dict[int, set[int]] = {}
    for t, pc in enumerate(state.pieces):
        if pc is None:
            continue
        if t not in state.home_territories(pc[0]):
            raise _fail(
                f"during setup {state.players[pc[0]].name} has a piece outside their home "
                f"({state.board.territories[t]})"
            )
        if pc[1] in placed.setdefault(pc[0], set()):
            raise _fail(f"during setup {state.players[pc[0]].name} has two {size_name(pc[1])}s")
        placed[pc[0]].add(pc[1])
    n = len(state.players)
    total = sum(len(sizes) for sizes in placed.values())
    if state.setup == STRICT:
        # R7: all smalls in turn order, then all mediums, then all larges
        expected = {(k % n, k // n + 1) for k in range(total)}
        next_player, _ = setup_turn(state)
    else:
        expected = {(p, pips) for p in range(total // 3) for pips in (1, 2, 3)}
        next_player = total // 3
    actual = {(p, pips) for p, sizes in placed.items() for pips in sizes}
    if actual != expected or total >= 3 * n:
        raise _fail("the placements do not follow the setup order")
    if state.to_move != next_player:
        raise _fail(f"during setup {state.players[next_player].name} places next")


def _in_game(state: State) -> list[int]:
    return [p for p in range(len(state.players)) if p not in state.eliminated]


def _check_play(state: State) -> None:
    if state.winner is not None:
        raise _fail("a game in play has no winner")
    in_game = _in_game(state)
    if len(in_game) < 2:
        raise _fail("fewer than two players are left in the game")
    for p in in_game:
        name = state.players[p].name
        if not has_home_piece(state, state.pieces, p):
            raise _fail(f"{name} is in the game with no piece at home")
        if holds_foreign_continent(state, state.pieces, p) is not None:
            raise _fail(f"{name} already meets the victory condition (R25)")
    if state.to_move is None or state.to_move not in in_game:
        raise _fail("to_move must be a player in the game")
    if state.pending is not None:
        _check_pending(state, state.pending)


def _owner(state: State, territory: int) -> int | None:
    piece = state.pieces[territory]
    return None if piece is None else piece[0]


def _check_pending(state: State, r: Retreat) -> None:
    names = state.players
    if r.player == r.attacker:
        raise _fail("pending: attacker and defender are one player")
    if r.attacker in state.eliminated or r.player in state.eliminated:
        raise _fail("pending: attacker and defender must be in the game")
    if state.to_move != r.player:
        raise _fail(f"pending: {names[r.player].name} must be to move while retreating")
    if _owner(state, r.territory) != r.player:
        raise _fail("pending: the disputed territory must hold the defender's piece")
    if _owner(state, r.origin) != r.attacker:
        raise _fail("pending: the attacker's origin must hold the attacker's piece")
    if not state.board.adjacent(r.origin, r.territory):
        raise _fail("pending: the attacker's origin must border the disputed territory")
    options = retreat_options(state, r.territory, r.origin)
    if r.options != options or len(options) < 2:
        ids = state.board.territories
        raise _fail(
            "pending: the retreat options must be the two or more legal ones: "
            + ", ".join(ids[t] for t in options)
        )


def _check_over(state: State) -> None:
    if state.to_move is not None or state.pending is not None:
        raise _fail("a finished game has no player to move and no pending retreat")
    in_game = _in_game(state)
    if state.winner is None:
        if in_game:
            raise _fail("a draw (no winner) needs every player eliminated")
        return
    winner = state.winner
    if winner not in in_game:
        raise _fail("the winner must not be eliminated")
    r25 = (
        has_home_piece(state, state.pieces, winner)
        and holds_foreign_continent(state, state.pieces, winner) is not None
    )
    r26 = in_game == [winner]
    if not (r25 or r26):
        raise _fail(f"the winner {state.players[winner].name} meets neither R25 nor R26")
