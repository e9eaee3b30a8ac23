"""RisiKo (``shared/rules/risiko.md``) as a game kind of the server.

The engine is ``risiko.engine``; this module plays it for the server. A seat's player
is named by their colour (the board's colours in seat order). A turn is many actions of
one player: its decision goes on, with one deadline, until the turn ends
(``decision_key``), and a missed turn is finished by the engine's default (K35). The
views are the engine's (K33): a player sees their own objective and cards, the others'
card counts, never the deck's order nor another's sealed placement; a spectator sees
neither objectives nor hands; everything shows once the game is over (K32). A state as
a reader sees it is the view itself (a dict), which the words and pictures read.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from random import Random
from typing import Any, ClassVar

from games.kinds import (
    OVER,
    PLAY,
    SETUP,
    Bot,
    Dice,
    Event,
    GameKind,
    Position,
    Refused,
    RuleWords,
    Viewer,
)
from games.wording import ChoiceGroup, MoveWords
from risiko import describe, engine, pictures, turnform
from risiko.engine.bots import BOTS
from risiko.engine.commitment import PLACEMENT_DECISION, PREFIX, war_decision
from risiko.picture_layout import colours_of

PHASES = {"placement": SETUP, "play": PLAY, "over": OVER}
OPTIONS: dict[str, tuple[Any, ...]] = {
    "board": tuple(engine.BOARDS),
    "placement": ("sealed", "rounds"),
    "min_reinforcement": (0, 3),
    "territory_bonus": ("per-set", "per-card"),
    "battle": ("dice", "war-die"),
}
# The secret a drawn card is to everyone but its drawer (K33).
HIDDEN_CARD = None


class _Seated:
    """A random source whose first ``n`` values (the start rolls, K6) are n, n - 1, …, 1:
    the turn order of the seats as given, an event's seating deciding it."""

    def __init__(self, source: Dice, n: int) -> None:
        self.source, self.rolls = source, list(range(n, 0, -1))

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return self.source.randint(a, b)


def _dict(state: Any) -> Position:
    """A state as a position or view dict (a view is kept as it is)."""
    return state if isinstance(state, dict) else engine.dump_position(state)


def _seated(bot: Any) -> Bot:
    """An engine bot, which reads one player's view, as a kind's bot for a seat."""

    def play(state: Any, player: str, rng: Random) -> str:
        return str(bot(engine.view(state, player), rng))

    return play


