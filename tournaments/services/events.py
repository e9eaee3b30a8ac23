"""Every change to leagues and tournaments goes through here."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from games import services as games
from games.errors import GameError
from games.kinds import DEFAULT_KIND, UnknownKind, kind_named
from games.models import Game, Move
from tournaments import notify
from tournaments.core import eventseed
from tournaments.errors import TournamentError
from tournaments.eventsettings import (
    SETTINGS,
    apply_changes,
    check_settings,
    kind_of,
    model_fields,
    set_settings,
)
from tournaments.models import Entry, League, Membership, Table, Tournament
from tournaments.selectors import current_round, organises, registration_refusal


def create_league(
    name: str, organiser: AbstractBaseUser, *, joining: str = League.Joining.OPEN, **fields: str
) -> League:
    """A league, with its first organiser (who may then use the admin for it)."""
    name = name.strip()
    if not name:
        raise TournamentError("a league needs a name")
    slug = slugify(name)
    if not slug or League.objects.filter(slug=slug).exists():
        raise TournamentError(f"a league named “{name}” exists already")
    with transaction.atomic():
        league = League.objects.create(name=name, slug=slug, joining=joining, **fields)
        make_organiser(league, organiser)
    return league


def make_organiser(league: League, user: AbstractBaseUser) -> Membership:
    """The user organises the league: a member with the organiser's role, let into the
    admin (``is_staff``), where they see and manage only their own leagues' objects and
    games. Being staff grants nothing else: every right follows from the membership."""
    with transaction.atomic():
        membership, _ = Membership.objects.update_or_create(
            league=league,
            user=user,
            defaults={"role": Membership.Role.ORGANISER, "status": Membership.Status.ACTIVE},
        )
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    return membership


def update_league(league: League) -> League:
    """Save an organiser's edit of the league's name, description and joining policy."""
    league.name = league.name.strip()
    if not league.name:
        raise TournamentError("a league needs a name")
    league.save(update_fields=["name", "description", "joining", "is_public"])
    return league


def name_organiser(league: League, by: AbstractBaseUser, user: AbstractBaseUser) -> Membership:
    """An organiser names another organiser of their league."""
    check_organiser(league, by)
    return make_organiser(league, user)


def join_league(league: League, user: AbstractBaseUser) -> Membership:
    """The user joins: at once in an open league, else waiting for an organiser."""
    status = (
        Membership.Status.ACTIVE
        if league.joining == League.Joining.OPEN
        else Membership.Status.PENDING
    )
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is not None and membership.status != Membership.Status.LEFT:
            raise TournamentError(
                "you are already a member of this league"
                if membership.status == Membership.Status.ACTIVE
                else "your request to join is waiting for an organiser"
            )
        if membership is None:
            return Membership.objects.create(league=league, user=user, status=status)
        membership.status, membership.role = status, Membership.Role.MEMBER
        membership.save(update_fields=["status", "role"])
        return membership


def approve_member(league: League, by: AbstractBaseUser, user: AbstractBaseUser) -> Membership:
    check_organiser(league, by)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is None or membership.status != Membership.Status.PENDING:
            raise TournamentError("there is no request to join from this player")
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
        return membership


def leave_league(league: League, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is None or membership.status == Membership.Status.LEFT:
            raise TournamentError("you are not a member of this league")
        if (
            membership.is_organiser
            and not league.memberships.filter(
                role=Membership.Role.ORGANISER, status=Membership.Status.ACTIVE
            )
            .exclude(pk=membership.pk)
            .exists()
        ):
            raise TournamentError("you are this league's last organiser: name another first")
        membership.status, membership.role = Membership.Status.LEFT, Membership.Role.MEMBER
        membership.save(update_fields=["status", "role"])


def check_organiser(league: League, by: AbstractBaseUser) -> None:
    """Refuses ``by`` unless they organise the league: the one rights check of every
    organiser's service of leagues, events and their jobs."""
    if not organises(by, league):
        raise TournamentError("only an organiser of this league can do that")


# --- tournaments: setting up and registering ------------------------------------------


def create_tournament(league: League, by: AbstractBaseUser, name: str, **fields: Any) -> Tournament:
    """A tournament of the league, being prepared (an organiser opens registration),
    with its seed drawn and the commitment to it published (``eventseed``)."""
    tournament = new_tournament(league, by, name, **fields)
    with transaction.atomic():
        tournament.save()  # the commitment names the event's id
        tournament.seed_commitment = eventseed.commitment(tournament.pk, tournament.seed)
        tournament.save(update_fields=["seed_commitment"])
    return tournament


