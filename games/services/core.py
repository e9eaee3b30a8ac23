"""The heart of every change to a game: the row lock, the seats, writing a move and
the position after it, the clock it starts, the mails it causes, the result and ranks,
and the hand-off to the bots after commit.

A decision is one short transaction: lock the game row, check that the caller is the
one the game waits for and that their form was made for the current turn, ask the
engine, then write the move row and the new position together. Slow work (bots,
mail) runs after commit.

Dice and the time come from two seams, ``use_dice`` and ``use_clock``, which tests
set; the site uses the operating system's generator and the real clock.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Case, Value, When
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import Profile
from games import notify, selectors
from games.core import fairdice
from games.errors import GameError
from games.kinds import OVER, PLAY, Refused, competition_ranks, kind_of
from games.models import Game, Move, Seat
from games.services import seeds
from games.services.clocks import charge_clock, start_clock
from games.signals import ABANDONED, ADJUDICATED, DRAW, WIN, Finish, game_finished
from ww5site import rows

MIN_SEATS, MAX_SEATS = 2, 6


class _Sources:
    """Where the services' dice and time come from: each game's own verifiable stream
    (``games.services.seeds``: start rolls, random homes, combat, deals, bots' choices)
    and the real clock, unless a test sets others."""

    def __init__(self) -> None:
        self.dice: random.Random | None = None  # a test's dice, for every game
        self.clock: Callable[[], datetime] = timezone.now


_sources = _Sources()
_system = random.SystemRandom()


def dice() -> random.Random:
    """The dice a test set for every game, else the operating system's generator (for
    what no game's stream draws)."""
    return _sources.dice or _system


def game_dice(game: Game, seats: list[Seat] | None = None) -> fairdice.Recording:
    """Where the game's next numbers come from (its stream, unless a test set the
    services' dice), kept with their ranges and counters for the move."""
    return seeds.stream(game, seats if seats is not None else seats_of(game), _sources.dice)


def bot_random(game: Game) -> random.Random:
    """The source of a bot's choices for the game's next move (from its seed)."""
    return seeds.bot_random(game, game.turn_number + 1, _sources.dice)


def current_time() -> datetime:
    return _sources.clock()


def use_dice(source: random.Random) -> random.Random:
    """Roll the services' dice with ``source`` from now on, for every game; returns the
    one it replaces (the operating system's generator, given back, means each game's
    own stream again)."""
    previous = _sources.dice or _system
    _sources.dice = None if source is _system else source
    return previous


def use_clock(clock: Callable[[], datetime]) -> Callable[[], datetime]:
    """Read the services' time from ``clock`` from now on; returns the one it replaces."""
    previous, _sources.clock = _sources.clock, clock
    return previous


@dataclass
class Decision:
    move: Move
    duplicate: bool = False  # the same seat's decision for this turn was already recorded


def state_of(game: Game) -> Any:
    """The kind's state of the game's whole stored position (for the services, which
    act on the game: readers see it through ``games.seen``)."""
    assert game.position is not None, "the game has not started"
    return kind_of(game).load(game.position)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order, each with its player and the player's profile,
    read once per game object (a locked game is a fresh object)."""
    cached: list[Seat] | None = game.__dict__.get("_seat_list")
    if cached is None:
        cached = game.__dict__["_seat_list"] = _read_seats(game)
    return cached


_SEAT = rows.Columns(Seat, "s")


_PLAYER = rows.Columns(get_user_model(), "u")


_PROFILE = rows.Columns(Profile, "p")


def _read_seats(game: Game) -> list[Seat]:
    # In SQL: every decision reads them (the ORM's query, select_related("user__profile"),
    # costs more to build than to run); ``rows`` makes the instances as the ORM would.
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(), [game.pk])
        return _seats_from(cursor.fetchall(), game)


def _seats_sql() -> str:
    """The query of a game's seats (the game's key its one value), each with its player
    and the player's profile, in seat order."""
    return (
        f"SELECT {_SEAT.sql}, {_PLAYER.sql}, {_PROFILE.sql} FROM {_SEAT.table} s "
        f"LEFT JOIN {_PLAYER.table} u ON {_PLAYER.column()} = {_SEAT.column('user')} "
        f"LEFT JOIN {_PROFILE.table} p ON {_PROFILE.column('user')} = {_PLAYER.column()} "
        f"WHERE {_SEAT.column('game')} = %s ORDER BY {_SEAT.column('number')}"
    )


