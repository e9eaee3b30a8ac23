"""The tournament formats as pure functions: pairing, seating, schedules, cuts, standings
and adjudication.

No Django, no database, no I/O, no clock and no global randomness (like ``ww5/engine``):
every draw comes from a seed the caller records, so a pairing or a seating can be made
again exactly and its costs shown beside it. The Django parts of the app (models,
services, pages, jobs) store what these functions take and return.

No game either: what a game's kind knows (the measures of a player still in a game, who
is out of it, the homes a seat may get) is handed in as plain values, which the app asks
of the kind (``games.kinds.GameKind``'s tournament hooks).

Modules: ``results`` (finishing orders and byes), ``tables`` (splitting a field into
tables), ``pairing`` (Swiss in pods, searching with ``pods`` and ``podsearch``),
``seating`` (seat order and homes), ``cut`` (top cut and elimination in pods),
``roundrobin`` (schedules made up front), ``standings`` (points, tie-breaks, ranks),
``adjudication`` (ranking unfinished games under a turn limit) and ``eventseed`` (the
commitment to the event's seed).
"""
