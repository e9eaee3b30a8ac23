"""Pages and JSON of the ratings app: players' public pages, ladders and leaderboards."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.models import Game
from games.views import sign_in_first
from ratings import ladder as ladders
from ratings import pages, selectors
from ratings.errors import RatingError
from ratings.models import Ladder, LadderPlayer, Season
from tournaments.selectors import organises


def _player(name: str) -> AbstractBaseUser:
    user: AbstractBaseUser = get_object_or_404(get_user_model(), username=name, is_active=True)
    return user


@require_GET
def player_ratings_json(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(selectors.ratings_json(_player(name), viewer=request.user))


def _ladder(request: HttpRequest, ladder_id: int) -> Ladder:
    ladder = get_object_or_404(Ladder.objects.select_related("league"), pk=ladder_id)
    if not selectors.can_see_ladder(ladder, request.user):
        raise Http404("No such ladder.")
    return ladder


def _season(request: HttpRequest, ladder: Ladder) -> Season:
    """The season asked for (``?season=N``), else the running (or the last) one."""
    number = request.GET.get("season", "")
    seasons = ladder.seasons.all()
    if number:
        if not number.isdigit():
            raise Http404("No such season.")
        return get_object_or_404(seasons, number=int(number))
    season = seasons.order_by("-number").first()
    if season is None:
        raise Http404("No season yet.")
    return season


@require_GET
def leaderboard_json(request: HttpRequest, ladder_id: int) -> JsonResponse:
    ladder = _ladder(request, ladder_id)
    return JsonResponse(selectors.leaderboard_json(ladder, _season(request, ladder)))


@require_GET
def player(request: HttpRequest, name: str) -> HttpResponse:
    """A player's public page: ratings and their chart, games, results, reliability."""
    user = _player(name)
    profile = getattr(user, "profile", None)
    context = {
        "shown_user": user,
        "display_name": (profile.display_name if profile else "") or user.get_username(),
        "global": selectors.global_rating(user),
        "ladders": selectors.ladder_ratings(user, viewer=request.user),
        "chart": pages.rating_chart(user, request.user),
        "games": pages.games_of(user, request.user),
        "results": pages.tournament_results(user, request.user),
        "reliability": pages.reliability(user),
    }
    return render(request, "ratings/player.html", context)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request, "ratings/index.html", {"ladders": selectors.visible_ladders(request.user)}
    )


@require_GET
def ladder(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """A ladder: its format, a season's leaderboard, its games in progress, and the
    viewer's place on it."""
    ladder = _ladder(request, ladder_id)
    season = _season(request, ladder)
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
        "organiser": organises(request.user, ladder.league),
    }
    return render(request, "ratings/ladder.html", context)


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
    def act(ladder: Ladder) -> str:
        wanted = request.POST.get("max_games", "1")
        if not wanted.isdigit():
            raise RatingError("say how many games at once, as a number")
        ladders.join(ladder, request.user, int(wanted))
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