def _seats_from(found: Sequence[Sequence[Any]], game: Game) -> list[Seat]:
    """The seats of the rows of ``_seats_sql``, each with its player and profile cached
    on it as ``select_related`` caches them."""
    seats = []
    for row in found:
        seat_values, player_values, profile_values = rows.split(row, _SEAT, _PLAYER, _PROFILE)
        seat = _SEAT.load(seat_values)
        assert seat is not None
        rows.cache_related(seat, "game", game)  # as ``game.seats`` does
        player = _PLAYER.load(player_values)
        rows.cache_related(seat, "user", player)
        if player is not None:
            profile = _PROFILE.load(profile_values)
            rows.cache_related(player, "profile", profile)
            if profile is not None:
                rows.cache_related(profile, "user", player)
        seats.append(seat)
    return seats


def seat_named(game: Game, player: str) -> Seat:
    for seat in seats_of(game):
        if seat.player_name == player:
            return seat
    raise LookupError(f"no seat plays {player!r} in game {game.pk}")


def lock_game(game_id: int, with_seats: bool = False) -> Game:
    """The game, its row locked until the transaction ends; GameError if there is none.

    ``with_seats``: its seats read too (``seats_of``), right after the lock is granted,
    in the same round trip where the database takes several statements in one query: a
    decision reads them at once. Only for a caller that reads the seats before it
    changes any (a seat added or removed before the first ``seats_of`` would be missing
    from, or left in, the seats read here)."""
    # Every change to a game locks its row first, so two requests for one game (two
    # players racing, a double submit, a join and a start) run one after the other.
    # In SQL: it starts every decision, and the ORM's query for a model this wide
    # costs more to build than to run (a raw query still matches its columns to the
    # fields by name for every row: ``rows`` knows them).
    features = connections[DEFAULT_DB_ALIAS].features
    lock = " FOR UPDATE" if features.has_select_for_update else ""
    game = _locked(game_id, lock, with_seats)
    if game is None:
        raise GameError("there is no such game")
    return game


def lock_game_unless_held(game_id: int) -> Game | None:
    """The game, its row locked, as ``lock_game``; None if another transaction holds it
    (a move, another sweep: skipped, not awaited) or there is no such game."""
    features = connection.features
    skip = features.has_select_for_update_skip_locked
    return _locked(game_id, " FOR UPDATE SKIP LOCKED" if skip else "")


def _locked(game_id: int, lock: str, with_seats: bool = False) -> Game | None:
    """The game's row read with ``lock`` (a locking clause, or none where the database
    has no row locks); None if no row was read. ``with_seats``: see ``lock_game``.

    The seats' statement follows the lock's in one query: PostgreSQL runs it once the
    lock is granted, with a snapshot of its own, so it sees what the transaction that
    held the lock committed. (Joined to the locked row in one statement, the seats
    would be read in the snapshot taken before the wait, as they were before it.)"""
    db = connections[DEFAULT_DB_ALIAS]  # read through ``connection``, looked up each time
    if not db.in_atomic_block:
        raise TransactionManagementError("a game is locked only inside a transaction")
    sql = f"SELECT {_GAME.sql} FROM {_GAME.table} WHERE {_GAME.column()} = %s{lock}"
    together = with_seats and getattr(db, "several_statements", False)
    with db.cursor() as cursor:
        if together:
            cursor.execute(f"{sql}; {_seats_sql()}", [game_id, game_id])
            row = cursor.fetchone()
            cursor.nextset()
            found = cursor.fetchall()
        else:
            cursor.execute(sql, [game_id])
            row = cursor.fetchone()
    if row is None:
        return None
    game = _GAME.load(row)
    assert game is not None
    if together:
        game.__dict__["_seat_list"] = _seats_from(found, game)
    return game


