"""RisiKo's actions, events and choices in words, for the pages and the mails.

Nothing here touches the database, nor reads a secret: callers pass events and positions
as the reader may see them (``risiko.kind.RisiKo.view`` and ``events_for``), and
``names`` — how to show each player (their colour), e.g. ``{"red": "Anna (red)"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.wording import Choice, ChoiceGroup, MoveWords, Names, listing, who
from risiko.engine import BOARDS, DEFAULT_BOARD, attack_odds

Event = Mapping[str, Any]
SEALED = "sealed"


def _board(position: Mapping[str, Any]) -> Any:
    return BOARDS[position.get("board", DEFAULT_BOARD)]


def territory(tid: str) -> str:
    """A territory's name as the board gives it: 'Stati Uniti Orientali'."""
    return BOARDS[DEFAULT_BOARD].territory_names.get(tid, tid)


def objective(oid: str) -> str:
    found = BOARDS[DEFAULT_BOARD].objectives.get(oid)
    return found.text if found is not None else oid


def _armies(n: int) -> str:
    return f"{n} arm{'y' if n == 1 else 'ies'}"


def event_sentence(event: Event, names: Names) -> str:
    """One event of the engine's move record (as the reader may see it) in words."""
    kind = event.get("type")
    player = who(names, str(event.get("player", "")))
    if kind == "sealed":
        return f"{player} has sent a sealed placement."
    if kind == "revealed":
        placed = [f"{who(names, p)}: {a}" for p, a in sorted(event["placements"].items())]
        return f"The sealed placements are revealed together: {'; '.join(placed)}."
    if kind == "placed":
        spots = [f"{n} in {territory(t)}" for t, n in sorted(event["armies"].items())]
        return f"{player} places {listing(spots)}."
    if kind == "turn":
        return f"{player} begins turn {event['number']} with {_armies(event['reinforcements'])}."
    if kind == "traded":
        return f"{player} trades a set for {_armies(event['value'] + event.get('bonus', 0))}."
    if kind == "roll":
        attacker = " ".join(str(d) for d in event["attacker"])
        defender = " ".join(str(d) for d in event["defender"])
        return (
            f"{player} attacks {territory(event['to'])} from {territory(event['from'])}: "
            f"{attacker} against {defender}; the attacker loses {event['attacker_lost']}, "
            f"the defender {event['defender_lost']}."
        )
    if kind == "war":
        return (
            f"{player} wages war on {territory(event['to'])} from "
            f"{territory(event['from'])}; {who(names, event['defender'])} answers."
        )
    if kind == "war_revealed":
        return (
            f"The war is revealed: {event['attack']} against {event['answer']}: "
            f"{event['result']} wins."
        )
    if kind == "war_called_off":
        return f"The war on {territory(event['to'])} is called off."
    if kind == "conquered":
        return (
            f"{player} conquers {territory(event['territory'])} from "
            f"{who(names, event['defender'])}."
        )
    if kind == "moved_in":
        return f"{player} moves in: {territory(event['to'])} now holds {_armies(event['armies'])}."
    if kind == "eliminated":
        return f"{player} is eliminated by {who(names, str(event.get('by') or ''))}."
    if kind == "fortified":
        return (
            f"{player} moves {_armies(event['armies'])} from {territory(event['from'])} "
            f"to {territory(event['to'])}."
        )
    if kind == "reshuffled":
        return "The discarded cards are shuffled into a new draw pile."
    if kind == "drew":
        card = event.get("card")
        return f"{player} draws a card" + (f": {territory(card)}." if card else ".")
    if kind == "truce_ended":
        pair = f"{who(names, event['attacker'])} and {who(names, event['defender'])}"
        return f"The truce of {pair} ends."
    if kind == "turn_ended":
        return f"{player} ends turn {event['number']}."
    if kind == "forfeit":
        return f"{player} forfeits: their armies stay as neutrals."
    if kind == "won":
        if event.get("how") == "objective":
            return f"{player} wins, having met their objective: {objective(event['objective'])}."
        return f"{player} wins: every other player is out of the game."
    return str(dict(event))


def describe_move(action: str, player: str, events: Sequence[Event], names: Names) -> MoveWords:
    headline = f"{who(names, player)}: {action}."
    return MoveWords(headline, "", [event_sentence(event, names) for event in events])


