"""Pages and JSON of the ratings app: players' public pages, ladders and leaderboards.

A page or JSON of one game's ratings takes the game as ``?game=<kind>`` (World War 5's,
``ww5``, unless named): an address made before there were kinds reads as it did."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.kinds import DEFAULT_KIND, UnknownKind, all_kinds, kind_named
from games.models import Game
from games.views import sign_in_first
from ratings import selectors
from ratings.errors import RatingError
from ratings.forms import JoinForm, SeasonForm
from ratings.models import Ladder, LadderPlayer, Season
from ratings.selectors import pages
from ratings.services import ladder as ladders
from tournaments.selectors import organises


def _player(name: str) -> AbstractBaseUser:
    # A NUL byte never names anyone, and PostgreSQL refuses it in a query's text.
    users = get_user_model().objects.filter(is_active=True)
    found: AbstractBaseUser | None = None if "\x00" in name else users.filter(username=name).first()
    if found is None:
        raise Http404("No such player.")
    return found


def _json_not_found(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    """A JSON address that finds nothing answers 404 in JSON, with the reason."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as missing:
            return JsonResponse({"error": str(missing)}, status=404)

    return wrapped


def _kind(request: HttpRequest) -> str:
    """The game asked for (``?game=<kind>``), else World War 5."""
    key = request.GET.get("game", "") or DEFAULT_KIND
    try:
        return kind_named(key).key
    except UnknownKind:
        raise Http404("No such game.") from None


@require_GET
@_json_not_found
def player_ratings_json(request: HttpRequest, name: str) -> JsonResponse:
    user = _player(name)
    return JsonResponse(selectors.ratings_json(user, viewer=request.user, kind=_kind(request)))


def _ladder(request: HttpRequest, ladder_id: int) -> Ladder:
    ladder = get_object_or_404(Ladder.objects.select_related("league"), pk=ladder_id)
    if not selectors.can_see_ladder(ladder, request.user):
        raise Http404("No such ladder.")
    return ladder


def _season(request: HttpRequest, ladder: Ladder) -> Season:
    """The season asked for (``?season=N``), else the running (or the last) one."""
    seasons = ladder.seasons.all()
    if request.GET.get("season", ""):
        asked = SeasonForm(request.GET)
        if not asked.is_valid():
            raise Http404("No such season.")
        season = seasons.filter(number=asked.cleaned_data["season"]).first()
        if season is None:
            raise Http404("No such season.")
        return season
    season = seasons.order_by("-number").first()
    if season is None:
        raise Http404("No season yet.")
    return season


@require_GET
@_json_not_found
def leaderboard_json(request: HttpRequest, ladder_id: int) -> JsonResponse:
    ladder = _ladder(request, ladder_id)
    return JsonResponse(selectors.leaderboard_json(ladder, _season(request, ladder)))


@require_GET
def player(request: HttpRequest, name: str) -> HttpResponse:
    """A player's public page: their ratings and their chart in each game they played,
    games, results, reliability."""
    user = _player(name)
    profile = getattr(user, "profile", None)
    sight = selectors.Sight(request.user)  # shared: each game is asked about once
    ratings = selectors.ratings_by_kind(user, viewer=request.user)
    charts = pages.rating_charts(user, sight)
    for game in ratings:
        game["chart"] = charts.get(game["kind"])
    context = {
        "shown_user": user,
        "display_name": (profile.display_name if profile else "") or user.get_username(),
        "ratings": ratings,
        "games": pages.games_of(user, sight),
        "results": pages.tournament_results(user, request.user),
        "reliability": pages.reliability(user),
        "global_min_games": selectors.GLOBAL_MIN_GAMES,
    }
    return render(request, "ratings/player.html", context)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """A game's leaderboard (``?game=<kind>``): every player rated in its global pool."""
    kind = kind_named(_kind(request))
    context = {
        "kind": kind,
        "others": [other for other in all_kinds() if other.key != kind.key],
        "lines": selectors.global_leaderboard(kind.key),
        "global_min_games": selectors.GLOBAL_MIN_GAMES,
    }
    return render(request, "ratings/leaderboard.html", context)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    context = {"ladders": selectors.visible_ladders(request.user), "kinds": all_kinds()}
    return render(request, "ratings/index.html", context)


