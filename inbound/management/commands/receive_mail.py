"""Read one raw message on standard input and handle it: for a mail server's pipe
(Postfix ``pipe``, Exim ``pipe`` transport, procmail, ...).

Exits 0 once the message is handled (applied, answered, refused, or recorded as a
duplicate or an automatic message): the mail server then drops it. Exits 75
(EX_TEMPFAIL) when it could not be handled now (the database is down): the mail server
keeps it and delivers it again later; the Message-ID makes the second delivery safe.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from inbound.services import handle_message

EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Handle one received message, read whole on standard input (a mail server's pipe)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--recipient",
            action="append",
            default=[],
            help="the envelope recipient (the mail server's ${recipient}); may repeat",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        raw = sys.stdin.buffer.read()
        try:
            handled = handle_message(raw, transport="pipe", recipients=options["recipient"])
        except Exception as error:
            self.stderr.write(f"the message could not be handled now: {error!r}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(f"{handled.outcome}{' (answered)' if handled.answered else ''}")
