"""Every player's name on the standings, tables, games and leaderboards links to their
public page (``/players/<username>/``); a bot, which has no page, is named plain, and
so is a closed account. HTML mails link with the site's whole address."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from accounts.services import update_profile
from games import digests
from games import services as games
from games.models import Game
from mail.models import OutgoingMail
from ratings.models import Ladder
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.games.factories import STRICT_SETUP, dice, mails_of, play, seat_of, seated_game
from tests.ratings.conftest import end, table
from tournaments import services
from tournaments.models import League, Table
from tournaments.services import rounds, sweeps

__all__ = ["dice"]

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<a class="player" href="(/players/[^"]+/)">([^<]*)</a>')


def links(text: str) -> dict[str, str]:
    """The player links of a page: name shown → address."""
    return {name: href for href, name in LINK.findall(text)}


def render(who: Any, absolute: bool = False) -> str:
    source = "{% load players %}{% player_link who absolute=absolute %}"
    return Template(source).render(Context({"who": who, "absolute": absolute}))


def test_a_user_is_linked_by_their_display_name(alice: Any, django_user_model: Any) -> None:
    update_profile(alice, "Alice W.", "UTC", "each")
    alice = django_user_model.objects.get(pk=alice.pk)

    assert render(alice) == '<a class="player" href="/players/alice/">Alice W.</a>'


def test_a_name_is_escaped_and_a_closed_account_is_named_plain(
    bob: Any, django_user_model: Any
) -> None:
    update_profile(bob, "<b>Bob</b>", "UTC", "each")
    django_user_model.objects.filter(pk=bob.pk).update(is_active=False)
    bob = django_user_model.objects.get(pk=bob.pk)

    assert render(bob) == "&lt;b&gt;Bob&lt;/b&gt;"
    assert Client().get("/players/bob/").status_code == 404  # no page to link to


def test_a_bot_seat_is_named_plain(alice: Any) -> None:
    game = table([alice], bots=["greedy"])
    bot = game.seats.get(number=2)

    assert render(bot) == bot.display_name == "Greedy bot 2"
    assert render(game.seats.get(number=1)) == links_html("alice", "alice")


def links_html(username: str, name: str) -> str:
    return f'<a class="player" href="/players/{username}/">{name}</a>'


def test_a_mail_links_with_the_sites_whole_address(alice: Any, settings: Any) -> None:
    settings.SITE_URL = "https://ww5.example.org"

    assert render(alice, absolute=True) == (
        '<a class="player" href="https://ww5.example.org/players/alice/">alice</a>'
    )


def test_the_event_page_links_its_players_in_the_list_standings_and_tables(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    update_profile(carol, "Carol C.", "UTC", "each")
    event = services.create_tournament(league, anna, "Links Cup")
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)
    url = reverse("tournaments:tournament", args=[league.slug, event.slug])

    text = Client().get(url).content.decode()

    expected = {"alice": "/players/alice/", "bob": "/players/bob/", "Carol C.": "/players/carol/"}
    assert links(text) == expected
    players, rest = text.split('id="players-heading"', 1)[1].split("</section>", 1)
    assert links(players) == expected
    tables = rest.split('id="round-1-heading"', 1)[1]
    assert links(tables) == expected
    assert bot.name in tables and f">{bot.name}</a>" not in text
    data = Client().get(reverse("tournaments:standings_json", args=[event.pk])).json()
    seats = [seat for table in data["rounds"][0]["tables"] for seat in table["seats"]]
    assert {s["name"]: s["username"] for s in seats} == {
        "alice": "alice",
        "bob": "bob",
        "Carol C.": "carol",
        bot.name: None,
    }
    standings = rest.split('class="standings', 1)[1].split("</table>", 1)[0]
    assert links(standings) == expected


def test_the_ladder_links_its_leaderboard_and_its_games_players(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any, dave: Any
) -> None:
    duel = ladders.create_ladder(league, anna, "Duel", player_count="2", min_games=0)
    for player in (alice, bob, carol, dave):
        ladders.join(duel, player)
    now = timezone.now()
    Ladder.objects.filter(pk=duel.pk).update(match_due_at=now)
    ended, running = matchmaking.match(duel.pk, now)
    end(ended.game, [[1], [2]])

    text = Client().get(reverse("ratings:ladder", args=[duel.pk])).content.decode()

    board, games_running = text.split('id="running-heading"', 1)

    def pages_of(game: Game) -> dict[str, str]:
        return {s.display_name: f"/players/{s.display_name}/" for s in game.seats.all()}

    assert links(board.split('id="board-heading"', 1)[1]) == pages_of(ended.game)
    assert links(games_running) == pages_of(running.game)


def test_the_lobby_and_the_finished_games_link_creators_movers_and_winners(
    dice: Any, alice: Any, bob: Any, carol: Any
) -> None:
    update_profile(bob, "Bobby", "UTC", "each")
    games.create_game(carol, seats=3, home="asia", is_public=True)
    running = seated_game(dice, [alice, bob])
    Game.objects.filter(pk=running.pk).update(is_public=True)
    finished = seated_game(dice, [alice, bob], is_public=True)
    play(finished, *STRICT_SETUP)
    games.forfeit_seat(finished.pk, alice, seat_of(finished, alice).pk, source="admin")
    Game.objects.filter(pk=finished.pk).update(is_public=True)
    client = Client()
    client.force_login(alice)

    lobby = client.get(reverse("games:lobby")).content.decode()
    over = client.get(reverse("games:finished")).content.decode()
    page = client.get(reverse("games:detail", args=[running.pk])).content.decode()

    assert 'data-label="Created by"><a class="player" href="/players/carol/">carol</a>' in lobby
    assert 'waiting for <a class="player" href="/players/' in lobby
    assert ': <a class="player" href="/players/bob/">Bobby</a> won' in over
    seats = page.split('id="seats-heading"', 1)[1].split("</table>", 1)[0]
    assert links(seats) == {"alice": "/players/alice/", "Bobby": "/players/bob/"}


def test_the_result_mail_links_the_ranking_with_the_sites_address(
    dice: Any, alice: Any, bob: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    for user in (alice, bob):
        update_profile(user, user.get_username().title(), "UTC", "each")
    game = seated_game(dice, [alice, bob])
    play(game, *STRICT_SETUP)
    games.forfeit_seat(game.pk, alice, seat_of(game, alice).pk, source="admin")

    mail = mails_of(game).filter(kind="game_over").first()

    assert mail is not None
    assert 'href="https://ww5.example.org/players/bob/">Bob</a> (' in mail.body_html
    assert 'href="https://ww5.example.org/players/alice/">Alice</a> (' in mail.body_html
    assert "/players/" not in mail.body_text  # the plain text mail names them plain


def test_a_leagues_members_are_linked(league: League, anna: Any) -> None:
    text = Client().get(reverse("tournaments:league", args=[league.slug])).content.decode()

    assert '<a class="player" href="/players/anna/">anna</a> (organiser)' in text


def test_the_final_standings_mail_links_the_players_with_the_sites_address(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    event = services.create_tournament(league, anna, "Mail Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)
    now = timezone.now()
    for _ in range(4):
        now += timedelta(days=30)
        sweeps.sweep(now)

    mail = OutgoingMail.objects.get(kind="tournament_final", to_user=alice)

    for name in ("alice", "bob", "carol"):
        link = f'<a class="player" href="https://ww5.example.org/players/{name}/">{name}</a> —'
        assert link in mail.body_html
    assert f"{bot.name} —" in mail.body_html and f">{bot.name}</a>" not in mail.body_html
    assert "  1. " in mail.body_text and "/players/" not in mail.body_text


def test_the_game_pages_board_key_and_supplies_link_the_players(alice: Any, bob: Any) -> None:
    update_profile(bob, "Bobby", "UTC", "each")
    game = table([alice, bob], bots=["greedy"])
    bot = game.seats.get(number=3)

    text = Client().get(reverse("games:detail", args=[game.pk])).content.decode()

    key = text.split('class="board-key"', 1)[1].split("</ul>", 1)[0]
    assert links(key) == {"alice": "/players/alice/", "Bobby": "/players/bob/"}
    assert re.search(r'/players/bob/">Bobby</a> \([a-z]+\)</li>', key)
    assert f"{bot.display_name} (" in key and f">{bot.display_name}</a>" not in key
    supplies = text.split('class="supplies"', 1)[1].split("</table>", 1)[0]
    assert links(supplies) == links(key)


def test_the_game_start_mail_links_the_players_with_the_sites_address(
    dice: Any, alice: Any, bob: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    update_profile(bob, "Bobby", "UTC", "each")
    game = seated_game(dice, [alice, bob])

    mail = mails_of(game).filter(kind="game_start", to_user=alice).get()

    assert '<a class="player" href="https://ww5.example.org/players/bob/">Bobby</a> (' in (
        mail.body_html
    )
    assert 'href="https://ww5.example.org/players/alice/">alice</a> (' in mail.body_html
    assert "/players/" not in mail.body_text


def test_the_digest_links_a_finished_games_winner_with_the_sites_address(
    dice: Any, alice: Any, bob: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    update_profile(bob, "", "UTC", "digest")
    game = seated_game(dice, [alice, bob])
    play(game, *STRICT_SETUP)
    games.forfeit_seat(game.pk, None, seat_of(game, alice).pk, "timeout")
    digests.sweep_digests(now=Profile.objects.get(user=bob).digest_due_at)

    digest = OutgoingMail.objects.get(kind="digest", to_user=bob)

    link = '<a class="player" href="https://ww5.example.org/players/bob/">bob</a> (purple) won'
    assert link in digest.body_html
    assert "The game is over: bob (purple) won" in digest.body_text


def test_a_leagues_past_events_link_their_podium(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    event = services.create_tournament(league, anna, "Podium Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)
    now = timezone.now()
    for _ in range(4):
        now += timedelta(days=30)
        sweeps.sweep(now)

    text = Client().get(reverse("tournaments:league", args=[league.slug])).content.decode()

    podium = text.split("Podium Cup</a>:", 1)[1].split("</li>", 1)[0]
    shown = {name for name, _ in links(podium).items()}
    assert shown and shown <= {"alice", "bob", "carol"}
    assert all(links(podium)[name] == f"/players/{name}/" for name in shown)
    assert f">{bot.name}</a>" not in podium


def test_the_table_mail_links_the_opponents_with_the_sites_address(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    update_profile(carol, "Carol C.", "UTC", "each")
    event = services.create_tournament(league, anna, "Table Cup")
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)

    mail = OutgoingMail.objects.get(kind="tournament_table", to_user=alice)

    assert '<a class="player" href="https://ww5.example.org/players/bob/">bob</a>' in (
        mail.body_html
    )
    assert 'href="https://ww5.example.org/players/carol/">Carol C.</a>' in mail.body_html
    assert bot.name in mail.body_html and f">{bot.name}</a>" not in mail.body_html
    assert "/players/alice/" not in mail.body_html  # not against themselves
    assert "Carol C." in mail.body_text and "/players/" not in mail.body_text


def test_the_corrected_result_mail_links_the_players_with_the_sites_address(
    league: League, anna: Any, alice: Any, bob: Any, carol: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://ww5.example.org"
    event = services.create_tournament(league, anna, "Fix Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    bot = services.add_bot(event, anna)
    rounds.start(event.pk)
    game = Game.objects.get(tournament_table__round__tournament=event)
    games.adjudicate(game.pk, [[s.player_name] for s in game.seats.order_by("number")], "test")
    found = Table.objects.get(round__tournament=event)
    order = [entry for group in found.result for entry in group][::-1]
    services.correct_result(event, anna, found.pk, [[entry] for entry in order], "a lost mail")

    mail = OutgoingMail.objects.get(kind="tournament_corrected", to_user=alice)

    for name in ("alice", "bob", "carol"):
        link = f'<a class="player" href="https://ww5.example.org/players/{name}/">{name}</a>'
        assert link in mail.body_html
    assert f"{bot.name}</li>" in mail.body_html and f">{bot.name}</a>" not in mail.body_html
    assert "/players/" not in mail.body_text


def test_the_game_page_links_the_player_it_waits_for(dice: Any, alice: Any, bob: Any) -> None:
    game = seated_game(dice, [alice, bob])
    assert game.to_move is not None and game.to_move.user is not None
    username = game.to_move.user.get_username()

    text = Client().get(reverse("games:detail", args=[game.pk])).content.decode()

    link = f'waits for <strong><a class="player" href="/players/{username}/">{username}</a>'
    assert link in text
