"""The browser fixture skips without chromium, except under CI, where it fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import conftest

Outcome = pytest.fail.Exception | pytest.skip.Exception


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(conftest, "CHROMIUM", tmp_path / "no-such-chromium")


def browser_outcome(request: pytest.FixtureRequest) -> Outcome:
    """How the browser fixture ends the test, caught so the test can look at it."""
    try:
        request.getfixturevalue("browser")
    except (pytest.fail.Exception, pytest.skip.Exception) as outcome:
        return outcome
    raise AssertionError("the browser fixture started without chromium")


def test_without_chromium_the_browser_fixture_fails_under_ci(
    no_chromium: None, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.setenv("CI", "true")

    outcome = browser_outcome(request)

    assert isinstance(outcome, pytest.fail.Exception)
    assert "apt-get install chromium" in str(outcome)
    assert "CI=true requires it" in str(outcome)


def test_without_chromium_the_browser_fixture_skips_and_says_how_to_enable_it(
    no_chromium: None, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.delenv("CI", raising=False)

    outcome = browser_outcome(request)

    assert isinstance(outcome, pytest.skip.Exception)
    assert "no-such-chromium" in str(outcome)
    assert "apt-get install chromium" in str(outcome)
