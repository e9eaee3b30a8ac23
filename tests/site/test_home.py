from typing import Any

import pytest
from django.test import Client


def test_home_page_names_the_site(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "World War 5" in response.content.decode()


def test_every_page_leads_to_the_games_tournaments_and_ladders(client: Client) -> None:
    text = client.get("/").content.decode()

    for href in ('href="/games/"', 'href="/tournaments/"', 'href="/ladders/"'):
        assert href in text


@pytest.mark.django_db
def test_a_players_profile_leads_to_their_public_page(
    client: Client, django_user_model: Any
) -> None:
    player = django_user_model.objects.create_user("zoe", "zoe@example.com", "pw")
    client.force_login(player)

    text = client.get("/accounts/profile/").content.decode()

    assert 'href="/players/zoe/"' in text
    assert client.get("/players/zoe/").status_code == 200
