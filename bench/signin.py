"""Sign-in benchmark: a bystander's page time while a burst of wrong passwords comes in.

    .venv/bin/python -m bench.signin [--burst 16] [--workers 4]

Starts gunicorn on 127.0.0.1 with production settings (the default password hasher,
PBKDF2) against a local PostgreSQL database (``ww5_bench_signin``, created if missing;
sessions cached in the local Redis), with one player and one organiser. Then, for each
kind of burst, it fires N wrong-password sign-ins at once, half at the site's form and
half at the admin's, while a bystander loads the home page again and again, and prints
how long the burst took, how its tries were answered (200: a wrong password checked,
429: refused unhashed) and the bystander's page times, one figure a line. The bursts:
all from one client, and from N clients (one proxy in front, each try with its own
forwarded address). A quiet spell first gives the page time with no burst. Only
loopback addresses are used, and every wait is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

from bench.web import ROOT, create_database, percentile, server_env, start_gunicorn, wait_for

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ww5_bench_signin"
)
CSRF = "c" * 32  # a CSRF secret: the cookie and the form carry the same value
PASSWORD = "the organiser's real password"
WRONG = "not the password at all"
TIMEOUT = 180  # seconds any one request may take
SITE_FORM, ADMIN_FORM = "/accounts/login/", "/admin/login/?next=/admin/"


def prepare() -> None:
    """The player and the organiser the burst guesses at, with no failures counted."""
    import django

    django.setup()
    from allauth.account.models import EmailAddress
    from axes.models import AccessAttempt
    from django.contrib.auth.models import User

    AccessAttempt.objects.all().delete()
    for name, staff in (("alice", False), ("olga", True)):
        user, _ = User.objects.get_or_create(
            username=name, defaults={"email": f"{name}@example.com"}
        )
        user.is_staff = user.is_superuser = staff
        user.set_password(PASSWORD)
        user.save()
        EmailAddress.objects.get_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )


def request(port: int, method: str, path: str, body: str = "", **headers: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body, {"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def wrong_sign_in(port: int, index: int, forwarded_for: str | None) -> int:
    """One wrong password: even tries at the site's form (alice), odd at the admin's (olga)."""
    if index % 2 == 0:
        path, fields = SITE_FORM, {"login": "alice", "password": WRONG}
    else:
        path, fields = ADMIN_FORM, {"username": "olga", "password": WRONG}
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={CSRF}",
    }
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    body = urlencode({**fields, "csrfmiddlewaretoken": CSRF})
    return request(port, "POST", path, body, **headers)


class Bystander(threading.Thread):
    """Loads the home page again and again until told to stop."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.times: list[float] = []
        self.statuses: set[int] = set()

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            self.statuses.add(request(self.port, "GET", "/", **{"X-Forwarded-For": "192.0.2.250"}))
            self.times.append(time.perf_counter() - start)
            time.sleep(0.05)


def quiet_page_time(port: int, seconds: float = 3) -> list[float]:
    bystander = Bystander(port)
    bystander.start()
    time.sleep(seconds)
    bystander.stop.set()
    bystander.join(TIMEOUT)
    return bystander.times


def burst(port: int, size: int, many_clients: bool) -> list[str]:
    """Fire ``size`` wrong sign-ins at once while a bystander loads pages; the figures."""
    prepare_in_subprocess()
    bystander = Bystander(port)
    statuses: list[int] = []
    lock = threading.Lock()
    start_line = threading.Barrier(size)

    def guess(index: int) -> None:
        address = f"198.51.100.{index + 1}" if many_clients else "198.51.100.1"
        start_line.wait(TIMEOUT)
        status = wrong_sign_in(port, index, address)
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(size)]
    bystander.start()
    time.sleep(0.3)  # a few quiet loads first
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    took = time.perf_counter() - start
    bystander.stop.set()
    bystander.join(TIMEOUT)
    who = f"{size} clients" if many_clients else "1 client"
    answered = ", ".join(f"{statuses.count(code)} x {code}" for code in sorted(set(statuses)))
    times = bystander.times
    return [
        f"burst of {size} wrong passwords from {who}: answered in {took:.1f} s ({answered})",
        f"burst from {who}: bystander's home page p50 {statistics.median(times) * 1000:.0f} ms",
        f"burst from {who}: bystander's home page p95 {percentile(times, 0.95) * 1000:.0f} ms",
        f"burst from {who}: bystander's slowest home page {max(times) * 1000:.0f} ms",
        f"burst from {who}: bystander's pages loaded {len(times)}, "
        f"statuses {sorted(bystander.statuses)}",
    ]


def prepare_in_subprocess() -> None:
    subprocess.run([sys.executable, "-m", "bench.signin", "--prepare"], cwd=ROOT, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=16)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare()
        return

    create_database(DATABASE_URL)
    env = server_env(DATABASE_URL)
    env.update(
        CACHE_URL=os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/12"),
        # One proxy stands in front: the bench's clients name themselves in the header.
        TRUSTED_PROXY_COUNT="1",
    )
    server = start_gunicorn(env, args.workers, args.port, "--timeout", str(TIMEOUT))
    try:
        wait_for(args.port, server)
        print(f"gunicorn, {args.workers} sync workers, PostgreSQL, {os.cpu_count()} cores")
        quiet = quiet_page_time(args.port)
        print(f"no burst: bystander's home page p50 {statistics.median(quiet) * 1000:.0f} ms")
        print(f"no burst: bystander's slowest home page {max(quiet) * 1000:.0f} ms")
        for many_clients in (False, True):
            for line in burst(args.port, args.burst, many_clients):
                print(line, flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
