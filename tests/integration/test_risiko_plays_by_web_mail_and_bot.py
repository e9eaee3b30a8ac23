"""A RisiKo table of four played to its end as on the site: two players on the web (one
posting an action at a time to the game's move address, the other whole turns), one by
replying to their decision mails with whole turn scripts (K34) over SMTP to the site's
listener (``manage.py mail_listener``), and a bot seat the real Celery worker plays.
The people pick their actions with the engine's greedy bot on their own views (K33).

Then the record replays exactly: the server's replay ends at the stored position, and
every step's position in the record JSON is what a fresh replay with ``risiko.engine``
makes from the record alone (the start's values, each move with its recorded values).

The worker, the beat and the listener run RisiKo because their environment names it
(``GAME_KINDS=risiko``); this process registers it for the test's time.
"""

from __future__ import annotations

import random
import smtplib
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import replyto, selectors, services
from games.models import Game, Move, Seat
from games.options import GameOptions
from inbound.models import InboundMessage
from risiko import engine
from risiko.engine.bots import greedy_bot
from risiko.kind import RisiKo
from tests.integration.helpers import (
    CeleryProcesses,
    Delivered,
    SmtpSink,
    WebServer,
    free_port,
    players_dice_check,
    wait_until,
)
from tests.kinds.registered import registered
from tests.personas import persona

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

User = AbstractBaseUser
carol = persona("carol")
PLAY_SECONDS = 240  # greedy players finish a four-player game in 15 to 50 turns
MAX_SCRIPT_CHARS = 3800  # the decision form takes 4,000


@pytest.fixture(autouse=True)
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


@pytest.fixture
def worker_environment() -> dict[str, str]:
    """The worker, the beat and the listener run RisiKo too."""
    return {"GAME_KINDS": "risiko"}


@pytest.fixture
def listener(celery: CeleryProcesses, tmp_path: Path) -> Iterator[WebServer]:
    """``manage.py mail_listener`` with the worker's settings, on a free port."""
    port = free_port()
    command = [sys.executable, "manage.py", "mail_listener", "--host=127.0.0.1", f"--port={port}"]
    server = WebServer(command, port, celery.env, tmp_path)
    server.start()
    yield server
    server.stop()


# --- the players ------------------------------------------------------------------------


def planned_turn(state: engine.State, player: str, rng: random.Random) -> list[str]:
    """The greedy bot's actions for the rest of ``player``'s decision, as it would play
    them on its own view with dice of its own: a placement, or a turn to its end. The
    server's dice differ, so a line may then be skipped or the turn not reach its end."""
    dice = random.Random(rng.random())
    lines: list[str] = []
    while player in state.awaiting and state.phase != "over":
        action = greedy_bot(engine.view(state, player), rng)
        if len("\n".join([*lines, action])) > MAX_SCRIPT_CHARS:
            break
        lines.append(action)
        state, _ = engine.apply_action(state, player, action, dice)
        if state.phase == "placement" or action == "end":
            break
    return lines


def post_move(client: Client, game: Game, notation: str) -> None:
    """The move form's post, as the game page makes it; it must be recorded."""
    response = client.post(
        reverse("games:move", args=[game.pk]), {"turn": game.turn_number, "notation": notation}
    )
    problems = [str(m) for m in get_messages(response.wsgi_request)]
    assert response.status_code == 302, (response.status_code, notation, problems)


def token_of(mail: Delivered) -> replyto.ReplyToken | None:
    address = replyto.token_of(str(mail.message["Reply-To"] or ""))
    return replyto.read_token(address) if address else None


