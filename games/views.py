"""Pages of the games app: the lobby, a game, its decisions, its replay and record.

Views read models and call ``games.services`` for every change; a refused request
comes back to the game page with the service's message and nothing changed.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache, wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import links, seen, selectors, services, wording
from games.forms import (
    AddBotForm,
    AssignHomeForm,
    BotGameForm,
    CreateGameForm,
    JoinForm,
    MoveForm,
    ResignForm,
)
from games.kinds import (
    DEFAULT_KIND,
    Event,
    GameKind,
    Position,
    Refused,
    UnknownKind,
    all_kinds,
    kind_of,
)
from games.models import Game, GameEvent, Move, Seat

INVITES = "game_invites"  # session key: game pk -> invite token the visitor opened
RECENT_FINISHED = 10
LOBBY_PAGE = 20  # open games per lobby page
NOTHING_CHANGED = "Nothing was changed."
DECISION_TEMPLATE = "games/_decision_form.html"  # the form of a kind without its own
# The hidden field by which a kind's own decision form says that its fields make the turn.
KIND_FORM = "kind_form"


# --- helpers -------------------------------------------------------------------------


def _invite_token(request: HttpRequest, game: Game) -> str | None:
    token: str | None = request.session.get(INVITES, {}).get(str(game.pk))
    return token


def _visible_game(request: HttpRequest, pk: int) -> Game:
    """The game, if the viewer may see it; a private game is a 404 to anyone else, so
    its existence is not revealed."""
    game = get_object_or_404(Game.objects.select_related("creator", "to_move", "winner"), pk=pk)
    if not selectors.can_see(game, request.user, _invite_token(request, game)):
        raise Http404("No such game.")
    return game


def _game_url(game: Game, **query: str) -> str:
    url = _game_path(game.pk)
    return f"{url}?{urlencode(query)}" if query else url


_MARK = 918273645546372819  # a key no game has, to find where a game's key goes


def _game_path(pk: int) -> str:
    """``reverse("games:detail", args=[pk])``: every accepted move is redirected to it,
    and the resolver's reverse costs a move more than its form's check."""
    before, after = _game_path_around(get_script_prefix(), get_urlconf())
    return f"{before}{pk}{after}"


@lru_cache(maxsize=16)
def _game_path_around(prefix: str, urlconf: str | None) -> tuple[str, str]:
    """A game page's path before and after its key, reversed once for each script
    prefix and URL configuration (``reverse`` reads both)."""
    before, after = reverse("games:detail", args=[_MARK]).split(str(_MARK))
    return before, after


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user__profile").order_by("number"))


def _position_template(game: Game) -> str:
    """The kind's template of the position, which the pages include for each of their
    parts (``GameKind``'s words and pictures)."""
    return f"{kind_of(game).template_folder}/position.html"


def _position_context(
    game: Game,
    position: Position | None,
    names: Mapping[str, str],
    events: Sequence[Event] = (),
    seats: Iterable[Seat] = (),
) -> dict[str, Any]:
    """What the kind's position template shows: its ``page_context`` of the position as
    the reader may see it (None before the start), with the last move's ``events`` as the
    reader sees them; and the template's name."""
    context = kind_of(game).page_context(game.options, position, names, events, seats)
    return {**context, "position_template": _position_template(game)}


def _seat_rows(game: Game, seats: list[Seat], state: Any) -> list[dict[str, Any]]:
    kind = kind_of(game)
    homes = kind.role_names(game.options)
    out = set(kind.players_out(state)) if state is not None else set()
    rows = []
    for seat in seats:
        if game.status == Game.Status.OPEN:
            status = "waiting for the start"
        elif game.winner_id == seat.pk:
            status = "winner"
        elif seat.player_name in out:
            status = "eliminated"
        elif game.status in (Game.Status.SETUP, Game.Status.PLAY):
            status = "in game"
        else:
            status = game.get_status_display().lower()
        if seat.rank is not None:
            status += f" (rank {seat.rank})"
        rows.append(
            {
                "bank": _bank_left(game, seat),
                "away_until": _away_until(seat),
                "seat": seat,
                "name": seat.display_name,
                "color": seat.player_name,
                "css_color": kind.player_colour(game.options, seat.player_name),
                "home": homes.get(seat.home, ""),
                "status": status,
                "waiting": selectors.decides_now(game, seat),
            }
        )
    return rows


def _result_context(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """What the result line needs beyond the game row: the organiser's last correction
    (its date and reason, shown beside the result) and, when a correction left no one
    seat first, the players who share first place."""
    if game.result_corrected_at is None:
        return {"correction": None, "shared_first": []}
    correction = game.events.filter(kind=GameEvent.Kind.CORRECT).order_by("-created_at").first()
    first = [wording.named(s) for s in seats if s.rank == 1] if game.winner_id is None else []
    return {"correction": correction, "shared_first": first}


def _bank_left(game: Game, seat: Seat) -> str:
    """What is left of the seat's time bank, for the page; as it runs for the player
    deciding now, in whole minutes rounded up (a bank is empty only when nothing is left)."""
    left = selectors.bank_left(game, seat, timezone.now())
    if left is None:
        return ""
    left = timedelta(minutes=-(-left.total_seconds() // 60))
    return wording.duration(left) if left else "none"


def _away_until(seat: Seat) -> datetime | None:
    """The end of the absence the seat's player is in now, if any."""
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    now = timezone.now()
    if profile is None or profile.away_until is None or profile.away_until <= now:
        return None
    current = [a for a in services.absences_of(seat.user, now) if a.starts_at <= now]
    return current[0].ends_at if current else None


def _log(
    game: Game, seats: list[Seat], names: dict[str, str], viewer: seen.Viewer
) -> list[dict[str, Any]]:
    """The moves in words as ``viewer`` may see them, each named after the players who
    held the seats then, with the game's other events (an organiser's actions,
    replacements) in their places."""
    by_id = {s.pk: s for s in seats}
    kind = kind_of(game)
    events = list(game.events.select_related("seat"))
    replaced = services.replacements(events, by_id)
    entries = []
    at = 0
    for move in seen.moves(game, viewer, seats):
        while at < len(events) and events[at].after_move < move.number:
            entries.append({"event": events[at]})
            at += 1
        then = wording.names_at(names, replaced, move.number)
        words = kind.describe_move(game.options, move.action, move.player, move.events, then)
        entries.append({"move": move, "words": words, "source": move.get_source_display()})
    entries += [{"event": event} for event in events[at:]]
    return entries


def _decision(
    game: Game,
    my_seat: Seat | None,
    state: Any,
    names: Mapping[str, str],
    confirm: str,
    chosen: str = "",
    notation: str = "",
) -> dict[str, Any] | None:
    """The decision form, for the seat whose decision it is, and only for them; from
    ``state`` as that player may see it. ``chosen`` and ``notation``: a submission to
    show again as it was (the form a signed-out player sent, back after signing in)."""
    if (
        my_seat is None
        or state is None
        or not game.is_active
        or game.is_paused
        or not selectors.decides_now(game, my_seat)
    ):
        return None
    kind, player, turn = kind_of(game), my_seat.player_name, game.turn_number
    return _decision_form(kind, state, player, names, turn, confirm, chosen, notation)


def _decision_form(
    kind: GameKind,
    state: Any,
    player: str,
    names: Mapping[str, str],
    turn: int,
    confirm: str = "",
    chosen: str = "",
    notation: str = "",
) -> dict[str, Any]:
    """What the decision form shows: the player's choices, grouped and in words; the
    template that shows them (the kind's own, if it has one) and what the kind adds
    for it, from ``state`` as the player may see it."""
    groups = kind.choices(state, player, names)
    legal = {c.action for g in groups for c in g.choices}
    return {
        "template": kind.decision_template or DECISION_TEMPLATE,
        "kind": kind.decision_context(state, player, names),
        "groups": groups,
        "turn": turn,
        "confirm": confirm if confirm in legal else "",
        "chosen": chosen if chosen in legal else "",
        "notation": notation[:4000],
        "can_eliminate": wording.needs_confirming(groups),
        "example": kind.example_action(state, player),
        "words": kind,  # its words for the form: odds, the confirmation box
    }


def sign_in_first(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` for a game's POST-only addresses: a visitor who is not signed
    in (signed out in another tab, a session expired) goes to sign in and then back to
    the game page, with a move they sent chosen again on its form; never back to this
    address, which a browser would open with a GET."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        kept = {key: request.POST.get(key, "")[:200] for key in ("action", "notation")}
        pk = kwargs.get("pk")
        url = reverse("games:detail", args=[pk]) if pk is not None else reverse("games:lobby")
        query = urlencode({key: value for key, value in kept.items() if value})
        return redirect_to_login(f"{url}?{query}#decision" if query else url)

    return wrapper


# --- pages ---------------------------------------------------------------------------


def with_seats_taken(games: Any) -> Any:
    """``games`` with ``taken``, the seats taken in each: counted for the rows of the page
    alone (a subquery each), not by grouping every game that matches before the page is
    cut (the lobby's games in play, the finished games, one page out of tens of thousands)."""
    taken = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game")
    return games.annotate(
        taken=Coalesce(Subquery(taken.annotate(n=Count("pk")).values("n")), Value(0))
    )


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    with_seats = with_seats_taken(Game.objects.select_related("creator__profile"))
    public = with_seats.filter(is_public=True)
    open_page = _page(request, "page", public.filter(status=Game.Status.OPEN), "created_at")
    for game in open_page:
        game.decision_text = wording.duration(game.decision_time)
    playing = public.filter(status__in=services.ACTIVE).select_related("to_move__user__profile")
    context = {
        "open_games": list(open_page),
        "open_page": open_page,
        "playing_page": _page(request, "playing", playing, "-started_at"),
        "finished": public.filter(status=Game.Status.OVER).order_by("-finished_at")[
            :RECENT_FINISHED
        ],
        "mine": selectors.my_games(request.user) if request.user.is_authenticated else [],
        "bot_form": BotGameForm(),
    }
    context["your_turn"] = sum(1 for row in context["mine"] if row["yours"])
    return render(request, "games/lobby.html", context)


def _page(request: HttpRequest, parameter: str, games: Any, order: str) -> Any:
    """One page of ``games`` (the page number in the query's ``parameter``)."""
    paginator = Paginator(games.order_by(order, "pk"), LOBBY_PAGE)
    return paginator.get_page(request.GET.get(parameter))


@login_required
@require_GET
def next_decision(request: HttpRequest) -> HttpResponse:
    """The game where the player's decision is due soonest; the lobby if there is none."""
    mine = [row for row in selectors.my_games(request.user) if row["yours"]]
    if not mine:
        messages.info(request, "No decision of yours is waiting: nothing to do for now.")
        return redirect("games:lobby")
    return redirect(_game_url(mine[0]["game"]) + "#decision")


@require_GET
def finished(request: HttpRequest) -> HttpResponse:
    """Finished games, a page at a time: the public ones, or (``?mine=1``) the viewer's."""
    mine = request.GET.get("mine") == "1" and request.user.is_authenticated
    games = (
        with_seats_taken(Game.objects)
        .filter(status__in=[Game.Status.OVER, Game.Status.ABANDONED])
        .select_related("winner__user__profile")
    )
    if mine:
        games = games.filter(seats__user=request.user)
    else:
        games = games.filter(is_public=True, status=Game.Status.OVER)
    page = _page(request, "page", games, "-finished_at")
    return render(request, "games/finished.html", {"page": page, "mine": mine})


@require_POST
@sign_in_first
def bots(request: HttpRequest) -> HttpResponse:
    """Play against bots, in one step from the lobby."""
    form = BotGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Refused: {_form_problem(form)}. {NOTHING_CHANGED}")
        return redirect("games:lobby")
    try:
        game = services.play_against_bots(request.user, **form.cleaned_data)
    except services.GameError as refusal:
        messages.error(request, f"Refused: {refusal}. {NOTHING_CHANGED}")
        return redirect("games:lobby")
    messages.success(request, f"“{game}” has started: good luck.")
    return redirect(_game_url(game))


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    # The game to make: ``?game=<kind>`` (the form posts it back), the site's first if none.
    chosen = request.POST.get("game") or request.GET.get("game") or DEFAULT_KIND
    try:
        form = CreateGameForm(request.POST if request.method == "POST" else None, kind=chosen)
    except UnknownKind:
        raise Http404("There is no such game to play.") from None
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_lobby_game(request.user, **form.service_arguments())
        except services.GameError as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, f"Your game “{game}” is open for players.")
            if game.seats_wanted in form.many_seats:
                messages.warning(request, form.fields["seats"].help_text)
            return redirect(_game_url(game))
    games = [(kind.key, kind.name) for kind in all_kinds()]
    return render(request, "games/create.html", {"form": form, "games": games})


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _visible_game(request, pk)
    again = {key: request.GET.get(key, "") for key in ("action", "notation")}
    return _game_page(
        request,
        game,
        confirm=request.GET.get("confirm", ""),
        chosen=again["action"],
        notation=again["notation"],
        done=request.GET.get("done", ""),
    )


@require_GET
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """What the game page polls (htmx, every GAME_PAGE_POLL_SECONDS): 204 while the game
    is as the page shows it (``v``, its version); else the parts of the page that
    changed, swapped in by id. The decision form is sent only when the decision itself
    changed (``d``), so a form the player is filling in is never replaced."""
    game = _visible_game(request, pk)
    if request.GET.get("v", "") == live_version(game):
        return HttpResponse(status=204)
    context = _game_context(request, game)
    context["swap_decision"] = request.GET.get("d", "") != context["decision_key"]
    return render(request, "games/_live.html", context)


def live_version(game: Game) -> str:
    """A short fingerprint of what the game page shows that others can change: the
    last move, the game's events (an organiser's actions, replacements), whose decision
    it is, the seats, its deadline, pause and status."""
    last = game.moves.order_by("-number").values_list("number", flat=True).first() or 0
    events = game.events.count()
    seats = game.seats.count()
    deadline = int(game.deadline.timestamp()) if game.deadline else 0
    paused = int(game.is_paused)
    waiting = "-".join(str(seat.pk) for seat in selectors.waiting_seats(game)) or "0"
    return f"{last}.{events}.{seats}.{waiting}.{deadline}.{paused}.{game.status}"


RECENT_LOG = 6  # log entries shown unfolded; earlier ones fold away


def _outcome(
    game: Game,
    seats: list[Seat],
    names: dict[str, str],
    done: str,
    me: Seat | None,
    viewer: seen.Viewer,
) -> dict[str, Any] | None:
    """What a decision just made did (``done``: its move number, from the redirect):
    the move in words with its dice and what followed, and whose decision it is now.
    A number that is no move of this game shows nothing."""
    if not done.isdecimal() or len(done) > 9:
        return None
    move = seen.move_numbered(game, int(done), viewer, seats)
    if move is None:
        return None
    kind = kind_of(game)
    words = kind.describe_move(game.options, move.action, move.player, move.events, names)
    parts = (words.action, seen.dice_said(words.dice, move), *words.followed)
    lines = [wording.sentence(part) for part in parts if part]
    # The viewer's own decision, made on this site's form: what the move's redirect says.
    # A turn of several lines sent at once (their actions joined by "; ") is told line by
    # line by the messages its page shows instead.
    mine = (
        me is not None
        and move.seat_id == me.pk
        and move.source == Move.Source.WEB
        and "; " not in move.action
    )
    recorded = (
        f"Your decision was recorded: {kind.action_phrase(game.options, move.action)}."
        if mine
        else ""
    )
    return {"move": move, "lines": lines, "now": now_waiting(game, me), "recorded": recorded}


def now_waiting(game: Game, me: Seat | None) -> str:
    """Whose decision the game waits for now, in a sentence, for the player ``me``."""
    return selectors.waiting_sentence(
        game, me, "It is your decision again.", "Now the game waits for {}"
    )


def _game_page(
    request: HttpRequest,
    game: Game,
    status: int = 200,
    confirm: str = "",
    chosen: str = "",
    notation: str = "",
    done: str = "",
) -> HttpResponse:
    """The game page; a refused POST answers with it and its 4xx status, so a script
    (or a browser's history) can tell a refusal from a success, which redirects."""
    context = _game_context(request, game, confirm, chosen, notation, done)
    return render(request, "games/detail.html", context, status=status)


def _game_context(
    request: HttpRequest,
    game: Game,
    confirm: str = "",
    chosen: str = "",
    notation: str = "",
    done: str = "",
) -> dict[str, Any]:
    seats = _seats(game)
    names = wording.player_names(seats)
    viewer = seen.viewer_of(game, request.user)
    kind = kind_of(game)
    position = seen.position(game, viewer)
    state = kind.load(position) if position is not None else None
    my_seat = selectors.seat_for(game, request.user)
    user = request.user
    organiser = selectors.can_organise(game, user)
    is_open = game.status == Game.Status.OPEN
    has_room = len(seats) < game.seats_wanted
    choosing = game.home_assignment == Game.HomeAssignment.CHOOSE
    log = _log(game, seats, names, viewer)
    last_events = next((entry["move"].events for entry in reversed(log) if "move" in entry), [])
    context: dict[str, Any] = {
        "game": game,
        "seats": _seat_rows(game, seats, state),
        "with_roles": bool(kind.seat_roles(game.options)),
        "my_seat": my_seat,
        "organiser": organiser,
        "is_open": is_open,
        "choosing": choosing,
        "waiting_for": selectors.waiting_seats(game, seats),
        "decision_time": wording.duration(game.decision_time),
        "bank_time": wording.duration(game.bank_time),
        "increment": wording.duration(game.increment),
        "retreat_time": wording.duration(game.retreat_time),
        "start_lines": kind.describe_start(game.start_record, names),
        "start_heading": kind.start_heading,
        "log": log,
        "log_earlier": log[:-RECENT_LOG],
        "log_recent": log[-RECENT_LOG:],
        "outcome": _outcome(game, seats, names, done, my_seat, viewer),
        "live_version": live_version(game),
        "poll_seconds": settings.GAME_PAGE_POLL_SECONDS,
        "decision": _decision(game, my_seat, state, names, confirm, chosen, notation),
        "move_form": MoveForm(),
        "pending_retreat": kind.is_reply(state) if state is not None else False,
        "reply_words": kind.reply_words,
        "dice": seen.dice_record(game, seats, viewer),
        "reply_name": kind.reply_name,
        "resign_rank_words": kind.resign_rank_words,
        **_result_context(game, seats),
        **_position_context(game, position, names, last_events, seats),
    }
    if is_open:
        context["can_join"] = user.is_authenticated and my_seat is None and has_room
        context["can_leave"] = my_seat is not None and game.creator_id != user.pk
        context["join_form"] = JoinForm(game)
        if organiser:
            context["cancel_confirmation"] = CANCEL_CONFIRMATION
            context["bot_form"] = AddBotForm(game) if has_room else None
            context["can_start"] = len(seats) >= services.MIN_SEATS
            if game.home_assignment == Game.HomeAssignment.ASSIGNED:
                context["assign_form"] = AssignHomeForm(game)
    decision = context["decision"]
    context["decision_key"] = f"{decision['turn']}.{my_seat.pk}" if decision else "none"
    if my_seat is not None and game.status == Game.Status.PLAY:
        if selectors.still_playing(game, my_seat):
            context["resign_form"] = ResignForm()
            context["resign_place"] = selectors.resign_place(game, my_seat)
    if organiser and not game.is_public:
        context["invite_url"] = request.build_absolute_uri(
            reverse("games:invite", args=[game.invite_token])
        )
    return context


def _refusal_status(refusal: services.GameError) -> int:
    """403 for a decision that is not the caller's, 409 for a form the game has moved on
    from, 400 for a move that is not legal or not confirmed."""
    if isinstance(refusal, services.NotYourDecision):
        return 403
    if isinstance(refusal, services.StaleForm):
        return 409
    return 400


@require_POST
@sign_in_first
def move(request: HttpRequest, pk: int) -> HttpResponse:
    # The happy path reads the game once, inside the service's locked transaction; the
    # visibility check runs only when the decision is refused (a stranger to a private
    # game gets the same 404 as on its page).
    post = request.POST
    if post.get(KIND_FORM) and not post.get("notation", "").strip():
        # A kind's own decision form: its fields make the action lines, typed for it.
        game = _visible_game(request, pk)
        try:
            built = _built_turn(game, selectors.seat_for(game, request.user), post)
        except Refused as refusal:
            messages.error(request, _not_accepted(refusal))
            return _game_page(request, game, status=_kind_refusal_status(refusal))
        if built is not None:
            post = post.copy()
            post["notation"] = built
    form = MoveForm(post)
    if not form.is_valid():
        game = _visible_game(request, pk)
        problems = "; ".join(e for errors in form.errors.values() for e in errors)
        if "turn" in form.errors:
            problems = "this form is damaged (its turn number is missing or wrong)"
        messages.error(request, f"Your move was not accepted: {problems} {NOTHING_CHANGED}")
        return _game_page(request, game, status=400)
    text, turn = form.text, form.cleaned_data["turn"]
    if "\n" in text or ";" in text:
        return _script(request, pk, text, turn)
    try:
        decision = services.submit_move(
            pk,
            request.user,
            text,
            turn,
            source=Move.Source.WEB,
            confirm_elimination=form.cleaned_data["confirm_elimination"],
        )
    except services.NeedsConfirmation as risky:
        game = _visible_game(request, pk)
        messages.error(request, _confirm_message(game, risky))
        return _game_page(request, game, status=400, confirm=risky.action)
    except services.GameError as refusal:
        game = _visible_game(request, pk)
        messages.error(request, f"Your move was not accepted: {refusal}")
        return _game_page(request, game, status=_refusal_status(refusal))
    game = decision.move.game
    if decision.duplicate:
        words = kind_of(game).action_phrase(game.options, decision.move.action)
        messages.info(request, _already_recorded(words))
    # A decision recorded is said on the game page the redirect opens, from its move's
    # number (``done``: ``_outcome``), not in a message cookie signed here and read and
    # cleared there: 5% of a move's instructions.
    # The address is already a path: ``redirect`` would first try it as a view's name.
    return HttpResponseRedirect(_game_url(game, done=str(decision.move.number)))


def _script(request: HttpRequest, pk: int, text: str, turn: int) -> HttpResponse:
    """Several action lines typed at once: a whole turn, for a kind that takes one
    (RisiKo, K34); its lines run as far as the turn goes, and the page reports each."""
    game = _visible_game(request, pk)
    if not kind_of(game).turn_scripts:
        messages.error(
            request,
            f"Your move was not accepted: this game takes one move at a time. {NOTHING_CHANGED}",
        )
        return _game_page(request, game, status=400)
    try:
        move, report = services.submit_script(pk, request.user, text, turn, source=Move.Source.WEB)
    except services.GameError as refusal:
        messages.error(request, f"Your turn was not accepted: {refusal}")
        return _game_page(request, game, status=_refusal_status(refusal))
    _report_messages(request, report)
    if move is None:
        messages.error(request, f"No line of your turn could be done now. {NOTHING_CHANGED}")
        return _game_page(request, game, status=400)
    return redirect(_game_url(game, done=str(move.number)))


class NotDeciding(Refused):
    """A kind's own decision form sent by someone whose decision it is not (now)."""


def _built_turn(game: Game, seat: Seat | None, post: Mapping[str, str]) -> str | None:
    """The action lines a kind's own decision form sent (its ``script_from_form``), read
    against the game as the player may see it; None for a post that is no such form's.
    ``Refused``: fields that make no turn, or a form sent by someone not deciding now."""
    if seat is None or not selectors.decides_now(game, seat) or game.is_paused:
        raise NotDeciding("it is not your decision now")
    kind = kind_of(game)
    position = seen.position(game, seen.seat_viewer(game, seat))
    if position is None:
        raise NotDeciding("the game has not started")
    return kind.script_from_form(kind.load(position), seat.player_name, post)


def _not_accepted(refusal: Refused) -> str:
    return f"Your turn was not accepted: {wording.sentence(refusal)} {NOTHING_CHANGED}"


def _kind_refusal_status(refusal: Refused) -> int:
    return 403 if isinstance(refusal, NotDeciding) else 400


def _report_lines(report: Sequence[Mapping[str, Any]]) -> list[tuple[bool, str]]:
    """A turn script's report in words, a line each, with whether the line was done."""
    return [(entry["status"] == "done", wording.report_line(entry)) for entry in report]


def _report_messages(request: HttpRequest, report: Sequence[Mapping[str, Any]]) -> None:
    """A turn script's report, one message a line."""
    for done, said in _report_lines(report):
        (messages.success if done else messages.warning)(request, said)


def _confirm_message(game: Game, risky: services.NeedsConfirmation) -> str:
    kind = kind_of(game)
    words = kind.action_phrase(game.options, risky.action)
    return (
        f"{kind.confirmation_warning(words)} Tick “{kind.confirmation_label}” to "
        f"submit it. {NOTHING_CHANGED}"
    )


def _already_recorded(words: str) -> str:
    """A second submission of a decision already made (a double click, two tabs): it
    was not applied; say what was."""
    return (
        f"Your decision for this turn was already recorded: {words}. This submission "
        "was not applied."
    )


def _service_post(request: HttpRequest, pk: int, act: Callable[[Game], str]) -> HttpResponse:
    """Run one service call for a POST; its refusal becomes an error message."""
    game = _visible_game(request, pk)
    try:
        done = act(game)
    except services.GameError as refusal:
        messages.error(request, f"Refused: {wording.sentence(refusal)} {NOTHING_CHANGED}")
    else:
        messages.success(request, done)
    return redirect(_game_url(game))


def _form_problem(form: Any) -> str:
    return "; ".join(f"{e}" for errors in form.errors.values() for e in errors)


@require_POST
@sign_in_first
def join(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        form = JoinForm(game, request.POST)
        if not form.is_valid():
            raise services.GameError(f"choose a free home continent ({_form_problem(form)})")
        services.join_game(
            game.pk, request.user, form.cleaned_data["home"] or None, _invite_token(request, game)
        )
        return f"You joined “{game}”."

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def mute(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        wanted = request.POST.get("muted")
        if wanted not in ("1", "0"):
            raise services.GameError("say whether to mute the game or not")
        services.set_muted(game.pk, request.user, wanted == "1")
        if wanted == "1":
            return (
                f"“{game}” is muted: no mail about it, not even your decisions, except "
                "a notice when a deadline of yours passes."
            )
        return f"You get mail about “{game}” again."

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def dice_words(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        seat = services.set_dice_words(game.pk, request.user, request.POST.get("words", ""))
        if not seat.dice_words:
            return "You added no words to the dice: the site's seed alone will roll them."
        return (
            "Your words are added to the dice: they will roll from the seed and everyone's words."
        )

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        services.leave_game(game.pk, request.user)
        return f"You left “{game}”."

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def resign(request: HttpRequest, pk: int) -> HttpResponse:
    game = _visible_game(request, pk)
    form = ResignForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Refused: {_form_problem(form)}. {NOTHING_CHANGED}")
        return _game_page(request, game, status=400)
    try:
        services.resign(game.pk, request.user)
    except services.GameError as refusal:
        messages.error(request, f"Refused: {refusal}. {NOTHING_CHANGED}")
        return _game_page(request, game, status=400)
    messages.success(request, "You resigned: you have left the game. The others are told.")
    return redirect(_game_url(game))


@require_POST
@sign_in_first
def start(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        services.start_game(game.pk, request.user)
        return "The game has started: setup begins."

    return _service_post(request, pk, act)


CANCEL_CONFIRMATION = "Yes, cancel this game for everyone"


@require_POST
@sign_in_first
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        # The form's box asks first (the browser requires it; this is for any other client).
        if request.POST.get("sure") != "on":
            raise services.GameError(f"tick “{CANCEL_CONFIRMATION}” to cancel it")
        services.cancel_game(game.pk, request.user)
        return "The game was cancelled."

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        form = AddBotForm(game, request.POST)
        if not form.is_valid():
            raise services.GameError(f"the bot form is not complete ({_form_problem(form)})")
        seat = services.add_bot(
            game.pk, request.user, form.cleaned_data["bot"], form.cleaned_data["home"] or None
        )
        return f"{seat.display_name} took a seat."

    return _service_post(request, pk, act)


@require_POST
@sign_in_first
def assign_home(request: HttpRequest, pk: int) -> HttpResponse:
    def act(game: Game) -> str:
        form = AssignHomeForm(game, request.POST)
        if not form.is_valid():
            raise services.GameError(f"choose a seat and a continent ({_form_problem(form)})")
        services.assign_home(
            game.pk, request.user, form.cleaned_data["seat"], form.cleaned_data["home"]
        )
        return "The home continent was assigned."

    return _service_post(request, pk, act)


@require_GET
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """Remember the invite in the session, so the private game shows to this visitor."""
    game = get_object_or_404(Game, invite_token=token)
    invites = dict(request.session.get(INVITES, {}))
    invites[str(game.pk)] = token
    request.session[INVITES] = invites
    return redirect(_game_url(game))


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = _visible_game(request, pk)
    if game.position is None:  # a kind's start may record nothing
        messages.info(request, "This game has not started: there is nothing to replay yet.")
        return redirect(_game_url(game))
    seats = _seats(game)
    try:
        asked = int(request.GET.get("step", "0"))
    except ValueError:
        asked = 0
    last, move_at, state = seen.replay_step(game, seen.viewer_of(game, request.user), asked, seats)
    step = min(max(asked, 0), last)
    names = wording.player_names(seats)
    kind = kind_of(game)
    words = None
    if move_at is not None:
        words = kind.describe_move(
            game.options, move_at.action, move_at.player, move_at.events, names
        )
    url = reverse("games:replay", args=[game.pk])
    steps = {"first": 0, "previous": max(step - 1, 0), "next": min(step + 1, last), "last": last}
    return render(
        request,
        "games/replay.html",
        {
            "game": game,
            "step": step,
            "last": last,
            "move": move_at,
            "words": words,
            "links": {key: f"{url}?step={value}" for key, value in steps.items()},
            "start_lines": kind.describe_start(game.start_record, names),
            **_result_context(game, seats),
            **_position_context(
                game, kind.dump(state), names, move_at.events if move_at else [], seats
            ),
        },
    )


@require_GET
def record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game record (R30) as a JSON download: positions, moves and their dice."""
    game = _visible_game(request, pk)
    if game.position is None:
        raise Http404("This game has not started: it has no record yet.")
    text = seen.record_json(game, seen.viewer_of(game, request.user))
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{game.kind}-game-{game.pk}.json"'
    return response


# --- one-click decision links ----------------------------------------------------------


def _last_events(game: Game, viewer: seen.Viewer) -> list[dict[str, Any]]:
    """The events of the game's last move as ``viewer`` sees them (none before the
    first)."""
    last = seen.last_move(game, viewer)
    return last.events if last is not None else []


def _decided(
    request: HttpRequest,
    game: Game,
    seat: Seat,
    move: Move,
    words: str,
    duplicate: str,
    report: Sequence[str] = (),
) -> HttpResponse:
    """The decision link's page after its decision was made: what it did (``report``:
    a turn script's lines, each as it went) and whose decision it is now."""
    context: dict[str, Any] = {
        "game": game,
        "done": words,
        "duplicate": duplicate,
        "report": report,
    }
    game.refresh_from_db()
    seats = _seats(game)
    names = wording.player_names(seats)
    viewer = seen.seat_viewer(game, seat)
    context["outcome"] = _outcome(game, seats, names, str(move.number), seat, viewer)
    return render(request, "games/decide.html", context)


@require_http_methods(["GET", "POST"])
def decide(request: HttpRequest, token: str) -> HttpResponse:
    """The decision form a mail links to: no password, and only this one decision.

    The link signs no one in; its holder can make the decision it was made for while
    that decision is open, and nothing else."""
    try:
        link = links.read(token)
        game, seat = links.check(link, request.user, timezone.now())
    except links.LinkRefused as refusal:
        return render(
            request, "games/decide.html", {"refusal": str(refusal)}, status=refusal.status
        )
    profile = getattr(seat.user, "profile", None)
    if profile is not None:  # times on this page are in the player's own zone
        timezone.activate(zoneinfo.ZoneInfo(profile.time_zone))
    error, confirm = "", ""
    if request.method == "POST":
        post = request.POST
        if post.get(KIND_FORM) and not post.get("notation", "").strip():
            try:
                built = _built_turn(game, seat, post)
            except Refused as refusal:
                error = _not_accepted(refusal)
            else:
                if built is not None:
                    post = post.copy()
                    post["notation"] = built
        form = MoveForm(post)
        if error:
            pass
        elif not form.is_valid():
            error = "Your decision was not accepted: the form was incomplete or damaged."
        elif kind_of(game).turn_scripts and ("\n" in form.text or ";" in form.text):
            assert seat.user is not None
            try:
                move, report = services.submit_script(
                    game.pk, seat.user, form.text, link.turn, source=Move.Source.LINK
                )
            except services.GameError as refusal:
                error = f"Your turn was not accepted: {refusal}"
            else:
                lines = [said for _, said in _report_lines(report)]
                if move is None:
                    error = " ".join(
                        [*lines, f"No line of your turn could be done now. {NOTHING_CHANGED}"]
                    )
                else:
                    return _decided(request, game, seat, move, move.action, "", lines)
        else:
            assert seat.user is not None
            try:
                # The turn is the link's, not the form's: the link is for that decision.
                decision = services.submit_move(
                    game.pk,
                    seat.user,
                    form.text,
                    link.turn,
                    source=Move.Source.LINK,
                    confirm_elimination=form.cleaned_data["confirm_elimination"],
                )
            except services.NeedsConfirmation as risky:
                confirm = risky.action
                error = _confirm_message(game, risky)
            except services.GameError as refusal:
                error = f"Your decision was not accepted: {refusal}"
            else:
                words = kind_of(game).action_phrase(game.options, decision.move.action)
                done = _already_recorded(words) if decision.duplicate else ""
                return _decided(request, game, seat, decision.move, words, done)
    seats = _seats(game)
    names = wording.player_names(seats)
    viewer = seen.seat_viewer(game, seat)
    kind = kind_of(game)
    position = seen.position(game, viewer)
    state = kind.load(position) if position is not None else None
    context = {
        "game": game,
        "seat": seat,
        "error": error,
        "decision": _decision_form(kind, state, seat.player_name, names, link.turn, confirm),
        "decision_action": request.path,
        **_position_context(game, position, names, _last_events(game, viewer), seats),
    }
    return render(request, "games/decide.html", context, status=400 if error else 200)
