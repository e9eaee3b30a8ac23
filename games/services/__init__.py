"""Every change to games, seats and moves goes through here: one module per job.

- ``core``: the row lock, the seats, writing a move and what follows it (clock, mails,
  result and ranks, the bots after commit), and the seams for dice and time;
- ``lobby``: creating, joining, starting and cancelling games;
- ``decisions``: a player's decision and the bots';
- ``organiser``: an organiser's actions and a player's resignation, told to the players;
- ``clocks``: a decision's time, deadline, reminder, grace and bank;
- ``deadlines``: the periodic sweeps and the missed-decision policy;
- ``absences``: declared absences that stop a player's clocks;
- ``record``: the game record, replayed from the move log;
- ``tables``: a table of given players, homes and seat order, started at once.

Reads that change nothing (who may see or organise a game, a player's games) are in
``games.selectors``.
"""

from games.errors import GameError, NeedsConfirmation, NotYourDecision, StaleForm
from games.selectors import (
    ACTIVE,
    away_periods,
    can_see,
    initial_state,
    replacements,
    replay,
    seat_for,
    users_games,
)
from games.services.absences import absence_days, absences_of, cancel_absence, declare_absence
from games.services.clocks import MIN_BANK_GRACE, arm_reminder, grace_time, time_allowed
from games.services.core import (
    MAX_SEATS,
    MIN_SEATS,
    Decision,
    current_time,
    dice,
    lock_game,
    seat_named,
    seats_of,
    state_of,
    use_clock,
    use_dice,
)
from games.services.deadlines import (
    CLAIM_EXPIRES,
    handle_missed_decision,
    sweep_deadlines,
    sweep_reminders,
)
from games.services.decisions import play_bot_turns, submit_move, submit_script, sweep_bots
from games.services.lobby import (
    add_bot,
    assign_home,
    cancel_game,
    create_game,
    create_lobby_game,
    join_game,
    leave_game,
    play_against_bots,
    set_dice_words,
    set_muted,
    start_game,
)
from games.services.organiser import (
    abandon_game,
    adjudicate,
    correct_result,
    extend_deadline,
    forfeit_seat,
    move_on_behalf,
    pause_game,
    replace_player,
    resign,
    resume_game,
)
from games.services.record import rebuild_position
from games.services.tables import TableSeat, create_table

__all__ = [
    "ACTIVE",
    "CLAIM_EXPIRES",
    "MAX_SEATS",
    "MIN_BANK_GRACE",
    "MIN_SEATS",
    "Decision",
    "GameError",
    "NeedsConfirmation",
    "NotYourDecision",
    "StaleForm",
    "TableSeat",
    "abandon_game",
    "adjudicate",
    "correct_result",
    "absence_days",
    "absences_of",
    "add_bot",
    "arm_reminder",
    "assign_home",
    "away_periods",
    "can_see",
    "cancel_absence",
    "cancel_game",
    "create_game",
    "create_lobby_game",
    "create_table",
    "current_time",
    "declare_absence",
    "dice",
    "extend_deadline",
    "forfeit_seat",
    "grace_time",
    "handle_missed_decision",
    "initial_state",
    "join_game",
    "leave_game",
    "lock_game",
    "move_on_behalf",
    "pause_game",
    "play_against_bots",
    "play_bot_turns",
    "rebuild_position",
    "replace_player",
    "replacements",
    "replay",
    "resign",
    "resume_game",
    "seat_for",
    "seat_named",
    "seats_of",
    "set_dice_words",
    "set_muted",
    "start_game",
    "state_of",
    "submit_move",
    "submit_script",
    "sweep_bots",
    "sweep_deadlines",
    "sweep_reminders",
    "time_allowed",
    "use_clock",
    "use_dice",
    "users_games",
]
