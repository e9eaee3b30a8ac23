"""The end-to-end tests' browser: Debian's chromium, headless, driven by Playwright.

Playwright runs its own browsers only after a download; these tests use the chromium
that the system package installs instead (CI installs it in .ci/run). Without it the
tests skip and say how to enable them; under CI (CI=true) they fail instead, because
CI promises the browser.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connections
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_HOW_TO = "install Debian's chromium (apt-get install chromium) to run the browser tests"
# The test machine has no network: without these, chromium keeps trying to reach
# Google's services (updates, sync, field trials) and floods refused connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium(environ: Mapping[str, str] = os.environ) -> Path:
    """The chromium executable; the running test skips without it (fails under CI)."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = f"there is no chromium at {CHROMIUM}: {CHROMIUM_HOW_TO}"
    if environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true requires it)", pytrace=False)
    pytest.skip(message)


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    """A headless chromium; give each player their own ``browser.new_context()``."""
    executable = require_chromium()
    # Playwright's sync API runs an event loop in the test's thread, and Django refuses
    # to use the database from a thread with a running loop unless told it is safe.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # allauth counts sign-ups and sign-ins in the cache; each test starts with none.
    cache.clear()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()
        # While Playwright's loop runs, Django keeps this thread's database connections
        # apart from the ones it had before (as for async code). Close them here, or
        # they outlive the test and keep the test database from being dropped.
        connections.close_all()


# Screenshots the browser tests took, listed at the end of the run.
TAKEN: list[Path] = []


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[[Page, str], Path]:
    """Take a whole-page screenshot, saved as NAME.png in $E2E_SCREENSHOTS if set, else
    in the test's temporary directory; the run's summary lists where each went."""
    folder = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=path, full_page=True)
        TAKEN.append(path)
        return path

    return take


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TAKEN:
        terminalreporter.write_sep("-", "browser screenshots")
        for path in TAKEN:
            terminalreporter.write_line(str(path))
