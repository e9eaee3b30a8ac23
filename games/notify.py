"""Mails about games: "your decision" prompts and the final result.

Each mail is queued in the outbox inside the transaction of the change that causes it
(see ``mail.services.queue_mail``), so a decision and its mails commit together, or
not at all. A decision prompt carries a key of its own decision, so no one ever gets
two prompts for one decision.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import links, replyto, seen, selectors, wording
from games.kinds import DEFAULT_KIND, Event, kind_named, kind_of
from games.models import Game, GameEvent, Move, Seat
from mail.parts import InlinePart, content_id
from ww5site import rows

# The kind of inline part by which a decision mail shows the board, its kind's picture
# of the position (``board_part``), and the Content-ID its HTML part shows it by.
BOARD_PART = "board"
BOARD_CID = content_id(BOARD_PART)


def render_mail(name: str, context: dict[str, Any], user: Any) -> tuple[str, str, str]:
    """Subject, text and HTML of ``emails/<name>-*``, with times in the player's zone;
    a game's mail names it by ``game_title`` (its event's name for a tournament's table),
    and the game it plays (its kind's name: ``game_name``) for a game's or an event's."""
    profile = getattr(user, "profile", None)
    zone = zoneinfo.ZoneInfo(profile.time_zone if profile is not None else settings.TIME_ZONE)
    if "game" in context and "game_title" not in context:
        # A game an event made is named by the event: "Spring Cup, round 2, table 3".
        context = {**context, "game_title": selectors.game_title(context["game"])}
    played = context.get("game") or context.get("tournament")
    if played is not None and "game_name" not in context:
        # the game it plays, which the subject names (``MAIL_GAME_SUBJECT_PREFIX``)
        context = {**context, "game_name": kind_of(played).name}
    with timezone.override(zone):
        context = {**context, "zone": zone.key}
        return (
            render_to_string(f"emails/{name}-subject.txt", context).strip(),
            render_to_string(f"emails/{name}-body.txt", context),
            render_to_string(f"emails/{name}-body.html", context),
        )


def position_lines(game: Game, viewer: seen.Viewer, names: Mapping[str, str]) -> list[str]:
    """The game's position as lines of text, as ``viewer`` may see it (its kind's words)."""
    position = seen.position(game, viewer)
    if position is None:
        return []
    return kind_of(game).position_lines(game.options, position, names)


def moves_since(game: Game, seat: Seat, names: dict[str, str], seats: Iterable[Seat]) -> list[str]:
    """What happened since this seat's previous decision, in words, as its player may
    see it; ``seats``: the game's seats."""
    players = {s.pk: s.player_name for s in seats}
    viewer = seen.seat_viewer(game, seat)
    return [
        move_line(game, seen.move(game, move, players[move.seat_id], viewer), names)
        for move in _moves_since(game, seat)
    ]


_MOVE = rows.Columns(Move, "m")
_EARLIER = rows.Columns(Move, "e")


def _moves_since(game: Game, seat: Seat) -> list[Move]:
    """The game's moves after the seat's last one (all of them if it has none), in
    order. In SQL, one statement: every decision mail and reminder reads them, and the
    ORM's two queries cost more to build than to run."""
    sql = (
        f"SELECT {_MOVE.sql} FROM {_MOVE.table} m WHERE {_MOVE.column('game')} = %s "
        f"AND {_MOVE.column('number')} > COALESCE((SELECT MAX({_EARLIER.column('number')}) "
        f"FROM {_EARLIER.table} e WHERE {_EARLIER.column('game')} = %s "
        f"AND {_EARLIER.column('seat')} = %s), 0) ORDER BY {_MOVE.column('number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk, game.pk, seat.pk])
        found = [_MOVE.load(row) for row in cursor.fetchall()]
    return [move for move in found if move is not None]


def move_line(game: Game, move: seen.SeenMove, names: Mapping[str, str]) -> str:
    """One logged move of the game in words, as its reader may see it, on one line:
    "12. … rolls …; … retreats …"."""
    words = kind_of(game).describe_move(game.options, move.action, move.player, move.events, names)
    parts = [words.action, seen.dice_said(words.dice, move), *words.followed]
    if move.commitment:  # a sealed action's commitment is public (K38)
        parts.append(f"(Commitment {move.commitment}.)")
    return f"{move.number}. " + " ".join(p for p in parts if p)


def _wants_events(user: Any) -> bool:
    """Only players who chose a mail for each event get more than their decisions (the
    digest players read the same events in their daily digest)."""
    profile = getattr(user, "profile", None)
    return profile is None or profile.notify == "each"


# Mails sent even for a muted game: they tell the player of a penalty against them, or
# acknowledge their own sealed action (K38).
SENT_WHEN_MUTED = {"missed", "receipt"}


def decision_context(
    game: Game, seat: Seat, state: Any, seats: Iterable[Seat] | None = None
) -> dict[str, Any]:
    """What a decision mail (or its reminder) says, as the seat's player may see it;
    ``seats`` when already read."""
    if seats is None:
        seats = list(game.seats.select_related("user__profile"))
    kind = kind_of(game)
    viewer = seen.seat_viewer(game, seat)
    state = seen.shown(game, state, viewer)
    player = seat.player_name
    names = wording.player_names(seats)
    return {
        "game": game,
        "seat": seat,
        "names": names,
        "kind": kind.decision_words(state, player),
        "board_lines": position_lines(game, viewer, names),
        "moves": moves_since(game, seat, names, seats),
        "groups": kind.choices(state, player, names),
        "example": kind.example_action(state, player),
        "link": links.decision_url(game, seat),
        "deadline": game.deadline,
        "board_cid": BOARD_CID,
        "picture": kind.draws_pictures,
    }


def picture_spec(
    game: Game,
    names: Mapping[str, str],
    viewer: seen.Viewer,
    events: Sequence[Event] | None = None,
) -> dict[str, Any] | None:
    """What the sender needs to draw the game's position as it is now, as ``viewer`` may
    see it, by its kind's ``picture`` (``board_part``): with ``events``, the last move's
    as the viewer sees them (read here when not given), which the picture marks. None
    for a kind that draws no pictures, or a game not started."""
    kind = kind_of(game)
    position = seen.position(game, viewer)
    if not kind.draws_pictures or position is None:
        return None
    if events is None:
        last = seen.last_move(game, viewer)
        events = last.events if last is not None else []
    return {
        "kind": game.kind,
        "options": game.options,
        "position": position,
        "names": dict(names),
        "events": list(events),
    }


def board_picture(spec: dict[str, Any]) -> bytes:
    """The position of a ``picture_spec`` as its kind draws it, a PNG picture."""
    # A mail queued before pictures came from the kinds has World War 5's spec: its
    # board, and marks instead of events (it goes without them).
    kind = kind_named(spec.get("kind", DEFAULT_KIND))
    options = spec["options"] if "options" in spec else {"board": spec["board"]}
    picture = kind.picture(options, spec["position"], spec["names"], spec.get("events", []))
    if picture is None:
        raise ValueError(f"{kind.name} draws no picture of this position")
    return picture


def board_part(spec: dict[str, Any]) -> InlinePart:
    """The picture of a mail's position, drawn by the sending worker (registered with
    the outbox as the ``BOARD_PART`` kind when the app starts)."""
    return InlinePart(board_picture(spec), "png", "board.png")


def _queue(
    seat: Seat,
    name: str,
    kind: str,
    context: dict[str, Any],
    dedup_key: str,
    board: dict[str, Any] | None = None,
    decision: bool | None = None,
) -> None:
    """Render ``emails/<name>-*`` for the seat's player and queue it in the outbox (in the
    caller's transaction), if the player has an address; ``board``: the ``picture_spec`` of
    the picture its HTML part shows. ``decision``: replies go to the reply address of the
    decision due now (True) or of the game (False; ``games.replyto``); None: to the site."""
    if seat.muted and kind not in SENT_WHEN_MUTED:
        return
    reply_to = ""
    if decision is not None and seat.user_id is not None:
        reply_to = replyto.reply_address(context["game"], seat, decision=decision)
    _queue_to(seat.user, name, kind, context, dedup_key, board, reply_to)


def _queue_to(
    user: Any,
    name: str,
    kind: str,
    context: dict[str, Any],
    dedup_key: str,
    board: dict[str, Any] | None = None,
    reply_to: str = "",
) -> None:
    from mail.services import queue_mail, unsubscribe_url

    if user is None or not user.email:
        return
    queue_mail(
        user.email,
        *render_mail(name, context, user),
        kind=kind,
        to_user=user,
        thread=thread_for(context["game"]),
        dedup_key=dedup_key,
        unsubscribe_url=unsubscribe_url(user),
        inline_part=(BOARD_PART, board) if board is not None else None,
        reply_to=reply_to,
    )


def queue_notice_mails(
    game: Game, event: GameEvent, seats: list[Seat], concerned: Iterable[Any] = ()
) -> None:
    """Tell the players what happened to the game (an organiser's action, a
    replacement, a resignation): those who want a mail for each event or a digest and
    have not muted the game, and always the ``concerned`` users it is about (a replaced
    player, whose seat is no longer theirs, among them)."""
    always = {user.pk: user for user in concerned if user is not None}
    recipients = dict(always)
    for seat in seats:
        user = seat.user
        if user is None or user.pk in recipients or seat.muted:
            continue
        profile = getattr(user, "profile", None)
        if profile is None or profile.notify != "decisions":
            recipients[user.pk] = user
    for user in recipients.values():
        context = {"game": game, "event": event, "link": game_url(game), "user": user}
        _queue_to(user, "notice", "notice", context, f"notice:{event.pk}:{user.pk}")


def queue_decision_mail(
    game: Game,
    seat: Seat,
    state: Any,
    seats: list[Seat],
    move: Move | None = None,
    report: list[str] | None = None,
) -> None:
    """Tell the seat's player that a decision is theirs (at most once per decision).
    ``seats``: the game's seats, with their users' profiles; ``move``: the move that
    made it due, which the picture marks; ``report``: what the player's held script
    lines did just before, line by line (K39f)."""
    if seat.user is None or not seat.user.email or seat.muted:
        return  # the context is not worth building
    context = decision_context(game, seat, state, seats)
    context["report"] = report or []
    viewer = seen.seat_viewer(game, seat)
    events: list[Event] = []
    if move is not None:
        mover = next(s for s in seats if s.pk == move.seat_id)
        events = seen.move(game, move, mover.player_name, viewer).events
    _queue(
        seat,
        "decision",
        "decision",
        context,
        f"decision:{game.pk}:{game.turn_number}:{seat.pk}:{seat.user_id}",
        picture_spec(game, context["names"], viewer, events),
        decision=True,
    )


def queue_script_report(
    game: Game,
    seat: Seat,
    state: Any,
    seats: list[Seat],
    report: list[dict[str, Any]],
    move: Move | None,
) -> None:
    """Tell a player what their held script lines did once they ran (K39f): in the mail
    that asks for the rest of their decision when it is still theirs, else in a mail of
    its own, which says whose decision the game waits for."""
    lines = [wording.report_line(entry) for entry in report]
    if selectors.decides_now(game, seat):
        queue_decision_mail(game, seat, state, seats, move, report=lines)
        return
    if seat.user is None or not seat.user.email:
        return
    context = {
        "game": game,
        "seat": seat,
        "report": lines,
        "waiting": selectors.waiting_sentence(game, seat, "", "The game now waits for {}"),
        "link": game_url(game),
    }
    key = f"script-report:{game.pk}:{game.turn_number}:{seat.pk}:{seat.user_id}"
    _queue(seat, "script-report", "script-report", context, key, decision=False)


def queue_result_mails(game: Game, state: Any, seats: list[Seat]) -> None:
    """The final result and ranking, to every player who wants each event. ``seats``:
    the game's seats, ranked, with their users' profiles."""
    names = wording.player_names(seats)
    seats = sorted(seats, key=lambda s: (s.rank or 99, s.number))
    for seat in seats:
        if seat.user is not None and _wants_events(seat.user):
            context = {
                "game": game,
                "seat": seat,
                "seats": seats,
                "names": names,
                "record_link": settings.SITE_URL.rstrip("/")
                + reverse("games:record", args=[game.pk]),
            }
            _queue(seat, "game-over", "game_over", context, f"game-over:{game.pk}:{seat.pk}")


def queue_start_mails(game: Game, seats: list[Seat]) -> None:
    """The game has started: who plays which home, and who begins (R5). ``seats``: the
    game's seats in seat order, with their users' profiles."""
    told = [s for s in seats if s.user is not None and s.user.email and _wants_events(s.user)]
    if not told:
        return  # the context is not worth building
    kind = kind_of(game)
    lines = kind.describe_start(game.start_record, wording.player_names(seats))
    roles = kind.role_names(game.options)
    players = [
        {
            "name": s.display_name,
            "seat": s,
            "color": s.player_name,
            "home": roles.get(s.home, s.home) if s.home else "",  # "North America"
        }
        for s in seats
    ]
    for seat in told:
        context = {"game": game, "seat": seat, "players": players, "start_lines": lines}
        key = f"game-start:{game.pk}:{seat.pk}"
        _queue(seat, "game-start", "game_start", context, key, decision=False)


def queue_missed_mail(game: Game, seat: Seat, what: str, action: str, state: Any) -> None:
    """Tell a player their decision (of ``state``, the game before what was done about
    it) passed its deadline, and what was done: "grace" (with a fresh one-click link for
    the extended deadline), "timeout move" or "forfeit". Only missed turns in play count
    towards the game's limit; the mail says so.

    Always sent, whatever the player's preferences: it is about their own decision."""
    if seat.user is None or not seat.user.email:
        return  # the context is not worth building
    kind = kind_of(game)
    context = {
        "game": game,
        "seat": seat,
        "what": what,
        "kind": kind.decision_words(state, seat.player_name),
        "counts": kind.missed_counts(state, seat.player_name),
        "action": kind.action_phrase(game.options, action) if action else "",
        "missed": seat.missed,
        "forfeit_words": kind.forfeit_words,
        "limit": game.missed_limit,
        "deadline": game.deadline,
        "link": links.decision_url(game, seat) if what == "grace" else "",
    }
    key = f"missed:{game.pk}:{game.turn_number}:{seat.pk}:{seat.user_id}:{what}"
    _queue(seat, "missed", "missed", context, key)


def queue_reminder_mail(
    game: Game, seat: Seat, state: Any, seats: list[Seat] | None = None
) -> None:
    """The decision is due soon: once per deadline (the key carries the deadline).
    ``seats``: the game's seats with their users' profiles, when already read."""
    if game.deadline is None or seat.user is None or not seat.user.email:
        return
    key = (
        f"reminder:{game.pk}:{game.turn_number}:{seat.pk}:{seat.user_id}:"
        f"{game.deadline.isoformat()}"
    )
    context = decision_context(game, seat, state, seats)
    _queue(seat, "reminder", "reminder", context, key, decision=True)


def queue_event_mails(game: Game, move: Move, state: Any, seats: list[Seat]) -> None:
    """For the players who want a mail for each event: a move that attacked them or put
    a player out. Not to its mover, nor to whoever decides next (their decision mail
    tells the same), nor after the last move (the result mail tells it). ``seats``: the
    game's seats, with their users' profiles."""
    kind = kind_of(game)
    touched = kind.concerned(move.events)
    if not touched or kind.is_over(state):
        return
    recipients = [
        seat
        for seat in seats
        if seat.user is not None
        and seat.user.email
        and not seat.muted
        and seat.pk != move.seat_id
        and not selectors.decides_now(game, seat)
        and ("*" in touched or seat.player_name in touched)
        and _wants_events(seat.user)
    ]
    if not recipients:
        return
    names = wording.player_names(seats)
    mover = next(s for s in seats if s.pk == move.seat_id)
    for seat in recipients:
        shown = seen.move(game, move, mover.player_name, seen.seat_viewer(game, seat))
        words = kind.describe_move(game.options, shown.action, shown.player, shown.events, names)
        context = {
            "game": game,
            "seat": seat,
            "words": words,
            "counters": shown.dice_counters,
            "number": move.number,
            "attacked": seat.player_name in touched,
            "link": game_url(game),
        }
        key = f"event:{game.pk}:{move.number}:{seat.pk}"
        _queue(seat, "event", "event", context, key, decision=False)


def queue_commitment_mails(
    game: Game, move: Move, seats: list[Seat], told: Collection[str]
) -> None:
    """A sealed action is in (K38): its player gets a receipt with its commitment H
    (whatever their preferences: it is about their own decision), and the players
    ``told`` ("*": every other player) who want a mail for each event are told that the
    player has submitted, with H. Neither shows the nonce; only the receipt, to its
    sender, the action."""
    kind = kind_of(game)
    names = wording.player_names(seats)
    mover = next(s for s in seats if s.pk == move.seat_id)
    player = mover.player_name
    words = kind.sealed_words(move.decision)
    receipt = seen.move(game, move, player, seen.seat_viewer(game, mover))
    context = {
        "game": game,
        "seat": mover,
        "words": words,
        "action": receipt.action,
        "decision": move.decision,
        "commitment": move.commitment,
        "number": move.number,
        "link": game_url(game),
    }
    _queue(mover, "receipt", "receipt", context, f"receipt:{game.pk}:{move.number}:{mover.pk}")
    for seat in seats:
        if (
            seat.pk == move.seat_id
            or seat.user is None
            or not ("*" in told or seat.player_name in told)
            or not _wants_events(seat.user)
        ):
            continue
        context = {
            "game": game,
            "seat": seat,
            "sender": wording.who(names, player),
            "words": words,
            "decision": move.decision,
            "commitment": move.commitment,
            "number": move.number,
            "link": game_url(game),
        }
        key = f"commitment:{game.pk}:{move.number}:{seat.pk}"
        _queue(seat, "commitment", "commitment", context, key, decision=False)


def queue_reveal_mails(game: Game, decision: str, seats: list[Seat]) -> None:
    """A sealed decision is revealed (K38): each of its players gets every player's
    action, nonce r and commitment H, with the text whose SHA-256 digest H is, to check
    every H they were sent. As ``games.seen`` shows them: revealed, to everyone."""
    kind = kind_of(game)
    names = wording.player_names(seats)
    by_id = {s.pk: s for s in seats}
    rows = list(
        Move.objects.filter(game=game, decision=decision).exclude(commitment="").order_by("number")
    )
    parties = [by_id[pk] for pk in dict.fromkeys(row.seat_id for row in rows)]
    for seat in parties:
        if seat.user is None:
            continue
        viewer = seen.seat_viewer(game, seat)
        entries = []
        for row in rows:
            player = by_id[row.seat_id].player_name
            shown = seen.move(game, row, player, viewer)
            text = ""
            if shown.nonce:
                text = kind.commitment_text(
                    str(game.pk), decision, player, shown.action, shown.nonce
                )
            entries.append(
                {
                    "number": shown.number,
                    "player": player,
                    "who": wording.who(names, player),
                    "action": shown.action,
                    "nonce": shown.nonce,
                    "commitment": shown.commitment,
                    "text": text,
                }
            )
        context = {
            "game": game,
            "seat": seat,
            "game_id": str(game.pk),
            "format": kind.commitment_format,
            "decision": decision,
            "words": kind.sealed_words(decision),
            "entries": entries,
            "link": game_url(game),
        }
        key = f"reveal:{game.pk}:{decision}:{seat.pk}"
        _queue(seat, "reveal", "reveal", context, key, decision=False)


def thread_for(game: Game) -> str:
    """The key under which the outbox threads a game's mails."""
    return f"game-{game.pk}"


def game_url(game: Game) -> str:
    """The game's page, as an absolute link for mails."""
    return settings.SITE_URL.rstrip("/") + reverse("games:detail", args=[game.pk])
