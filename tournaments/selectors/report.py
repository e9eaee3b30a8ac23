"""An event read whole, as its page shows it and ``standings.json`` publishes it: its
format and settings (the points table, the tie-break order, the R28 house rule), its
rounds with each table's players, seats, homes and game, its byes, the round robin's
published schedule, and the standings with every tie-break value.

A plain dictionary of JSON values (times stay datetimes for the page; the JSON encoder
writes them in ISO 8601), so the page and the JSON document never disagree.
Each game's own record (``/games/<id>/record.json``) stays the source of its result.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.urls import reverse

from games.kinds import RuleWords
from tournaments.core import cut, eventseed, pairing
from tournaments.core.roundrobin import Schedule
from tournaments.core.standings import STEPS
from tournaments.eventsettings import kind_of, kind_options
from tournaments.models import Bye, Entry, Table, TableSeat, Tournament
from tournaments.selectors import history
from tournaments.services.rounds import RANKINGS, ranking_of, schedule_of

FORMAT_VERSION = 1

TIE_BREAKS = {
    "points": "Points by place from the points table (a bye scores as a win)",
    "outfinished": "The share of opponents out-finished (a tie counts one half)",
    "opponents": "The opponents' average score (share of the most they could score; "
    "0.33 at least for a withdrawn or dropped opponent)",
    "draw": "A draw from the event's seed (lowest first)",
}


def seed_revealed(event: Tournament) -> bool:
    """Whether the event's seed is public: from the moment round 1 is paired, when its
    draws start being used (players need it to make them again). Before, only its
    commitment is (``seed_commitment``, given when the event was made)."""
    return event.rounds.exists()


def seed_matches(event: Tournament) -> bool:
    """Whether the revealed seed is the one the event's commitment was given for."""
    return (
        bool(event.seed_commitment)
        and seed_revealed(event)
        and eventseed.commitment(event.pk, event.seed) == event.seed_commitment
    )


def _seconds(value: timedelta) -> int:
    return int(value.total_seconds())


def published_schedule(event: Tournament) -> Schedule | None:
    """The round robin's schedule, published once round 1 is paired; else None."""
    if event.format != Tournament.Format.ROUND_ROBIN or not event.rounds.exists():
        return None
    return schedule_of(event)


def planned_rounds(event: Tournament, schedule: Schedule | None) -> int | None:
    """How many rounds the event plays, where that is known before they are played: the
    Swiss rounds (fixed, or the recommended number for the field) and a top cut's rounds
    to its final, an elimination's rounds to its final (``elimination_rounds``), the
    round robin's published schedule; None for a round robin not yet paired."""
    if event.format == Tournament.Format.ROUND_ROBIN:
        return len(schedule.rounds) if schedule is not None else None
    return (planned_swiss_rounds(event) or 0) + (elimination_rounds(event) or 0)


def _field(event: Tournament) -> int:
    """The players in the event's rounds to come (two at least: a plan needs a table)."""
    playing = [Entry.Status.REGISTERED, Entry.Status.CHECKED_IN]
    return max(event.entries.filter(status__in=playing).count(), 2)


def planned_swiss_rounds(event: Tournament) -> int | None:
    """The Swiss rounds: fixed (at the latest at the start), or the recommended number
    for the field so far; None for the formats without a Swiss."""
    if event.format not in (Tournament.Format.SWISS, Tournament.Format.SWISS_CUT):
        return None
    if event.swiss_rounds:
        return event.swiss_rounds
    return pairing.recommended_rounds(_field(event), history.table_sizes(event))


def elimination_rounds(event: Tournament) -> int | None:
    """A top cut's or an elimination's rounds, from its first round to its final: from
    the players of its first round once it is paired, else from the field now (a cut
    takes at most its size). None for the formats without one."""
    if event.format not in (Tournament.Format.SWISS_CUT, Tournament.Format.ELIMINATION):
        return None
    first = (
        event.rounds.filter(stage__in=["cut", "elimination", "final"]).order_by("number").first()
    )
    if first is not None:
        field = TableSeat.objects.filter(table__round=first).count() + first.byes.count()
    elif event.format == Tournament.Format.SWISS_CUT:
        field = min(event.cut_size or 2, _field(event))
    else:
        field = _field(event)
    try:
        plan = cut.elimination_plan(
            max(field, 2), history.table_sizes(event), event.advance_per_table
        )
    except ValueError:  # settings that make no elimination (refused when they are set)
        return None
    return len(plan)


