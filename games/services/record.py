"""The stored position rebuilt from the move log (the log is the source of truth)."""

from __future__ import annotations

from django.db import transaction

from games.kinds import kind_of
from games.models import Game
from games.selectors import replay
from games.services.core import current_time, lock_game, store_position
from games.services.organiser import keep_correction


def rebuild_position(game: Game, fix: bool = False) -> bool:
    """Replay the log; True if the stored position matched. ``fix`` stores the replay
    and what follows from it (whose decision, status, winner; a result an organiser
    corrected stays corrected)."""
    if not fix:
        return kind_of(game).dump(replay(game)[-1][1]) == game.position
    with transaction.atomic():
        locked = lock_game(game.pk)  # no move may land between the replay and the write
        state = replay(locked)[-1][1]
        if kind_of(locked).dump(state) == locked.position:
            return True
        locked.turn_number = locked.moves.count()
        store_position(locked, state, current_time(), announce=False)  # told when it really ended
        keep_correction(locked)  # an organiser's correction outlives the replayed ranks
    return False
