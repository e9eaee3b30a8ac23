"""Every write to the outbox goes through here: queueing, sending, sweeping, unsubscribing.

Delivery is at least once. ``queue_mail`` writes the row in the caller's transaction and
asks for a send after commit; ``send_now`` claims the row with a conditional UPDATE
(so two workers given the same id send it once), hands it to the transport outside any
transaction (over a connection the sender keeps open for its next mails), and marks it
sent right after the server accepted it. ``sweep_outbox`` (every minute) re-queues rows
whose worker died while sending and sends the retries that are due, so a killed worker
loses no mail. A mail can go out twice only when a worker dies, or the database write
fails, in the short window between the server's acceptance and that UPDATE.
``trim_outbox`` (every minute too) empties the bodies of the mails sent more than
``MAIL_KEEP_SENT_DAYS`` ago, and ``delete_sent_mails`` deletes their rows
``MAIL_DELETE_SENT_DAYS`` after they were sent.
"""

from __future__ import annotations

import logging
import os
import re
import smtplib
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from email.generator import BytesGenerator
from email.mime.image import MIMEImage
from email.policy import Compat32
from email.utils import format_datetime, parseaddr
from functools import partial
from io import BytesIO
from typing import Any
from uuid import uuid4

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection as database
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.html import linebreaks, urlize

from accounts.models import Profile
from accounts.services import profile_for, update_profile
from mail import parts
from mail.models import OutgoingMail
from ww5site import rows

logger = logging.getLogger(__name__)

Status = OutgoingMail.Status

# After the n-th failed attempt the next one waits RETRY_DELAYS[n - 1]; a failure after
# the last delay is final. Six attempts over about nine hours.
RETRY_DELAYS = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
)
# A row still "sending" this long after its claim lost its worker (killed, or the
# database went away after the send). Far above EMAIL_TIMEOUT, so a slow but live send
# is never taken for a dead one.
CLAIM_EXPIRES = timedelta(seconds=settings.MAIL_CLAIM_EXPIRES_SECONDS)
SWEEP_LIMIT = 1000
# The trim job empties at most this many mails a statement (each batch a transaction of
# its own, so no row stays locked long), and at most TRIM_BATCHES batches a run.
TRIM_BATCH = 5000
TRIM_BATCHES = 20

UNSUBSCRIBE_SALT = "mail.unsubscribe"


class BadUnsubscribeLink(Exception):
    """The unsubscribe token was altered, or its player no longer exists."""


# --- identities ----------------------------------------------------------------------


def mail_domain() -> str:
    """The domain of the site's own address: Message-IDs are made on it."""
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    return address.rpartition("@")[2] or "localhost"


def new_message_id() -> str:
    return f"<{uuid4().hex}@{mail_domain()}>"


def thread_root_id(thread: str) -> str:
    """The Message-ID every mail of a thread replies to, so mail clients group them."""
    return f"<{thread}@{mail_domain()}>"


def text_to_html(text: str) -> str:
    """An HTML part for a mail written as plain text: paragraphs, links clickable."""
    paragraphs = linebreaks(urlize(text, autoescape=True))
    return f"<!doctype html>\n<html><body>\n{paragraphs}\n</body></html>\n"


# --- queueing ------------------------------------------------------------------------


def queue_mail(
    to_address: str,
    subject: str,
    text: str,
    html: str,
    *,
    kind: str,
    to_user: AbstractBaseUser | None = None,
    thread: str = "",
    dedup_key: str | None = None,
    unsubscribe_url: str | None = None,
    from_address: str = "",
    reply_to: str = "",
    inline_part: tuple[str, dict[str, Any]] | None = None,
) -> OutgoingMail | None:
    """Put a mail in the outbox, in the caller's transaction; it is sent after commit.

    Returns None, and writes nothing, when a mail with this ``dedup_key`` exists already
    (also one another transaction is committing right now). An empty ``html`` is made
    from ``text``. ``thread``: the key of the thread the mail belongs to (e.g. a game's),
    which its In-Reply-To and References headers name. ``reply_to``: where the reader's
    replies go, when not to the sender. ``inline_part``: the kind and spec of a picture
    the HTML part shows (``mail.parts``), drawn when the mail is sent.
    """
    inline_kind, inline_spec = inline_part or ("", None)
    if inline_kind and not parts.is_registered(inline_kind):
        raise ValueError(f"no renderer is registered for inline parts of kind {inline_kind!r}")
    now = timezone.now()
    mail = OutgoingMail(
        to_address=to_address,
        to_user=to_user,
        from_address=from_address,
        reply_to=reply_to,
        kind=kind,
        # A line break in a subject would make an invalid header; nothing could send it.
        subject=" ".join(subject.split()),
        body_text=text,
        body_html=html or text_to_html(text),
        thread=thread,
        message_id=new_message_id(),
        unsubscribe_url=unsubscribe_url or "",
        dedup_key=dedup_key,
        inline_kind=inline_kind,
        inline_spec=inline_spec,
        next_attempt_at=now,
        created_at=now,
    )
    # One statement, written by hand (a mail is queued by most moves): a mail whose key
    # another has is not written, also when that other is being written by a
    # transaction not yet committed (two racing for the same decision mail): PostgreSQL
    # makes this one wait for that one's end, and writes nothing if it committed.
    if not rows.insert(mail, unless_taken="dedup_key" if dedup_key is not None else None):
        return None
    _send_after_commit([mail.pk])
    return mail


