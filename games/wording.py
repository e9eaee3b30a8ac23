"""Words every game shares, for the pages and the mails: how players are named, sentences,
lists and durations, and the shapes in which a kind puts its moves and choices into words
(``MoveWords``, ``ChoiceGroup``). What a move of a given game says is its kind's
(``GameKind.describe_move``).

``names`` map the name a game's state gives each player to how pages and mails show
them, e.g. ``{"blue": "Alice (blue)"}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

from ww5site import durations

if TYPE_CHECKING:
    from games.models import Seat

Names = Mapping[str, str]


def who(names: Names, player: str) -> str:
    return names.get(player, player)


def sentence(text: object) -> str:
    """``text`` as a sentence, with its full stop: none added after a name that ends
    with one already ("the game waits for Alice W.")."""
    text = str(text)
    return text if text.endswith((".", "!", "?")) else text + "."


def listing(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


REPORT_WORDS = {"done": "done", "skipped": "skipped", "not-run": "not run", "held": "held"}


def report_line(entry: Mapping[str, object]) -> str:
    """One line of a turn script's report (``line``, ``action``, ``status``, ``why``),
    in words: “place 5 mongolia”: done."""
    line, action, status, why = entry["line"], entry["action"], entry["status"], entry["why"]
    said = f"“{str(line).strip()}”: {REPORT_WORDS.get(str(status), status)}"
    if action and action != str(line).strip():
        said += f" ({action})"
    return said + (f", {why}" if why else "")


def duration(length: timedelta) -> str:
    """'2 days, 3 hours, 5 minutes', to the minute."""
    return durations.words(length) if length else "less than a minute"


@dataclass(frozen=True)
class MoveWords:
    """A logged move in words: what was done, its dice, and what followed."""

    action: str
    dice: str = ""
    followed: list[str] = field(default_factory=list)

    @property
    def sentences(self) -> list[str]:
        return [part for part in (self.action, self.dice, *self.followed) if part]


@dataclass(frozen=True)
class Choice:
    """One legal action of a decision, in words: ``odds``, the chance it succeeds where
    the game can say; ``warning``, why it needs confirming before it is made (or "")."""

    action: str
    label: str
    odds: str = ""
    warning: str = ""


@dataclass(frozen=True)
class ChoiceGroup:
    """The legal actions of one sort (``verb``), under a title and the rules they follow."""

    verb: str
    title: str
    rules: str
    choices: list[Choice]


def needs_confirming(groups: Iterable[ChoiceGroup]) -> bool:
    """Whether any choice of a decision needs confirming."""
    return any(choice.warning for group in groups for choice in group.choices)


def names_at(
    names: Names, replacements: Iterable[tuple[int, str, str]], move_number: int
) -> dict[str, str]:
    """How to name the players in move ``move_number``, when seats have changed hands
    since: ``replacements`` are (moves before it, the seat's name in the game, name of the
    player who left the seat), oldest first. A move is named after whoever held its
    seats then."""
    at = dict(names)
    replaced: set[str] = set()
    for after_move, colour, before in replacements:
        if after_move >= move_number and colour not in replaced:
            at[colour] = f"{before} ({colour})"
            replaced.add(colour)
    return at


def named(seat: Seat) -> str:
    """A seat's player as pages and mails name them: 'Display name (seat's name)'."""
    if seat.player_name:
        return f"{seat.display_name} ({seat.player_name})"
    return seat.display_name


def player_names(seats: Iterable[Seat]) -> dict[str, str]:
    """How pages and mails name each player, by the name the game gives their seat:
    'Display name (seat's name)', for the seats that have one."""
    return {s.player_name: f"{s.display_name} ({s.player_name})" for s in seats if s.player_name}
