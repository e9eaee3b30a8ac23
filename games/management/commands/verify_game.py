"""Check a finished game's dice as a player does with ``tools/verify_dice.py``: build
everyone's record of the game (the record.json of its page) and run that script's checks
on it.

    python manage.py verify_game ID

Prints one line per check and a summary. Exits 1 at the first difference, which it names,
and 2 when there is nothing to verify: no such game, a game not over (its seed stays
secret until it ends), a game without verifiable dice.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from games import seen
from games.kinds import EVERYONE
from games.models import Game

TOOL = Path(settings.BASE_DIR) / "tools" / "verify_dice.py"


@functools.cache
def verifier() -> ModuleType:
    """``tools/verify_dice.py``, loaded from its path (``tools`` is no package: the script
    stands alone for players)."""
    spec = importlib.util.spec_from_file_location("verify_dice", TOOL)
    assert spec is not None and spec.loader is not None, TOOL
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Command(BaseCommand):
    help = "Check a finished game's dice against its revealed seed, as tools/verify_dice.py."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, metavar="ID", help="the game's id")

    def handle(self, *args: Any, game: int, **options: Any) -> None:
        row = Game.objects.filter(pk=game).first()
        if row is None:
            raise CommandError(f"there is no game {game}", returncode=2)
        if row.position is None:
            raise CommandError(f"game {game} has not started: it has no record", returncode=2)
        if row.is_active:
            raise CommandError(
                f"game {game} is not over ({row.get_status_display()}): "
                "its seed stays secret until it ends",
                returncode=2,
            )
        # The record as its JSON download gives it to everyone.
        record = json.loads(json.dumps(seen.game_record(row, EVERYONE), cls=DjangoJSONEncoder))
        tool = verifier()
        try:
            for line in tool.checks(record):
                self.stdout.write(line)
        except tool.Different as difference:
            raise CommandError(f"DIFFERENT: {difference}", returncode=1) from None
        except tool.Unverifiable as reason:
            raise CommandError(f"nothing to verify: {reason}", returncode=2) from None
