"""Commitments for sealed actions (K38, K39, contract K37): each sealed placement, and
each half of a war with the war die, is recorded with a fresh 16-byte nonce r and its
commitment H. Its sender gets a receipt with H, the other players (those K39c names, for
a war) are told that they have submitted, with H; nobody else sees the action or r before
the reveal, on a page, in a record or in a mail. At the reveal everyone gets every
action and r and recomputes every H they were sent; a forged or replayed reply changes
nothing; World War 5's moves carry no commitment."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Move
from games.options import GameOptions
from inbound.services import handle_message
from mail.models import OutgoingMail
from risiko.engine import verify_commitment
from risiko.engine.commitment import PLACEMENT_DECISION, war_decision
from risiko.kind import RisiKo
from tests.games.factories import (
    STRICT_SETUP,
    Clock,
    LoadedDice,
    alice,
    bob,
    carol,
    clock,
    dice,
    olga,
    play,
    seated_game,
)
from tests.kinds.registered import registered
from tests.risiko.test_kind import at_war

__all__ = ["alice", "bob", "carol", "clock", "dice", "olga"]

pytestmark = pytest.mark.django_db

PLAYERS = ("red", "blue", "yellow")
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


@pytest.fixture(autouse=True)
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


def table(name: str, *users: User, **rules: Any) -> Game:
    seats = [services.TableSeat("", user=user) for user in users]
    options = GameOptions(kind="risiko", rules=rules) if rules else GameOptions(kind="risiko")
    with transaction.atomic():
        made = services.create_table(options, seats, name=name)
    made.refresh_from_db()
    return made


@pytest.fixture
def game(clock: Clock, alice: User, bob: User, carol: User) -> Game:
    """Alice (red), bob (blue) and carol (yellow) at a RisiKo table, in its placement."""
    return table("Sealed night", alice, bob, carol)


def user_of(game: Game, player: str) -> User:
    seat = game.seats.get(number=PLAYERS.index(player) + 1)
    assert seat.user is not None
    return seat.user


def place(game: Game, risiko: RisiKo, player: str) -> str:
    """``player`` sends the default placement (a legal one); returns its action."""
    game.refresh_from_db()
    (action,) = risiko.legal(risiko.load(game.position), player)
    services.submit_move(game.pk, user_of(game, player), action, game.turn_number)
    game.refresh_from_db()
    return action


def page(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def record(user: User | None, game: Game) -> dict[str, Any]:
    return json.loads(page(user, reverse("games:record", args=[game.pk])))


def mails(user: User, game: Game, kind: str | None = None) -> list[OutgoingMail]:
    found = OutgoingMail.objects.filter(to_user=user, thread=f"game-{game.pk}").order_by("id")
    return list(found.filter(kind=kind) if kind else found)


def text_of(mail: OutgoingMail) -> str:
    return "\n".join((mail.subject, mail.body_text, mail.body_html, json.dumps(mail.inline_spec)))


def everything_shown_to(user: User, game: Game) -> str:
    """Every page, record and mail of the game ``user`` may read."""
    shown = [page(user, reverse("games:detail", args=[game.pk]))]
    shown.append(page(user, reverse("games:record", args=[game.pk])))
    shown.append(page(user, reverse("games:replay", args=[game.pk])))
    shown += [text_of(mail) for mail in mails(user, game)]
    return "\n".join(shown)


def sealed_moves(game: Game) -> list[Move]:
    return list(game.moves.exclude(commitment="").order_by("number"))


def revealed_in(mail: OutgoingMail) -> dict[str, tuple[str, str, str, str]]:
    """A reveal mail's entries, by player: (decision, action, r, H), read from its text."""
    entries = {}
    blocks = re.findall(
        r"^\d+\. .*?: (?P<action>.+)\n\s+r = (?P<r>[0-9a-f]{32})\n\s+H = (?P<h>[0-9a-f]{64})\n"
        r"\s+H is the SHA-256 of: (?P<text>.+)$",
        mail.body_text,
        re.MULTILINE,
    )
    for action, nonce, digest, text in blocks:
        prefix, game_id, decision, player, committed, nonce_again = text.split("|")
        assert prefix == "risiko-sealed-v1" and str(mail.thread) == f"game-{game_id}"
        assert (committed, nonce_again) == (action, nonce), "the text is the action and r"
        assert hashlib.sha256(text.encode()).hexdigest() == digest, "H is the text's digest"
        entries[player] = (decision, action, nonce, digest)
    return entries