def settings_of(event: Tournament, schedule: Schedule | None) -> dict[str, Any]:
    table = history.points_table(event)
    own = kind_options(event)
    sizes = history.table_sizes(event)
    return {
        "game": {"kind": event.kind, "name": kind_of(event).name},
        "options": own,
        "rules": kind_of(event).options_words(own),
        # World War 5's board and setup, under the names they had before there were kinds
        "board": own.get("board"),
        "setup": "strict (R7)" if own.get("setup") == "strict" else own.get("setup"),
        "time_control": event.time_control,
        "decision_seconds": _seconds(event.decision_time),
        "retreat_seconds": _seconds(event.retreat_time),
        "bank_seconds": _seconds(event.bank_time),
        "increment_seconds": _seconds(event.increment),
        "missed_limit": event.missed_limit,
        "absence_pauses_clock": event.absence_pauses_clock,
        "table_size": event.table_size,
        "table_sizes": list(sizes.allowed),
        "two_player_tables": event.two_player_tables,
        "swiss_rounds": event.swiss_rounds,
        "planned_rounds": planned_rounds(event, schedule),
        "elimination_rounds": elimination_rounds(event),
        "cut_size": event.cut_size,
        "advance_per_table": event.advance_per_table,
        "seats": event.first_player,
        "round_seconds": _seconds(event.round_time),
        "house_rule": {
            "rule": kind_of(event).rule_words(own).turn_limit_rule or None,
            "name": "turn limit: games still running at a round's deadline are adjudicated",
            "ranking": _ranking_words(event) + ["elimination order"],
        },
        "points_table": {
            "name": event.get_points_display(),
            "by_table_size": {
                str(n): list(table.row(n)) for n in sorted(sizes.allowed, reverse=True)
            },
            "bye": table.win,
        },
        "tie_breaks": [{"step": step, "meaning": TIE_BREAKS[step]} for step in STEPS],
        "registration_closes_at": event.registration_closes_at,
        "check_in_opens_at": event.check_in_opens_at,
        "starts_at": event.starts_at,
        "cap": event.cap,
        "late_join_until_round": event.late_join_until_round,
        "review_pairings": event.review_pairings,
        # The commitment from the start (null for an event made before there were
        # commitments); the seed once round 1 is paired (null until then).
        "seed_commitment": event.seed_commitment or None,
        "seed": event.seed if seed_revealed(event) else None,
    }


def _players(event: Tournament) -> dict[int, Entry]:
    return {e.pk: e for e in event.entries.select_related("user__profile")}


def _username(entry: Entry) -> str | None:
    """The username of the player's public page (``/players/<username>/``); None for a
    bot, and for a closed account, which has no page."""
    user = entry.user
    return user.get_username() if user is not None and user.is_active else None


def _player(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "name": entry.name,
        "username": _username(entry),
        "status": entry.status,
        "bot": entry.user_id is None,
        "joined_round": entry.joined_round,
        "left_after_round": entry.left_after_round,
    }


def _game_state(table: Table) -> dict[str, Any] | None:
    game = table.game
    if game is None:
        return None
    return {
        "id": game.pk,
        "url": reverse("games:detail", args=[game.pk]),
        "record": reverse("games:record", args=[game.pk]),
        "status": game.status,
        "status_name": game.get_status_display(),
        "turn": game.turn_number,
        "deadline": game.deadline,
    }


# Each entry's name and the username of their page, by entry id.
Names = dict[int, tuple[str, str | None]]


def _who(names: Names, entry: int) -> dict[str, Any]:
    name, username = names.get(entry, ("", None))
    return {"player": entry, "name": name, "username": username}


