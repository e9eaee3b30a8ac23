"""The position format (contract, "Position format"): reading with every check, writing
canonically, and the per-player view (K33)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .board import BOARDS, JOLLY, Board
from .errors import IllegalAction, PositionError
from .notation import Attack, Place, read
from .rules import read_options, read_seats
from .state import (
    ATTACK,
    DICE,
    ELIMINATED,
    FORFEIT,
    MAX_WAR_COST,
    MOVE_IN,
    OVER,
    PLACEMENT,
    PLAY,
    REINFORCE,
    SEALED,
    WAR,
    MoveIn,
    Out,
    Placement,
    State,
    Truce,
    Turn,
    War,
)

KEYS = (
    "board",
    "options",
    "players",
    "phase",
    "awaiting",
    "territories",
    "objectives",
    "hands",
    "deck",
    "discard",
    "placement",
    "turn",
    "truces",
    "out",
    "winner",
)
TURN_KEYS = {"player", "number", "step", "pool", "conquered", "move_in", "war"}
SEALED_MARK = "sealed"


def _keys(obj: Any, where: str, keys: set[str] | tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise PositionError(f"{where} must be an object")
    missing = [k for k in keys if k not in obj]
    extra = sorted(set(obj) - set(keys))
    if missing:
        raise PositionError(f"{where} lacks {', '.join(missing)}")
    if extra:
        raise PositionError(f"{where} has unknown key {extra[0]!r}")
    return obj


def _int(value: Any, where: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise PositionError(f"{where} must be an integer of at least {least}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise PositionError(f"{where} must be a string")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list")
    return value


def load_position(data: Any) -> State:
    """Read a position (parsed JSON), checking everything; :class:`PositionError` if bad."""
    try:
        return _load(data)
    except PositionError:
        raise
    except ValueError as error:  # options, seats, notation
        raise PositionError(str(error)) from error


def _load(data: Any) -> State:
    d = _keys(data, "the position", KEYS)
    board_id = d["board"]
    if board_id not in BOARDS:
        raise PositionError(f"unknown board {board_id!r}")
    board = BOARDS[board_id]
    options_data = d["options"]
    if not isinstance(options_data, dict) or "board" in options_data:
        raise PositionError("options must be an object of the four ruleset options")
    options = read_options({**options_data, "board": board_id}, complete=True)
    players = read_seats(_list(d["players"], "players"), board)
    names = [p.name for p in players]

    phase = d["phase"]
    if phase not in (PLACEMENT, PLAY, OVER):
        raise PositionError(f"unknown phase {phase!r}")

    territories = _keys(d["territories"], "territories", tuple(board.sorted_territories))
    owner: dict[str, str] = {}
    armies: dict[str, int] = {}
    for t in board.territories:
        entry = _keys(territories[t], f"territory {t}", ("owner", "armies"))
        if entry["owner"] not in names:
            raise PositionError(f"{t} is owned by unknown player {entry['owner']!r}")
        owner[t] = entry["owner"]
        armies[t] = _int(entry["armies"], f"the armies on {t}", 1)

    objectives = _keys(d["objectives"], "objectives", tuple(names))
    for name, objective in objectives.items():
        if objective not in board.objectives:
            raise PositionError(f"{name}'s objective {objective!r} is unknown")
    if len(set(objectives.values())) != len(names):
        raise PositionError("two players hold the same objective (K27)")

    hands_data = _keys(d["hands"], "hands", tuple(names))
    known_cards = set(board.cards)
    hands: dict[str, list[str]] = {}
    for name in names:
        hand = _list(hands_data[name], f"{name}'s hand")
        hands[name] = sorted(_card(c, known_cards) for c in hand)
    deck = [_card(c, known_cards) for c in _list(d["deck"], "deck")]
    discard = [_card(c, known_cards) for c in _list(d["discard"], "discard")]
    everything = Counter(deck + discard + [c for h in hands.values() for c in h])
    if everything != Counter(board.cards):
        raise PositionError(
            f"hands, deck and discard must hold the {len(board.territories)} territory cards "
            f"and {board.jolly_count} jolly exactly once each (K3)"
        )

    out = _read_out(d["out"], names, owner, hands)
    gone = {o.player for o in out}
    for name in names:
        if name not in gone and name not in owner.values():
            raise PositionError(f"{name} is in the game but holds no territory")

    awaiting = _list(d["awaiting"], "awaiting")
    for name in awaiting:
        if name not in names:
            raise PositionError(f"awaiting names unknown player {name!r}")
    truces = _read_truces(d["truces"], names, gone, options.battle)
    winner = d["winner"]

    state = State(
        board=board,
        options=options,
        players=players,
        phase=phase,
        awaiting=list(awaiting),
        owner=owner,
        armies=armies,
        objectives=dict(objectives),
        hands=hands,
        deck=deck,
        discard=discard,
        placement=None,
        turn=None,
        truces=truces,
        out=out,
        winner=None,
    )
    if phase == PLACEMENT:
        state.placement = _read_placement(d, state)
        if d["turn"] is not None or winner is not None:
            raise PositionError("during the placement turn and winner are null")
        if out or truces:
            raise PositionError("nobody leaves and no truce is made during the placement")
        if any(hands.values()):
            raise PositionError("hands are empty during the placement (K11)")
    elif phase == PLAY:
        if d["placement"] is not None or winner is not None:
            raise PositionError("during play placement and winner are null")
        if len(names) - len(gone) < 2:
            raise PositionError("fewer than 2 players are left in the game during play")
        state.turn = _read_turn(d["turn"], state)
        turn = state.turn
        expect = [turn.war.defender] if turn.war is not None else [turn.player]
        if awaiting != expect:
            raise PositionError(f"awaiting must be {expect} now")
        for truce in truces:
            if truce.turn > turn.number:
                raise PositionError("a truce is dated after the current turn")
    else:
        if d["placement"] is not None or d["turn"] is not None or awaiting:
            raise PositionError("a game that is over has no placement, turn or awaiting")
        if winner not in names or winner in gone:
            raise PositionError(f"the winner {winner!r} is not a player in the game")
        state.winner = winner
    return state


def _card(card: Any, known: set[str]) -> str:
    if not isinstance(card, str) or card not in known:
        raise PositionError(f"unknown card {card!r}")
    return card


def _read_out(
    data: Any, names: list[str], owner: dict[str, str], hands: dict[str, list[str]]
) -> list[Out]:
    out: list[Out] = []
    for entry in _list(data, "out"):
        e = _keys(entry, "an entry of out", ("player", "how", "by"))
        player, how, by = e["player"], e["how"], e["by"]
        if player not in names or any(o.player == player for o in out):
            raise PositionError(f"out names {player!r}, unknown or twice")
        if how == ELIMINATED:
            if by not in names or by == player:
                raise PositionError(f"{player} was eliminated by unknown player {by!r}")
            if player in owner.values():
                raise PositionError(f"{player} was eliminated but still owns a territory (K23)")
        elif how == FORFEIT:
            if by is not None:
                raise PositionError("a forfeit has no 'by'")
        else:
            raise PositionError(f"unknown way out {how!r}")
        if hands[player]:
            raise PositionError(f"{player} is out of the game but holds cards")
        out.append(Out(player, how, by))
    return out


def _read_truces(data: Any, names: list[str], gone: set[str], battle: str) -> list[Truce]:
    truces: list[Truce] = []
    for entry in _list(data, "truces"):
        if battle == DICE:
            raise PositionError("truces are made only with battle war-die (K39e)")
        e = _keys(entry, "a truce", ("attacker", "defender", "turn"))
        a, b = e["attacker"], e["defender"]
        if a not in names or b not in names or a == b:
            raise PositionError("a truce is between two different players")
        if a in gone or b in gone:
            raise PositionError("a truce ends when a player leaves the game (K39e)")
        if any({t.attacker, t.defender} == {a, b} for t in truces):
            raise PositionError(f"two truces between {a} and {b}")
        truces.append(Truce(a, b, _int(e["turn"], "a truce's turn", 1)))
    return truces


def _read_placement(d: dict[str, Any], state: State) -> Placement:
    names = state.names
    p = _keys(d["placement"], "placement", ("left", "sealed"))
    left_data = _keys(p["left"], "placement.left", tuple(names))
    initial = state.board.initial_armies[len(names)]
    left: dict[str, int] = {}
    for name in names:
        left[name] = _int(left_data[name], f"{name}'s armies left")
        on_board = sum(a for t, a in state.armies.items() if state.owner[t] == name)
        if on_board + left[name] != initial:
            raise PositionError(
                f"{name} has {on_board} armies on the board and {left[name]} left, "
                f"not {initial} (K9)"
            )
    if state.options.placement == SEALED:
        sealed_data = _keys(p["sealed"], "placement.sealed", tuple(names))
        sealed: dict[str, str | None] = {}
        for name in names:
            text = sealed_data[name]
            if text is not None:
                action = read(state.board, _str(text, f"{name}'s sealed placement"))
                if not isinstance(action, Place) or action.canonical() != text:
                    raise PositionError(f"{name}'s sealed placement is not canonical")
                if any(state.owner[t] != name for t, _ in action.items):
                    raise PositionError(f"{name}'s sealed placement is not on their territories")
                if action.total != left[name]:
                    raise PositionError(f"{name}'s sealed placement does not add up (K10)")
            sealed[name] = text
        expect = [n for n in names if sealed[n] is None]
        if state.awaiting != expect:
            raise PositionError(f"awaiting must be {expect} in a sealed placement")
        return Placement(left, sealed)
    if p["sealed"] is not None:
        raise PositionError("placement.sealed is null with rounds")
    if len(state.awaiting) != 1 or left[state.awaiting[0]] == 0:
        raise PositionError("a rounds placement awaits one player with armies left")
    return Placement(left, None)


def _read_turn(data: Any, state: State) -> Turn:
    t = _keys(data, "turn", tuple(sorted(TURN_KEYS)))
    player = t["player"]
    if player not in state.names or state.is_out(player):
        raise PositionError(f"the turn's player {player!r} is not in the game")
    number = _int(t["number"], "turn.number", 1)
    step = t["step"]
    if step not in (REINFORCE, ATTACK, MOVE_IN, WAR):
        raise PositionError(f"unknown step {step!r}")
    pool = _int(t["pool"], "turn.pool")
    if pool and step != REINFORCE:
        raise PositionError("armies are placed before the first attack (K13, K17)")
    conquered = t["conquered"]
    if not isinstance(conquered, bool):
        raise PositionError("turn.conquered must be true or false")
    move_in: MoveIn | None = None
    if (t["move_in"] is not None) != (step == MOVE_IN):
        raise PositionError("turn.move_in is given exactly in the move-in step")
    if t["move_in"] is not None:
        m = _keys(t["move_in"], "turn.move_in", ("from", "to", "moved", "max"))
        origin, target = m["from"], m["to"]
        if origin not in state.owner or target not in state.owner:
            raise PositionError("the move-in names an unknown territory")
        moved = _int(m["moved"], "move_in.moved", 1)
        most = _int(m["max"], "move_in.max", 1)
        if (
            state.owner[origin] != player
            or state.owner[target] != player
            or not state.board.adjacent(origin, target)
            or state.armies[target] != moved
            or most != moved + state.armies[origin] - 1
            or most <= moved
            or not conquered
        ):
            raise PositionError("the move-in does not fit the position (K22)")
        move_in = MoveIn(origin, target, moved, most)
    war: War | None = None
    if (t["war"] is not None) != (step == WAR):
        raise PositionError("turn.war is given exactly in the war step (K39b)")
    if t["war"] is not None:
        war = _read_war(t["war"], state, player)
        if pool:
            raise PositionError("no war while armies are to be placed")
    return Turn(player, number, step, pool, conquered, move_in, war)


def _read_war(data: Any, state: State, player: str) -> War:
    if state.options.battle == DICE:
        raise PositionError("a war is possible only with battle war-die (K39)")
    w = _keys(data, "turn.war", ("from", "to", "defender", "attack"))
    origin, target, defender = w["from"], w["to"], w["defender"]
    if origin not in state.owner or target not in state.owner:
        raise PositionError("the war names an unknown territory")
    if (
        state.owner[origin] != player
        or state.owner[target] != defender
        or defender == player
        or not state.board.adjacent(origin, target)
    ):
        raise PositionError("the war does not fit the position (K39a)")
    if defender not in state.names or state.is_out(defender):
        raise PositionError("the war's defender is not in the game")
    if state.in_truce(player, defender):
        raise PositionError("a war between truce partners (K39e)")
    text = _str(w["attack"], "the war's attack")
    try:
        attack = read(state.board, text)
    except IllegalAction as error:
        raise PositionError(f"the war's attack is not understood: {error}") from error
    if (
        not isinstance(attack, Attack)
        or not attack.war
        or attack.canonical() != text
        or attack.origin != origin
        or attack.target != target
    ):
        raise PositionError("the war's attack is not its canonical attack action (K39a)")
    if attack.cost is not None and attack.cost > min(MAX_WAR_COST, state.armies[origin] - 2):
        raise PositionError("the war's sealed cost is more than the origin can pay (K39a)")
    if state.armies[origin] < 2:
        raise PositionError("the war's origin holds fewer than 2 armies")
    return War(origin, target, defender, text)


def dump_position(state: State) -> dict[str, Any]:
    """The position as JSON-ready data, canonically ordered."""
    s = state
    placement: dict[str, Any] | None = None
    if s.placement is not None:
        placement = {
            "left": {n: s.placement.left[n] for n in s.names},
            "sealed": None
            if s.placement.sealed is None
            else {n: s.placement.sealed[n] for n in s.names},
        }
    turn: dict[str, Any] | None = None
    if s.turn is not None:
        t = s.turn
        turn = {
            "player": t.player,
            "number": t.number,
            "step": t.step,
            "pool": t.pool,
            "conquered": t.conquered,
            "move_in": None
            if t.move_in is None
            else {
                "from": t.move_in.origin,
                "to": t.move_in.target,
                "moved": t.move_in.moved,
                "max": t.move_in.max,
            },
            "war": None
            if t.war is None
            else {
                "from": t.war.origin,
                "to": t.war.target,
                "defender": t.war.defender,
                "attack": t.war.attack,
            },
        }
    return {
        "board": s.board.id,
        "options": {
            "placement": s.options.placement,
            "min_reinforcement": s.options.min_reinforcement,
            "territory_bonus": s.options.territory_bonus,
            "battle": s.options.battle,
        },
        "players": [{"name": p.name, "color": p.color} for p in s.players],
        "phase": s.phase,
        "awaiting": list(s.awaiting),
        "territories": {
            t: {"owner": s.owner[t], "armies": s.armies[t]} for t in s.board.sorted_territories
        },
        "objectives": {n: s.objectives[n] for n in sorted(s.objectives)},
        "hands": {n: sorted(s.hands[n]) for n in sorted(s.hands)},
        "deck": list(s.deck),
        "discard": list(s.discard),
        "placement": placement,
        "turn": turn,
        "truces": [
            {"attacker": t.attacker, "defender": t.defender, "turn": t.turn} for t in s.truces
        ],
        "out": [{"player": o.player, "how": o.how, "by": o.by} for o in s.out],
        "winner": s.winner,
    }


def view(state: State, player: str | None) -> dict[str, Any]:
    """K33: what ``player`` may see (``None``: a spectator), per the contract."""
    if player is not None and player not in state.names:
        raise ValueError(f"{player!r} is not a player of this game")
    d = dump_position(state)
    d["view"] = player
    d["hand_sizes"] = {n: len(h) for n, h in d["hands"].items()}
    if state.phase == OVER:
        return d
    d["objectives"] = {} if player is None else {player: d["objectives"][player]}
    d["hands"] = {} if player is None else {player: d["hands"][player]}
    d["deck_size"] = len(d.pop("deck"))
    placement = d["placement"]
    if placement is not None and placement["sealed"] is not None:
        placement["sealed"] = {
            n: text if n == player or text is None else SEALED_MARK
            for n, text in placement["sealed"].items()
        }
    turn = d["turn"]
    if turn is not None and turn["war"] is not None and player != turn["player"]:
        turn["war"]["attack"] = SEALED_MARK
    return d


def board_of(position: Mapping[str, Any]) -> Board:
    """The board a position or view names."""
    return BOARDS[str(position["board"])]


__all__ = ["JOLLY", "dump_position", "load_position", "view", "board_of"]
