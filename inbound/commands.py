"""What a recognised player's reply asks, read from its first line: a move for the
token's decision, ``confirm`` (R15), ``board``, ``moves`` or ``help``; each answered in
the game's thread, in the transaction that handles the message."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser

from games import replyto, selectors, services, wording
from games.kinds import kind_of
from games.models import Game, Move, Seat
from inbound import answers
from inbound.answers import Answer
from inbound.audit import Handled, finish
from inbound.models import InboundMessage
from inbound.reading import Reading

Outcome = InboundMessage.Outcome
COMMANDS = ("help", "board", "moves")
STRIP = " \t\"'`*_<>“”‘’"


@dataclass
class Context:
    """A message whose token and sender matched a player who holds the seat."""

    row: InboundMessage
    reading: Reading
    token: replyto.ReplyToken
    address: str
    user: AbstractBaseUser
    game: Game
    seat: Seat


def first_word(first_line: str) -> str:
    return first_line.strip(STRIP).lower().rstrip(".!")


def run_command(c: Context, now: datetime) -> Handled:
    line = c.reading.first_line.strip(STRIP)
    word = first_word(line)
    if word in COMMANDS:
        return _inform(c, word)
    if not line:
        text = "We found no move in your reply: write it on the first line. Nothing was changed."
        return _answer(c, Outcome.REFUSED, Answer([text], moves=True, help=True), "empty reply")
    if not c.token.for_decision:
        text = (
            f"“{line}” was not read as a move: moves are made by replying to the mail "
            "that asks for your decision. Nothing was changed."
        )
        return _answer(c, Outcome.REFUSED, Answer([text], moves=True), "a move to a game address")
    if kind_of(c.game).turn_scripts and not word.startswith("confirm"):
        return _script(c, now)
    confirmed = False
    if word == "confirm" or word.startswith("confirm "):
        confirmed = True
        line = line[len("confirm") :].strip(STRIP)
        if not line:
            line = _pending_confirmation(c)
            if not line:
                text = "There is nothing to confirm for this decision. Nothing was changed."
                return _answer(c, Outcome.REFUSED, Answer([text], moves=True), "nothing to confirm")
    return _move(c, line, confirmed, now)


def _pending_confirmation(c: Context) -> str:
    """The action this player was last asked to confirm for the token's decision."""
    asked = (
        InboundMessage.objects.filter(
            user=c.user, game=c.game, turn=c.token.turn, outcome=Outcome.CONFIRM
        )
        .order_by("-received_at", "-id")
        .values_list("action", flat=True)
        .first()
    )
    return asked or ""


def _inform(c: Context, word: str) -> Handled:
    game, seat = c.game, c.seat
    if word == "help":
        return _answer(c, Outcome.ANSWERED, Answer([f"{game}: replying by mail."], help=True), "")
    yours = selectors.decides_now(game, seat) and not game.is_paused
    paragraphs = [f"{game}, as it is now." if word == "board" else f"{game}: your moves."]
    if not yours:
        paragraphs.append(answers.waiting_for(game, seat))
    return _answer(c, Outcome.ANSWERED, Answer(paragraphs, board=word == "board", moves=yours), "")


def _after_the_deadline(c: Context, now: datetime) -> Handled | None:
    """The refusal of a reply for a decision still open whose deadline passed before it
    came (the game deals with the missed decision), or None."""
    game = c.game
    if (
        selectors.decision_open(game, c.seat, c.token.turn)
        and game.deadline is not None
        and now > game.deadline
    ):
        text = (
            "Your reply came after this decision's deadline: it was not applied. The game "
            "deals with the missed decision as its rules say. Nothing was changed."
        )
        return _answer(c, Outcome.REFUSED, Answer([text]), "after the deadline")
    return None


