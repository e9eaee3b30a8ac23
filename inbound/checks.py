"""System checks of received mail: the webhook is off until its secret is set."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning

from inbound.webhooks import webhook_secret


def _webhook_off() -> list[CheckMessage]:
    if webhook_secret():
        return []
    return [
        CheckWarning(
            "The inbound webhook is off: ANYMAIL_WEBHOOK_SECRET is not set, so "
            "/anymail/<provider>/inbound/ refuses every post (403).",
            hint="Set ANYMAIL_WEBHOOK_SECRET=user:password and give it to the provider "
            "in the webhook's URL; mail handed over by receive_mail or mail_listener "
            "needs no secret.",
            id="inbound.W001",
        )
    ]


def webhook_secret_at_start_up(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return [] if settings.DEBUG else _webhook_off()


def webhook_secret_for_deploy(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    return _webhook_off() if settings.DEBUG else []


def register_checks() -> None:
    """One warning in each case: at start-up (runserver, migrate, check) in production,
    and with `check --deploy` also while DEBUG is on (where the first one is silent)."""
    register(webhook_secret_at_start_up, Tags.security)
    register(webhook_secret_for_deploy, Tags.security, deploy=True)
