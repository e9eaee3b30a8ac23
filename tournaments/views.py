"""Pages of the tournaments app: leagues (and, below, their events)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Entry, League, Membership, Tournament
from tournaments.selectors import nextstep, report

T = TypeVar("T")


def sign_in_first(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` for the POST-only addresses of leagues and events: a visitor
    who is not signed in goes to sign in and then back to the event's (or the league's)
    page, to press its button again; never back to this address, which a browser would
    open with a GET, and never elsewhere."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if "league_slug" in kwargs:
            back = reverse("tournaments:tournament", args=[kwargs["league_slug"], kwargs["slug"]])
        else:
            back = reverse("tournaments:league", args=[kwargs["slug"]])
        return redirect_to_login(back)

    return wrapper


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    leagues = selectors.visible_leagues(request.user)
    events = selectors.visible_events(request.user).order_by("-created_at")
    context = {
        "leagues": leagues,
        "open_events": [e for e in events if e.status == Tournament.Status.REGISTRATION],
        "running_events": [
            e for e in events if e.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
        ],
        "finished_events": [e for e in events if e.status == Tournament.Status.FINISHED][:20],
        "draft_events": [e for e in events if e.status == Tournament.Status.DRAFT],
    }
    return render(request, "tournaments/index.html", context)


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
        "events": selectors.events_of(league, request.user),
        "results": selectors.past_results(league, request.user),
    }
    return render(request, "tournaments/league.html", context)


def _tell(request: HttpRequest, act: Callable[[T], str], subject: T) -> None:
    """Run one service call for a POST: what it did, or its refusal, becomes a message."""
    try:
        done = act(subject)
    except TournamentError as refusal:
        messages.error(request, f"Refused: {refusal}. Nothing was changed.")
    else:
        messages.success(request, done)


def _league_post(request: HttpRequest, slug: str, act: Callable[[League], str]) -> HttpResponse:
    league = _league(request, slug)
    _tell(request, act, league)
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


# --- tournaments ------------------------------------------------------------------------


def _visible(request: HttpRequest, tournament: Tournament) -> Tournament:
    """The event, if the user may see it: public events of leagues they can see; private
    ones for their league's organisers and their own players; events being prepared only
    for organisers. Anyone else is told it does not exist."""
    organiser = selectors.organises(request.user, tournament.league)
    league_visible = selectors.visible_leagues(request.user).filter(pk=tournament.league_id)
    if not league_visible.exists() or not (
        tournament.is_public
        or organiser
        or (request.user.is_authenticated and tournament.entries.filter(user=request.user).exists())
    ):
        raise Http404("No such tournament.")
    if tournament.status == Tournament.Status.DRAFT and not organiser:
        raise Http404("No such tournament.")
    return tournament


def _tournament(request: HttpRequest, league_slug: str, slug: str) -> Tournament:
    tournament = get_object_or_404(
        Tournament.objects.select_related("league"), league__slug=league_slug, slug=slug
    )
    return _visible(request, tournament)


def _tournament_by_id(request: HttpRequest, pk: int) -> Tournament:
    return _visible(request, get_object_or_404(Tournament.objects.select_related("league"), pk=pk))


@require_GET
def tournament_by_id(request: HttpRequest, pk: int) -> HttpResponse:
    event = _tournament_by_id(request, pk)
    return redirect("tournaments:tournament", league_slug=event.league.slug, slug=event.slug)


@require_GET
def standings_json(request: HttpRequest, pk: int) -> JsonResponse:
    """The event's format, settings, rounds, tables, byes and standings (``report``)."""
    event = _tournament_by_id(request, pk)
    response = JsonResponse(report.event_report(event), json_dumps_params={"indent": 1})
    response["Cache-Control"] = "public, max-age=30" if event.is_public else "private, no-store"
    return response


@require_GET
def tournament(request: HttpRequest, league_slug: str, slug: str) -> HttpResponse:
    event = _tournament(request, league_slug, slug)
    entries = event.entries.select_related("user__profile")
    mine = entries.filter(user=request.user).first() if request.user.is_authenticated else None
    whole = report.event_report(event)
    mine_now = _my_table(whole, mine.pk) if mine is not None else None
    context = {
        "tournament": event,
        "report": whole,
        "rounds": list(reversed(whole["rounds"])),  # the latest first
        "entries": [e for e in entries if e.status != Entry.Status.WAITING],
        "waiting": [e for e in entries if e.status == Entry.Status.WAITING],
        "entry": mine,
        # Offered only where pressing it would be taken: never to someone entered
        # (withdrawn players may come back), and only while the event takes players.
        "may_register": (mine is None or mine.status == Entry.Status.WITHDRAWN)
        and selectors.registration_refusal(event, timezone.now()) is None,
        "my_table": mine_now,
        "swiss_rounds_planned": report.planned_swiss_rounds(event),
        "seed_matches": report.seed_matches(event),
        "my_round": nextstep.current_round(event, whole, mine.pk) if mine is not None else None,
        "organiser": selectors.organises(request.user, event.league),
        "rule_words": report.rule_words(event),
        "ranking": report.ranking_sentence(event),
    }
    if context["organiser"]:
        context["jobs"] = list(event.jobs.all()[:5])
        context["jobs_pending"] = any(job.pending for job in context["jobs"])
    return render(request, "tournaments/tournament.html", context)


def _my_table(whole: dict[str, Any], entry_id: int) -> dict[str, Any] | None:
    """The player's table in the latest round, with the round's number."""
    if not whole["rounds"]:
        return None
    latest = whole["rounds"][-1]
    for table in latest["tables"]:
        for seat in table["seats"]:
            if seat["player"] == entry_id:
                return {"round": latest, "table": table, "seat": seat}
    return None


def _tournament_post(
    request: HttpRequest, league_slug: str, slug: str, act: Callable[[Tournament], str]
) -> HttpResponse:
    event = _tournament(request, league_slug, slug)
    _tell(request, act, event)
    return redirect("tournaments:tournament", league_slug=event.league.slug, slug=event.slug)


@require_POST
@sign_in_first
def register(request: HttpRequest, league_slug: str, slug: str) -> HttpResponse:
    def act(event: Tournament) -> str:
        entry = services.register(event, request.user)
        if entry.status == Entry.Status.WAITING:
            return f"{event} is full: you are on the waiting list."
        return f"You are registered for {event}."

    return _tournament_post(request, league_slug, slug, act)


@require_POST
@sign_in_first
def withdraw(request: HttpRequest, league_slug: str, slug: str) -> HttpResponse:
    def act(event: Tournament) -> str:
        services.withdraw(event, request.user)
        return f"You withdrew from {event}."

    return _tournament_post(request, league_slug, slug, act)


@require_POST
@sign_in_first
def check_in(request: HttpRequest, league_slug: str, slug: str) -> HttpResponse:
    def act(event: Tournament) -> str:
        services.check_in(event, request.user)
        return "You are checked in."

    return _tournament_post(request, league_slug, slug, act)