def open_decision_mail(sink: SmtpSink, game: Game, seat: Seat) -> Delivered:
    """The newest mail to the seat's player whose reply address is for the decision open
    now (a reply address stays good for the rest of its decision). Mails arrive in the
    order they are sent, not always in the order their changes were made: the answer to
    the player's last reply, made before another player's move began their decision,
    may come after the mail that asks for it."""
    assert seat.user is not None

    def found() -> Delivered | None:
        mails = [
            (mail, token)
            for mail in sink.delivered()
            if mail.recipients == (seat.user.email,)
            and (token := token_of(mail)) is not None
            and token.for_decision
            and token.game_id == game.pk
        ]
        if not mails:
            return None
        game.refresh_from_db()
        seat.refresh_from_db()
        assert all(token.seat_id == seat.pk for _, token in mails)
        open_now = [m for m, t in mails if selectors.decision_open(game, seat, t.turn)]
        return open_now[-1] if open_now else None

    def seen() -> str:
        game.refresh_from_db()
        seat.refresh_from_db()
        mails = [
            (mail.subject, token.turn if (token := token_of(mail)) else None)
            for mail in sink.delivered()
            if mail.recipients == (seat.user.email,)
        ]
        return (
            f"the decision mail of {seat.player_name} (game at move {game.turn_number}, "
            f"its decision since move {game.decision_turn}, to move: {game.to_move_id}, "
            f"seat {seat.pk} deciding: {seat.deciding}; the player's mails and their "
            f"decision's moves: {mails[-6:]})"
        )

    return wait_until(found, 30, seen, every=0.05)


def answers_to(sink: SmtpSink, address: str) -> list[Delivered]:
    return [
        mail
        for mail in sink.delivered()
        if mail.subject.startswith("Re: ") and mail.recipients == (address,)
    ]


