"""Pages and JSON of the ratings app: players' public pages, ladders and leaderboards."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from ratings import selectors
from ratings.models import Ladder, Season


def _player(name: str) -> AbstractBaseUser:
    user: AbstractBaseUser = get_object_or_404(get_user_model(), username=name, is_active=True)
    return user


@require_GET
def player_ratings_json(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(selectors.ratings_json(_player(name)))


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
