"""A tournament's games name their event in their mails ("Spring Cup, round 1, table
1"), through the label the tournaments app registers with the games app."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors
from games.models import Game
from inbound.answers import subject_for
from tests.games.factories import mails_of, play_at_random
from tests.tournaments.conftest import started_event
from tournaments import services
from tournaments.models import League

pytestmark = pytest.mark.django_db


def started_cup(league: League, organiser: Any, players: list[Any]) -> Game:
    event = started_event(league, organiser, players, "Spring Cup", swiss_rounds=2)
    return Game.objects.get(tournament_table__round__tournament=event)


def test_a_tables_game_mails_name_the_event_round_and_table(
    league_a: League, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    game = started_cup(league_a, anna, [alice, bob, carol])

    decision = mails_of(game).get(kind="decision")
    started = list(mails_of(game).filter(kind="game_start"))

    assert decision.subject == "[World War 5] Spring Cup, round 1, table 1: your setup placement"
    assert "Spring Cup, round 1, table 1 waits for your setup placement" in decision.body_text
    assert "<strong>Spring Cup, round 1, table 1</strong>" in decision.body_html
    assert len(started) == 3
    assert all(
        m.subject == "[World War 5] Spring Cup, round 1, table 1 has started" for m in started
    )


def test_the_label_follows_the_event_and_a_lobby_game_keeps_its_name(
    league_a: League, anna: Any, alice: Any, bob: Any
) -> None:
    game = started_cup(league_a, anna, [alice, bob])
    event = game.tournament_table.round.tournament

    services.update_tournament(event, anna, name="Spring Cup 2026")

    play_at_random(game, 1)  # the first setup placement: the next player's turn is mailed

    assert selectors.game_title(game) == "Spring Cup 2026, round 1, table 1"
    latest = mails_of(game).filter(kind="decision").latest("pk")
    assert latest.subject == "[World War 5] Spring Cup 2026, round 1, table 1: your setup placement"
    lobby = Game.objects.create(name="Friendly")
    assert selectors.game_title(lobby) == "Friendly"


def test_an_answer_to_a_reply_without_a_subject_names_the_event(
    league_a: League, anna: Any, alice: Any, bob: Any
) -> None:
    game = started_cup(league_a, anna, [alice, bob])

    assert subject_for("", game) == "[World War 5] Spring Cup, round 1, table 1: your reply"
