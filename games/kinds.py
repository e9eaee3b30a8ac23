"""Game kinds: the one seam between the server and the games it runs.

The server (lobby, seats, clocks, deadlines, mails, replies, events, ladders) knows a game
only through its kind, an object registered here when the kind's app starts (in its
``AppConfig.ready``, as ``mail.parts`` takes its renderers). A kind says what its game is
(key, name, player counts, options), plays it (start, whose decision it is, parse, apply,
the default decision at a deadline, forfeit, the finishing order, bots) and shows it: every
reader of a game's position or of the events of its moves gets them through the kind's
``view`` and ``events_for`` for the person reading, so that a game with hidden information
shows each player only what is theirs to see.

A decision may be held by one player or by several at once (``deciders``): the second is a
sealed decision, whose actions stay hidden from the others until all are in.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Protocol

from games.wording import Choice, ChoiceGroup, MoveWords, sentence, who

# A kind's key names it in the database, in URLs and in templates' folders.
KIND_KEY = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
# The kind every game, event and ladder had before there were kinds.
DEFAULT_KIND = "ww5"

Position = dict[str, Any]
Event = dict[str, Any]
Bot = Callable[[Any, str, Random], str]

# The phases of a game, which its status follows: before play proper, in play, over.
SETUP, PLAY, OVER = "setup", "play", "over"


class Dice(Protocol):
    """Where a kind takes its random numbers when it applies an action."""

    def randint(self, a: int, b: int) -> int: ...


class Refused(ValueError):
    """A player's text or action that the game does not take now. The message may list
    the legal actions; ``reason`` says why without them."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


@dataclass(frozen=True)
class Viewer:
    """Who reads a game: one of its players (by the kind's name for their seat), a
    spectator (no player), or everyone at once (a finished game, a superuser)."""

    player: str | None = None
    everything: bool = False

    @property
    def is_spectator(self) -> bool:
        return self.player is None and not self.everything


SPECTATOR = Viewer()
EVERYONE = Viewer(everything=True)


def player_viewer(player: str) -> Viewer:
    """The viewer who plays the seat the kind calls ``player``."""
    return Viewer(player=player)


@dataclass(frozen=True)
class RuleWords:
    """What an event's page says of the rules its games follow, in the game's words.
    ``games``: its games' options and setup, a sentence without its full stop;
    ``turn_limit_rule``: the game's rule that a turn limit, an event's house rule, is
    added to (World War 5's R28: the printed rules have none), or "" where the rules
    name none; ``forfeit_rule``: the rule by which a player who misses too many
    decisions forfeits; ``forfeit``: what a forfeit does, for the organiser who makes a
    player forfeit ("" where there is nothing to add to "out of the game at once")."""

    games: str
    turn_limit_rule: str = ""
    forfeit_rule: str = ""
    forfeit: str = ""


