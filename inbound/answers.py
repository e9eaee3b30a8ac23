"""The answers to received messages: what each says, queued in the outbox in the
transaction that handled the message (``emails/reply-*``).

Answers go only to the player a genuine token names, at their own address. One to a
player whose token and address matched is threaded in the game's thread and tells of
the game; one about a token that no longer works (expired, a seat no longer theirs)
says only that nothing was read; a player whose reply address was written to from
another address is told so.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from games import notify, seen, selectors, wording
from games.kinds import GameKind, kind_of
from games.models import Game, Move, Seat
from mail.models import OutgoingMail
from mail.services import queue_mail


def help_text(kind: GameKind | None) -> str:
    """How replies work, for a game of ``kind``: its shorter ways of writing a move
    (``reply_examples``) and, for a kind whose decisions may need confirming, "confirm"."""
    examples = kind.reply_examples if kind is not None else ()
    shorter = ", or shorter: " + ", ".join(f'"{e}"' for e in examples) if examples else ""
    reply = textwrap.wrap(
        'Reply to a "your decision" mail with your move on the first line, in the notation '
        f"its list shows{shorter}. Case, extra spaces and commas do not matter; anything "
        "below the first line is not read.",
        width=85,
        initial_indent="- ",
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    confirm = kind.confirmation_words if kind is not None else ""
    return "\n".join(
        [
            "How replies work:",
            *reply,
            '- "board": the board as it is now, as a picture and in words.',
            '- "moves": the moves you can make now.',
            *(
                [f'- "confirm": makes a decision that {confirm}, once a reply asked you to.']
                if confirm
                else []
            ),
            '- "help": this text.',
            "Each reply address works for its own decision only, until the decision is made or",
            "its deadline passes.",
        ]
    )


REPLACED = (
    "Your mail was not read: the seat its reply address was for is no longer yours "
    "(an organiser gave it to another player). Nothing was changed."
)
TOO_LARGE = (
    "Your mail was not read: it is larger than the site accepts ({limit} bytes). "
    "Reply with your move alone, without attachments. Nothing was changed."
)
TOO_MANY_PARTS = (
    "Your mail was not read: it has more parts than the site reads (at most {limit}, "
    "not nested deeper than a mail client does). Reply with your move alone, without "
    "attachments. Nothing was changed."
)
FAULT = (
    "Your mail could not be handled because of a fault of the site: nothing was "
    "changed. Reply again later, or make your decision on the site."
)
ATTEMPT = (
    "A mail from {sender} was sent to the reply address of a mail the site sent you "
    "about {game}. It was not read: that address takes only your own replies, from "
    "your address ({email}). Nothing was changed. If you forwarded the site's mail, "
    "whoever got it can see its reply address; it still works only for you."
)
LIMITED = (
    "Your mail was not read: you sent the site {limit} mails within the hour, its hourly "
    "limit. Until the hour has passed, only your moves in reply to a mail that asks for "
    "your decision are read; other mails are not read and get no further answer. "
    "Nothing was changed."
)
EXPIRED = (
    "Your mail was not read: the address you replied to has expired. Reply to your "
    "latest mail from the site instead. Nothing was changed."
)


@dataclass
class Answer:
    """What one answer says."""

    paragraphs: list[str]
    lines: list[str] = field(default_factory=list)  # a move's words, after the paragraphs
    after: list[str] = field(default_factory=list)  # paragraphs after the lines
    board: bool = False
    moves: bool = False
    help: bool = False


def subject_for(original: str, game: Game | None) -> str:
    if game is None:
        return f"{settings.MAIL_SUBJECT_PREFIX}Your mail was not read"
    if original and original.lower().startswith("re:"):
        return original
    return (
        f"Re: {original}"
        if original
        else f"{settings.MAIL_SUBJECT_PREFIX}{selectors.game_title(game)}: your reply"
    )


def queue_answer(
    answer: Answer,
    *,
    key: str,
    to: str,
    subject: str,
    user: AbstractBaseUser | None = None,
    game: Game | None = None,
    seat: Seat | None = None,
    reply_to: str = "",
) -> OutgoingMail | None:
    """Queue ``answer`` (once per ``key``) to the address ``to``: threaded in ``game``'s
    thread when the player was recognised, with the board and the legal actions of
    ``seat`` when it asks for them."""
    kind = kind_of(game) if game is not None else None
    context: dict[str, Any] = {
        "subject": subject_for(subject, game),
        "paragraphs": answer.paragraphs,
        "lines": answer.lines,
        "after": answer.after,
        "help": help_text(kind) if answer.help else "",
    }
    inline = None
    viewer = seen.seat_viewer(game, seat) if game is not None and seat is not None else None
    state = seen.state(game, viewer) if game is not None and viewer is not None else None
    if (
        game is not None
        and kind is not None
        and seat is not None
        and viewer is not None
        and state is not None
    ):
        seats = list(game.seats.select_related("user__profile"))
        names = wording.player_names(seats)
        if answer.board:
            context["board_lines"] = notify.position_lines(game, viewer, names)
            spec = notify.picture_spec(game, names, viewer)
            if spec is not None:
                context["board_cid"] = notify.BOARD_CID
                inline = (notify.BOARD_PART, spec)
        if answer.moves and selectors.decides_now(game, seat):
            context["groups"] = kind.choices(state, seat.player_name, names)
    subject_line, text, html = notify.render_mail("reply", context, user)
    return queue_mail(
        to,
        subject_line,
        text,
        html,
        kind="reply",
        to_user=user,
        thread=notify.thread_for(game) if game is not None else "",
        dedup_key=key,
        reply_to=reply_to,
        inline_part=inline,
    )


ATTEMPT_KEY = "inbound-attempt"


def queue_attempt_notice(
    text: str, *, key: str, user: AbstractBaseUser, game: Game | None
) -> OutgoingMail | None:
    """Tell ``user`` that a mail from another address came to their reply address, under
    a subject of the site's own (not the sender's)."""
    title = selectors.game_title(game) if game is not None else "a game"
    context: dict[str, Any] = {
        "subject": (
            f"{settings.MAIL_SUBJECT_PREFIX}{title}: a mail to your reply address was not read"
        ),
        "paragraphs": [text],
        "lines": [],
        "after": [],
        "help": "",
    }
    subject_line, body, html = notify.render_mail("reply", context, user)
    return queue_mail(
        user.email,
        subject_line,
        body,
        html,
        kind="reply",
        to_user=user,
        dedup_key=f"{ATTEMPT_KEY}:{user.pk}:{key}",
    )


def told_of_attempt_since(user: AbstractBaseUser, since: datetime) -> bool:
    return OutgoingMail.objects.filter(
        dedup_key__startswith=f"{ATTEMPT_KEY}:{user.pk}:", created_at__gt=since
    ).exists()


def waiting_for(game: Game, seat: Seat) -> str:
    """Whose decision the game waits for, in a sentence, for the seat's player."""
    return selectors.waiting_sentence(
        game,
        seat,
        "The game waits for you again: your next decision's mail follows.",
        "The game now waits for {}",
    )


def move_lines(game: Game, move: Move, seat: Seat) -> list[str]:
    """The move as applied, its dice and what followed, one line each, as the player of
    ``seat`` may see them."""
    seats = list(game.seats.select_related("user__profile"))
    names = wording.player_names(seats)
    mover = next(s for s in seats if s.pk == move.seat_id)
    shown = seen.move(game, move, mover.player_name, seen.seat_viewer(game, seat))
    words = kind_of(game).describe_move(
        game.options, shown.action, shown.player, shown.events, names
    )
    parts = (words.action, seen.dice_said(words.dice, shown), *words.followed)
    return [wording.sentence(part) for part in parts if part]


def phrase(game: Game, action: str) -> str:
    """An action of the game as an instruction to its player, in its kind's words."""
    return kind_of(game).action_phrase(game.options, action)


def confirmation_warning(game: Game, action: str) -> str:
    """Why the action needs confirming, in its kind's words."""
    return kind_of(game).confirmation_warning(phrase(game, action))
