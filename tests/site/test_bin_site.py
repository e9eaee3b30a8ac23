"""`bin/site PORT`, as a newcomer runs it: the links in its mails point to the address
it serves, and a signal to its process group stops it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.request import urlopen

import pytest

from tests.integration.helpers import REPOSITORY, free_port, wait_until


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[int, Path, subprocess.Popen[bytes]]]:
    """bin/site on a free port, on an SQLite database of its own, with nothing else set."""
    port = free_port()
    database = tmp_path / "site.sqlite3"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "CACHE_URL", "EMAIL_HOST", "SITE_URL", "DJANGO_DEBUG")
    }
    env["DATABASE_URL"] = f"sqlite:///{database}"
    log = (tmp_path / "site.log").open("wb")
    process = subprocess.Popen(
        ["bin/site", str(port)],
        cwd=REPOSITORY,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield port, database, process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def decision_mail_links(database: Path) -> list[str]:
    """The text of the demo's decision mails, read from the site's own database."""
    if not database.exists():
        return []
    with sqlite3.connect(database) as db:
        try:
            rows = db.execute(
                "SELECT body_text, unsubscribe_url FROM mail_outgoingmail WHERE kind = 'decision'"
            ).fetchall()
        except sqlite3.OperationalError:  # not migrated yet
            return []
    return [text + "\n" + unsubscribe for text, unsubscribe in rows]


def test_bin_site_on_another_port_mails_links_to_that_port_and_stops_on_a_signal(
    site: tuple[int, Path, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    port, database, process = site
    base = f"http://localhost:{port}/"

    def log() -> str:
        return (tmp_path / "site.log").read_text(errors="replace")

    mails = wait_until(
        lambda: decision_mail_links(database), 120, lambda: f"the demo's decision mail:\n{log()}"
    )
    mail = mails[0]
    links = [word for word in mail.split() if word.startswith("http")]
    assert links and all(link.startswith(base) for link in links), (links, base)
    decide = next(link for link in links if "/games/decide/" in link)
    assert "/mail/unsubscribe/" in mail and "localhost:8000" not in mail

    with urlopen(wait_until(lambda: answers(decide), 60, "the server", every=0.2)) as page:
        assert page.status == 200

    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=20)
    assert subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True).stdout == b""


def answers(url: str) -> str | None:
    try:
        with urlopen(url, timeout=2):
            return url
    except OSError:
        return None
