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

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games import selectors, wording
from games.core import fairdice
from games.kinds import EVERYONE, SPECTATOR, Event, Position, Viewer, kind_of
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
    formats. Everyone's record of a finished game is the whole record."""
    kind = kind_of(game)
    states = selectors.replay(game)
    seats = list(game.seats.select_related("user__profile").order_by("number"))
    names = wording.player_names(seats)
    replaced = selectors.replacements(game.events.all(), {s.pk: s for s in seats})
    players = _players(game, seats)
    moves = []
    sealed = _open_among(game, [row for row, _ in states[1:] if row is not None])
    for row, after in states[1:]:
        assert row is not None
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
            "position": kind.view(kind.dump(after), viewer),
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
        "initial_position": kind.view(kind.dump(states[0][1]), viewer),
        "moves": moves,
        "status": game.status,
        "winner": game.winner.player_name if game.winner else None,
        "corrected": _correction(game),
        "dice": dice_record(game, seats, viewer),
    }
    if kind.commitment_prefix:
        record["sealed_prefix"] = kind.commitment_prefix
    if viewer.everything and not game.is_active:
        own = kind.export_record(record)
        if own is not None:
            record["record"] = own  # the kind's own format, once everything is public
    return record


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
