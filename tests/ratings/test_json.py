"""GET /players/<name>/ratings.json: a player's ratings and journal rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ratings.core import model
from tests.ratings.conftest import played

pytestmark = pytest.mark.django_db


def test_a_players_ratings_json_lists_their_journal_rows(
    client: Client, alice: Any, bob: Any, carol: Any
) -> None:
    first = played([alice, bob], [[1], [2]])
    played([alice, carol], [[2], [1]])
    response = client.get("/players/alice/ratings.json")
    assert response.status_code == 200
    data = response.json()
    assert data["player"] == "alice"
    assert data["global"]["games"] == 2
    assert len(data["journal"]) == 2
    row = data["journal"][0]
    assert row["game"] == first.pk and row["pool"] == "global"
    assert row["rank"] == 1 and row["seat"] == 1
    assert row["rating_after"] == model.shown(row["mu_after"], row["sigma_after"])
    assert data["journal"][1]["mu_before"] == row["mu_after"]
    assert data["global"]["mu"] == data["journal"][1]["mu_after"]


def test_an_unknown_player_is_not_found(client: Client) -> None:
    assert client.get("/players/nobody/ratings.json").status_code == 404


def test_a_private_ladder_is_not_shown_to_strangers_on_the_page_or_in_the_json(
    client: Client, league: Any, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    from ratings.services import ladder as ladders
    from ratings.services import matchmaking
    from tests.ratings.conftest import end

    hidden = ladders.create_ladder(league, anna, "Backroom", player_count="2", is_public=False)
    for user in (alice, bob):
        ladders.join(hidden, user)
    (made,) = matchmaking.match(hidden.pk)
    end(made.game, [[1], [2]])
    played([alice, carol], [[1], [2]])  # a public game, rated in the global pool

    client.force_login(carol)  # neither on the ladder nor in its league
    data = client.get("/players/alice/ratings.json").json()
    assert data["ladders"] == []
    assert [row["pool"] for row in data["journal"]] == ["global"]  # the public game's
    html = client.get("/players/alice/").content.decode()
    assert "Backroom" not in html

    client.force_login(bob)  # a player of the ladder sees it
    data = client.get("/players/alice/ratings.json").json()
    assert [line["ladder"] for line in data["ladders"]] == [hidden.pk]
    assert "Backroom" in client.get("/players/alice/").content.decode()


def test_a_private_games_rows_are_shown_only_to_those_who_may_see_the_game(
    client: Client, alice: Any, bob: Any, carol: Any
) -> None:
    public = played([alice, bob], [[1], [2]])
    private = played([alice, bob], [[2], [1]])
    type(private).objects.filter(pk=private.pk).update(is_public=False)
    for stranger in (None, carol):
        if stranger is not None:
            client.force_login(stranger)
        data = client.get("/players/alice/ratings.json").json()
        assert [row["game"] for row in data["journal"]] == [public.pk]
        assert [row["played_at"] for row in data["journal"]] == [public.finished_at.isoformat()]
    client.force_login(bob)  # its player sees the game, and so its rows
    data = client.get("/players/alice/ratings.json").json()
    assert [row["game"] for row in data["journal"]] == [public.pk, private.pk]
    assert [row["rank"] for row in data["journal"]] == [1, 2]


def test_a_private_ladder_games_global_rows_are_not_shown_to_strangers(
    client: Client, league: Any, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    from ratings.services import ladder as ladders
    from ratings.services import matchmaking
    from tests.ratings.conftest import end

    hidden = ladders.create_ladder(league, anna, "Backroom", player_count="2", is_public=False)
    for user in (alice, bob):
        ladders.join(hidden, user)
    (made,) = matchmaking.match(hidden.pk)
    end(made.game, [[1], [2]])
    client.force_login(carol)
    data = client.get("/players/alice/ratings.json").json()
    assert data["journal"] == []  # neither the season's row nor the global pool's
    client.force_login(bob)
    data = client.get("/players/alice/ratings.json").json()
    assert sorted(str(row["pool"]) for row in data["journal"]) == [
        "global",
        str({"ladder": hidden.pk, "season": 1}),
    ]
