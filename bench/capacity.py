"""Capacity benchmark: the periodic sweeps and the heaviest reads over a loaded database.

    .venv/bin/python -m bench.capacity [--games 100000] [--users 200000] [--due 10000]
        [--reminders 1000] [--stalled-bots 1000] [--moves 20] [--heavy 100]
        [--entrants 1000] [--rounds 3] [--runs 5] [--retained 25000] [--reuse]
        [--parts sweeps,pages,...]

On the local PostgreSQL database ``ww5_capacity`` (``BENCH_CAPACITY_DATABASE_URL``;
created if missing, migrated, its games, events and outbox emptied first) with
production settings (as ``bench.web``) and the cache in the local Redis
(``BENCH_CAPACITY_CACHE_URL``, database 15 by default; the script clears it), it loads:

- ``--users`` players (rows of ``auth_user`` and their profiles, each with an address),
  copied in bulk with ``INSERT … SELECT``;
- ``--games`` World War 5 games in play: one game played with the services through its
  strict setup and on to ``--moves`` moves, then its row, its seats and its move rows
  copied in bulk, each copy seated by two of the players (each player in about one game;
  one player, the heavy one, in ``--heavy`` of them). ``--due`` of them are past their
  deadline, ``--reminders`` others due their reminder, and ``--stalled-bots`` others wait
  for a bot seat whose turn was lost (their last move a day ago);
- an event of ``--entrants`` players (Swiss, tables of 4) played for ``--rounds`` rounds
  with the services, each round's games ended by the round's deadline (adjudicated),
  and the next round paired;
- nine games of 200 moves: RisiKo (4 players, the random bot's choices) and World War 5 (2
  players), of each kind one over (its last moves resignations) and two still running
  (one of them to take a new move before each timed request); and two World War 5 games
  in play, of two players with an address and of two without, whose moves are counted.

Then it times, ``--runs`` times each (min and median printed), in this process, the
requests through Django's test client (no web server): the three sweeps (deadlines,
reminders, stalled bots) and the outbox sweep, with every hand-over to a task (a missed
decision's policy, a bot's turn, a mail's sending) replaced by a counter, and the state
each claims put back between runs; the outbox's trim and deletion of ``--retained`` sent
mails of a decision mail's size (each run on fresh rows); the lobby (signed out, and
signed in as the heavy player, whose games it lists); the heavy player's public page;
one of their games' page and its live poll (nothing changed), four times as often; the
event's ``standings.json``; each 200-move game's ``record.json`` for each kind of
reader, the first request (the cache emptied) and the ones after it, and for a running
game the request after each new move (on a game of its own); then what a move writes
(statements, rows, WAL). Last, the bytes on disk (``pg_total_relation_size``: the table,
its indexes and TOAST) per game, seat, move, player and outbox mail, and the outbox's
rows by kind.

``--reuse`` keeps what an earlier run loaded (with the same figures) and loads only
what it lacks; ``--parts`` times only some of the parts (sweeps, pages, records,
writes, sizes). Prints one figure a line. Every loop is bounded: the script stops by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.deadlines import game_in_play
from bench.web import create_database, server_env

DATABASE_URL = os.environ.get(
    "BENCH_CAPACITY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ww5_capacity"
)
CACHE_URL = os.environ.get("BENCH_CAPACITY_CACHE_URL", "redis://127.0.0.1:6379/15")
PREFIX = "cap"  # the loaded players' usernames: cap-1, cap-2, …
HEAVY = "cap-heavy"
RECORD_MOVES = 200
PARTS = ("sweeps", "pages", "records", "writes", "sizes")


def setup_django() -> None:
    os.environ.update(server_env(DATABASE_URL))  # production settings, as bench.web
    os.environ["CACHE_URL"] = CACHE_URL  # sessions, and whatever the site caches
    os.environ.pop("REDIS_URL", None)  # no broker: every hand-over is patched below
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # the pages' manifest


class Handed:
    """What the sweeps would have handed to tasks, counted instead of run."""

    def __init__(self) -> None:
        self.missed: list[int] = []
        self.bots: list[int] = []
        self.mails: list[int] = []

    def patch(self) -> None:
        import mail.services
        from games.services import deadlines
        from games.tasks import play_bots

        deadlines.handle_missed_later = self.missed.extend  # type: ignore[assignment]
        play_bots.delay = self.bots.append  # type: ignore[method-assign]
        mail.services.send_later = self.mails.extend  # type: ignore[assignment]


# --- loading --------------------------------------------------------------------------


def execute(sql: str, params: Any = None) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def scalar(sql: str, params: Any = None) -> Any:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
        return None if row is None else row[0]


def empty() -> None:
    execute(
        "TRUNCATE games_move, games_seat, games_game, games_gameevent, mail_outgoingmail, "
        "tournaments_league RESTART IDENTITY CASCADE"
    )


def load_users(users: int) -> None:
    """``users`` players and their profiles, each with an address; one more, the heavy
    player. The profiles' columns take their model defaults."""
    from django.contrib.auth.models import User

    from accounts.models import Profile

    if User.objects.filter(username__startswith=f"{PREFIX}-").count() >= users + 1:
        return
    User.objects.filter(username__startswith=f"{PREFIX}-").delete()
    execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, "
        "email, is_staff, is_active, date_joined) "
        "SELECT '!', false, %(prefix)s || '-' || i, '', '', "
        "%(prefix)s || '-' || i || '@example.test', false, true, now() "
        "FROM generate_series(1, %(users)s) AS i",
        {"prefix": PREFIX, "users": users},
    )
    User.objects.create(username=HEAVY, email=f"{HEAVY}@example.test")  # its profile: saved
    from django.db import connection

    fields = [f for f in Profile._meta.concrete_fields if f.column not in ("id", "user_id")]
    columns = ", ".join(f.column for f in fields)
    values = ", ".join(["%s"] * len(fields))
    execute(
        f"INSERT INTO accounts_profile (user_id, {columns}) SELECT u.id, {values} "
        "FROM auth_user u LEFT JOIN accounts_profile p ON p.user_id = u.id "
        "WHERE p.id IS NULL",
        [f.get_db_prep_save(f.get_default(), connection) for f in fields],
    )
    execute("ANALYZE auth_user")
    execute("ANALYZE accounts_profile")


