"""An event runs itself: it starts, pairs and seats each round, makes and starts the
round's games, records each game's result as it finishes, ends a round when its games
have ended (or adjudicates them at its deadline), and goes on to the next round or to
the final standings.

Every step locks the tournament's row first, so the steps of one event run one after
the other: two games ending at the same moment record their results in turn, and only
the second sees the round complete. A round is unique per (tournament, number), so a
retried or repeated job finds the round made and makes nothing twice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import services as games
from games.kinds import GameKind, kind_named
from games.models import Game, Move
from games.services import TableSeat as GameSeat
from games.signals import Finish
from tournaments import notify
from tournaments.core import adjudication as judging
from tournaments.core import cut, pairing, roundrobin
from tournaments.core.results import order_from_ranks
from tournaments.core.seating import SeatedTable, seat_round
from tournaments.errors import TournamentError
from tournaments.eventsettings import check_settings, game_options, kind_of, kind_options
from tournaments.models import Bye, Entry, Round, Table, TableSeat, Tournament
from tournaments.selectors import history, table_title
from tournaments.services.events import lock_event
from ww5site import rows

# The published rankings of unfinished games (R28), by the event's setting: measures of
# the game's kind (``GameKind.adjudication_measures``), compared in order.
RANKINGS = {
    Tournament.Adjudication.TERRITORIES: ["territories", "pips"],
    Tournament.Adjudication.PIECES: ["pips", "territories"],
}


def kind_ranking(kind: GameKind, chosen: Sequence[str]) -> list[str]:
    """The measures a game of ``kind`` cut short is ranked by, in order: ``chosen`` (an
    event's or a ladder's published ranking) where the kind measures them all, else the
    kind's own in the order it gives them (RisiKo: objective progress, then territories,
    then armies)."""
    measures = kind.adjudication_measures()
    return list(chosen) if all(m in measures for m in chosen) else list(measures)


def ranking_of(event: Tournament) -> list[str]:
    """The measures the event ranks a game cut short by, in order (its setting's)."""
    return kind_ranking(kind_of(event), RANKINGS[Tournament.Adjudication(event.adjudication)])


def round_seed(tournament: Tournament, number: int, attempt: int = 0) -> int:
    """The seed of a round's pairing and seating: from the event's seed, so an event's
    every draw can be made again."""
    return random.Random(f"{tournament.seed}:{number}:{attempt}").getrandbits(62)


# --- starting ------------------------------------------------------------------------


def start(tournament_id: int, now: datetime | None = None) -> Round | None:
    """Close registration and pair round 1: a registered player who did not check in
    (when the event has a check-in) is dropped, and so is the waiting list."""
    now = now or timezone.now()
    with transaction.atomic():
        event = _lock_id(tournament_id)
        if event.status != Tournament.Status.REGISTRATION:
            return None
        # Settings saved before their bounds were checked (a round time past the last
        # date the site can keep) are refused with the reason, not failed on.
        check_settings(event)
        entries = event.entries.all()
        if event.check_in_opens_at is not None:
            entries.filter(status=Entry.Status.REGISTERED).update(
                status=Entry.Status.DROPPED, left_after_round=0, note="did not check in"
            )
        entries.filter(status=Entry.Status.WAITING).update(
            status=Entry.Status.DROPPED, left_after_round=0, note="no place came free"
        )
        field = _playing(event, 1).count()
        if field < 2:
            raise TournamentError("an event needs at least two players to start")
        if event.format == Tournament.Format.ROUND_ROBIN and field > roundrobin.MAX_FIELD:
            raise TournamentError(
                f"a round robin takes at most {roundrobin.MAX_FIELD} players, and "
                f"{field} would play: drop some, or choose another format"
            )
        event.status = Tournament.Status.RUNNING
        swiss = (Tournament.Format.SWISS, Tournament.Format.SWISS_CUT)
        if event.format in swiss and not event.swiss_rounds:
            event.swiss_rounds = pairing.recommended_rounds(
                _playing(event, 1).count(), history.table_sizes(event)
            )
        event.save(update_fields=["status", "swiss_rounds"])
        return _pair(event, 1, now)


def _lock_id(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _playing(event: Tournament, number: int) -> Any:
    """The entries paired in round ``number``: still in, and joined by then."""
    return event.entries.filter(
        status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN],
        joined_round__lte=number,
    )


# --- pairing -------------------------------------------------------------------------


def _pair(event: Tournament, number: int, now: datetime, attempt: int = 0) -> Round:
    """Pair, seat and record round ``number`` (the event locked); start it at once unless
    the event reviews its pairings."""
    seed = round_seed(event, number, attempt)
    stage, tables, byes, costs = _pairing(event, number, seed)
    seated = seat_round(
        tables,
        history.seat_history(event),
        seed=seed,
        homes=kind_of(event).seat_roles(kind_options(event)),
        first_by_roll=event.first_player == Tournament.FirstPlayer.ROLL,
    )
    costs["seating"] = [
        {"seat_cost": t.seat_cost, "home_cost": t.home_cost, "first_by_roll": t.first_by_roll}
        for t in seated
    ]
    try:
        with transaction.atomic():  # a savepoint: a round made meanwhile fails alone
            made = Round.objects.create(
                tournament=event,
                number=number,
                stage=stage,
                status=Round.Status.PAIRED,
                seed=seed,
                costs=costs,
            )
    except IntegrityError:
        return Round.objects.get(tournament=event, number=number)
    for table_number, table in enumerate(seated, start=1):
        _record_table(made, table_number, table)
    Bye.objects.bulk_create([Bye(round=made, entry_id=entry) for entry in byes])
    if not event.review_pairings:
        _start_round(event, made, now)
    return made


def _record_table(made: Round, number: int, seated: SeatedTable) -> Table:
    table = Table.objects.create(round=made, number=number)
    TableSeat.objects.bulk_create(
        [
            TableSeat(table=table, entry_id=seat.player, number=seat.seat + 1, home=seat.home)
            for seat in seated.seats
        ]
    )
    return table


def _pairing(
    event: Tournament, number: int, seed: int
) -> tuple[str, list[tuple[int, ...]], list[int], dict[str, Any]]:
    """The round's stage, its tables (entry ids), byes and the costs that chose them."""
    playing = set(_playing(event, number).values_list("pk", flat=True))
    sizes = history.table_sizes(event)
    if event.format == Tournament.Format.ROUND_ROBIN:
        return _round_robin(event, number, playing)
    last = event.rounds.filter(number=number - 1).first()
    in_elimination = last is not None and last.stage in ("cut", "elimination", "final")
    swiss_done = event.format == Tournament.Format.SWISS_CUT and number > (event.swiss_rounds or 0)
    if event.format == Tournament.Format.ELIMINATION or in_elimination or swiss_done:
        return _elimination(event, number, playing, last)
    standings = history.standings(event)
    order = [player for player in standings.active() if player in playing]
    order += sorted(playing - set(order))  # late joins, not yet in the standings
    paired = pairing.pair_swiss(
        order,
        standings.points(),
        history.results(event),
        seed=seed,
        settings=pairing.SwissSettings(tables=sizes),
    )
    tables = [tuple(t.players) for t in paired.tables]
    return "swiss", tables, list(paired.byes), {"swiss": asdict(paired.costs)}


def _round_robin(
    event: Tournament, number: int, playing: set[int]
) -> tuple[str, list[tuple[int, ...]], list[int], dict[str, Any]]:
    """The published schedule's round (made from the players at the start); a player
    who left is taken off their table, and a table left with one player is a bye."""
    schedule = schedule_of(event)
    scheduled = schedule.rounds[number - 1]
    tables, byes = [], [p for p in scheduled.byes if p in playing]
    for table in scheduled.tables:
        kept = tuple(p for p in table if p in playing)
        if len(kept) >= 2:
            tables.append(kept)
        byes += list(kept if len(kept) == 1 else ())
    costs = {
        "round_robin": {
            "fewest_meetings": schedule.fewest_meetings,
            "most_meetings": schedule.most_meetings,
            "seed": schedule.seed,
        }
    }
    return "round_robin", tables, byes, costs


def schedule_of(event: Tournament) -> roundrobin.Schedule:
    """The round robin's schedule, made again from the event's seed and the players it
    started with (it is published once round 1 is paired)."""
    first = event.rounds.filter(number=1).first()
    if first is not None:
        players = sorted(
            set(TableSeat.objects.filter(table__round=first).values_list("entry_id", flat=True))
            | set(Bye.objects.filter(round=first).values_list("entry_id", flat=True))
        )
    else:
        players = sorted(_playing(event, 1).values_list("pk", flat=True))
    return roundrobin.round_robin(players, seed=event.seed, sizes=history.table_sizes(event))


def _elimination(
    event: Tournament, number: int, playing: set[int], last: Round | None
) -> tuple[str, list[tuple[int, ...]], list[int], dict[str, Any]]:
    sizes = history.table_sizes(event)
    if last is None or last.stage == "swiss":
        standings = history.standings(event)
        if event.format == Tournament.Format.SWISS_CUT:
            top = cut.top_cut(standings, event.cut_size or 2, sizes)
            plan, stage = top.first_round, "cut"
            line = top.cut_line
            extra = {
                "cut_line": None
                if line is None
                else {
                    "last_in": line.last_in.player,
                    "first_out": line.first_out.player,
                    "decided_by": line.decided_by,
                }
            }
        else:
            seeded = [player for player in standings.active() if player in playing]
            plan, stage, extra = cut.elimination_round(seeded, sizes), "elimination", {}
    else:
        previous = _stored_plan(last)
        orders = [
            tuple(tuple(group) for group in table.result)
            for table in last.tables.order_by("number")
        ]
        going = [
            p for p in cut.advancing(previous, orders, event.advance_per_table) if p in playing
        ]
        if len(going) < 2:
            raise TournamentError("the elimination has a champion: no round is left")
        plan, stage, extra = cut.elimination_round(going, sizes), "elimination", {}
    if plan.final:
        stage = "final"
    tables = [tuple(pod.players) for pod in plan.tables]
    stored = {
        "pods": [[list(p.players), list(p.seeds)] for p in plan.tables],
        "byes": list(plan.byes),
        "final": plan.final,
        **extra,
    }
    return stage, tables, list(plan.byes), {"elimination": stored}


def _stored_plan(made: Round) -> cut.EliminationRound:
    stored = made.costs["elimination"]
    pods = tuple(cut.Pod(tuple(players), tuple(seeds)) for players, seeds in stored["pods"])
    return cut.EliminationRound(pods, tuple(stored["byes"]), stored["final"])


# --- starting a round: its games -----------------------------------------------------


def _start_round(event: Tournament, made: Round, now: datetime) -> None:
    """Make and start each table's game, and tell every player their table."""
    options = game_options(event)
    roll = event.first_player == Tournament.FirstPlayer.ROLL
    for table in made.tables.order_by("number"):
        seats = list(table.seats.select_related("entry__user").order_by("number"))
        table.game = games.create_table(
            options,
            [_seat(s) for s in seats],
            # Its own name says the same as its label (the mails sent as it is made
            # come before the table knows its game).
            name=table_title(event.name, made.number, table.number),
            is_public=event.is_public,
            first_seat=None if roll else 0,
        )
        table.save(update_fields=["game"])
    made.status = Round.Status.RUNNING
    made.started_at = now
    made.deadline = now + event.round_time
    made.save(update_fields=["status", "started_at", "deadline"])
    notify.round_started(event, made)


def _seat(seat: TableSeat) -> GameSeat:
    """An entry's seat; a bot entrant keeps its event name there."""
    entry = seat.entry
    return GameSeat(seat.home, user=entry.user, bot=entry.bot, name=entry.name if entry.bot else "")


def start_round(tournament: Tournament, by: Any, number: int, now: datetime | None = None) -> Round:
    """An organiser starts a paired round (an event that reviews its pairings)."""
    from tournaments.services.events import check_organiser

    check_organiser(tournament.league, by)
    with transaction.atomic():
        event = lock_event(tournament)
        made = event.rounds.filter(number=number).first()
        if made is None or made.status != Round.Status.PAIRED:
            raise TournamentError("only a paired round that has not started can be started")
        _start_round(event, made, now or timezone.now())
        return made


def repair_round(
    tournament: Tournament, by: Any, number: int, now: datetime | None = None
) -> Round:
    """Pair a round again, with a new draw, while its games have not started; a round
    that has started cannot be paired again."""
    from tournaments.services.events import check_organiser

    check_organiser(tournament.league, by)
    with transaction.atomic():
        event = lock_event(tournament)
        made = event.rounds.filter(number=number).first()
        if made is None or made.status != Round.Status.PAIRED:
            raise TournamentError("a round that has started cannot be paired again")
        attempt = made.costs.get("attempt", 0) + 1
        made.delete()
        again = _pair(event, number, now or timezone.now(), attempt)
        again.costs = {**again.costs, "attempt": attempt}
        again.save(update_fields=["costs"])
        return again


# --- results -------------------------------------------------------------------------


def record_result(game: Game, finish: Finish, now: datetime | None = None) -> Table | None:
    """A game of an event has ended (``games.signals.game_finished``, in the game's
    transaction): keep its finishing order by entry, drop a player who forfeited it on
    time, and end the round when it was its last game."""
    table = table_of(game)
    if table is None:
        return None
    now = now or timezone.now()
    event = _lock_id(table.round.tournament_id)  # results of one event in turn
    table.refresh_from_db()
    if table.finished_at is not None:
        return table
    by_seat = {game_seat: entry for game_seat, entry in entries_by_game_seat(table, game).items()}
    if finish.has_result:
        ranks = {by_seat[seat]: rank for seat, rank in finish.ranks.items() if rank is not None}
        table.result = [list(group) for group in order_from_ranks(ranks)]
        table.result_source = "adjudicated" if finish.outcome == "adjudicated" else "game"
    else:
        table.result, table.result_source = [], "abandoned"
    table.finished_at = now
    table.save(update_fields=["result", "result_source", "finished_at"])
    _drop_timeout_forfeiters(table, game, by_seat)
    _end_round_if_done(event, table.round, now)
    return table


_TABLE = rows.Columns(Table, "t")
_ROUND = rows.Columns(Round, "r")


def table_of(game: Game) -> Table | None:
    """The event's table the game is played at, with its round (as
    ``select_related("round")`` gives it), or None for a game of no event. In SQL: every
    game's end asks it, and the ORM's query costs more to build than to run."""
    sql = (
        f"SELECT {_TABLE.sql}, {_ROUND.sql} FROM {_TABLE.table} t "
        f"JOIN {_ROUND.table} r ON {_ROUND.column()} = {_TABLE.column('round')} "
        f"WHERE {_TABLE.column('game')} = %s"
    )
    found = rows.first(sql, [game.pk], _TABLE, _ROUND)
    if found is None:
        return None
    table, round_ = found
    rows.cache_related(table, "round", round_)
    return table


def entries_by_game_seat(table: Table, game: Game) -> dict[int, int]:
    """The entry sitting at each of the game's seats: entry ids by game seat id (the game
    was made with the table's seats in the same order)."""
    numbers = dict(table.seats.values_list("number", "entry_id"))
    return {seat_id: numbers[number] for seat_id, number in game.seats.values_list("pk", "number")}


def _drop_timeout_forfeiters(table: Table, game: Game, by_seat: dict[int, int]) -> None:
    """A player who missed their deadlines until they forfeited is dropped from later
    rounds (an organiser may reinstate them)."""
    forfeits = Move.objects.filter(
        game=game, source=Move.Source.TIMEOUT, action__startswith="forfeit "
    ).values_list("seat_id", flat=True)
    for seat_id in forfeits:
        entry = Entry.objects.get(pk=by_seat[seat_id])
        if entry.plays:
            entry.status = Entry.Status.DROPPED
            entry.left_after_round = table.round.number
            entry.note = f"forfeited on time in round {table.round.number}"
            entry.save(update_fields=["status", "left_after_round", "note"])


def _end_round_if_done(event: Tournament, made: Round, now: datetime) -> bool:
    if made.tables.filter(finished_at__isnull=True).exists():
        return False
    # A conditional update: of two transactions ending the round's last games, the
    # second (which waited for the first's lock on the event) changes no row.
    ended = Round.objects.filter(pk=made.pk, status=Round.Status.RUNNING).update(
        status=Round.Status.FINISHED, finished_at=now
    )
    if ended:
        transaction.on_commit(lambda: _advance_later(event.pk), robust=True)
    return bool(ended)


def _advance_later(tournament_id: int) -> None:
    from tournaments.tasks import advance

    advance.delay(tournament_id)


# --- going on --------------------------------------------------------------------------


def advance(tournament_id: int, now: datetime | None = None) -> str:
    """After a round has ended: pair the next one, or finish the event. Safe to run
    twice: it acts only when the last round has ended and nothing follows it."""
    now = now or timezone.now()
    with transaction.atomic():
        event = _lock_id(tournament_id)
        if event.status != Tournament.Status.RUNNING:
            return "nothing to do"
        last = event.rounds.order_by("-number").first()
        if last is None or last.status != Round.Status.FINISHED:
            return "nothing to do"
        notify.round_results(event, last)
        if _is_last(event, last) or _playing(event, last.number + 1).count() < 2:
            event.status = Tournament.Status.FINISHED
            event.finished_at = now
            event.save(update_fields=["status", "finished_at"])
            notify.final_standings(event)
            return "finished"
        _pair(event, last.number + 1, now)
        return "paired"


def _is_last(event: Tournament, last: Round) -> bool:
    if event.format == Tournament.Format.SWISS:
        return last.number >= (event.swiss_rounds or 0)
    if event.format == Tournament.Format.ROUND_ROBIN:
        return last.number >= len(schedule_of(event).rounds)
    return last.stage == "final"


# --- deadlines ---------------------------------------------------------------------------


def adjudicate_round(made: Round) -> int:
    """The round's deadline has passed: each game still running ends under the event's
    turn-limit house rule (R28), through the games' one finish path. Returns how many."""
    event = made.tournament
    ranking = ranking_of(event)
    ended = 0
    for table in made.tables.filter(finished_at__isnull=True).select_related("game"):
        if table.game is not None and adjudicate_game(table.game, ranking):
            ended += 1
    return ended


def adjudicate_game(game: Game, ranking: list[str]) -> bool:
    """End a game still running under a turn limit (R28): its players ranked by the
    published ``ranking`` (measures of the game's kind), then by elimination order,
    through the games' one finish path. False if it had ended already.

    The game's kind measures its players on the stored position (the adjudication acts
    on the game: nothing is shown to a reader but the ranking and its values), and says
    who is out already from the moves; ``tournaments.core.adjudication`` ranks them.
    ``game`` may have been read a while ago (a sweep ranks its late games one after the
    other while bots and players go on moving, and two sweeps may rank the same games):
    it is locked and read again first, so the ranking is that of the position it ends
    in, and a game another sweep ended is left alone."""
    with transaction.atomic():
        game = games.lock_game(game.pk)
        if not game.is_active:
            return False
        kind = kind_named(game.kind)
        measures = kind.adjudication_measures()
        ranking = kind_ranking(kind, ranking)
        moves = [
            (action, list(events))
            for action, events in game.moves.order_by("number").values_list("action", "events")
        ]
        out = [
            judging.Elimination(players, forfeit) for players, forfeit in kind.eliminations(moves)
        ]
        values = kind.measure(game.position, judging.ranking_steps(ranking, measures))
        decided = judging.adjudicate(values, ranking, out, measures=measures)
        reason = "; ".join(
            f"{v.player}: " + ", ".join(str(x) for x in v.values) for v in decided.values
        )
        games.adjudicate(
            game.pk,
            [list(group) for group in decided.order],
            f"ranked by {', '.join(ranking)}, then elimination order ({reason})",
        )
        return True
