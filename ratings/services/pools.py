"""Rating games into their pools, and replaying a pool's journal.

A game is rated when it has a result (not abandoned) and belongs to a pool:

- its kind's global pool (``game.kind``): every game of the kind whose seats are all
  people (no built-in bot seat); each kind has its own, so that a result of one game
  never moves a rating of another;
- its ladder season (of the ladder's kind, the kind of its games): a ladder's game,
  keyed by ladder entry, when none of its entrants is a bot, or the ladder rates its bot
  entrants (``Ladder.rates_bots``, for a house or test ladder). A ladder game with a bot
  entrant never enters the global pool.

A pool is named by its season, or, for a global pool (season None), by its kind.

Everything here runs inside the caller's transaction (the game's finishing one, or an
organiser's correction).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Q

from games import services as games
from games.kinds import DEFAULT_KIND
from games.models import Game
from ratings.core import journal, model
from ratings.models import JournalEntry, Ladder, LadderGame, Rating, Season
from ww5site import rows

MODEL_NAME = "openskill.PlackettLuce"


def settings_record(settings: model.Settings = model.DEFAULT) -> dict[str, object]:
    return {"model": MODEL_NAME, **settings.as_dict()}


def settings_of(record: dict[str, object]) -> model.Settings:
    return model.Settings.from_dict({k: v for k, v in record.items() if k != "model"})


def _key_field(season: Season | None) -> str:
    return "user_id" if season is None else "player_id"


@dataclass(frozen=True)
class Pool:
    """A pool of ratings: a kind's global pool (``season`` None), or a ladder season
    (whose kind is its ladder's)."""

    kind: str
    season: Season | None = None

    @classmethod
    def of(cls, season: Season | None, kind: str = DEFAULT_KIND) -> Pool:
        """The season's pool, or (``season`` None) the global pool of ``kind``."""
        return cls(kind) if season is None else cls(season.ladder.kind, season)

    @property
    def key_field(self) -> str:
        return _key_field(self.season)

    @property
    def rows(self) -> Q:
        """The pool's ratings and journal rows."""
        if self.season is None:
            return Q(season__isnull=True, kind=self.kind)
        return Q(season=self.season)

    @property
    def rows_sql(self) -> tuple[str, list[object]]:
        """``rows`` as a hand-written query's condition on either table, with its values."""
        if self.season is None:
            return "kind = %s AND season_id IS NULL", [self.kind]
        return "season_id = %s", [self.season.pk]


def rate_game(
    game: Game, ranks: dict[int, int | None], when: datetime, ladder_game: LadderGame | None
) -> int:
    """Rate a finished game (``ranks``: by seat id) in each pool it belongs to: its
    kind's, and its ladder season's when it is ``ladder_game``'s game
    (``ladder_game_of``). Returns how many journal rows were written."""
    if any(rank is None for rank in ranks.values()):
        return 0
    seats = games.seats_of(game)  # in seat order; read with the game's lock, as a rule
    written = 0
    if len(seats) >= 2 and all(s.user_id is not None and not s.bot for s in seats):
        players = [(s.user_id, int(ranks[s.pk] or 0), s.number) for s in seats]
        written += _rate(Pool(game.kind), game, players, when)
    if ladder_game is not None:
        by_seat = dict(ladder_game.seats.values_list("seat_id", "player_id"))
        has_bot = any(s.bot for s in seats)
        if len(by_seat) == len(seats) and (not has_bot or ladder_game.season.ladder.rates_bots):
            players = [(by_seat[s.pk], int(ranks[s.pk] or 0), s.number) for s in seats]
            written += _rate(Pool.of(ladder_game.season), game, players, when)
    return written


_LADDER_GAME = rows.Columns(LadderGame, "g")
_SEASON = rows.Columns(Season, "s")
_LADDER = rows.Columns(Ladder, "l")


def ladder_game_of(game: Game) -> LadderGame | None:
    """The game's ladder game with its season and the season's ladder (as
    ``select_related("season__ladder")`` gives them), or None for a game of no ladder.
    In SQL: every game's end asks it, and the ORM's query costs more to build than to
    run."""
    sql = (
        f"SELECT {_LADDER_GAME.sql}, {_SEASON.sql}, {_LADDER.sql} FROM {_LADDER_GAME.table} g "
        f"JOIN {_SEASON.table} s ON {_SEASON.column()} = {_LADDER_GAME.column('season')} "
        f"JOIN {_LADDER.table} l ON {_LADDER.column()} = {_SEASON.column('ladder')} "
        f"WHERE {_LADDER_GAME.column('game')} = %s"
    )
    found = rows.first(sql, [game.pk], _LADDER_GAME, _SEASON, _LADDER)
    if found is None:
        return None
    ladder_game, season, ladder = found
    rows.cache_related(season, "ladder", ladder)
    rows.cache_related(ladder_game, "season", season)
    return ladder_game


_RATING = rows.Columns(Rating, "")


def _lock_ratings(
    pool: Pool, keys: Sequence[int], rated: Game | None = None
) -> tuple[dict[int, Rating], bool]:
    """The players' rating rows in the pool, made when missing, locked in key order;
    and whether the pool's journal holds the game ``rated`` already.

    The lock serialises two games of one player finishing at once: each is rated from
    the rating the other left, and the journal's order is the order they were rated.
    In SQL: every rated game's end runs it, and the ORM's statements cost more to build
    than to run."""
    field = pool.key_field
    rows.insert_all(
        [
            Rating(kind=pool.kind, season=pool.season, mu=0.0, sigma=0.0, **{field: key})
            for key in keys
        ],
        skip_taken=True,  # a row another game made meanwhile
    )
    db = connections[DEFAULT_DB_ALIAS]
    quote = db.ops.quote_name
    key_column = quote(Rating._meta.get_field(field.removesuffix("_id")).column)  # type: ignore[union-attr]
    where, params = pool.rows_sql
    seen, seen_params = "0", []
    if rated is not None:
        journal_table = quote(JournalEntry._meta.db_table)
        seen = f"EXISTS (SELECT 1 FROM {journal_table} WHERE {where} AND game_id = %s)"
        seen_params = [*params, rated.pk]
    lock = " FOR UPDATE" if db.features.has_select_for_update else ""
    sql = (
        f"SELECT {_RATING.sql}, {seen} FROM {_RATING.table} WHERE {where} "
        f"AND {key_column} IN ({', '.join(['%s'] * len(keys))}) ORDER BY {key_column}{lock}"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [*seen_params, *params, *keys])
        found = cursor.fetchall()
    locked = {}
    for row in found:
        rating = _RATING.load(row[:-1])
        assert rating is not None
        locked[getattr(rating, field)] = rating
    return locked, bool(found and found[0][-1])


def _start(row: Rating) -> journal.PlayerState | None:
    """A rating carried into the season (set before the player's first game), idle
    since the player's last rated game."""
    if row.start_mu is None or row.start_sigma is None:
        return None
    return journal.PlayerState(model.Rating(row.start_mu, row.start_sigma), 0, row.start_since)


def _state(row: Rating) -> journal.PlayerState | None:
    if row.games == 0:
        return None
    return journal.PlayerState(model.Rating(row.mu, row.sigma), row.games, row.last_played)


def state_of(row: Rating) -> journal.PlayerState | None:
    """The player's state in the pool: after their last game in it, else the rating
    they carried into it; None for a new player."""
    return _state(row) or _start(row)


def _rate(pool: Pool, game: Game, players: list[tuple[int, int, int]], when: datetime) -> int:
    locked, rated = _lock_ratings(pool, sorted(key for key, _, _ in players), game)
    if rated:
        return 0  # rated already: a finish is told once, but never rate twice
    states = {key: s for key, row in locked.items() if (s := _state(row)) is not None}
    starts = {key: s for key, row in locked.items() if (s := _start(row)) is not None}
    result = journal.GameResult(game.pk, when, tuple(players))
    made, after = journal.rate_game(states, result, model.DEFAULT, starts)
    record = settings_record()
    field = pool.key_field
    rows.insert_all(  # as bulk_create writes them
        [
            JournalEntry(
                kind=pool.kind,
                season=pool.season,
                game=game,
                seat=row.seat,
                rank=row.rank,
                mu_before=row.before.mu,
                sigma_before=row.before.sigma,
                mu_after=row.after.mu,
                sigma_after=row.after.sigma,
                played_at=when,
                model=record,
                **{field: row.key},
            )
            for row in made
        ]
    )
    for key, state in after.items():
        _store(locked[int(key)], state)  # type: ignore[call-overload]
    return len(made)


def _store(row: Rating, state: journal.PlayerState) -> None:
    row.mu, row.sigma = state.rating.mu, state.rating.sigma
    row.games, row.last_played = state.games, state.last_played
    rows.update(row, ["mu", "sigma", "games", "last_played"])  # as save(update_fields=…)


# --- the journal as results, and replays ----------------------------------------------


def journal_rows(season: Season | None, kind: str = DEFAULT_KIND) -> list[JournalEntry]:
    """The pool's journal (the season's, or the global pool's of ``kind``) in the order
    it was written."""
    return list(JournalEntry.objects.filter(Pool.of(season, kind).rows).order_by("pk"))


def results_of(entries: Sequence[JournalEntry], season: Season | None) -> list[journal.GameResult]:
    """The pool's games in the order they were rated, from its journal."""
    field = _key_field(season)
    games: dict[int, list[JournalEntry]] = {}
    for entry in entries:
        games.setdefault(entry.game_id, []).append(entry)
    return [
        journal.GameResult(
            game_id,
            rows[0].played_at,
            tuple((getattr(r, field), r.rank, r.seat) for r in rows),
        )
        for game_id, rows in games.items()
    ]


def starts_of(season: Season | None) -> dict[Hashable, journal.PlayerState]:
    """The ratings players carried into the season (none in the global pool)."""
    if season is None:
        return {}
    return {
        row.player_id: start
        for row in Rating.objects.filter(season=season, start_sigma__isnull=False)
        if (start := _start(row)) is not None
    }


def recompute(
    season: Season | None, kind: str = DEFAULT_KIND
) -> dict[Hashable, journal.PlayerState]:
    """Every rating of the pool (the season's, or the global pool's of ``kind``)
    recomputed from its journal's games and ranks, from the start: what the incremental
    updates must equal."""
    entries = journal_rows(season, kind)
    _, states = journal.replay(results_of(entries, season), model.DEFAULT, starts_of(season))
    return states


def replay_after(
    season: Season | None, game_id: int, ranks: dict[int, int], kind: str = DEFAULT_KIND
) -> int:
    """A game's result was corrected (``ranks`` by key): rate it again with the new
    ranks, and every game of the pool (the season's, or the global pool's of ``kind``)
    rated after it. Returns how many rows changed.

    Every rating row of the pool is locked first (in the order the rating of a game
    locks its players'), so no game is rated between the journal read here and the
    ratings written back: one would be left out of the replay and its update lost."""
    pool = Pool.of(season, kind)
    field = pool.key_field
    list(Rating.objects.select_for_update().filter(pool.rows).order_by(field).values("pk"))
    entries = journal_rows(season, kind)
    # Whole games, in the order their first rows were written: two games of different
    # players rated at the same moment may interleave their rows.
    order = list(dict.fromkeys(e.game_id for e in entries))
    if game_id not in order:
        return 0
    replayed = set(order[order.index(game_id) :])
    earlier = [e for e in entries if e.game_id not in replayed]
    later = [e for e in entries if e.game_id in replayed]
    results = results_of(later, season)
    results[0] = journal.with_rank(results[0], ranks)
    before = _states_from(earlier, season)
    made, states = journal.replay(results, model.DEFAULT, starts_of(season), before)
    changed = 0
    by_game_key = {(e.game_id, getattr(e, field)): e for e in later}
    for row in made:
        entry = by_game_key[row.game, row.key]
        new = (row.rank, row.before.mu, row.before.sigma, row.after.mu, row.after.sigma)
        old = (entry.rank, entry.mu_before, entry.sigma_before, entry.mu_after, entry.sigma_after)
        if new != old:
            entry.rank = row.rank
            entry.mu_before, entry.sigma_before = row.before.mu, row.before.sigma
            entry.mu_after, entry.sigma_after = row.after.mu, row.after.sigma
            entry.corrected = entry.corrected or row.game == game_id
            entry.save(
                update_fields=[
                    "rank",
                    "mu_before",
                    "sigma_before",
                    "mu_after",
                    "sigma_after",
                    "corrected",
                ]
            )
            changed += 1
    keys = sorted({int(k) for k in states})  # type: ignore[call-overload]
    locked, _ = _lock_ratings(pool, keys)
    for key in keys:
        _store(locked[key], states[key])
    return changed


def _states_from(
    entries: Sequence[JournalEntry], season: Season | None
) -> dict[Hashable, journal.PlayerState]:
    field = _key_field(season)
    states: dict[Hashable, journal.PlayerState] = {}
    for e in entries:
        key = getattr(e, field)
        old = states.get(key)
        states[key] = journal.PlayerState(
            model.Rating(e.mu_after, e.sigma_after), (old.games if old else 0) + 1, e.played_at
        )
    return states


def correct(game: Game, ranks_by_seat: dict[int, int]) -> int:
    """An organiser corrected the game's result (ranks by game seat id): every pool it
    was rated in (its kind's global pool, its ladder season) is replayed from it on."""
    changed = 0
    numbers = dict(game.seats.values_list("pk", "number"))
    by_number = {numbers[seat]: rank for seat, rank in ranks_by_seat.items()}
    pools = JournalEntry.objects.filter(game=game).values_list("season_id", "kind").distinct()
    for season_id, kind in list(pools):
        season = None if season_id is None else Season.objects.get(pk=season_id)
        pool = Pool.of(season, kind)
        ranks = {
            getattr(e, pool.key_field): by_number[e.seat]
            for e in JournalEntry.objects.filter(pool.rows, game=game)
        }
        changed += replay_after(season, game.pk, ranks, kind)
    return changed
