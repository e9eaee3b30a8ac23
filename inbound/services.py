"""Every received message goes through ``handle_message``, whichever way it came (a
mail server's pipe, the SMTP listener, a provider's webhook): it is read, audited, and
turned into at most one action, answered by mail in the same transaction.

The order of the checks: a message already handled (same Message-ID) is left alone;
a program's message (an out-of-office reply, a bounce) is never answered, and a bounce
marks its failed address; then the reply token must be genuine and the sender must be
its player. Answers go only to the address of the player a genuine token names, never
to a From nobody checked (anyone can write any From): a message without a genuine
token gets no answer at all, only its audit row, and one with a genuine token from
another address tells that player, once an hour, that someone tried. A player over
the hourly limit is not answered. Only then is the first line read: a move (for the
token's decision), ``confirm``, ``board``, ``moves`` or ``help``.

The hourly limit counts a player's own authenticated messages only: mail forged in a
player's name (their From, without their token) can never use up their limit. It never
drops a reply for a decision that waits for its player, nor counts the moves made; the
first message it stops in an hour is answered, saying so.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from accounts.services import mark_address_failing
from games import replyto, selectors
from games.models import Game, Seat
from inbound import answers
from inbound.answers import Answer
from inbound.audit import Handled, claim, finish
from inbound.commands import COMMANDS, Context, first_word, run_command
from inbound.models import InboundMessage, WebhookSignature
from inbound.reading import (
    Reading,
    Unreadable,
    fallback_id,
    mime_shape,
    peek,
    read_message,
)
from mail.models import OutgoingMail

logger = logging.getLogger(__name__)

Outcome = InboundMessage.Outcome


def handle_message(
    raw: bytes,
    *,
    transport: str,
    recipients: list[str] | None = None,
    now: datetime | None = None,
) -> Handled:
    """Read one raw message and do what it asks (see the module's docstring).
    ``recipients``: the envelope's (the SMTP RCPT addresses), when known."""
    now = now or timezone.now()
    error, over = "", None
    try:
        reading, over = _read(raw, recipients or [])
    except Unreadable as unreadable:
        reading, error = _unreadable(raw), str(unreadable)
    except DatabaseError:
        raise  # the database is down: the transport makes the sender try again later
    except Exception as failure:  # whatever the bytes, an audit row and no action
        logger.exception("an inbound message could not be read")
        reading, error = _unreadable(raw), f"{type(failure).__name__}: {failure}"
    try:
        with transaction.atomic():
            return _handle(reading, raw, transport, now, error, over)
    except DatabaseError:
        raise  # the database is down: the transport makes the sender try again later
    except Exception as failure:
        # A fault of ours with this message: retrying would fail the same way, so it is
        # recorded (nothing else: its transaction rolled back) and not tried again.
        logger.exception("an inbound message could not be handled")
        with transaction.atomic():
            row = claim(reading, raw, transport, now)
            if row is None:
                return Handled("duplicate")
            return _fault(row, reading, now, f"{type(failure).__name__}: {failure}")


@dataclass(frozen=True)
class _Over:
    """A message over a cap, refused unread: why (for the audit), and what its player is
    told."""

    error: str
    text: str


def _read(raw: bytes, recipients: list[str]) -> tuple[Reading, _Over | None]:
    """The headers first: the body is read only for the player a genuine token names (from
    their address) or for a bounce, and only when the message is within the caps on its
    size, its MIME parts and their nesting (a message of thousands of parts costs
    seconds of CPU to parse). Any other message is audited from its headers alone."""
    if not raw.strip():
        raise Unreadable("the message is empty")
    head = peek(raw, recipients)
    if len(raw) > settings.INBOUND_MAX_BYTES:
        limit = settings.INBOUND_MAX_BYTES
        return head, _Over(f"over {limit} bytes", answers.TOO_LARGE.format(limit=limit))
    if not head.bounce and (head.automatic or _player_of(head) is None):
        return head, None
    parts, depth = mime_shape(raw)
    if parts > settings.INBOUND_MAX_PARTS:
        limit = settings.INBOUND_MAX_PARTS
        text = answers.TOO_MANY_PARTS.format(limit=limit)
        return head, _Over(f"{parts} MIME parts, over {limit}", text)
    if depth > settings.INBOUND_MAX_DEPTH:
        limit = settings.INBOUND_MAX_DEPTH
        text = answers.TOO_MANY_PARTS.format(limit=settings.INBOUND_MAX_PARTS)
        return head, _Over(f"MIME parts nested {depth} deep, over {limit}", text)
    return read_message(raw, recipients), None


def _fault(row: InboundMessage, reading: Reading, now: datetime, error: str) -> Handled:
    """The player whose message could not be handled is told so (from their own address,
    with their genuine token): otherwise they would wait for a move that was not made."""
    if reading.sender and not reading.automatic:
        try:
            with transaction.atomic():  # a savepoint: the audit row is kept if this fails
                player = _player_of(reading)
                if player is not None:
                    return _answer_player(
                        row, player, reading, Outcome.MALFORMED, answers.FAULT, error
                    )
        except Exception:
            logger.exception("the answer to a message that could not be handled failed")
    return finish(row, Outcome.MALFORMED, error)


def _handle(
    reading: Reading, raw: bytes, transport: str, now: datetime, error: str, over: _Over | None
) -> Handled:
    row = claim(reading, raw, transport, now)
    if row is None:
        return Handled("duplicate")
    if error:
        return finish(row, Outcome.MALFORMED, error)
    if reading.automatic:
        if over is not None:  # a program's message is never answered
            return finish(row, Outcome.TOO_LARGE, f"{over.error}; {reading.automatic}")
        return _automatic(row, reading, now)
    if not reading.sender:
        return finish(row, Outcome.REJECTED, "no single From address")
    return _from_a_person(row, reading, now, over)


def _unreadable(raw: bytes) -> Reading:
    try:
        return peek(raw)
    except Exception:
        return Reading(fallback_id(raw), "", "", [])


def _automatic(row: InboundMessage, reading: Reading, now: datetime) -> Handled:
    """Never answered (two programs would answer each other for ever); a bounce marks
    the addresses it says failed, of those the site sent the bounced mail to."""
    if not reading.bounce:
        return finish(row, Outcome.AUTO_REPLY, reading.automatic)
    sent_to = _bounced_mail_addresses(reading)
    failed = [address for address in reading.failed if address in sent_to] or (
        [] if reading.failed else sorted(sent_to)
    )
    reason = f"a mail to it bounced on {now:%Y-%m-%d}"
    marked = sum(mark_address_failing(address, reason, now) for address in failed)
    named = ", ".join(reading.failed) or "not named"
    detail = (
        f"{reading.automatic}; failed: {named}; of the site's mail: {', '.join(failed) or 'none'}"
    )
    return finish(row, Outcome.BOUNCE, f"{detail}; players marked: {marked}")


def _bounced_mail_addresses(reading: Reading) -> set[str]:
    """The addresses a bounce is tied to: those of the site's mails whose Message-ID it
    quotes (random, known only to the mail's recipient and the servers on its way), and
    the player of a genuine reply token it was sent to. A bounce without such a tie
    (anyone can write one naming anyone) marks no one; and one tied to a mail to bob
    cannot mark alice."""
    addresses = {
        address.strip().lower()
        for address in OutgoingMail.objects.filter(message_id__in=reading.quoted_ids).values_list(
            "to_address", flat=True
        )
    }
    for token in replyto.tokens_in(reading.recipients):
        try:
            user_id = replyto.read_token(token).user_id
        except replyto.BadToken:
            continue
        user = get_user_model()._default_manager.filter(pk=user_id).first()
        if user is not None and user.email:
            addresses.add(user.email.strip().lower())
    return addresses


def _over_limit(user: AbstractBaseUser, now: datetime) -> bool:
    """The player sent the most messages an hour allows: their authenticated ones (the
    audit rows that name them; this message's row does not yet), besides those that
    made or proposed a move, which the game itself bounds."""
    since = now - timedelta(hours=1)
    sent = (
        InboundMessage.objects.filter(user=user, received_at__gt=since)
        .exclude(outcome__in=(Outcome.APPLIED, Outcome.CONFIRM))
        .count()
    )
    return sent >= settings.INBOUND_PER_SENDER_PER_HOUR


def _move_for_decision_due(
    reading: Reading, token: replyto.ReplyToken, game: Game, seat: Seat
) -> bool:
    """A move (or "confirm") for the token's decision, which is the player's and still
    waits for them: never dropped by the limit (a fast game may take more replies an hour
    than it). Asking for the board, the moves or help is not a move."""
    return (
        first_word(reading.first_line) not in COMMANDS
        and token.for_decision
        and selectors.decision_open(game, seat, token.turn)
    )


def _limited(
    row: InboundMessage, user: AbstractBaseUser, game: Game, reading: Reading, now: datetime
) -> Handled:
    """Not read; the first limited message of the hour is answered, saying so."""
    error = "over the player's hourly limit"
    row.game = game
    since = now - timedelta(hours=1)
    told = InboundMessage.objects.filter(
        user=user, outcome=Outcome.LIMITED, answer__isnull=False, received_at__gt=since
    ).exists()
    if told:
        return finish(row, Outcome.LIMITED, f"{error}; told within the hour")
    text = answers.LIMITED.format(limit=settings.INBOUND_PER_SENDER_PER_HOUR)
    return _answer_player(row, user, reading, Outcome.LIMITED, text, error)


def _genuine_token(reading: Reading) -> tuple[str, replyto.ReplyToken] | None:
    """The first reply token among the recipients whose signature is the site's."""
    for candidate in replyto.tokens_in(reading.recipients):
        try:
            return candidate, replyto.read_token(candidate)
        except replyto.BadToken:
            continue
    return None


def _token_player(token: replyto.ReplyToken) -> AbstractBaseUser | None:
    return get_user_model()._default_manager.filter(pk=token.user_id, is_active=True).first()


def _is_from(user: AbstractBaseUser | None, reading: Reading) -> bool:
    return bool(user and user.email and user.email.strip().lower() == reading.sender)


def _player_of(reading: Reading) -> AbstractBaseUser | None:
    """The player a genuine token among the recipients names, if the message is from
    their own address; None otherwise."""
    found = _genuine_token(reading)
    user = _token_player(found[1]) if found else None
    return user if _is_from(user, reading) else None


def _answer_player(
    row: InboundMessage,
    user: AbstractBaseUser,
    reading: Reading,
    outcome: str,
    text: str,
    error: str,
) -> Handled:
    """An answer that names no game, to the player a genuine token names, at their own
    address (the message came from it): their token expired, their seat is no longer
    theirs, their message was too large or met a fault."""
    mail = answers.queue_answer(
        Answer([text]), key=f"inbound:{row.pk}", to=user.email, subject=reading.subject, user=user
    )
    return finish(row, outcome, error, mail.pk if mail else None)


def _tell_of_attempt(
    row: InboundMessage, user: AbstractBaseUser | None, reading: Reading, now: datetime
) -> Handled:
    """A genuine token from another address: a forger who saw a player's mail, or the
    player writing from another address. Nothing goes to the sender (it may be anyone);
    the token's player is told, at most once an hour whoever writes."""
    error = "sender is not the token's player"
    if user is None or not user.email:
        return finish(row, Outcome.REJECTED, error)
    if answers.told_of_attempt_since(user, now - timedelta(hours=1)):
        return finish(row, Outcome.REJECTED, f"{error}; player told within the hour")
    game = Game.objects.filter(pk=row.game_id).first()
    text = answers.ATTEMPT.format(sender=reading.sender, game=game or "a game", email=user.email)
    mail = answers.queue_attempt_notice(text, key=f"inbound:{row.pk}", user=user, game=game)
    return finish(row, Outcome.REJECTED, error, mail.pk if mail else None)


def _from_a_person(
    row: InboundMessage, reading: Reading, now: datetime, over: _Over | None = None
) -> Handled:
    found = _genuine_token(reading)
    if found is None:
        # Not the site's token: the sender may be anyone, and is not answered.
        why = "a reply token that is not valid" if replyto.tokens_in(reading.recipients) else ""
        why = why or "no reply token"
        if over is not None:
            return finish(row, Outcome.TOO_LARGE, f"{over.error}; {why}")
        return finish(row, Outcome.REJECTED, why)
    row.token, token = found[0][:120], found[1]
    if Game.objects.filter(pk=token.game_id).exists():
        # A genuine token names its game even when its sender is refused, so the game's
        # organisers see the attempt in the audit.
        row.game_id = token.game_id
    user = _token_player(token)
    if not _is_from(user, reading):
        return _tell_of_attempt(row, user, reading, now)
    assert user is not None
    row.user = user  # the token and the sender matched: it counts for their limit
    if over is not None:
        return _answer_player(row, user, reading, Outcome.TOO_LARGE, over.text, over.error)
    seat = Seat.objects.filter(pk=token.seat_id, game_id=token.game_id).first()
    game = Game.objects.select_related("to_move", "winner").filter(pk=token.game_id).first()
    if seat is None or game is None or seat.user_id != token.user_id:
        error = "the token's player no longer holds its seat"
        return _answer_player(row, user, reading, Outcome.REJECTED, answers.REPLACED, error)
    if token.issued + settings.REPLY_TOKEN_DAYS * 86400 < now.timestamp():
        error = "the token expired"
        return _answer_player(row, user, reading, Outcome.REJECTED, answers.EXPIRED, error)
    if not _move_for_decision_due(reading, token, game, seat) and _over_limit(user, now):
        return _limited(row, user, game, reading, now)
    row.game, row.turn = game, token.turn if token.for_decision else None
    address = reading.recipients[0] if reading.recipients else settings.REPLY_DOMAIN
    reply_address = next(
        (a for a in reading.recipients if replyto.token_of(a) == row.token), address
    )
    context = Context(row, reading, token, reply_address, user, game, seat)
    return run_command(context, now)


class ReplayedSignature(Exception):
    """A webhook signature the site accepted before."""


def note_webhook_signature(token: str, now: datetime | None = None) -> None:
    """Record a provider's signed token, in the caller's transaction (which handles the
    post: a post that fails leaves no record, and its provider's retry is accepted);
    ReplayedSignature if it was recorded before. Of two posts with one token at the same
    moment, the second insert waits for the first transaction and then fails."""
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on
            WebhookSignature.objects.create(token=token[:200], seen_at=now or timezone.now())
    except IntegrityError:
        raise ReplayedSignature(token) from None


def sweep_inbound(now: datetime | None = None) -> int:
    """Periodic: delete the audit rows older than INBOUND_KEEP_DAYS, and the webhook
    signatures too old to be accepted again anyway; returns how many audit rows."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.INBOUND_KEEP_DAYS)
    deleted, _ = InboundMessage.objects.filter(received_at__lt=cutoff).delete()
    window = timedelta(seconds=2 * settings.INBOUND_WEBHOOK_MAX_AGE_SECONDS)
    WebhookSignature.objects.filter(seen_at__lt=now - window).delete()
    return deleted
