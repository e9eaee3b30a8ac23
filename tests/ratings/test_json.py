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