def player(n: int) -> Any:
    from django.contrib.auth.models import User

    return User.objects.get(username=f"{PREFIX}-{n}")


def calm_move(game: Any, rng: random.Random, attacks: float = 0.01) -> str:
    """A World War 5 action that attacks at the odds ``attacks`` at most, never puts its
    own player out and never wins, so that a game goes on for hundreds of moves."""
    from games import services
    from ww5 import engine
    from ww5.engine.lookahead import eliminates_mover

    state = services.state_of(game)
    actions = engine.legal_actions(state)
    calm = [
        a
        for a in actions
        if not a.startswith("invade")
        and not eliminates_mover(state, a)
        and engine.apply_action(state, a)[0].winner is None
    ]
    return rng.choice(calm if calm and rng.random() >= attacks else actions)


def play_ww5(game: Any, moves: int, seed: int) -> Any:
    from games import services

    rng = random.Random(seed)
    for _ in range(moves * 2):  # bounded
        game.refresh_from_db()
        if not game.is_active or game.turn_number >= moves:
            break
        services.submit_move(game.pk, game.to_move.user, calm_move(game, rng), game.turn_number)
    game.refresh_from_db()
    return game


def template(moves: int) -> Any:
    """The World War 5 game every copy is made of: in play, ``moves`` moves made."""
    game = game_in_play(player(1), player(2), "cap template")
    return play_ww5(game, moves, seed=1)


