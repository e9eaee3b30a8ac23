"""Check, and with --fix repair, each started game's stored position against its move log.

The move log is the source of truth and ``Game.position`` a cache of replaying it, so
the two must agree. The command exits with a non-zero status when a game's position
does not match (or its log does not replay) and was not fixed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from games.models import Game


class Command(BaseCommand):
    help = "Replay each started game's move log and compare it with the stored position."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            type=int,
            action="append",
            dest="games",
            metavar="ID",
            help="check only this game (repeat for several); default: every started game",
        )
        parser.add_argument(
            "--fix", action="store_true", help="store the replayed position where it differs"
        )

    def handle(
        self, *args: Any, games: list[int] | None = None, fix: bool = False, **options: Any
    ) -> None:
        selected = Game.objects.order_by("pk")
        if games:
            missing = sorted(
                set(games) - set(selected.filter(pk__in=games).values_list("pk", flat=True))
            )
            if missing:
                raise CommandError(f"there is no game {', '.join(map(str, missing))}")
            selected = selected.filter(pk__in=games)
            for game in selected.filter(started_at__isnull=True):
                self.stdout.write(f"{label(game)}: not started, nothing to check")
        checked = bad = fixed = 0
        for game in selected.filter(started_at__isnull=False):
            checked += 1
            try:
                matches = services.rebuild_position(game, fix=fix)
            except Exception as error:  # report a log that does not replay, and go on
                bad += 1
                self.stdout.write(
                    self.style.ERROR(f"{label(game)}: the move log does not replay: {error}")
                )
                continue
            if matches:
                self.stdout.write(f"{label(game)}: matches the move log")
            elif fix:
                fixed += 1
                self.stdout.write(
                    self.style.WARNING(
                        f"{label(game)}: did not match; stored the replayed position"
                    )
                )
            else:
                bad += 1
                self.stdout.write(self.style.ERROR(f"{label(game)}: does NOT match the move log"))
        self.stdout.write(f"Checked {checked} game(s): {bad} wrong, {fixed} fixed.")
        if bad:
            hint = "" if fix else " (run with --fix to store the replayed positions)"
            raise CommandError(f"{bad} game(s) do not match their move log{hint}")


def label(game: Game) -> str:
    return f"Game {game.pk}" + (f" ({game.name})" if game.name else "")
