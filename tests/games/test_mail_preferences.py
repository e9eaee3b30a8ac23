"""What each player hears, by their preference: a mail for each event, a daily digest,
or only their decisions; a muted game; and the board picture in a decision mail."""

from __future__ import annotations

import io
import re
import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from PIL import Image

from accounts.models import Profile
from accounts.services import update_profile
from games import digests, services
from games.models import Game
from games.notify import BOARD_CID, BOARD_PART
from mail import parts
from mail.models import OutgoingMail
from mail.services import build_message
from tests.games.factories import (
    CASUAL_SETUP,
    HOMES,
    STRICT_SETUP,
    LoadedDice,
    play,
    seat_of,
    seated_game,
    snapshot,
)
from ww5 import boardlayout, boardmarks, boardpng
from ww5.engine import BOARDS, load_position

pytestmark = pytest.mark.django_db

User = AbstractBaseUser


def mails(user: User, kind: str | None = None) -> list[OutgoingMail]:
    found = OutgoingMail.objects.filter(to_user=user).order_by("id")
    return list(found.filter(kind=kind) if kind else found)


def prefer(user: User, notify: str, time_zone: str = "UTC") -> None:
    update_profile(user, "", time_zone, notify)


@pytest.fixture
def trio(dice: LoadedDice, alice: User, bob: User, carol: User) -> Game:
    """alice (North America), bob (Europe), carol (South America), casual setup done:
    alice to move."""
    game = seated_game(dice, [alice, bob, carol], setup="casual")
    return play(game, *(CASUAL_SETUP[h] for h in HOMES[:3]))


# --- the board picture ---------------------------------------------------------------


