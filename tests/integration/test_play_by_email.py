"""Play by email as in production: decisions by one-click links in real mails.

Moves made on the site queue their mails in this process (the live server's thread);
the Celery worker subprocess sends them to the SMTP sink; the beat's sweeps apply the
deadline policy in the worker. The players only follow the links in the mails they get.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils import dateformat, timezone
from pytest_django.live_server_helper import LiveServer

from games import links, services
from games.models import Game, Move, Seat
from mail.models import OutgoingMail
from tests.integration.helpers import (
    CeleryProcesses,
    Delivered,
    MailReader,
    SmtpSink,
    decision_form,
    players_dice_check,
    wait_until,
)
from ww5 import describe, engine
from ww5.engine.bots import BOTS

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

User = AbstractBaseUser
# Greedy against random decides a game in 10 to 100 decisions (strict setup included).
MAX_DECISIONS = 300
DECISION_SUBJECT = re.compile(r": your (turn|retreat|setup placement)$")
RECORDED = "Your decision was recorded"


def start_duel(alice: User, bob: User) -> Game:
    """alice (North America) against bob (Europe), strict setup: it starts when full."""
    game = services.create_game(alice, seats=2, home="north-america", setup="strict")
    services.join_game(game.pk, bob, home="europe")
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP, game.status
    return game


def is_decision_mail(mail: Delivered) -> bool:
    return bool(DECISION_SUBJECT.search(mail.subject))


def decision_link(mail: Delivered) -> tuple[str, links.DecisionLink]:
    """The mail's one link and the decision it is for."""
    [url] = mail.decide_links
    token = url.rstrip("/").rsplit("/", 1)[1]
    return url, links.read(token)


def wait_for_decision_mail(sink: SmtpSink, game: Game, turn: int, seat: Seat) -> str:
    """The link in the mail for ``game``'s decision at ``turn``, which is ``seat``'s.

    The mail must reach the seat's player, and its link must be for their seat.
    """

    def for_this_decision(mail: Delivered) -> bool:
        return is_decision_mail(mail) and decision_link(mail)[1].turn == turn

    mail = sink.wait_for(for_this_decision, f"the decision mail of game {game.pk}, turn {turn}")
    assert seat.user is not None
    assert mail.recipients == (seat.user.email,), f"{mail} is not for {seat}"
    url, link = decision_link(mail)
    assert (link.game_id, link.seat_id) == (game.pk, seat.pk), mail.text
    return url


def outbox_delivered_once(sink: SmtpSink) -> None:
    """Wait until every outbox row is sent; each reached the sink exactly once."""

    def all_sent() -> bool:
        return not OutgoingMail.objects.exclude(status=OutgoingMail.Status.SENT).exists()

    wait_until(
        all_sent,
        20,
        lambda: (
            "every outbox row to be sent: "
            + str(list(OutgoingMail.objects.values_list("id", "kind", "status", "last_error")))
        ),
    )
    expected = set(OutgoingMail.objects.values_list("message_id", flat=True))
    wait_until(
        lambda: {mail.message_id for mail in sink.delivered()} >= expected,
        10,
        "every sent outbox row to reach the SMTP server",
    )
    counts = Counter(mail.message_id for mail in sink.delivered())
    assert counts == dict.fromkeys(expected, 1), counts


def dice_verified_by_a_stranger(live_server: LiveServer, game: Game, directory: Path) -> None:
    """The finished game's record, downloaded from the site by someone signed in nowhere,
    passes the players' dice checker (tools/verify_dice.py run alone): every number the
    game drew is what its revealed seed gives."""
    page = MailReader().get(live_server.url + reverse("games:record", args=[game.pk]))
    assert page.status == 200, page.text
    record = json.loads(page.text)
    game.refresh_from_db()
    drawn = record["dice"]["drawn"]
    assert record["status"] == "over" and record["dice"]["seed"], record["dice"]
    assert drawn == game.dice_drawn > 0, (drawn, game.dice_drawn)
    lines = players_dice_check(page.text, directory)
    assert lines[-1] == (
        f"verified: commitment, players' words, {drawn} numbers #1–#{drawn}, 0 sealed commitments"
    ), lines


