"""Web benchmark: accepted moves per second through the real server, over HTTP.

    .venv/bin/python -m bench.web [--seconds 10] [--clients 1 8] [--workers 3] [--profile N]

Starts gunicorn on 127.0.0.1 with production settings against a local PostgreSQL
database (``ww5_bench``, created if missing), seats two players in each of many games,
and lets N client threads post legal moves (``POST /games/<id>/move/``) as fast as
they can for a fixed time. Each client owns its games: before a move it reads the
position the server stored, picks a legal action with the engine and posts it with
the right player's session. A POST counts as an accepted move once the stored turn
number has moved past its form's turn (for each game's last POST, checked right after
the timed run). Before each run the tables it churns are vacuumed. Prints accepted
moves per second, the p50/p95 latency of the POSTs, and the CPU used per move by
its gunicorn, its database's PostgreSQL processes and this load generator; then the
SQL statements (and the queries that carry them), Redis commands, Python calls and
CPU of a move made in this process through the WSGI application (``--counted-moves``),
which the machine's load does not change. ``--profile N`` lists the N functions of
those moves that take the most CPU. Only loopback addresses are used, and every loop
is bounded in time.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import importlib
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "postgres://postgres@127.0.0.1:5432/ww5_bench"
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", DATABASE)
CSRF = "b" * 32  # a CSRF secret: the cookie and the header carry the same value


def server_env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-" + "x" * 50,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="ww5site.settings",
        # Production needs a mail server and its address; the bench's players have no
        # address, so no mail is sent (bench.mail points these at its own server).
        EMAIL_HOST="127.0.0.1",
        SITE_URL="http://127.0.0.1",
    )
    env.pop("REDIS_URL", None)  # bots are not seated: no task does any work
    env.setdefault("CACHE_URL", "redis://127.0.0.1:6379/14")  # sessions read from Redis
    return env


def create_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def prepare(games: int) -> list[dict[str, Any]]:
    """Make ``games`` started 2-player games; return each with its players' sessions."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
    from django.contrib.auth.models import User

    from games import services
    from games.models import Game, Move

    Move.objects.all().delete()  # the move log protects its seats: it goes first
    Game.objects.all().delete()

    # The backend a real sign-in records: the first that loads users (the sign-in limit's
    # comes first and only checks passwords), as Django's own login picks it.
    backend = next(
        path for path in settings.AUTHENTICATION_BACKENDS if hasattr(load_backend(path), "get_user")
    )

    # The store a sign-in writes its session with (the site's: the database and the
    # cache), so the moves read it from the cache as a signed-in player's do; written to
    # the database alone, each session's first move read it from there and cached it.
    SessionStore = importlib.import_module(settings.SESSION_ENGINE).SessionStore

    def session(user: User) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        assert store.session_key is not None
        return store.session_key

    made = []
    for i in range(games):
        a, _ = User.objects.get_or_create(username=f"bench-a{i}")
        b, _ = User.objects.get_or_create(username=f"bench-b{i}")
        game = services.create_game(a, name=f"bench {i}", home="north-america")
        services.join_game(game.pk, b, home="europe")
        made.append({"id": game.pk, "sessions": {a.pk: session(a), b.pk: session(b)}})
    vacuum()
    return made


# The tables a move writes or reads. Each run rewrites their rows thousands of times;
# PostgreSQL's autovacuum (on by default, but off on some development servers) would
# reclaim the dead row versions, or every run would start slower than the last.
CHURNED = ["games_game", "games_seat", "games_move", "django_session", "auth_user"]


