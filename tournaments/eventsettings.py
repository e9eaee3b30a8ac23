"""An event's settings: which there are, which may change when, and whether they make a
playable event (a TournamentError says why not). ``tournaments.services`` makes and
edits events with them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.errors import GameError
from games.kinds import GameKind, kind_named
from games.options import MAX_MISSED, MAX_TIME, MINUTE, GameOptions, event_rules
from tournaments.core import roundrobin
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.selectors import history

# What an organiser sets up (the admin's form); the rest is the event's own state.
SETTINGS = (
    "description",
    "format",
    "is_public",
    "board",
    "time_control",
    "decision_time",
    "retreat_time",
    "bank_time",
    "increment",
    "missed_limit",
    "absence_pauses_clock",
    "table_size",
    "two_player_tables",
    "swiss_rounds",
    "cut_size",
    "advance_per_table",
    "points",
    "first_player",
    "round_time",
    "adjudication",
    "registration_closes_at",
    "cap",
    "check_in_opens_at",
    "starts_at",
    "review_pairings",
    "late_join_until_round",
)
# What may still change once the event has started: nothing its rounds so far, its
# games or its standings depend on (a new round time holds from the next round).
SAFE_ONCE_STARTED = (
    "name",
    "description",
    "is_public",
    "round_time",
    "review_pairings",
    "late_join_until_round",
)
SAFE_ONCE_FINISHED = ("name", "description", "is_public")
# The settings that are its games' own options (their kind's, kept in the event's
# ``options`` value) rather than columns of the event; the kind sets the others for every
# event's games (``GameKind.event_options``).
OWN_OPTIONS = ("board",)


def setting(tournament: Tournament, name: str) -> Any:
    """The value of one of the event's settings, or of its name."""
    if name in OWN_OPTIONS:
        return tournament.options.get(name)
    return getattr(tournament, name)


def set_settings(tournament: Tournament, settings: Mapping[str, Any]) -> None:
    """Set ``settings`` by name on the (unsaved) event; its games' own options, checked by
    its kind, are kept as every game of the event gets them (a TournamentError says why
    they cannot be)."""
    own = {name: value for name, value in settings.items() if name in OWN_OPTIONS}
    for name, value in settings.items():
        if name not in own:
            setattr(tournament, name, value)
    tournament.options = _games_own_options(tournament, {**tournament.options, **own})


def model_fields(names: Iterable[str]) -> list[str]:
    """The event's fields that hold these settings, each once."""
    return list(dict.fromkeys("options" if name in OWN_OPTIONS else name for name in names))


def changeable(tournament: Tournament) -> tuple[str, ...]:
    """The settings an organiser may still change."""
    if tournament.status == Tournament.Status.FINISHED:
        return SAFE_ONCE_FINISHED
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return SAFE_ONCE_STARTED
    return ("name", *SETTINGS)


def apply_changes(tournament: Tournament, changes: dict[str, Any]) -> None:
    """Set ``changes`` on the (unsaved) event if they are allowed and make a playable
    event; a TournamentError says why not. The admin's form checks an edit with it."""
    unknown = set(changes) - set(SETTINGS) - {"name"}
    if unknown:
        raise TournamentError(f"unknown settings: {', '.join(sorted(unknown))}")
    allowed = changeable(tournament)
    locked = sorted(
        name
        for name, value in changes.items()
        if name not in allowed and value != setting(tournament, name)
    )
    if locked:
        raise TournamentError(
            f"{', '.join(locked)} cannot change once the event has "
            + ("finished" if tournament.status == Tournament.Status.FINISHED else "started")
        )
    set_settings(
        tournament,
        {name: value.strip() if name == "name" else value for name, value in changes.items()},
    )
    if not tournament.name:
        raise TournamentError("a tournament needs a name")
    check_settings(tournament)


@dataclass(frozen=True)
class Bound:
    """What a setting may be, from ``low`` to ``high`` (empty too, where the setting may
    be empty), in words for the organiser."""

    low: Any
    high: Any
    words: str


# The bounds of what an organiser types: beyond them a deadline would be past the last
# date the site can keep, or a number past what its column holds. (Tighter rules that
# depend on the format follow in ``check_settings``.)
MAX_ROUND_TIME = timedelta(days=365)
MAX_ROUNDS = 30  # a Swiss of 10,000 players plays 8
MAX_PLAYERS = 10_000
_DAYS = f"{MAX_TIME.days} days"
BOUNDS = {
    "decision_time": Bound(MINUTE, MAX_TIME, f"allow a decision a minute to {_DAYS}"),
    "retreat_time": Bound(MINUTE, MAX_TIME, f"allow a retreat a minute to {_DAYS}"),
    "bank_time": Bound(timedelta(0), MAX_TIME, f"a time bank holds at most {_DAYS}"),
    "increment": Bound(timedelta(0), MAX_TIME, f"an increment is none to {_DAYS}"),
    "missed_limit": Bound(
        1, MAX_MISSED, f"a player forfeits after 1 to {MAX_MISSED} missed decisions"
    ),
    "table_size": Bound(2, 6, "a table has 2 to 6 players"),
    "swiss_rounds": Bound(
        1, MAX_ROUNDS, f"a Swiss has 1 to {MAX_ROUNDS} rounds (empty: the recommended number)"
    ),
    "cut_size": Bound(2, MAX_PLAYERS, f"a top cut takes 2 to {MAX_PLAYERS:,} players"),
    "advance_per_table": Bound(1, 5, "1 to 5 of each table advance"),
    "round_time": Bound(
        timedelta(hours=1), MAX_ROUND_TIME, f"allow a round an hour to {MAX_ROUND_TIME.days} days"
    ),
    "cap": Bound(1, MAX_PLAYERS, f"a cap is 1 to {MAX_PLAYERS:,} players (empty: none)"),
    "late_join_until_round": Bound(
        0, MAX_ROUNDS, f"late joins end before round 0 (none) to {MAX_ROUNDS}"
    ),
}
# How far ahead an event's dates may be: a later one is a typing error, and the site
# cannot keep (nor show in every time zone) a date past the year 9999.
DATE_HORIZON = timedelta(days=5 * 366)
DATES = ("registration_closes_at", "check_in_opens_at", "starts_at")


