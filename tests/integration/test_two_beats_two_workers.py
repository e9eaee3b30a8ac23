"""Two beats and two workers (real Celery processes, PostgreSQL, Redis) run a Swiss
event of two rounds and a ladder season, every periodic job fired by both beats: nothing
is done twice, nothing is lost, and every deadline is handled within its bound, also the
one whose worker is killed (SIGKILL) in the middle of handling it.

The players are people who never decide (and two bots, in the event): the test keeps
their clock. Each pending decision of a person is reminded at once and falls due
``LEAD`` later; the deadline sweep claims it, and the missed-decision job grants its
grace (whose deadline the clock brings forward again) or decides for the player. The
test moves each round's deadline into the past once its games have missed decisions
to show; the ladder's games end at their time, its season at its length.

The killed worker is caught holding a missed deadline: the test keeps a mail with the
key of that deadline's grace notice uncommitted, so the job waits on it, its game locked
and claimed. Once the worker is dead, the claim expires (DEADLINE_CLAIM_EXPIRES_SECONDS)
and a later sweep hands the deadline to the other worker: within 2 *
PERIODIC_JOBS_EVERY + DEADLINE_CLAIM_EXPIRES_SECONDS of its passing, the bound the README
states.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import Profile
from accounts.services import update_profile
from games.models import Game
from games.selectors import ACTIVE, waiting_seats
from mail.models import OutgoingMail
from mail.services import queue_mail
from ratings.models import JournalEntry, LadderGame, LadderPlayer, Season
from ratings.services import ladder as ladders
from tests.integration.helpers import CeleryProcesses, SmtpSink, wait_until
from tests.personas import make_user, persona
from tournaments import services
from tournaments.models import Round, Table, Tournament

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

anna = persona("anna")

EVERY = 1  # PERIODIC_JOBS_EVERY, seconds, as the integration tests' processes run
CLAIM_EXPIRES = 3  # DEADLINE_CLAIM_EXPIRES_SECONDS
# The README's bounds on how late a deadline is handled, while a beat and a worker run:
# within two sweeps (a round's or a ladder game's deadline, a season's end, and a missed
# decision's, whose first sweep may find a move holding the game); a missed decision
# whose worker died while handling it, within a sweep, the claim's expiry and a sweep.
SWEPT_WITHIN = timedelta(seconds=2 * EVERY)
BOUND = timedelta(seconds=2 * EVERY + CLAIM_EXPIRES)
# What the bounds leave out: the time the job itself takes to reach a worker and run
# (a process start-up, on the shared test machine), which the test allows on top.
RUNNING = timedelta(seconds=1.5)
LEAD = timedelta(seconds=1.5)  # a person's decision falls due this long after it is due
MISSED_PER_GAME = 4  # a round's deadline passes once each of its games missed as many
SEASON = timedelta(seconds=14)
LADDER_GAME = timedelta(seconds=6)
WORKERS = ("worker1", "worker2")


@pytest.fixture
def worker_environment() -> dict[str, str]:
    return {
        "DEADLINE_CLAIM_EXPIRES_SECONDS": str(CLAIM_EXPIRES),
        # Jobs a dead worker held besides the one it was killed in: taken up in moments.
        "BOT_STALLED_SECONDS": "3",
        "MAIL_SEND_LOST_AFTER_SECONDS": "4",
    }


@pytest.fixture
def site(celery: CeleryProcesses) -> Iterator[CeleryProcesses]:
    """The fixture's worker and beat, and a second of each."""
    celery.start_worker("worker2")
    celery.start_beat("beat2")
    yield celery


Key = tuple[int, int, int, bool]  # game, turn, seat, whether its grace was used


class Clock:
    """The persons' clock: each pending decision of a person is reminded now and falls
    due ``LEAD`` from now. Keeps every deadline it set, by decision."""

    def __init__(self) -> None:
        self.deadlines: dict[Key, datetime] = {}

    def tick(self) -> None:
        now = timezone.now()
        pending = Game.objects.filter(
            status__in=ACTIVE, paused_at__isnull=True, deadline__gt=now + LEAD
        )
        for game in pending.select_related("to_move"):
            people = [seat for seat in waiting_seats(game) if seat.user_id is not None]
            if people:
                self.due_at(game, now + LEAD, [seat.pk for seat in people], now)

    def due_at(self, game: Game, due: datetime, seats: list[int], now: datetime) -> bool:
        # Conditional: a job that changed the game meanwhile wins, and nothing is kept.
        changed = Game.objects.filter(
            pk=game.pk,
            deadline=game.deadline,
            turn_number=game.turn_number,
            grace_used=game.grace_used,
        ).update(deadline=due, remind_at=now if game.remind_at is not None else None)
        if changed:
            for seat in seats:
                self.deadlines[(game.pk, game.turn_number, seat, game.grace_used)] = due
        return bool(changed)


