"""Received-mail benchmark: the CPU one message with thousands of MIME parts costs.

    .venv/bin/python -m bench.inbound [--parts 5000] [--repeat 3]

On the local PostgreSQL database ``ww5_bench`` (created if missing, migrated), starts one
game between two players with addresses, then hands ``handle_message`` a reply of
``--parts`` small text parts (about 0.5 MB, under INBOUND_MAX_BYTES) three ways: without
a reply token, with the player's genuine token from a stranger's address, and from the
player with their token. Each is handled ``--repeat`` times in a transaction rolled back
afterwards; prints the CPU seconds (process time) of the slowest run of each, one a
line, and what was done. Every loop is bounded: the script stops by itself.
"""

from __future__ import annotations

import argparse
import time
from typing import Any
from uuid import uuid4

from bench.deadlines import game_in_play, setup_django
from bench.web import DATABASE_URL, create_database


def started_game() -> tuple[Any, Any, str]:
    """A game in play (the strict setup done): its first player and their reply address."""
    from django.contrib.auth.models import User

    from games import replyto

    alice, _ = User.objects.get_or_create(
        username="bench-inbound-alice", defaults={"email": "alice@bench.example.org"}
    )
    bob, _ = User.objects.get_or_create(
        username="bench-inbound-bob", defaults={"email": "bob@bench.example.org"}
    )
    game = game_in_play(alice, bob, "bench inbound")
    seat = game.to_move
    assert seat is not None and seat.user is not None
    return game, seat.user, replyto.reply_address(game, seat)


def many_parts(sender: str, to: str, parts: int) -> bytes:
    head = (
        f"From: {sender}\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <{uuid4().hex}@bench.example.org>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
    )
    part = "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nboard\r\n"
    return (head + part * parts + "--b--\r\n").encode()


def timed(raw: bytes, repeat: int) -> tuple[float, str]:
    from django.db import transaction

    from inbound.services import handle_message

    slowest, outcome = 0.0, ""
    for _ in range(repeat):
        with transaction.atomic():
            started = time.process_time()
            handled = handle_message(raw, transport="pipe")
            slowest = max(slowest, time.process_time() - started)
            outcome = f"{handled.outcome}{' (answered)' if handled.answered else ''}"
            transaction.set_rollback(True)
    return slowest, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    create_database(DATABASE_URL)
    setup_django()
    from django.db import transaction

    with transaction.atomic():
        game, player, address = started_game()
        cases = [
            ("no reply token", many_parts(player.email, "play@localhost", args.parts)),
            ("a stranger with a genuine token", many_parts("m@x.example", address, args.parts)),
            ("the player with their token", many_parts(player.email, address, args.parts)),
        ]
        print(f"{args.parts} MIME parts, {len(cases[0][1]):,} bytes")
        for name, raw in cases:
            seconds, outcome = timed(raw, args.repeat)
            print(f"{name}: {seconds:.3f} s CPU, {outcome}")
        transaction.set_rollback(True)  # the bench game is not kept


if __name__ == "__main__":
    main()
