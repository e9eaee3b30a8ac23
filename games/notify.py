"""Mails about games: "your decision" prompts and the final result.

Each mail is queued in the outbox inside the transaction of the change that causes it
(see ``mail.services.queue_mail``), so a decision and its mails commit together, or
not at all. A decision prompt carries a key of its own decision, so no one ever gets
two prompts for one decision.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from games import describe, links
from games.engine import BOARDS, State
from games.models import Game, Move, Seat


def render_mail(name: str, context: dict[str, Any], user: Any) -> tuple[str, str, str]:
    """Subject, text and HTML of ``emails/<name>-*``, with times in the player's zone."""
    profile = getattr(user, "profile", None)
    zone = zoneinfo.ZoneInfo(profile.time_zone if profile is not None else "UTC")
    with timezone.override(zone):
        context = {**context, "zone": zone.key}
        return (
            render_to_string(f"emails/{name}-subject.txt", context).strip(),
            render_to_string(f"emails/{name}-body.txt", context),
            render_to_string(f"emails/{name}-body.html", context),
        )


def names_of(game: Game) -> dict[str, str]:
    return {s.player_name: f"{s.display_name} ({s.player_name})" for s in game.seats.all()}


def board_lines(game: Game, state: State, names: dict[str, str]) -> list[str]:
    """The position as text, continent by continent."""
    board = BOARDS[game.board]
    lines = []
    for c, members in enumerate(board.continent_territories):
        cells = []
        for t in members:
            piece = state.pieces[t]
            holder = "empty"
            if piece is not None:
                size = ("small", "medium", "large")[piece[1] - 1]
                holder = f"{names[state.players[piece[0]].name]}'s {size}"
            cells.append(f"{board.territory_names[t]}: {holder}")
        lines.append(f"{board.continent_names[c]} — " + "; ".join(cells))
    return lines


def moves_since(game: Game, seat: Seat, names: dict[str, str]) -> list[str]:
    """What happened since this seat's previous decision, in words."""
    board = BOARDS[game.board]
    last = game.moves.filter(seat=seat).order_by("-number").values_list("number", flat=True)
    since = last[0] if last else 0
    lines = []
    for move in Move.objects.filter(game=game, number__gt=since).select_related("seat"):
        words = describe.describe_move(
            board, move.action, move.seat.player_name, move.events, names
        )
        parts = [words.action, words.dice, *words.followed]
        lines.append(f"{move.number}. " + " ".join(p for p in parts if p))
    return lines


def _wants_events(user: Any) -> bool:
    """Only players who chose a mail for each event get more than their decisions."""
    profile = getattr(user, "profile", None)
    return profile is None or profile.notify == "each"


def decision_context(game: Game, seat: Seat, state: State) -> dict[str, Any]:
    names = names_of(game)
    return {
        "game": game,
        "seat": seat,
        "names": names,
        "kind": "retreat"
        if state.pending is not None
        else ("setup placement" if state.phase == "setup" else "turn"),
        "board_lines": board_lines(game, state, names),
        "moves": moves_since(game, seat, names),
        "groups": describe.choices(state, names),
        "link": links.decision_url(game, seat),
        "deadline": game.deadline,
    }


def _queue(seat: Seat, name: str, kind: str, context: dict[str, Any], dedup_key: str) -> None:
    """Render ``emails/<name>-*`` for the seat's player and queue it in the outbox (in the
    caller's transaction), if the player has an address."""
    from mail.services import queue_mail, unsubscribe_url

    user = seat.user
    if user is None or not user.email:
        return
    queue_mail(
        user.email,
        *render_mail(name, context, user),
        kind=kind,
        to_user=user,
        game=context["game"],
        dedup_key=dedup_key,
        unsubscribe_url=unsubscribe_url(user),
    )


def queue_decision_mail(game: Game, seat: Seat, state: State) -> None:
    """Tell the seat's player that a decision is theirs (at most once per decision)."""
    if seat.user is None or not seat.user.email:
        return  # the context is not worth building
    _queue(
        seat,
        "decision",
        "decision",
        decision_context(game, seat, state),
        f"decision:{game.pk}:{game.turn_number}:{seat.pk}",
    )


def queue_result_mails(game: Game, state: State) -> None:
    """The final result and ranking, to every player who wants each event."""
    names = names_of(game)
    seats = sorted(game.seats.all(), key=lambda s: (s.rank or 99, s.number))
    for seat in seats:
        if seat.user is not None and _wants_events(seat.user):
            context = {"game": game, "seat": seat, "seats": seats, "names": names}
            _queue(seat, "game-over", "game_over", context, f"game-over:{game.pk}:{seat.pk}")


def queue_start_mails(game: Game) -> None:
    """The game has started: who plays which home, and who begins (R5)."""
    lines = describe.describe_start(game.start_record, names_of(game))
    seats = list(game.seats.order_by("number"))
    for seat in seats:
        if seat.user is not None and _wants_events(seat.user):
            context = {"game": game, "seat": seat, "seats": seats, "start_lines": lines}
            _queue(seat, "game-start", "game_start", context, f"game-start:{game.pk}:{seat.pk}")


def queue_missed_mail(game: Game, seat: Seat, what: str, action: str) -> None:
    """Tell a player their decision passed its deadline, and what was done about it.

    Always sent, whatever the player's preferences: it is about their own decision."""
    context = {
        "game": game,
        "seat": seat,
        "what": what,
        "action": describe.action_phrase(BOARDS[game.board], action) if action else "",
        "missed": seat.missed,
        "limit": game.missed_limit,
        "deadline": game.deadline,
    }
    _queue(
        seat, "missed", "missed", context, f"missed:{game.pk}:{game.turn_number}:{seat.pk}:{what}"
    )


def queue_reminder_mail(game: Game, seat: Seat, state: State) -> None:
    """The decision is due soon: once per deadline (the key carries the deadline)."""
    if game.deadline is None or seat.user is None or not seat.user.email:
        return
    key = f"reminder:{game.pk}:{game.turn_number}:{seat.pk}:{game.deadline.isoformat()}"
    _queue(seat, "reminder", "reminder", decision_context(game, seat, state), key)