def handled() -> dict[Key, datetime]:
    """Each missed deadline handled, by the notice its job queued in its transaction: its
    grace, or the decision made for the player (a default move or a forfeit)."""
    done = {}
    for key, at in OutgoingMail.objects.filter(kind="missed").values_list(
        "dedup_key", "created_at"
    ):
        _, game, turn, seat, _, what = key.split(":")
        done[(int(game), int(turn), int(seat), what != "grace")] = at
    return done


def missed_in(game_ids: list[int]) -> dict[int, int]:
    counts: Counter[int] = Counter()
    for game, _, _, _ in handled():
        if game in game_ids:
            counts[game] += 1
    return counts


class HeldMail:
    """A mail with ``key`` written in a transaction of the test's own, left open until
    ``release()``, which rolls it back: a job writing a mail with that key waits."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.written = threading.Event()
        self.released = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._hold)
        self.thread.start()
        assert self.written.wait(10), f"the held mail was not written: {self.error!r}"

    def _hold(self) -> None:
        try:
            with transaction.atomic():
                queue_mail(
                    "held@example.com", "Held", "held", "", kind="missed", dedup_key=self.key
                )
                self.written.set()
                self.released.wait(60)
                transaction.set_rollback(True)
        except BaseException as error:  # reported to the test, never lost in a thread
            self.error = error
        finally:
            connection.close()

    def release(self) -> None:
        self.released.set()
        self.thread.join(10)
        assert not self.thread.is_alive() and self.error is None, repr(self.error)


def worker_waiting_on_a_mail_key() -> str | None:
    """The worker whose database session waits for a lock while writing a mail."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name FROM pg_stat_activity WHERE application_name = ANY(%s) "
            "AND wait_event_type = 'Lock' AND query LIKE %s",
            [list(WORKERS), f'INSERT INTO "{OutgoingMail._meta.db_table}"%'],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def unfinished_jobs(log: str) -> list[str]:
    """The tasks a worker's log says it received and never finished."""
    received = {
        task_id: name for name, task_id in re.findall(r"Task ([\w.]+)\[([\w-]+)\] received", log)
    }
    ended = set(re.findall(r"Task [\w.]+\[([\w-]+)\] (?:succeeded|failed|raised)", log))
    return sorted(name for task_id, name in received.items() if task_id not in ended)


