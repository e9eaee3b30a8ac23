"""A naive reference implementation of the World War 5 rules, for ``bench.engine``.

``ww5.engine`` is written for speed: indexed territories, tuples, cached tables of action
strings, cached legal actions. This module plays by the same rules
(``shared/rules/world-war-5.md``) the way one would write them first, without optimising:

- the map is ``board.json`` as loaded (``ww5/engine/board.json``, the project's copy of
  ``shared/ww5/board.json``); adjacency is looked up in a board's list of routes each time;
- a state is a plain dict in the contract's position format (``shared/ww5/contract.md``);
  supplies are counted from the pieces on the board;
- every applied action works on a ``copy.deepcopy`` of the state;
- the legal actions are the candidate actions (a GROW and a BUILD on every territory, a
  MOVE and an INVADE from each of the player's pieces to every other territory, every
  placement or retreat) that pass the rule checks of :func:`is_legal`.

It imports nothing of ``ww5.engine``. The same random play gives the same games here as in
the engine: the start roll and the dice are drawn in the same order, one ``randint(1, 6)``
a die, and the legal actions come in the same (sorted) order.
``tests/engine/test_reference_engine.py`` steps both through random games and checks that
they agree at every step; ``bench.engine`` prints the engine's speed beside this one's.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

MAP_FILE = Path(__file__).resolve().parent.parent / "ww5" / "engine" / "board.json"
MAP = json.loads(MAP_FILE.read_text(encoding="utf-8"))

SIZES = ["small", "medium", "large"]
PIECES_PER_SIZE = 3

State = dict[str, Any]


# --- the map ---------------------------------------------------------------------------


def territory_ids() -> list[str]:
    """Every territory id, sorted (the order positions and action lists use)."""
    return sorted(t["id"] for t in MAP["territories"])


def territories_of(continent: str) -> list[str]:
    for c in MAP["continents"]:
        if c["id"] == continent:
            return c["territories"]
    raise ValueError(f"unknown continent {continent!r}")


def adjacent(board: str, a: str, b: str) -> bool:
    for route in MAP["boards"][board]["routes"]:
        if route["between"] == [a, b] or route["between"] == [b, a]:
            return True
    return False


# --- reading a state -------------------------------------------------------------------


def player_names(state: State) -> list[str]:
    return [p["name"] for p in state["players"]]


def home_of(state: State, player: str) -> str:
    for p in state["players"]:
        if p["name"] == player:
            return p["home"]
    raise ValueError(f"unknown player {player!r}")


def home_territories(state: State, player: str) -> list[str]:
    return territories_of(home_of(state, player))


def owner(state: State, territory: str) -> str | None:
    piece = state["pieces"].get(territory)
    return None if piece is None else piece["player"]


def supply(state: State, player: str, size: str) -> int:
    """R2: a player's pieces of a size not on the board."""
    on_board = 0
    for piece in state["pieces"].values():
        if piece["player"] == player and piece["size"] == size:
            on_board += 1
    return PIECES_PER_SIZE - on_board


def has_home_piece(state: State, player: str) -> bool:
    for territory in home_territories(state, player):
        if owner(state, territory) == player:
            return True
    return False


def holds_other_continent(state: State, player: str) -> bool:
    """R25's first half: every territory of another continent holds the player's pieces."""
    for continent in MAP["continents"]:
        if continent["id"] == home_of(state, player):
            continue
        if all(owner(state, t) == player for t in continent["territories"]):
            return True
    return False


def in_game(state: State) -> list[str]:
    return [name for name in player_names(state) if name not in state["eliminated"]]


def seat_order_from(state: State, player: str) -> list[str]:
    """Every player in seat order, starting with ``player``."""
    names = player_names(state)
    start = names.index(player)
    return names[start:] + names[:start]


def next_player(state: State, player: str) -> str:
    """R8a: the next player after ``player`` in seat order who is still in the game."""
    for other in seat_order_from(state, player)[1:]:
        if other not in state["eliminated"]:
            return other
    return player


# --- starting a game -------------------------------------------------------------------


def new_game(players: list[tuple[str, str]], options: dict[str, Any], rng: Any) -> State:
    """R4-R8: ``players`` as (name, home continent) in seat order; the setup position."""
    contenders = list(range(len(players)))
    while len(contenders) > 1:  # R5: the highest roller starts; ties roll again
        rolls = [rng.randint(1, 6) for _ in contenders]
        contenders = [c for c, roll in zip(contenders, rolls, strict=True) if roll == max(rolls)]
    first = contenders[0]
    in_turn_order = list(players[first:]) + list(players[:first])
    return {
        "board": options.get("board", "original"),
        "options": {
            "setup": options.get("setup", "strict"),
            "retreat_into_origin": options.get("retreat_into_origin", False),
        },
        "players": [{"name": name, "home": home} for name, home in in_turn_order],
        "phase": "setup",
        "to_move": in_turn_order[0][0],
        "pieces": {},
        "pending": None,
        "eliminated": [],
        "winner": None,
    }


