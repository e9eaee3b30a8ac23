"""What a reader may see of a game: the one door from a game's stored position and
moves to the pages, the replay, the record, the mails and their pictures, the answers to
replies, the digests and the admin.

Everything a reader shows of a game's position, or of the actions, dice and events of its
moves, comes through here, for a ``Viewer``: a player of the game sees what their kind's
``view`` and ``events_for`` give that player, a spectator what they give no one in
particular; once the game is over (or to a superuser) everything is public. Only the
services, which write the game, and the kinds themselves read the stored values directly
(a test keeps it so).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder

from games import selectors, wording
from games.core import fairdice
from games.kinds import EVERYONE, SPECTATOR, Event, GameKind, Position, Viewer, kind_of
from games.models import Game, GameEvent, Move, Seat

# A game in one of these states hides nothing any more.
ENDED = (Game.Status.OVER, Game.Status.ABANDONED, Game.Status.CANCELLED)


def viewer_of(game: Game, user: AbstractBaseUser | None) -> Viewer:
    """Who ``user`` is to this game: everyone once it is over (and a superuser always),
    the player of their seat, or a spectator (signed out, not seated, or an organiser
    who does not play in it)."""
    if game.status in ENDED or (user is not None and getattr(user, "is_superuser", False)):
        return EVERYONE
    if user is None or not user.is_authenticated:
        return SPECTATOR
    seat = next((s for s in seats_in(game) if s.user_id == user.pk and not s.bot), None)
    return seat_viewer(game, seat) if seat is not None else SPECTATOR


def seat_viewer(game: Game, seat: Seat) -> Viewer:
    """The viewer a seat's player is, for the mails and answers sent to them."""
    if game.status in ENDED:
        return EVERYONE
    return Viewer(player=seat.player_name) if seat.player_name else SPECTATOR


def seats_in(game: Game) -> list[Seat]:
    cached: list[Seat] | None = game.__dict__.get("_seat_list")
    return cached if cached is not None else list(game.seats.all())


def position(game: Game, viewer: Viewer) -> Position | None:
    """The game's position as ``viewer`` may see it; None before the start."""
    if game.position is None:
        return None
    return kind_of(game).view(game.position, viewer)


def state(game: Game, viewer: Viewer) -> Any:
    """The kind's state of the position ``viewer`` sees (None before the start), for the
    kind's own words and pictures."""
    seen = position(game, viewer)
    return None if seen is None else kind_of(game).load(seen)


def shown(game: Game, state: Any, viewer: Viewer) -> Any:
    """A state of the game (one the services hold, such as the state a move led to) as
    ``viewer`` may see it."""
    kind = kind_of(game)
    if kind.hides_nothing:
        return state
    return kind.load(kind.view(kind.dump(state), viewer))


@dataclass(frozen=True)
class SeenMove:
    """A move as one viewer may see it."""

    number: int
    seat_id: int
    player: str
    action: str
    dice: list[int]
    events: list[Event]
    source: str
    source_name: str
    created_at: datetime
    # A sealed action's commitment (K38): its decision and H, public from the start, and
    # its nonce r, "" to a reader who may not see it yet (all three "" for other moves).
    decision: str = ""
    commitment: str = ""
    nonce: str = ""
    # The game's counters of the numbers the move drew (verifiable dice): the first (None
    # when it drew none) and how many; their ranges where the reader sees the values.
    dice_from: int | None = None
    dice_count: int = 0
    dice_ranges: list[list[int]] | None = None

    @property
    def dice_counters(self) -> str:
        """ "#118–#123", "#7" or "" for a move that drew nothing."""
        if self.dice_from is None or not self.dice_count:
            return ""
        last = self.dice_from + self.dice_count - 1
        return f"#{self.dice_from}" if last == self.dice_from else f"#{self.dice_from}–#{last}"

    def get_source_display(self) -> str:  # as the model's, for templates
        return self.source_name


# ``move``'s open decision when its caller has not read it.
_UNREAD = object()