_GAME = rows.Columns(Game, "")


def check_organiser(game: Game, by: AbstractBaseUser) -> None:
    """Refuse (GameError) anyone but the game's creator or an organiser of it."""
    if not selectors.can_organise(game, by):
        raise GameError("only the game's creator or an organiser can do that")


def record_move(
    game: Game,
    seat: Seat,
    state: Any,
    action: str,
    source: str,
    actor: AbstractBaseUser | None,
    now: datetime | None = None,
) -> Move:
    """Apply a legal canonical action with fair dice, log it with its dice and store the
    new position; the next decision's time runs from ``now`` (default: the move's time)."""
    rolls = game_dice(game)
    after, events = kind_of(game).apply(state, seat.player_name, action, rolls)
    move = log_move(
        game, seat, action, rolls.rolled, events, source, actor, drawn=rolls, with_next=True
    )
    store_position(game, after, now or move.created_at, decided_by=seat, move=move)
    return move


def log_move(
    game: Game,
    seat: Seat,
    action: str,
    dice: list[int],
    events: list[dict[str, Any]],
    source: str,
    actor: AbstractBaseUser | None,
    sealable: bool = True,
    drawn: fairdice.Recording | None = None,
    with_next: bool = False,
) -> Move:
    """Write the move row (its action, dice and events, its number the next turn's) and
    advance the game's turn number; the position is the caller's to store (the game's
    stored position is still the one before the move). A sealed action (the kind's
    ``sealed_decision``; never a forfeit: ``sealable`` off) carries its commitment, and
    its receipt and the news of it are queued (K38). ``drawn``: where ``dice`` came from,
    whose counters the move keeps and the game's counter moves on by. ``with_next``:
    the row goes with the transaction's next statement, in its query (``rows.insert``),
    for a caller that stores the position next (``store_position``, whose UPDATE of
    the game carries it) and reads the move's key only after that; a sealed action's
    row is written at once, as its commitment's mails name it."""
    # The unique (game, number) constraint backs up the row lock: were the lock ever
    # bypassed, the second insert fails and its whole transaction rolls back. Written
    # by the rows helper: every decision writes one, and nothing listens for its save.
    move = Move(
        game=game,
        number=game.turn_number + 1,
        seat=seat,
        action=action,
        dice=dice,
        events=events,
        source=source,
        player_id=seat.user_id,
        actor=actor,
        created_at=current_time(),
    )
    if drawn is not None and drawn.rolled:
        move.dice_from = drawn.first
        move.dice_ranges = [list(span) for span in drawn.ranges]
        game.dice_drawn = drawn.drawn
    told = _commit(game, move) if sealable and game.position is not None else None
    rows.insert(move, with_next=with_next and told is None)
    game.turn_number = move.number
    if told is not None:
        notify.queue_commitment_mails(game, move, seats_of(game), told)
    return move


def _commit(game: Game, move: Move) -> Collection[str] | None:
    """If the move is a sealed action, its commitment (K38): a fresh 16-byte nonce r from
    the operating system's secure source and H, set on the move; and the players told of
    it. None for a move that is not sealed."""
    kind = kind_of(game)
    position = game.position
    assert position is not None
    player = move.seat.player_name
    before = selectors.open_sealed(game)
    decision = kind.sealed_decision(position, player, move.action, move.events, move.number, before)
    if not decision:
        return None
    nonce = secrets.token_bytes(NONCE_BYTES)
    move.decision = decision
    move.nonce = nonce.hex()
    move.commitment = kind.commitment(str(game.pk), decision, player, move.action, nonce)
    return kind.sealed_parties(position, player, move.events)


# The size of a commitment's nonce r, in bytes (K38).
NONCE_BYTES = 16


# What a decision changes on the game row (its start also sets the STARTED_FIELDS).
# Written by the rows helper after every decision, as ``save(update_fields=…)`` writes
# them, signals included: the ORM's update costs more to build than to run.
STORED_FIELDS = [
    "position",
    "turn_number",
    "to_move",
    "decision_turn",
    "status",
    "deadline",
    "deadline_claimed_at",
    "remind_at",
    "grace_used",
    "clock_started_at",
    "finished_at",
    "winner",
    "dice_drawn",
    "dice_players_hash",
    "dice_revealed",
]