# --- legal actions ---------------------------------------------------------------------


def candidate_actions(state: State) -> list[str]:
    """Every action the player to move could try now, legal or not."""
    me = state["to_move"]
    ids = territory_ids()
    if state["pending"] is not None:
        return [f"retreat {t}" for t in ids]
    if state["phase"] == "setup":
        if state["options"]["setup"] == "casual":
            return [
                f"place small {s} medium {m} large {lg}"
                for s, m, lg in itertools.permutations(home_territories(state, me))
            ]
        return [f"place {size} {t}" for size in SIZES for t in ids]
    candidates = []
    for t in ids:
        candidates.append(f"grow {t}")
        candidates.append(f"build {t}")
    for a in ids:  # from each of the player's pieces to every other territory
        if owner(state, a) != me:
            continue
        for b in ids:
            if a != b:
                candidates.append(f"move {a} {b}")
                candidates.append(f"invade {a} {b}")
    return candidates


def is_legal(state: State, action: str) -> bool:
    """Whether ``action`` (canonical notation) is legal for the player to move."""
    if state["phase"] == "over":
        return False
    me = state["to_move"]
    board = state["board"]
    words = action.split()
    if not words:
        return False
    verb = words[0]
    if state["pending"] is not None:  # R18-R19, R22: only the defender's retreat
        retreat = state["pending"]["retreat"]
        return verb == "retreat" and len(words) == 2 and words[1] in retreat["options"]
    if state["phase"] == "setup":
        return verb == "place" and placement_is_legal(state, me, words[1:])
    if verb == "grow" and len(words) == 2:  # R10
        t = words[1]
        piece = state["pieces"].get(t)
        if t not in home_territories(state, me) or piece is None or piece["player"] != me:
            return False
        if piece["size"] == "large":
            return False
        return supply(state, me, SIZES[SIZES.index(piece["size"]) + 1]) > 0
    if verb == "build" and len(words) == 2:  # R11
        t = words[1]
        return (
            t in home_territories(state, me)
            and t not in state["pieces"]
            and supply(state, me, "small") > 0
        )
    if verb == "move" and len(words) == 3:  # R12
        a, b = words[1], words[2]
        return owner(state, a) == me and owner(state, b) is None and adjacent(board, a, b)
    if verb == "invade" and len(words) == 3:  # R13
        a, b = words[1], words[2]
        return (
            owner(state, a) == me
            and owner(state, b) is not None
            and owner(state, b) != me
            and adjacent(board, a, b)
        )
    return False


def placement_is_legal(state: State, me: str, words: list[str]) -> bool:
    """R6-R7: a strict placement puts the next size on an empty home territory; a casual
    one puts all three, small, medium and large, on the three home territories."""
    home = home_territories(state, me)
    if state["options"]["setup"] == "casual":
        if len(words) != 6 or words[0::2] != SIZES:
            return False
        return sorted(words[1::2]) == sorted(home)
    if len(words) != 2:
        return False
    size, t = words
    placed = sum(1 for piece in state["pieces"].values() if piece["player"] == me)
    return size == SIZES[placed] and t in home and t not in state["pieces"]


def legal_actions(state: State) -> list[str]:
    """Every legal action, sorted; ``[]`` once the game is over; ``pass`` if none (R14)."""
    if state["phase"] == "over":
        return []
    legal = [action for action in candidate_actions(state) if is_legal(state, action)]
    if not legal:
        return ["pass"]
    return sorted(legal)


# --- applying actions ------------------------------------------------------------------


def apply_action(
    state: State, action: str, dice: list[int] | None = None, rng: Any = None
) -> State:
    """The state after the player to move takes ``action``; an INVADE takes its dice from
    ``dice`` (the attacker's first) or else from ``rng``."""
    if not is_legal(state, action) and not (action == "pass" and legal_actions(state) == ["pass"]):
        raise ValueError(f"{action!r} is not legal now")
    state = copy.deepcopy(state)
    me = state["to_move"]
    words = action.split()
    verb = words[0]
    if verb == "place":
        place(state, me, words[1:])
        return state
    if verb == "retreat":
        retreat_to(state, words[1])
        return state
    if verb == "grow":
        piece = state["pieces"][words[1]]
        piece["size"] = SIZES[SIZES.index(piece["size"]) + 1]
    elif verb == "build":
        state["pieces"][words[1]] = {"player": me, "size": "small"}
    elif verb == "move":
        state["pieces"][words[2]] = state["pieces"].pop(words[1])
    elif verb == "invade":
        invade(state, me, words[1], words[2], dice, rng)
        if state["pending"] is not None:  # the defender chooses where to retreat
            return state
    end_of_resolution(state, me)
    return state