def reply_with_script(port: int, user: User, prompt: Delivered, lines: list[str], n: int) -> None:
    """``user`` replies to ``prompt`` from a mail client: the turn's lines on top, the
    prompt quoted below."""
    reply = EmailMessage()
    reply["From"] = f"Carol <{user.email}>"
    reply["To"] = str(prompt.message["Reply-To"])
    reply["Subject"] = f"Re: {prompt.subject}"
    reply["Message-ID"] = f"<risiko-reply-{n}-{user.pk}@client.example.com>"
    reply["In-Reply-To"] = prompt.message_id
    quoted = "\n".join(f"> {line}" for line in prompt.text.splitlines()[:20])
    script = "\n".join(lines)
    reply.set_content(f"{script}\n\nOn Tuesday, RisiKo wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        assert smtp.send_message(reply) == {}


# --- the replay from the record alone ------------------------------------------------------


def replayed_from_record(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of the game (the start, then one per move) as ``risiko.engine``
    makes it again from the record: the start's values, then each move with the values
    it drew, which it uses up exactly."""
    assert record["board"] in engine.BOARDS, "RisiKo's board is the record's board"
    options = {**record["options"], "board": record["board"]}
    seats = [{"name": s["player"], "color": s["player"]} for s in record["seats"]]
    [setup] = [e for e in record["start"] if e.get("type") == "setup"]
    start = engine.ListRandom(setup["rng"])
    state = engine.new_game(seats, options, start)
    assert start.remaining == (), "the start uses up its recorded values"
    positions = [engine.dump_position(state)]
    for move in record["moves"]:
        player, action = move["player"], move["action"]
        values = engine.ListRandom(move["dice"])
        if action.startswith("forfeit "):
            state = engine.forfeit(state, action.split(" ", 1)[1])[0]
        elif ";" in action:  # a turn script's lines done, one move (K34)
            state, report = engine.run_script(state, player, action, values)
            assert all(line["status"] == "done" for line in report), (move["number"], report)
        else:
            state = engine.apply_action(state, player, action, values)[0]
        assert values.remaining == (), f"move {move['number']} leaves values unused"
        positions.append(engine.dump_position(state))
    return positions


# --- the game ------------------------------------------------------------------------------


def test_a_risiko_table_plays_to_its_end_by_web_mail_and_bot_and_anyone_checks_its_dice(
    celery: CeleryProcesses,
    listener: WebServer,
    sink: SmtpSink,
    alice: User,
    bob: User,
    carol: User,
    tmp_path: Path,
) -> None:
    seats = [services.TableSeat("", user=user) for user in (alice, bob, carol)]
    seats.append(services.TableSeat("", bot="greedy"))
    with transaction.atomic():
        game = services.create_table(GameOptions(kind="risiko"), seats, name="Web, mail and bot")
    by_user = {seat.user_id: seat for seat in game.seats.all() if seat.user_id is not None}
    web = {alice.pk: Client(), bob.pk: Client()}
    for user in (alice, bob):
        web[user.pk].force_login(user)
    rng = random.Random(5)
    replies, posts = 0, {alice.pk: 0, bob.pk: 0}

    deadline = time.monotonic() + PLAY_SECONDS
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        assert game.is_active, f"the game stopped, {game.get_status_display()}"
        assert time.monotonic() < deadline, f"no winner after {game.turn_number} moves"
        people = [
            seat
            for seat in selectors.waiting_seats(game, list(game.seats.all()))
            if seat.user_id is not None
        ]
        if not people:  # the bot's decision: the worker plays it
            time.sleep(0.05)
            continue
        seat = people[0]
        player = seat.player_name
        state = engine.load_position(game.position)
        if seat.user_id == alice.pk:  # an action at a time
            post_move(web[alice.pk], game, greedy_bot(engine.view(state, player), rng))
            posts[alice.pk] += 1
        elif seat.user_id == bob.pk:  # a whole turn in the form's box
            post_move(web[bob.pk], game, "\n".join(planned_turn(state, player, rng)))
            posts[bob.pk] += 1
        else:  # carol: a whole turn by replying to the decision mail
            prompt = open_decision_mail(sink, game, seat)
            state = engine.load_position(game.position)
            answered = len(answers_to(sink, carol.email))
            replies += 1
            reply_with_script(
                listener.port, carol, prompt, planned_turn(state, player, rng), replies
            )
            sink.wait_for(
                lambda _, seen=answered: len(answers_to(sink, carol.email)) > seen,
                f"the answer to reply {replies}",
            )
            answer = answers_to(sink, carol.email)[answered]
            assert "Your turn's lines, one by one:" in answer.text, answer.text

    assert game.winner is not None and game.position["winner"] == game.winner.player_name
    moves = list(Move.objects.filter(game=game).select_related("seat"))
    sources = {
        seat.player_name: {m.source for m in moves if m.seat_id == seat.pk}
        for seat in game.seats.all()
    }
    bot_seat = game.seats.get(user__isnull=True)
    assert sources[by_user[alice.pk].player_name] == {Move.Source.WEB}
    assert sources[by_user[bob.pk].player_name] == {Move.Source.WEB}
    assert sources[by_user[carol.pk].player_name] == {Move.Source.EMAIL}
    assert sources[bot_seat.player_name] == {Move.Source.BOT}
    assert posts[alice.pk] and posts[bob.pk] and replies
    for whole_turns in (by_user[bob.pk], by_user[carol.pk]):
        assert any(";" in m.action for m in moves if m.seat_id == whole_turns.pk), "a turn's lines"
    applied = InboundMessage.objects.filter(outcome=InboundMessage.Outcome.APPLIED).count()
    assert applied == replies
    assert set(InboundMessage.objects.values_list("transport", flat=True)) == {"listener"}

    # The server's replay ends at the stored position.
    kind = RisiKo()
    assert kind.dump(selectors.replay(game)[-1][1]) == game.position

    # The record JSON (everyone's, the game being over) replays exactly, step by step.
    response = Client().get(reverse("games:record", args=[game.pk]))
    assert response.status_code == 200
    record = response.json()
    assert record["kind"] == "risiko" and record["status"] == "over"
    assert record["winner"] == game.winner.player_name
    assert len(record["moves"]) == len(moves) == game.turn_number
    recorded = [record["initial_position"]] + [m["position"] for m in record["moves"]]
    replayed = replayed_from_record(record)
    for step, (shown, again) in enumerate(zip(recorded, replayed, strict=True)):
        assert shown == again, f"step {step} of the record differs from its replay"
    assert replayed[-1] == game.position

    # The same record passes the players' dice checker (tools/verify_dice.py run alone):
    # the deal and every roll are what the revealed seed gives, and each sealed action
    # (the initial placements, K38) is the one its commitment promised.
    drawn, dice = game.dice_drawn, record["dice"]
    assert dice["seed"] and dice["drawn"] == drawn > 0, (drawn, dice)
    sealed = [m for m in record["moves"] if m.get("commitment")]
    assert len(sealed) == Move.objects.filter(game=game).exclude(commitment="").count() > 0
    assert all(m["nonce"] and m["sealed_action"] for m in sealed), sealed
    lines = players_dice_check(response.content.decode(), tmp_path / "player")
    assert lines[-1] == (
        f"verified: commitment, players' words, {drawn} numbers #1–#{drawn}, "
        f"{len(sealed)} sealed commitments"
    ), lines