def copy_games(source: Any, games: int, users: int, args: argparse.Namespace) -> None:
    """``games - 1`` copies of ``source``: its row, seats and move rows.

    Copy ``i`` (from 1) is seated by players ``2i - 1`` and ``2i`` (modulo ``users``),
    and by the heavy player at its first seat when ``i`` is a multiple of
    ``games // heavy``. Copies 1 to ``due`` are past their deadline (by ``i`` seconds;
    the even ones past their grace); the next ``reminders`` due their reminder; the next
    ``stalled_bots`` wait for a bot seat (the seat the game waits for is a greedy bot's).
    Every copy's moves were made a day before the template's.
    """
    from games.models import Game, Move, Seat

    due, reminders, bots = args.due, args.reminders, args.stalled_bots
    overrides = {
        "id": None,
        "name": "'cap ' || i",
        "invite_token": "'cap-' || i",
        "to_move_id": "NULL",
        "deadline": (
            "CASE WHEN i <= %(due)s THEN now() - i * interval '1 second' "
            "ELSE now() + interval '1 day' + i * interval '1 second' END"
        ),
        "remind_at": (
            "CASE WHEN i > %(due)s AND i <= %(due)s + %(reminders)s "
            "THEN now() - interval '1 minute' "
            "ELSE now() + interval '12 hours' + i * interval '1 second' END"
        ),
        "grace_used": "i <= %(due)s AND i %% 2 = 0",
        "deadline_claimed_at": "NULL",
        "created_at": "t.created_at - interval '1 day' - i * interval '1 millisecond'",
        "started_at": "t.started_at - interval '1 day' - i * interval '1 millisecond'",
    }
    columns = [f.column for f in Game._meta.concrete_fields if overrides.get(f.column, 1)]
    values = [overrides.get(c) or f't."{c}"' for c in columns]
    params = {
        "template": source.pk,
        "copies": games - 1,
        "due": due,
        "reminders": reminders,
        "bots_from": due + reminders,
        "bots": bots,
        "users": users,
        "every": max(1, games // max(args.heavy, 1)) if args.heavy else games + 1,
        "prefix": PREFIX,
        "heavy": HEAVY,
        "waiting": source.to_move.number,
    }
    execute(
        f"INSERT INTO games_game ({', '.join(columns)}) SELECT {', '.join(values)} "
        "FROM games_game t CROSS JOIN generate_series(1, %(copies)s) AS i "
        "WHERE t.id = %(template)s",
        params,
    )
    # The players by number, for seating: player n is cap-n.
    execute("DROP TABLE IF EXISTS cap_players")
    execute(
        "CREATE TEMPORARY TABLE cap_players AS SELECT "
        "substr(username, length(%(prefix)s) + 2)::int AS n, id FROM auth_user "
        "WHERE username ~ ('^' || %(prefix)s || '-[0-9]+$')",
        params,
    )
    execute("CREATE INDEX ON cap_players (n)")
    execute(
        "CREATE TEMPORARY TABLE cap_copies AS SELECT id, "
        "split_part(invite_token, '-', 2)::int AS i FROM games_game "
        "WHERE invite_token LIKE 'cap-%%'"
    )
    seat_columns = [f.column for f in Seat._meta.concrete_fields if f.column != "id"]
    seat_values = {c: f's."{c}"' for c in seat_columns}
    seat_values["game_id"] = "g.id"
    bot = "g.i > %(bots_from)s AND g.i <= %(bots_from)s + %(bots)s AND s.number = %(waiting)s"
    seat_values["user_id"] = (
        f"CASE WHEN {bot} THEN NULL "
        "WHEN s.number = 1 AND g.i %% %(every)s = 0 "
        "THEN (SELECT id FROM auth_user WHERE username = %(heavy)s) "
        "ELSE (SELECT id FROM cap_players p "
        "WHERE p.n = (2 * g.i + s.number - 3) %% %(users)s + 1) END"
    )
    seat_values["bot"] = f"CASE WHEN {bot} THEN 'greedy' ELSE s.bot END"
    execute(
        f"INSERT INTO games_seat ({', '.join(seat_columns)}) "
        f"SELECT {', '.join(seat_values[c] for c in seat_columns)} FROM cap_copies g "
        "JOIN games_seat s ON s.game_id = %(template)s",
        params,
    )
    execute(
        "UPDATE games_game g SET to_move_id = c.id FROM games_seat c "
        "WHERE c.game_id = g.id AND c.number = %(waiting)s AND g.id <> %(template)s "
        "AND g.invite_token LIKE 'cap-%%'",
        params,
    )
    move_columns = [f.column for f in Move._meta.concrete_fields if f.column != "id"]
    move_values = {c: f'm."{c}"' for c in move_columns}
    move_values.update(
        game_id="g.id",
        seat_id="c.id",
        player_id="c.user_id",
        actor_id="CASE WHEN m.actor_id IS NULL THEN NULL ELSE c.user_id END",
        created_at="m.created_at - interval '1 day'",
    )
    execute(
        f"INSERT INTO games_move ({', '.join(move_columns)}) "
        f"SELECT {', '.join(move_values[c] for c in move_columns)} FROM cap_copies g "
        "JOIN games_move m ON m.game_id = %(template)s "
        "JOIN games_seat ts ON ts.id = m.seat_id "
        "JOIN games_seat c ON c.game_id = g.id AND c.number = ts.number",
        params,
    )
    execute("DROP TABLE cap_copies")
    for table in ("games_game", "games_seat", "games_move"):
        execute(f"ANALYZE {table}")


def event(entrants: int, rounds: int) -> Any:
    """A Swiss event of ``entrants`` players, tables of 4, played for ``rounds`` rounds
    (each ended at its deadline: every game adjudicated) and the next round paired."""
    from django.contrib.auth.models import User

    from tournaments import services
    from tournaments.models import Round
    from tournaments.services import rounds as event_rounds

    organiser = User.objects.get_or_create(username=f"{PREFIX}-organiser")[0]
    league = services.create_league("Capacity league", organiser)
    cup = services.create_tournament(
        league, organiser, "Capacity cup", table_size=4, swiss_rounds=rounds + 2, is_public=True
    )
    services.open_registration(cup, organiser)
    players = User.objects.filter(username__regex=rf"^{PREFIX}-[0-9]+$").order_by("pk")
    for user in players[:entrants]:
        services.register(cup, user)
    event_rounds.start(cup.pk)
    for number in range(1, rounds + 1):
        made = Round.objects.get(tournament=cup, number=number)
        event_rounds.adjudicate_round(made)  # the next round is paired after the last
    cup.refresh_from_db()
    return cup


def risiko_game(name: str, moves: int, resign: bool) -> Any:
    """A RisiKo table of four players (cap-11 to cap-14) played with the random bot's
    choices to ``moves`` moves; ``resign``: its last moves the resignations of all but
    one of the players still in. A table won before (rare) is renamed and another
    played, with the next seed."""
    from django.db import transaction

    from games import selectors, services
    from games.kinds import kind_named
    from games.models import Game
    from games.options import GameOptions

    kind = kind_named("risiko")
    users = [player(n) for n in range(11, 15)]
    for seed in range(10):
        with transaction.atomic():
            seats = [services.TableSeat("", user=u) for u in users]
            game = services.create_table(GameOptions(kind="risiko"), seats, name=name)
        rng = random.Random(seed)
        for _ in range(moves * 2):  # bounded
            game = Game.objects.get(pk=game.pk)
            staying = [s for s in game.seats.all() if selectors.still_playing(game, s)]
            if (
                not game.is_active
                or game.turn_number + (len(staying) - 1 if resign else 0) >= moves
            ):
                break
            play_risiko(game, kind, rng)
        if game.is_active:
            break
        Game.objects.filter(pk=game.pk).update(name=f"{name} (won early)")
    if resign:
        for seat in staying[1:]:
            services.resign(game.pk, seat.user)
    game = Game.objects.get(pk=game.pk)
    assert game.turn_number == moves, (name, game.turn_number)
    return game


def play_risiko(game: Any, kind: Any, rng: random.Random) -> None:
    """The move of the player RisiKo waits for first: the random bot's choice."""
    from games import services

    state = kind.load(game.position)
    name = kind.deciders(state)[0]
    seat = next(s for s in game.seats.all() if s.player_name == name)
    services.submit_move(
        game.pk, seat.user, kind.bots["random"](state, name, rng), game.turn_number
    )


def ww5_game(name: str, moves: int, resign: bool) -> Any:
    """A World War 5 game of two players (cap-21 and cap-22) played with calm choices to
    ``moves`` moves; ``resign``: its last move a resignation. A game won before is
    renamed and another played, with the next seed."""
    from games import services
    from games.models import Game

    for seed in range(10):
        game = play_ww5(game_in_play(player(21), player(22), name), moves - int(resign), seed)
        if game.is_active:
            break
        Game.objects.filter(pk=game.pk).update(name=f"{name} (won early)")
    if resign:
        services.resign(game.pk, player(22))
    game = Game.objects.get(pk=game.pk)
    assert game.turn_number == moves, (name, game.turn_number)
    return game


def addressed_game(name: str, moves: int, resign: bool) -> Any:
    """A World War 5 game in play of two players with an address (cap-23 and cap-24), of
    ``moves`` moves."""
    return moved_game(name, moves, player(23), player(24))


def unaddressed_game(name: str, moves: int, resign: bool) -> Any:
    """A World War 5 game in play of two players without an address (no mail is queued
    for them), of ``moves`` moves."""
    from django.contrib.auth.models import User

    first, second = (User.objects.get_or_create(username=f"{PREFIX}-quiet-{n}")[0] for n in (1, 2))
    return moved_game(name, moves, first, second)


def moved_game(name: str, moves: int, first: Any, second: Any) -> Any:
    """A World War 5 game of ``first`` and ``second`` in play, of ``moves`` moves none of
    which attacks (it goes on)."""
    from games import services
    from games.models import Game

    game = game_in_play(first, second, name)
    rng = random.Random(11)
    while game.turn_number < moves:
        action = calm_move(game, rng, attacks=0)
        services.submit_move(game.pk, game.to_move.user, action, game.turn_number)
        game = Game.objects.get(pk=game.pk)
    assert game.is_active and game.turn_number == moves, (name, game.turn_number)
    return game


def load(args: argparse.Namespace) -> None:
    """The players, the games, the event and the games of 200 moves; with ``--reuse``,
    those a database loaded before lacks."""
    from games.models import Game
    from tournaments.models import Tournament

    start = time.perf_counter()
    if not args.reuse:
        empty()
    load_users(args.users)
    print(f"players: {args.users + 1:,} in {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    if not Game.objects.filter(invite_token__startswith="cap-").exists():
        copy_games(template(args.moves), args.games, args.users, args)
    print(
        f"games: {Game.objects.count():,}, those in play of {args.moves} moves each, "
        f"in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    start = time.perf_counter()
    if not Tournament.objects.filter(name="Capacity cup").exists():
        event(args.entrants, args.rounds)
    print(
        f"event: {args.entrants:,} entrants, {args.rounds} rounds played, "
        f"in {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    start = time.perf_counter()
    for name, make, resign in (
        ("cap risiko running", risiko_game, False),
        ("cap risiko over", risiko_game, True),
        ("cap ww5 running", ww5_game, False),
        ("cap ww5 over", ww5_game, True),
        ("cap risiko growing", risiko_game, False),
        ("cap ww5 growing", ww5_game, False),
        ("cap ww5 addressed", addressed_game, False),
        ("cap ww5 unaddressed", unaddressed_game, False),
    ):
        made = Game.objects.filter(name=name).first()
        if made is not None and (resign or made.is_active):
            continue
        if made is not None:  # a running game that ended since: another one
            Game.objects.filter(pk=made.pk).update(name=f"{name} (ended)")
        make(name, RECORD_MOVES, resign)
    print(f"nine games of {RECORD_MOVES} moves in {time.perf_counter() - start:.1f} s")
    for table in ("games_game", "games_seat", "games_move", "mail_outgoingmail"):
        execute(f"VACUUM ANALYZE {table}")


# --- timing ---------------------------------------------------------------------------


def spread(times: list[float]) -> str:
    return f"min {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms"


class Counted:
    """The SQL statements this process sends while the block runs (all of them: Django's
    own log of queries keeps the last 9,000 only)."""

    def __init__(self) -> None:
        self.statements = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements += 1
        return execute(sql, params, many, context)

    def __enter__(self) -> Counted:
        from django.db import connection

        self.statements = 0
        self.wrapped = connection.execute_wrapper(self)
        self.wrapped.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.wrapped.__exit__(*exc)


def timed(
    runs: int, call: Callable[[], Any], before: Callable[[], Any] | None = None
) -> tuple[list[float], Any, int]:
    """``runs`` timings of ``call`` (``before`` run untimed ahead of each), its last
    result, and the SQL statements of its last run."""
    times, result, queries = [], None, 0
    for _ in range(runs):
        if before is not None:
            before()
        with Counted() as counted:
            start = time.perf_counter()
            result = call()
            times.append(time.perf_counter() - start)
        queries = counted.statements
    return times, result, queries


def time_sweeps(args: argparse.Namespace, handed: Handed) -> None:
    from django.db import transaction

    from games import services
    from games.models import Game
    from mail import services as mail_services
    from mail.models import OutgoingMail

    games = Game.objects.count()

    def unclaim() -> None:
        execute("UPDATE games_game SET deadline_claimed_at = NULL WHERE deadline <= now()")
        handed.missed.clear()

    times, claimed, queries = timed(args.runs, services.sweep_deadlines, unclaim)
    assert len(claimed) == len(handed.missed) == min(args.due, 10_000), len(claimed)
    print(
        f"deadline sweep, {games:,} games, {len(claimed):,} due and claimed: "
        f"{spread(times)} ({queries} statements) = "
        f"{min(times) / len(claimed) * 1e6:.1f} µs a claimed decision"
    )
    times, _, queries = timed(args.runs, services.sweep_deadlines)
    print(f"deadline sweep, nothing left to claim: {spread(times)} ({queries} statements)")
    unclaim()

    tokens = [f"cap-{i}" for i in range(args.due + 1, args.due + args.reminders + 1)]
    reminder_ids = list(Game.objects.filter(invite_token__in=tokens).values_list("pk", flat=True))

    def arm() -> None:
        with transaction.atomic():
            execute(
                "UPDATE games_game SET remind_at = now() - interval '1 minute' WHERE id = ANY(%s)",
                [reminder_ids],
            )
            OutgoingMail.objects.filter(kind="reminder").delete()
        handed.mails.clear()

    times, reminded_ids, queries = timed(args.runs, services.sweep_reminders, arm)
    mails = OutgoingMail.objects.filter(kind="reminder").count()
    assert len(reminded_ids) == args.reminders and mails == args.reminders, (
        len(reminded_ids),
        mails,
    )
    print(
        f"reminder sweep, {games:,} games, {len(reminded_ids):,} due (a mail each, "
        f"queued): {spread(times)} ({queries} statements) = "
        f"{min(times) / len(reminded_ids) * 1000:.2f} ms a reminder"
    )
    times, _, queries = timed(args.runs, services.sweep_reminders)
    print(f"reminder sweep, nothing due: {spread(times)} ({queries} statements)")

    def forget() -> None:
        handed.bots.clear()

    times, restarted, queries = timed(args.runs, services.sweep_bots, forget)
    assert len(restarted) == min(args.stalled_bots, 1000), len(restarted)
    print(
        f"stalled-bot sweep, {games:,} games, {len(restarted):,} waiting for a bot: "
        f"{spread(times)} ({queries} statements)"
    )

    outbox = OutgoingMail.objects.count()
    times, sent, queries = timed(args.runs, mail_services.sweep_outbox)
    print(
        f"outbox sweep, {outbox:,} mails in the outbox ({len(sent)} due): "
        f"{spread(times)} ({queries} statements)"
    )
    time_retention(args)


RETAINED_SUBJECT = "cap retained"


def time_retention(args: argparse.Namespace) -> None:
    """The trim job's two halves over ``--retained`` sent mails of 3 KB (a decision
    mail's size), each run on fresh rows: emptying the bodies of those a month old, then
    deleting the rows of those a year old (``mail.services``, one batch of 5,000 rows a
    transaction, as the periodic job runs them)."""
    from mail import services as mail_services

    now_sql = "now() - interval '400 days'"

    def sent_mails() -> None:
        execute("DELETE FROM mail_outgoingmail WHERE subject = %s", [RETAINED_SUBJECT])
        execute(
            "INSERT INTO mail_outgoingmail (to_address, from_address, kind, subject, "
            "body_text, body_html, thread, message_id, unsubscribe_url, dedup_key, status, "
            "attempts, next_attempt_at, last_error, created_at, sent_at, inline_kind, "
            "reply_to) SELECT 'cap-' || n || '@example.com', 'site@example.com', "
            "'decision', %s, repeat('t', 1100), repeat('h', 2000), 'game-' || n, "
            "'<cap-retained-' || n || '@example.com>', '', 'cap-retained:' || n, 'sent', 1, "
            f"{now_sql}, '', {now_sql}, {now_sql}, '', '' "
            "FROM generate_series(1, %s) AS n",
            [RETAINED_SUBJECT, args.retained],
        )
        execute("VACUUM ANALYZE mail_outgoingmail")

    def trim() -> int:
        return mail_services.trim_outbox(batches=args.retained // mail_services.TRIM_BATCH + 1)

    def delete() -> int:
        return mail_services.delete_sent_mails(
            batches=args.retained // mail_services.TRIM_BATCH + 1
        )

    trims, deletes = [], []
    for _ in range(args.runs):
        sent_mails()
        times, trimmed, _ = timed(1, trim)
        trims += times
        times, deleted, queries = timed(1, delete)
        deletes += times
        assert trimmed == deleted == args.retained, (trimmed, deleted)
    for what, times in (("trim (bodies emptied)", trims), ("deletion (rows)", deletes)):
        print(
            f"outbox {what}, {args.retained:,} sent mails: {spread(times)} = "
            f"{args.retained / min(times):,.0f} mails/s"
        )


def time_pages(args: argparse.Namespace) -> None:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from games.models import Game
    from games.views import live_version
    from tournaments.models import Tournament

    heavy = User.objects.get(username=HEAVY)
    active = Game.objects.filter(seats__user=heavy, status__in=["setup", "play"]).count()
    signed_out, signed_in = Client(), Client()
    signed_in.force_login(heavy)

    def page(client: Client, url: str, status: int = 200) -> Callable[[], Any]:
        def get() -> Any:
            response = client.get(url)
            assert response.status_code == status, (url, response.status_code)
            return response

        return get

    # One of the heavy player's games in play, its page and its live poll as the page
    # makes it every GAME_PAGE_POLL_SECONDS (nothing changed: 204).
    game = Game.objects.filter(seats__user=heavy, status="play").order_by("pk").first()
    detail = reverse("games:detail", args=[game.pk])
    decision = signed_in.get(detail).context["decision_key"]
    live = f"{reverse('games:live', args=[game.pk])}?v={live_version(game)}&d={decision}"
    lobby = reverse("games:lobby")
    for name, client, url, status, runs in (
        ("lobby, signed out", signed_out, lobby, 200, args.runs),
        (
            f"lobby, signed in as a player of {active} games in play",
            signed_in,
            lobby,
            200,
            args.runs,
        ),
        (
            f"a player's page (/players/…/), {active} games in play",
            signed_out,
            reverse("ratings:player", args=[HEAVY]),
            200,
            args.runs,
        ),
        ("a game's page, its player signed in", signed_in, detail, 200, args.runs * 4),
        ("the game page's poll, nothing changed (204)", signed_in, live, 204, args.runs * 4),
    ):
        times, response, queries = timed(runs, page(client, url, status))
        print(f"{name}: {spread(times)} ({queries} statements, {len(response.content):,} bytes)")

    cup = Tournament.objects.get(name="Capacity cup")
    entrants = cup.entries.count()
    url = reverse("tournaments:standings_json", args=[cup.pk])
    times, response, queries = timed(args.runs, page(signed_out, url))
    print(
        f"standings.json, {entrants:,} entrants, {cup.rounds.count()} rounds: "
        f"{spread(times)} ({queries} statements, {len(response.content):,} bytes)"
    )


def time_records(args: argparse.Namespace) -> None:
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from games import services
    from games.kinds import kind_named
    from games.models import Game

    rng = random.Random(5)
    for name in ("cap risiko running", "cap risiko over", "cap ww5 running", "cap ww5 over"):
        game = Game.objects.get(name=name)
        url = reverse("games:record", args=[game.pk])
        seat = game.seats.order_by("number").first()
        readers = [("a spectator" if game.is_active else "everyone", Client())]
        if game.is_active:
            player_client = Client()
            player_client.force_login(User.objects.get(pk=seat.user_id))
            readers.append(("a player", player_client))
            superuser = User.objects.get_or_create(username="cap-superuser", is_superuser=True)[0]
            everyone = Client()
            everyone.force_login(superuser)
            readers.append(("a superuser (everything)", everyone))
        moves = game.turn_number
        for reader, client in readers:

            def get(client: Client = client, url: str = url) -> Any:
                response = client.get(url)
                assert response.status_code == 200, response.status_code
                return response

            cold, response, cold_queries = timed(args.runs, get, cache.clear)
            warm, response, warm_queries = timed(args.runs, get)
            print(
                f"record.json, {name} ({moves} moves), {reader}: first request "
                f"{spread(cold)} ({cold_queries} statements); again {spread(warm)} "
                f"({warm_queries} statements); {len(response.content):,} bytes"
            )
    # A move, then the record again, on games of their own (the ones above stay as
    # they are for the next run): each new move adds one to the reader's record.
    for name in ("cap risiko growing", "cap ww5 growing"):
        game = Game.objects.get(name=name)
        kind = kind_named(game.kind)
        url = reverse("games:record", args=[game.pk])
        client = Client()
        moves = game.turn_number

        def move(game: Any = game, kind: Any = kind) -> None:
            game.refresh_from_db()
            if game.kind == "risiko":
                play_risiko(game, kind, rng)
            else:
                services.submit_move(
                    game.pk, game.to_move.user, calm_move(game, rng), game.turn_number
                )

        def get_after(client: Client = client, url: str = url) -> Any:
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            return response

        get_after()  # the record as it stands, once
        times, _, queries = timed(args.runs, get_after, move)
        game.refresh_from_db()
        print(
            f"record.json, {name}, a spectator, the request after each new move "
            f"(moves {moves + 1}–{game.turn_number}): {spread(times)} ({queries} statements)"
        )


def move_writes(moves: int, name: str, what: str) -> None:
    """What a move writes, on the World War 5 game ``name`` (``what`` it is: with
    addresses, each move queues the next player's decision mail, handed to no task): the SQL
    statements, the rows inserted and updated per table (PostgreSQL's counters of this
    database), the WAL records of this database's tables (``pg_walinspect``; commit
    records and other databases' left out), and this process's CPU, per move."""
    from django.db import connection

    from games import services
    from games.models import Game

    execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
    game = Game.objects.get(name=name)
    rng = random.Random(7)

    def counters() -> dict[str, tuple[int, int, int]]:
        execute("SELECT pg_stat_force_next_flush()")  # this backend's counts, once idle
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
            )
            return {name: (ins, upd, hot) for name, ins, upd, hot in cursor.fetchall()}

    before, wal = counters(), scalar("SELECT pg_current_wal_insert_lsn()")
    cpu, move_statements, made = 0.0, 0, 0
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:  # it ended after all (a move that had no other)
            break
        action = calm_move(game, rng, attacks=0)  # the game goes on
        user = game.to_move.user  # read before: the site's request has it from the session
        with Counted() as counted:
            start = time.process_time()
            services.submit_move(game.pk, user, action, game.turn_number)
            cpu += time.process_time() - start
        move_statements += counted.statements
        made += 1
    moves = made
    time.sleep(1.1)  # the counters are flushed at most once a second; the WAL, all of it
    end = scalar("SELECT pg_current_wal_flush_lsn()")
    database = scalar("SELECT oid FROM pg_database WHERE datname = current_database()")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), coalesce(sum(record_length), 0), coalesce(sum(fpi_length), 0) "
            "FROM pg_get_wal_records_info(%s, %s) WHERE block_ref LIKE %s",
            [wal, end, f"%/{database}/%"],
        )
        records, wal_bytes, full_pages = cursor.fetchone()
    after = counters()
    written = []
    for name, (ins, upd, hot) in sorted(after.items()):
        was = before.get(name, (0, 0, 0))
        if (ins, upd) != was[:2]:
            written.append(
                f"{name} {(ins - was[0]) / moves:.2f} inserted, {(upd - was[1]) / moves:.2f} "
                f"updated ({(hot - was[2]) / moves:.2f} in place)"
            )
    print(
        f"a move (services.submit_move, World War 5, {what}), {moves} moves: "
        f"{move_statements / moves:.1f} statements, {cpu / moves * 1000:.2f} ms of "
        f"this process's CPU, {records / moves:.1f} WAL records of {wal_bytes / moves / 1024:.1f}"
        f" KiB ({full_pages / moves / 1024:.1f} KiB of them page images) a move; rows a "
        f"move: {'; '.join(written)}"
    )


def sizes() -> None:
    """Bytes on disk per row (the table with its indexes and TOAST)."""
    from django.db import connection

    for table, what in (
        ("games_game", "game"),
        ("games_seat", "seat"),
        ("games_move", "move"),
        ("mail_outgoingmail", "outbox mail"),
        ("auth_user", "player (user)"),
        ("accounts_profile", "player (profile)"),
    ):
        rows = scalar(f"SELECT count(*) FROM {table}")
        total = scalar("SELECT pg_total_relation_size(%s)", [table])
        heap = scalar("SELECT pg_relation_size(%s)", [table])
        print(
            f"size of {table}: {rows:,} rows, {total / 2**20:,.1f} MiB with indexes "
            f"({heap / 2**20:,.1f} MiB heap) = {total / max(rows, 1):,.0f} bytes per {what}"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT kind, count(*), avg(pg_column_size(m.*)) FROM mail_outgoingmail m "
            "GROUP BY kind ORDER BY count(*) DESC"
        )
        kinds = [f"{kind} {n:,} of {size:,.0f} bytes" for kind, n, size in cursor.fetchall()]
    print(f"outbox rows by kind, each its row's own bytes on average: {'; '.join(kinds)}")
    database = scalar("SELECT pg_database_size(current_database())")
    print(f"size of the database: {database / 2**30:.2f} GiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=200_000)
    parser.add_argument("--due", type=int, default=10_000)
    parser.add_argument("--reminders", type=int, default=1_000)
    parser.add_argument("--stalled-bots", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=20, help="moves of each game in play")
    parser.add_argument("--heavy", type=int, default=100, help="games of the heavy player")
    parser.add_argument("--entrants", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--retained", type=int, default=25_000, help="sent mails the trim and deletion take"
    )
    parser.add_argument("--reuse", action="store_true", help="keep what an earlier run loaded")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"what to time, of {', '.join(PARTS)}"
    )
    args = parser.parse_args()

    create_database(DATABASE_URL)
    setup_django()
    from django.core.cache import cache
    from django.test.utils import setup_test_environment

    handed = Handed()
    handed.patch()
    cache.clear()
    load(args)
    setup_test_environment()  # the test client's host is allowed
    parts = args.parts.split(",")
    if "sweeps" in parts:
        time_sweeps(args, handed)
    if "pages" in parts:
        time_pages(args)
    if "records" in parts:
        time_records(args)
    if "writes" in parts:
        move_writes(args.runs * 20, "cap ww5 addressed", "its decision mail queued")
        move_writes(args.runs * 20, "cap ww5 unaddressed", "its players without an address")
    if "sizes" in parts:
        sizes()


if __name__ == "__main__":
    main()