def out_of_bounds(tournament: Tournament, now: datetime | None = None) -> dict[str, str]:
    """The settings outside their bounds, by name, each with what it may be; empty when
    all are within them. The admin's form shows each beside its field."""
    wrong = {
        name: bound.words
        for name, bound in BOUNDS.items()
        if (value := getattr(tournament, name)) is not None and not bound.low <= value <= bound.high
    }
    horizon = (now or timezone.now()) + DATE_HORIZON
    for name in DATES:
        when = getattr(tournament, name)
        if when is not None and when > horizon:
            wrong[name] = "an event's dates are at most five years ahead"
    return wrong


def check_settings(tournament: Tournament) -> None:
    """The event's settings make a playable event; a TournamentError says why not."""
    try:
        game_options(tournament).check()
    except GameError as refusal:
        raise TournamentError(str(refusal)) from None
    kind = kind_of(tournament)
    if not kind.min_players <= tournament.table_size <= kind.max_players:
        raise TournamentError(
            f"a table of {kind.name} has {kind.min_players} to {kind.max_players} players"
        )
    if tournament.round_time < timedelta(hours=1):
        raise TournamentError("allow a round at least an hour")
    if tournament.swiss_rounds is not None and tournament.swiss_rounds < 1:
        raise TournamentError(
            "a Swiss has one round or more (leave it empty for the recommended number)"
        )
    _check_format(tournament)
    _check_dates(tournament)
    wrong = out_of_bounds(tournament)
    if wrong:
        raise TournamentError("; ".join(wrong.values()))


def _check_format(tournament: Tournament) -> None:
    formats = Tournament.Format
    if tournament.format == formats.SWISS_CUT:
        if not tournament.cut_size or tournament.cut_size < 2:
            raise TournamentError("a Swiss with a top cut needs a cut of two players or more")
    if tournament.format in (formats.SWISS_CUT, formats.ELIMINATION):
        # The smallest table a round may have: if as many advance from it as sit at it,
        # a round could leave the field as large as it was, and the event never end.
        smallest = min(history.table_sizes(tournament).allowed)
        if not 1 <= tournament.advance_per_table < smallest:
            raise TournamentError(
                f"with tables as small as {smallest}, 1 to {smallest - 1} of each table "
                "can advance in an elimination"
            )
    if (
        tournament.format == formats.ROUND_ROBIN
        and tournament.cap is not None
        and tournament.cap > roundrobin.MAX_FIELD
    ):
        raise TournamentError(
            f"a round robin takes at most {roundrobin.MAX_FIELD} players: lower the cap"
        )


def _check_dates(tournament: Tournament) -> None:
    closes, opens, starts = (
        tournament.registration_closes_at,
        tournament.check_in_opens_at,
        tournament.starts_at,
    )
    if starts is not None and opens is not None and opens >= starts:
        raise TournamentError("check-in opens before the start")
    if starts is not None and closes is not None and closes > starts:
        raise TournamentError("registration closes at the start or before")


def game_options(tournament: Tournament) -> GameOptions:
    """The options of every game of the event: its own options as its kind sets them
    for tournament play (World War 5: always the strict setup, R7, never the R19 house
    variant), and the event's times. A GameError says why its own options cannot be
    played."""
    return GameOptions(
        kind=tournament.kind,
        rules=event_rules(tournament.kind, tournament.options),
        time_control=tournament.time_control,
        decision_time=tournament.decision_time,
        retreat_time=tournament.retreat_time,
        bank_time=tournament.bank_time,
        increment=tournament.increment,
        missed_limit=tournament.missed_limit,
        absence_pauses_clock=tournament.absence_pauses_clock,
    )


def _games_own_options(tournament: Tournament, options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return event_rules(tournament.kind, options)
    except GameError as refusal:
        raise TournamentError(str(refusal)) from None


def kind_of(tournament: Tournament) -> GameKind:
    """The kind of game the event plays."""
    return kind_named(tournament.kind)


def kind_options(tournament: Tournament) -> dict[str, Any]:
    """The options of every game of the event in its kind's terms, for the kind's
    tournament hooks."""
    return kind_of(tournament).check_options(game_options(tournament).kind_options())