class GameKind(ABC):
    """A game the server can run. Subclasses set the class attributes and implement the
    abstract methods; the others have defaults that suit a game without secrets."""

    key: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # The folder, under a templates directory, of the kind's own templates.
    template_folder: ClassVar[str]
    # A kind with no secrets at all (its views are the defaults) says so, and readers
    # skip the round trip through a view that would change nothing.
    hides_nothing: ClassVar[bool] = False

    # --- options -------------------------------------------------------------------

    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """The options of a game made without choosing any."""

    @abstractmethod
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as stored (every name present), if a game can be played with
        them; a ``ValueError`` says why not, in words for the person who chose them."""

    @abstractmethod
    def seat_name(self, game: Any, seat: Any) -> str:
        """The name the game's state gives the player of ``seat`` (a ``games.models.Seat``
        of ``game``), or "" while it has none yet."""

    def event_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of every game an event or a ladder makes, from those it was set
        up with: as ``check_options`` stores them, with whatever the kind keeps out of
        rated and tournament play set back (the default: nothing is)."""
        return self.check_options(options)

    # --- play ----------------------------------------------------------------------

    @abstractmethod
    def start(
        self,
        players: Sequence[tuple[str, str]],
        options: Mapping[str, Any],
        rng: Dice,
        first: int | None = None,
    ) -> tuple[Any, list[Event]]:
        """The state a game starts from, and the record of its start (rolls, draws):
        ``players`` as (name, role) in seat order (role "" for a kind without seat
        roles); ``first``: the index of the player who begins when an event's seating
        decides it, instead of the game's own way."""

    @abstractmethod
    def start_again(
        self, players: Sequence[tuple[str, str]], options: Mapping[str, Any], record: list[Event]
    ) -> Any:
        """The same starting state again, from the game's start record (for a replay)."""

    @abstractmethod
    def load(self, position: Position) -> Any:
        """The kind's state from a stored position."""

    @abstractmethod
    def dump(self, state: Any) -> Position:
        """The stored position of a state (``load(dump(s))`` is ``s``)."""

    @abstractmethod
    def deciders(self, state: Any) -> tuple[str, ...]:
        """Whose decision the game waits for: none once it is over, one player, or
        several at once for a sealed decision."""

    @abstractmethod
    def phase(self, state: Any) -> str:
        """SETUP before play proper, PLAY, or OVER once the game has ended by its rules."""

    def is_over(self, state: Any) -> bool:
        return self.phase(state) == OVER

    def is_reply(self, state: Any) -> bool:
        """Whether the decision due answers another player's action at once (World War
        5: a defender's retreat): it has the game's shorter reply time, draws on no time
        bank, and missing it never counts towards a forfeit."""
        return False

    @abstractmethod
    def legal(self, state: Any, player: str) -> Sequence[str]:
        """The player's legal actions now, in the kind's canonical notation."""

    @abstractmethod
    def parse(self, state: Any, player: str, text: str) -> str:
        """The canonical action a player's words mean; ``Refused`` says why not."""

    # Whether a reply by mail (or a form) may carry a whole turn as action lines, which
    # ``run_script`` runs (RisiKo); otherwise a reply's first line is one action.
    turn_scripts: ClassVar[bool] = False

    def run_script(
        self, state: Any, player: str, text: str, rng: Dice
    ) -> tuple[Any, list[dict[str, Any]], list[Event]] | None:
        """For a game whose turn is many actions (RisiKo, K34): run the action lines of
        ``text`` top to bottom, as far as the turn goes: the state after them, a report
        (one entry a line: ``line``, ``action`` (canonical, or None), ``status``
        ("done", "skipped", "not-run" or "held") and ``why``), and the events of the
        lines done. A move that records them is one action of the kind's (``replay``
        takes it again with the values drawn). None (the default): one action a reply."""
        return None

    def holds_script(self, state: Any, player: str) -> bool:
        """Whether the lines of the player's script that ``run_script`` reported "held"
        still wait for another player's decision (RisiKo's war die, K39f); once not, the
        server runs them with ``resume_script``."""
        return False

    def resume_script(
        self, state: Any, player: str, text: str, rng: Dice
    ) -> tuple[Any, list[dict[str, Any]], list[Event]]:
        """Run the player's held lines ``text`` once the decision they waited for is in:
        as ``run_script`` does, or, where the kind says they cannot go on, each line
        "not-run" with its reason and the state unchanged (the default)."""
        lines = [line for line in text.splitlines() if line.strip()]
        why = "the game has moved on"
        return state, [_not_run(line, why) for line in lines], []

    def needs_confirmation(self, state: Any, player: str, action: str) -> bool:
        """Whether the action is one a player confirms before it is applied (World War 5,
        R15: one that eliminates its own player)."""
        return False

    @abstractmethod
    def apply(self, state: Any, player: str, action: str, rng: Dice) -> tuple[Any, list[Event]]:
        """The state after the player's legal action, and what happened, as events; the
        random numbers it needs come from ``rng``."""

    @abstractmethod
    def replay(self, state: Any, player: str, action: str, dice: Sequence[int]) -> Any:
        """The state after a recorded action, with the random numbers it drew then."""

    @abstractmethod
    def forfeit(self, state: Any, player: str) -> tuple[Any, list[Event]]:
        """The state after the player leaves the game; ``Refused`` if they cannot now."""

    @abstractmethod
    def finishing_order(
        self, state: Any, history: Sequence[tuple[str, list[Event]]]
    ) -> list[list[str]]:
        """The players from first to last (tied players share a group) of a game that is
        over, from its final state and its moves' actions and events."""

    @abstractmethod
    def default_decision(self, state: Any, player: str, rng: Random) -> str:
        """The action taken for a player whose time ran out (after the game's grace)."""

    def decision_key(self, position: Position) -> str | None:
        """What names the decision due in a stored position, for a game whose decision may
        take several actions of one player (a RisiKo turn): while the same player decides
        and the key stays the same, the decision goes on, with its deadline, its clock and
        no new mail. None (the default): every action ends its decision."""
        return None

    def missed_counts(self, state: Any, player: str) -> bool:
        """Whether missing this decision counts towards the game's forfeit limit."""
        return not self.is_reply(state)

    # The bots that can play its seats, by name; the first is the one an event or a
    # ladder adds when none is named.
    bots: ClassVar[Mapping[str, Bot]] = {}

    # --- what each reader may see ------------------------------------------------

    def view(self, position: Position, viewer: Viewer) -> Position:
        """The position as ``viewer`` may see it. The default shows everything: a kind
        with secrets removes what the viewer may not know."""
        return position

    def events_for(self, events: Iterable[Event], viewer: Viewer) -> list[Event]:
        """The events of one move as ``viewer`` may see them (default: all of them)."""
        return list(events)

    def dice_for(
        self, dice: list[int], player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> list[int]:
        """The random numbers a move drew (with the events they led to) as ``viewer`` may
        read them (default: all; a kind whose draws deal secrets, such as a shuffled deck,
        hides those)."""
        return dice

    def action_for(
        self, action: str, player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> str:
        """A recorded action (with the events it led to) as ``viewer`` may read it: a
        sealed action shows only to its player until the game reveals it (default:
        actions are public)."""
        return action

    def export_record(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        """A finished game's whole record (``games.seen.game_record``'s) in the kind's own
        record format, where its contract has one (RisiKo: ``risiko-record/1``), for
        tools that replay it with the kind's engine; None (the default): none."""
        return None

    def start_for(self, record: list[Event], viewer: Viewer) -> list[Event]:
        """The game's start record (its start rolls, draws and deals) as ``viewer`` may
        read it (default: all of it)."""
        return record

    # --- commitments for sealed actions (RisiKo, K38) -------------------------------
    # A sealed action is one its player takes without the others seeing it until a
    # reveal (a RisiKo sealed placement; a war's cost and its answer). When the services
    # record one they draw a fresh random nonce r, keep it and the commitment H on the
    # move, mail the player a receipt with H and the players the kind names that the
    # player has submitted, with H; H is public from the start. The action and r show
    # to the move's player alone (``games.seen``) while its decision is open, and to
    # everyone once it is revealed (then everyone is mailed every action, r and H). A
    # game has at most one sealed decision open at a time: the one of its latest sealed
    # move, while ``sealed_pending`` says a position still waits for its reveal.

    def sealed_decision(
        self,
        position: Position,
        player: str,
        action: str,
        events: Sequence[Event],
        number: int,
        open_decision: str | None,
    ) -> str | None:
        """The id of the sealed decision that ``player``'s canonical ``action`` (with the
        events it led to) is part of, or None for an action that is not sealed (the
        default: none is). ``position``: the whole stored position before it; ``number``:
        the move's number; ``open_decision``: the id of the game's sealed decision still
        open before it (None if none), which an action may join (a war's answer)."""
        return None

    def sealed_pending(self, position: Position) -> bool:
        """Whether the stored ``position`` waits for the reveal of a sealed decision (its
        actions are not all in yet). Default: never."""
        return False

    def sealed_parties(
        self, position: Position, player: str, events: Sequence[Event]
    ) -> Collection[str]:
        """The players (besides the sender) told that ``player`` has made a sealed action,
        with its commitment; "*" for every player (the default). ``position``: the whole
        stored position before it, ``events``: those the action led to."""
        return {"*"}

    def commitment(self, game: str, decision: str, player: str, action: str, nonce: bytes) -> str:
        """The commitment H of a sealed ``action`` of ``player`` in the decision
        ``decision`` of the game whose id is ``game``, with the nonce r (hex digest). A
        kind with sealed decisions implements it."""
        raise NotImplementedError(f"{self.name} has no sealed actions")

    def commitment_text(
        self, game: str, decision: str, player: str, action: str, nonce_hex: str
    ) -> str:
        """The text whose SHA-256 digest is the commitment, for the reveal's mails to show
        (default: none)."""
        return ""

    # The text whose SHA-256 hex digest is a commitment, in words with its parts named,
    # for the reveal's mails: "risiko-sealed-v1|<game id>|…" (default: none).
    commitment_format: ClassVar[str] = ""
    # The first part of the text a sealed action's commitment hashes (RisiKo's
    # "risiko-sealed-v1"), given in records so anyone can recompute it; "" for none.
    commitment_prefix: ClassVar[str] = ""

    def sealed_text(self, action: str) -> str:
        """The text of a move's action that its commitment covers (the whole action)."""
        return action

    def sealed_words(self, decision: str) -> str:
        """A sealed decision in words, for the receipts: "placement" (default: "decision")."""
        return "decision"

    # --- words and pictures ------------------------------------------------------
    # What pages, mails and answers say of a game: every hook takes what a reader may see
    # (a position through ``view``, events through ``events_for``), never the whole state.
    # ``names``: how to show each player's name in the game (``games.wording.player_names``).
    # A kind's page parts are templates in its ``template_folder``: ``position.html``
    # (the board and the position, on the game page, its live fragment, the decision
    # link's page and the replay) with the context of ``page_context``. The pages include
    # it once for each of their parts, named by ``position_part``: "head" (in the page's
    # head: styles), "board" (inside the page's board section, which its heading
    # ``id="board-heading"`` names), "words" (inside the page's section of the position in
    # words), "scripts" (at the end of the page), and "" (the whole position at once, on
    # the replay and the decision link's page).

    def options_fields(self) -> dict[str, Any]:
        """The form fields (``django.forms.Field``, new ones at each call) by which a
        person chooses a game's options, by the option's name, as ``check_options``
        takes them; a field with choices names each value for the pages. Default: none
        (games are made with the default options)."""
        return {}

    # Words of the server's own pages and mails that a kind may say its own way: the
    # chance a choice has (``Choice.odds``), the box a player ticks to confirm an action
    # that needs it and what it is for, what a player answering another's action at once
    # (``is_reply``) is waited for and what such an answer is called (its time is the
    # game's reply time: "12 hours per retreat"), what a forfeit by missed decisions
    # does, and the rule that ranks a player who resigns (the resign box).
    odds_words: ClassVar[str] = "chance to succeed"
    confirmation_label: ClassVar[str] = "I confirm this decision"
    confirmation_help: ClassVar[str] = ""
    reply_words: ClassVar[str] = "to answer at once"
    reply_name: ClassVar[str] = "answer at once"
    forfeit_words: ClassVar[str] = ""
    resign_rank_words: ClassVar[str] = "a player who resigns ranks below everyone out in play"

    def options_words(self, options: Mapping[str, Any]) -> str:
        """The options of a game, event or ladder in words, as pages list them (default:
        each option and its value)."""
        return ", ".join(f"{key.replace('_', ' ')}: {value}" for key, value in options.items())

    def describe_move(
        self,
        options: Mapping[str, Any],
        action: str,
        player: str,
        events: Sequence[Event],
        names: Mapping[str, str],
    ) -> MoveWords:
        """One logged move, as its reader may see it (``action`` through ``action_for``,
        ``events`` through ``events_for``), in words (default: who did what)."""
        return MoveWords(sentence(f"{who(names, player)}: {action}"))

    def action_phrase(self, options: Mapping[str, Any], action: str) -> str:
        """An action as an instruction to its player: "Invade Western Europe from USA"
        (default: the action as written)."""
        return action

    def describe_start(self, record: Sequence[Event], names: Mapping[str, str]) -> list[str]:
        """The game's start record (who begins, and how that was drawn) in words."""
        return []

    def choices(self, state: Any, player: str, names: Mapping[str, str]) -> list[ChoiceGroup]:
        """The player's legal actions now, grouped and in words, for the decision form
        and the decision mail (``state`` as the player may see it). Default: one group."""
        actions = self.legal(state, player)
        if not actions:
            return []
        return [ChoiceGroup("", "Your choices", "", [Choice(a, a) for a in actions])]

    # The template of the decision form, under a templates directory: "" (the default)
    # is the server's own, ``games/_decision_form.html`` (the choice groups and a typed
    # box). A kind's own form gets the same context (``decision``) with what
    # ``decision_context`` adds as ``decision.kind``, and posts to the same address.
    decision_template: ClassVar[str] = ""

    def decision_context(self, state: Any, player: str, names: Mapping[str, str]) -> dict[str, Any]:
        """What the kind's own decision form shows beyond the choices (``state`` as the
        player may see it, never the whole state). Default: nothing."""
        return {}

    def script_from_form(self, state: Any, player: str, post: Mapping[str, str]) -> str | None:
        """The action lines a submission of the kind's own decision form makes (``state``
        as the player may see it): None (the default) when the submission is no such
        form's (the action chosen or typed is taken as it is); ``Refused`` says why a
        form's fields make no turn (a field forged or out of range), changing nothing."""
        return None

    def example_action(self, state: Any, player: str) -> str:
        """An action to show in the help of a reply by mail (default: the first legal one)."""
        return next(iter(self.legal(state, player)), "")

    def concerned(self, events: Sequence[Event]) -> set[str]:
        """The players a move's events concern beyond its mover, whom a mail tells of it
        (those who want a mail for each event): "*" for every player (default: none)."""
        return set()

    def decision_words(self, state: Any, player: str) -> str:
        """What the decision due is called in mails: "your turn" says "turn"."""
        return "turn"

    # Why an action needs confirming (``needs_confirmation``), as the help of replies by
    # mail says it ("confirm": makes a decision that ...); "" for a kind without any.
    confirmation_words: ClassVar[str] = ""

    def confirmation_warning(self, phrase: str) -> str:
        """Why the action ``phrase`` (its ``action_phrase``) needs confirming."""
        return f"“{phrase}” needs confirming: it {self.confirmation_words}."

    def position_lines(
        self, options: Mapping[str, Any], position: Position, names: Mapping[str, str]
    ) -> list[str]:
        """The position (as the reader may see it) as lines of text, for mails."""
        return []

    def page_context(
        self,
        options: Mapping[str, Any],
        position: Position | None,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
        seats: Iterable[Any] = (),
    ) -> dict[str, Any]:
        """What the kind's page templates show of a position (as the reader may see it,
        None before the game starts), with ``events``, the last move's as the reader may
        see them, and ``seats``, the game's seats, whose players a page may link."""
        return {"position": position}

    def players_out(self, state: Any) -> Collection[str]:
        """The players already out of the game in ``state`` (as the reader may see it),
        for the list of seats (default: none before the end)."""
        return ()

    def player_colour(self, options: Mapping[str, Any], player: str) -> str:
        """A CSS colour that stands for ``player`` (the kind's name for their seat, ""
        while it has none) on the pages, or "" for none (the default)."""
        return ""

    # Whether the kind draws its positions as pictures (``picture``): mails about a game
    # of a kind without them carry no picture, and their HTML shows none.
    draws_pictures: ClassVar[bool] = False

    def picture(
        self,
        options: Mapping[str, Any],
        position: Position,
        names: Mapping[str, str],
        events: Sequence[Event] = (),
    ) -> bytes | None:
        """The position (as the reader may see it) as a PNG picture for mails, with the
        last move's events marked; None for a kind without one (the default)."""
        return None

    def warm_up(self) -> None:
        """Prepare, once, what drawing ``picture`` needs, in a worker's main process before
        its pool forks, so that every process shares it (default: nothing)."""
        return None

    # A warning for a game of many players, from how many on (World War 5: five or six
    # players, R3); none by default.
    many_players: ClassVar[tuple[int, str] | None] = None
    # Which missed decisions count towards a forfeit, and the rule of the forfeit, for
    # the form that sets the limit (``missed_counts``).
    missed_words: ClassVar[str] = "At this many missed decisions the player forfeits instead."

    # The heading of the game page's lines on who starts (``describe_start``), with the
    # rule that says how (World War 5: R5).
    start_heading: ClassVar[str] = "Who starts"

    # Shorter ways to write an action in a reply by mail, which its help shows as
    # examples (default: none; the help then points to the notation of the list).
    reply_examples: ClassVar[tuple[str, ...]] = ()

    # --- tournament hooks --------------------------------------------------------
    # What an event or a ladder asks of the game: the measures a turn-limit ranking may
    # compare the players of a game still running at a deadline by, who is out of it
    # already, and what a seat is given that an event balances over its rounds. The
    # tournament core ranks and seats from these plain values and knows no game.

    def adjudication_measures(self) -> Mapping[str, str]:
        """The measures a turn-limit ranking may compare the players still in a running
        game by (higher is better), by name, each with its words for the organiser and
        the players (default: none)."""
        return {}

    def measure(
        self, position: Position, measures: Sequence[str]
    ) -> dict[str, tuple[int, ...] | None]:
        """Every player of a running game, in the game's order, with their values on
        ``measures`` (names of ``adjudication_measures``, in the order given), or None
        for a player out of the game already; a ``ValueError`` for an unknown measure.

        ``position`` is the whole stored position: the adjudication acts on the game and
        shows a reader only the ranking it publishes. A kind whose games an event or a
        ladder may cut short at a deadline implements it (the default refuses)."""
        raise NotImplementedError(f"{self.name} cannot rank a game still running")

    def eliminations(
        self, history: Sequence[tuple[str, list[Event]]]
    ) -> tuple[tuple[tuple[str, ...], bool], ...]:
        """The players out of a game so far, from its moves' actions and events in order
        (as ``finishing_order`` takes them): each group that went out at one moment, in
        the order they went, and whether by forfeit (which ranks below going out in
        play). Default: no one is ever out before the end."""
        return ()

    def seat_roles(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """What a seat is given at the start that an event or a ladder balances over its
        games, so that no player gets one again while their table can avoid it (World
        War 5: the home continents), in a game with these options (as ``check_options``
        takes them; missing ones are the defaults). No roles (the default): the seats of
        a table differ only in their order. A table seats at most as many players as there
        are roles. A seated role reaches the game as its seat's ``home``
        (``games.services.TableSeat``), where the kind takes it up when the game starts
        (World War 5: the player's home continent and colour)."""
        return ()

    def role_names(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Each of ``seat_roles`` in words for the players (default: the role itself)."""
        return {role: role for role in self.seat_roles(options)}

    def rule_words(self, options: Mapping[str, Any]) -> RuleWords:
        """What an event's page says of the rules its games follow, with these options
        (as ``event_options`` makes them). Default: the game's name and its options'
        words, and no rule ids."""
        words = self.options_words(options)
        return RuleWords(f"Game: {self.name}" + (f", {words}" if words else ""))


_kinds: dict[str, GameKind] = {}


class UnknownKind(LookupError):
    """No kind is registered under this key."""


def register_kind(kind: GameKind) -> None:
    """Run games of ``kind`` (called from its app's ``ready``); registering a key again
    replaces the kind."""
    if not KIND_KEY.fullmatch(kind.key):
        raise ValueError(f"a kind's key is lowercase words joined by '-': {kind.key!r}")
    _kinds[kind.key] = kind


def unregister_kind(key: str) -> None:
    """Forget a kind (for tests that register one of their own)."""
    _kinds.pop(key, None)


def kind_named(key: str) -> GameKind:
    kind = _kinds.get(key)
    if kind is None:
        raise UnknownKind(f"no game kind is registered as {key!r}")
    return kind


def kind_of(game: Any) -> GameKind:
    """The kind of a game (anything with a ``kind`` key: a game, an event, a ladder)."""
    return kind_named(game.kind)


def all_kinds() -> list[GameKind]:
    """The registered kinds, by name."""
    return sorted(_kinds.values(), key=lambda kind: kind.name)


def competition_ranks(order: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each player's rank from a kind's ``finishing_order``, as in competitions ("1224"):
    tied players share the best place of their group, and a group's place counts every
    player above it."""
    ranks: dict[str, int] = {}
    place = 1
    for group in order:
        for name in group:
            ranks[name] = place
        place += len(group)
    return ranks


def kind_choices() -> list[tuple[str, str]]:
    """(key, name) of every registered kind, for forms."""
    return [(kind.key, kind.name) for kind in all_kinds()]


def option_words(obj: Any, name: str) -> str:
    """The value of the option ``name`` of anything with a ``kind`` and ``options`` (a
    game, an event, a ladder) as its kind's field for the option names it: World War 5's
    'balanced' board is 'Balanced'. A value without a name shows as it is; an option the
    game does not have, or a kind not registered, as ""."""
    value = obj.options.get(name, "")
    kind = _kinds.get(obj.kind)
    field = kind.options_fields().get(name) if kind is not None else None
    return str(dict(getattr(field, "choices", ())).get(value, value))


def _not_run(line: str, why: str) -> dict[str, Any]:
    """A script line's report entry for a line that was not run, and why."""
    return {"line": line, "action": None, "status": "not-run", "why": why}
