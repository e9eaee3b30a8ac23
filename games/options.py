"""A game's options as one value: the board and rules variant, its time control and
times, its missed-decision limit and absence policy.

The new-game form, the admin and the services that create games (a lobby game, a
tournament's table) all speak of a game's options through ``GameOptions``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from datetime import timedelta
from typing import Any

from games.engine import BOARDS
from games.errors import GameError

STRICT, CASUAL = "strict", "casual"
FIXED, BANK = "fixed", "bank"
MINUTE = timedelta(minutes=1)
# The longest time per decision, per retreat, in a bank and as an increment (the lobby's
# form offers up to this), and the most missed decisions before a forfeit: beyond them a
# deadline would be years away, or past the last date the site can keep.
MAX_TIME = timedelta(days=30)
MAX_MISSED = 20


@dataclass(frozen=True)
class GameOptions:
    board: str = "original"
    setup_mode: str = STRICT
    # R19's house variant: never in rated or tournament play.
    retreat_into_origin: bool = False
    time_control: str = FIXED
    decision_time: timedelta = timedelta(days=2)
    retreat_time: timedelta = timedelta(hours=12)
    bank_time: timedelta = timedelta(days=5)
    increment: timedelta = timedelta(days=1)
    missed_limit: int = 3
    absence_pauses_clock: bool = True

    def check(self) -> GameOptions:
        """The options, if a game can be played with them; a GameError says why not."""
        if self.board not in BOARDS:
            raise GameError(f"unknown board {self.board!r}")
        if self.setup_mode not in (STRICT, CASUAL):
            raise GameError(f"unknown setup {self.setup_mode!r}")
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
        return self

    def with_changes(self, **changes: Any) -> GameOptions:
        """These options with some changed; an unknown name is a GameError."""
        unknown = set(changes) - set(names())
        if unknown:
            raise GameError(f"unknown game options: {', '.join(sorted(unknown))}")
        return replace(self, **changes)

    def fields(self) -> dict[str, Any]:
        """The options as the Game model's fields."""
        return asdict(self)

    def kind_options(self) -> dict[str, Any]:
        """The rules options in the game kind's terms (``GameKind.check_options``)."""
        return {
            "board": self.board,
            "setup": self.setup_mode,
            "retreat_into_origin": self.retreat_into_origin,
        }

    @classmethod
    def of(cls, game: Any) -> GameOptions:
        """The options a game (a ``games.models.Game``) was made with."""
        return cls(**{name: getattr(game, name) for name in names()})


def names() -> list[str]:
    """The options' names, which are also the Game model's field names."""
    return [field.name for field in fields(GameOptions)]