def _move(c: Context, line: str, confirmed: bool, now: datetime) -> Handled:
    game, token = c.game, c.token
    late = _after_the_deadline(c, now)
    if late is not None:
        return late
    try:
        decision = services.submit_move(
            game.pk,
            c.user,
            line,
            token.turn,
            source=Move.Source.EMAIL,
            confirm_elimination=confirmed,
        )
    except services.NeedsConfirmation as risky:
        text = (
            f"{answers.confirmation_warning(game, risky.action)} To make it all the same, reply "
            "“confirm” to this mail. Nothing was changed."
        )
        return _answer(c, Outcome.CONFIRM, Answer([text]), "", action=risky.action)
    except services.StaleForm:
        return _already(c, None)
    except services.GameError as refusal:
        game.refresh_from_db()
        # The reason without the engine's list of legal actions: the answer lists them.
        reason = getattr(refusal, "reason", str(refusal)).rstrip(". ")
        text = f"Your move “{line}” was not accepted: {reason}. Nothing was changed."
        return _answer(c, Outcome.REFUSED, Answer([text], moves=True), str(refusal))
    if decision.duplicate:
        return _already(c, decision.move)
    game.refresh_from_db()
    move = decision.move
    answer = Answer(
        [f"Your decision was recorded: {answers.phrase(game, move.action)}."],
        lines=answers.move_lines(game, move, c.seat),
        after=[answers.waiting_for(game, c.seat)],
    )
    return _answer(c, Outcome.APPLIED, answer, "", move=move)


def _script(c: Context, now: datetime) -> Handled:
    """A reply that carries a turn script (K34): its lines run top to bottom as far as the
    turn goes, those done recorded as one move; the answer reports every line."""
    game, token = c.game, c.token
    late = _after_the_deadline(c, now)
    if late is not None:
        return late
    script = "\n".join(c.reading.lines)
    try:
        move, report = services.submit_script(
            game.pk, c.user, script, token.turn, source=Move.Source.EMAIL
        )
    except services.StaleForm:
        return _already(c, None)
    except services.GameError as refusal:
        text = f"Your turn was not accepted: {str(refusal).rstrip('. ')}. Nothing was changed."
        return _answer(c, Outcome.REFUSED, Answer([text], moves=True), str(refusal))
    game.refresh_from_db()
    lines = [wording.report_line(entry) for entry in report]
    if move is None:
        text = "No line of your reply could be done now. Nothing was changed."
        return _answer(c, Outcome.REFUSED, Answer([text], lines=lines, moves=True), "no line done")
    answer = Answer(
        ["Your turn's lines, one by one:"],
        lines=lines,
        after=[answers.waiting_for(game, c.seat)],
    )
    return _answer(c, Outcome.APPLIED, answer, "", move=move)


def _already(c: Context, mine: Move | None) -> Handled:
    """The decision was made before this reply (by an earlier reply, the web, a link, a
    bot on the deadline): nothing is applied."""
    game = c.game
    game.refresh_from_db()
    if mine is None:
        mine = Move.objects.filter(game=game, number=c.token.turn + 1).first()
    made = f": {answers.phrase(game, mine.action)}" if mine is not None else ""
    now_due = answers.waiting_for(game, c.seat)
    if selectors.decides_now(game, c.seat) and not game.is_paused:
        # Its mail was sent before this reply came: no other mail "follows".
        now_due = (
            "The game waits for your next decision: reply to this mail, or to the one "
            "that asks for it, with your move."
        )
    text = f"This decision was already made{made}. Your reply was not applied. {now_due}"
    return _answer(c, Outcome.ALREADY, Answer([text]), "already decided")


def _answer(c: Context, outcome: str, answer: Answer, error: str, **fields: object) -> Handled:
    """Answer the player in the game's thread; their next reply goes to ``_next_address``."""
    mail = answers.queue_answer(
        answer,
        key=f"inbound:{c.row.pk}",
        to=c.user.email,
        subject=c.reading.subject,
        user=c.user,
        game=c.game,
        seat=c.seat,
        reply_to=_next_address(c),
    )
    return finish(c.row, outcome, error, mail.pk if mail else None, **fields)


def _next_address(c: Context) -> str:
    """Where a reply to the answer goes: the address the player wrote to while its
    decision is open or they have none now; once it is closed and another decision is
    theirs (a reply that ended one and began the next, as the last sealed placement
    beginning its sender's first turn), the address of the decision that is theirs now,
    so that answering the newest mail of the game plays on."""
    if not c.token.for_decision:
        return c.address
    c.game.refresh_from_db()
    c.seat.refresh_from_db(fields=["deciding"])
    if selectors.decision_open(c.game, c.seat, c.token.turn):
        return c.address
    if not selectors.decides_now(c.game, c.seat) or c.game.is_paused:
        return c.address
    return replyto.reply_address(c.game, c.seat)
