"""The player's own profile page."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts import services
from accounts.forms import AbsenceForm, ProfileForm
from accounts.services import detect_time_zone, profile_for, update_profile


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return _profile_page(request, profile_posted=request.method == "POST")


def _profile_page(
    request: HttpRequest, profile_posted: bool = False, absence_form: AbsenceForm | None = None
) -> HttpResponse:
    """The profile page. Its two forms post apart: each keeps its own values, so a
    refused absence leaves the profile form showing the saved profile, not the absence
    form's fields read as an empty profile."""
    user = request.user
    current = profile_for(user)
    if profile_posted:
        form = ProfileForm(request.POST, username=user.get_username())
        if form.is_valid():
            try:
                update_profile(user, **form.cleaned_data)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, "Your profile is saved.")
                return redirect("accounts:profile")
    else:
        form = ProfileForm(
            username=user.get_username(),
            initial={
                "display_name": current.display_name,
                "time_zone": current.time_zone,
                "notify": current.notify,
            },
        )
    zone = zoneinfo.ZoneInfo(current.time_zone)
    now = timezone.now()
    absences = [
        {
            "absence": absence,
            "last_day": (absence.ends_at.astimezone(zone) - timedelta(seconds=1)).date(),
            "days": services.absence_days(absence, zone),
            "begun": absence.starts_at <= now,
        }
        for absence in services.absences_of(user, now)
    ]
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "profile": current,
            "now_there": now.astimezone(zone),
            "absence_form": absence_form or AbsenceForm(),
            "absences": absences,
            "absence_cap": settings.ABSENCE_DAYS_PER_YEAR,
        },
        status=400 if absence_form is not None else 200,
    )


@login_required
@require_POST
def declare_absence(request: HttpRequest) -> HttpResponse:
    form = AbsenceForm(request.POST)
    if form.is_valid():
        try:
            services.declare_absence(
                request.user, form.cleaned_data["first_day"], form.cleaned_data["last_day"]
            )
        except services.AbsenceRefused as refusal:
            form.add_error(None, f"{str(refusal).capitalize()}.")
        else:
            messages.success(request, "Your absence is noted.")
            return redirect("accounts:profile")
    return _profile_page(request, absence_form=form)


@login_required
@require_POST
def withdraw_absence(request: HttpRequest, absence_id: int) -> HttpResponse:
    try:
        services.cancel_absence(request.user, absence_id)
    except services.AbsenceRefused as refusal:
        messages.error(request, f"{str(refusal).capitalize()}: nothing was changed.")
    else:
        messages.success(request, "Your absence is withdrawn.")
    return redirect("accounts:profile")


@login_required
@require_POST
def browser_time_zone(request: HttpRequest) -> HttpResponse:
    """The zone the player's browser is in (sent by the pages' script while the player
    has not chosen one): their times follow it. 204 whatever the answer: nothing to show."""
    detect_time_zone(request.user, request.POST.get("time_zone", ""))
    return HttpResponse(status=204)


@login_required
@require_POST
def mail_works(request: HttpRequest) -> HttpResponse:
    """The player has fixed their address (or it works again): the notice goes."""
    services.clear_address_failing(request.user)
    messages.success(request, "Thank you: mail to your address will be sent as usual.")
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("accounts:profile")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (a page left open too long, after signing
    out and in elsewhere, or a form posted from another site): the site's own 403 page,
    rendered with the request so the page knows who is signed in."""
    return render(request, "403_csrf.html", {"reason": reason}, status=403)