class RisiKo(GameKind):
    key: ClassVar[str] = "risiko"
    name: ClassVar[str] = "RisiKo"
    start_heading: ClassVar[str] = "Who starts (K12)"
    missed_words: ClassVar[str] = (
        "At this many missed turns the player forfeits instead (K36); missed placements "
        "and a defender's answers to a war are made for the player (K35) and do not count."
    )
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    template_folder: ClassVar[str] = "risiko"
    # greedy first: the bot an event or a ladder adds when none is named
    bots: ClassVar[Mapping[str, Bot]] = {key: _seated(BOTS[key]) for key in ("greedy", "random")}
    odds_words: ClassVar[str] = "chance to conquer"
    reply_words: ClassVar[str] = "to answer the war (K39b)"
    reply_name: ClassVar[str] = "answer to a war"
    forfeit_words: ClassVar[str] = "(K36): your armies stay on the board as neutrals"
    # K36 leaves the ranking to the server: a forfeiter below everyone eliminated
    resign_rank_words: ClassVar[str] = (
        "K36: a player who resigns leaves at once and ranks below everyone eliminated in play"
    )
    draws_pictures: ClassVar[bool] = True
    turn_scripts: ClassVar[bool] = True  # K34: a whole turn in one mail
    commitment_format: ClassVar[str] = (
        "risiko-sealed-v1|<game id>|<decision id>|<player>|<canonical action>|<r in hex>"
    )
    reply_examples: ClassVar[tuple[str, ...]] = (
        "place 3 cina, 2 siam",
        "attack cina from mongolia until conquered move all",
        "fortify siam india 2",
        "end",
    )

    # --- options ---------------------------------------------------------------------

    def default_options(self) -> dict[str, Any]:
        return {
            "board": engine.DEFAULT_BOARD,
            "placement": "sealed",
            "min_reinforcement": 0,
            "territory_bonus": "per-set",
            "battle": "dice",
        }

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        checked = {**self.default_options(), **options}
        for name, allowed in OPTIONS.items():
            if checked[name] not in allowed or isinstance(checked[name], bool):
                raise ValueError(f"{name.replace('_', ' ')} is one of {allowed}")
        return checked

    def options_fields(self) -> dict[str, Any]:
        from django import forms

        boards = [(key, board.name) for key, board in sorted(engine.BOARDS.items())]
        return {
            "board": forms.ChoiceField(choices=boards, initial=engine.DEFAULT_BOARD),
            "placement": forms.ChoiceField(
                label="Initial placement",
                choices=[("sealed", "Sealed, everyone at once (K10)"), ("rounds", "By rounds")],
                initial="sealed",
            ),
            "min_reinforcement": forms.TypedChoiceField(
                label="Fewest armies a turn",
                choices=[(0, "As the rules count them"), (3, "At least 3")],
                coerce=int,
                initial=0,
            ),
            "territory_bonus": forms.ChoiceField(
                label="Territory bonus of a traded set",
                choices=[("per-set", "Once a set (K16)"), ("per-card", "For each card")],
                initial="per-set",
            ),
            "battle": forms.ChoiceField(
                label="Battles",
                choices=[("dice", "Dice"), ("war-die", "The war die (K39)")],
                initial="dice",
            ),
        }

    def seat_name(self, game: Any, seat: Any) -> str:
        colours = engine.BOARDS[game.options.get("board", engine.DEFAULT_BOARD)].colours
        return colours[seat.number - 1] if 1 <= seat.number <= len(colours) else ""

    def options_words(self, options: Mapping[str, Any]) -> str:
        o = self.check_options(options)
        words = [f"{o['placement']} placement", f"{o['territory_bonus']} bonus"]
        if o["min_reinforcement"]:
            words.append(f"at least {o['min_reinforcement']} armies a turn")
        words.append("war die (K39)" if o["battle"] == "war-die" else "dice")
        return ", ".join(words)

    # --- play ------------------------------------------------------------------------

    def _seats(self, players: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
        return [{"name": name, "color": name} for name, _ in players]

    def start(
        self,
        players: Sequence[tuple[str, str]],
        options: Mapping[str, Any],
        rng: Dice,
        first: int | None = None,
    ) -> tuple[Any, list[Event]]:
        """K6: the start rolls set the turn order; where an event's seating decides it
        (``first``), the turn order is the seats' from that one on, and the start rolls are
        the seating's (6, 5, 4, … in that order), so the record replays the same way."""
        record: list[Event] = []
        if first is not None:
            players = list(players[first:]) + list(players[:first])
            rng = _Seated(rng, len(players))
            record.append({"type": "first_player", "player": players[0][0], "by": "seating"})
        drawn = engine.RecordingRandom(rng)
        state = engine.new_game(self._seats(players), self.check_options(options), drawn)
        return state, [{"type": "setup", "rng": drawn.take()}, *record]

    def start_again(
        self, players: Sequence[tuple[str, str]], options: Mapping[str, Any], record: list[Event]
    ) -> Any:
        values = next(e["rng"] for e in record if e.get("type") == "setup")
        seated = next((e for e in record if e.get("type") == "first_player"), None)
        if seated is not None:
            at = [name for name, _ in players].index(seated["player"])
            players = list(players[at:]) + list(players[:at])
        return engine.new_game(
            self._seats(players), self.check_options(options), engine.ListRandom(values)
        )

    def load(self, position: Position) -> Any:
        if "view" in position:
            return position  # a reader's view: the words and pictures read it as it is
        return engine.load_position(position)

    def dump(self, state: Any) -> Position:
        return _dict(state)

    def phase(self, state: Any) -> str:
        return PHASES[_dict(state)["phase"]]

    def deciders(self, state: Any) -> tuple[str, ...]:
        return tuple(_dict(state)["awaiting"])

    def decision_key(self, position: Position) -> str | None:
        turn = position.get("turn")
        if position.get("phase") != "play" or turn is None:
            return None  # each placement is a decision of its own
        if turn.get("war"):
            return f"war-{turn['number']}-{turn['war']['from']}-{turn['war']['to']}"
        return f"turn-{turn['number']}"

    def is_reply(self, state: Any) -> bool:
        turn = _dict(state).get("turn")
        return bool(turn and turn.get("war"))  # the defender's answer to a war (K39b)

    def missed_counts(self, state: Any, player: str) -> bool:
        return self.phase(state) == PLAY and not self.is_reply(state)

    def legal(self, state: Any, player: str) -> Sequence[str]:
        # The engine validates actions rather than listing them (contract): the ready
        # ones are the default's (K35).
        if isinstance(state, dict) or player not in self.deciders(state):
            return []
        return engine.default_actions(state, player)

    def parse(self, state: Any, player: str, text: str) -> str:
        try:
            return engine.parse_action(state, player, text)
        except ValueError as refusal:
            raise Refused(str(refusal)) from None

    def apply(self, state: Any, player: str, action: str, rng: Dice) -> tuple[Any, list[Event]]:
        try:
            return engine.apply_action(state, player, action, rng)
        except ValueError as refusal:
            raise Refused(str(refusal)) from None

    def replay(self, state: Any, player: str, action: str, dice: Sequence[int]) -> Any:
        if action.startswith("forfeit "):
            return engine.forfeit(state, action.split(" ", 1)[1])[0]
        if ";" in action:  # a turn script's lines, done in one move (K34)
            return engine.run_script(state, player, action, engine.ListRandom(list(dice)))[0]
        return engine.apply_action(state, player, action, engine.ListRandom(list(dice)))[0]

    def run_script(
        self, state: Any, player: str, text: str, rng: Dice
    ) -> tuple[Any, list[dict[str, Any]], list[Event]]:
        after, report, events = engine.run_script_with_events(state, player, text, rng)
        return after, [dict(line) for line in report], events

    def holds_script(self, state: Any, player: str) -> bool:
        """K39f: the player's script waits while the war of their attack is pending."""
        turn = state.turn
        return (
            state.phase != "over"
            and turn is not None
            and turn.player == player
            and turn.war is not None
        )

    def resume_script(
        self, state: Any, player: str, text: str, rng: Dice
    ) -> tuple[Any, list[dict[str, Any]], list[Event]]:
        """K39f: the held lines run as a new script of the player once the war is
        revealed, unless the game is over, the turn has ended or the reveal opened a
        move-in: then each is "not-run" (the contract's turn scripts)."""
        turn = state.turn
        why = None
        if state.phase == "over":
            why = "the game is over"
        elif turn is None or turn.player != player or player not in state.awaiting:
            why = "the turn has ended"
        elif turn.move_in is not None:
            why = "waiting for your move-in"
        if why is None:
            return self.run_script(state, player, text, rng)
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        report = [{"line": line, "action": None, "status": "not-run", "why": why} for line in lines]
        return state, report, []

    def forfeit(self, state: Any, player: str) -> tuple[Any, list[Event]]:
        try:
            return engine.forfeit(state, player)
        except ValueError as refusal:
            raise Refused(str(refusal)) from None

    def default_decision(self, state: Any, player: str, rng: Random) -> str:
        return engine.default_actions(state, player)[0]  # K35, one action at a time

    def finishing_order(
        self, state: Any, history: Sequence[tuple[str, list[Event]]]
    ) -> list[list[str]]:
        """The winner; then the players still in, by territories then armies held; then
        those eliminated, the last out first; then those who forfeited, the last first."""
        position = _dict(state)
        out = [o["player"] for o in position["out"]]
        winner = position.get("winner")
        held: dict[str, tuple[int, int]] = {}
        for spot in position["territories"].values():
            territories, armies = held.get(spot["owner"], (0, 0))
            held[spot["owner"]] = (territories + 1, armies + spot["armies"])
        playing = [p["name"] for p in position["players"] if p["name"] not in out]
        rest = [p for p in playing if p != winner]
        measures = sorted({held.get(p, (0, 0)) for p in rest}, reverse=True)
        order = [[winner]] if winner else []
        order += [[p for p in rest if held.get(p, (0, 0)) == m] for m in measures]
        eliminated = [o["player"] for o in position["out"] if o["how"] == "eliminated"]
        forfeited = [o["player"] for o in position["out"] if o["how"] == "forfeit"]
        return order + [[p] for p in reversed(eliminated)] + [[p] for p in reversed(forfeited)]

    # --- what each reader may see (K33) -------------------------------------------------

    def view(self, position: Position, viewer: Viewer) -> Position:
        if "view" in position:
            return position
        if viewer.everything:
            return position
        player = viewer.player
        state = engine.load_position(position)
        return engine.view(state, player if player in state.names else None)

    def events_for(self, events: Iterable[Event], viewer: Viewer) -> list[Event]:
        shown = []
        for event in events:
            if event.get("type") == "drew" and not (
                viewer.everything or event.get("player") == viewer.player
            ):
                event = {**event, "card": HIDDEN_CARD}
            shown.append(event)
        return shown

    def action_for(
        self, action: str, player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> str:
        if viewer.everything or player == viewer.player:
            return action
        kinds = {event.get("type") for event in events}
        if "sealed" in kinds:
            return f"place ({describe.SEALED})"  # K38: revealed with the others
        if "war" in kinds and " cost " in f" {action} ":
            return action.split(" cost ", 1)[0] + f" ({describe.SEALED})"
        return action

    def dice_for(
        self, dice: list[int], player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> list[int]:
        # K37: the values that reshuffled the deck (at a draw, K25) would tell its order;
        # the others (the rolls) are public, as the events that tell them
        reshuffled = any(event.get("type") == "reshuffled" for event in events)
        return [] if reshuffled and not viewer.everything else dice

    def export_record(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        """K37's record (``risiko-record/1``) of a finished game: the seats, the setup's
        values, and every move with the values it drew; a whole turn sent at once (one
        move here) is written as its lines, each with its own values."""
        options = dict(record["options"])
        start = next((e for e in record["start"] if e.get("type") == "setup"), {"rng": []})
        moves: list[dict[str, Any]] = []
        before = _full(record["initial_position"])
        for move in record["moves"]:
            forfeit = move["action"].startswith("forfeit ")
            by = "admin" if forfeit else BY_SOURCE.get(move["source"], "player")
            for action, drawn in _lines_of(before, move["player"], move["action"], move["dice"]):
                moves.append(
                    {
                        "n": len(moves) + 1,
                        "player": move["player"],
                        "action": action,
                        "rng": drawn,
                        "by": by,
                        "at": move["at"],
                    }
                )
            if move.get("commitment"):  # K38: the sealed action, a script's last line
                moves[-1].update(
                    {
                        "decision": move["decision"],
                        "nonce": move.get("nonce", ""),
                        "commitment": move["commitment"],
                    }
                )
            before = _full(move["position"])
        return {
            "format": "risiko-record/1",
            "game": str(record["game"]),
            "board": record["board"],
            "options": {k: v for k, v in options.items() if k != "board"},
            "seats": [{"name": s["player"], "color": s["player"]} for s in record["seats"]],
            "setup_rng": list(start["rng"]),
            "moves": moves,
        }

    def start_for(self, record: list[Event], viewer: Viewer) -> list[Event]:
        # the setup's values deal the objectives, the territories and the deck
        return record if viewer.everything else []

    # --- commitments for sealed actions (K38, K39) -----------------------------------------

    def sealed_decision(
        self,
        position: Position,
        player: str,
        action: str,
        events: Sequence[Event],
        number: int,
        open_decision: str | None,
    ) -> str | None:
        if action.startswith("forfeit "):
            return None
        if _sealed_placement(position):
            return PLACEMENT_DECISION
        war = (position.get("turn") or {}).get("war")
        if war is not None and player == war["defender"]:
            return open_decision  # the answer joins its attack's war (none: older games)
        if any(e.get("type") == "war" and e.get("player") == player for e in events):
            return war_decision(number)  # K39: war-<n>, n the attack's move
        return None

    def sealed_pending(self, position: Position) -> bool:
        return _sealed_placement(position) or bool((position.get("turn") or {}).get("war"))

    def sealed_parties(
        self, position: Position, player: str, events: Sequence[Event]
    ) -> Collection[str]:
        if _sealed_placement(position):
            return {"*"}
        out = {o["player"] for o in position.get("out", [])}
        war = (position.get("turn") or {}).get("war")
        if war is not None:  # the answer: told to the attacker (K39c)
            return {position["turn"]["player"]} - out
        wars = [e for e in events if e.get("type") == "war" and e.get("player") == player]
        return {wars[-1]["defender"]} - out if wars else set()  # the attack: its defender

    commitment_prefix: ClassVar[str] = PREFIX

    def sealed_text(self, action: str) -> str:
        return sealed_line(action)

    def commitment(self, game: str, decision: str, player: str, action: str, nonce: bytes) -> str:
        return engine.commitment(game, decision, player, sealed_line(action), nonce)

    def commitment_text(
        self, game: str, decision: str, player: str, action: str, nonce_hex: str
    ) -> str:
        return "|".join((PREFIX, game, decision, player, sealed_line(action), nonce_hex))

    def sealed_words(self, decision: str) -> str:
        return "placement" if decision == PLACEMENT_DECISION else "war decision"

    # --- words and pictures ---------------------------------------------------------------

    def describe_move(
        self,
        options: Mapping[str, Any],
        action: str,
        player: str,
        events: Sequence[Event],
        names: Mapping[str, str],
    ) -> MoveWords:
        return describe.describe_move(action, player, events, names)

    def describe_start(self, record: Sequence[Event], names: Mapping[str, str]) -> list[str]:
        seated = next((e for e in record if e.get("type") == "first_player"), None)
        if seated is None:
            return []  # the start rolls' values are secret until the end (they deal too)
        return [
            f"{names.get(seated['player'], seated['player'])} goes first, as the event seated them."
        ]

    def choices(self, state: Any, player: str, names: Mapping[str, str]) -> list[ChoiceGroup]:
        return describe.choices(_dict(state), player, names)

    decision_template: ClassVar[str] = "risiko/decision.html"

    def decision_context(self, state: Any, player: str, names: Mapping[str, str]) -> dict[str, Any]:
        if not isinstance(state, dict) or state.get("view") != player:
            return {}  # the form is built from its player's own view, never more
        return turnform.Turn(state, player).context(names)

    def script_from_form(self, state: Any, player: str, post: Mapping[str, str]) -> str | None:
        if not isinstance(state, dict) or state.get("view") != player:
            raise Refused("this form is for the player whose decision it is")
        return turnform.Turn(state, player).script(post)

    def example_action(self, state: Any, player: str) -> str:
        for group in self.choices(state, player, {}):
            for choice in group.choices:
                return choice.action
        return "end"

    def decision_words(self, state: Any, player: str) -> str:
        position = _dict(state)
        if position["phase"] == "placement":
            return "placement"
        return "answer to a war" if self.is_reply(position) else "turn"

    def position_lines(
        self, options: Mapping[str, Any], position: Position, names: Mapping[str, str]
    ) -> list[str]:
        return describe.position_lines(position, names)

    def page_context(
        self,
        options: Mapping[str, Any],
        position: Position | None,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
        seats: Iterable[Any] = (),
    ) -> dict[str, Any]:
        if position is None:
            return {"position": None}
        marks = pictures.marks_of(events)
        seat_of = {seat.player_name: seat for seat in seats if seat.player_name}
        return {
            "position": position,
            "board_svg": pictures.board_svg(position, names, marks),
            # each player with their seat, which the key links to the player's page
            "key": [
                {"entry": entry, "seat": seat_of.get(entry.player)}
                for entry in pictures.key_entries(position, names)
            ],
            "lines": describe.position_lines(position, names),
        }

    def picture(
        self,
        options: Mapping[str, Any],
        position: Position,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
    ) -> bytes | None:
        return pictures.board_png(position, names, pictures.marks_of(events))

    def players_out(self, state: Any) -> Sequence[str]:
        return [o["player"] for o in _dict(state)["out"]]

    def player_colour(self, options: Mapping[str, Any], player: str) -> str:
        return colours_of(player)[0]  # a seat's player is named by their colour

    # --- tournament hooks ---------------------------------------------------------------

    def rule_words(self, options: Mapping[str, Any]) -> RuleWords:
        # The rules name no turn limit; a forfeit is K36's.
        return RuleWords(
            f"Game: RisiKo, {self.options_words(options)}",
            "",
            "K36",
            "their armies stay on the board as neutral armies, which never act, defend as "
            "usual and can be conquered, and their cards go to the discard pile (K36)",
        )

    def adjudication_measures(self) -> Mapping[str, str]:
        return {
            "objective": "progress towards their objective",
            "territories": "territories held",
            "armies": "armies on the board",
        }

    def measure(
        self, position: Position, measures: Sequence[str]
    ) -> dict[str, tuple[int, ...] | None]:
        unknown = set(measures) - set(self.adjudication_measures())
        if unknown:
            raise ValueError(f"unknown measures: {', '.join(sorted(unknown))}")
        state = engine.load_position(position)
        out = {o["player"] for o in position["out"]}
        held: dict[str, list[int]] = {}
        for spot in position["territories"].values():
            counts = held.setdefault(spot["owner"], [0, 0])
            counts[0] += 1
            counts[1] += spot["armies"]
        values: dict[str, tuple[int, ...] | None] = {}
        for player in (p["name"] for p in position["players"]):
            if player in out:
                values[player] = None
                continue
            territories, armies = held.get(player, [0, 0])
            by_name = {
                "objective": _progress(state, player),
                "territories": territories,
                "armies": armies,
            }
            values[player] = tuple(by_name[m] for m in measures)
        return values

    def eliminations(
        self, history: Sequence[tuple[str, list[Event]]]
    ) -> tuple[tuple[tuple[str, ...], bool], ...]:
        found: list[tuple[tuple[str, ...], bool]] = []
        for _, events in history:
            for event in events:
                if event.get("type") == "eliminated":
                    found.append(((event["player"],), False))
                elif event.get("type") == "forfeit":
                    found.append(((event["player"],), True))
        return tuple(found)


# How a move was made, in the record's words (K37): by its player, by default (K35) or by
# an organiser (a forfeit).
BY_SOURCE = {"timeout": "default", "admin": "admin"}


def _full(position: Mapping[str, Any]) -> Any:
    """The engine's state of a whole position as a record shows it (a view of everything:
    the view's own keys left out)."""
    return engine.load_position(
        {k: v for k, v in position.items() if k not in ("view", "hand_sizes", "deck_size")}
    )


def _lines_of(
    before: Any, player: str, action: str, drawn: Sequence[int]
) -> list[tuple[str, list[int]]]:
    """A move's actions, each with the values it drew: a turn sent at once is its lines,
    taken again one by one from the state before it."""
    if "; " not in action:
        return [(action, list(drawn))]
    lines = []
    values = engine.ListRandom(list(drawn))
    state = before
    for line in action.split("; "):
        start = values.position
        state, _ = engine.apply_action(state, player, line, values)
        lines.append((line, list(drawn[start : values.position])))
    return lines


def sealed_line(action: str) -> str:
    """The sealed action a move commits to (K38, K39): the move's action, or, for a turn
    sent at once that opened a war, its last line (the attack; the lines before it are
    open actions)."""
    return action.split("; ")[-1]


def _sealed_placement(position: Position) -> bool:
    """Whether a stored position is in a sealed placement (K10, K38)."""
    placement = position.get("placement")
    return (
        position.get("phase") == "placement"
        and bool(placement)
        and (placement.get("sealed") is not None)
    )


def _progress(state: Any, player: str) -> int:
    """How far a player is towards their objective, in hundredths (100: met)."""
    met = engine.objective_met(state, player)
    return 100 if met else _share(state, player)


def _share(state: Any, player: str) -> int:
    position = engine.dump_position(state)
    objective = engine.BOARDS[position["board"]].objectives[position["objectives"][player]]
    mine = [t for t, v in position["territories"].items() if v["owner"] == player]
    if objective.continents:
        board = engine.BOARDS[position["board"]]
        wanted = set().union(*(board.continent_territories[c] for c in objective.continents))
        return 100 * len(wanted & set(mine)) // max(1, len(wanted) + objective.plus_any)
    if objective.territories:
        strong = [t for t in mine if position["territories"][t]["armies"] >= objective.min_armies]
        return min(99, 100 * len(strong) // objective.territories)
    return 0
