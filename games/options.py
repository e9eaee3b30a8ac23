"""A game's options as one value: the game it plays (its kind) and the kind's own options
(for World War 5: the board, the setup and R19's house variant), then the server's,
the same for every kind: its time control and times, its missed-decision limit and
absence policy.

The kind's own options are one value, which the kind checks (``GameKind.check_options``;
for the games of an event or a ladder, ``event_options``) and which is stored as the
kind returns it, in the ``options`` field of a game, an event or a ladder; the server's
are fields of their own. The new-game form, the admin and the services that create
games (a lobby game, a tournament's table, a ladder's match) all speak of a game's
options through ``GameOptions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from typing import Any

from games.errors import GameError
from games.kinds import DEFAULT_KIND, UnknownKind, kind_named

FIXED, BANK = "fixed", "bank"
MINUTE = timedelta(minutes=1)
# The longest time per decision, per retreat, in a bank and as an increment (the lobby's
# form offers up to this), and the most missed decisions before a forfeit: beyond them a
# deadline would be years away, or past the last date the site can keep.
MAX_TIME = timedelta(days=30)
MAX_MISSED = 20
# The longest an organiser extends a deadline at once; a longer one is made in steps.
LONGEST_EXTENSION = timedelta(days=365)


@dataclass(frozen=True)
class GameOptions:
    kind: str = DEFAULT_KIND
    # The kind's own options, by the kind's names; those not given are the kind's
    # defaults (``check`` gives them as the kind stores them).
    rules: Mapping[str, Any] = field(default_factory=dict)
    time_control: str = FIXED
    decision_time: timedelta = timedelta(days=2)
    retreat_time: timedelta = timedelta(hours=12)
    bank_time: timedelta = timedelta(days=5)
    increment: timedelta = timedelta(days=1)
    missed_limit: int = 3
    absence_pauses_clock: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", {**_defaults(self.kind), **self.rules})

    def check(self) -> GameOptions:
        """The options, if a game can be played with them, the kind's own as the kind
        stores them; a GameError says why not."""
        rules = checked_rules(self.kind, self.rules)
        if self.decision_time < MINUTE or self.retreat_time < MINUTE:
            raise GameError("allow at least a minute per decision and per retreat")
        if self.missed_limit < 1:
            raise GameError("a player forfeits after at least one missed decision")
        if self.missed_limit > MAX_MISSED:
            raise GameError(f"a player forfeits after at most {MAX_MISSED} missed decisions")
        if max(self.decision_time, self.retreat_time, self.bank_time, self.increment) > MAX_TIME:
            raise GameError(
                f"a decision, a retreat, a time bank and an increment each take at most "
                f"{MAX_TIME.days} days"
            )
        if self.time_control not in (FIXED, BANK):
            raise GameError(f"unknown time control {self.time_control!r}")
        if self.time_control == BANK and self.bank_time < MINUTE:
            raise GameError("a time bank holds at least a minute")
        if self.increment < timedelta(0):
            raise GameError("an increment cannot be negative")
        return replace(self, rules=rules)

    def with_changes(self, **changes: Any) -> GameOptions:
        """These options with some changed, each by its name: one of these fields
        (``decision_time``) or one of the kind's own options (``board``). A name that is
        neither is a GameError."""
        own = {name: value for name, value in changes.items() if name not in _FIELDS}
        server = {name: changes[name] for name in set(changes) - set(own)}
        if server.get("kind", self.kind) != self.kind:
            server.setdefault("rules", {})  # another game: its own options start afresh
        options = replace(self, **server)
        unknown = set(own) - set(_defaults(options.kind))
        if unknown:
            raise GameError(f"unknown game options: {', '.join(sorted(unknown))}")
        return replace(options, rules={**options.rules, **own}) if own else options

    def fields(self) -> dict[str, Any]:
        """The options as the Game model's fields (``options``: the kind's own)."""
        server = {name: getattr(self, name) for name in SERVER_OPTIONS}
        return {"kind": self.kind, "options": dict(self.rules), **server}

    def kind_options(self) -> dict[str, Any]:
        """The rules options in the game kind's terms (``GameKind.check_options``)."""
        return dict(self.rules)

    @classmethod
    def of(cls, game: Any) -> GameOptions:
        """The options a game (a ``games.models.Game``) was made with."""
        server = {name: getattr(game, name) for name in SERVER_OPTIONS}
        return cls(kind=game.kind, rules=game.options, **server)


_FIELDS = tuple(f.name for f in fields(GameOptions))
# The server's options: the same for every kind, each a column of its own.
SERVER_OPTIONS = tuple(name for name in _FIELDS if name not in ("kind", "rules"))


def names() -> list[str]:
    """The Game model's fields that hold its options: its kind, the kind's own options
    (``options``) and the server's."""
    return ["kind", "options", *SERVER_OPTIONS]


def _defaults(kind: str) -> dict[str, Any]:
    """The kind's default options; none for a kind that is not registered (``check``
    refuses it)."""
    try:
        return kind_named(kind).default_options()
    except UnknownKind:
        return {}


def checked_rules(kind: str, rules: Mapping[str, Any]) -> dict[str, Any]:
    """A game's own options (``rules``, its kind's) as the kind stores them, if a game can
    be played with them; a GameError says why not."""
    try:
        return kind_named(kind).check_options(rules)
    except (UnknownKind, ValueError) as refusal:
        raise GameError(str(refusal)) from None


def event_rules(kind: str, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The own options of every game of an event or a ladder set up with ``rules``: as
    ``checked_rules`` gives them, with whatever the kind keeps out of rated and
    tournament play set back (``GameKind.event_options``)."""
    try:
        return kind_named(kind).event_options(rules)
    except (UnknownKind, ValueError) as refusal:
        raise GameError(str(refusal)) from None