def _send_after_commit(mail_ids: list[int]) -> None:
    if mail_ids:
        # robust: a broker that is down must not turn the caller's committed change into
        # an error page; the sweeper sends rows whose task was lost.
        transaction.on_commit(lambda: send_later(mail_ids), robust=True)


def send_later(mail_ids: Iterable[int]) -> None:
    """After the queueing transaction commits: each mail in a send task of its own."""
    from mail.tasks import send_mail

    for mail_id in mail_ids:
        send_mail.delay(mail_id)


# --- sending -------------------------------------------------------------------------


def transport() -> BaseEmailBackend:
    """The connection that really delivers: SMTP, or the console on the local default."""
    return get_connection(_transport_path(), fail_silently=False)


def _transport_path() -> str:
    path: str = settings.MAIL_TRANSPORT
    if path == "mail.backends.OutboxBackend":
        raise ImproperlyConfigured("MAIL_TRANSPORT must deliver mail, not queue it again")
    return path


class _Message(EmailMultiAlternatives):
    """A mail whose multipart boundaries are made unique up front, written a body at a
    time.

    Left to itself, Python's ``email`` generator draws a random boundary for each
    multipart and then searches the whole mail, board picture included, with a regular
    expression compiled afresh to prove the boundary appears nowhere in it. A boundary
    with a random 128-bit part and "=_" (which neither base64 nor quoted-printable ever
    writes) needs no search.
    """

    def message(self, *args: Any, **kwargs: Any) -> Any:
        mime = super().message(*args, **kwargs)
        for part in mime.walk():
            if part.is_multipart():
                part.set_boundary(f"=_ww5_{uuid4().hex}")
        mime.as_bytes = partial(_as_bytes, mime)  # what the SMTP backend sends
        return mime


_LINE_END = re.compile(r"\r\n|\r|\n")  # as email.generator splits a body's lines


# A header value that Python's folding (the compat32 policy Django's messages use)
# writes unchanged when it fits on its line: printable ASCII, no line or page breaks.
_UNFOLDED = re.compile(r"[ -~]*")


