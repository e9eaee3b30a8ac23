"""World War 5's events, actions and choices in words, for the web pages and the mails.

Nothing here touches the database: callers pass the engine's board, the events and
actions from the move log, and ``names`` — how to show each engine player name (the
home continent's colour), e.g. ``{"blue": "Alice (blue)"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from games.wording import Choice, ChoiceGroup, MoveWords, Names, listing, who
from ww5.engine import BOARDS, Board, State, combat_odds, eliminates_mover, legal_actions
from ww5.engine.board import SIZE_NAMES

Event = Mapping[str, Any]

# The event that states a move's own action: the rest of its events are what followed.
OWN_EVENT = {
    "place": "place",
    "grow": "grow",
    "build": "build",
    "move": "move",
    "invade": "invade",
    "retreat": "retreat",
    "forfeit": "forfeit",
    "pass": "pass",
}


def board_of(game: Any) -> Board:
    """The board a World War 5 game is played on (its words name its territories)."""
    return BOARDS[game.options["board"]]


def territory(board: Board, tid: str) -> str:
    index = board.territory_index.get(tid)
    return tid if index is None else board.territory_names[index]


def continent(board: Board, cid: str) -> str:
    index = board.continent_index.get(cid)
    return cid if index is None else board.continent_names[index]


def with_article(size: str) -> str:
    return f"a {size}"


# --- actions -------------------------------------------------------------------------


def action_phrase(board: Board, action: str) -> str:
    """A canonical action as an instruction: 'Invade Western Europe from USA'."""
    words = action.split()
    verb, args = words[0], words[1:]
    if verb == "place" and len(args) == 2:
        return f"Place your {args[0]} in {territory(board, args[1])}"
    if verb == "place":
        pairs = [f"{args[i]} in {territory(board, args[i + 1])}" for i in range(0, len(args), 2)]
        return "Place your " + listing(pairs)
    if verb == "grow":
        return f"Grow the piece in {territory(board, args[0])}"
    if verb == "build":
        return f"Build a small in {territory(board, args[0])}"
    if verb == "move":
        return f"Move from {territory(board, args[0])} to {territory(board, args[1])}"
    if verb == "invade":
        return f"Invade {territory(board, args[1])} from {territory(board, args[0])}"
    if verb == "retreat":
        return f"Retreat to {territory(board, args[0])}"
    if verb == "forfeit":
        return "Forfeit"
    if verb == "pass":
        return "Pass"
    return action


def action_sentence(board: Board, action: str, player: str, names: Names) -> str:
    """A canonical action someone took: 'Alice (blue) invades Western Europe from USA.'"""
    phrase = action_phrase(board, action)
    verb, rest = phrase.split(" ", 1) if " " in phrase else (phrase, "")
    verb = verb.lower()
    verb = verb + "es" if verb.endswith("ss") else verb + "s"
    rest = rest.replace("your ", "a ", 1) if rest.startswith("your ") else rest
    return f"{who(names, player)} {verb}{' ' + rest if rest else ''}."


# --- events --------------------------------------------------------------------------


def event_sentence(board: Board, event: Event, names: Names) -> str:
    """One event of the engine's move record in words."""
    kind = event.get("type")
    player = who(names, event.get("player", ""))

    def t(key: str) -> str:
        return territory(board, event[key])

    if kind == "place":
        placed = [
            f"{with_article(size)} in {territory(board, tid)}" for tid, size in _by_size(event)
        ]
        return f"{player} places {listing(placed)}."
    if kind == "play_starts":
        return f"Setup is over: {player} takes the first turn."
    if kind == "grow":
        return f"{player} grows the {event['from']} in {t('territory')} into {event['to']}."
    if kind == "build":
        return f"{player} builds a small in {t('territory')}."
    if kind == "move":
        return f"{player} moves from {t('from')} to {t('to')}."
    if kind == "invade":
        held = who(names, event["defender"])
        return f"{player} invades {t('to')}, held by {held}, from {t('from')}."
    if kind == "combat":
        return dice_sentence(event, names)
    if kind == "retreat_pending":
        options = listing([territory(board, o) for o in event["options"]], "or")
        return f"{player} must choose where the piece in {t('territory')} retreats: {options}."
    if kind == "retreat":
        if event.get("forced"):
            return f"{player}'s piece retreats from {t('from')} to {t('to')}, its only way out."
        return f"{player} retreats from {t('from')} to {t('to')}."
    if kind == "move_in":
        return f"{player} moves in from {t('from')} to {t('to')}."
    if kind == "shrink":
        return (
            f"With no way to retreat, {player}'s {event['from']} in {t('territory')} "
            f"shrinks to {with_article(event['to'])}."
        )
    if kind == "removed":
        return (
            f"With no way to retreat, {player}'s {event['size']} in {t('territory')} "
            "is removed from the board."
        )
    if kind == "eliminated":
        out = [who(names, p) for p in event["players"]]
        if len(out) == 1:
            return f"{out[0]} is eliminated: no piece of theirs is left at home."
        return f"{listing(out)} are eliminated at the same moment."
    if kind == "win":
        if event.get("reason") == "continent":
            return f"{player} wins, holding all of {continent(board, event['continent'])}."
        return f"{player} wins: every other player is out of the game."
    if kind == "draw":
        return f"The game is a draw: {listing([who(names, p) for p in event['players']])} are out."
    if kind == "forfeit":
        return f"{player} forfeits."
    if kind == "pass":
        return f"{player} passes."
    return str(dict(event))


