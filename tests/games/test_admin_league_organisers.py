"""A league's organiser manages the games of their league's events and ladders in the
admin (pause, extend a deadline, forfeit or replace a player), and no other league's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Game, GameEvent, Move
from tests.organisers import TwoLeaguesTestCase, snapshot
from tests.personas import make_user

CHANGELIST = reverse("admin:games_game_changelist")


def game_page(name: str, game: Game) -> str:
    return reverse(f"admin:games_game_{name}", args=[game.pk])


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


class TestLeagueOrganisersManageTheirGames(TwoLeaguesTestCase):
    def own_games(self) -> tuple[Game, Game]:
        return self.w.a.games  # the event's game, the ladder's game

    def act(self, action: str, game: Game, **fields: str) -> Any:
        data = {"action": action, "_selected_action": [str(game.pk)], **fields}
        return self.anna.post(CHANGELIST, data, follow=True)

    def test_the_list_shows_the_games_of_their_league_only(self) -> None:
        page = self.anna.get(CHANGELIST).content.decode()

        for game in self.own_games():
            assert reverse("admin:games_game_change", args=[game.pk]) in page
        for game in self.w.foreign_games:
            assert reverse("admin:games_game_change", args=[game.pk]) not in page
        self.assert_nothing_foreign(page)

    def test_the_game_page_offers_the_organisers_tools(self) -> None:
        for game in self.own_games():
            page = self.anna.get(reverse("admin:games_game_change", args=[game.pk]))

            assert page.status_code == 200
            html = page.content.decode()
            for name in ("move", "forfeit", "replace"):
                assert game_page(name, game) in html
            assert 'value="pause_games"' in html and 'value="extend_deadlines"' in html
            assert "Move log (read-only)" in html
            log = self.anna.get(
                reverse("admin:games_move_changelist"), {"game__id__exact": game.pk}
            )
            assert log.status_code == 200
            first = game.moves.get(number=1)
            assert reverse("admin:games_move_change", args=[first.pk]) in log.content.decode()

    def test_they_pause_and_resume_their_games(self) -> None:
        for game in self.own_games():
            paused = self.act("pause_games", game)
            game.refresh_from_db()
            assert paused.status_code == 200 and game.is_paused
            assert f"{game}: paused." in messages_of(paused)

            self.act("resume_games", game)
            game.refresh_from_db()
            assert not game.is_paused

    def test_they_extend_a_deadline(self) -> None:
        for game in self.own_games():
            before = game.deadline
            assert before is not None

            response = self.act(
                "extend_deadlines", game, apply="1", extension="1d 12h", reason="Storm"
            )

            game.refresh_from_db()
            assert response.status_code == 200
            assert game.deadline == before + timedelta(hours=36)
            event = GameEvent.objects.get(game=game, kind=GameEvent.Kind.EXTEND)
            assert event.actor_id == self.w.a.organiser.pk and event.reason == "Storm"

    def test_they_make_a_player_forfeit(self) -> None:
        for game in self.own_games():
            seat = game.seats.get(number=2)
            assert self.anna.get(game_page("forfeit", game)).status_code == 200

            response = self.anna.post(
                game_page("forfeit", game), {"seat": seat.pk, "reason": "Gone"}, follow=True
            )

            assert response.status_code == 200
            move = Move.objects.get(game=game, action=f"forfeit {seat.player_name}")
            assert move.actor_id == self.w.a.organiser.pk and move.source == Move.Source.ADMIN

    def test_they_replace_a_player(self) -> None:
        for number, game in enumerate(self.own_games()):
            seat = game.seats.get(number=1)
            newcomer = make_user(type(self.w.root), f"newcomer{number}")
            assert self.anna.get(game_page("replace", game)).status_code == 200

            response = self.anna.post(
                game_page("replace", game),
                {"seat": seat.pk, "username": newcomer.get_username(), "reason": "Moved away"},
                follow=True,
            )

            assert response.status_code == 200
            seat.refresh_from_db()
            assert seat.user_id == newcomer.pk

    def test_they_move_for_the_player_who_is_waited_for(self) -> None:
        game = self.w.a.event_game
        page = self.anna.get(game_page("move", game))

        assert page.status_code == 200 and 'name="choice"' in page.content.decode()

    def test_another_leagues_games_are_not_there_for_them(self) -> None:
        for game in self.w.foreign_games:
            before = (snapshot(game), list(game.seats.values()))
            seat = game.seats.first()
            assert seat is not None

            for name in ("move", "forfeit", "replace"):
                assert self.anna.get(game_page(name, game)).status_code == 404
            self.anna.post(game_page("forfeit", game), {"seat": seat.pk})
            self.anna.post(game_page("replace", game), {"seat": seat.pk, "username": "anna"})
            self.act("pause_games", game)
            self.act("extend_deadlines", game, apply="1", extension="1d 12h")
            self.act("abandon_games", game, confirm="yes")
            change = self.anna.get(reverse("admin:games_game_change", args=[game.pk]))

            assert change.status_code == 302 and change["Location"] == reverse("admin:index")
            assert (snapshot(game), list(game.seats.values())) == before
            assert not GameEvent.objects.filter(game=game, actor=self.w.a.organiser).exists()

    def test_a_player_of_their_league_is_no_organiser(self) -> None:
        alice = self.w.a.players[0]
        alice.is_staff = True  # let into the admin, and no more
        alice.save(update_fields=["is_staff"])
        self.anna.force_login(alice)
        game = self.w.a.event_game
        before = snapshot(game)

        listing = self.anna.get(CHANGELIST)
        pause = self.act("pause_games", game)

        assert listing.status_code == 403
        assert pause.status_code == 403
        assert self.anna.get(game_page("forfeit", game)).status_code in (403, 404)
        assert snapshot(game) == before
