"""Run the SMTP listener for the site's reply addresses until stopped (SIGTERM or
Ctrl-C); see ``inbound.listener``."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from inbound.listener import controller


class Command(BaseCommand):
    help = "Receive mail for the site's reply addresses over SMTP (aiosmtpd) until stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
        parser.add_argument("--port", type=int, default=2525, help="port to listen on")

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        server = controller(options["host"], options["port"])
        server.start()
        self.stdout.write(f"listening for mail on {options['host']}:{options['port']}")
        self.stdout.flush()
        try:
            stop.wait()
        finally:
            server.stop()
            self.stdout.write("stopped")
