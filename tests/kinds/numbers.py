"""Secret numbers: a small game with hidden information, which exists only in the tests.

Each round every player still in the game picks a number from 1 to 5 at once, sealed from
the others; once all have picked, the picks are revealed together and the highest number
picked by one player alone scores a point. After the last round the players rank by
points. A player's own pick shows to them at once; the others see only that they picked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any, ClassVar

from games.kinds import OVER, PLAY, Bot, Dice, Event, GameKind, Position, Refused, Viewer

SEALED = "sealed"
NUMBERS = range(1, 6)


def _random_pick(state: Position, player: str, rng: Random) -> str:
    return f"pick {rng.randint(1, 5)}"


class SecretNumbers(GameKind):
    key: ClassVar[str] = "secret-numbers"
    name: ClassVar[str] = "Secret numbers"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    template_folder: ClassVar[str] = "secret_numbers"
    bots: ClassVar[Mapping[str, Bot]] = {"random": _random_pick}

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 3}

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        checked = {**self.default_options(), **options}
        if set(checked) != {"rounds"} or checked["rounds"] not in range(1, 10):
            raise ValueError("a game of secret numbers has 1 to 9 rounds")
        return checked

    def options_fields(self) -> dict[str, Any]:
        from django import forms

        return {"rounds": forms.IntegerField(label="Rounds", min_value=1, max_value=9, initial=3)}

    def seat_name(self, game: Any, seat: Any) -> str:
        return f"p{seat.number}"

    def start(
        self,
        players: Sequence[tuple[str, str]],
        options: Mapping[str, Any],
        rng: Dice,
        first: int | None = None,
    ) -> tuple[Position, list[Event]]:
        return self.start_again(players, options, []), []

    def start_again(
        self, players: Sequence[tuple[str, str]], options: Mapping[str, Any], record: list[Event]
    ) -> Position:
        """The position before the first pick: everyone picks at once, so no one begins."""
        names = [name for name, _ in players]
        return {
            "players": names,
            "rounds": self.check_options(options)["rounds"],
            "round": 1,
            "picks": {},
            "scores": dict.fromkeys(names, 0),
            "out": [],
        }

    def load(self, position: Position) -> Position:
        return {**position, "picks": dict(position["picks"]), "scores": dict(position["scores"])}

    def dump(self, state: Position) -> Position:
        return self.load(state)

    def _in_game(self, state: Position) -> list[str]:
        return [p for p in state["players"] if p not in state["out"]]

    def phase(self, state: Position) -> str:
        if state["round"] > state["rounds"] or len(self._in_game(state)) < 2:
            return OVER
        return PLAY

    def deciders(self, state: Position) -> tuple[str, ...]:
        if self.phase(state) == OVER:
            return ()
        return tuple(p for p in self._in_game(state) if p not in state["picks"])

    def legal(self, state: Position, player: str) -> Sequence[str]:
        return [f"pick {n}" for n in NUMBERS] if player in self.deciders(state) else []

    def parse(self, state: Position, player: str, text: str) -> str:
        words = text.lower().split()
        number = words[-1] if words and words[0] in ("pick", words[-1]) else ""
        action = f"pick {number}"
        if action not in self.legal(state, player):
            raise Refused(f"{text!r} is not a pick from 1 to 5", "pick a number from 1 to 5")
        return action

    def apply(
        self, state: Position, player: str, action: str, rng: Dice
    ) -> tuple[Position, list[Event]]:
        after = self.load(state)
        after["picks"][player] = int(action.split()[1])
        events: list[Event] = [{"type": "pick", "player": player, "number": after["picks"][player]}]
        return self._reveal_if_all_in(after, events)

    def _reveal_if_all_in(
        self, state: Position, events: list[Event]
    ) -> tuple[Position, list[Event]]:
        if self.phase(state) == OVER or self.deciders(state):
            return state, events
        picks = state["picks"]
        counts = [n for n in picks.values()]
        unique = [n for n in counts if counts.count(n) == 1]
        winner = next((p for p, n in picks.items() if unique and n == max(unique)), None)
        if winner is not None:
            state["scores"][winner] += 1
        events.append({"type": "reveal", "picks": dict(picks), "scorer": winner})
        state["picks"] = {}
        state["round"] += 1
        return state, events

    def replay(self, state: Position, player: str, action: str, dice: Sequence[int]) -> Position:
        if action.startswith("forfeit "):
            return self.forfeit(state, player)[0]
        return self.apply(state, player, action, Random())[0]

    def forfeit(self, state: Position, player: str) -> tuple[Position, list[Event]]:
        if player in state["out"]:
            raise Refused(f"{player} is already out of the game")
        after = self.load(state)
        after["out"] = [*after["out"], player]
        after["picks"].pop(player, None)
        return self._reveal_if_all_in(after, [{"type": "forfeit", "player": player}])

    def default_decision(self, state: Position, player: str, rng: Random) -> str:
        return "pick 1"

    def finishing_order(
        self, state: Position, history: Sequence[tuple[str, list[Event]]]
    ) -> list[list[str]]:
        playing = self._in_game(state)
        points = sorted({state["scores"][p] for p in playing}, reverse=True)
        groups = [[p for p in playing if state["scores"][p] == score] for score in points]
        return groups + [[p] for p in reversed(state["out"])]

    # --- tournament hooks: a game cut short ranks by points; a forfeit is out at once

    def adjudication_measures(self) -> Mapping[str, str]:
        return {"points": "points scored"}

    def measure(
        self, position: Position, measures: Sequence[str]
    ) -> dict[str, tuple[int, ...] | None]:
        if set(measures) - {"points"}:
            raise ValueError(f"unknown measures: {measures}")
        return {
            p: None if p in position["out"] else tuple(position["scores"][p] for _ in measures)
            for p in position["players"]
        }

    def eliminations(
        self, history: Sequence[tuple[str, list[Event]]]
    ) -> tuple[tuple[tuple[str, ...], bool], ...]:
        return tuple(
            ((event["player"],), True)
            for _, events in history
            for event in events
            if event["type"] == "forfeit"
        )

    # --- what each reader may see: another player's pick is sealed until revealed

    def view(self, position: Position, viewer: Viewer) -> Position:
        if viewer.everything:
            return position
        picks = {p: n if p == viewer.player else SEALED for p, n in position["picks"].items()}
        return {**position, "picks": picks}

    def events_for(self, events: Iterable[Event], viewer: Viewer) -> list[Event]:
        return [
            event
            for event in events
            if viewer.everything or event["type"] != "pick" or event["player"] == viewer.player
        ]

    def action_for(
        self, action: str, player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> str:
        if viewer.everything or player == viewer.player or not action.startswith("pick"):
            return action
        return f"pick ({SEALED})"

    def dice_for(
        self, dice: list[int], player: str, viewer: Viewer, events: Sequence[Event] = ()
    ) -> list[int]:
        return dice
