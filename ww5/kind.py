"""World War 5 (``shared/rules/world-war-5.md``) as a game kind.

Nothing of the game is hidden: every player and spectator sees the whole position and
every event, so the views are the defaults. A decision is always one player's. Its
tournament hooks (``ww5.tournament``): the measures of the turn-limit house rule (R28),
and the home continents an event balances over its rounds (R4).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from random import Random
from typing import Any, ClassVar

from django import forms

from games.kinds import (
    PLAY,
    SETUP,
    Bot,
    Dice,
    Event,
    GameKind,
    Position,
    Refused,
    RuleWords,
)
from games.wording import ChoiceGroup, MoveWords
from ww5 import boardview, describe, engine, pages, tournament
from ww5.engine.board import DEFAULT_BOARD
from ww5.engine.bots import BOTS
from ww5.engine.lookahead import eliminates_mover
from ww5.engine.state import State

STRICT, CASUAL = "strict", "casual"
SETUP_CHOICES = [
    (STRICT, "Strict: all smalls, then mediums, then larges, one at a time"),
    (CASUAL, "Casual: each player places all three at once"),
]
BOARD_NOTE = (
    "Original (2008) is the default; the Pyramid Arcade printing lacks two sea routes and "
    "has one extra land border; Balanced is the designer's never-printed board where every "
    "territory has five routes."
)


def _seated(bot: Any) -> Bot:
    """An engine bot, which plays the player to move, as a kind's bot for a seat."""

    def play(state: State, player: str, rng: Random) -> str:
        return str(bot(state, rng))

    return play


