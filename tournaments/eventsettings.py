"""An event's settings: which there are, which may change when, and whether they make a
playable event (a TournamentError says why not). ``tournaments.services`` makes and
edits events with them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.errors import GameError
from games.options import STRICT, GameOptions
from tournaments import history
from tournaments.core import roundrobin
from tournaments.errors import TournamentError
from tournaments.models import Tournament

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
        if name not in allowed and value != getattr(tournament, name)
    )
    if locked:
        raise TournamentError(
            f"{', '.join(locked)} cannot change once the event has "
            + ("finished" if tournament.status == Tournament.Status.FINISHED else "started")
        )
    for name, value in changes.items():
        setattr(tournament, name, value.strip() if name == "name" else value)
    if not tournament.name:
        raise TournamentError("a tournament needs a name")
    check_settings(tournament)


def check_settings(tournament: Tournament) -> None:
    """The event's settings make a playable event; a TournamentError says why not."""
    try:
        game_options(tournament).check()
    except GameError as refusal:
        raise TournamentError(str(refusal)) from None
    if not 2 <= tournament.table_size <= 6:
        raise TournamentError("a table has 2 to 6 players")
    if tournament.round_time < timedelta(hours=1):
        raise TournamentError("allow a round at least an hour")
    if tournament.swiss_rounds is not None and tournament.swiss_rounds < 1:
        raise TournamentError(
            "a Swiss has one round or more (leave it empty for the recommended number)"
        )
    _check_format(tournament)
    _check_dates(tournament)


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
    """The options of every game of the event: always the strict setup (R7), never the
    R19 house variant."""
    return GameOptions(
        board=tournament.board,
        setup_mode=STRICT,
        retreat_into_origin=False,
        time_control=tournament.time_control,
        decision_time=tournament.decision_time,
        retreat_time=tournament.retreat_time,
        bank_time=tournament.bank_time,
        increment=tournament.increment,
        missed_limit=tournament.missed_limit,
        absence_pauses_clock=tournament.absence_pauses_clock,
    )