def test_each_sealed_placement_is_recorded_with_a_nonce_and_a_commitment_that_recomputes(
    game: Game, risiko: RisiKo
) -> None:
    actions = {player: place(game, risiko, player) for player in PLAYERS}

    moves = sealed_moves(game)
    assert [m.seat.player_name for m in moves] == list(PLAYERS)
    revealed = moves[-1].events
    shown = next(e for e in revealed if e["type"] == "revealed")["placements"]
    for move in moves:
        player = move.seat.player_name
        assert move.decision == PLACEMENT_DECISION and len(move.nonce) == 32
        assert move.action == actions[player] == shown[player], "the canonical action"
        assert verify_commitment(
            move.commitment, str(game.pk), PLACEMENT_DECISION, player, shown[player], move.nonce
        )
        assert not verify_commitment(
            move.commitment, str(game.pk), PLACEMENT_DECISION, player, shown[player], "0" * 32
        )
    assert len({m.nonce for m in moves}) == 3, "a fresh nonce for each"
    assert not game.moves.filter(number__gt=moves[-1].number).exclude(commitment="").exists()


def test_before_the_reveal_no_one_else_sees_the_action_or_the_nonce_and_the_sender_has_a_receipt(
    game: Game, risiko: RisiKo
) -> None:
    red_action = place(game, risiko, "red")
    [move] = sealed_moves(game)
    red = user_of(game, "red")

    for player in ("blue", "yellow"):
        reader = user_of(game, player)
        shown = everything_shown_to(reader, game)
        assert red_action not in shown and move.nonce not in shown, player
        assert move.commitment in shown, "H is public from the start"
        [told] = mails(reader, game, "commitment")
        assert told.subject.startswith("[RisiKo] Sealed night: ")
        assert f"has submitted, commitment {move.commitment}" in told.body_text
        [entry] = record(reader, game)["moves"]
        assert entry["commitment"] == move.commitment and "nonce" not in entry
        assert entry["action"] == "place (sealed)"
    spectator = page(None, reverse("games:detail", args=[game.pk])) + page(
        None, reverse("games:record", args=[game.pk])
    )
    assert red_action not in spectator and move.nonce not in spectator
    assert move.commitment in spectator

    [receipt] = mails(red, game, "receipt")
    assert receipt.subject == "[RisiKo] Sealed night: your sealed placement was received"
    assert move.commitment in receipt.body_text and move.commitment in receipt.body_html
    assert red_action in receipt.body_text
    assert move.nonce not in text_of(receipt), "K38: the receipt is H; r comes at the reveal"
    assert not mails(red, game, "commitment"), "the sender is not told of their own"
    [entry] = record(red, game)["moves"]
    assert (entry["action"], entry["nonce"]) == (red_action, move.nonce), "their own, in full"
    assert not OutgoingMail.objects.filter(kind="reveal").exists()


def test_after_the_reveal_every_player_verifies_every_commitment_they_were_sent(
    game: Game, risiko: RisiKo
) -> None:
    for player in PLAYERS:
        place(game, risiko, player)
    moves = {m.seat.player_name: m for m in sealed_moves(game)}

    for reader in PLAYERS:
        user = user_of(game, reader)
        # what they were sent before the reveal: their receipt and the others' news
        [receipt] = mails(user, game, "receipt")
        sent = {reader: HEX64.findall(receipt.body_text)[0]}
        for told in mails(user, game, "commitment"):
            sender = next(p for p in PLAYERS if p in told.body_text.split("has submitted")[0])
            sent[sender] = HEX64.findall(told.body_text)[0]
        assert set(sent) == set(PLAYERS)

        [reveal] = mails(user, game, "reveal")
        assert reveal.subject == "[RisiKo] Sealed night: the sealed placement revealed"
        assert "SHA-256 hex digest of the UTF-8 text" in reveal.body_text
        assert "risiko-sealed-v1|<game id>|<decision id>|<player>|" in reveal.body_text
        entries = revealed_in(reveal)
        assert set(entries) == set(PLAYERS)
        for player, (decision, action, nonce, digest) in entries.items():
            assert digest == sent[player], "the H revealed is the one sent before"
            assert verify_commitment(sent[player], str(game.pk), decision, player, action, nonce)
            assert (action, nonce) == (moves[player].action, moves[player].nonce)

        for entry in record(user, game)["moves"][:3]:
            mover = moves[entry["player"]]
            assert (entry["action"], entry["nonce"]) == (mover.action, mover.nonce)
            assert entry["decision"] == PLACEMENT_DECISION
            assert verify_commitment(
                entry["commitment"],
                str(game.pk),
                entry["decision"],
                entry["player"],
                entry["action"],
                entry["nonce"],
            )
        shown = page(user, reverse("games:detail", args=[game.pk]))
        assert all(m.nonce in shown for m in moves.values()), "the log shows every r"