def move(
    game: Game, row: Move, player: str, viewer: Viewer, open_decision: Any = _UNREAD
) -> SeenMove:
    """One of the game's moves, made by ``player`` (the kind's name for the seat), as
    ``viewer`` may see it. A sealed action (one with a commitment) shows its action and
    nonce to its player alone while its decision is open (``open_decision``: the game's,
    from ``selectors.open_sealed``, read here when not given), and to everyone once the
    decision is revealed; its commitment to everyone."""
    kind = kind_of(game)
    reader, nonce = viewer, ""
    if row.commitment:
        if open_decision is _UNREAD:
            open_decision = selectors.open_sealed(game)
        if row.decision != open_decision:
            reader = EVERYONE  # revealed: the whole action, as the reveal told everyone
        if reader.everything or player == viewer.player:
            nonce = row.nonce
    dice = kind.dice_for(list(row.dice), player, viewer, row.events)
    return SeenMove(
        number=row.number,
        seat_id=row.seat_id,
        player=player,
        action=kind.action_for(row.action, player, reader, row.events),
        dice=dice,
        events=kind.events_for(row.events, viewer),
        source=row.source,
        source_name=row.get_source_display(),
        created_at=row.created_at,
        decision=row.decision,
        commitment=row.commitment,
        nonce=nonce,
        dice_from=row.dice_from,
        dice_count=len(row.dice),
        dice_ranges=list(row.dice_ranges) if dice == list(row.dice) else None,
    )


def dice_said(words: str, shown: SeenMove) -> str:
    """A move's dice in words with their counters in the game's stream, so that a gap
    or a reorder shows at once: "rolls 6, 3 (dice #118–#119)"; nothing where the reader
    sees no dice."""
    counters = shown.dice_counters
    return f"{words} (dice {counters})" if words and counters else words


def _players(game: Game, seats: list[Seat] | None) -> dict[int, str]:
    """The kind's name of the player of each seat, by seat id."""
    return {s.pk: s.player_name for s in (seats if seats is not None else seats_in(game))}


def _seen_row(game: Game, row: Move, viewer: Viewer, seats: list[Seat] | None) -> SeenMove:
    """One move row, made by its seat's player, as ``viewer`` may see it."""
    return move(game, row, _players(game, seats)[row.seat_id], viewer)


def moves(game: Game, viewer: Viewer, seats: list[Seat] | None = None) -> list[SeenMove]:
    """The game's moves in order, as ``viewer`` may see them."""
    players = _players(game, seats)
    rows = list(game.moves.order_by("number"))
    sealed = _open_among(game, rows)
    return [move(game, row, players[row.seat_id], viewer, sealed) for row in rows]


def _open_among(game: Game, rows: list[Move]) -> str | None:
    """``selectors.open_sealed`` from the game's moves already read, in order."""
    if game.position is None or not kind_of(game).sealed_pending(game.position):
        return None
    return next((row.decision for row in reversed(rows) if row.commitment), None)


def last_move(game: Game, viewer: Viewer, seats: list[Seat] | None = None) -> SeenMove | None:
    row = game.moves.order_by("-number").first()
    return None if row is None else _seen_row(game, row, viewer, seats)


def move_numbered(
    game: Game, number: int, viewer: Viewer, seats: list[Seat] | None = None
) -> SeenMove | None:
    row = game.moves.filter(number=number).first()
    return None if row is None else _seen_row(game, row, viewer, seats)


def replay_step(
    game: Game, viewer: Viewer, step: int, seats: list[Seat] | None = None
) -> tuple[int, SeenMove | None, Any]:
    """Step ``step`` of the game's replay (0: the start, then one per move; clamped to
    the last), as ``viewer`` may see it: (the last step's number, the move that led
    there or None, the state)."""
    states = selectors.replay(game)
    last = len(states) - 1
    row, full = states[min(max(step, 0), last)]
    state = shown(game, full, viewer)
    return last, None if row is None else _seen_row(game, row, viewer, seats), state