def test_two_beats_and_two_workers_one_killed_mid_job_do_nothing_twice_and_lose_nothing(
    site: CeleryProcesses, sink: SmtpSink, anna: Any, django_user_model: Any
) -> None:
    started = time.monotonic()
    clock = Clock()
    league = services.create_league("Two Beats League", anna)

    # A ladder of six people, tables of three, each game ranked at its time.
    ladder = ladders.create_ladder(
        league,
        anna,
        "Two Beats ladder",
        player_count="3",
        season_length=SEASON,
        game_time=LADDER_GAME,
        max_wait=timedelta(0),
        recent_games=0,
    )
    climbers = [make_user(django_user_model, f"climber{n}") for n in range(6)]
    for user in climbers:
        ladders.join(ladder, user)
    first_season = ladder.seasons.get()

    # An event of four people and two bots, tables of three, two Swiss rounds.
    event = services.create_tournament(
        league, anna, "Two Beats Swiss", swiss_rounds=2, table_size=3
    )
    services.open_registration(event, anna)
    people = [make_user(django_user_model, f"entrant{n}") for n in range(4)]
    update_profile(people[0], "", "UTC", "digest")
    for user in people:
        services.register(event, user)
    for _ in range(2):
        services.add_bot(event, anna, "greedy")
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())

    # --- a worker killed in the middle of handling a missed deadline ----------------------

    def first_table_waiting_for_a_person() -> tuple[Game, Any] | None:
        for game in Game.objects.filter(tournament_table__isnull=False, status__in=ACTIVE):
            people_waiting = [s for s in waiting_seats(game) if s.user_id is not None]
            if people_waiting and not game.grace_used:
                return game, people_waiting[0]
        return None

    game, seat = wait_until(first_table_waiting_for_a_person, 30, "round 1 to wait for a person")
    held = HeldMail(f"missed:{game.pk}:{game.turn_number}:{seat.pk}:{seat.user_id}:grace")
    killed_deadline = timezone.now()
    assert clock.due_at(game, killed_deadline, [seat.pk], killed_deadline)
    holder = wait_until(
        worker_waiting_on_a_mail_key, 20, "a worker to handle the deadline and wait on its mail"
    )
    assert site.kill(holder) == -9
    held.release()

    # --- the event and the ladder run on ---------------------------------------------------

    Profile.objects.filter(user=people[0]).update(digest_due_at=timezone.now())
    ended_rounds: dict[int, datetime] = {}
    seated_twice: list[dict[str, int]] = []
    deadline = time.monotonic() + 75
    while True:
        assert time.monotonic() < deadline, f"the event and season did not end:\n{site.logs()}"
        clock.tick()
        running = Round.objects.filter(tournament=event, status=Round.Status.RUNNING).first()
        if running is not None and running.number not in ended_rounds:
            games = list(running.tables.values_list("game_id", flat=True))
            counts = missed_in(games)
            over = set(
                Game.objects.filter(pk__in=games, status=Game.Status.OVER).values_list(
                    "pk", flat=True
                )
            )
            if all(counts[g] >= MISSED_PER_GAME or g in over for g in games):
                ended_rounds[running.number] = timezone.now()
                Round.objects.filter(pk=running.pk).update(deadline=ended_rounds[running.number])
        seated_twice += list(  # a ladder player in two games at once: a table formed twice
            LadderGame.objects.filter(finished_at__isnull=True)
            .order_by()
            .values("seats__player")
            .annotate(games=Count("pk"))
            .filter(games__gt=1)
        )
        first_season.refresh_from_db()
        season_over = (
            first_season.ended_at is not None
            and not LadderGame.objects.filter(
                season=first_season, finished_at__isnull=True
            ).exists()
        )
        event_over = Tournament.objects.get(pk=event.pk).status == Tournament.Status.FINISHED
        if season_over and event_over:
            break
        time.sleep(0.2)
    end = timezone.now()
    wait_until(
        lambda: not OutgoingMail.objects.exclude(status=OutgoingMail.Status.SENT).exists(),
        20,
        lambda: (
            "every mail sent: "
            + str(list(OutgoingMail.objects.exclude(status="sent").values_list("kind", "status")))
        ),
    )
    took = time.monotonic() - started

    # --- the killed worker's deadline: handled by the other, within the bound --------------

    done = handled()
    killed_key = (game.pk, game.turn_number, seat.pk, False)
    assert done[killed_key] - killed_deadline <= BOUND + RUNNING
    assert done[killed_key] - killed_deadline > timedelta(seconds=CLAIM_EXPIRES)  # it waited
    assert unfinished_jobs(site.log(holder)) == ["games.tasks.handle_missed_decision"]

    # --- every missed deadline handled once, none twice, each within the bound ------------

    assert set(done) <= set(clock.deadlines)  # nothing handled that was not due
    ended = dict(Game.objects.values_list("pk", "finished_at"))
    required = 0
    for key, due in clock.deadlines.items():
        within = (BOUND if key == killed_key else SWEPT_WITHIN) + RUNNING
        # Passed long enough before its game ended (at its round's or ladder game's
        # deadline) or the test did, it must have been handled, and in time.
        if due + within <= (ended[key[0]] or end):
            required += 1
            assert key in done, f"the deadline {key} at {due} was never handled"
        if key in done:
            assert done[key] - due <= within, (key, due, done[key])
    assert required >= 10
    lateness = sorted(
        (done[k] - clock.deadlines[k]).total_seconds() for k in done if k != killed_key
    )

    # --- every mail sent once; the reminders and the digest once ---------------------------

    # The site runs on (the ladder's next season forms its tables): a mail queued after
    # the wait above is awaited too, and then every mail the outbox holds as sent was
    # accepted by the server once, and the server accepted nothing else.
    rows = list(OutgoingMail.objects.values_list("message_id", "dedup_key", "kind", "to_address"))
    wait_until(
        lambda: (
            not OutgoingMail.objects.filter(message_id__in=[row[0] for row in rows])
            .exclude(status=OutgoingMail.Status.SENT)
            .exists()
        ),
        20,
        "every mail queued by the end of the run sent",
    )
    sent = set(
        OutgoingMail.objects.filter(status=OutgoingMail.Status.SENT).values_list(
            "message_id", flat=True
        )
    )
    delivered = Counter(mail.message_id for mail in sink.delivered())
    known = set(OutgoingMail.objects.values_list("message_id", flat=True))
    assert {row[0] for row in rows} <= sent
    assert {m: delivered[m] for m in sent if delivered[m] != 1} == {}  # none lost or doubled
    assert {m: n for m, n in delivered.items() if n != 1 or m not in known} == {}
    reminded = [key for _, key, kind, _ in rows if kind == "reminder"]
    assert reminded
    compressed = {(g, t, s, due.isoformat()) for (g, t, s, _), due in clock.deadlines.items()}
    for key in reminded:  # each for a deadline the clock set, of a decision then pending
        _, g, t, s, _, due = key.split(":", 5)
        assert (int(g), int(t), int(s), due) in compressed, key
    digests = [to for _, _, kind, to in rows if kind == "digest"]
    assert digests == [people[0].email]

    # --- the event: two rounds, each paired, seated and ended once -------------------------

    made = list(event.rounds.order_by("number"))
    assert [(r.number, r.status) for r in made] == [(1, "finished"), (2, "finished")]
    entries = sorted(event.entries.values_list("pk", flat=True))
    for played in made:
        seated = list(Table.objects.filter(round=played).values_list("seats__entry_id", flat=True))
        assert sorted(seated) == entries  # six players, two tables of three, no byes
        tables = Table.objects.filter(round=played)
        assert Game.objects.filter(tournament_table__in=tables).count() == tables.count() == 2
        assert played.finished_at is not None
        assert played.finished_at - ended_rounds[played.number] <= SWEPT_WITHIN + RUNNING
    for told in ("results:1", "results:2", "final", "table:1", "table:2"):
        mails = OutgoingMail.objects.filter(dedup_key__startswith=f"tournament:{event.pk}:{told}:")
        assert mails.count() == len(people), told  # the bots have no address

    # --- the ladder: one season ended once, each table formed once, each game rated once ---

    seasons = list(Season.objects.filter(ladder=ladder).order_by("number"))
    assert [s.number for s in seasons] == [1, 2]
    assert seasons[0].ended_at is not None and seasons[0].ends_at is not None
    assert seasons[0].ended_at - seasons[0].ends_at <= SWEPT_WITHIN + RUNNING
    ladder_games = list(LadderGame.objects.filter(season=seasons[0]).prefetch_related("seats"))
    assert len(ladder_games) >= 4  # several tables, formed again as games ended
    assert seated_twice == []
    # The next season's tables form and end while the test reads: each player's count and
    # their unfinished games are read in one statement, so from one snapshot.
    players = LadderPlayer.objects.filter(ladder=ladder).annotate(
        running=Count("seats", filter=Q(seats__ladder_game__finished_at__isnull=True))
    )
    for player in players:
        assert any(player.pk in {s.player_id for s in g.seats.all()} for g in ladder_games)
        assert player.active_games == player.running <= 1, player
    for ladder_game in ladder_games:
        assert ladder_game.finished_at is not None and ladder_game.deadline is not None
        assert ladder_game.finished_at - ladder_game.deadline <= SWEPT_WITHIN + RUNNING
    rated = JournalEntry.objects.filter(season=seasons[0])
    assert rated.count() == sum(g.seats.count() for g in ladder_games)

    print(
        f"\n{len(done)} missed deadlines handled ({required} required), "
        f"{len(clock.deadlines)} set, handled {lateness[0]:.2f}-{lateness[-1]:.2f} s late "
        f"(the killed worker's: "
        f"{(done[killed_key] - killed_deadline).total_seconds():.2f} s); "
        f"{len(rows)} mails; {len(ladder_games)} ladder games; {took:.0f} s"
    )