def _by_size(event: Event) -> list[tuple[str, str]]:
    placed = event.get("pieces", {})
    return sorted(placed.items(), key=lambda item: SIZE_NAMES.index(item[1]))


def dice_sentence(combat: Event, names: Names) -> str:
    """'Alice (blue) rolls 6 + 2 = 8 against Bob (purple)'s 3 = 3: the attack succeeds.'"""

    def roll(dice: Sequence[int], total: int) -> str:
        return f"{' + '.join(str(d) for d in dice)} = {total}"

    outcome = (
        "the attack succeeds"
        if combat["winner"] == "attacker"
        else "the attack fails (a tie goes to the defender)"
        if combat["attacker_total"] == combat["defender_total"]
        else "the attack fails"
    )
    return (
        f"{who(names, combat['attacker'])} rolls "
        f"{roll(combat['attacker_dice'], combat['attacker_total'])} against "
        f"{who(names, combat['defender'])}'s "
        f"{roll(combat['defender_dice'], combat['defender_total'])}: {outcome}."
    )


def describe_move(
    board: Board, action: str, player: str, events: Sequence[Event], names: Names
) -> MoveWords:
    verb = action.split(" ", 1)[0]
    rest = list(events)
    headline = action_sentence(board, action, player, names)
    if rest and rest[0].get("type") == OWN_EVENT.get(verb):
        headline = event_sentence(board, rest.pop(0), names)
    dice = ""
    followed = []
    for event in rest:
        if event.get("type") == "combat":
            dice = dice_sentence(event, names)
        else:
            followed.append(event_sentence(board, event, names))
    return MoveWords(headline, dice, followed)


def describe_start(start_record: Sequence[Event], names: Names) -> list[str]:
    """R5's start roll: who rolled what, the re-rolls, and who goes first."""
    lines = []
    for n, event in enumerate(start_record):
        if event.get("type") == "start_roll":
            rolls = ", ".join(f"{who(names, p)} {v}" for p, v in event["rolls"].items())
            lines.append(f"{'Re-roll of the tied players' if n else 'Start roll'}: {rolls}.")
        elif event.get("type") == "first_player" and event.get("by") == "seating":
            lines.append(f"{who(names, event['player'])} goes first, as the event seated them.")
        elif event.get("type") == "first_player":
            lines.append(f"{who(names, event['player'])} rolled highest and goes first.")
    return lines


# --- the choices of a decision -------------------------------------------------------

GROUPS = (
    ("place", "Setup placement", "R6–R7"),
    ("retreat", "Retreat (the defender's choice)", "R18, R22"),
    ("grow", "GROW", "R10"),
    ("build", "BUILD", "R11"),
    ("move", "MOVE", "R12"),
    ("invade", "INVADE", "R13, R16"),
    ("pass", "Pass", "R14"),
)


# R15's warning, in the words every page, mail and answer uses.
ELIMINATES = "eliminates you (R15)"

# The shorter ways of writing an action that the help of replies by mail shows.
REPLY_EXAMPLES = (
    "invade usa -> western europe",
    "i usa western europe",
    "m usa colombia",
    "retreat scandinavia",
    "place small alaska",
)


def elimination_warning(words: str) -> str:
    """Why a decision (``words``, its phrase) needs confirming: R15."""
    return f"“{words}” leaves your home continent empty: it {ELIMINATES}."


def odds_text(odds: Fraction) -> str:
    return f"{odds.numerator}/{odds.denominator} ({float(odds) * 100:.1f}%)"


def choices(state: State, names: Names) -> list[ChoiceGroup]:
    """Every legal action of the player the state waits for, grouped as the rules
    name them, in words, with each INVADE's exact odds and R15's warning."""
    by_verb: dict[str, list[Choice]] = {}
    for action in legal_actions(state):
        verb = action.split(" ", 1)[0]
        by_verb.setdefault(verb, []).append(_choice(state, action, names))
    return [
        ChoiceGroup(verb, title, rules, by_verb[verb])
        for verb, title, rules in GROUPS
        if verb in by_verb
    ]


def _choice(state: State, action: str, names: Names) -> Choice:
    board = state.board
    words = action.split()
    verb = words[0]

    def piece(tid: str) -> tuple[str, str]:
        found = state.pieces[board.territory_index[tid]]
        assert found is not None
        return state.players[found[0]].name, SIZE_NAMES[found[1] - 1]

    if verb == "grow":
        _, size = piece(words[1])
        bigger = SIZE_NAMES[SIZE_NAMES.index(size) + 1]
        label = f"Grow your {size} in {territory(board, words[1])} into {with_article(bigger)}"
        return Choice(action, label)
    if verb == "move":
        _, size = piece(words[1])
        label = (
            f"Move your {size} from {territory(board, words[1])} to {territory(board, words[2])}"
        )
        return Choice(action, label, warning=_warning(state, action))
    if verb == "invade":
        _, mine = piece(words[1])
        defender, theirs = piece(words[2])
        odds = combat_odds(mine, theirs)
        label = (
            f"Invade {territory(board, words[2])} from {territory(board, words[1])}: "
            f"your {mine} against {who(names, defender)}'s {theirs}"
        )
        warning = _warning(state, action)
        return Choice(
            action, label, odds_text(odds), warning and f"{warning} if the attack succeeds"
        )
    if verb == "retreat":
        return Choice(action, action_phrase(board, action), warning=_warning(state, action))
    return Choice(action, action_phrase(board, action))


def _warning(state: State, action: str) -> str:
    """R15's warning for a choice that would eliminate its player, else ""."""
    return ELIMINATES if eliminates_mover(state, action) else ""