def game_record(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The game's record (R30) as ``viewer`` may see it: options, players, start rolls,
    every move with its dice and events and the position after it, in the contract's
    formats. Everyone's record of a finished game is the whole record.

    This replays the whole game; ``record_json`` gives the same record as the JSON text
    the record's download sends, from the positions kept in the cache."""
    kind = kind_of(game)
    states = selectors.replay(game)
    positions = [kind.view(kind.dump(state), viewer) for _, state in states]
    rows = [row for row, _ in states[1:] if row is not None]
    return _record(game, viewer, rows, positions, _seats_for_record(game), kind.export_record)


def _seats_for_record(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user__profile").order_by("number"))


def _record(
    game: Game,
    viewer: Viewer,
    rows: list[Move],
    positions: list[Any],
    seats: list[Seat],
    export: Callable[[dict[str, Any]], Any],
) -> dict[str, Any]:
    """The record of ``game_record`` from the game's move rows in order and the
    positions ``viewer`` sees (the start's, then one after each move); ``export`` makes
    the kind's own record of it (where it has one: None otherwise)."""
    kind = kind_of(game)
    names = wording.player_names(seats)
    replaced = selectors.replacements(game.events.all(), {s.pk: s for s in seats})
    players = _players(game, seats)
    moves = []
    sealed = _open_among(game, rows)
    for row, position in zip(rows, positions[1:], strict=True):
        shown = move(game, row, players[row.seat_id], viewer, sealed)
        entry = {
            "number": shown.number,
            "player": shown.player,
            "by": wording.names_at(names, replaced, shown.number).get(shown.player, ""),
            "action": shown.action,
            "dice": shown.dice,
            "events": shown.events,
            "source": shown.source,
            "at": shown.created_at.isoformat(),
            "position": position,
        }
        if shown.commitment:  # a sealed action (K37): r only to whom it is shown
            entry["decision"] = shown.decision
            entry["commitment"] = shown.commitment
            if shown.nonce:
                entry["nonce"] = shown.nonce
                entry["sealed_action"] = kind.sealed_text(shown.action)
        entry["dice_from"] = shown.dice_from
        entry["dice_ranges"] = shown.dice_ranges if shown.dice_ranges is not None else []
        moves.append(entry)
    record = {
        "game": game.pk,
        "name": str(game),
        "kind": game.kind,
        "board": game.options.get("board"),  # World War 5's; null for a kind without
        "options": {k: v for k, v in game.options.items() if k != "board"},
        "seats": [
            {
                "seat": s.number,
                "player": s.player_name,
                "home": s.home,
                "name": s.display_name,
                "rank": s.rank,
            }
            for s in seats
        ],
        "start": kind.start_for(game.start_record, viewer),
        "initial_position": positions[0],
        "moves": moves,
        "status": game.status,
        "winner": game.winner.player_name if game.winner else None,
        "corrected": _correction(game),
        "dice": dice_record(game, seats, viewer),
    }
    if kind.commitment_prefix:
        record["sealed_prefix"] = kind.commitment_prefix
    if viewer.everything and not game.is_active:
        own = export(record)
        if own is not None:
            record["record"] = own  # the kind's own format, once everything is public
    return record


# --- the record's text, from the cache ---------------------------------------------------
#
# A record is mostly positions: one after each move, as its reader sees it (a RisiKo game
# of 200 moves: some 6 KB each, 1.2 MB in all), and building them means replaying the
# game from its start, viewing each position and writing it out as JSON. Yet the position
# after a move never changes once the move is made, and what a reader sees of it depends
# on the position and on who reads (``Viewer``) alone. So each position's JSON text is
# kept in the cache, per game and reader, with the whole position after the last of them:
# the next request writes out only the moves made since (replayed from that position), and
# a finished game's record costs the reading of its rows. Everything else in the record
# (names, ranks, corrections, what a sealed move shows, the dice) is read afresh each time.
# The kind's own record of a finished game (``export_record``), made from its log alone,
# is kept beside them. An entry is used only for the same move rows, in order (their ids):
# a game whose log differs is built again.

# Raised when what the record's cache keeps changes, or how a kind writes or views its
# positions: a record kept before would be sent as it was for up to
# GAME_RECORD_CACHE_SECONDS.
RECORD_CACHE_VERSION = 1


@dataclass
class _Kept:
    """What the cache keeps of one reader's record of one game."""

    # The ids of the move rows the positions follow, in order.
    ids: list[int]
    # The JSON text of each position the reader sees (the start's, then one after each
    # move), indented for its place in the record.
    positions: list[str]
    # The whole position after the last move of ``ids`` (not the reader's view): where the
    # next moves are replayed from.
    last: Position
    # A finished game's own record (``export_record``) as JSON text indented for its
    # place; "" for a kind without one; None until made.
    export: str | None = None


def record_json(game: Game, viewer: Viewer) -> str:
    """``game_record(game, viewer)`` as JSON text (indented by 2, as the record's
    download sends it), with the positions kept in the cache: the same text."""
    kind = kind_of(game)
    rows = list(game.moves.order_by("number"))
    seats = _seats_for_record(game)
    key = _record_key(game, kind, viewer)
    kept, changed = _kept_positions(game, kind, viewer, rows, seats, cache.get(key))
    mark = secrets.token_hex(16)  # no text a player wrote can hold it
    parts = {f"{n}": text for n, text in enumerate(kept.positions)}

    def export(record: dict[str, Any]) -> Any:
        nonlocal changed
        if kept.export is None:  # made once, from the record with its positions
            positions = [json.loads(text) for text in kept.positions]
            whole = {
                **record,
                "initial_position": positions[0],
                "moves": [
                    {**entry, "position": position}
                    for entry, position in zip(record["moves"], positions[1:], strict=True)
                ],
            }
            own = kind.export_record(whole)
            kept.export = "" if own is None else _json_at(own, 1)
            changed = True
        if not kept.export:
            return None
        parts["export"] = kept.export
        return f"{mark}:export"

    marks = [f"{mark}:{n}" for n in range(len(kept.positions))]
    record = _record(game, viewer, rows, marks, seats, export)
    if changed:
        cache.set(key, zlib.compress(pickle.dumps(kept), 1), settings.GAME_RECORD_CACHE_SECONDS)
    text = json.dumps(record, cls=DjangoJSONEncoder, indent=2)
    return re.sub(f'"{mark}:(\\w+)"', lambda found: parts[found[1]], text)


def _record_key(game: Game, kind: GameKind, viewer: Viewer) -> str:
    """The cache key of ``viewer``'s record of ``game``: the game (its id and when it was
    made: another database's game of the same id is another game), its kind and who reads."""
    if viewer.everything:
        reader = "everyone"
    else:
        reader = "spectator" if viewer.player is None else f"player:{viewer.player}"
    named = "|".join(
        (
            str(RECORD_CACHE_VERSION),
            game.created_at.isoformat(),
            game.kind,
            f"{type(kind).__module__}.{type(kind).__qualname__}",
            reader,
        )
    )
    return f"game-record:{game.pk}:{hashlib.sha256(named.encode()).hexdigest()[:32]}"


def _kept_positions(
    game: Game, kind: GameKind, viewer: Viewer, rows: list[Move], seats: list[Seat], cached: Any
) -> tuple[_Kept, bool]:
    """The positions ``viewer`` sees after each of ``rows``, as kept in the cache
    (``cached``) and made for the moves since; and whether anything was made."""
    kept: _Kept | None = None
    if isinstance(cached, bytes):
        try:
            kept = pickle.loads(zlib.decompress(cached))
        except Exception:  # a cache entry is an aid: one that does not read is a miss
            kept = None
    ids = [row.pk for row in rows]
    if not isinstance(kept, _Kept) or kept.ids != ids[: len(kept.ids)]:
        start = kind.start_again(
            [(s.player_name, s.home) for s in seats], game.options, game.start_record
        )
        whole = kind.dump(start)
        kept = _Kept(ids=[], positions=[_json_at(kind.view(whole, viewer), 1)], last=whole)
    if len(kept.ids) == len(ids):
        return kept, False
    players = {seat.pk: seat.player_name for seat in seats}
    state = kind.load(kept.last)
    for row in rows[len(kept.ids) :]:
        state = kind.replay(state, players[row.seat_id], row.action, row.dice)
        whole = kind.dump(state)
        kept.positions.append(_json_at(kind.view(whole, viewer), 3))
        kept.ids.append(row.pk)
        kept.last = whole
    kept.export = None  # made again for the longer game, once it is over
    return kept, True


def _json_at(value: Any, depth: int) -> str:
    """``value`` as the record's JSON text writes it ``depth`` levels deep (indented by
    2): its own lines indented by as much more."""
    return json.dumps(value, cls=DjangoJSONEncoder, indent=2).replace("\n", "\n" + "  " * depth)


def dice_record(game: Game, seats: list[Seat], viewer: Viewer) -> dict[str, Any] | None:
    """The game's verifiable dice as ``viewer`` may see them: the commitment, the players'
    words and their hash once fixed, the start's numbers (their values to whom sees the
    start), the counter, and the seed once the game is over; None for a game made
    before seeds."""
    if not game.dice_commitment:
        return None
    fixed = bool(game.dice_players_hash)
    start = [list(draw) for draw in game.dice_start]
    return {
        "version": fairdice.VERSION,
        "game": str(game.pk),
        "commitment": game.dice_commitment,
        "words": [{"seat": s.number, "words": s.dice_words} for s in seats] if fixed else [],
        "players_hash": game.dice_players_hash or None,
        "start": {
            "from": 1 if start else None,
            "ranges": [draw[:2] for draw in start],
            "values": [draw[2] for draw in start] if _sees_start(game, viewer) else [],
        },
        "drawn": game.dice_drawn,
        "seed": game.dice_revealed or None,
    }


def _sees_start(game: Game, viewer: Viewer) -> bool:
    """Whether the reader may see the numbers of the game's start (its kind's rule for
    its start record: World War 5's rolls are public, RisiKo's deal is not)."""
    return viewer.everything or kind_of(game).start_for(game.start_record, viewer) == list(
        game.start_record
    )


def _correction(game: Game) -> dict[str, Any] | None:
    """An organiser's last correction of the result (the seats' ranks are the corrected
    ones): when, why, and the ranks by seat number before and after; None if none."""
    if game.result_corrected_at is None:
        return None
    event = game.events.filter(kind=GameEvent.Kind.CORRECT).order_by("-created_at").first()
    if event is None:
        return None
    return {
        "at": event.created_at.isoformat(),
        "reason": event.reason,
        "before": event.data.get("before", {}),
        "after": event.data.get("after", {}),
    }