def _rounds(event: Tournament, names: Names) -> list[dict[str, Any]]:
    homes = _home_names(event)
    rounds = list(event.rounds.order_by("number"))
    tables = Table.objects.filter(round__tournament=event).select_related("game")
    seats = TableSeat.objects.filter(table__round__tournament=event).order_by("number")
    byes = Bye.objects.filter(round__tournament=event).order_by("entry_id")
    seats_of: dict[int, list[TableSeat]] = {}
    for seat in seats:
        seats_of.setdefault(seat.table_id, []).append(seat)
    tables_of: dict[int, list[Table]] = {}
    for table in tables.order_by("number"):
        tables_of.setdefault(table.round_id, []).append(table)
    byes_of: dict[int, list[int]] = {}
    for bye in byes:
        byes_of.setdefault(bye.round_id, []).append(bye.entry_id)
    out = []
    for made in rounds:
        out.append(
            {
                "number": made.number,
                "stage": made.stage,
                "status": made.status,
                "seed": made.seed,
                "started_at": made.started_at,
                "deadline": made.deadline,
                "finished_at": made.finished_at,
                "costs": made.costs,
                "tables": [
                    _table(table, seats_of.get(table.pk, []), names, homes)
                    for table in tables_of.get(made.pk, [])
                ],
                "byes": [_who(names, p) for p in byes_of.get(made.pk, [])],
            }
        )
    return out


def _home_names(event: Tournament) -> dict[str, str]:
    """The homes a seat may get, in words (the kind's seat roles)."""
    return kind_of(event).role_names(kind_options(event))


def rule_words(event: Tournament) -> RuleWords:
    """What the event's page says of the rules its games follow, in its kind's words."""
    return kind_of(event).rule_words(kind_options(event))


def ranking_sentence(event: Tournament) -> str:
    """The event's published ranking of unfinished games as a page says it: its setting
    in the organiser's words where its kind ranks by it (World War 5), else the kind's
    own measures in order (RisiKo: progress towards their objective, then territories
    held, then armies on the board), then the order the players went out."""
    if ranking_of(event) == RANKINGS[Tournament.Adjudication(event.adjudication)]:
        return event.get_adjudication_display().lower()
    return ", then ".join([*_ranking_words(event), "elimination order"])


def _ranking_words(event: Tournament) -> list[str]:
    """The event's published ranking of unfinished games (R28): its kind's words for the
    measures it compares, in order."""
    words = kind_of(event).adjudication_measures()
    return [words.get(key, key) for key in ranking_of(event)]


def _table(
    table: Table, seats: list[TableSeat], names: Names, homes: dict[str, str]
) -> dict[str, Any]:
    place = {}
    for position, group in enumerate(table.result):
        for entry in group:
            place[entry] = 1 + sum(len(g) for g in table.result[:position])
    return {
        "number": table.number,
        "game": _game_state(table),
        "seats": [
            {
                "seat": seat.number,
                **_who(names, seat.entry_id),
                "home": seat.home,
                "home_name": homes.get(seat.home, seat.home),
                "place": place.get(seat.entry_id),
            }
            for seat in seats
        ],
        "result": table.result,
        "result_source": table.result_source,
        "finished_at": table.finished_at,
    }


def _schedule(schedule: Schedule | None, names: Names) -> list[dict[str, Any]] | None:
    if schedule is None:
        return None
    return [
        {
            "number": scheduled.number,
            "tables": [[_who(names, p) for p in table] for table in scheduled.tables],
            "byes": [_who(names, p) for p in scheduled.byes],
        }
        for scheduled in schedule.rounds
    ]


def _standings(event: Tournament, names: Names) -> list[dict[str, Any]]:
    if not event.rounds.exists():
        return []
    return [{**asdict(line), **_who(names, line.player)} for line in history.standings(event).lines]


def event_report(event: Tournament) -> dict[str, Any]:
    """The whole event as JSON values (see the module's docstring)."""
    entries = _players(event)
    names = {pk: (entry.name, _username(entry)) for pk, entry in entries.items()}
    schedule = published_schedule(event)
    return {
        "version": FORMAT_VERSION,
        "id": event.pk,
        "name": event.name,
        "url": reverse("tournaments:tournament", args=[event.league.slug, event.slug]),
        "league": {"id": event.league_id, "name": event.league.name, "slug": event.league.slug},
        "format": event.format,
        "format_name": event.get_format_display(),
        "status": event.status,
        "public": event.is_public,
        "finished_at": event.finished_at,
        "settings": settings_of(event, schedule),
        "players": [
            _player(entry)
            for entry in entries.values()
            if entry.status != Entry.Status.WAITING and entry.left_after_round != 0
        ],
        "waiting": [_player(e) for e in entries.values() if e.status == Entry.Status.WAITING],
        "rounds": _rounds(event, names),
        "schedule": _schedule(schedule, names),
        "standings": _standings(event, names),
    }
