"""The audit row of a received message: claimed once per Message-ID, then finished with
what was done. Written only by the inbound services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from inbound.models import InboundMessage
from inbound.reading import Reading, clean


@dataclass(frozen=True)
class Handled:
    """What was done with a message: the audit row's outcome (or "duplicate" for a
    message handled before, which has no row of its own), its id, and whether it was
    answered."""

    outcome: str
    row_id: int | None = None
    answered: bool = False


def claim(reading: Reading, raw: bytes, transport: str, now: datetime) -> InboundMessage | None:
    """The message's audit row, or None if the message was handled before.

    The unique Message-ID makes this the claim: of two deliveries of one message (a
    retrying mail server, two transports) only one inserts the row. On PostgreSQL the
    second insert waits for the first transaction, then fails here, once it committed."""
    row = InboundMessage(
        received_at=now,
        transport=transport[:10],
        message_id=reading.message_id,
        sender=reading.sender[:320],
        recipient=(reading.recipients[0] if reading.recipients else "")[:320],
        subject=reading.subject[:300],
        size=len(raw),
        command=reading.first_line[:200],
    )
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on
            row.save()
    except IntegrityError:
        if InboundMessage.objects.filter(message_id=reading.message_id).exists():
            return None
        raise
    return row


def finish(
    row: InboundMessage, outcome: str, error: str = "", answer: int | None = None, **fields: object
) -> Handled:
    row.outcome = outcome
    row.error = clean(error)[:2000]
    row.answer_id = answer
    for name, value in fields.items():
        setattr(row, name, value)
    row.save()
    return Handled(outcome, row.pk, answer is not None)
