"""An organiser chooses the game a new event or ladder plays, once the site serves more
than one: the admin's add forms offer it (and not while World War 5 is the only game),
and what is made plays the chosen kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from ratings.models import Ladder
from tests.kinds.registered import SecondGame, registered
from tests.ratings.test_admin import FORM as LADDER_FORM
from tests.tournaments.conftest import anna, league_a
from tests.tournaments.test_admin import settings_form
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import League, Tournament

__all__ = ["anna", "league_a"]

pytestmark = pytest.mark.django_db

EVENT_ADD = "/admin/tournaments/tournament/add/"
LADDER_ADD = "/admin/ratings/ladder/add/"


@pytest.fixture
def second() -> Iterator[str]:
    with registered(SecondGame()) as kind:
        yield kind.key


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.usefixtures("only_world_war_5")
def test_with_one_game_the_forms_do_not_ask_which(anna: Any, league_a: League) -> None:
    client = signed_in(anna)
    for url in (EVENT_ADD, LADDER_ADD):
        page = client.get(url).content.decode()
        assert 'name="name"' in page and 'name="kind"' not in page, url


def test_an_event_is_made_for_the_chosen_game(anna: Any, league_a: League, second: str) -> None:
    client = signed_in(anna)
    page = client.get(EVENT_ADD).content.decode()
    assert 'name="kind"' in page and "Second Game" in page and "World War 5" in page

    response = client.post(EVENT_ADD, {**settings_form(league_a), "kind": second})

    assert response.status_code == 302, response.content.decode()[:2000]
    event = Tournament.objects.get(name="Spring Cup")
    assert event.kind == second and event.options["board"] == "original"
    assert (
        'name="kind"'
        not in client.get(f"/admin/tournaments/tournament/{event.pk}/change/").content.decode()
    )


def test_a_ladder_is_made_for_the_chosen_game(anna: Any, league_a: League, second: str) -> None:
    client = signed_in(anna)
    response = client.post(LADDER_ADD, {**LADDER_FORM, "league": league_a.pk, "kind": second})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert Ladder.objects.get(name="Admin ladder").kind == second


def test_an_unknown_game_is_refused_and_nothing_is_made(anna: Any, league_a: League) -> None:
    with pytest.raises(TournamentError, match="there is no game 'chess'"):
        services.create_tournament(league_a, anna, "Chess Cup", kind="chess")
    assert not Tournament.objects.filter(name="Chess Cup").exists()


@pytest.fixture
def risiko() -> Iterator[str]:
    from risiko.kind import RisiKo

    with registered(RisiKo()) as kind:
        yield kind.key


def test_an_event_and_a_ladder_of_risiko_take_a_board_of_risiko(
    anna: Any, league_a: League, risiko: str
) -> None:
    client = signed_in(anna)
    page = client.get(EVENT_ADD).content.decode()
    assert '<optgroup label="RisiKo">' in page and '<optgroup label="World War 5">' in page

    wrong = client.post(EVENT_ADD, {**settings_form(league_a), "kind": risiko})
    assert wrong.status_code == 200 and "That is not a board of RisiKo." in wrong.content.decode()
    assert not Tournament.objects.filter(name="Spring Cup").exists()

    made = client.post(
        EVENT_ADD, {**settings_form(league_a), "kind": risiko, "board": "classic", "table_size": 4}
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    event = Tournament.objects.get(name="Spring Cup")
    assert event.kind == risiko and event.options["board"] == "classic"

    ladder = client.post(
        LADDER_ADD,
        {**LADDER_FORM, "league": league_a.pk, "kind": risiko, "board": "classic"},
    )
    assert ladder.status_code == 302, ladder.content.decode()[:2000]
    assert Ladder.objects.get(name="Admin ladder").kind == risiko


def test_a_form_without_a_game_makes_the_sites_first(
    anna: Any, league_a: League, second: str
) -> None:
    client = signed_in(anna)
    response = client.post(EVENT_ADD, settings_form(league_a))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(name="Spring Cup").kind == "ww5"
