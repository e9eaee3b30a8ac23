"""The game-kind registry: World War 5 is registered when the site starts, keys are
checked, and every game, event and ladder made before kinds existed plays World War 5."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.kinds import (
    DEFAULT_KIND,
    EVERYONE,
    SPECTATOR,
    UnknownKind,
    all_kinds,
    kind_choices,
    kind_named,
    player_viewer,
    register_kind,
    unregister_kind,
)
from games.models import Game
from ratings.models import Ladder
from tournaments.models import Tournament
from ww5 import engine


def test_world_war_5_is_registered_at_start() -> None:
    kind = kind_named("ww5")
    assert kind.name == "World War 5"
    assert (kind.min_players, kind.max_players) == (2, 6)  # R3
    assert ("ww5", "World War 5") in kind_choices()
    assert kind in all_kinds()


def test_an_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(UnknownKind, match="'chess'"):
        kind_named("chess")


def test_a_key_is_lowercase_words() -> None:
    odd = type(kind_named("ww5"))()
    odd.key = "Odd Game"  # type: ignore[misc]

    with pytest.raises(ValueError, match="lowercase"):
        register_kind(odd)
    unregister_kind("Odd Game")
    assert "Odd Game" not in dict(kind_choices())


@pytest.mark.parametrize("model", [Game, Tournament, Ladder])
def test_games_events_and_ladders_default_to_world_war_5(model: Any) -> None:
    assert model._meta.get_field("kind").default == DEFAULT_KIND == "ww5"


def test_world_war_5_options_are_checked() -> None:
    kind = kind_named("ww5")
    assert kind.check_options({}) == {
        "board": "original",
        "setup": "strict",
        "retreat_into_origin": False,
    }
    assert kind.check_options({"setup": "casual"})["setup"] == "casual"
    with pytest.raises(ValueError, match="unknown board 'moon'"):
        kind.check_options({"board": "moon"})
    with pytest.raises(ValueError, match="unknown options: colour"):
        kind.check_options({"colour": "red"})


def test_world_war_5_events_and_ladders_play_the_strict_setup_without_the_house_variant() -> None:
    kind = kind_named("ww5")
    chosen = {"board": "balanced", "setup": "casual", "retreat_into_origin": True}
    assert kind.event_options(chosen) == {
        "board": "balanced",
        "setup": "strict",
        "retreat_into_origin": False,
    }
    assert kind.event_options({}) == kind.check_options({})
    with pytest.raises(ValueError, match="unknown board 'moon'"):
        kind.event_options({"board": "moon"})


def test_world_war_5_plays_through_the_kind() -> None:
    kind = kind_named("ww5")
    rng = random.Random(5)
    state, _ = engine.new_game([("a", "europe"), ("b", "asia")], {}, rng)
    assert kind.load(kind.dump(state)) == state
    (first,) = kind.deciders(state)
    other = "b" if first == "a" else "a"
    assert kind.legal(state, other) == ()
    action = kind.bots["greedy"](state, first, rng)
    assert action in kind.legal(state, first)
    after, _ = kind.apply(state, first, action, rng)
    assert kind.deciders(after) == (other,)  # R7: strict setup, one piece each in turn
    assert not kind.is_over(after)
    with pytest.raises(ValueError):
        kind.parse(after, first, "fly to the moon")


def test_world_war_5_hides_nothing() -> None:
    kind = kind_named("ww5")
    state, _ = engine.new_game([("a", "europe"), ("b", "asia")], {}, random.Random(1))
    position = kind.dump(state)
    events = [{"type": "roll", "dice": [3, 4]}]
    for viewer in (SPECTATOR, EVERYONE, player_viewer("yellow")):
        assert kind.view(position, viewer) == position
        assert kind.events_for(events, viewer) == events