def vacuum() -> None:
    """VACUUM ANALYZE the tables a run churns, so each run starts from compact tables
    with fresh statistics, as autovacuum keeps them on a production server."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return  # the benchmark's database; a test's may be another
    connection.ensure_connection()
    was = connection.connection.autocommit
    connection.connection.autocommit = True  # VACUUM cannot run in a transaction
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(CHURNED)}")
    finally:
        connection.connection.autocommit = was


class Client(threading.Thread):
    def __init__(self, port: int, games: list[dict[str, Any]], until: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.games, self.until = port, games, until
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.accepted = 0
        self.refused = 0
        self.finished = until

    def run(self) -> None:
        import psycopg

        from ww5.engine import legal_actions, load_position

        http_conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        with psycopg.connect(DATABASE_URL) as db:
            # Each game's last POST and the turn its form was made for; it was accepted
            # if the stored turn number has moved past it (checked at the game's next
            # read, and for the last POST of each game after the timed run).
            posted: dict[int, int] = {}
            i = 0
            while time.monotonic() < self.until and self.games:
                game = self.games[i % len(self.games)]
                i += 1
                position, turn, status, user_id = self.read(db, game["id"])
                self.verify(posted.pop(game["id"], None), turn)
                if status not in ("setup", "play"):
                    self.games.remove(game)
                    continue
                action = self.rng.choice(legal_actions(load_position(position)))
                body = urlencode({"action": action, "turn": turn, "confirm_elimination": "on"})
                headers = {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Cookie": f"sessionid={game['sessions'][user_id]}; csrftoken={CSRF}",
                    "X-CSRFToken": CSRF,
                    "Host": "127.0.0.1",
                }
                start = time.perf_counter()
                http_conn.request("POST", f"/games/{game['id']}/move/", body, headers)
                response = http_conn.getresponse()
                response.read()
                self.latencies.append(time.perf_counter() - start)
                if response.status >= 400:
                    raise RuntimeError(f"HTTP {response.status} for {action!r}")
                posted[game["id"]] = turn
            self.finished = time.monotonic()
            for game_id, turn in posted.items():  # after the timed run
                self.verify(turn, self.read(db, game_id)[1])
        http_conn.close()

    @staticmethod
    def read(db: Any, game_id: int) -> tuple[Any, int, str, int]:
        row = db.execute(
            "SELECT g.position, g.turn_number, g.status, s.user_id FROM games_game g "
            "LEFT JOIN games_seat s ON s.id = g.to_move_id WHERE g.id = %s",
            [game_id],
        ).fetchone()
        db.commit()
        assert row is not None
        return row  # type: ignore[no-any-return]

    def verify(self, posted_turn: int | None, turn_now: int) -> None:
        if posted_turn is None:
            return
        if turn_now > posted_turn:
            self.accepted += 1
        else:
            self.refused += 1


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc)."""
    return sum(cpu_of(pids).values())