def test_two_players_play_a_game_to_the_end_by_following_their_mails_and_anyone_checks_its_dice(
    celery: CeleryProcesses,
    sink: SmtpSink,
    live_server: LiveServer,
    tmp_path: Path,
    alice: User,
    bob: User,
) -> None:
    game = start_duel(alice, bob)
    readers = {alice.pk: MailReader(), bob.pk: MailReader()}
    greedy_ties, random_choices = random.Random(11), random.Random(29)

    decisions = 0
    while game.status != Game.Status.OVER:
        assert game.is_active, f"the game stopped, {game.get_status_display()}"
        assert decisions < MAX_DECISIONS, f"no result after {decisions} decisions"
        seat = game.to_move
        assert seat is not None and seat.user is not None
        url = wait_for_decision_mail(sink, game, game.turn_number, seat)

        reader = readers[seat.user.pk]
        page = reader.get(url)
        assert page.status == 200, page.text
        form = decision_form(page)
        state = services.state_of(game)
        assert set(form.offered) == set(engine.legal_actions(state))
        assert form.hidden["turn"] == str(game.turn_number)
        if seat.user.pk == alice.pk:
            action = BOTS["greedy"](state, greedy_ties)
            assert action in form.offered, (action, sorted(form.offered))
        else:
            action = random_choices.choice(sorted(form.offered))
        fields = {**form.hidden, "action": action}
        if form.offered[action]:  # the page warns that it eliminates its player (R15)
            fields["confirm_elimination"] = "on"

        done = reader.post(form.action, fields)

        assert done.status == 200 and RECORDED in done.text, (action, done.status, done.text)
        decisions += 1
        game.refresh_from_db()
        assert game.turn_number == decisions
        assert Move.objects.get(game=game, number=decisions).action == action

    assert game.winner is not None
    moves = list(Move.objects.filter(game=game).select_related("seat").order_by("number"))
    assert len(moves) == decisions
    # A decision made through a mail's link is recorded as made on the web: the link
    # opens the site's decision form (games.views.decide).
    assert {move.source for move in moves} == {Move.Source.LINK}  # through the mailed links
    assert all(move.actor_id == move.seat.user_id for move in moves)
    assert services.rebuild_position(game)

    for player in (alice, bob):
        sink.wait_for(
            lambda mail, to=player.email: (
                mail.subject.endswith(": game over") and mail.recipients == (to,)
            ),
            f"the game-over mail to {player.email}",
        )
    outbox_delivered_once(sink)
    prompts = [mail for mail in sink.delivered() if is_decision_mail(mail)]
    turns = Counter(decision_link(mail)[1].turn for mail in prompts)
    assert turns == dict.fromkeys(range(decisions), 1), "each decision had one mail"
    seats = {decision_link(mail)[1].turn: decision_link(mail)[1].seat_id for mail in prompts}
    assert seats == {move.number - 1: move.seat_id for move in moves}
    over = Counter(mail.recipients for mail in sink.delivered() if "game over" in mail.subject)
    assert over == {(alice.email,): 1, (bob.email,): 1}
    dice_verified_by_a_stranger(live_server, game, tmp_path / "player")


def set_deadline_passed(game: Game) -> None:
    """The clock of this test: the pending decision's deadline is a second ago."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def is_missed_mail(mail: Delivered, to: str) -> bool:
    return mail.subject.endswith(" passed its deadline") and mail.recipients == (to,)


def in_utc(moment: Any) -> str:
    """A moment as the mails write it for a player in UTC."""
    return dateformat.format(timezone.localtime(moment, UTC), "j M Y H:i T")


def test_a_deadline_passes_and_the_policy_applies(
    celery: CeleryProcesses, sink: SmtpSink, alice: User, bob: User
) -> None:
    game = start_duel(alice, bob)
    first = game.to_move
    assert first is not None and first.user is not None
    second = Seat.objects.exclude(pk=first.pk).get(game=game)
    assert second.user is not None
    first_url = wait_for_decision_mail(sink, game, 0, first)
    state_before = services.state_of(game)
    decision_time = game.decision_time

    # The deadline passes: the beat's sweep and the worker grant one grace extension.
    set_deadline_passed(game)
    grace = sink.wait_for(
        lambda mail: is_missed_mail(mail, first.user.email) and "grace extension" in mail.text,
        f"the grace mail to {first.user.email}",
    )
    game.refresh_from_db()
    assert game.grace_used
    assert game.deadline is not None
    assert game.deadline > timezone.now() + decision_time - timedelta(minutes=1)
    assert in_utc(game.deadline) in grace.text
    assert (game.turn_number, game.to_move_id, game.deadline_claimed_at) == (0, first.pk, None)
    assert not Move.objects.filter(game=game).exists()

    # It passes again: the greedy bot decides for the player, as a timeout move.
    set_deadline_passed(game)
    next_url = wait_for_decision_mail(sink, game, 1, second)
    move = Move.objects.get(game=game)
    assert (move.number, move.seat_id, move.source, move.actor_id) == (
        1,
        first.pk,
        Move.Source.TIMEOUT,
        None,
    )
    assert move.action in engine.legal_actions(state_before)
    phrase = describe.action_phrase(engine.BOARDS[game.options["board"]], move.action)
    sink.wait_for(
        lambda mail: (
            is_missed_mail(mail, first.user.email)
            and f"A bot decided for you: {phrase}." in mail.text
        ),
        f"the timeout mail to {first.user.email}",
    )
    game.refresh_from_db()
    first.refresh_from_db()
    assert (game.turn_number, game.to_move_id, game.grace_used) == (1, second.pk, False)
    assert game.deadline is not None and game.deadline > timezone.now() + timedelta(days=1)
    assert first.missed == 0  # a missed setup placement does not count towards forfeiting
    assert services.rebuild_position(game)

    # The worker wrote the second player's mail: its link opens their decision, and
    # the first player's old link no longer works.
    second_page = MailReader().get(next_url)
    assert second_page.status == 200, second_page.text
    offered = decision_form(second_page).offered
    assert set(offered) == set(engine.legal_actions(services.state_of(game)))
    assert MailReader().get(first_url).status == 410
    outbox_delivered_once(sink)
    missed = [mail for mail in sink.delivered() if "passed its deadline" in mail.subject]
    assert len(missed) == 2, [str(mail) for mail in missed]
