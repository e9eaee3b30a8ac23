"""Every change to leagues and tournaments goes through here: one module per job.

- ``events``: leagues and their members, creating and setting up an event, registration,
  entries, pausing, dropping and admitting players, a corrected result (its public names
  are re-exported here, so ``services.create_tournament(...)`` works);
- ``rounds``: an event running itself: pairing and seating a round, making its games,
  recording results, adjudicating at the deadline, advancing to the next round or the
  final standings;
- ``eventjobs``: an organiser's long actions on an event, queued and run as jobs;
- ``sweeps``: the periodic work that keeps events moving (``tournaments.tasks``).

Reads that change nothing (who organises which league, an event's standings, its report,
its CSV export, a player's next step) are in ``tournaments.selectors``.

The other modules of the package import what they need from ``events`` itself, never
from here, so that importing this package loads ``events`` alone.
"""

from tournaments.services.events import (
    add_bot,
    admit,
    approve_member,
    check_in,
    check_organiser,
    correct_result,
    create_league,
    create_tournament,
    drop_entry,
    join_league,
    leave_league,
    lock_event,
    make_organiser,
    name_organiser,
    new_tournament,
    open_registration,
    pause_event,
    register,
    reinstate,
    resume_event,
    start_event,
    update_league,
    update_tournament,
    withdraw,
)

__all__ = [
    "add_bot",
    "admit",
    "approve_member",
    "check_in",
    "check_organiser",
    "correct_result",
    "create_league",
    "create_tournament",
    "drop_entry",
    "join_league",
    "leave_league",
    "lock_event",
    "make_organiser",
    "name_organiser",
    "new_tournament",
    "open_registration",
    "pause_event",
    "register",
    "reinstate",
    "resume_event",
    "start_event",
    "update_league",
    "update_tournament",
    "withdraw",
]
