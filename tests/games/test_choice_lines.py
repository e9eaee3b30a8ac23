"""The mails' lists of legal actions, written by the ``choices`` filters: the same text
as the template loops they replaced, for any action, label, odds and warning."""

from __future__ import annotations

import random

from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st

from games.wording import Choice, ChoiceGroup
from ww5 import describe
from ww5.engine import apply_action, legal_actions, new_game

# The loops the filters replaced, as the decision and reply mails had them.
TEXT_LOOP = (
    "{% autoescape off %}{% for group in groups %}  {{ group.title }}:\n"
    "{% for choice in group.choices %}    {{ choice.action }}  — {{ choice.label }}"
    "{% if choice.odds %} (chance to win: {{ choice.odds }}){% endif %}"
    "{% if choice.warning %} WARNING: {{ choice.warning }}{% endif %}\n"
    "{% endfor %}{% endfor %}{% endautoescape %}"
)
HTML_LOOP = (
    "{% for group in groups %}<p><strong>{{ group.title }}</strong></p>\n"
    "<ul>{% for choice in group.choices %}<li><code>{{ choice.action }}</code> — "
    "{{ choice.label }}{% if choice.odds %} (chance to win: {{ choice.odds }}){% endif %}"
    "{% if choice.warning %} <strong>warning: {{ choice.warning }}</strong>{% endif %}</li>"
    "{% endfor %}</ul>\n{% endfor %}"
)
TEXT_FILTER = (
    "{% load choices %}{% autoescape off %}{% for group in groups %}  {{ group.title }}:\n"
    "{{ group.choices|choice_lines }}{% endfor %}{% endautoescape %}"
)
HTML_FILTER = (
    "{% load choices %}{% for group in groups %}<p><strong>{{ group.title }}</strong></p>\n"
    "<ul>{{ group.choices|choice_items }}</ul>\n{% endfor %}"
)


def both(groups: list[ChoiceGroup]) -> list[tuple[str, str]]:
    context = Context({"groups": groups})
    return [
        (Template(loop).render(context), Template(written).render(context))
        for loop, written in ((TEXT_LOOP, TEXT_FILTER), (HTML_LOOP, HTML_FILTER))
    ]


words = st.text(alphabet="ab <>&\"'é—\n", max_size=12)
choices = st.builds(Choice, action=words, label=words, odds=words, warning=words)
groups = st.lists(
    st.builds(ChoiceGroup, verb=words, title=words, rules=words, choices=st.lists(choices)),
    max_size=3,
)


@settings(max_examples=300, deadline=None)
@given(groups)
def test_any_choices_are_written_as_the_template_loops_wrote_them(
    groups: list[ChoiceGroup],
) -> None:
    for looped, filtered in both(groups):
        assert filtered == looped


def test_world_war_5_decisions_are_written_as_the_template_loops_wrote_them() -> None:
    rng = random.Random(4)
    homes = ["north-america", "europe", "asia"]
    state, _ = new_game([(home, home) for home in homes], {}, rng)
    names = {home: home.title() for home in homes}
    seen_odds = False
    for _ in range(80):
        groups = describe.choices(state, names)
        every = [choice for group in groups for choice in group.choices]
        seen_odds = seen_odds or any(choice.odds for choice in every)
        for looped, filtered in both(groups):
            assert filtered == looped
        state, _ = apply_action(state, rng.choice(legal_actions(state)), rng=rng)
        if not legal_actions(state):
            break
    assert seen_odds  # invasions were listed, with their odds
