"""Pages of the tournaments app: leagues (and, below, their events)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.views import sign_in_first
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import League, Membership


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    leagues = selectors.visible_leagues(request.user)
    return render(request, "tournaments/index.html", {"leagues": leagues})


def _league(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(League, slug=slug)
    if not selectors.visible_leagues(request.user).filter(pk=league.pk).exists():
        raise Http404("No such league.")
    return league


@require_GET
def league(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    members = league.memberships.filter(status=Membership.Status.ACTIVE).select_related(
        "user__profile"
    )
    context = {
        "league": league,
        "members": members,
        "membership": selectors.membership_of(request.user, league),
        "organiser": selectors.organises(request.user, league),
    }
    return render(request, "tournaments/league.html", context)


def _league_post(request: HttpRequest, slug: str, act: Callable[[League], str]) -> HttpResponse:
    league = _league(request, slug)
    try:
        done = act(league)
    except TournamentError as refusal:
        messages.error(request, f"Refused: {refusal}. Nothing was changed.")
    else:
        messages.success(request, done)
    return redirect("tournaments:league", slug=league.slug)


@require_POST
@sign_in_first
def join(request: HttpRequest, slug: str) -> HttpResponse:
    def act(league: League) -> str:
        membership = services.join_league(league, request.user)
        if membership.status == Membership.Status.PENDING:
            return f"Your request to join {league} waits for an organiser."
        return f"Welcome to {league}."

    return _league_post(request, slug, act)


@require_POST
@sign_in_first
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    def act(league: League) -> str:
        services.leave_league(league, request.user)
        return f"You left {league}."

    return _league_post(request, slug, act)
