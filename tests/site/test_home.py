from django.test import Client


def test_home_page_names_the_site(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "World War 5" in response.content.decode()