def place(state: State, me: str, words: list[str]) -> None:
    """R6-R8: place the pieces; after the last placement the first player starts play."""
    for size, territory in zip(words[0::2], words[1::2], strict=True):
        state["pieces"][territory] = {"player": me, "size": size}
    names = player_names(state)
    if len(state["pieces"]) == 3 * len(names):
        state["phase"] = "play"
        state["to_move"] = names[0]
    else:
        state["to_move"] = names[(names.index(me) + 1) % len(names)]


def roll(count: int, dice: list[int] | None, rng: Any) -> list[int]:
    if dice is not None:
        if len(dice) < count:
            raise ValueError("too few dice for this attack")
        values = dice[:count]
        del dice[:count]
        return values
    return [rng.randint(1, 6) for _ in range(count)]


def invade(
    state: State, me: str, origin: str, target: str, dice: list[int] | None, rng: Any
) -> None:
    """R16-R22: combat; then nothing, the defender's retreat, or its shrink."""
    attacker_size = state["pieces"][origin]["size"]
    defender = state["pieces"][target]["player"]
    defender_size = state["pieces"][target]["size"]
    if dice is not None:
        dice = list(dice)
    attacker_dice = roll(SIZES.index(attacker_size) + 1, dice, rng)
    defender_dice = roll(SIZES.index(defender_size) + 1, dice, rng)
    if sum(attacker_dice) <= sum(defender_dice):  # R17: ties go to the defender
        return
    options = []
    for t in territory_ids():
        if t not in state["pieces"] and adjacent(state["board"], t, target):
            options.append(t)
        elif t == origin and state["options"]["retreat_into_origin"]:
            options.append(t)  # R19's house variant
    if len(options) >= 2:  # R22: the defender chooses
        state["pending"] = {
            "retreat": {
                "player": defender,
                "territory": target,
                "attacker": me,
                "from": origin,
                "options": options,
            }
        }
        state["to_move"] = defender
    elif len(options) == 1:
        flee(state, target, origin, options[0])
    else:
        shrink(state, target, origin)


def flee(state: State, target: str, origin: str, to: str) -> None:
    """R18: the defender retreats and the attacker moves in, at the same moment."""
    defending = state["pieces"].pop(target)
    attacking = state["pieces"].pop(origin)
    state["pieces"][to] = defending
    state["pieces"][target] = attacking


def shrink(state: State, target: str, origin: str) -> None:
    """R20-R21: the defender shrinks to the next smaller size in its supply, or is removed
    and the attacker moves in."""
    piece = state["pieces"][target]
    for smaller in reversed(SIZES[: SIZES.index(piece["size"])]):
        if supply(state, piece["player"], smaller) > 0:
            piece["size"] = smaller
            return
    state["pieces"][target] = state["pieces"].pop(origin)


def retreat_to(state: State, to: str) -> None:
    """R22: the defender's chosen retreat completes the attacker's INVADE."""
    retreat = state["pending"]["retreat"]
    state["pending"] = None
    flee(state, retreat["territory"], retreat["from"], to)
    end_of_resolution(state, retreat["attacker"])


def end_of_resolution(state: State, active: str) -> None:
    """R23-R28 after every resolution: eliminations, then the draw or a win, else the turn
    passes (R8a). The active player comes first, so is recorded and wins first."""
    gone = [
        p
        for p in seat_order_from(state, active)
        if p not in state["eliminated"] and not has_home_piece(state, p)
    ]
    for p in gone:  # R24: all their pieces leave the board at once
        for territory in list(state["pieces"]):
            if state["pieces"][territory]["player"] == p:
                del state["pieces"][territory]
        state["eliminated"].append(p)
    remaining = in_game(state)
    winner = None
    if len(remaining) == 1:  # R26
        winner = remaining[0]
    else:
        for p in seat_order_from(state, active):  # R25, R27
            if p in remaining and holds_other_continent(state, p):
                winner = p
                break
    if not remaining or winner is not None:  # R24's draw, or a win
        state["phase"] = "over"
        state["to_move"] = None
        state["winner"] = winner
    else:
        state["to_move"] = next_player(state, active)


def position(state: State) -> State:
    """The state as the contract writes a position: ``pieces`` sorted by territory id."""
    out = copy.deepcopy(state)
    out["pieces"] = dict(sorted(out["pieces"].items()))
    return out
