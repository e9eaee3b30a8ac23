"""Two bots on the public API: ``random`` and ``greedy``.

A bot is a function ``(view, rng) -> action text`` for the player the view belongs to,
called when that player is awaited. Its only input is the player's :func:`view` (K33):
no hidden card, objective or sealed decision reaches it. ``rng`` is any source with
``randint(a, b)``; bots never touch global state.

- ``random`` picks uniformly among sensible legal actions (an attack from any origin
  that can attack, one fortify, ``end``), always places all its armies and so always
  finishes its turn.
- ``greedy`` trades every set, reinforces the border it means to push through, attacks
  with good odds toward its own objective, moves armies forward and fortifies its
  frontier.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from .board import BOARDS, JOLLY, Board
from .dice import RandomSource
from .state import MAX_WAR_COST, WAR_DIE

View = Mapping[str, Any]
Bot = Callable[[View, RandomSource], str]


class _Seen:
    """What a view tells a bot, indexed for it."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.me: str = view["view"]
        self.board: Board = BOARDS[view["board"]]
        self.owner: dict[str, str] = {t: e["owner"] for t, e in view["territories"].items()}
        self.armies: dict[str, int] = {t: e["armies"] for t, e in view["territories"].items()}
        self.turn: Mapping[str, Any] | None = view["turn"]
        self.war_die = view["options"]["battle"] == WAR_DIE
        self.mine = [t for t in self.board.sorted_territories if self.owner[t] == self.me]
        self.truce = {
            t["defender"] if t["attacker"] == self.me else t["attacker"]
            for t in view["truces"]
            if self.me in (t["attacker"], t["defender"])
        }

    def enemies_of(self, t: str) -> list[str]:
        return sorted(n for n in self.board.neighbors[t] if self.owner[n] != self.me)

    def attackable(self, t: str) -> list[str]:
        return [n for n in self.enemies_of(t) if self.owner[n] not in self.truce]

    def frontier(self) -> list[str]:
        return [t for t in self.mine if self.enemies_of(t)]

    def sets(self) -> list[tuple[int, tuple[str, str, str]]]:
        """Every distinct tradeable set in the hand with its value (K15)."""
        hand = self.view["hands"][self.me]
        found: dict[tuple[str, str, str], int] = {}
        for trio in combinations(hand, 3):
            a, b, c = sorted(trio)
            value = _set_value(self.board, (a, b, c))
            if value is not None:
                bonus = 2 if any(x != JOLLY and self.owner[x] == self.me for x in trio) else 0
                found[(a, b, c)] = value + bonus
        return sorted(((v, k) for k, v in found.items()), reverse=True)


def _set_value(board: Board, cards: Sequence[str]) -> int | None:
    jolly = sum(1 for c in cards if c == JOLLY)
    symbols = [board.symbol[c] for c in cards if c != JOLLY]
    if jolly == 0 and len(set(symbols)) in (1, 3):
        key = symbols[0] if len(set(symbols)) == 1 else "mixed"
        return board.card_values[key]
    if jolly == 1 and symbols[0] == symbols[1]:
        return board.card_values[JOLLY]
    return None


def _place(split: Mapping[str, int]) -> str:
    return "place " + ", ".join(f"{n} {t}" for t, n in sorted(split.items()) if n > 0)


def _pick(rng: RandomSource, items: Sequence[str]) -> str:
    return items[rng.randint(0, len(items) - 1)]


def _placement_need(seen: _Seen) -> int | None:
    v = seen.view
    if v["phase"] == "placement":
        left: int = v["placement"]["left"][seen.me]
        return left if v["placement"]["sealed"] is not None else min(3, left)
    return None


# -- random ----------------------------------------------------------------------------
def random_bot(view: View, rng: RandomSource) -> str:
    """Uniformly among sensible legal actions; every army is placed, turns finish."""
    seen = _Seen(view)
    need = _placement_need(seen)
    if need is not None:
        return _random_place(seen, need, rng)
    turn = seen.turn
    assert turn is not None
    if turn["war"] is not None:
        cap = min(MAX_WAR_COST, seen.armies[turn["war"]["to"]] - 1)
        choice = rng.randint(-1, cap)
        return "war flag" if choice < 0 else f"war cost {choice}"
    if turn["move_in"] is not None:
        m = turn["move_in"]
        return f"move {rng.randint(m['moved'], m['max'])}"
    if turn["pool"] > 0:
        sets = seen.sets()
        if sets and turn["step"] == "reinforce" and rng.randint(0, 1):
            return "trade " + ", ".join(_pick_set(sets, rng))
        return _random_place(seen, turn["pool"], rng)
    options: list[str] = ["end"]
    sets = seen.sets()
    if sets and turn["step"] == "reinforce":
        options.append("trade " + ", ".join(_pick_set(sets, rng)))
    for origin in seen.mine:
        if seen.armies[origin] < 2:
            continue
        for target in seen.attackable(origin):
            options.append(_random_attack(seen, origin, target, rng))
    moves = [
        (a, b)
        for a in seen.mine
        if seen.armies[a] > 1
        for b in sorted(seen.board.neighbors[a])
        if seen.owner[b] == seen.me
    ]
    if moves:
        a, b = moves[rng.randint(0, len(moves) - 1)]
        options.append(f"fortify {a} {b} {rng.randint(1, seen.armies[a] - 1)}")
    return _pick(rng, options)


