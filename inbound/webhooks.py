"""The inbound webhook: mail providers (Mailgun, SendGrid, Postmark, Amazon SES, ...)
post each received message to ``/anymail/<provider>/inbound/``; django-anymail checks
the request (basic auth, the provider's signature) and sends its ``inbound`` signal,
whose receiver here hands the message to ``handle_message`` like the other transports.
"""

from __future__ import annotations

from typing import Any

from anymail.signals import inbound

from inbound.services import handle_message


def receive(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    handle_message(message.as_bytes(), transport="webhook", recipients=recipients)


def connect() -> None:
    inbound.connect(receive, dispatch_uid="inbound.webhooks.receive")