def new_tournament(league: League, by: AbstractBaseUser, name: str, **fields: Any) -> Tournament:
    """The tournament ``create_tournament`` would make, checked but not saved (the
    admin's form checks a new event with it)."""
    check_organiser(league, by)
    name = name.strip()
    if not name:
        raise TournamentError("a tournament needs a name")
    slug = slugify(name)
    if not slug or league.tournaments.filter(slug=slug).exists():
        raise TournamentError(f"this league has a tournament named “{name}” already")
    kind = fields.pop("kind", DEFAULT_KIND)  # the game it plays, chosen once
    unknown = set(fields) - set(SETTINGS)
    if unknown:
        raise TournamentError(f"unknown settings: {', '.join(sorted(unknown))}")
    try:
        kind_named(kind)
    except UnknownKind:
        raise TournamentError(f"there is no game {kind!r}") from None
    tournament = Tournament(league=league, name=name, slug=slug, seed=_new_seed(), kind=kind)
    set_settings(tournament, fields)
    check_settings(tournament)
    return tournament


def update_tournament(tournament: Tournament, by: AbstractBaseUser, **changes: Any) -> Tournament:
    """An organiser's edit of the event's settings: any of them while it is prepared or
    registering; once it has started only ``SAFE_ONCE_STARTED`` (``SAFE_ONCE_FINISHED``
    once it is over). The event's name changes; its address (slug) stays."""
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        apply_changes(locked, changes)
        if changes:
            locked.save(update_fields=model_fields(changes))
        return locked


def _new_seed() -> int:
    """The event's seed, from the operating system's secure source; no one chooses it
    (``new_tournament`` takes no seed, and no setting or form holds it)."""
    return secrets.randbits(62)


def open_registration(tournament: Tournament, by: AbstractBaseUser) -> None:
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        if locked.status != Tournament.Status.DRAFT:
            raise TournamentError("registration opens only for an event being prepared")
        locked.status = Tournament.Status.REGISTRATION
        locked.save(update_fields=["status"])


def lock_event(tournament: Tournament) -> Tournament:
    """The event's row, locked for the caller's transaction, read again.

    Every change to an event's entries or rounds locks its row first: registrations
    racing for the last place under the cap, a round advanced by two finishing games."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def register(tournament: Tournament, user: AbstractBaseUser, now: datetime | None = None) -> Entry:
    """The player enters the event: registered, or on the waiting list once the cap is
    reached. A member of the league only (an open league takes them in on the way)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = lock_event(tournament)
        _check_may_register(locked, user, now)
        _ensure_member(locked.league, user)
        entry = Entry.objects.filter(tournament=locked, user=user).first()
        if entry is not None and entry.status not in (Entry.Status.WITHDRAWN,):
            raise TournamentError("you are registered already")
        full = locked.cap is not None and _taken_places(locked) >= locked.cap
        status = Entry.Status.WAITING if full else Entry.Status.REGISTERED
        joined = _current_round(locked) + 1 if locked.status == Tournament.Status.RUNNING else 1
        if entry is None:
            entry = Entry.objects.create(
                tournament=locked, user=user, status=status, registered_at=now, joined_round=joined
            )
        else:
            entry.status, entry.registered_at, entry.joined_round = status, now, joined
            entry.left_after_round = None
            entry.save(
                update_fields=["status", "registered_at", "joined_round", "left_after_round"]
            )
        notify.registered(locked, entry)
        return entry


def _check_may_register(tournament: Tournament, user: AbstractBaseUser, now: datetime) -> None:
    refusal = registration_refusal(tournament, now)
    if refusal is not None:
        raise TournamentError(refusal)


def _ensure_member(league: League, user: AbstractBaseUser) -> None:
    membership = Membership.objects.filter(league=league, user=user).first()
    if membership is not None and membership.status == Membership.Status.ACTIVE:
        return
    if league.joining == League.Joining.OPEN:
        join_league(league, user)
        return
    raise TournamentError(f"join {league} first: its organisers approve new members")


def _taken_places(tournament: Tournament) -> int:
    return tournament.entries.filter(
        status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN]
    ).count()


def _current_round(tournament: Tournament) -> int:
    return current_round(tournament)


def withdraw(tournament: Tournament, user: AbstractBaseUser) -> Entry:
    """The player leaves the event. Before it starts their place goes to the first on
    the waiting list; once it runs they stay in the standings, and a game of theirs
    still running is forfeited (R31). A finished event's standings are final: no
    withdrawal changes them."""
    with transaction.atomic():
        locked = lock_event(tournament)
        _check_not_finished(locked)
        entry = Entry.objects.filter(tournament=locked, user=user).first()
        if entry is None or entry.status in (Entry.Status.WITHDRAWN, Entry.Status.DROPPED):
            raise TournamentError("you are not playing in this event")
        had_place = entry.plays
        entry.status = Entry.Status.WITHDRAWN
        entry.left_after_round = _current_round(locked)
        entry.save(update_fields=["status", "left_after_round"])
        running = locked.status == Tournament.Status.RUNNING
        if not running and had_place:
            _promote_from_waiting_list(locked)
    if running:
        # After the event's lock is let go: a forfeit locks its game, and a game that
        # ends locks the event (the result receiver); taking them the other way round
        # here could deadlock with a game ending at the same moment.
        _forfeit_running_games(entry)
    return entry