class _BodyAtOnceGenerator(BytesGenerator):
    """Python's generator writes a body line by line, the line and its ending apart,
    each encoded to bytes on its own: for the board picture's 800 lines of base64 some
    1,600 writes a mail. This one writes each body in one piece, with the same line
    endings: the same bytes.

    It writes the headers that need no folding as they are, too: Python folds every
    header through ``email.header.Header``, some 40 calls a header and about 30 headers
    a mail (the five parts' own among them), to find that a short ASCII line stays as it
    is. Any other header (long, not ASCII, an encoded word) is folded by the policy."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        newline = self._NL  # type: ignore[attr-defined]
        if "\r" in lines:
            self.write(newline.join(_LINE_END.split(lines)))  # type: ignore[attr-defined]
        else:  # the same, for a body whose lines end in "\n" alone (base64 among them)
            self.write(lines.replace("\n", newline) if newline != "\n" else lines)  # type: ignore[attr-defined]

    def _write_headers(self, msg: Any) -> None:
        policy = self.policy  # type: ignore[attr-defined]
        limit = policy.max_line_length
        if type(policy) is not Compat32 or not limit:
            super()._write_headers(msg)  # type: ignore[misc]
            return
        linesep = policy.linesep
        written = []
        for name, value in msg.raw_items():
            if (
                isinstance(value, str)
                and len(name) + 2 + len(value) <= limit
                and _UNFOLDED.fullmatch(value)
            ):
                written.append(f"{name}: {value}{linesep}".encode("ascii"))
            else:
                written.append(policy.fold_binary(name, value))
        self._fp.write(b"".join(written))  # type: ignore[attr-defined]
        self.write(self._NL)  # type: ignore[attr-defined]


def _as_bytes(mime: Any, unixfrom: bool = False, linesep: str = "\n") -> bytes:
    """``as_bytes`` of Django's MIME classes (no "From " mangling), written by
    ``_BodyAtOnceGenerator``."""
    out = BytesIO()
    _BodyAtOnceGenerator(out, mangle_from_=False).flatten(mime, unixfrom=unixfrom, linesep=linesep)
    return out.getvalue()


def build_message(mail: OutgoingMail) -> EmailMultiAlternatives:
    headers = {
        "Message-ID": mail.message_id,
        # When the mail was written, not sent: mails sent out of order by several workers
        # (or late, after a retry) still sort in the order their events happened.
        "Date": format_datetime(mail.created_at),
        # Tells auto-responders (holiday replies) not to answer a notification.
        "Auto-Submitted": "auto-generated",
    }
    if mail.thread:
        root = thread_root_id(mail.thread)
        headers["In-Reply-To"] = root
        headers["References"] = root
    if mail.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = _Message(
        subject=mail.subject,
        body=mail.body_text,
        from_email=mail.from_address or settings.DEFAULT_FROM_EMAIL,
        to=[mail.to_address],
        reply_to=[mail.reply_to] if mail.reply_to else None,
        headers=headers,
    )
    message.attach_alternative(mail.body_html, "text/html")
    part = inline_part_of(mail) if mail.inline_kind else None
    if part is not None:
        # The HTML part shows it by its Content-ID; the mail becomes multipart/related.
        image = MIMEImage(part.content, part.subtype)
        image.add_header("Content-ID", f"<{parts.content_id(mail.inline_kind)}>")
        image.add_header("Content-Disposition", "inline", filename=part.filename)
        message.mixed_subtype = "related"
        message.attach(image)
    return message


def inline_part_of(mail: OutgoingMail) -> parts.InlinePart | None:
    """The mail's inline picture, drawn now; None if it cannot be drawn: the mail then
    goes without it (a picture only shows what the text says in words)."""
    try:
        return parts.render_inline_part(mail.inline_kind, mail.inline_spec or {})
    except Exception:
        logger.exception(
            "the inline %s picture of mail %s cannot be drawn", mail.inline_kind, mail.pk
        )
        return None


def send_now(mail_id: int, now: datetime | None = None) -> str:
    """Send one outbox row if it is due; safe to run twice and from several workers.

    Returns what happened: "sent", "retry", "failed", or "skipped" (not due, or another
    worker has it or has sent it).
    """
    now = now or timezone.now()
    _transport_path()  # a site that cannot send claims nothing
    mail = _claim(mail_id, now)
    if mail is None:
        return "skipped"
    try:
        _deliver(build_message(mail), now)
    except Exception as error:
        return _record_failure(mail, error, now)
    # Marked sent as soon as the server has accepted it: the window in which a dying
    # worker would leave an accepted mail to be sent again is this one UPDATE. (Another
    # worker may have sent it after a sweep: keep its time.) In SQL, as the claim: it
    # runs for every mail.
    with database.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_MAIL.table} SET status = %s, sent_at = %s, last_error = '' "
            "WHERE id = %s AND status <> %s",
            [
                Status.SENT,
                database.ops.adapt_datetimefield_value(timezone.now()),
                mail.pk,
                Status.SENT,
            ],
        )
    return "sent"


def _deliver(message: EmailMultiAlternatives, now: datetime) -> None:
    connection, checked = _connection(now)
    try:
        connection.send_messages([message])
        return
    except BaseException as error:
        release_connection()  # in an unknown state: the next mail starts afresh
        if checked or not _closed_by_server(error):
            raise
    # A kept connection used a moment ago, so not checked, that the server has closed
    # since: the mail goes at once on a new one.
    connection, _ = _connection(now)
    try:
        connection.send_messages([message])
    except BaseException:
        release_connection()
        raise


def _claim(mail_id: int, now: datetime) -> OutgoingMail | None:
    """The row, moved to "sending", if it is due and no other worker has it.

    A conditional UPDATE, so of two workers given the same id (a task redelivered by the
    broker, the sweeper's re-send, a double click in the admin) only one moves the row
    to "sending" and sends it; it returns the row it changed, one round trip.
    """
    sql = (
        f"UPDATE {_MAIL.table} SET status = %s, claimed_at = %s, attempts = attempts + 1 "
        f"WHERE id = %s AND status IN (%s, %s) AND next_attempt_at <= %s RETURNING {_MAIL.sql}"
    )
    when = database.ops.adapt_datetimefield_value(now)
    with database.cursor() as cursor:
        cursor.execute(sql, [Status.SENDING, when, mail_id, Status.QUEUED, Status.RETRY, when])
        row = cursor.fetchone()
    return _MAIL.load(row) if row is not None else None


_MAIL = rows.Columns(OutgoingMail, "")


# --- the connection a sender keeps open ----------------------------------------------
#
# Each sender (a worker process, or a thread) keeps its connection to the mail server
# open for its next mails instead of opening one per mail (TCP, greeting, EHLO, TLS,
# login, then QUIT). Before a kept connection is used, a NOOP checks the server still
# has it; one idle longer than MAIL_CONNECTION_IDLE_SECONDS, or that has carried
# MAIL_CONNECTION_MAX_MAILS mails, is closed and a new one opened. A failed send closes
# it: the mail is retried by the schedule, on a new connection. A connection used less
# than UNCHECKED_FOR ago is not checked (a sender busy with a queue of mails sends no
# NOOPs); should the server have closed it meanwhile, the mail goes at once on a new one.

UNCHECKED_FOR = timedelta(seconds=1)


class _Held(threading.local):
    connection: BaseEmailBackend | None = None
    key: tuple[object, ...] = ()
    pid = 0
    last_used: datetime | None = None
    mails = 0


_held = _Held()


def _transport_key() -> tuple[object, ...]:
    """What the connection was opened for: a change of settings opens a new one."""
    return (
        settings.MAIL_TRANSPORT,
        settings.EMAIL_HOST,
        settings.EMAIL_PORT,
        settings.EMAIL_HOST_USER,
        settings.EMAIL_USE_TLS,
    )


def _closed_by_server(error: BaseException) -> bool:
    """The server had closed the connection, or answers that it is closing it (421)."""
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return True
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code == 421


def _connection(now: datetime) -> tuple[BaseEmailBackend, bool]:
    """An open connection for the next mail: the kept one if it is still good. And
    whether it is known to be good: new, or kept and checked now; a kept connection
    last used less than UNCHECKED_FOR ago is not checked."""
    held = _held
    checked = True
    if held.connection is not None:
        if _due_for_replacing(held, now):
            release_connection()
        elif held.last_used is not None and timedelta(0) <= now - held.last_used < UNCHECKED_FOR:
            checked = False
        elif not _answers(held.connection):
            release_connection()
    if held.connection is None:
        connection = transport()
        connection.open()
        held.connection = connection
        held.key = _transport_key()
        held.pid = os.getpid()
        held.mails = 0
    held.last_used = now
    held.mails += 1
    return held.connection, checked  # type: ignore[return-value]


def _due_for_replacing(held: _Held, now: datetime) -> bool:
    """Inherited through a fork (the parent's socket is not this process's to use),
    opened for other settings, full, or idle too long."""
    return (
        held.pid != os.getpid()
        or held.key != _transport_key()
        or held.mails >= settings.MAIL_CONNECTION_MAX_MAILS
        or held.last_used is None
        or abs((now - held.last_used).total_seconds()) > settings.MAIL_CONNECTION_IDLE_SECONDS
    )


def _answers(connection: BaseEmailBackend) -> bool:
    """Whether the server still has the connection (a NOOP)."""
    smtp = getattr(connection, "connection", None)
    if smtp is None:
        return True  # not a network connection (the console, the tests' transports)
    try:
        code, _ = smtp.noop()
    except (OSError, smtplib.SMTPException):
        return False
    return bool(code == 250)


def release_connection() -> None:
    """Close the connection this sender keeps open, if any (QUIT, errors ignored; not
    on a connection inherited through a fork, which only the parent may close)."""
    connection, _held.connection = _held.connection, None
    if connection is not None and _held.pid == os.getpid():
        _close_quietly(connection)


def _close_quietly(connection: BaseEmailBackend) -> None:
    try:
        connection.close()
    except Exception:  # the mail's fate is decided; a failed QUIT changes nothing
        logger.warning("closing the mail transport failed", exc_info=True)


def is_permanent(error: BaseException) -> bool:
    """Whether the server refused this mail for good (5xx), so retrying cannot help.

    Connection trouble, timeouts, 4xx answers and the server's own set-up (greeting,
    TLS, authentication) are transient: they say nothing about this mail.
    """
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    if isinstance(error, smtplib.SMTPSenderRefused | smtplib.SMTPDataError):
        return 500 <= error.smtp_code < 600
    # Any other error (OSError covers smtplib's) is transient; anything else means the
    # mail cannot even be built (say, an invalid address): it is final.
    return not isinstance(error, OSError)


def _record_failure(mail: OutgoingMail, error: BaseException, now: datetime) -> str:
    permanent = is_permanent(error)
    if not isinstance(error, OSError):
        logger.exception("mail %s cannot be sent", mail.pk, exc_info=error)
    last_error = f"{type(error).__name__}: {error}"[:2000]
    if permanent or mail.attempts > len(RETRY_DELAYS):
        changes: dict[str, Any] = {"status": Status.FAILED}
    else:
        changes = {
            "status": Status.RETRY,
            "next_attempt_at": now + RETRY_DELAYS[mail.attempts - 1],
        }
    # Only while the claim is still ours: a sweep may have handed the row on meanwhile.
    OutgoingMail.objects.filter(pk=mail.pk, status=Status.SENDING, claimed_at=now).update(
        last_error=last_error, **changes
    )
    return str(changes["status"])


# --- the sweeper ---------------------------------------------------------------------


def sweep_outbox(now: datetime | None = None) -> list[int]:
    """Periodic: re-queue rows whose worker died while sending, send what is due.

    Due are the retries whose time has come, the re-queued rows, and queued rows whose
    send task was lost. Returns the ids handed to the send task.
    """
    now = now or timezone.now()
    stale = OutgoingMail.objects.filter(status=Status.SENDING, claimed_at__lt=now - CLAIM_EXPIRES)
    dead_worker = "the sending worker stopped before it finished (its claim expired)"
    # Conditional updates: a worker that finishes meanwhile has moved the row on, and
    # these leave it alone. The last attempt's row fails instead of looping for ever.
    stale.filter(attempts__gt=len(RETRY_DELAYS)).update(
        status=Status.FAILED, last_error=dead_worker
    )
    stale.update(status=Status.RETRY, next_attempt_at=now, last_error=dead_worker)
    due = OutgoingMail.objects.filter(
        Q(status=Status.RETRY, next_attempt_at__lte=now)
        | Q(status=Status.QUEUED, next_attempt_at__lte=now - send_lost_after())
    )
    ids = list(due.order_by("next_attempt_at").values_list("pk", flat=True)[:SWEEP_LIMIT])
    with transaction.atomic():
        _send_after_commit(ids)
    return ids


def send_lost_after() -> timedelta:
    """How long after it was due a row still "queued" has lost its send task: the broker
    was down at commit, the process died between commit and queueing the task, or a
    worker was killed holding the task (MAIL_SEND_LOST_AFTER_SECONDS)."""
    return timedelta(seconds=settings.MAIL_SEND_LOST_AFTER_SECONDS)


def requeue(mail_ids: Iterable[int], now: datetime | None = None) -> int:
    """Send failed or waiting mails again now, with a fresh retry schedule (the admin)."""
    now = now or timezone.now()
    with transaction.atomic():
        # Locked so a worker cannot claim a waiting row between the read and the update.
        ids = list(
            OutgoingMail.objects.select_for_update()
            .filter(pk__in=list(mail_ids), status__in=(Status.FAILED, Status.RETRY))
            .values_list("pk", flat=True)
        )
        OutgoingMail.objects.filter(pk__in=ids).update(
            status=Status.QUEUED, attempts=0, next_attempt_at=now, claimed_at=None
        )
        _send_after_commit(ids)
    return len(ids)


# --- retention -----------------------------------------------------------------------


def trim_outbox(
    now: datetime | None = None, batch: int = TRIM_BATCH, batches: int = TRIM_BATCHES
) -> int:
    """Periodic: empty the text, HTML and picture of the mails sent more than
    ``MAIL_KEEP_SENT_DAYS`` ago, oldest first; returns how many were trimmed.

    The rows are kept until ``delete_sent_mails`` deletes them, much later: a row's
    ``dedup_key`` stops a second mail for the same decision, a bounce quoting its
    ``message_id`` finds the address it went to, the audit of received mail points at its
    answers, and its headers tell who was sent what, and when. Only sent mails are
    trimmed: a failed one stays whole, for an admin may send it again; a queued, retrying
    or sending one is still to be sent.

    Safe at once from several beats and again right after: each batch locks its rows
    skipping those another run holds, and trims only rows not yet trimmed. A batch is a
    transaction of its own (``batch`` rows at most), and a run stops after ``batches``
    of them: a backlog is trimmed over several runs, never holding rows long.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.MAIL_KEEP_SENT_DAYS)
    whole = OutgoingMail.objects.filter(
        status=Status.SENT, trimmed_at__isnull=True, sent_at__lt=cutoff
    )

    def trim(ids: list[int]) -> int:
        return whole.filter(pk__in=ids).update(
            body_text="", body_html="", inline_kind="", inline_spec=None, trimmed_at=now
        )

    return _oldest_sent_in_batches(whole, batch, batches, trim)