def test_a_players_mail_preferences_and_mutes_hold_for_the_news_but_not_for_the_receipt(
    game: Game, risiko: RisiKo
) -> None:
    bob, carol, alice = (user_of(game, p) for p in ("blue", "yellow", "red"))
    bob.profile.notify = "decisions"
    bob.profile.save()
    game.seats.filter(user=alice).update(muted=True)

    place(game, risiko, "red")

    assert not mails(bob, game, "commitment"), "bob wants mails about his decisions only"
    assert len(mails(carol, game, "commitment")) == 1
    assert len(mails(alice, game, "receipt")) == 1, "a receipt even in a muted game"


def test_the_default_placements_made_at_the_deadline_are_committed_and_revealed_too(
    game: Game, risiko: RisiKo, clock: Clock
) -> None:
    place(game, risiko, "red")
    assert game.deadline is not None
    clock.at = game.deadline
    assert services.handle_missed_decision(game.pk) == "grace"
    game.refresh_from_db()
    assert game.deadline is not None
    clock.at = game.deadline
    assert services.handle_missed_decision(game.pk) == "timeout move"

    game.refresh_from_db()
    moves = sealed_moves(game)
    assert [(m.seat.player_name, m.source) for m in moves] == [
        ("red", "web"),
        ("blue", "timeout"),
        ("yellow", "timeout"),
    ]
    for move in moves:
        assert verify_commitment(
            move.commitment,
            str(game.pk),
            PLACEMENT_DECISION,
            move.seat.player_name,
            move.action,
            move.nonce,
        )
    for player in PLAYERS:
        [reveal] = mails(user_of(game, player), game, "reveal")
        assert set(revealed_in(reveal)) == set(PLAYERS)


def test_a_game_over_before_the_reveal_shows_every_nonce_to_everyone(
    game: Game, risiko: RisiKo, olga: User
) -> None:
    red_action = place(game, risiko, "red")
    [move] = sealed_moves(game)
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")

    [entry] = record(None, game)["moves"]
    assert (entry["action"], entry["nonce"]) == (red_action, move.nonce)


def test_a_forged_or_replayed_reply_changes_nothing(
    game: Game, risiko: RisiKo, carol: User
) -> None:
    red = user_of(game, "red")
    decision = mails(red, game, "decision")[-1]
    (action,) = risiko.legal(risiko.load(game.position), "red")

    def reply(sender: str, text: str, message_id: str, to: str = decision.reply_to) -> str:
        raw = (
            f"From: {sender}\r\nTo: {to}\r\nSubject: Re: {decision.subject}\r\n"
            f"Message-ID: <{message_id}@x>\r\n\r\n{text}\r\n"
        ).encode()
        return str(handle_message(raw, transport="pipe").outcome)

    def snapshot() -> tuple[Any, ...]:
        game.refresh_from_db()
        moves = list(
            Move.objects.filter(game=game).values_list(
                "number", "action", "decision", "nonce", "commitment"
            )
        )
        told = sorted(
            OutgoingMail.objects.filter(kind__in=("receipt", "commitment", "reveal")).values_list(
                "kind", "to_address"
            )
        )
        return moves, told, game.position

    assert reply(carol.email, action, "forged-sender") != "applied"  # carol, red's token
    assert reply(red.email, action, "bad-token", to="play+forged.1.2.3@localhost") != "applied"
    assert snapshot()[0] == []

    assert reply(red.email, action, "first") == "applied"
    before = snapshot()
    [(_, _, decision_id, nonce, digest)] = before[0]
    assert decision_id == PLACEMENT_DECISION and nonce and digest

    assert reply(red.email, action, "first") == "duplicate", "the same message again"
    other = action.replace("place ", "place 1 ", 1) if "," in action else action
    assert reply(red.email, other, "second") != "applied", "K38: the first is final"
    assert reply(carol.email, action, "forged-again") != "applied"
    assert snapshot() == before, "no move, nonce, commitment or mail more"


