"""The benchmarks' own parts that build games and mails through the site's services run
against the current code (a benchmark is run by hand, so a change of a service's
signature would otherwise break it unseen): bench.mail's games and rendered mails."""

from __future__ import annotations

import pytest

from bench import mail as bench_mail
from mail import parts

pytestmark = pytest.mark.django_db


def test_bench_mail_plays_games_and_renders_each_seats_decision_mail() -> None:
    games = bench_mail.play_games([2, 3], decisions=4)
    rendered = bench_mail.render_all(games)
    assert len(rendered) == 5, "one decision mail for each seat"
    for mail in rendered:
        assert mail["to_address"].endswith("@example.org")
        assert mail["subject"] and mail["text"] and mail["html"]
        kind, spec = mail["inline_part"]
        assert parts.is_registered(kind)
        assert spec["position"]["pieces"], "the board picture shows the pieces placed"
