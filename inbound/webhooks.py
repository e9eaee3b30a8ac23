"""The inbound webhook: mail providers (Mailgun, SendGrid, Postmark, Amazon SES, ...)
post each received message to ``/anymail/<provider>/inbound/``; django-anymail checks
the request (basic auth, the provider's signature) and sends its ``inbound`` signal,
whose receiver here hands the message to ``handle_message`` like the other transports.

Every webhook URL is ``guarded``: without ``ANYMAIL_WEBHOOK_SECRET`` it refuses every
post (anyone could post mail in any sender's name), a provider the site is not set up
for gets a 403 that says so, and a request anymail finds invalid, or cannot parse, a
400 that says why.
Mailgun's raw-MIME posts are also refused when their signature's timestamp is out of
the window or its token was seen before (anymail checks the signature alone), and are
handed on unparsed: the reader checks the token and the parts before reading the body.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from anymail.exceptions import AnymailConfigurationError, AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.utils import get_anymail_setting
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseForbidden

from inbound import services
from inbound.services import handle_message

logger = logging.getLogger(__name__)

NOT_CONFIGURED = (
    "The site's inbound webhook is off: ANYMAIL_WEBHOOK_SECRET is not set. Nothing was read.\n"
)


def webhook_secret() -> Any:
    """The webhook's basic-auth credentials, as django-anymail reads them (None if unset)."""
    return get_anymail_setting("webhook_secret", default=None) or None


def guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (an anymail webhook), refused while the webhook secret is not set, and
    with a clear 4xx for a provider that is not set up or a request that is invalid."""

    @wraps(view)
    def guarded_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not webhook_secret():
            logger.warning("a post to %s was refused: no webhook secret is set", request.path)
            return HttpResponseForbidden(NOT_CONFIGURED, content_type="text/plain")
        try:
            return view(request, *args, **kwargs)
        except AnymailConfigurationError as error:
            # The site or the provider is set up wrong (a missing signing key, a tracking
            # webhook pointed at the inbound URL): the poster's request cannot succeed.
            logger.error("a post to %s was refused: %s", request.path, error)
            text = f"This webhook is not set up on the site: {error}. Nothing was read.\n"
            return HttpResponseForbidden(text, content_type="text/plain")
        except AnymailWebhookValidationFailure as error:
            logger.warning("a post to %s was refused: %s", request.path, error)
            text = f"Refused: {error}. Nothing was read.\n"
            return HttpResponseBadRequest(text, content_type="text/plain")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
            # Raised by anymail's parsing of a body its provider would never send (broken
            # JSON, missing fields): the poster's fault, not ours. (handle_message lets
            # only a DatabaseError out, which stays a 500 so the provider retries.)
            logger.warning("a post to %s was refused: %r", request.path, error)
            text = (
                "Refused: not a post of this provider's inbound webhook "
                f"({type(error).__name__}). Nothing was read.\n"
            )
            return HttpResponseBadRequest(text, content_type="text/plain")

    return guarded_view


def _signature_fields(request: HttpRequest) -> tuple[str, str]:
    """Mailgun's signed timestamp and token (already checked against the signature)."""
    if request.content_type == "application/json":
        block = json.loads(request.body.decode("utf-8"))["signature"]
        return str(block["timestamp"]), str(block["token"])
    return request.POST["timestamp"], request.POST["token"]


class MailgunInbound(MailgunInboundWebhookView):
    """Mailgun's inbound route, with its signature's freshness checked: the signature
    covers only a timestamp and a random token, not the message, so an old or a seen
    one could carry any body."""

    def run_validators(self, request: HttpRequest) -> None:
        super().run_validators(request)  # basic auth and the signature
        timestamp, token = _signature_fields(request)
        window = settings.INBOUND_WEBHOOK_MAX_AGE_SECONDS
        try:
            age = abs(time.time() - int(timestamp))
        except ValueError:
            raise AnymailWebhookValidationFailure("Mailgun's timestamp is no number") from None
        if age > window:
            raise AnymailWebhookValidationFailure(
                f"Mailgun's signature timestamp is more than {window} seconds from the "
                "site's clock (a replayed or delayed post)"
            )
        try:
            services.note_webhook_signature(token)
        except services.ReplayedSignature:
            raise AnymailWebhookValidationFailure(
                "this Mailgun signature was used already (a replayed post)"
            ) from None

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # One transaction: a post that fails (the database is down) leaves its signature
        # unrecorded, so Mailgun's retry of it is accepted.
        with transaction.atomic():
            if "body-mime" not in request.POST:  # the parsed form: anymail builds the message
                return super().post(request, *args, **kwargs)
            self.run_validators(request)
            raw = request.POST["body-mime"].encode("utf-8", errors="surrogateescape")
            recipient = request.POST.get("recipient", "")
            handle_message(raw, transport="webhook", recipients=[recipient] if recipient else [])
        return HttpResponse()


def receive(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    handle_message(message.as_bytes(), transport="webhook", recipients=recipients)


def connect() -> None:
    inbound.connect(receive, dispatch_uid="inbound.webhooks.receive")
