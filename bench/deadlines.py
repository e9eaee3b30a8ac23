"""Deadline benchmark: one sweep over many running games, then the missed-decision policy.

    .venv/bin/python -m bench.deadlines [--games 100000] [--due 1000] [--handle 100]

On the local PostgreSQL database ``ww5_bench`` (created if missing, migrated; its games
tables are emptied first), plays one real game through its setup with the services,
then copies that game's row and seats in bulk (INSERT … SELECT in the database) until
there are ``--games`` games in play, ``--due`` of them past their deadline (half of those
already past their grace). It times ONE call of ``services.sweep_deadlines()`` with the
after-commit hand-over to the tasks replaced by a counter (no policy runs inside the
timed sweep), then ``services.handle_missed_decision`` for ``--handle`` claimed games
whose grace has passed (the greedy bot's timeout move) and as many still due their
grace. Prints games, due, claimed, seconds and decisions per second. Every loop is
bounded: the script stops by itself.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from typing import Any

from bench.web import DATABASE_URL, create_database, server_env


def setup_django() -> None:
    os.environ.update(server_env(DATABASE_URL))  # production settings, as bench.web
    os.environ.pop("CACHE_URL", None)  # nothing here reads the cache
    os.environ.pop("REDIS_URL", None)  # no broker: a task would run in-process
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def template_game() -> Any:
    """One real game, through its setup with the services: the first player to move."""
    from django.contrib.auth.models import User

    alice, _ = User.objects.get_or_create(username="bench-alice")
    bob, _ = User.objects.get_or_create(username="bench-bob")
    return game_in_play(alice, bob, "bench template")


def game_in_play(alice: Any, bob: Any, name: str) -> Any:
    """A two-player game of ``alice`` (North America) and ``bob`` (Europe), its strict
    setup played with the services: in play, its first player to move."""
    from games import services
    from ww5 import engine

    game = services.create_game(alice, name=name, home="north-america")
    services.join_game(game.pk, bob, home="europe")
    for _ in range(6):  # the strict setup: three placements each
        game.refresh_from_db()
        assert game.to_move is not None and game.to_move.user is not None
        action = engine.legal_actions(services.state_of(game))[0]
        services.submit_move(game.pk, game.to_move.user, action, game.turn_number)
    game.refresh_from_db()
    assert game.status == "play" and game.to_move is not None
    return game


def copy_game(template: Any, games: int, due: int) -> None:
    """``games - 1`` copies of the template: its position and seats, no move rows.

    Copy ``i`` (from 1) is past its deadline when ``i <= due``, by ``i`` seconds; the even
    ones among those have had their grace. The others are due in one to two days.
    """
    from django.db import connection

    from games.models import Game, Seat

    overrides = {
        "id": None,
        "name": "'bench ' || i",
        "invite_token": "'bench-' || i",
        "to_move_id": "NULL",
        "deadline": (
            "CASE WHEN i <= %(due)s THEN now() - i * interval '1 second' "
            "ELSE now() + interval '1 day' + i * interval '1 second' END"
        ),
        "grace_used": "i <= %(due)s AND i %% 2 = 0",
        "deadline_claimed_at": "NULL",
    }
    columns = [f.column for f in Game._meta.concrete_fields if overrides.get(f.column, 1)]
    values = [overrides.get(c) or f't."{c}"' for c in columns]
    seat_columns = [f.column for f in Seat._meta.concrete_fields if f.column != "id"]
    seat_values = ["g.id" if c == "game_id" else f's."{c}"' for c in seat_columns]
    params = {"template": template.pk, "copies": games - 1, "due": due}
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO games_game ({', '.join(columns)}) SELECT {', '.join(values)} "
            "FROM games_game t CROSS JOIN generate_series(1, %(copies)s) AS i "
            "WHERE t.id = %(template)s",
            params,
        )
        cursor.execute(
            f"INSERT INTO games_seat ({', '.join(seat_columns)}) "
            f"SELECT {', '.join(seat_values)} FROM games_game g "
            "JOIN games_seat s ON s.game_id = %(template)s WHERE g.id <> %(template)s",
            params,
        )
        # Each copy waits for the seat with the template's waiting seat's number.
        cursor.execute(
            "UPDATE games_game g SET to_move_id = c.id "
            "FROM games_seat c, games_seat t "
            "WHERE t.id = %(to_move)s AND c.game_id = g.id AND c.number = t.number "
            "AND g.id <> %(template)s",
            {**params, "to_move": template.to_move_id},
        )
        cursor.execute("ANALYZE games_game")
        cursor.execute("ANALYZE games_seat")


def prepare(games: int, due: int) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_move, games_seat, games_game RESTART IDENTITY CASCADE")
    start = time.perf_counter()
    copy_game(template_game(), games, due)
    print(f"prepared {games:,} games in play in {time.perf_counter() - start:.1f} s")


def time_handling(ids: list[int], expected: str) -> str:
    from games import services

    done: Counter[str] = Counter()
    start = time.perf_counter()
    for game_id in ids:
        done[services.handle_missed_decision(game_id)] += 1
    seconds = time.perf_counter() - start
    assert done == {expected: len(ids)}, done
    return (
        f"handle_missed_decision, {len(ids)} {expected}s: {seconds:.2f} s = "
        f"{len(ids) / seconds:.0f} decisions/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--handle", type=int, default=100)
    args = parser.parse_args()

    create_database(DATABASE_URL)
    setup_django()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services
    from games.models import Game
    from games.services import deadlines

    prepare(args.games, args.due)
    handed: list[int] = []
    deadlines.handle_missed_later = handed.extend  # type: ignore[assignment]
    print(
        "the sweep's after-commit hand-over is patched to count: no "
        "handle_missed_decision task runs inside the timed sweep"
    )

    start = time.perf_counter()
    claimed = services.sweep_deadlines()
    seconds = time.perf_counter() - start
    games = Game.objects.count()
    due = Game.objects.filter(deadline__lte=timezone.now()).count()
    assert sorted(handed) == sorted(claimed)
    print(f"games: {games:,}  due: {due:,}  claimed: {len(claimed):,}  seconds: {seconds:.3f}")

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        again = services.sweep_deadlines()
        seconds = time.perf_counter() - start
    print(f"a second sweep right after: claimed {len(again)} in {seconds:.3f} s")
    select = next(q["sql"] for q in queries if q["sql"].startswith("SELECT"))
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + select)
        print("the sweep's query plan:", *(f"  {row[0]}" for row in cursor.fetchall()), sep="\n")

    graced = set(Game.objects.filter(pk__in=claimed, grace_used=True).values_list("pk", flat=True))
    past_grace = [pk for pk in claimed if pk in graced][: args.handle]
    first_miss = [pk for pk in claimed if pk not in graced][: args.handle]
    print(time_handling(past_grace, "timeout move"))
    print(time_handling(first_miss, "grace"))


if __name__ == "__main__":
    main()