STARTED_FIELDS = ["seats_wanted", "start_record", "started_at", "dice_start"]


def store_position(
    game: Game,
    state: Any,
    now: Any,
    decided_by: Seat | None = None,
    move: Move | None = None,
    announce: bool = True,
) -> None:
    """Write the new position and what follows from it, with the move, in one transaction.

    ``decided_by``: the seat whose decision this was, charged for the time it took (bank
    games). A change that is no one's decision (a forfeit) leaves the clock of a player
    who still has the decision running as it was. A position that ends the game goes
    through ``finish_game`` (``announce`` off: a rebuild, which tells no one)."""
    kind = kind_of(game)
    if decided_by is not None:
        charge_clock(game, decided_by, now)
    seats = seats_of(game)
    deciding_before = {s.pk for s in seats if s.deciding}
    before = deciding_before or {game.to_move_id} - {None}
    key_before = kind.decision_key(game.position) if game.position is not None else None
    sealed_before = _sealed_candidates(game, move)
    game.position = kind.dump(state)
    revealed = _revealed(game, sealed_before) if announce else []
    phase = kind.phase(state)
    due = [seat_named(game, name) for name in kind.deciders(state)] if phase != OVER else []
    # Held script lines whose wait is over run after this change (K39f): their player's
    # mail comes with their report instead of a prompt sent now.
    ready = [s for s in seats if s.held and not kind.holds_script(state, s.player_name)]
    ready = ready if announce else []  # a rebuild runs nothing
    after = {s.pk for s in due}
    # The same decision goes on, its clock running: after a change that is no one's
    # decision (a forfeit) that leaves it to the same players, or once one of several
    # players deciding at once has made theirs.
    continuing = (
        phase != OVER
        and bool(after)
        and game.deadline is not None
        and (
            (decided_by is None and after == before)
            or (decided_by is not None and len(before) > 1 and after < before)
            or (decided_by is None and bool(deciding_before) and after < before)
            # one player's decision of several actions (a turn), not yet ended
            or (
                after == before
                and key_before is not None
                and key_before == kind.decision_key(game.position)
            )
        )
    )
    # A decision several players make at once marks their seats, down to its last one.
    sealed = len(due) > 1 or (continuing and bool(deciding_before))
    game.to_move = due[0] if due and not sealed else None
    _mark_deciding(seats, after if sealed else set())
    if continuing:
        rows.update(game, STORED_FIELDS)
        _queue_mails(game, state, move, [], decision_due=False, revealed=revealed)
    elif phase == OVER:
        game.grace_used = False
        game.deadline_claimed_at = None
        finish_game(game, now, state=state, announce=announce)
        _queue_mails(game, state, move, [], revealed=revealed)
    else:
        game.status = Game.Status.PLAY if phase == PLAY else Game.Status.SETUP
        game.decision_turn = game.turn_number
        start_clock(game, state, now, due)
        game.grace_used = False  # a new decision, with its own grace
        game.deadline_claimed_at = None
        rows.update(game, STORED_FIELDS)
        prompted = [seat for seat in due if seat not in ready]
        _queue_mails(game, state, move, prompted, revealed=revealed)
    for seat in ready:
        run_held(game, seat)


def hold_lines(seat: Seat, report: list[dict[str, Any]], source: str) -> None:
    """Keep the lines of a script that ``report`` says are held (K39f) for the seat's
    player, with where they came from, until the decision they wait for is in."""
    held = "\n".join(str(line["line"]) for line in report if line["status"] == "held")
    if (seat.held, seat.held_source) == (held, source if held else ""):
        return  # nothing held before or now: no write
    seat.held, seat.held_source = held, source if held else ""
    seat.save(update_fields=["held", "held_source"])


