"""Ratings per game kind: a second kind registered beside World War 5 has its own global
pool, leaderboard and ladders, so that a result of one game never moves a rating of
the other; the pages and the JSON name the game."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.test import Client

from games import services as games
from games.kinds import all_kinds, kind_named
from games.models import Game
from games.options import GameOptions
from ratings import selectors
from ratings.models import JournalEntry, Rating
from ratings.services import ladder as ladders
from ratings.services import matchmaking, pools
from tests.kinds.registered import SecondGame, registered
from tests.ratings.conftest import end
from tournaments.models import League
from ww5.tournament import CONTINENTS

pytestmark = pytest.mark.django_db

SECOND = SecondGame.key


@pytest.fixture
def second() -> Iterator[str]:
    with registered(SecondGame()) as kind:
        yield kind.key


def played(users: Sequence[Any], order: Sequence[Sequence[int]], kind: str = "ww5") -> Game:
    """A game of the kind between these people in seat order, ended in this order."""
    seats = [games.TableSeat(CONTINENTS[n], user=u) for n, u in enumerate(users)]
    game = games.create_table(GameOptions(kind=kind), seats, first_seat=0)
    end(game, order)
    game.refresh_from_db()
    return game


def ratings_of(kind: str) -> dict[int, tuple[float, float, int]]:
    """The kind's global pool: (mu, sigma, games) by user id."""
    rows = Rating.objects.filter(season__isnull=True, kind=kind)
    return {row.user_id: (row.mu, row.sigma, row.games) for row in rows}


def replayed(kind: str) -> dict[Any, tuple[float, float, int]]:
    """The kind's global pool recomputed from its journal."""
    states = pools.recompute(None, kind)
    return {key: (s.rating.mu, s.rating.sigma, s.games) for key, s in states.items()}


def test_a_result_moves_only_its_own_games_ratings(second: str, alice: Any, bob: Any) -> None:
    first = played([alice, bob], [[1], [2]])  # alice wins at World War 5
    ww5 = ratings_of("ww5")
    assert ww5[alice.pk][0] > ww5[bob.pk][0]
    assert ratings_of(second) == {}  # nothing in the other game's pool

    other = played([alice, bob], [[2], [1]], kind=second)  # bob wins at the other game

    assert ratings_of("ww5") == ww5  # the World War 5 ratings did not move
    mine = ratings_of(second)
    assert mine[bob.pk][0] > mine[alice.pk][0]
    assert mine[bob.pk][2] == mine[alice.pk][2] == 1  # a first game in this pool
    # Each pool's first game from new ratings: the mirror image of the other's.
    assert mine[bob.pk] == ww5[alice.pk] and mine[alice.pk] == ww5[bob.pk]
    kinds = dict(JournalEntry.objects.values_list("game_id", "kind").distinct())
    assert kinds == {first.pk: "ww5", other.pk: second}
    for kind in ("ww5", second):  # each pool replays from its own journal alone
        assert replayed(kind) == ratings_of(kind)


def test_a_correction_replays_only_its_own_games_pool(second: str, alice: Any, bob: Any) -> None:
    first = played([alice, bob], [[1], [2]])
    played([alice, bob], [[1], [2]], kind=second)
    played([alice, bob], [[2], [1]])
    other = ratings_of(second)

    seats = dict(first.seats.values_list("number", "pk"))
    assert pools.correct(first, {seats[1]: 2, seats[2]: 1}) > 0

    assert ratings_of(second) == other  # the other game's pool is untouched
    assert replayed("ww5") == ratings_of("ww5")
    assert ratings_of("ww5")[bob.pk][0] > ratings_of("ww5")[alice.pk][0]  # bob won both now


def board(page: str) -> list[tuple[str, str]]:
    """(player, games) of each line of a leaderboard page, in its order."""
    table = page.split('<table class="leaderboard">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<a class="player" href="/players/(\w+)/">.*?<td>(\d+)</td></tr>', table, re.S
    )
    return [(name, games) for name, games in rows]