def test_a_war_commits_both_halves_under_war_n_and_reveals_them_to_both(
    risiko: RisiKo, alice: User, bob: User, carol: User
) -> None:
    """K39: the attack's cost and the defender's answer are sealed, decision war-<n>, n
    the attack's move number; both commitments go to both, and the reveal to both."""
    game, first, defender_name = at_war(risiko, (alice, bob, carol))
    attacker = user_of(game, first)
    attack = game.moves.get(number=game.turn_number).action
    assert re.fullmatch(r"attack \S+ from \S+ cost 1", attack), "the attacker's sealed war"
    reinforcement = game.moves.get(number=game.turn_number - 1)
    assert not reinforcement.commitment, "a reinforcement is public"
    defender = user_of(game, defender_name)
    (third_name,) = set(PLAYERS) - {first, defender_name}
    third = user_of(game, third_name)
    opened = game.moves.get(number=game.turn_number)
    decision = war_decision(opened.number)
    assert (opened.action, opened.decision) == (attack, decision)

    for reader in (defender, third):
        [entry] = [e for e in record(reader, game)["moves"] if e["number"] == opened.number]
        assert entry["commitment"] == opened.commitment and "nonce" not in entry
        assert opened.nonce not in everything_shown_to(reader, game)
    assert f"commitment {opened.commitment}" in mails(defender, game, "commitment")[-1].body_text
    assert not [m for m in mails(third, game, "commitment") if opened.commitment in m.body_text]
    assert opened.commitment in mails(attacker, game, "receipt")[-1].body_text

    services.submit_move(game.pk, defender, "war cost 0", game.turn_number)
    game.refresh_from_db()
    answer = game.moves.get(number=game.turn_number)
    assert (answer.action, answer.decision) == ("war cost 0", decision)
    told = mails(attacker, game, "commitment")[-1]
    assert f"commitment {answer.commitment}" in told.body_text

    for move, player in ((opened, first), (answer, defender_name)):
        assert verify_commitment(
            move.commitment, str(game.pk), decision, player, move.action, move.nonce
        )

    def war_reveals(user: User) -> list[OutgoingMail]:
        return [m for m in mails(user, game, "reveal") if f'"{decision}"' in m.body_text]

    for user in (attacker, defender):
        [reveal] = war_reveals(user)
        assert "the sealed war decision revealed" in reveal.subject
        entries = revealed_in(reveal)
        assert entries[first] == (decision, attack, opened.nonce, opened.commitment)
        assert entries[defender_name] == (decision, "war cost 0", answer.nonce, answer.commitment)
    assert not war_reveals(third), "K39c: between the two players"
    shown = {e["number"]: e for e in record(third, game)["moves"]}
    assert shown[opened.number]["action"] == attack, "after the answer, the whole attack"
    assert shown[opened.number]["nonce"] == opened.nonce
    assert shown[answer.number]["nonce"] == answer.nonce


def test_world_war_5_moves_carry_no_commitment(
    dice: LoadedDice, alice: User, bob: User, clock: Clock
) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP, "move usa colombia")

    assert game.moves.count() == len(STRICT_SETUP) + 1
    assert not game.moves.exclude(commitment="").exists()
    assert not game.moves.exclude(nonce="").exists()
    assert not game.moves.exclude(decision="").exists()
    for entry in record(alice, game)["moves"]:
        assert not {"commitment", "nonce", "decision"} & set(entry)
    assert not OutgoingMail.objects.filter(kind__in=("receipt", "commitment", "reveal")).exists()