def describe_start(names: Names, position: Mapping[str, Any] | None) -> list[str]:
    if position is None:
        return []
    order = [who(names, p["name"]) for p in position["players"]]
    return [f"The start rolls set the turn order: {listing(order)}."]


def position_lines(position: Mapping[str, Any], names: Names) -> list[str]:
    """The reader's view of a position as lines of text: their objective and cards, the
    others' hand sizes, then every territory continent by continent."""
    from risiko.pictures import position_lines as board_lines

    lines = []
    for player, oid in sorted(position.get("objectives", {}).items()):
        lines.append(f"Objective of {who(names, player)}: {objective(oid)}.")
    for player, hand in sorted(position.get("hands", {}).items()):
        cards = [territory(c) if c != "jolly" else "jolly" for c in hand]
        lines.append(f"Cards of {who(names, player)}: {', '.join(cards) or 'none'}.")
    sizes = position.get("hand_sizes", {})
    if sizes:
        lines.append(
            "Cards held: " + ", ".join(f"{who(names, p)} {n}" for p, n in sorted(sizes.items()))
        )
    return lines + board_lines(position, names)


# --- the choices of a decision: a few ready actions; any other is typed ---------------


def choices(position: Mapping[str, Any], player: str, names: Names) -> list[ChoiceGroup]:
    """Ready-made actions for the player the view is for, grouped by step: placements
    of everything on one territory, attacks until conquered with their exact odds, the
    move-in, the war answer, and ending the turn. Any other action is typed."""
    if player not in position.get("awaiting", []):
        return []
    mine = sorted(t for t, v in position["territories"].items() if v["owner"] == player)
    armies = {t: v["armies"] for t, v in position["territories"].items()}
    turn = position.get("turn")
    if position["phase"] == "placement":
        placement = position["placement"]
        left = placement["left"][player]
        need = left if placement.get("sealed") is not None else min(3, left)
        return [_place_group(mine, need, "K10")]
    if turn is None:
        return []
    if turn.get("war"):
        most = min(11, armies[turn["war"]["to"]] - 1)
        answers = [Choice(f"war cost {c}", f"Pay {c} to defend") for c in range(most, -1, -1)]
        answers.append(Choice("war flag", "Show a white flag"))
        return [ChoiceGroup("war", "Your answer to the war", "K39b", answers)]
    if turn.get("move_in"):
        move = turn["move_in"]
        steps = sorted({move["moved"], move["max"]})
        moves = [Choice(f"move {n}", f"Leave {n} in {territory(move['to'])}") for n in steps]
        return [ChoiceGroup("move", "Move in", "K22", moves)]
    if turn["pool"] > 0:
        return [_place_group(mine, turn["pool"], "K17")]
    groups = []
    attacks = _attacks(position, player, armies)
    if attacks:
        groups.append(ChoiceGroup("attack", "Attack", "K18–K22", attacks))
    groups.append(ChoiceGroup("end", "End the turn", "K25", [Choice("end", "End your turn")]))
    return groups


def _place_group(mine: Sequence[str], armies: int, rules: str) -> ChoiceGroup:
    placements = [
        Choice(f"place {armies} {t}", f"Place {_armies(armies)} in {territory(t)}") for t in mine
    ]
    return ChoiceGroup("place", f"Place {_armies(armies)}", rules, placements)


def _attacks(position: Mapping[str, Any], player: str, armies: Mapping[str, int]) -> list[Choice]:
    neighbours = _board(position).neighbors
    owner = {t: v["owner"] for t, v in position["territories"].items()}
    truce = {
        t["defender"] if t["attacker"] == player else t["attacker"]
        for t in position.get("truces", [])
        if player in (t["attacker"], t["defender"])
    }
    found = []
    for origin in sorted(t for t, o in owner.items() if o == player and armies[t] >= 2):
        for target in sorted(neighbours.get(origin, ())):
            if owner[target] == player or owner[target] in truce:
                continue
            if position["options"].get("battle") == "war-die":
                continue  # a war's cost is typed
            win = attack_odds(armies[origin], armies[target]).conquered
            found.append(
                Choice(
                    f"attack {target} from {origin} until conquered move all",
                    f"Attack {territory(target)} ({armies[target]}) from "
                    f"{territory(origin)} ({armies[origin]}) until it falls, moving all in",
                    f"{float(win) * 100:.1f}%",
                )
            )
    return found