def run_held(game: Game, seat: Seat) -> None:
    """Run the seat's held script lines now that what they waited for is in, as a new
    script of its player (K39f): the lines done are one move; lines that hold again are
    kept; the player is told what each line did, in the mail that asks for the rest of
    their turn when it is still theirs."""
    text, source = seat.held, seat.held_source or Move.Source.WEB
    rolls = game_dice(game)
    after, report, events = kind_of(game).resume_script(
        state_of(game), seat.player_name, text, rolls
    )
    hold_lines(seat, report, source)
    done = [str(line["action"]) for line in report if line["status"] == "done"]
    move = None
    if done:
        move = log_move(
            game, seat, "; ".join(done), rolls.rolled, events, source, seat.user, drawn=rolls
        )
        store_position(game, after, move.created_at, decided_by=seat, move=move)
    notify.queue_script_report(game, seat, state_of(game), seats_of(game), report, move)


def _sealed_candidates(game: Game, move: Move | None) -> set[str]:
    """The sealed decisions a change may reveal, read before its position is stored:
    the one open before the move (if any) and the move's own."""
    candidates = {move.decision} if move is not None and move.commitment else set()
    if game.position is not None and kind_of(game).sealed_pending(game.position):
        before = selectors.latest_sealed(game, move.number if move is not None else None)
        if before:
            candidates.add(before)
    return candidates


def _revealed(game: Game, candidates: set[str]) -> list[str]:
    """Of ``candidates``, the sealed decisions no longer open once the new position is
    stored: revealed by this change."""
    if not candidates:
        return []
    still = selectors.open_sealed(game)
    return sorted(decision for decision in candidates if decision != still)


def _mark_deciding(seats: list[Seat], deciding: set[int]) -> None:
    """Mark the seats of a decision several players make at once (and no others): one
    update, and none at all while every decision is one player's."""
    changed = [seat for seat in seats if seat.deciding != (seat.pk in deciding)]
    if not changed:
        return
    Seat.objects.filter(pk__in=[seat.pk for seat in changed]).update(
        deciding=Case(When(pk__in=list(deciding), then=Value(True)), default=Value(False))
    )
    for seat in changed:
        seat.deciding = seat.pk in deciding


FINISHED = (Game.Status.OVER, Game.Status.ABANDONED)


def finish_game(
    game: Game,
    now: datetime,
    *,
    state: Any | None = None,
    order: list[list[str]] | None = None,
    outcome: str | None = None,
    announce: bool = True,
) -> Finish:
    """The one way a game ends, inside the caller's transaction (the game locked).

    With ``state`` (a position whose phase is over): a win or the R24 draw, ranked by
    the finishing order of the game's moves. With ``order`` (groups of engine player
    names, best first): an adjudication. With ``outcome`` ABANDONED: no result. The
    game row is saved with the result; then the receivers of ``game_finished`` are told,
    once: never when ``announce`` is off (a rebuild of the stored position)."""
    if game.status in FINISHED and announce:
        raise GameError("this game is already finished")
    game.finished_at = now
    game.deadline = None
    game.remind_at = None
    seeds.reveal(game)  # over by any road: the seed is public
    if outcome == ABANDONED:
        game.status = Game.Status.ABANDONED
        game.to_move = None
        game.winner = None
        ranks: dict[int, int | None] = {seat.pk: None for seat in seats_of(game)}
    else:
        game.status = Game.Status.OVER
        if order is None:
            assert state is not None and kind_of(game).is_over(state), "a result needs an end"
            order = _finishing_order(state, game)
            outcome = WIN if order and len(order[0]) == 1 else DRAW  # R24: all out at once
        else:
            outcome = ADJUDICATED
        ranks = _rank_seats(game, order)
        first = order[0] if order else []
        game.winner = seat_named(game, first[0]) if outcome != DRAW and len(first) == 1 else None
    rows.update(game, STORED_FIELDS)  # as save(update_fields=…), signals and all
    finish = Finish(str(outcome), ranks, game.winner_id)
    if announce:
        game_finished.send(sender=Game, game=game, finish=finish)
    return finish


