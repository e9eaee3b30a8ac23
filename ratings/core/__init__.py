"""The pure parts of ratings and ladders: no Django, no I/O, no clock.

- ``model``: OpenSkill (Plackett-Luce) over a game's finishing order, the shown scale,
  idle growth of sigma, a new season's start;
- ``journal``: rating one game after another, and replaying a whole pool;
- ``matchmaking``: forming ladder tables from the waiting players;
- ``seats``: win share by seat with Wilson intervals.
"""
