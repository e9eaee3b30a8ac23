"""The player's own profile page."""

from __future__ import annotations

import zoneinfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from accounts.forms import ProfileForm
from accounts.services import profile_for, update_profile


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    current = profile_for(user)
    if request.method == "POST":
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
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "profile": current,
            "now_there": timezone.now().astimezone(zone),
        },
    )