def test_a_decision_mail_carries_the_board_as_an_inline_picture(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    mail = mails(alice, "decision")[-1]
    assert mail.inline_spec is not None and mail.inline_spec["position"] == game.position
    assert f'src="cid:{BOARD_CID}"' in mail.body_html

    message = build_message(mail).message()
    assert message.get_content_type() == "multipart/related"
    [image] = [part for part in message.walk() if part.get_content_type() == "image/png"]
    assert image["Content-ID"] == f"<{BOARD_CID}>"
    assert image.get_content_disposition() == "inline"
    picture = Image.open(io.BytesIO(image.get_payload(decode=True)))
    assert picture.format == "PNG" and picture.width == 800
    types = [part.get_content_type() for part in message.walk()]
    assert "text/plain" in types and "text/html" in types


def test_the_board_is_the_kind_of_inline_picture_games_registers_with_the_outbox(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    seated_game(dice, [alice, bob])

    assert parts.is_registered(BOARD_PART) and BOARD_CID == parts.content_id(BOARD_PART)
    assert mails(alice, "decision")[-1].inline_kind == BOARD_PART


def test_a_decision_mails_picture_marks_the_move_that_made_the_decision_due(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    play(seated_game(dice, [alice, bob]), *STRICT_SETUP)  # bob placed in Western Europe last
    mail = mails(alice, "decision")[-1]

    spec = mail.inline_spec
    assert spec is not None and spec["kind"] == "ww5"
    marks = boardmarks.marks_of(load_position(spec["position"]), spec["events"])
    assert marks.as_data()["changed"] == ["western-europe"]
    message = build_message(mail).message()
    [image] = [part for part in message.walk() if part.get_content_type() == "image/png"]
    picture = Image.open(io.BytesIO(image.get_payload(decode=True))).convert("RGB")
    europe = boardlayout.geometry(BOARDS["original"]).points["western-europe"]
    ring_pixel = boardpng.pixel((europe[0] + boardmarks.RING_RADIUS, europe[1]))
    assert picture.getpixel(ring_pixel) == boardpng.rgb(boardmarks.PATH_COLOR)


def test_a_board_that_cannot_be_drawn_leaves_the_mail_without_its_picture(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    seated_game(dice, [alice, bob])
    mail = mails(alice, "decision")[-1]
    mail.inline_spec = {"board": "no-such-board", "position": {}, "names": {}}

    message = build_message(mail).message()

    assert [p for p in message.walk() if p.get_content_type() == "image/png"] == []
    assert "place small alaska" in message.as_string()


def test_a_reminder_and_other_mails_carry_no_picture(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob])
    assert game.remind_at is not None
    services.sweep_reminders(now=game.remind_at)
    [reminder] = mails(alice, "reminder")
    assert reminder.inline_spec is None
    assert all(m.inline_spec is None for m in mails(bob) if m.kind != "decision")


# --- a mail for each event -----------------------------------------------------------


def test_a_player_attacked_while_not_deciding_next_hears_of_it(
    trio: Game, dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    before = {user: len(mails(user)) for user in (alice, bob)}
    play(trio, "invade usa colombia @ 1 1 1 6 6 6", dice=dice)  # fails: bob decides next

    [event] = mails(carol, "event")
    assert "you were attacked" in event.subject
    assert "invades Colombia" in event.body_text and "the attack fails" in event.body_text
    assert reverse("games:detail", args=[trio.pk]) in event.body_text
    # the attacker and bob (whose decision mail tells it) get no event mail
    assert mails(alice, "event") == [] and mails(bob, "event") == []
    assert len(mails(bob)) == before[bob] + 1 and len(mails(alice)) == before[alice]


def test_a_defender_who_must_retreat_hears_it_in_the_decision_mail_only(
    trio: Game, dice: LoadedDice, carol: User
) -> None:
    game = play(trio, "invade usa colombia @ 6 6 6 1 1 1", dice=dice)

    assert game.to_move == seat_of(game, carol)
    assert mails(carol, "event") == []
    assert "your retreat" in mails(carol, "decision")[-1].subject


def test_everyone_hears_when_a_player_forfeits(
    trio: Game, alice: User, bob: User, carol: User, olga: User
) -> None:
    services.forfeit_seat(trio.pk, olga, seat_of(trio, bob).pk, "admin")

    [event] = mails(carol, "event")
    assert "a player is out" in event.subject and "forfeits" in event.body_text
    assert mails(bob, "event") == []  # the forfeiting seat's own move
    assert mails(alice, "event") == []  # alice decides next: her decision mail tells it


@pytest.mark.parametrize("notify", ["digest", "decisions"])
def test_players_who_want_no_mail_per_event_get_none(
    trio: Game, dice: LoadedDice, carol: User, notify: str
) -> None:
    prefer(carol, notify)
    play(trio, "invade usa colombia @ 1 1 1 6 6 6", dice=dice)
    assert mails(carol, "event") == []


# --- muting a game -------------------------------------------------------------------


def test_a_muted_game_sends_no_mail_but_the_missed_decision_notice(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob])
    services.set_muted(game.pk, bob, True)
    play(game, STRICT_SETUP[0])  # bob's decision now
    assert mails(bob, "decision") == []

    game.refresh_from_db()
    assert game.remind_at is not None and game.deadline is not None
    services.sweep_reminders(now=game.remind_at)
    assert mails(bob, "reminder") == []
    assert services.handle_missed_decision(game.pk, now=game.deadline) == "grace"
    assert len(mails(bob, "missed")) == 1

    services.set_muted(game.pk, bob, False)
    services.handle_missed_decision(game.pk, now=game.deadline + timedelta(days=10))
    assert len(mails(alice, "decision")) == 2  # alice is not muted


def test_a_muted_game_sends_no_result(dice: LoadedDice, alice: User, bob: User) -> None:
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    services.set_muted(game.pk, bob, True)
    services.forfeit_seat(game.pk, None, seat_of(game, alice).pk, "timeout")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert mails(bob, "game_over") == [] and len(mails(alice, "game_over")) == 1


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_game_page_mutes_and_unmutes_the_players_seat(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    game = seated_game(dice, [alice, bob])
    url = reverse("games:mute", args=[game.pk])
    page = signed_in(bob).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Mute this game" in page

    response = signed_in(bob).post(url, {"muted": "1"}, follow=True)
    assert "is muted" in response.content.decode() and "Unmute" in response.content.decode()
    assert seat_of(game, bob).muted and not seat_of(game, alice).muted

    signed_in(bob).post(url, {"muted": "0"})
    assert not seat_of(game, bob).muted


def test_a_bad_mute_request_changes_nothing(
    dice: LoadedDice, alice: User, bob: User, carol: User
) -> None:
    game = seated_game(dice, [alice, bob])
    url = reverse("games:mute", args=[game.pk])
    before = list(game.seats.values_list("muted", flat=True))

    assert "say whether" in signed_in(bob).post(url, {"muted": "yes"}, follow=True).content.decode()
    assert "no seat in this game" in (
        signed_in(carol).post(url, {"muted": "1"}, follow=True).content.decode()
    )
    assert Client().post(url, {"muted": "1"}).status_code == 302  # to the sign-in page
    assert signed_in(bob).get(url).status_code == 405
    assert list(game.seats.values_list("muted", flat=True)) == before


# --- the daily digest ----------------------------------------------------------------


def test_choosing_the_digest_schedules_it_at_the_digest_hour_in_the_players_zone(
    alice: User,
) -> None:
    prefer(alice, "digest", "America/New_York")
    profile = Profile.objects.get(user=alice)
    assert profile.digest_due_at is not None
    local = profile.digest_due_at.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert (local.hour, local.minute) == (7, 0)
    prefer(alice, "each")
    assert Profile.objects.get(user=alice).digest_due_at is None


def test_next_digest_time_crosses_to_tomorrow_after_the_hour() -> None:
    morning = datetime(2030, 3, 1, 6, 59, tzinfo=UTC)
    assert digests.next_digest_at(morning, "UTC") == datetime(2030, 3, 1, 7, 0, tzinfo=UTC)
    later = datetime(2030, 3, 1, 7, 0, tzinfo=UTC)
    assert digests.next_digest_at(later, "UTC") == datetime(2030, 3, 2, 7, 0, tzinfo=UTC)


def test_a_digest_tells_the_days_moves_and_the_decisions_waiting(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    prefer(bob, "digest")
    game = seated_game(dice, [alice, bob])
    assert mails(bob, "game_start") == []  # told in the digest instead
    play(game, STRICT_SETUP[0])  # bob's decision now: its own mail, as always
    assert len(mails(bob, "decision")) == 1
    due = Profile.objects.get(user=bob).digest_due_at
    assert due is not None

    assert digests.sweep_digests(now=due - timedelta(seconds=1)) == []
    assert digests.sweep_digests(now=due) == [bob.pk]

    [digest] = mails(bob, "digest")
    assert str(game) in digest.body_text and "The game started." in digest.body_text
    assert "1. alice (blue) places a small in Alaska." in digest.body_text
    assert "It waits for your decision" in digest.body_text and "/games/decide/" in digest.body_text
    profile = Profile.objects.get(user=bob)
    assert profile.digest_covered_to == due and profile.digest_due_at == due + timedelta(days=1)
    # run again at the same time: nothing new is sent
    assert digests.sweep_digests(now=due) == []
    assert len(mails(bob, "digest")) == 1


def test_a_digest_gives_the_deadline_in_the_players_zone_and_names_it(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    prefer(bob, "digest", "Europe/Paris")
    game = seated_game(dice, [alice, bob])
    play(game, STRICT_SETUP[0])  # bob's decision now
    due = Profile.objects.get(user=bob).digest_due_at
    assert due is not None
    digests.sweep_digests(now=due)

    [digest] = mails(bob, "digest")
    game.refresh_from_db()
    local = game.deadline.astimezone(zoneinfo.ZoneInfo("Europe/Paris"))
    said = f"until {local:%-d %b %Y %H:%M} CES?T \\(Europe/Paris\\):"
    assert re.search(said, digest.body_text), digest.body_text
    assert re.search(said, digest.body_html), digest.body_html


def test_a_day_with_nothing_to_tell_sends_no_digest(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    prefer(bob, "digest")
    due = Profile.objects.get(user=bob).digest_due_at
    assert due is not None
    assert digests.sweep_digests(now=due) == [bob.pk]  # swept, and rescheduled
    assert mails(bob, "digest") == []
    assert Profile.objects.get(user=bob).digest_due_at == due + timedelta(days=1)


def test_a_muted_game_is_left_out_of_the_digest(dice: LoadedDice, alice: User, bob: User) -> None:
    prefer(bob, "digest")
    game = seated_game(dice, [alice, bob])
    play(game, STRICT_SETUP[0])
    services.set_muted(game.pk, bob, True)
    due = Profile.objects.get(user=bob).digest_due_at
    digests.sweep_digests(now=due)
    assert mails(bob, "digest") == []


def test_the_digest_tells_a_finished_game_and_the_players_rank(
    dice: LoadedDice, alice: User, bob: User
) -> None:
    prefer(bob, "digest")
    game = play(seated_game(dice, [alice, bob]), *STRICT_SETUP)
    services.forfeit_seat(game.pk, None, seat_of(game, alice).pk, "timeout")
    assert mails(bob, "game_over") == []
    digests.sweep_digests(now=Profile.objects.get(user=bob).digest_due_at)
    [digest] = mails(bob, "digest")
    assert "The game is over: bob (purple) won; your rank: 1." in digest.body_text


def test_muting_a_game_that_does_not_exist_is_refused(alice: User) -> None:
    open_game = services.create_game(alice, home="north-america")
    before = snapshot(open_game)
    with pytest.raises(services.GameError):
        services.set_muted(open_game.pk + 1000, alice, True)
    assert snapshot(open_game) == before


def test_the_outbox_page_shows_a_decision_mails_board_picture(
    dice: LoadedDice, alice: User, bob: User, olga: User, settings: Any
) -> None:
    settings.MAIL_OUTBOX_PAGES = True  # the development outbox
    seated_game(dice, [alice, bob])
    mail = mails(alice, "decision")[-1]
    other = mails(bob, "game_start")[-1]
    staff = signed_in(olga)

    page = staff.get(reverse("mail:outbox_detail", args=[mail.pk])).content.decode()
    picture_url = reverse("mail:outbox_picture", args=[mail.pk])
    assert f"http://testserver{picture_url}" in page and f"cid:{BOARD_CID}" not in page
    response = staff.get(picture_url)
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).width == 800

    assert staff.get(reverse("mail:outbox_picture", args=[other.pk])).status_code == 404
    settings.MAIL_OUTBOX_PAGES = False  # production: no outbox, for anyone
    assert staff.get(picture_url).status_code == 404
    assert signed_in(alice).get(picture_url).status_code == 404