def _check_not_finished(tournament: Tournament) -> None:
    # A player who leaves counts in their opponents' tie-breaks as one who left (the
    # 0.33 floor): leaving a finished event would move its final standings.
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("this event has finished: its standings are final")


def _forfeit_running_games(entry: Entry) -> None:
    """The player's seat forfeits in each of their event's games still running (R31); a
    game still in setup cannot be forfeited, and ends at the round's deadline."""
    for seat in entry.seats.select_related("table__game"):
        game = seat.table.game
        if game.status != Game.Status.PLAY or entry.user is None:
            continue
        game_seat = game.seats.filter(user=entry.user).first()
        if game_seat is not None and game_seat.rank is None:
            try:
                games.forfeit_seat(game.pk, None, game_seat.pk, Move.Source.WEB)
            except GameError:
                pass  # already out of that game


def _promote_from_waiting_list(tournament: Tournament) -> Entry | None:
    if tournament.cap is not None and _taken_places(tournament) >= tournament.cap:
        return None
    first = (
        tournament.entries.filter(status=Entry.Status.WAITING)
        .order_by("registered_at", "pk")
        .first()
    )
    if first is not None:
        first.status = Entry.Status.REGISTERED
        first.save(update_fields=["status"])
        notify.promoted(tournament, first)
    return first


def check_in(tournament: Tournament, user: AbstractBaseUser, now: datetime | None = None) -> Entry:
    """The player confirms they will play: required before round 1 when the event has a
    check-in (a registered player who has not checked in is dropped at the start)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = lock_event(tournament)
        if locked.status != Tournament.Status.REGISTRATION:
            raise TournamentError("check-in is over: the event has started")
        if locked.check_in_opens_at is None or now < locked.check_in_opens_at:
            raise TournamentError("check-in has not opened yet")
        entry = Entry.objects.filter(tournament=locked, user=user).first()
        if entry is None or entry.status != Entry.Status.REGISTERED:
            raise TournamentError(
                "you have checked in already"
                if entry is not None and entry.status == Entry.Status.CHECKED_IN
                else "you have no place in this event to check in for"
            )
        entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, now
        entry.save(update_fields=["status", "checked_in_at"])
        return entry


def add_bot(tournament: Tournament, by: AbstractBaseUser, bot: str = "") -> Entry:
    """A bot entry (for tests and casual events), added by an organiser; ``bot``: one of
    its game's bots by name, its first if none is named (World War 5: greedy)."""
    check_organiser(tournament.league, by)
    bot = bot or next(iter(kind_of(tournament).bots), "")
    if bot not in kind_of(tournament).bots:
        raise TournamentError(f"unknown bot {bot!r}")
    with transaction.atomic():
        locked = lock_event(tournament)
        if locked.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise TournamentError("bots join before the event starts")
        return Entry.objects.create(
            tournament=locked, bot=bot, status=Entry.Status.CHECKED_IN, checked_in_at=timezone.now()
        )


# --- organisers' actions on a running event --------------------------------------------


def start_event(tournament: Tournament, by: AbstractBaseUser) -> None:
    """An organiser starts the event now (instead of at its start time)."""
    from tournaments.services import rounds

    check_organiser(tournament.league, by)
    if rounds.start(tournament.pk) is None:
        raise TournamentError("only an event whose registration is open can start")


def pause_event(tournament: Tournament, by: AbstractBaseUser) -> int:
    """No round is paired or adjudicated while an event is paused, and its running games
    are paused (their deadlines move on by the pause when it is resumed). Returns how
    many games were paused."""
    return _set_paused(tournament, by, pause=True)


def resume_event(tournament: Tournament, by: AbstractBaseUser) -> int:
    return _set_paused(tournament, by, pause=False)