def _pick_set(sets: list[tuple[int, tuple[str, str, str]]], rng: RandomSource) -> tuple[str, ...]:
    return sets[rng.randint(0, len(sets) - 1)][1]


def _random_place(seen: _Seen, armies: int, rng: RandomSource) -> str:
    split: dict[str, int] = {}
    for _ in range(armies):
        t = _pick(rng, seen.mine)
        split[t] = split.get(t, 0) + 1
    return _place(split)


def _random_attack(seen: _Seen, origin: str, target: str, rng: RandomSource) -> str:
    head = f"attack {target} from {origin}"
    if seen.war_die:
        cap = min(MAX_WAR_COST, seen.armies[origin] - 2)
        cost = rng.randint(-1, cap)
        return f"{head} flag" if cost < 0 else f"{head} cost {cost} move all"
    stop = "once" if rng.randint(0, 1) else "until conquered"
    return f"{head} {stop} move {rng.randint(1, seen.armies[origin] - 1)}"


# -- greedy ----------------------------------------------------------------------------
def greedy_bot(view: View, rng: RandomSource) -> str:
    """Trade, reinforce the chosen border, attack with good odds toward the objective,
    fortify the frontier."""
    seen = _Seen(view)
    need = _placement_need(seen)
    if need is not None:
        return _greedy_place(seen, need, spread=view["placement"]["sealed"] is not None)
    turn = seen.turn
    assert turn is not None
    if turn["war"] is not None:
        return f"war cost {min(MAX_WAR_COST, seen.armies[turn['war']['to']] - 1)}"
    if turn["move_in"] is not None:
        m = turn["move_in"]
        origin = m["from"]
        return f"move {m['max'] if not seen.attackable(origin) else max(m['moved'], m['max'] // 2)}"
    sets = seen.sets()
    if sets and turn["step"] == "reinforce":
        return "trade " + ", ".join(sets[0][1])
    if turn["pool"] > 0:
        return _greedy_place(seen, turn["pool"], spread=False)
    attack = _best_attack(seen)
    if attack is not None:
        return attack
    return _greedy_fortify(seen) or "end"


def _weights(seen: _Seen) -> dict[str, float]:
    """How much the bot wants each territory, from its own objective (K27, K28)."""
    board = seen.board
    objective = board.objectives[seen.view["objectives"][seen.me]]
    weight = {t: 1.0 for t in board.territories}
    if objective.destroy is not None:
        victims = [p["name"] for p in seen.view["players"] if p["color"] == objective.destroy]
        gone = {o["player"] for o in seen.view["out"]}
        if victims and victims[0] != seen.me and victims[0] not in gone:
            for t, o in seen.owner.items():
                if o == victims[0]:
                    weight[t] += 3.0
    wanted = set(objective.continents)
    if objective.plus_any:
        # the cheapest other continent: the one with the fewest territories to take
        others = [c for c in board.continents if c not in wanted]
        wanted.add(
            min(
                others,
                key=lambda c: sum(
                    1 for t in board.continent_territories[c] if seen.owner[t] != seen.me
                ),
            )
        )
    if not wanted and objective.destroy is None:
        # a territory count: the small continents the bot is closest to holding
        wanted = {
            c
            for c in board.continents
            if sum(1 for t in board.continent_territories[c] if seen.owner[t] == seen.me) * 2
            >= len(board.continent_territories[c])
        }
    for c in wanted:
        for t in board.continent_territories[c]:
            weight[t] += 2.0
    return weight


def _greedy_place(seen: _Seen, armies: int, spread: bool) -> str:
    weight = _weights(seen)
    frontier = seen.frontier() or seen.mine

    def score(t: str) -> float:
        targets = seen.enemies_of(t)
        best = max((weight[n] / (1 + seen.armies[n]) for n in targets), default=0.0)
        return weight[t] + 4 * best

    ranked = sorted(frontier, key=lambda t: (-score(t), t))
    chosen = ranked[: 3 if spread else 1]
    split = {t: armies // len(chosen) for t in chosen}
    split[chosen[0]] += armies - sum(split.values())
    return _place(split)


def _best_attack(seen: _Seen) -> str | None:
    weight = _weights(seen)
    best: tuple[float, str] | None = None
    for origin in seen.mine:
        have = seen.armies[origin]
        if have < 3:
            continue
        for target in seen.attackable(origin):
            held = seen.armies[target]
            if seen.war_die:
                needed = min(MAX_WAR_COST, held - 1) + 1
                if needed > min(MAX_WAR_COST, have - 2):
                    continue
                odds = 1.0 - needed / have
                text = f"attack {target} from {origin} cost {needed}"
            else:
                if have < held + 2:
                    continue
                odds = (have - held) / have
                text = f"attack {target} from {origin} until {max(2, held // 2 + 1)} left"
            score = odds * weight[target]
            if best is None or score > best[0]:
                best = (score, text)
    return None if best is None else best[1]


def _greedy_fortify(seen: _Seen) -> str | None:
    """Move the largest idle stack behind the lines to a neighbour nearer the front."""
    interior = [t for t in seen.mine if not seen.enemies_of(t) and seen.armies[t] > 1]
    for origin in sorted(interior, key=lambda t: (-seen.armies[t], t)):
        steps = [n for n in sorted(seen.board.neighbors[origin]) if seen.owner[n] == seen.me]
        front = [n for n in steps if seen.enemies_of(n)]
        if front or steps:
            return f"fortify {origin} {(front or steps)[0]} {seen.armies[origin] - 1}"
    return None


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