def delete_sent_mails(
    now: datetime | None = None, batch: int = TRIM_BATCH, batches: int = TRIM_BATCHES
) -> int:
    """Periodic: delete the rows of the trimmed mails sent more than
    ``MAIL_DELETE_SENT_DAYS`` ago (never when it is 0), oldest first; returns how many.

    By then the mail's decision is long over and a bounce long in: the outbox stops
    growing at about a year of rows. An audit row of received mail still there keeps its
    message, without its deleted answer. A mail not yet trimmed is deleted once it is,
    and a failed one never. Safe at once from several beats and again right after, in
    batches as ``trim_outbox`` is."""
    if not settings.MAIL_DELETE_SENT_DAYS:
        return 0
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.MAIL_DELETE_SENT_DAYS)
    old = OutgoingMail.objects.filter(
        status=Status.SENT, trimmed_at__isnull=False, sent_at__lt=cutoff
    )

    def delete(ids: list[int]) -> int:
        # The audit's pointers to these answers are emptied first (SET_NULL).
        counts = OutgoingMail.objects.filter(pk__in=ids).delete()[1]
        return counts.get(OutgoingMail._meta.label, 0)

    return _oldest_sent_in_batches(old, batch, batches, delete)


def _oldest_sent_in_batches(
    rows: QuerySet[OutgoingMail],
    batch: int,
    batches: int,
    act: Callable[[list[int]], int],
) -> int:
    """``act`` on the ids of ``rows``, the oldest sent first, ``batch`` of them a
    transaction, their rows locked skipping those another run holds; at most ``batches``
    transactions. Returns the sum of what ``act`` returned (the rows it changed)."""
    done = 0
    for _ in range(batches):
        with transaction.atomic():
            ids = list(
                rows.select_for_update(skip_locked=True)
                .order_by("sent_at")
                .values_list("pk", flat=True)[:batch]
            )
            done += act(ids)
        if len(ids) < batch:
            break
    return done


