"""Web benchmark: accepted moves per second through the real server, over HTTP.

    .venv/bin/python -m bench.web [--seconds 10] [--clients 1 8] [--workers 4]

Starts gunicorn on 127.0.0.1 with production settings against a local PostgreSQL
database (``ww5_bench``, created if missing), seats two players in each of many games,
and lets N client threads post legal moves (``POST /games/<id>/move/``) as fast as
they can for a fixed time. Each client owns its games: before a move it reads the
position the server stored, picks a legal action with the engine and posts it with
the right player's session. A POST counts as an accepted move once the stored turn
number has moved past its form's turn (for each game's last POST, checked right after
the timed run). Before each run the tables it churns are vacuumed. Prints accepted
moves per second, the p50/p95 latency of the POSTs, and the CPU used per move by
gunicorn, PostgreSQL and this load generator. Only loopback addresses are used, and
every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
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
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.models import Game, Move

    Move.objects.all().delete()  # the move log protects its seats: it goes first
    Game.objects.all().delete()

    # The backend a real sign-in records: the first that loads users (the sign-in limit's
    # comes first and only checks passwords), as Django's own login picks it.
    backend = next(
        path for path in settings.AUTHENTICATION_BACKENDS if hasattr(load_backend(path), "get_user")
    )

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

        from games.engine import legal_actions, load_position

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


def cpu_since(name: str, before: dict[int, float]) -> float:
    """CPU seconds the processes called ``name`` used since ``before`` was read
    (``cpu_of``); a process started since counts whole."""
    now = cpu_of(processes(name))
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in now.items())


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


def measure(port: int, games: list[dict[str, Any]], clients: int, seconds: float) -> str:
    before = (cpu_of(processes("gunicorn")), cpu_of(processes("postgres")), time.process_time())
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
        cpu_since("gunicorn", before[0]),
        cpu_since("postgres", before[1]),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()

    create_database(DATABASE_URL)
    env = server_env(DATABASE_URL)
    os.environ.update(env)
    python = sys.executable
    for command in (["migrate"], ["collectstatic"]):
        subprocess.run(
            [python, "manage.py", *command, "--noinput", "-v0"], cwd=ROOT, env=env, check=True
        )
    server = subprocess.Popen(
        [
            str(Path(python).with_name("gunicorn")),
            "ww5site.wsgi:application",
            "--workers",
            str(args.workers),
            "--bind",
            f"127.0.0.1:{args.port}",
            "--threads",
            str(args.threads),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_for(args.port, server)
        print(
            f"gunicorn, {args.workers} workers x {args.threads} threads, PostgreSQL, "
            f"sessions cached in Redis "
            f"({env['CACHE_URL']}), {os.cpu_count()} cores"
        )
        for clients in args.clients:
            games = prepare(args.games)
            print(measure(args.port, games, clients, args.seconds), flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
