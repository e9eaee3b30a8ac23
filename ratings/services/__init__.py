"""Every change to ratings and ladders goes through here: one module per job.

- ``ladder``: ladders, their seasons and their players, and a ladder game's result;
- ``matchmaking``: the ladder's periodic matchmaking, tables formed from the waiting
  players and started as games;
- ``pools``: rating games into their pools, and replaying a pool's journal;
- ``sweeps``: the periodic work that keeps ladders moving (``ratings.tasks``).

Import the module that does the job (``from ratings.services import ladder``); nothing
is re-exported here. Reads that change nothing (leaderboards, a player's ratings and
journal, the public pages) are in ``ratings.selectors``; the pure rating maths is in
``ratings.core``.
"""