def _set_paused(tournament: Tournament, by: AbstractBaseUser, pause: bool) -> int:
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        was, now = (
            (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
            if pause
            else (Tournament.Status.PAUSED, Tournament.Status.RUNNING)
        )
        if locked.status != was:
            raise TournamentError(
                "only a running event can be paused" if pause else "this event is not paused"
            )
        moment = timezone.now()
        if not pause and locked.paused_at is not None:
            # The running round's deadline moves on by the pause, as its games' do.
            for made in locked.rounds.filter(status="running", deadline__isnull=False):
                made.deadline += moment - locked.paused_at
                made.save(update_fields=["deadline"])
        locked.status, locked.paused_at = now, moment if pause else None
        locked.save(update_fields=["status", "paused_at"])
        running = Game.objects.filter(
            tournament_table__round__tournament=locked,
            status__in=[Game.Status.SETUP, Game.Status.PLAY],
            paused_at__isnull=pause,
        )
        changed = 0
        for game_id in running.values_list("pk", flat=True):
            (games.pause_game if pause else games.resume_game)(game_id, by)
            changed += 1
        return changed


def drop_entry(tournament: Tournament, by: AbstractBaseUser, entry: Entry, note: str = "") -> Entry:
    """An organiser drops a player from later rounds (they stay in the standings). Before
    the start their place goes to the first on the waiting list. Not from a finished
    event: its standings are final."""
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        _check_not_finished(locked)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=locked)
        if not entry.plays and entry.status != Entry.Status.WAITING:
            raise TournamentError(f"{entry.name} is not playing")
        had_place = entry.plays
        entry.status = Entry.Status.DROPPED
        entry.left_after_round = _current_round(locked)
        entry.note = note.strip() or "dropped by an organiser"
        entry.save(update_fields=["status", "left_after_round", "note"])
        if had_place and locked.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            _promote_from_waiting_list(locked)
        return entry


def admit(tournament: Tournament, by: AbstractBaseUser, entry: Entry) -> Entry:
    """An organiser takes a player off the waiting list before the start, past the cap
    (which stays as it is for later registrations)."""
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=locked)
        if locked.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise TournamentError("players are admitted from the waiting list before the start")
        if entry.status != Entry.Status.WAITING:
            raise TournamentError(f"{entry.name} is not on the waiting list")
        entry.status = Entry.Status.REGISTERED
        entry.save(update_fields=["status"])
        notify.promoted(locked, entry)
        return entry


def reinstate(tournament: Tournament, by: AbstractBaseUser, entry: Entry) -> Entry:
    """An organiser takes a dropped player back for the rounds to come (while there are
    rounds to come: a finished event's standings are final)."""
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        _check_not_finished(locked)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=locked)
        if entry.status != Entry.Status.DROPPED:
            raise TournamentError(f"{entry.name} has not been dropped")
        entry.status = Entry.Status.CHECKED_IN if entry.checked_in_at else Entry.Status.REGISTERED
        not_started = locked.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
        if not_started and locked.cap is not None and _taken_places(locked) >= locked.cap:
            entry.status = Entry.Status.WAITING  # their place went to the waiting list
        entry.left_after_round = None
        entry.joined_round = min(entry.joined_round, _current_round(locked) + 1)
        entry.note = "reinstated by an organiser"
        entry.save(update_fields=["status", "left_after_round", "joined_round", "note"])
        return entry


def correct_result(
    tournament: Tournament,
    by: AbstractBaseUser,
    table_id: int,
    order: list[list[int]],
    reason: str = "",
) -> None:
    """An organiser corrects a finished table's result (after a dispute): the finishing
    order by entry, best first, ties in one group. The standings follow at once, the
    table's game shows the corrected result, and the table's players are mailed their
    old and new places with the organiser's ``reason``."""
    check_organiser(tournament.league, by)
    with transaction.atomic():
        locked = lock_event(tournament)
        table = (
            Table.objects.select_for_update().filter(pk=table_id, round__tournament=locked).first()
        )
        if table is None or table.finished_at is None:
            raise TournamentError("only a finished table's result can be corrected")
        seated = sorted(table.seats.values_list("entry_id", flat=True))
        if sorted(p for group in order for p in group) != seated or any(not g for g in order):
            raise TournamentError("a result ranks every player of the table once")
        before = table.result
        table.result = [list(group) for group in order]
        table.result_source = "corrected"
        table.save(update_fields=["result", "result_source"])
        if table.game is not None:
            _tell_correction(table, by, reason)
        notify.result_corrected(locked, table, before, reason.strip())


def _tell_correction(table: Table, by: AbstractBaseUser, reason: str) -> None:
    """The table's game takes the new ranks (its pages and record show them), and the
    receivers of ``result_corrected`` (ratings) are told them."""
    from tournaments.services.rounds import entries_by_game_seat
    from tournaments.signals import result_corrected

    rank_of: dict[int, int] = {}
    for group in table.result:
        rank = len(rank_of) + 1
        rank_of.update({entry: rank for entry in group})
    by_seat = entries_by_game_seat(table, table.game)
    ranks = {seat: rank_of[entry] for seat, entry in by_seat.items()}
    try:
        games.correct_result(table.game.pk, by, ranks, reason)
    except GameError as refusal:
        raise TournamentError(str(refusal)) from None
    result_corrected.send(sender=Table, game=table.game, ranks=ranks)
