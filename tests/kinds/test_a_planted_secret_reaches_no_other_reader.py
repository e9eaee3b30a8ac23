"""A secret planted in a game's state reaches no reader it is not for. Whispers (a kind of
these tests only) is secret numbers in which each player holds a note that its view
shows to that player alone while the game runs. With alice's note (a marker string) in
the stored state, it appears in nothing shown to bob, to carol or to a spectator: the
game page, its live fragment, the replay at every step, the record JSON, bob's decision
link, every mail to bob and carol (their decision mails with links, reminders, the
answers to their replies by mail, a digest) with its picture spec, and the admin of an
organiser who does not play. Alice sees her own, and everyone sees it once the game is
over."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games import links, services
from games.kinds import Position, Viewer
from games.models import Game
from inbound.models import InboundMessage
from tests.games.factories import Clock, alice, bob, carol, clock, olga
from tests.kinds.numbers import SecretNumbers
from tests.kinds.registered import registered
from tests.kinds.test_mails_of_another_kind import (
    digest_of,
    mails_to,
    remind,
    say,
    started,
    text_of,
)
from tests.kinds.test_pages_of_a_kind import page, record

__all__ = ["alice", "bob", "carol", "clock", "olga"]

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).parent / "templates"
ALICES_NOTE = "MARKER-alice-7f3a9c"


def note_of(player: str) -> str:
    return {"p1": ALICES_NOTE}.get(player, f"note-of-{player}")


class Whispers(SecretNumbers):
    """Secret numbers in which each player holds a note no one else may read."""

    key: ClassVar[str] = "whispers"
    name: ClassVar[str] = "Whispers"
    template_folder: ClassVar[str] = "whispers"

    def start_again(self, players: Any, options: Mapping[str, Any], record: Any) -> Position:
        state = super().start_again(players, options, record)
        return {**state, "notes": {p: note_of(p) for p in state["players"]}}

    def load(self, position: Position) -> Position:
        return {**super().load(position), "notes": dict(position.get("notes", {}))}

    def view(self, position: Position, viewer: Viewer) -> Position:
        shown = super().view(position, viewer)
        if viewer.everything:
            return shown
        notes = {p: n for p, n in position.get("notes", {}).items() if p == viewer.player}
        return {**shown, "notes": notes}

    def position_lines(
        self, options: Mapping[str, Any], position: Position, names: Mapping[str, str]
    ) -> list[str]:
        return [f"{names.get(p, p)}'s note: {n}" for p, n in position.get("notes", {}).items()]


@pytest.fixture(autouse=True)
def whispers(settings: Any) -> Iterator[Whispers]:
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [*engine["DIRS"], TEMPLATES]}]
    with registered(Whispers()) as kind:
        yield kind


@pytest.fixture
def game(whispers: Whispers, clock: Clock, alice: User, bob: User, carol: User) -> Game:
    """Alice and carol have picked by mail; bob has asked for the board, his moves and
    help, and been reminded; the round waits for bob."""
    made = started(whispers, alice, bob, carol)
    assert ALICES_NOTE in json.dumps(made.position), "the secret is in the stored state"
    applied = InboundMessage.Outcome.APPLIED
    assert say(made, alice, "pick 4") == applied and say(made, carol, "pick 2") == applied
    for command in ("board", "moves", "help"):
        assert say(made, bob, command) == InboundMessage.Outcome.ANSWERED
        assert say(made, carol, command) == InboundMessage.Outcome.ANSWERED
    remind(made)
    made.refresh_from_db()
    assert made.is_active and made.turn_number == 2
    return made


def web_pages(game: Game, reader: User | None) -> dict[str, str]:
    """Every page of the game a reader opens, by name."""
    pk = game.pk
    shown = {
        "game": page(reader, reverse("games:detail", args=[pk])),
        "live": page(reader, reverse("games:live", args=[pk])),
        "record": json.dumps(record(reader, game)),
    }
    for step in range(game.turn_number + 1):
        shown[f"replay {step}"] = page(reader, reverse("games:replay", args=[pk]) + f"?step={step}")
    return shown


def told_by_mail(game: Game, user: User, clock: Clock) -> list[str]:
    """Every mail to ``user`` about the game, with its picture spec, and a digest."""
    mails = [*mails_to(user, game), digest_of(user, game, clock)]
    return [text_of(m) + json.dumps(m.inline_spec) + m.reply_to for m in mails]


def admin_pages(game: Game, user: User) -> list[str]:
    moves = [reverse("admin:games_move_change", args=[move.pk]) for move in game.moves.all()]
    return [
        page(user, url)
        for url in (
            reverse("admin:games_game_change", args=[game.pk]),
            reverse("admin:games_move_changelist"),
            *moves,
        )
    ]


def test_the_secret_reaches_no_other_reader_while_the_game_runs(
    game: Game, clock: Clock, alice: User, bob: User, carol: User, olga: User
) -> None:
    for reader in (bob, carol, None):
        for name, shown in web_pages(game, reader).items():
            assert ALICES_NOTE not in shown, (reader, name)
    bobs_seat = game.seats.get(user=bob)
    link = links.decision_url(game, bobs_seat).split("localhost:8000", 1)[-1]
    assert ALICES_NOTE not in page(None, link)
    for user in (bob, carol):
        told = told_by_mail(game, user, clock)
        assert len(told) >= 5, "decision mails, answers, a reminder and a digest"
        for text in told:
            assert ALICES_NOTE not in text, user.username
    for shown in admin_pages(game, olga):
        assert ALICES_NOTE not in shown


def test_each_player_reads_their_own_note(game: Game, clock: Clock, alice: User, bob: User) -> None:
    assert ALICES_NOTE in web_pages(game, alice)["game"]
    assert "p2's note: note-of-p2" in web_pages(game, bob)["game"]
    bobs_board = [m for m in mails_to(bob, game, "reply") if "note-of-p2" in m.body_text]
    assert bobs_board, "the answer to bob's 'board' shows his own note"
    assert say(game, alice, "board") == InboundMessage.Outcome.ANSWERED
    assert ALICES_NOTE in mails_to(alice, game, "reply")[-1].body_text


def test_everyone_reads_the_secret_once_the_game_is_over(
    game: Game, alice: User, bob: User, carol: User, olga: User
) -> None:
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    for reader in (bob, carol, None):
        shown = web_pages(game, reader)
        assert ALICES_NOTE in shown["game"] and ALICES_NOTE in shown["record"], reader
    assert any(ALICES_NOTE in shown for shown in admin_pages(game, olga))
