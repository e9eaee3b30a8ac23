"""Adjudication at a round's deadline under the turn-limit house rule (R28): the
published ranking for the players still in, the elimination order for the rest."""

from __future__ import annotations

import pytest

from tests.engine.helpers import BLUE, OPENING, PURPLE, RED, YELLOW, load, position
from tournaments.core.adjudication import Elimination
from ww5.engine import forfeit
from ww5.tournament import MEASURE_WORDS, MEASURES, adjudicate, eliminations_from_moves

RANKING = ("territories", "pips", "elimination")
FOUR = (BLUE, PURPLE, YELLOW, RED)
ASIA = {
    "north-asia": (YELLOW, "small"),
    "southwest-asia": (YELLOW, "medium"),
    "southeast-asia": (YELLOW, "large"),
}
TWO_ALIVE = {"alaska": (BLUE, "small"), "north-asia": (YELLOW, "small")}


def test_r28_players_still_in_rank_by_territories_then_pips() -> None:
    pieces = {**OPENING, **ASIA, "brazil": (BLUE, "small"), "southeast-asia": (YELLOW, "large")}
    pieces["southwest-asia"] = (YELLOW, "large")
    state = load(pieces, players=(BLUE, PURPLE, YELLOW))
    result = adjudicate(state, RANKING)
    values = {v.player: v.values for v in result.values}
    assert values == {BLUE: (4, 7), PURPLE: (3, 6), YELLOW: (3, 7)}
    assert result.order == ((BLUE,), (YELLOW,), (PURPLE,))
    assert result.decided_by == ("territories", "pips")
    assert result.ranking == RANKING


def test_r28_players_equal_on_every_step_are_tied() -> None:
    result = adjudicate(load(OPENING), ("territories", "pips"))
    assert result.order == ((BLUE, PURPLE),)
    assert result.decided_by == ()


def test_r28_the_home_and_continent_rankings_measure_what_they_say() -> None:
    pieces = {**OPENING, "colombia": (BLUE, "small"), "brazil": (BLUE, "small")}
    del pieces["alaska"]
    result = adjudicate(load(pieces), ("continent", "home"))
    values = {v.player: v.values for v in result.values}
    assert values == {BLUE: (2, 2), PURPLE: (0, 3)}
    assert result.order == ((BLUE,), (PURPLE,))
    assert set(MEASURE_WORDS) == set(MEASURES)


def test_r28_eliminated_players_rank_below_survivors_the_later_the_better() -> None:
    data = position(TWO_ALIVE, players=FOUR, eliminated=(PURPLE, RED))
    out = (Elimination((PURPLE,)), Elimination((RED,)))
    result = adjudicate(data, RANKING, out)
    assert result.order == ((BLUE, YELLOW), (RED,), (PURPLE,))
    assert result.decided_by == ("elimination", "elimination")
    by_name = {v.player: v for v in result.values}
    assert (by_name[RED].eliminated, by_name[PURPLE].eliminated) == (2, 1)
    assert by_name[RED].values == ()


def test_r24_players_eliminated_at_one_moment_are_tied() -> None:
    data = position(TWO_ALIVE, players=FOUR, eliminated=(PURPLE, RED))
    result = adjudicate(data, RANKING, (Elimination((PURPLE, RED)),))
    assert result.order == ((BLUE, YELLOW), (PURPLE, RED))


def test_r31_a_forfeiter_ranks_below_everyone_eliminated_in_play() -> None:
    data = position(TWO_ALIVE, players=FOUR, eliminated=(RED, PURPLE))
    out = (Elimination((RED,), forfeit=True), Elimination((PURPLE,)))
    result = adjudicate(data, RANKING, out)
    assert result.order == ((BLUE, YELLOW), (PURPLE,), (RED,))
    assert {v.player: v.forfeit for v in result.values}[RED]


def test_r31_a_forfeit_made_with_the_engine_is_ranked_from_its_events() -> None:
    state = load({**OPENING, **ASIA}, players=(BLUE, PURPLE, YELLOW))
    after, events = forfeit(state, PURPLE)
    out = eliminations_from_moves([(f"forfeit {PURPLE}", events)])
    assert out == (Elimination((PURPLE,), forfeit=True),)
    result = adjudicate(after, RANKING, out)
    assert result.order == ((BLUE, YELLOW), (PURPLE,))


def test_eliminations_are_read_from_the_move_log_as_the_games_app_stores_it() -> None:
    moves = [
        ("invade usa north-asia", [{"type": "eliminated", "players": [YELLOW]}]),
        (
            f"forfeit {RED}",
            [{"type": "forfeit", "player": RED}, {"type": "eliminated", "players": [RED]}],
        ),
        ("invade canada scandinavia", [{"type": "eliminated", "players": [BLUE, PURPLE]}]),
    ]
    assert eliminations_from_moves(moves) == (
        Elimination((YELLOW,)),
        Elimination((RED,), forfeit=True),
        Elimination((BLUE, PURPLE)),
    )


def test_without_the_log_each_eliminated_player_went_out_alone_in_play() -> None:
    data = position(TWO_ALIVE, players=FOUR, eliminated=(PURPLE, RED))
    assert adjudicate(data, RANKING).order == ((BLUE, YELLOW), (RED,), (PURPLE,))


def test_an_unknown_ranking_or_a_finished_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown"):
        adjudicate(load(OPENING), ("luck",))
    finished = load(
        {"alaska": (BLUE, "small")},
        phase="over",
        to_move=None,
        winner=BLUE,
        eliminated=(PURPLE,),
    )
    with pytest.raises(ValueError, match="finished"):
        adjudicate(finished, RANKING)


def test_eliminations_must_match_the_position() -> None:
    data = position(TWO_ALIVE, players=FOUR, eliminated=(PURPLE, RED))
    with pytest.raises(ValueError, match="do not match"):
        adjudicate(data, RANKING, (Elimination((PURPLE,)),))
