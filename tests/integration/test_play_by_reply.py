"""Play by email reply, as in production: every decision is a reply mail sent over SMTP
to the site's listener (``manage.py mail_listener`` in a subprocess); a real Celery
worker sends each answer and each next decision mail to the SMTP sink. The players
never open a page."""

from __future__ import annotations

import random
import smtplib
import sys
from collections import Counter
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from pytest_django.live_server_helper import LiveServer

from games import replyto, services
from games.models import Game, Move
from inbound.models import InboundMessage
from tests.integration.helpers import (
    CeleryProcesses,
    Delivered,
    SmtpSink,
    WebServer,
    free_port,
)
from tests.integration.test_play_by_email import (
    MAX_DECISIONS,
    dice_verified_by_a_stranger,
    is_decision_mail,
    start_duel,
)
from ww5 import engine
from ww5.engine.bots import BOTS

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]
User = AbstractBaseUser


@pytest.fixture
def listener(celery: CeleryProcesses, tmp_path: Path) -> Any:
    """``manage.py mail_listener`` with the worker's settings, on a free port."""
    port = free_port()
    command = [sys.executable, "manage.py", "mail_listener", "--host=127.0.0.1", f"--port={port}"]
    server = WebServer(command, port, celery.env, tmp_path)
    server.start()
    yield server
    server.stop()


def token_of(mail: Delivered) -> replyto.ReplyToken:
    return replyto.read_token(replyto.token_of(str(mail.message["Reply-To"])) or "")


def answers_to(sink: SmtpSink, address: str) -> list[Delivered]:
    """The answers to received messages that reached ``address``, in order."""
    return [
        mail
        for mail in sink.delivered()
        if mail.subject.startswith("Re: ") and mail.recipients == (address,)
    ]


def next_answer(sink: SmtpSink, address: str, seen: int) -> Delivered:
    """The answer after the ``seen`` first ones to ``address``, once it arrives."""
    sink.wait_for(
        lambda mail: len(answers_to(sink, address)) > seen, f"answer {seen + 1} to {address}"
    )
    return answers_to(sink, address)[seen]


def send_reply(port: int, user: User, prompt: Delivered, first_line: str, n: int) -> None:
    """``user`` replies to ``prompt`` from a mail client: the move on top, the prompt
    quoted below."""
    reply = EmailMessage()
    reply["From"] = f"Player <{user.email}>"
    reply["To"] = str(prompt.message["Reply-To"])
    reply["Subject"] = f"Re: {prompt.subject}"
    reply["Message-ID"] = f"<reply-{n}-{user.pk}@client.example.com>"
    reply["In-Reply-To"] = prompt.message_id
    quoted = "\n".join(f"> {line}" for line in prompt.text.splitlines()[:20])
    reply.set_content(f"{first_line}\n\nOn Tuesday, World War 5 wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        assert smtp.send_message(reply) == {}


def test_two_players_play_a_game_to_the_end_by_replying_to_their_mails_and_anyone_checks_its_dice(
    celery: CeleryProcesses,
    listener: WebServer,
    sink: SmtpSink,
    live_server: LiveServer,
    tmp_path: Path,
    alice: User,
    bob: User,
) -> None:
    game = start_duel(alice, bob)
    greedy_ties, random_choices = random.Random(11), random.Random(29)
    sent = 0

    decisions = 0
    while game.status != Game.Status.OVER:
        assert game.is_active, f"the game stopped, {game.get_status_display()}"
        assert decisions < MAX_DECISIONS, f"no result after {decisions} decisions"
        seat = game.to_move
        assert seat is not None and seat.user is not None
        user, turn = seat.user, game.turn_number
        prompt = sink.wait_for(
            lambda mail, turn=turn: is_decision_mail(mail) and token_of(mail).turn == turn,
            f"the decision mail of turn {turn}",
        )
        assert prompt.recipients == (user.email,)
        assert token_of(prompt).seat_id == seat.pk
        state = services.state_of(game)
        legal = engine.legal_actions(state)
        if user.pk == alice.pk:
            action = BOTS["greedy"](state, greedy_ties)
        else:
            action = random_choices.choice(legal)
        answered = len(answers_to(sink, user.email))

        sent += 1
        send_reply(listener.port, user, prompt, action, sent)
        answer = next_answer(sink, user.email, answered)
        if engine.eliminates_mover(state, action):  # R15: the answer asks to confirm
            assert "eliminates you (R15)" in answer.text, answer.text
            sent += 1
            send_reply(listener.port, user, answer, "confirm", sent)
            answer = next_answer(sink, user.email, answered + 1)

        assert "Your decision was recorded" in answer.text, answer.text
        assert answer.message["In-Reply-To"] == f"<game-{game.pk}@localhost>"
        decisions += 1
        game.refresh_from_db()
        assert game.turn_number == decisions
        assert Move.objects.get(game=game, number=decisions).action == action

    assert game.winner is not None
    moves = list(Move.objects.filter(game=game).select_related("seat"))
    assert {move.source for move in moves} == {Move.Source.EMAIL}
    assert all(move.actor_id == move.seat.user_id for move in moves)
    assert services.rebuild_position(game)
    outcomes = Counter(InboundMessage.objects.values_list("outcome", flat=True))
    assert outcomes[InboundMessage.Outcome.APPLIED] == decisions
    assert set(outcomes) <= {InboundMessage.Outcome.APPLIED, InboundMessage.Outcome.CONFIRM}
    assert set(InboundMessage.objects.values_list("transport", flat=True)) == {"listener"}
    for player in (alice, bob):
        sink.wait_for(
            lambda mail, to=player.email: (
                mail.subject.endswith(": game over") and mail.recipients == (to,)
            ),
            f"the game-over mail to {player.email}",
        )
    dice_verified_by_a_stranger(live_server, game, tmp_path / "player")