# --- unsubscribing -------------------------------------------------------------------


def _signer() -> signing.Signer:
    return signing.Signer(salt=UNSUBSCRIBE_SALT)


def unsubscribe_token(user: AbstractBaseUser) -> str:
    """A token naming the player, signed with the site's key; it does not expire."""
    return _signer().sign(str(user.pk))


def unsubscribe_url(user: AbstractBaseUser) -> str:
    """The absolute unsubscribe link for a player's mails (also List-Unsubscribe)."""
    path = reverse("mail:unsubscribe", args=[unsubscribe_token(user)])
    return settings.SITE_URL.rstrip("/") + path


def user_for_unsubscribe(token: str) -> AbstractBaseUser:
    try:
        user_id = _signer().unsign(token)
    except signing.BadSignature:
        raise BadUnsubscribeLink("this unsubscribe link is not valid") from None
    user = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise BadUnsubscribeLink("this unsubscribe link's account no longer exists")
    return user


def unsubscribe(token: str) -> AbstractBaseUser:
    """The player keeps only the mails about their own decisions (the profile page can
    change it back)."""
    user = user_for_unsubscribe(token)
    profile = profile_for(user)
    update_profile(
        user,
        profile.display_name,
        profile.time_zone,
        Profile.Notify.DECISIONS,
        zone_chosen=profile.time_zone_chosen,
    )
    return user