def test_each_games_leaderboard_lists_only_its_own_games(
    client: Client, second: str, alice: Any, bob: Any, carol: Any
) -> None:
    played([alice, bob], [[1], [2]])
    played([alice, bob], [[2], [1]], kind=second)
    played([bob, carol], [[1], [2]], kind=second)

    # Without a game named, the leaderboard is World War 5's, as its address always was.
    for address in ("/leaderboard/", "/leaderboard/?game=ww5"):
        page = client.get(address).content.decode()
        assert "World War 5 leaderboard" in page
        assert board(page) == [("alice", "1"), ("bob", "1")]  # one game each, alice won
        assert 'href="?game=second-game">Second Game</a>' in page
    page = client.get(f"/leaderboard/?game={second}").content.decode()
    assert "Second Game leaderboard" in page
    # bob won both; carol lost to a stronger bob than alice did, and so lost less.
    assert board(page) == [("bob", "2"), ("carol", "1"), ("alice", "1")]
    assert 'href="?game=ww5">World War 5</a>' in page

    lines = selectors.global_leaderboard(second)
    assert [(x["username"], x["position"], x["games"]) for x in lines] == [
        ("bob", 1, 2),
        ("carol", 2, 1),
        ("alice", 3, 1),
    ]
    response = client.get("/leaderboard/?game=chess")
    assert response.status_code == 404 and b"No such game" in response.content


def test_a_players_page_and_json_show_each_game_apart(
    client: Client, second: str, alice: Any, bob: Any
) -> None:
    first = played([alice, bob], [[1], [2]])
    other = played([alice, bob], [[2], [1]], kind=second)

    html = client.get("/players/alice/").content.decode()
    assert html.index(">Second Game</h3>") < html.index(">World War 5</h3>")  # by name
    other_part = html.split(">Second Game</h3>", 1)[1].split("<h3", 1)[0]
    ww5_part = html.split(">World War 5</h3>", 1)[1].split("</section>", 1)[0]
    ww5_line = selectors.global_rating(alice)
    other_line = selectors.global_rating(alice, kind=second)
    assert ww5_line is not None and other_line is not None
    assert ww5_line["rating"] > other_line["rating"]
    assert f"{ww5_line['rating']}?" in ww5_part and f"{other_line['rating']}?" in other_part
    assert ww5_part.count("<svg") == other_part.count("<svg") == 1  # a chart each

    data = client.get("/players/alice/ratings.json").json()  # World War 5's, as always
    assert data["kind"] == "ww5"
    assert data["global"]["rating"] == ww5_line["rating"] and data["global"]["games"] == 1
    assert [row["game"] for row in data["journal"]] == [first.pk]
    data = client.get(f"/players/alice/ratings.json?game={second}").json()
    assert data["kind"] == second
    assert data["global"]["rating"] == other_line["rating"]
    assert [row["game"] for row in data["journal"]] == [other.pk]
    response = client.get("/players/alice/ratings.json?game=chess")
    assert response.status_code == 404 and response.json() == {"error": "No such game."}


def test_a_ladder_plays_and_rates_its_own_game(
    client: Client, second: str, league: League, anna: Any, alice: Any, bob: Any
) -> None:
    ladder = ladders.create_ladder(league, anna, "Second Ladder", player_count="2", kind=second)
    for user in (alice, bob):
        ladders.join(ladder, user)
    (made,) = matchmaking.match(ladder.pk)
    assert made.game.kind == second  # the ladder's game is of its kind
    end(made.game, [[1], [2]])

    season = ladder.seasons.get()
    assert set(Rating.objects.filter(season=season).values_list("kind", flat=True)) == {second}
    assert set(JournalEntry.objects.values_list("kind", flat=True)) == {second}
    assert ratings_of("ww5") == {}  # World War 5's global pool never saw the game
    assert len(ratings_of(second)) == 2  # the game's own global pool did
    data = client.get(f"/ladders/{ladder.pk}/leaderboard.json").json()
    assert data["kind"] == second and len(data["players"]) == 2
    assert "Second Game" in client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert client.get("/players/alice/ratings.json").json()["ladders"] == []  # not ww5's
    ladder_lines = client.get(f"/players/alice/ratings.json?game={second}").json()["ladders"]
    assert [line["ladder"] for line in ladder_lines] == [ladder.pk]


@pytest.mark.usefixtures("only_world_war_5")
def test_with_one_game_the_pages_name_it_and_read_as_before(
    client: Client, alice: Any, bob: Any, league: League, anna: Any
) -> None:
    assert [kind.key for kind in all_kinds()] == ["ww5"]
    ladder = ladders.create_ladder(league, anna, "Weekly", player_count="2")
    played([alice, bob], [[1], [2]])
    html = client.get("/players/alice/").content.decode()
    assert html.count("<h3") == 1 and ">World War 5</h3>" in html
    assert "All rated games:" in html
    page = client.get("/leaderboard/").content.decode()
    assert "World War 5 leaderboard" in page and "Other games" not in page
    assert "World War 5" in client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert "World War 5, 2 players" in client.get("/ladders/").content.decode()
    assert kind_named("ww5").name == "World War 5"
