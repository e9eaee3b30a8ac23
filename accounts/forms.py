"""The profile form: checks the input; the service does the saving."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import TIME_ZONES, Profile

# Offered first so most players need not scroll through some 600 zones.
COMMON_TIME_ZONES = [
    zone
    for zone in (
        "UTC",
        "Europe/London",
        "Europe/Paris",
        "Europe/Berlin",
        "Europe/Moscow",
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Los_Angeles",
        "America/Sao_Paulo",
        "Africa/Johannesburg",
        "Asia/Kolkata",
        "Asia/Shanghai",
        "Asia/Tokyo",
        "Australia/Sydney",
        "Pacific/Auckland",
    )
    if zone in TIME_ZONES
]

TIME_ZONE_CHOICES = [
    ("Common time zones", [(zone, zone) for zone in COMMON_TIME_ZONES]),
    ("All time zones", [(zone, zone) for zone in TIME_ZONES]),
]

DISPLAY_NAME_MAX = Profile._meta.get_field("display_name").max_length


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text="The name other players see. Leave it empty to use your username.",
        error_messages={
            "max_length": "A display name can be at most %(limit_value)d characters "
            "(this one has %(show_value)d)."
        },
    )
    time_zone = forms.ChoiceField(
        choices=TIME_ZONE_CHOICES,
        help_text="Deadlines and move times are shown in this zone.",
        error_messages={
            "invalid_choice": "%(value)s is not a time zone we know: "
            "choose one from the list (such as Europe/London)."
        },
    )
    notify = forms.ChoiceField(
        label="Game mail",
        choices=Profile.Notify.choices,
        widget=forms.RadioSelect,
        help_text="Which mails you want about your games. Whatever you choose, each "
        "decision of yours comes in a mail of its own (a game's page can mute that game).",
        error_messages={"invalid_choice": "Choose one of the listed mail preferences."},
    )

    def __init__(self, *args: Any, username: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if username:
            self.fields["display_name"].widget.attrs["placeholder"] = username


class AbsenceForm(forms.Form):
    """Days away, in the player's own calendar: from the start of the first to the end
    of the last."""

    first_day = forms.DateField(
        label="First day away", widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label="Last day away", widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            raise forms.ValidationError("The last day away cannot come before the first.")
        return data