def cpu_of(pids: list[int]) -> dict[int, float]:
    """Each process's user + system CPU time so far, in seconds (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return times


def cpu_since(pids: list[int], before: dict[int, float]) -> float:
    """CPU seconds the processes ``pids`` used since ``before`` was read (``cpu_of``); a
    process started since counts whole."""
    now = cpu_of(pids)
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in now.items())


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it: gunicorn's master and its workers, and no
    other gunicorn that runs on the same machine."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def database_processes(url: str) -> list[int]:
    """The PostgreSQL processes that work for the database of ``url``: the backends
    serving it (their process title names it) and the server's shared background
    processes (WAL writer, checkpointer, background writer), not the backends of other
    databases on the same server."""
    name = url.rsplit("/", 1)[1]
    pids = []
    for pid in processes("postgres"):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            continue
        # "postgres: [cluster:] user database client state", or "postgres: [cluster:] walwriter"
        words = [w.decode(errors="replace") for w in title[1:]]
        if words and words[0].endswith(":"):
            words = words[1:]
        if title[:1] != [b"postgres:"]:
            continue  # the postmaster itself
        if words[:1] in (["walwriter"], ["checkpointer"], ["background"]):
            pids.append(pid)
        elif len(words) >= 2 and words[1] == name:
            pids.append(pid)
    return pids


def processes(name: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(
    port: int, server_pid: int, games: list[dict[str, Any]], clients: int, seconds: float
) -> str:
    # This run's own processes only: on a shared machine other gunicorns and other
    # databases' backends would otherwise count as this server's work.
    before = (
        cpu_of(process_tree(server_pid)),
        cpu_of(database_processes(DATABASE_URL)),
        time.process_time(),
    )
    until = time.monotonic() + seconds
    share = [games[i::clients] for i in range(clients)]
    threads = [Client(port, share[i], until, seed=i) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    elapsed = max(t.finished for t in threads) - start  # to the end of the last POST
    latencies = [x for t in threads for x in t.latencies]
    accepted = sum(t.accepted for t in threads)
    refused = sum(t.refused for t in threads)
    server, database, client = (
        cpu_since(process_tree(server_pid), before[0]),
        cpu_since(database_processes(DATABASE_URL), before[1]),
        time.process_time() - before[2],
    )
    per_move = 1000 / max(accepted, 1)
    return (
        f"{clients} client(s): {accepted} accepted moves in {elapsed:.1f} s = "
        f"{accepted / elapsed:.0f} moves/s; POST latency p50 "
        f"{statistics.median(latencies) * 1000:.1f} ms, p95 "
        f"{percentile(latencies, 0.95) * 1000:.1f} ms; {refused} refused\n"
        f"  CPU per accepted move: server {server * per_move:.1f} ms, PostgreSQL "
        f"{database * per_move:.1f} ms, this load generator {client * per_move:.1f} ms"
    )


class Mover:
    """Moves made in this process through the site's WSGI application, in ``playing``
    (games of ``prepare``) in turn, each a legal action picked for the player whose
    decision is due, posted with that player's session. A game that has ended leaves
    ``playing``."""

    def __init__(self, playing: list[dict[str, Any]], seed: int = 0) -> None:
        self.playing = playing
        self.rng = random.Random(seed)
        self.turns = iter(range(10**9))

    def move(self, hook: Any) -> float | None:
        """One move, its request inside ``hook()``; the CPU seconds of its request, or
        None if the game had ended."""
        import io
        import json

        from django.db import connection

        from ww5.engine import legal_actions, load_position
        from ww5site.wsgi import application

        playing, rng = self.playing, self.rng
        game = playing[next(self.turns) % len(playing)]
        with connection.cursor() as cursor:  # the load generator's read, not counted
            cursor.execute(
                "SELECT g.position, g.turn_number, g.status, s.user_id FROM games_game g "
                "LEFT JOIN games_seat s ON s.id = g.to_move_id WHERE g.id = %s",
                [game["id"]],
            )
            position, turn, status, user_id = cursor.fetchone()
        if status not in ("setup", "play"):
            playing.remove(game)
            return None
        if isinstance(position, str):
            position = json.loads(position)
        action = rng.choice(legal_actions(load_position(position)))
        body = urlencode({"action": action, "turn": turn, "confirm_elimination": "on"}).encode()
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/games/{game['id']}/move/",
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "CONTENT_TYPE": "application/x-www-form-urlencoded",
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_COOKIE": f"sessionid={game['sessions'][user_id]}; csrftoken={CSRF}",
            "HTTP_X_CSRFTOKEN": CSRF,
            "HTTP_HOST": "127.0.0.1",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
        }
        status_line = []
        start = time.process_time()
        with hook():  # the request alone
            b"".join(application(environ, lambda line, headers, *_: status_line.append(line)))
        cpu = time.process_time() - start
        if not status_line[0].startswith("302"):
            raise RuntimeError(f"HTTP {status_line[0]} for {action!r}")
        return cpu


def counted_moves(games: list[dict[str, Any]], moves: int, top: int = 0) -> str:
    """Figures of a move that do not depend on the machine's load, so that commits can
    be compared on a shared machine: ``moves`` accepted moves made in this process
    through the site's WSGI application (every middleware, the session from Redis, the
    view, the service), counting the SQL statements the site sends (and the queries,
    one round trip each, that carry them), every round trip to PostgreSQL (those
    queries, and what psycopg and Django send beside them: the transaction's BEGIN and
    COMMIT, a connection health check's ``SELECT 1``; read from libpq's trace of the
    connection, one ReadyForQuery a round trip), its Redis commands
    and its Python function calls (cProfile, in a second pass), and the CPU time of a
    move (``process_time``, without the profiler). With
    ``top``, the ``top`` functions of a further pass by own and by cumulative CPU time
    (not wall time, which would count the waits for the database) come first."""
    import cProfile
    import io
    import tempfile

    import redis
    from django.db import connection
    from psycopg.pq import Trace

    # A few games, each visited in turn: after the first pass every session is in the
    # cache, as in a long run (a session read from the database is an extra statement).
    playing = list(games[: max(moves // 4, 2)])
    counts = {"sql": 0, "queries": 0, "redis": 0}
    trace = tempfile.TemporaryFile("w+")

    def count_sql(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counts["queries"] += 1  # a round trip: one query, which may hold several statements
        counts["sql"] += 1 + sql.count(";")  # the site's values are parameters, never in it
        return execute(sql, params, many, context)

    one_move = Mover(playing).move

    def run(hook: Any = None, count: int = moves) -> tuple[int, float]:
        done, cpu = 0, 0.0
        while done < count and playing:
            used = one_move(hook or contextlib.nullcontext)
            if used is not None:
                done += 1
                cpu += used
        return done, cpu

    # Twice round first: the process's first requests import and compile, and both
    # players' sessions of each game are read into the cache.
    run(count=2 * len(playing))
    real_command = redis.Redis.execute_command

    def count_redis(self: Any, *args: Any, **options: Any) -> Any:
        counts["redis"] += 1
        return real_command(self, *args, **options)

    @contextlib.contextmanager
    def counting() -> Any:
        # The connection is the one kept from the warm-up's requests: its health check
        # at the request's start is in the trace, as a gunicorn worker would make it.
        pgconn = connection.connection.pgconn
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            with connection.execute_wrapper(count_sql):
                yield
        finally:
            pgconn.untrace()

    redis.Redis.execute_command = count_redis  # type: ignore[method-assign]
    try:
        counted, _ = run(counting)
    finally:
        redis.Redis.execute_command = real_command  # type: ignore[method-assign]
    trace.seek(0)
    round_trips = sum(1 for line in trace if line.startswith("B\t") and "\tReadyForQuery\t" in line)
    trace.close()
    profile = cProfile.Profile()
    profiled, _ = run(lambda: profile)
    if top:  # the listing in CPU time, not wall time (which counts the waits for replies)
        cpu_profile = cProfile.Profile(time.process_time)
        run(lambda: cpu_profile)
    timed, cpu = run()
    calls = profile.getstats()
    total_calls = sum(entry.callcount for entry in calls)
    listing = ""
    if top:
        import pstats

        out = io.StringIO()
        stats = pstats.Stats(cpu_profile, stream=out)
        for order in ("tottime", "cumulative"):
            stats.sort_stats(order).print_stats(top)
        listing = out.getvalue() + "\n"
    return listing + (
        f"per accepted move, in this process ({counted} moves through the WSGI application): "
        f"{counts['sql'] / max(counted, 1):.2f} SQL statements in "
        f"{counts['queries'] / max(counted, 1):.2f} queries, "
        f"{round_trips / max(counted, 1):.2f} round trips to PostgreSQL, "
        f"{counts['redis'] / max(counted, 1):.2f} Redis commands, "
        f"{total_calls / max(profiled, 1):,.0f} Python function calls, "
        f"CPU {cpu * 1000 / max(timed, 1):.1f} ms"
    )


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(100):
        if process.poll() is not None:
            raise RuntimeError("gunicorn stopped")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/", headers={"Host": "127.0.0.1"})
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer")


def start_gunicorn(env: dict[str, str], workers: int, port: int, *options: str) -> Any:
    """This process takes the environment ``env``; the database is migrated and the static
    files collected, then gunicorn starts with ``workers`` on 127.0.0.1:``port`` (and the
    extra ``options``): its process, not yet answering (``wait_for``)."""
    os.environ.update(env)
    python = sys.executable
    for command in (["migrate"], ["collectstatic"]):
        subprocess.run(
            [python, "manage.py", *command, "--noinput", "-v0"], cwd=ROOT, env=env, check=True
        )
    gunicorn = str(Path(python).with_name("gunicorn"))
    return subprocess.Popen(
        [gunicorn, "ww5site.wsgi:application", "--workers", str(workers)]
        + ["--bind", f"127.0.0.1:{port}", *options, "--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    # The production recipe's count (README): one a core of the reference machine's two,
    # and one more.
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--counted-moves",
        type=int,
        default=200,
        help="moves made in this process after the runs, counting queries and calls (0: none)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="print the N functions of those moves that take the most own and cumulative time",
    )
    args = parser.parse_args()

    create_database(DATABASE_URL)
    env = server_env(DATABASE_URL)
    server = start_gunicorn(env, args.workers, args.port, "--threads", str(args.threads))
    try:
        wait_for(args.port, server)
        print(
            f"gunicorn, {args.workers} workers x {args.threads} threads, PostgreSQL, "
            f"sessions cached in Redis "
            f"({env['CACHE_URL']}), {os.cpu_count()} cores"
        )
        for clients in args.clients:
            games = prepare(args.games)
            print(measure(args.port, server.pid, games, clients, args.seconds), flush=True)
        if args.counted_moves:
            print(counted_moves(prepare(args.games), args.counted_moves, args.profile), flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
