"""The benchmarks' own parts that build games and mails through the site's services run
against the current code (a benchmark is run by hand, so a change of a service's
signature would otherwise break it unseen): bench.mail's games and rendered mails, and
bench.capacity's copies of a played game."""

from __future__ import annotations

from typing import Any

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


def test_bench_capacity_copies_a_played_game_with_its_seats_and_moves() -> None:
    from argparse import Namespace

    from django.db import connection
    from django.utils import timezone

    from bench import capacity
    from games.models import Game, Move, Seat

    if connection.vendor != "postgresql":
        pytest.skip("the benchmark copies rows with PostgreSQL's generate_series")
    capacity.load_users(40)
    template = capacity.template(moves=10)
    args = Namespace(due=4, reminders=3, stalled_bots=2, heavy=2)

    capacity.copy_games(template, games=20, users=40, args=args)

    copies = Game.objects.filter(invite_token__startswith="cap-")
    assert copies.count() == 19
    assert Seat.objects.filter(game__in=copies).count() == 38
    assert Move.objects.filter(game__in=copies).count() == 19 * 10
    due = copies.filter(deadline__lte=timezone.now())
    assert due.count() == 4 and due.filter(grace_used=True).count() == 2, "the even ones"
    assert copies.filter(remind_at__lte=timezone.now(), deadline__gt=timezone.now()).count() == 3
    assert copies.filter(seats__bot="greedy").count() == 2
    heavy = copies.filter(seats__user__username=capacity.HEAVY).count()
    assert heavy == 1, "every tenth copy (20 // 2) seats the heavy player"
    for copy in copies:  # each copy waits for the seat its template waits for
        assert copy.to_move is not None and copy.to_move.number == template.to_move.number
        assert copy.position == template.position and copy.turn_number == 10


@pytest.mark.django_db(transaction=True)  # its games are made as the benchmark makes them
def test_bench_web_moves_are_accepted_moves_of_the_site(settings: Any) -> None:
    import contextlib

    settings.ALLOWED_HOSTS = ["127.0.0.1"]  # the host its requests name, as the bench's server

    from bench import web as bench_web
    from games.models import Game

    games = bench_web.prepare(2)
    mover = bench_web.Mover(list(games))
    turns = {game["id"]: Game.objects.get(pk=game["id"]).turn_number for game in games}
    for _ in range(6):
        assert isinstance(mover.move(contextlib.nullcontext), float)
    for game in Game.objects.filter(pk__in=turns):
        assert game.turn_number == turns[game.pk] + 3  # three moves each, in turn
