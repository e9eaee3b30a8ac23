"""The forms of the ratings pages: what a player asks, read and checked before any
service sees it."""

from __future__ import annotations

from django import forms

# Above any season or game count a ladder has, and within a database integer.
LARGEST = 2**31 - 1


class JoinForm(forms.Form):
    """How many ladder games at once (the ladder's own limit is the service's check)."""

    max_games = forms.IntegerField(
        min_value=1,
        max_value=LARGEST,
        error_messages={
            "required": "say how many games at once, as a whole number",
            "invalid": "say how many games at once, as a whole number",
            "min_value": "say how many games at once, at least 1",
            "max_value": "say how many games at once, as a whole number",
        },
    )


class SeasonForm(forms.Form):
    """The season asked for in a ladder page's address (``?season=N``)."""

    season = forms.IntegerField(min_value=1, max_value=LARGEST)