@require_GET
def ladder(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """A ladder: its format, a season's leaderboard, its games in progress, and the
    viewer's place on it."""
    ladder = _ladder(request, ladder_id)
    return _ladder_page(request, ladder, _season(request, ladder))


def _ladder_page(
    request: HttpRequest, ladder: Ladder, season: Season, status: int = 200
) -> HttpResponse:
    running = (
        Game.objects.filter(
            ladder_game__season=season,
            is_public=True,
            status__in=[Game.Status.SETUP, Game.Status.PLAY],
        )
        .order_by("-started_at")
        .prefetch_related("seats__user__profile")
    )
    context = {
        "ladder": ladder,
        "season": season,
        "seasons": ladder.seasons.order_by("-number"),
        "lines": selectors.leaderboard(season),
        "running": running,
        "entry": selectors.entry_of(ladder, request.user),
        "waiting": selectors.waiting_room(ladder),
        "organiser": organises(request.user, ladder.league),
    }
    return render(request, "ratings/ladder.html", context, status=status)


@require_GET
def seat_effect(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """Win share by seat, with Wilson intervals: for the league's organisers."""
    ladder = _ladder(request, ladder_id)
    if not pages.may_read_seat_effect(ladder, request.user):
        raise Http404("No such page.")
    shares = pages.seat_effect(ladder)
    return render(request, "ratings/seats.html", {"ladder": ladder, "shares": shares})


def _ladder_post(
    request: HttpRequest, ladder_id: int, act: Callable[[Ladder], str]
) -> HttpResponse:
    ladder = _ladder(request, ladder_id)
    try:
        done = act(ladder)
    except RatingError as refusal:
        messages.error(request, f"Refused: {refusal}. Nothing was changed.")
    else:
        messages.success(request, done)
    return redirect("ratings:ladder", ladder_id=ladder.pk)


def _own_entry(request: HttpRequest, ladder: Ladder) -> LadderPlayer:
    entry = selectors.entry_of(ladder, request.user)
    if entry is None:
        raise RatingError("you are not on this ladder")
    return entry


@require_POST
@sign_in_first
def join(request: HttpRequest, ladder_id: int) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        # A damaged form: its page again, the reason said, nothing changed.
        ladder = _ladder(request, ladder_id)
        problems = "; ".join(e for errors in form.errors.values() for e in errors)
        messages.error(request, f"Refused: {problems}. Nothing was changed.")
        return _ladder_page(request, ladder, _season(request, ladder), status=400)
    wanted = form.cleaned_data["max_games"]

    def act(ladder: Ladder) -> str:
        ladders.join(ladder, request.user, wanted)
        return f"You are on the ladder, for up to {wanted} games at once."

    return _ladder_post(request, ladder_id, act)


@require_POST
@sign_in_first
def pause(request: HttpRequest, ladder_id: int) -> HttpResponse:
    def act(ladder: Ladder) -> str:
        ladders.pause(_own_entry(request, ladder))
        return "Paused: no new ladder games until you resume; your games go on."

    return _ladder_post(request, ladder_id, act)


@require_POST
@sign_in_first
def resume(request: HttpRequest, ladder_id: int) -> HttpResponse:
    def act(ladder: Ladder) -> str:
        ladders.resume(_own_entry(request, ladder))
        return "Welcome back: you wait for your next ladder game."

    return _ladder_post(request, ladder_id, act)


@require_POST
@sign_in_first
def leave(request: HttpRequest, ladder_id: int) -> HttpResponse:
    def act(ladder: Ladder) -> str:
        ladders.leave(_own_entry(request, ladder))
        return "You left the ladder; your games still running go on."

    return _ladder_post(request, ladder_id, act)
