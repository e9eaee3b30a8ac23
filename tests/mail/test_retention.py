"""Retention: the outbox empties the bodies of mails sent MAIL_KEEP_SENT_DAYS ago and
keeps their rows (headers, status, keys) until MAIL_DELETE_SENT_DAYS after they were
sent, then deletes them; failed and unsent mails stay whole."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.conf import settings as site_settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone

from inbound.models import InboundMessage
from mail import parts, tasks
from mail.models import OutgoingMail
from mail.services import delete_sent_mails, queue_mail, send_now, trim_outbox

pytestmark = pytest.mark.django_db

Status = OutgoingMail.Status
DAY = timedelta(days=1)
CHANGELIST = "/admin/mail/outgoingmail/"

parts.register_inline_part(
    "test-retained", lambda spec: parts.InlinePart(b"GIF89a", "gif", "dot.gif")
)


def a_mail(n: int, **extra: Any) -> OutgoingMail:
    mail = queue_mail(
        f"player{n}@example.com",
        f"Your turn {n}",
        f"It is your turn: https://ww5.example.org/games/{n}/",
        f"<p>It is your turn in game {n}</p>",
        kind="decision",
        thread=f"game-{n}",
        dedup_key=f"decision:{n}",
        inline_part=("test-retained", {"game": n}),
        **extra,
    )
    assert mail is not None
    return mail


def sent(n: int, days_ago: float, now: datetime, **extra: Any) -> OutgoingMail:
    mail = a_mail(n, **extra)
    at = now - timedelta(days=days_ago)
    OutgoingMail.objects.filter(pk=mail.pk).update(
        status=Status.SENT, attempts=1, created_at=at, sent_at=at
    )
    mail.refresh_from_db()
    return mail


def test_a_mail_sent_longer_ago_than_the_limit_is_trimmed_and_its_row_kept(
    outbox: list, alice: AbstractBaseUser
) -> None:
    now = timezone.now()
    old = sent(1, 30.5, now, to_user=alice)
    answered = InboundMessage.objects.create(transport="pipe", message_id="<in@x>", answer=old)

    assert trim_outbox(now) == 1

    trimmed = OutgoingMail.objects.get(pk=old.pk)
    assert (trimmed.body_text, trimmed.body_html) == ("", "")
    assert (trimmed.inline_kind, trimmed.inline_spec) == ("", None)
    assert trimmed.trimmed_at == now and trimmed.kept_days == 30
    kept = ("to_address", "to_user_id", "subject", "kind", "thread", "message_id", "dedup_key")
    kept += ("status", "attempts", "created_at", "sent_at", "unsubscribe_url", "reply_to")
    assert {f: getattr(trimmed, f) for f in kept} == {f: getattr(old, f) for f in kept}
    assert trimmed.links == []
    answered.refresh_from_db()
    assert answered.answer_id == old.pk  # the audit still points at its answer


def test_a_mail_sent_within_the_limit_is_kept_whole(outbox: list) -> None:
    now = timezone.now()
    young = sent(1, 29.9, now)

    assert trim_outbox(now) == 0

    young.refresh_from_db()
    assert young.trimmed_at is None and young.body_text.startswith("It is your turn")
    assert young.inline_kind == "test-retained"


def test_the_limit_is_the_setting(outbox: list, settings: Any) -> None:
    assert site_settings.MAIL_KEEP_SENT_DAYS == 30  # the default
    settings.MAIL_KEEP_SENT_DAYS = 7
    now = timezone.now()
    older, younger = sent(1, 7.1, now), sent(2, 6.9, now)

    assert trim_outbox(now) == 1

    assert set(OutgoingMail.objects.filter(trimmed_at__isnull=False)) == {older}
    assert younger in OutgoingMail.objects.filter(trimmed_at__isnull=True)


@pytest.mark.parametrize("status", [Status.FAILED, Status.QUEUED, Status.RETRY, Status.SENDING])
def test_a_mail_not_sent_is_kept_whole_however_old(outbox: list, status: str) -> None:
    now = timezone.now()
    mail = a_mail(1)
    long_ago = now - 90 * DAY
    # A sending time too, though only a sent mail has one: the status alone decides.
    OutgoingMail.objects.filter(pk=mail.pk).update(
        status=status, created_at=long_ago, next_attempt_at=long_ago, sent_at=long_ago
    )

    assert trim_outbox(now) == 0

    mail.refresh_from_db()
    assert mail.trimmed_at is None and mail.body_html == "<p>It is your turn in game 1</p>"


def test_a_trimmed_mail_still_holds_its_dedup_key(outbox: list) -> None:
    now = timezone.now()
    sent(1, 31, now)
    trim_outbox(now)

    again = queue_mail(
        "player1@example.com", "Again", "text", "", kind="decision", dedup_key="decision:1"
    )

    assert again is None
    assert OutgoingMail.objects.filter(dedup_key="decision:1").count() == 1


def test_a_really_sent_mail_is_trimmed_once_its_time_has_passed(outbox: list) -> None:
    mail = a_mail(1)
    assert send_now(mail.pk) == "sent"
    mail.refresh_from_db()
    assert mail.sent_at is not None

    assert trim_outbox(mail.sent_at + 30 * DAY) == 0
    assert trim_outbox(mail.sent_at + 30 * DAY + timedelta(seconds=1)) == 1


def test_trimming_twice_changes_nothing_more(outbox: list) -> None:
    now = timezone.now()
    sent(1, 40, now), sent(2, 35, now), sent(3, 1, now)
    assert trim_outbox(now) == 2
    before = list(OutgoingMail.objects.order_by("pk").values())

    assert trim_outbox(now + timedelta(minutes=1)) == 0

    assert list(OutgoingMail.objects.order_by("pk").values()) == before


def test_a_run_trims_a_bounded_number_of_batches_and_the_next_run_goes_on(outbox: list) -> None:
    now = timezone.now()
    mails = [sent(n, 40 - n, now) for n in range(5)]

    assert trim_outbox(now, batch=2, batches=2) == 4
    # The oldest first.
    assert [m.pk for m in OutgoingMail.objects.filter(trimmed_at__isnull=True)] == [mails[4].pk]
    assert trim_outbox(now, batch=2, batches=2) == 1
    assert trim_outbox(now, batch=2, batches=2) == 0


def test_the_trim_is_a_periodic_job(outbox: list) -> None:
    jobs = {entry["task"] for entry in site_settings.CELERY_BEAT_SCHEDULE.values()}
    assert "mail.tasks.trim_outbox" in jobs
    sent(1, 31, timezone.now())

    assert tasks.trim_outbox.delay().get() == 1


# --- deleting the rows, a long while after ---------------------------------------------


def trimmed_mail(n: int, days_ago: float, now: datetime, **extra: Any) -> OutgoingMail:
    mail = sent(n, days_ago, now, **extra)
    assert trim_outbox(now) >= 1
    mail.refresh_from_db()
    assert mail.trimmed_at is not None
    return mail


def test_a_trimmed_mail_sent_longer_ago_than_the_deletion_limit_is_deleted(
    outbox: list, alice: AbstractBaseUser
) -> None:
    assert site_settings.MAIL_DELETE_SENT_DAYS == 365  # the default
    now = timezone.now()
    old = trimmed_mail(1, 365.5, now, to_user=alice)
    young = trimmed_mail(2, 364.5, now)
    answered = InboundMessage.objects.create(transport="pipe", message_id="<in@x>", answer=old)

    assert delete_sent_mails(now) == 1

    assert list(OutgoingMail.objects.all()) == [young]
    answered.refresh_from_db()
    assert answered.answer_id is None  # the audit keeps the message, its answer gone
    # Its dedup key is free again: the decision is a year over.
    again = queue_mail(
        "p@example.com", "Again", "text", "", kind="decision", dedup_key="decision:1"
    )
    assert again is not None


def test_a_mail_is_deleted_only_once_trimmed_and_a_failed_one_never(outbox: list) -> None:
    now = timezone.now()
    whole = sent(1, 400, now)
    failed = a_mail(2)
    OutgoingMail.objects.filter(pk=failed.pk).update(
        status=Status.FAILED, created_at=now - 400 * DAY, sent_at=now - 400 * DAY
    )

    assert delete_sent_mails(now) == 0  # not yet trimmed: its trim comes first
    assert trim_outbox(now) == 1
    assert delete_sent_mails(now) == 1

    assert list(OutgoingMail.objects.all()) == [failed]
    assert not OutgoingMail.objects.filter(pk=whole.pk).exists()


def test_the_deletion_limit_is_the_setting_and_0_keeps_rows_for_ever(
    outbox: list, settings: Any
) -> None:
    now = timezone.now()
    trimmed_mail(1, 5000, now)
    settings.MAIL_DELETE_SENT_DAYS = 0

    assert delete_sent_mails(now) == 0

    settings.MAIL_DELETE_SENT_DAYS = 4999
    assert delete_sent_mails(now) == 1
    assert not OutgoingMail.objects.exists()


def test_a_deletion_run_takes_bounded_batches_oldest_first(outbox: list) -> None:
    now = timezone.now()
    mails = [sent(n, 400 - n, now) for n in range(5)]
    trim_outbox(now)

    assert delete_sent_mails(now, batch=2, batches=2) == 4
    assert list(OutgoingMail.objects.all()) == [mails[4]]
    assert delete_sent_mails(now, batch=2, batches=2) == 1
    assert delete_sent_mails(now, batch=2, batches=2) == 0


def test_the_periodic_trim_job_deletes_too(outbox: list) -> None:
    now = timezone.now()
    trimmed_mail(1, 366, now)
    sent(2, 31, now)

    assert tasks.trim_outbox.delay().get() == 2  # one trimmed, one deleted

    assert [m.dedup_key for m in OutgoingMail.objects.all()] == ["decision:2"]


def test_a_deletion_limit_within_the_trims_is_refused() -> None:
    env = {"MAIL_KEEP_SENT_DAYS": "30", "MAIL_DELETE_SENT_DAYS": "30"}
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "ww5site.settings"},
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert "MAIL_DELETE_SENT_DAYS must be 0 (never delete) or more than" in run.stderr


# --- what the admin and the outbox pages show of a trimmed mail -----------------------


@pytest.fixture
def trimmed(outbox: list) -> OutgoingMail:
    now = timezone.now()
    mail = sent(1, 31, now)
    trim_outbox(now)
    mail.refresh_from_db()
    return mail


def test_the_admin_says_a_trimmed_mail_was_trimmed(
    client: Client, olga: AbstractBaseUser, trimmed: OutgoingMail
) -> None:
    client.force_login(olga)

    listing = client.get(CHANGELIST)
    change = client.get(f"{CHANGELIST}{trimmed.pk}/change/")

    assert listing.status_code == 200 and "player1@example.com" in listing.content.decode()
    assert change.status_code == 200
    page = change.content.decode()
    assert "Text and HTML" in page and "31 days after the mail was sent" in page
    assert "Your turn 1" in page and "decision:1" in page  # its headers and key are kept
    assert "Body text" not in page  # no empty body that would read as a mail sent empty


def test_the_admin_shows_a_kept_mail_with_its_body(
    client: Client, olga: AbstractBaseUser, outbox: list
) -> None:
    mail = sent(1, 3, timezone.now())
    client.force_login(olga)

    page = client.get(f"{CHANGELIST}{mail.pk}/change/").content.decode()

    assert "It is your turn: https://ww5.example.org/games/1/" in page
    assert "after the mail was sent" not in page


def test_the_outbox_pages_say_a_trimmed_mail_was_trimmed(
    client: Client, olga: AbstractBaseUser, trimmed: OutgoingMail, settings: Any
) -> None:
    settings.MAIL_OUTBOX_PAGES = True
    client.force_login(olga)

    listing = client.get("/mail/outbox/")
    detail = client.get(f"/mail/outbox/{trimmed.pk}/")

    assert listing.status_code == 200
    assert "body trimmed after 31 days" in listing.content.decode()
    assert detail.status_code == 200
    page = detail.content.decode()
    assert "were trimmed 31 days after it was sent" in page
    assert "<th>Trimmed</th>" in page and "Your turn 1" in page
    assert "<iframe" not in page and "/picture" not in page
    assert client.get(f"/mail/outbox/{trimmed.pk}/picture").status_code == 404


@pytest.mark.django_db(transaction=True)  # as ``migrate`` runs it: in no transaction
@pytest.mark.parametrize(
    ("migration", "index"), [("0006", "mail_sent_untrimmed"), ("0007", "mail_sent_trimmed")]
)
def test_the_retentions_indexes_are_built_without_stopping_the_outboxs_writes(
    migration: str, index: str
) -> None:
    # On PostgreSQL a plain CREATE INDEX stops every write to a table until it ends: on
    # a large outbox, every move's mail. The migrations build them concurrently there.
    from io import StringIO

    from django.core.management import call_command
    from django.db import connection

    out = StringIO()
    call_command("sqlmigrate", "mail", migration, stdout=out)
    sql = out.getvalue()
    assert index in sql
    if connection.vendor == "postgresql":
        assert f'CREATE INDEX CONCURRENTLY "{index}"' in sql
        assert "BEGIN;" not in sql  # no transaction around it
    else:
        assert f'CREATE INDEX "{index}"' in sql
