"""Mail benchmark: "your decision" mails queued in the outbox, then delivered over SMTP.

    .venv/bin/python -m bench.mail [--mails 10000] [--workers 1 4] [--pool thread process]

On the local PostgreSQL database ``ww5_bench`` (created if missing, migrated; its games
and outbox tables are emptied first) with production settings (as bench.web), starts a
real SMTP server (aiosmtpd) in a process of its own on 127.0.0.1, on a free port; it
counts the messages and bytes it receives and checks each has a Message-ID (seen once)
and both a text/plain and a text/html part (the check runs between the timed phases).
``MAIL_TRANSPORT`` is Django's SMTP backend pointed at it.

A handful of real games are created and played a few decisions in with the services,
by players with email addresses. Each seat's "your decision" mail is rendered ONCE with
``games.notify.render_mail`` and the rendered texts are reused, so the figures are about
queueing and delivery, not template rendering; but each mail carries its board, which
the sender draws as a PNG for every mail it sends (as the site does), and the server
checks every mail has its image/png part. Then, for each sender pool and count:

1. ``--mails`` mails are queued with ``mail.services.queue_mail`` (distinct dedup keys,
   ``--batch`` mails per transaction), with the after-commit hand-over to the send task
   (``mail.services.send_later``) replaced by a list: nothing is sent while queueing;
2. the queued ids are delivered with ``mail.services.send_now`` (what the send task
   runs) from N threads of this process or N forked processes (as Celery's prefork
   pool), each with its own database connection and the SMTP connection ``send_now``
   keeps open between mails; every row must end ``sent`` and every mail must have
   reached the server, verified.

Finally, without the database, the same messages (each with its board picture, drawn
before the clock starts), written by Django's own message classes, are sent straight
through Django's SMTP backend, once with a connection per message and once over a
single connection, to show what the connection set-up costs; each delivery through the
outbox is then given as a share of the single connection's rate (the aim: at least
0.9). The messages as the site writes them (``mail.services``, which writes the same
bytes with fewer calls) are sent over one connection too, for comparison. Every phase is bounded
by ``--timeout``; the script and its SMTP server stop by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections import Counter
from email import message_from_bytes
from typing import Any

from bench.web import DATABASE_URL, cpu_seconds, create_database, database_processes, server_env

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
HOST = "127.0.0.1"


# --- the SMTP server (its own process) -------------------------------------------------


class Receiver:
    """An aiosmtpd handler that counts what it receives and keeps it until the next
    "stats" request checks it, so checking costs nothing while the senders are timed."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0
        self.verified = 0
        self.problems: Counter[str] = Counter()
        self.message_ids: set[str] = set()
        self.unchecked: list[tuple[bytes, int]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.original_content or envelope.content
        self.messages += 1
        self.bytes += len(data)
        self.unchecked.append((data, len(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"

    def check(self, data: bytes, recipients: int) -> str:
        if not recipients:
            return "no recipient"
        message = message_from_bytes(data)
        message_id = message.get("Message-ID", "")
        if not message_id:
            return "no Message-ID"
        if message_id in self.message_ids:
            return "Message-ID seen before"
        self.message_ids.add(message_id)
        types = {part.get_content_type() for part in message.walk()}
        if not {"text/plain", "text/html", "image/png"} <= types:
            return f"parts: {sorted(types)}"
        return ""

    def stats(self) -> dict[str, Any]:
        unchecked, self.unchecked = self.unchecked, []
        for data, recipients in unchecked:
            problem = self.check(data, recipients)
            if problem:
                self.problems[problem] += 1
            else:
                self.verified += 1
        return {
            "messages": self.messages,
            "bytes": self.bytes,
            "verified": self.verified,
            "problems": dict(self.problems),
        }


def serve_smtp(lifetime: float) -> None:
    """Run the SMTP server: print its port, answer "stats" lines on stdin with JSON, stop
    at the end of stdin or after ``lifetime`` seconds, whichever comes first."""
    from aiosmtpd.controller import Controller

    receiver = Receiver()
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = int(probe.getsockname()[1])
    # A fixed server name: without it aiosmtpd looks its host name up for every connection.
    controller = Controller(receiver, hostname=HOST, port=port, server_hostname="localhost")
    controller.start()

    async def checked() -> dict[str, Any]:
        return receiver.stats()

    print(f"port {port}", flush=True)
    until = time.monotonic() + lifetime
    try:
        while time.monotonic() < until:
            ready, _, _ = select.select([sys.stdin], [], [], 1.0)
            if not ready:
                continue
            line = sys.stdin.readline()
            if not line:
                break
            # The handler runs on the controller's event loop: check there, not meanwhile.
            stats = asyncio.run_coroutine_threadsafe(checked(), controller.loop)
            print(json.dumps(stats.result(timeout=120)), flush=True)
    finally:
        controller.stop()


class SmtpServer:
    """The parent's handle on the SMTP server process."""

    def __init__(self, lifetime: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.mail", "--smtp-server", "--timeout", str(lifetime)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.port = int(self.read_line().split()[1])

    def read_line(self, timeout: float = 150.0) -> str:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise RuntimeError("the SMTP server did not answer")
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the SMTP server stopped")
        return line

    def stats(self) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write("stats\n")
        self.process.stdin.flush()
        result: dict[str, Any] = json.loads(self.read_line())
        return result

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


# --- the site ------------------------------------------------------------------------


def setup_django(smtp_port: int) -> None:
    os.environ.update(server_env(DATABASE_URL))  # production settings, as bench.web
    os.environ.pop("CACHE_URL", None)  # nothing here reads the cache
    os.environ.pop("REDIS_URL", None)  # no broker: the send hand-over is patched anyway
    os.environ.update(
        EMAIL_HOST=HOST,
        EMAIL_PORT=str(smtp_port),
        EMAIL_USE_TLS="0",
        EMAIL_HOST_USER="",
        EMAIL_HOST_PASSWORD="",
        SITE_URL="https://ww5.example.org",
    )
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    assert settings.MAIL_TRANSPORT == SMTP_BACKEND, settings.MAIL_TRANSPORT
    assert settings.EMAIL_HOST == HOST
    call_command("migrate", verbosity=0, interactive=False)


def play_games(players: list[int], decisions: int) -> list[Any]:
    """Real games through the services, each played ``decisions`` decisions in (random
    legal actions, fixed seed), by players with email addresses and their own time zone."""
    import random

    from django.contrib.auth.models import User

    from accounts.models import Profile
    from accounts.services import update_profile
    from games import services
    from games.models import Game
    from ww5 import engine

    # A six-player game is meant: the engine's warning about its length (R3) is known.
    warnings.filterwarnings("ignore", category=engine.ManyPlayersWarning)
    rng = random.Random(5)
    homes = list(engine.BOARDS["original"].continents)
    zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney"]
    games = []
    n = 0
    for g, count in enumerate(players):
        users = []
        for _ in range(count):
            n += 1
            user, _ = User.objects.get_or_create(username=f"bench-mail-{n}")
            user.email = f"bench-mail-{n}@example.org"
            user.save(update_fields=["email"])
            update_profile(user, f"Player {n}", zones[n % len(zones)], Profile.Notify.EACH)
            users.append(user)
        game = services.create_game(
            users[0], name=f"bench mail {g + 1}", seats=count, home=homes[0]
        )
        for i, user in enumerate(users[1:], start=1):
            services.join_game(game.pk, user, home=homes[i])
        for _ in range(decisions):
            game.refresh_from_db()
            if game.status not in (Game.Status.SETUP, Game.Status.PLAY):
                break
            assert game.to_move is not None and game.to_move.user is not None
            action = rng.choice(engine.legal_actions(services.state_of(game)))
            services.submit_move(game.pk, game.to_move.user, action, game.turn_number)
        game.refresh_from_db()
        games.append(game)
    return games


def render_all(games: list[Any]) -> list[dict[str, Any]]:
    """Each seat's decision mail, rendered once: the arguments for ``queue_mail``."""
    from games import notify, seen, services
    from mail.services import unsubscribe_url

    rendered = []
    for game in games:
        state = services.state_of(game)
        for seat in game.seats.select_related("user__profile").order_by("number"):
            user = seat.user
            context = notify.decision_context(game, seat, state)
            subject, text, html = notify.render_mail("decision", context, user)
            spec = notify.picture_spec(game, context["names"], seen.seat_viewer(game, seat))
            rendered.append(
                {
                    "to_address": user.email,
                    "subject": subject,
                    "text": text,
                    "html": html,
                    "to_user": user,
                    "thread": notify.thread_for(game),
                    "unsubscribe_url": unsubscribe_url(user),
                    "inline_part": (notify.BOARD_PART, spec) if spec is not None else None,
                }
            )
    return rendered


def empty_outbox() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        # CASCADE: the audit of received mail points at the answers it sent.
        cursor.execute("TRUNCATE mail_outgoingmail RESTART IDENTITY CASCADE")


# --- the two phases ------------------------------------------------------------------


def queue(
    rendered: list[dict[str, Any]], mails: int, batch: int, handed: list[int], until: float
) -> tuple[int, float]:
    from django.db import transaction

    from mail.services import queue_mail

    start = time.perf_counter()
    queued = 0
    while queued < mails and time.monotonic() < until:
        with transaction.atomic():
            for n in range(queued, min(queued + batch, mails)):
                mail = rendered[n % len(rendered)]
                made = queue_mail(
                    mail["to_address"],
                    mail["subject"],
                    mail["text"],
                    mail["html"],
                    kind="decision",
                    to_user=mail["to_user"],
                    thread=mail["thread"],
                    dedup_key=f"bench-decision:{n}",
                    unsubscribe_url=mail["unsubscribe_url"],
                    inline_part=mail["inline_part"],
                )
                assert made is not None
                queued += 1
    seconds = time.perf_counter() - start
    assert len(handed) == queued, (len(handed), queued)
    return queued, seconds


def send_share(
    ids: list[int], until: float, events: dict[str, Any], results: Any, name: str
) -> None:
    """A sender: its share of the outbox with ``send_now``, one mail after another.

    It connects to the database first, says it is ready and waits for "go"; once done
    it keeps its connection until "release", so the main process can read the CPU time
    of the PostgreSQL processes serving the senders. Runs as a thread or a process."""
    from django.db import connection, connections

    from mail.services import release_connection, send_now

    done: Counter[str] = Counter()
    error = ""

    def count_sql(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        done["SQL statements"] += 1
        return execute(sql, params, many, context)

    try:
        connection.ensure_connection()
        events[f"ready {name}"].set()
        events["go"].wait(30)
        with connection.execute_wrapper(count_sql):
            for mail_id in ids:
                if time.monotonic() > until:
                    done["not tried (time out)"] += 1
                    continue
                done[send_now(mail_id)] += 1
        release_connection()
    except BaseException as failure:  # reported by the main process
        error = repr(failure)
    finally:
        events[f"ready {name}"].set()
        results.put((name, dict(done), error))
        events["release"].wait(30)
        connections.close_all()  # this sender's own connection


def deliver(
    ids: list[int], workers: int, pool: str, until: float, smtp_pid: int
) -> tuple[Counter[str], float, dict[str, float]]:
    """Send ``ids`` from ``workers`` threads or processes: the results, the seconds, and
    the CPU seconds used meanwhile by the senders, their PostgreSQL processes and the
    SMTP server."""
    import multiprocessing
    import queue

    from django.db import connections

    names = [str(i) for i in range(workers)]
    senders: list[Any]
    if pool == "thread":
        events: dict[str, Any] = {k: threading.Event() for k in ["go", "release"]}
        events |= {f"ready {n}": threading.Event() for n in names}
        results: Any = queue.Queue()
        make: Any = threading.Thread
    else:
        connections.close_all()  # a forked child must not share the parent's connection
        from ww5 import boardpng

        boardpng.warm_up()  # as a worker's main process does before its pool forks
        context = multiprocessing.get_context("fork")
        events = {k: context.Event() for k in ["go", "release"]}
        events |= {f"ready {n}": context.Event() for n in names}
        results = context.Queue()
        make = context.Process
    senders = [
        make(target=send_share, args=(ids[i::workers], until, events, results, n), daemon=True)
        for i, n in enumerate(names)
    ]
    for sender in senders:
        sender.start()
    for n in names:
        events[f"ready {n}"].wait(30)
    own = [os.getpid()] + [s.pid for s in senders if pool == "process"]
    # The backends of this benchmark's database only, not those of others on the server.
    pids = {"senders": own, "postgres": database_processes(DATABASE_URL), "smtp": [smtp_pid]}
    before = {k: cpu_seconds(v) for k, v in pids.items()}
    start = time.perf_counter()
    events["go"].set()
    done: Counter[str] = Counter()
    errors = []
    for _ in names:
        try:
            name, counts, error = results.get(timeout=max(until - time.monotonic(), 0) + 30)
        except queue.Empty:
            done["sender still running"] += 1
            continue
        done.update(counts)
        if error:
            errors.append(f"sender {name}: {error}")
    seconds = time.perf_counter() - start
    used = {k: cpu_seconds(v) - before[k] for k, v in pids.items()}
    events["release"].set()
    for sender in senders:
        sender.join(30)
    if errors:
        raise RuntimeError("; ".join(errors))
    return done, seconds, used


def statuses() -> dict[str, int]:
    from django.db.models import Count

    from mail.models import OutgoingMail

    rows = OutgoingMail.objects.order_by().values("status").annotate(n=Count("id"))
    return {row["status"]: row["n"] for row in rows}


def measure(
    server: SmtpServer,
    rendered: list[dict[str, Any]],
    args: argparse.Namespace,
    workers: int,
    pool: str,
) -> float:
    """Queue and deliver ``args.mails`` mails; the mails delivered a second."""
    import mail.services

    empty_outbox()
    handed: list[int] = []
    mail.services.send_later = handed.extend  # type: ignore[assignment]
    queued, queue_seconds = queue(
        rendered, args.mails, args.batch, handed, time.monotonic() + args.timeout
    )
    print(
        f"queued {queued:,} mails in {queue_seconds:.2f} s = {queued / queue_seconds:,.0f} "
        f"mails/s ({args.batch} a transaction)",
        flush=True,
    )

    before = server.stats()
    until = time.monotonic() + args.timeout
    results, seconds, used = deliver(handed, workers, pool, until, server.process.pid)
    after = server.stats()

    received = after["messages"] - before["messages"]
    verified = after["verified"] - before["verified"]
    size = (after["bytes"] - before["bytes"]) / max(received, 1)
    rows = statuses()
    statements = results.pop("SQL statements", 0)
    sent = results["sent"]
    per_mail = 1000 / max(sent, 1)
    # Rows that did not end "sent", mails the server did not get or could not verify.
    failures = (queued - rows.get("sent", 0)) + abs(received - sent) + (received - verified)
    senders = f"{workers} thread(s)" if pool == "thread" else f"{workers} process(es)"
    print(
        f"{senders}: delivered {sent:,} mails in {seconds:.2f} s = "
        f"{sent / seconds:,.0f} mails/s (aim >= 200)\n"
        f"  send_now results: {dict(results)}; outbox rows: {rows}; failures: {failures}\n"
        f"  SMTP server: received {received:,}, verified {verified:,} "
        f"(Message-ID, text and HTML parts, board picture), {size / 1024:.1f} KiB a mail, "
        f"problems: {after['problems'] or 'none'}\n"
        f"  CPU per mail: {'this process' if pool == 'thread' else 'the senders'} "
        f"{used['senders'] * per_mail:.2f} ms, "
        f"PostgreSQL {used['postgres'] * per_mail:.2f} ms, "
        f"SMTP server {used['smtp'] * per_mail:.2f} ms\n"
        f"  SQL statements per mail sent (the senders' own count): {statements / max(sent, 1):.2f}",
        flush=True,
    )
    return sent / seconds if not failures else 0.0


def smtp_only(rendered: list[dict[str, Any]], count: int, until: float) -> float:
    """Django's SMTP backend alone, sending the same messages as Django writes them:
    a connection per message against one for all of them; then, over one connection,
    the messages as the site writes them (``mail.services``). Returns Django's own
    rate over one connection, mails a second."""
    from django.core.mail import EmailMultiAlternatives, get_connection

    from mail.models import OutgoingMail
    from mail.services import build_message, new_message_id

    def message(n: int, djangos: bool) -> Any:
        """The n-th mail as the outbox sends it, board picture included, drawn here,
        before the clock starts; ``djangos``: written by Django's own classes, not
        the site's writer (the same parts, headers and bodies)."""
        mail = rendered[n % len(rendered)]
        inline_kind, inline_spec = mail["inline_part"] or ("", None)
        row = OutgoingMail(
            to_address=mail["to_address"],
            subject=mail["subject"],
            body_text=mail["text"],
            body_html=mail["html"],
            thread=mail["thread"],
            message_id=new_message_id(),
            unsubscribe_url=mail["unsubscribe_url"],
            inline_kind=inline_kind,
            inline_spec=inline_spec,
        )
        built = build_message(row)
        if djangos:
            built.__class__ = EmailMultiAlternatives
        return built

    def one_connection(djangos: bool) -> tuple[int, float]:
        messages = [message(n, djangos) for n in range(count)]
        start = time.perf_counter()
        connection = get_connection(SMTP_BACKEND, fail_silently=False)
        connection.open()
        sent = 0
        for n in range(0, count, 100):
            if time.monotonic() > until:
                break
            sent += connection.send_messages(messages[n : n + 100])
        connection.close()
        return sent, time.perf_counter() - start

    messages = [message(n, True) for n in range(count)]
    start = time.perf_counter()
    sent = 0
    for one in messages:
        if time.monotonic() > until:
            break
        connection = get_connection(SMTP_BACKEND, fail_silently=False)
        connection.open()
        sent += connection.send_messages([one])
        connection.close()
    seconds = time.perf_counter() - start
    print(
        f"SMTP backend alone, Django's messages, 1 thread, a connection per mail: {sent:,} "
        f"mails in {seconds:.2f} s = {sent / seconds:,.0f} mails/s"
    )
    sent, seconds = one_connection(djangos=True)
    print(
        f"SMTP backend alone, Django's messages, 1 thread, one connection for all: {sent:,} "
        f"mails in {seconds:.2f} s = {sent / seconds:,.0f} mails/s"
    )
    bare = sent / seconds
    sent, seconds = one_connection(djangos=False)
    print(
        f"SMTP backend alone, the site's messages, 1 thread, one connection for all: "
        f"{sent:,} mails in {seconds:.2f} s = {sent / seconds:,.0f} mails/s"
    )
    return bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[4], help="senders")
    parser.add_argument(
        "--pool",
        choices=["thread", "process"],
        nargs="+",
        default=["thread"],
        help="senders are threads (one process, each its own connection) or processes",
    )
    parser.add_argument("--batch", type=int, default=500, help="mails queued a transaction")
    parser.add_argument("--games", type=int, nargs="+", default=[2, 3, 4, 6, 2])
    parser.add_argument("--decisions", type=int, default=12, help="played into each game")
    parser.add_argument("--smtp-only", type=int, default=2000, help="0: skip")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per phase")
    parser.add_argument("--smtp-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.smtp_server:
        serve_smtp(args.timeout)
        return

    create_database(DATABASE_URL)
    phases = 2 * len(args.workers) * len(args.pool) + 2
    server = SmtpServer(lifetime=args.timeout * phases + 120)
    try:
        setup_django(server.port)
        from django.db import connection

        import mail.services

        mail.services.send_later = lambda ids: None  # type: ignore[assignment]
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE games_move, games_seat, games_game RESTART IDENTITY CASCADE")
        empty_outbox()
        start = time.perf_counter()
        games = play_games(args.games, args.decisions)
        rendered = render_all(games)
        print(
            f"{len(games)} games ({'+'.join(map(str, args.games))} players, {args.decisions} "
            f"decisions played in each), {len(rendered)} decision mails rendered once and "
            f"reused, in {time.perf_counter() - start:.1f} s; SMTP server (aiosmtpd, its "
            f"own process) on {HOST}:{server.port}; {os.cpu_count()} cores",
            flush=True,
        )
        print(
            "the after-commit hand-over to the send task is patched to collect the ids: "
            "nothing is sent while queueing",
            flush=True,
        )
        rates = {}
        for pool in args.pool:
            for workers in args.workers:
                rates[f"{workers} {pool}(s)"] = measure(server, rendered, args, workers, pool)
        if args.smtp_only:
            bare = smtp_only(rendered, args.smtp_only, time.monotonic() + args.timeout)
            for senders, rate in rates.items():
                print(
                    f"delivery through the outbox from {senders} / Django's SMTP backend "
                    f"alone over one connection = {rate / bare:.2f} (aim >= 0.9)"
                )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
