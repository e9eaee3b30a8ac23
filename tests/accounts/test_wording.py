"""How pages and mails word a name at the end of a sentence, a time with its zone, a
duration and a count."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

from django.utils import timezone

from accounts.templatetags.wording import (
    counted,
    duration_words,
    full_stop,
    in_zone,
    meetings,
    times,
)

MOMENT = datetime(2026, 11, 21, 17, 30, tzinfo=UTC)


def test_a_sentence_ending_with_a_name_gets_one_full_stop() -> None:
    assert full_stop("Alice") == "."
    assert full_stop("Alice W.") == ""
    assert full_stop("Bob!") == ""


def test_a_time_in_utc_names_its_zone_once() -> None:
    with timezone.override(zoneinfo.ZoneInfo("UTC")):
        assert in_zone(MOMENT) == "21 Nov 2026 17:30 UTC"


def test_a_time_elsewhere_names_its_zone_after_the_abbreviation() -> None:
    with timezone.override(zoneinfo.ZoneInfo("Europe/Paris")):
        assert in_zone(MOMENT) == "21 Nov 2026 18:30 CET (Europe/Paris)"


def test_no_time_words_nothing() -> None:
    assert in_zone(None) == ""


def test_a_duration_is_said_in_words_without_a_clock() -> None:
    assert duration_words(timedelta(days=14)) == "14 days"
    assert duration_words(timedelta(days=1)) == "1 day"
    assert duration_words(timedelta(days=2, hours=12)) == "2 days, 12 hours"
    assert duration_words(timedelta(minutes=90)) == "1 hour, 30 minutes"
    assert duration_words(None) == ""


def test_a_count_takes_the_singular_for_one_only() -> None:
    assert counted(1, "game") == "1 game"
    assert counted(0, "game") == "0 games"
    assert counted(3, "game") == "3 games"
    assert counted(2, "match,matches") == "2 matches"
    assert counted(1, "match,matches") == "1 match"


def test_how_often_pairs_meet_is_said_as_people_say_it() -> None:
    assert times(1) == "once" and times(2) == "twice" and times(3) == "3 times"
    assert meetings(0, 1) == "pairs meet at most once"
    assert meetings(1, 1) == "each pair meets once"
    assert meetings(2, 2) == "each pair meets twice"
    assert meetings(1, 2) == "pairs meet once or twice"
    assert meetings(0, 2) == "pairs meet at most twice"
    assert meetings(1, 3) == "pairs meet 1 to 3 times"
