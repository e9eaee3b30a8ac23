"""A mail transport for the tests that fails on demand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend


class WorkerKilled(BaseException):
    """Stands for the worker process dying mid-send: no ``except Exception`` sees it."""


class FlakyTransport(BaseEmailBackend):
    failures: ClassVar[list[BaseException]] = []
    delivered: ClassVar[list[EmailMessage]] = []

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        if self.failures:
            raise self.failures.pop(0)
        for message in email_messages:
            message.message()  # built as the SMTP transport would
        self.delivered.extend(email_messages)
        return len(email_messages)