class WorldWar5(GameKind):
    key: ClassVar[str] = "ww5"
    name: ClassVar[str] = "World War 5"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    template_folder: ClassVar[str] = "ww5"
    hides_nothing: ClassVar[bool] = True
    start_heading: ClassVar[str] = "Who starts (R5)"
    many_players: ClassVar[tuple[int, str] | None] = (
        5,
        "Five or six players (R3): expect a long game. With six, every continent has a "
        "player, so no one can win until someone is eliminated.",
    )
    missed_words: ClassVar[str] = (
        "At this many missed turns the player forfeits instead (R31); missed setup "
        "placements and retreats are made for the player and do not count."
    )
    # greedy first: the bot an event or a ladder adds when none is named
    bots: ClassVar[Mapping[str, Bot]] = {key: _seated(BOTS[key]) for key in ("greedy", "random")}

    def default_options(self) -> dict[str, Any]:
        return {"board": DEFAULT_BOARD, "setup": STRICT, "retreat_into_origin": False}

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - set(self.default_options())
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        checked = {**self.default_options(), **options}
        if checked["board"] not in engine.BOARDS:
            raise ValueError(f"unknown board {checked['board']!r}")
        if checked["setup"] not in (STRICT, CASUAL):
            raise ValueError(f"unknown setup {checked['setup']!r}")
        if not isinstance(checked["retreat_into_origin"], bool):
            raise ValueError("retreat_into_origin is true or false")
        return checked

    def seat_name(self, game: Any, seat: Any) -> str:
        # the colour of the seat's home continent (contract)
        if not seat.home:
            return ""
        board = engine.BOARDS[game.options["board"]]
        return str(board.continent_colors[board.continent_index[seat.home]])

    def event_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        # An event's or a ladder's games use the strict setup (R7), never R19's house
        # variant; only their board is chosen.
        return self.check_options({**options, "setup": STRICT, "retreat_into_origin": False})

    def start(
        self,
        players: Sequence[tuple[str, str]],
        options: Mapping[str, Any],
        rng: Dice,
        first: int | None = None,
    ) -> tuple[State, list[Event]]:
        checked = self.check_options(options)
        if first is None:
            return engine.new_game(players, checked, rng)  # R5: the roll for first player
        in_turn_order = list(players[first:]) + list(players[:first])
        record: list[Event] = [
            {"type": "first_player", "player": players[first][0], "by": "seating"}
        ]
        return engine.start_position(in_turn_order, checked), record

    def start_again(
        self, players: Sequence[tuple[str, str]], options: Mapping[str, Any], record: list[Event]
    ) -> State:
        first = next(e["player"] for e in record if e["type"] == "first_player")
        at = [name for name, _ in players].index(first)
        in_turn_order = list(players[at:]) + list(players[:at])
        return engine.start_position(in_turn_order, self.check_options(options))

    def load(self, position: Position) -> State:
        return engine.load_position(position)

    def dump(self, state: State) -> Position:
        return engine.dump_position(state)

    def deciders(self, state: State) -> tuple[str, ...]:
        if state.phase == "over" or state.to_move is None:
            return ()
        return (state.name_of(state.to_move),)

    def phase(self, state: State) -> str:
        return str(state.phase)

    def is_reply(self, state: State) -> bool:
        return state.pending is not None  # a defender's retreat (R18)

    def missed_counts(self, state: State, player: str) -> bool:
        # R31: only missed turns in play count; a missed setup placement or retreat is
        # decided for the player and could never lead to a forfeit
        return state.phase == PLAY and state.pending is None

    def default_decision(self, state: State, player: str, rng: Random) -> str:
        return str(BOTS["greedy"](state, rng))  # R31: the greedy bot decides

    def legal(self, state: State, player: str) -> Sequence[str]:
        return engine.legal_actions(state) if player in self.deciders(state) else ()

    def parse(self, state: State, player: str, text: str) -> str:
        try:
            return engine.parse_action(state, text)
        except engine.IllegalAction as refusal:
            raise Refused(str(refusal), refusal.reason) from None

    def needs_confirmation(self, state: State, player: str, action: str) -> bool:
        return eliminates_mover(state, action)  # R15

    def apply(self, state: State, player: str, action: str, rng: Dice) -> tuple[State, list[Event]]:
        return engine.apply_action(state, action, rng=rng)

    def replay(self, state: State, player: str, action: str, dice: Sequence[int]) -> State:
        if action.startswith("forfeit "):
            return engine.forfeit(state, action.split(" ", 1)[1])[0]
        return engine.apply_action(state, action, dice=dice)[0]

    def forfeit(self, state: State, player: str) -> tuple[State, list[Event]]:
        try:
            return engine.forfeit(state, player)
        except engine.IllegalAction as refusal:
            raise Refused(str(refusal), refusal.reason) from None

    def finishing_order(
        self, state: State, history: Sequence[tuple[str, list[Event]]]
    ) -> list[list[str]]:
        return engine.finishing_order(state, list(history))

    # --- words and pictures ------------------------------------------------------

    confirmation_words: ClassVar[str] = describe.ELIMINATES
    odds_words: ClassVar[str] = "chance to win the fight"
    confirmation_label: ClassVar[str] = "I understand this eliminates me"
    confirmation_help: ClassVar[str] = (
        "Needed only for a decision that leaves your home continent empty (R15)."
    )
    reply_words: ClassVar[str] = "to choose where their beaten piece retreats"
    reply_name: ClassVar[str] = "retreat"
    forfeit_words: ClassVar[str] = "(R31): your pieces have been removed"
    resign_rank_words: ClassVar[str] = (
        "R31: a player who resigns ranks below everyone eliminated in play"
    )
    draws_pictures: ClassVar[bool] = True
    reply_examples: ClassVar[tuple[str, ...]] = describe.REPLY_EXAMPLES

    def _board(self, options: Mapping[str, Any]) -> engine.Board:
        return engine.BOARDS[options["board"]]

    def options_fields(self) -> dict[str, Any]:
        boards = [(key, board.name) for key, board in sorted(engine.BOARDS.items())]
        return {
            "board": forms.ChoiceField(choices=boards, initial=DEFAULT_BOARD, help_text=BOARD_NOTE),
            "setup": forms.ChoiceField(label="Setup", choices=SETUP_CHOICES, initial=STRICT),
            "retreat_into_origin": forms.BooleanField(
                label="House variant: a beaten piece may retreat into the attacker's territory",
                required=False,
                help_text="Off by default, and never used in rated or tournament play (R19).",
            ),
        }

    def options_words(self, options: Mapping[str, Any]) -> str:
        checked = self.check_options(options)
        words = [self._board(checked).name]
        if checked["setup"] == CASUAL:
            words.append("casual setup (R19)")
        if checked["retreat_into_origin"]:
            words.append("retreat into the attacker's origin (R22)")
        return ", ".join(words)

    def describe_move(
        self,
        options: Mapping[str, Any],
        action: str,
        player: str,
        events: Sequence[Event],
        names: Mapping[str, str],
    ) -> MoveWords:
        return describe.describe_move(self._board(options), action, player, events, names)

    def action_phrase(self, options: Mapping[str, Any], action: str) -> str:
        return describe.action_phrase(self._board(options), action)

    def describe_start(self, record: Sequence[Event], names: Mapping[str, str]) -> list[str]:
        return describe.describe_start(record, names)

    def choices(self, state: State, player: str, names: Mapping[str, str]) -> list[ChoiceGroup]:
        return describe.choices(state, names) if player in self.deciders(state) else []

    def example_action(self, state: State, player: str) -> str:
        return next(iter(self.legal(state, player)), "move usa colombia")

    def concerned(self, events: Sequence[Event]) -> set[str]:
        # a defender attacked; everyone when a player is eliminated or forfeits
        players: set[str] = set()
        for event in events:
            if event.get("type") == "combat":
                players.add(event["defender"])
            elif event.get("type") in ("eliminated", "forfeit"):
                players.add("*")
        return players

    def decision_words(self, state: State, player: str) -> str:
        if state.pending is not None:
            return "retreat"
        return "setup placement" if state.phase == SETUP else "turn"

    def confirmation_warning(self, phrase: str) -> str:
        return describe.elimination_warning(phrase)

    def position_lines(
        self, options: Mapping[str, Any], position: Position, names: Mapping[str, str]
    ) -> list[str]:
        return pages.board_lines(self._board(options), self.load(position), names)

    def page_context(
        self,
        options: Mapping[str, Any],
        position: Position | None,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
        seats: Iterable[Any] = (),
    ) -> dict[str, Any]:
        state = self.load(position) if position is not None else None
        return pages.position_context(self._board(options), state, names, events, seats)

    def players_out(self, state: State) -> Collection[str]:
        return {state.players[i].name for i in state.eliminated}

    def player_colour(self, options: Mapping[str, Any], player: str) -> str:
        # a player is named after the colour of their home continent
        return boardview.safe_color(player) if player else ""

    def picture(
        self,
        options: Mapping[str, Any],
        position: Position,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
    ) -> bytes | None:
        return pages.picture(self._board(options), self.load(position), names, events)

    def warm_up(self) -> None:
        from ww5 import boardpng  # Pillow is loaded by the workers that draw, not every process

        boardpng.warm_up()

    # --- tournament hooks --------------------------------------------------------

    def adjudication_measures(self) -> Mapping[str, str]:
        return dict(tournament.MEASURE_WORDS)

    def rule_words(self, options: Mapping[str, Any]) -> RuleWords:
        words = self.options_words(options)
        return RuleWords(
            f"Board: {words}; strict setup (R7), one piece at a time",
            "R28",
            "R31",
            "their pieces leave the board (R31)",
        )

    def measure(
        self, position: Position, measures: Sequence[str]
    ) -> dict[str, tuple[int, ...] | None]:
        return tournament.measure(self.load(position), measures)

    def eliminations(
        self, history: Sequence[tuple[str, list[Event]]]
    ) -> tuple[tuple[tuple[str, ...], bool], ...]:
        return tuple((e.players, e.forfeit) for e in tournament.eliminations_from_moves(history))

    def seat_roles(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return engine.BOARDS[self.check_options(options)["board"]].continents

    def role_names(self, options: Mapping[str, Any]) -> dict[str, str]:
        board = engine.BOARDS[self.check_options(options)["board"]]
        return dict(zip(board.continents, board.continent_names, strict=True))
