"""How pages and mails word a name at the end of a sentence, and a time with its zone."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

from django.utils import timezone

from accounts.templatetags.wording import full_stop, in_zone

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