def _queue_mails(
    game: Game,
    state: Any,
    move: Move | None,
    due: list[Seat],
    decision_due: bool = True,
    revealed: list[str] | None = None,
) -> None:
    """The mails this change causes, in its transaction: the prompt to each player whose
    decision is now due, or everyone's result; the news of the move for whom it
    concerns; and the reveal of each sealed decision it ``revealed`` (K38)."""
    for decision in revealed or ():
        notify.queue_reveal_mails(game, decision, seats_of(game))
    if move is not None and move.events:
        notify.queue_event_mails(game, move, state, seats_of(game))
    if kind_of(game).is_over(state):
        notify.queue_result_mails(game, state, seats_of(game))
    elif decision_due:
        for seat in due:
            if not seat.bot:
                notify.queue_decision_mail(game, seat, state, seats_of(game), move)


def _finishing_order(state: Any, game: Game) -> list[list[str]]:
    """The kind's finishing order of a finished game (World War 5: R24, R31), from its
    final state and its move log."""
    # In SQL: every game's end reads it, and the ORM's query costs more to build than to
    # run; ``rows`` reads the events as the ORM would.
    sql = (
        f"SELECT {_HISTORY.sql} FROM {_HISTORY.table} WHERE {_HISTORY.column('game')} = %s "
        f"ORDER BY {_HISTORY.column('number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        history = [tuple(_HISTORY.convert(row)) for row in cursor.fetchall()]
    return kind_of(game).finishing_order(state, history)


_HISTORY = rows.Columns(Move, "", ["action", "events"])


def _rank_seats(game: Game, order: list[list[str]]) -> dict[int, int | None]:
    """Each seat's rank from the finishing order (tied groups share a rank), saved."""
    ranks: dict[int, int | None] = {}
    for name, rank in competition_ranks(order).items():
        seat = seat_named(game, name)
        seat.rank = ranks[seat.pk] = rank
    if ranks:  # one statement for every seat, in SQL: every game's end writes it
        quote = connection.ops.quote_name
        key, rank = quote(Seat._meta.pk.column), quote(Seat._meta.get_field("rank").column)  # type: ignore[union-attr]
        cases = " ".join(["WHEN %s THEN %s"] * len(ranks))
        sql = (
            f"UPDATE {quote(Seat._meta.db_table)} SET {rank} = CASE {key} {cases} END "
            f"WHERE {key} IN ({', '.join(['%s'] * len(ranks))})"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*(v for item in ranks.items() for v in item), *ranks])
    return ranks


def play_bots_after_commit(game: Game) -> None:
    """Once the change commits, let the bots play if a bot seat's decision is due.

    Robust: the change is committed whatever happens here, so a broker that is down must
    not turn it into an error page; ``sweep_bots`` restarts a bot seat left waiting."""
    transaction.on_commit(lambda: _after_decision(game), robust=True)


def _after_decision(game: Game) -> None:
    """After commit: if a bot seat's decision is due, let the bots play."""
    from games.tasks import play_bots

    waiting = [game.to_move] if game.to_move is not None else seats_of(game)
    if (
        game.is_active
        and not game.is_paused
        and any(seat.bot and (seat.pk == game.to_move_id or seat.deciding) for seat in waiting)
    ):
        play_bots.delay(game.pk)


def position_after_forfeit(game: Game, seat: Seat) -> tuple[Any, list[dict[str, Any]]]:
    """The game after the seat's player forfeits (R31), if they can."""
    if not game.is_active:
        raise GameError(f"this game is {game.get_status_display().lower()}")
    try:
        return kind_of(game).forfeit(state_of(game), seat.player_name)
    except Refused as refusal:
        raise GameError(str(refusal)) from None


def record_forfeit(
    game: Game,
    seat: Seat,
    after: Any,
    events: list[dict[str, Any]],
    source: str,
    by: AbstractBaseUser | None,
) -> Move:
    """Log the seat's forfeit (``position_after_forfeit``'s ``after`` and ``events``),
    store the position after it, and let the bots play after commit if one is due."""
    move = log_move(
        game, seat, f"forfeit {seat.player_name}", [], events, source, by, sealable=False
    )
    store_position(game, after, move.created_at, move=move)
    play_bots_after_commit(game)
    return move
