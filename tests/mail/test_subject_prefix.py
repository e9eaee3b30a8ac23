"""Every mail's subject begins with the site's mark from the settings
(``MAIL_SUBJECT_PREFIX``), written into no template and no answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.template.loader import render_to_string

from inbound.answers import subject_for

EMAILS = Path(django_settings.BASE_DIR) / "templates" / "emails"


def test_no_subject_template_writes_the_sites_name() -> None:
    subjects = sorted(EMAILS.glob("*-subject.txt"))
    assert len(subjects) > 10
    for path in subjects:
        assert "World War 5" not in path.read_text(), path.name


@pytest.mark.parametrize(
    "name, context",
    [
        ("decision", {"game_title": "Spring Cup, round 2, table 3", "kind": "turn"}),
        ("game-over", {"game_title": "Blue against purple"}),
        ("tournament-final", {"tournament": "Spring Cup"}),
    ],
)
def test_a_subject_begins_with_the_prefix_the_settings_give(
    settings: Any, name: str, context: dict[str, str]
) -> None:
    settings.MAIL_SUBJECT_PREFIX = "[Chess club WW5] "

    subject = render_to_string(f"emails/{name}-subject.txt", context).strip()

    assert subject.startswith("[Chess club WW5] ") and "World War 5" not in subject


def test_an_answer_to_mail_that_names_no_game_has_the_prefix_too(settings: Any) -> None:
    settings.MAIL_SUBJECT_PREFIX = "[Chess club WW5] "

    assert subject_for("", None) == "[Chess club WW5] Your mail was not read"
