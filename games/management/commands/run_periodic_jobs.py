"""Run the periodic jobs of CELERY_BEAT_SCHEDULE in this process, on their intervals.

For the embedded default (no Redis, no beat): `bin/site` starts it beside the server,
so deadlines pass and the outbox is swept there too. With a broker, run Celery beat
and a worker instead (see the README).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from ww5site.celery import app


class Command(BaseCommand):
    help = "Run the periodic jobs (deadline sweep, outbox sweep) in-process, on their intervals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="run every job once and stop")

    def handle(self, *args: Any, **options: Any) -> None:
        app.loader.import_default_modules()  # register every app's tasks, as a worker does
        schedule = {
            name: (entry["task"], float(entry["schedule"]))
            for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
        }
        due = dict.fromkeys(schedule, 0.0)
        while True:
            now = time.monotonic()
            for name, (task, every) in schedule.items():
                if now >= due[name]:
                    self._run(name, task)
                    due[name] = now + every
            if options["once"]:
                return
            time.sleep(max(1.0, min(due.values()) - time.monotonic()))

    def _run(self, name: str, task: str) -> None:
        try:
            # apply() runs the task here, in this process, as the beat's worker would.
            app.tasks[task].apply(throw=True)
        except Exception as error:  # a failing job must not stop the others
            self.stderr.write(f"{name}: {error!r}")
        else:
            self.stdout.write(f"{name}: done", ending="\n")
