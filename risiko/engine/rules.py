"""The rules K1–K39 of ``shared/rules/risiko.md``: setup, checking and applying actions,
forfeits, deadline defaults and turn scripts.

Every public function works on a copy of the state it is given and returns the copy: a
refused action raises :class:`IllegalAction` and changes nothing (the list-backed
random source is wound back too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .board import BOARDS, JOLLY, Board
from .dice import ListRandom, RandomSource, RecordingRandom, shuffle
from .errors import IllegalAction
from .notation import Action, Answer, Attack, End, Fortify, Move, Place, Trade, read
from .state import (
    ATTACK,
    DICE,
    ELIMINATED,
    FORFEIT,
    MAX_PLAYERS,
    MAX_WAR_COST,
    MIN_PLAYERS,
    MOVE_IN,
    OVER,
    PER_CARD,
    PER_SET,
    PLACEMENT,
    PLAY,
    REINFORCE,
    ROUNDS,
    SEALED,
    WAR,
    WAR_DIE,
    MoveIn,
    Options,
    Out,
    Placement,
    Seat,
    State,
    Truce,
    Turn,
    War,
)

Event = dict[str, Any]
Report = list[dict[str, Any]]

OPTION_VALUES: dict[str, tuple[object, ...]] = {
    "board": tuple(BOARDS),
    "placement": (SEALED, ROUNDS),
    "min_reinforcement": (0, 3),
    "territory_bonus": (PER_SET, PER_CARD),
    "battle": (DICE, WAR_DIE),
}


# -- options and seats --------------------------------------------------------------------
def read_options(options: Mapping[str, Any], complete: bool = False) -> Options:
    """The ruleset options (defaults for the ones left out, unless ``complete``)."""
    if not isinstance(options, Mapping):
        raise ValueError("options must be an object")
    unknown = sorted(set(options) - set(OPTION_VALUES))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} (K39g: no resources or factions)")
    values: dict[str, Any] = {}
    for key, allowed in OPTION_VALUES.items():
        if key not in options:
            if complete and key != "board":
                raise ValueError(f"option {key!r} is missing")
            continue
        value = options[key]
        if isinstance(value, bool) or value not in allowed or type(value) is not type(allowed[0]):
            shown = ", ".join(repr(a) for a in allowed)
            raise ValueError(f"option {key} is {value!r}; it must be one of {shown}")
        values[key] = value
    return Options(**values)


def read_seats(seats: Sequence[Any], board: Board) -> tuple[Seat, ...]:
    if not isinstance(seats, Sequence) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS}-{MAX_PLAYERS} players (K4)")
    found: list[Seat] = []
    for seat in seats:
        if isinstance(seat, Seat):
            found.append(seat)
            continue
        if not isinstance(seat, Mapping) or set(seat) != {"name", "color"}:
            raise ValueError("each player is exactly {name, color}")
        name, color = seat["name"], seat["color"]
        if not isinstance(name, str) or not name.strip():
            raise ValueError("a player's name must be a non-empty string")
        if color not in board.colours:
            raise ValueError(f"unknown colour {color!r}: one of {', '.join(board.colours)}")
        found.append(Seat(name, color))
    if len({s.name for s in found}) != len(found):
        raise ValueError("two players share a name")
    if len({s.color for s in found}) != len(found):
        raise ValueError("two players share a colour (K4)")
    return tuple(found)


# -- setup (K6-K11) -----------------------------------------------------------------------
def new_game(seats: Sequence[Any], options: Mapping[str, Any], rng: RandomSource) -> State:
    """A new game in its placement phase: start rolls, objectives, the deal and the pile."""
    opts = read_options(options)
    board = BOARDS[opts.board]
    players = read_seats(seats, board)
    mark = _mark(rng)
    try:
        order = _start_order(list(players), rng)
        objectives = shuffle(board.objective_order, rng)
        dealt = shuffle(board.territories, rng)
        deck = shuffle(board.cards, rng)
    except Exception:
        _reset(rng, mark)
        raise
    owner = {t: order[-1 - (k % len(order))].name for k, t in enumerate(dealt)}
    initial = board.initial_armies[len(order)]
    counts = Counter(owner.values())
    left = {seat.name: initial - counts[seat.name] for seat in order}
    names = [seat.name for seat in order]
    return State(
        board=board,
        options=opts,
        players=tuple(order),
        phase=PLACEMENT,
        awaiting=list(names) if opts.placement == SEALED else [names[0]],
        owner=owner,
        armies={t: 1 for t in board.territories},
        objectives={name: objectives[i] for i, name in enumerate(names)},
        hands={name: [] for name in names},
        deck=deck,
        discard=[],
        placement=Placement(left, {n: None for n in names} if opts.placement == SEALED else None),
        turn=None,
        truces=[],
        out=[],
        winner=None,
    )


def _start_order(group: list[Seat], rng: RandomSource) -> list[Seat]:
    """K6: everyone rolls; tied groups re-roll, the highest value's group first."""
    rolls = [(seat, rng.randint(1, 6)) for seat in group]
    order: list[Seat] = []
    for value in sorted({v for _, v in rolls}, reverse=True):
        tied = [seat for seat, v in rolls if v == value]
        order += tied if len(tied) == 1 else _start_order(tied, rng)
    return order


# -- checking (legality) ------------------------------------------------------------------
def check(state: State, player: str, action: Action) -> Action:
    """The action if ``player`` may take it now (``all`` resolved to a number), else
    :class:`IllegalAction` with the reason and the action's canonical form."""

    def no(why: str) -> IllegalAction:
        return IllegalAction(why, action.canonical())

    if player not in state.names:
        raise no(f"{player!r} is not a player of this game")
    if state.phase == OVER:
        raise no("the game is over")
    if state.phase == PLACEMENT:
        return _check_placement(state, player, action, no)
    turn = state.turn
    assert turn is not None
    if state.is_out(player):
        raise no("you are out of the game")
    if turn.war is not None:
        war = turn.war
        if player != war.defender:
            raise no(f"waiting for {war.defender} to answer the war on {war.target}")
        if not isinstance(action, Answer):
            raise no("answer the war first: 'war cost <n>' or 'war flag'")
        cap = min(MAX_WAR_COST, state.armies[war.target] - 1)
        if action.cost is not None and action.cost > cap:
            raise no(f"your war cost can be at most {cap} (K39b)")
        return action
    if isinstance(action, Answer):
        raise no("there is no war to answer")
    if player != turn.player:
        raise no(f"it is {turn.player}'s turn")
    move_in = turn.move_in
    if move_in is not None:
        if not isinstance(action, Move):
            raise no(f"move in first: 'move <n>', {move_in.moved} to {move_in.max} (K22)")
        n = move_in.max if action.armies is None else action.armies
        if not move_in.moved <= n <= move_in.max:
            raise IllegalAction(
                f"move in between {move_in.moved} and {move_in.max} armies (K22)", f"move {n}"
            )
        return Move(n)
    if isinstance(action, Move):
        raise no("there is no move-in to make")
    if isinstance(action, Place):
        if turn.pool == 0:
            raise no("you have no armies to place")
        _check_own(state, player, [t for t, _ in action.items], no)
        if action.total > turn.pool:
            raise no(f"you have {turn.pool} armies to place")
        return action
    if isinstance(action, Trade):
        return _check_trade(state, player, action, no)
    if turn.pool > 0:
        raise no(f"place your {turn.pool} armies first")
    if isinstance(action, Attack):
        return _check_attack(state, player, action, no)
    if isinstance(action, Fortify):
        _check_own(state, player, [action.origin, action.target], no)
        if not state.board.adjacent(action.origin, action.target):
            raise no(f"{action.target} does not border {action.origin} (K24)")
        have = state.armies[action.origin]
        n = have - 1 if action.armies is None else action.armies
        if not 1 <= n <= have - 1:
            raise IllegalAction(
                f"{action.origin} holds {have}: move 1 to {have - 1} armies, leaving 1 (K24)",
                Fortify(action.origin, action.target, n).canonical(),
            )
        return Fortify(action.origin, action.target, n)
    if isinstance(action, End):
        return action
    raise no("this action is not taken by a player")


def _check_placement(
    state: State, player: str, action: Action, no: Callable[[str], IllegalAction]
) -> Action:
    placement = state.placement
    assert placement is not None
    if not isinstance(action, Place):
        raise no("the initial placement is going on: only 'place' is possible (K10)")
    if player not in state.awaiting:
        if placement.sealed is not None:
            raise no("your placement is already in; a sealed placement is final (K38)")
        raise no(f"it is {state.awaiting[0]}'s turn to place (K10)")
    _check_own(state, player, [t for t, _ in action.items], no)
    left = placement.left[player]
    need = left if placement.sealed is not None else min(3, left)
    if action.total != need:
        raise no(f"place exactly {need} armies, not {action.total} (K10)")
    return action


def _check_own(
    state: State, player: str, territories: Sequence[str], no: Callable[[str], IllegalAction]
) -> None:
    for t in territories:
        if state.owner[t] != player:
            raise no(f"{t} is not yours")


def set_value(state: State, cards: Sequence[str]) -> int | None:
    """K15: the armies a set of three cards is worth, or None if it is not a set."""
    board = state.board
    jolly = sum(1 for c in cards if c == JOLLY)
    symbols = [board.symbol[c] for c in cards if c != JOLLY]
    if jolly == 0:
        if len(set(symbols)) == 1:
            return board.card_values[symbols[0]]
        if len(set(symbols)) == 3:
            return board.card_values["mixed"]
        return None
    if jolly == 1 and symbols[0] == symbols[1]:
        return board.card_values[JOLLY]
    return None


def _check_trade(
    state: State, player: str, action: Trade, no: Callable[[str], IllegalAction]
) -> Action:
    turn = state.turn
    assert turn is not None
    if turn.step != REINFORCE:
        raise no("cards are traded only before the first attack (K13, K15)")
    hand = Counter(state.hands[player])
    for card, count in Counter(action.cards).items():
        if hand[card] < count:
            raise no(f"you do not hold {card}" if hand[card] == 0 else f"you hold one {card}")
    if set_value(state, action.cards) is None:
        raise no(
            "these cards are not a set: three equal symbols, one of each, or a jolly "
            "with two equal symbols (K15)"
        )
    return action


def _check_attack(
    state: State, player: str, action: Attack, no: Callable[[str], IllegalAction]
) -> Action:
    war_die = state.options.battle == WAR_DIE
    if war_die and not action.war:
        raise no("this game uses the war die: attack with 'cost <n>' or 'flag' (K39a)")
    if not war_die and action.war:
        raise no("this game rolls dice: a war cost or flag is not possible (K39)")
    if state.owner[action.origin] != player:
        raise no(f"{action.origin} is not yours")
    if not state.board.adjacent(action.origin, action.target):
        raise no(f"{action.target} does not border {action.origin} (K18)")
    defender = state.owner[action.target]
    if defender == player:
        raise no(f"{action.target} is yours (K18)")
    have = state.armies[action.origin]
    if have < 2:
        raise no(f"{action.origin} holds 1 army: an attack needs at least 2 (K18)")
    if action.war:
        if state.in_truce(player, defender):
            raise no(f"you and {defender} are in a truce (K39e)")
        cap = min(MAX_WAR_COST, have - 2)
        if action.cost is not None and action.cost > cap:
            raise no(f"your war cost from {action.origin} can be at most {cap} (K39a)")
    elif action.until >= 2 and have <= action.until:
        raise no(f"{action.origin} holds {have}: 'until {action.until} left' rolls nothing (K21)")
    return action


# -- applying -----------------------------------------------------------------------------
def _mark(rng: RandomSource) -> int | None:
    return rng.mark() if isinstance(rng, ListRandom | RecordingRandom) else None


def _reset(rng: RandomSource, mark: int | None) -> None:
    if mark is not None and isinstance(rng, ListRandom | RecordingRandom):
        rng.reset(mark)


def parse_action(state: State, player: str, text: str) -> str:
    """The canonical form of ``text`` if it is one action ``player`` may take now."""
    return check(state, player, read(state.board, text)).canonical()


def apply_action(
    state: State, player: str, action: str | Action, rng: RandomSource
) -> tuple[State, list[Event]]:
    """Apply one action (text, read leniently) for ``player``: the new state and events."""
    parsed = read(state.board, action) if isinstance(action, str) else action
    checked = check(state, player, parsed)
    mark = _mark(rng)
    try:
        return _apply(state, player, checked, rng)
    except Exception:
        _reset(rng, mark)
        raise


def _apply(
    state: State, player: str, action: Action, rng: RandomSource
) -> tuple[State, list[Event]]:
    s = state.copy()
    events: list[Event] = []
    if s.phase == PLACEMENT:
        assert isinstance(action, Place)
        _place_initial(s, player, action, events)
        return s, events
    turn = s.turn
    assert turn is not None
    active = turn.player
    if isinstance(action, Place):
        _add_armies(s, action)
        s.turn = turn.but(pool=turn.pool - action.total)
        events.append({"type": "placed", "player": player, "armies": dict(action.items)})
    elif isinstance(action, Trade):
        _trade(s, player, action, events)
    elif isinstance(action, Attack):
        if action.war:
            _open_war(s, player, action, events)
        else:
            _dice_attack(s, player, action, rng, events)
    elif isinstance(action, Move):
        move_in = turn.move_in
        assert move_in is not None and action.armies is not None
        _transfer(s, move_in.origin, move_in.target, action.armies - move_in.moved)
        s.turn = turn.but(step=ATTACK, move_in=None)
        events.append(
            {
                "type": "moved_in",
                "player": player,
                "from": move_in.origin,
                "to": move_in.target,
                "armies": action.armies,
            }
        )
    elif isinstance(action, Answer):
        _reveal(s, action, events)
    elif isinstance(action, Fortify):
        assert action.armies is not None
        _transfer(s, action.origin, action.target, action.armies)
        events.append(
            {
                "type": "fortified",
                "player": player,
                "from": action.origin,
                "to": action.target,
                "armies": action.armies,
            }
        )
        _end_turn(s, rng, events)
        return s, events
    elif isinstance(action, End):
        _end_turn(s, rng, events)
        return s, events
    _check_victory(s, active, events)
    return s, events


def _add_armies(s: State, action: Place) -> None:
    for t, n in action.items:
        s.armies[t] += n


def _transfer(s: State, origin: str, target: str, n: int) -> None:
    s.armies[origin] -= n
    s.armies[target] += n


def _place_initial(s: State, player: str, action: Place, events: list[Event]) -> None:
    placement = s.placement
    assert placement is not None
    if placement.sealed is not None:
        placement.sealed[player] = action.canonical()
        s.awaiting.remove(player)
        events.append({"type": "sealed", "player": player})
        if s.awaiting:
            return
        shown: dict[str, str] = {}
        for name in s.names:
            text = placement.sealed[name]
            assert text is not None
            placed = read(s.board, text)
            assert isinstance(placed, Place)
            _add_armies(s, placed)
            shown[name] = text
        events.append({"type": "revealed", "placements": shown})
        _start_play(s, events)
        return
    _add_armies(s, action)
    placement.left[player] -= action.total
    events.append({"type": "placed", "player": player, "armies": dict(action.items)})
    names = s.names
    at = names.index(player)
    for k in range(1, len(names) + 1):
        name = names[(at + k) % len(names)]
        if placement.left[name] > 0:
            s.awaiting = [name]
            return
    _start_play(s, events)


def _start_play(s: State, events: list[Event]) -> None:
    s.phase = PLAY
    s.placement = None
    _begin_turn(s, s.names[0], 1, events)


def reinforcements(s: State, player: str) -> tuple[int, list[str]]:
    """K14: floor(territories / 3) (at least 3 with the option) plus continent bonuses."""
    held = s.territories_of(player)
    base = len(held) // 3
    if s.options.min_reinforcement == 3:
        base = max(3, base)
    mine = set(held)
    continents = [c for c in s.board.continents if s.board.continent_territories[c] <= mine]
    return base + sum(s.board.continent_bonus[c] for c in continents), continents


def _begin_turn(s: State, player: str, number: int, events: list[Event]) -> None:
    pool, continents = reinforcements(s, player)
    s.turn = Turn(player, number, REINFORCE, pool, False)
    s.awaiting = [player]
    events.append(
        {
            "type": "turn",
            "player": player,
            "number": number,
            "reinforcements": pool,
            "continents": continents,
        }
    )


def _trade(s: State, player: str, action: Trade, events: list[Event]) -> None:
    turn = s.turn
    assert turn is not None
    value = set_value(s, action.cards)
    assert value is not None
    matching = sum(1 for c in action.cards if c != JOLLY and s.owner[c] == player)
    if s.options.territory_bonus == PER_CARD:
        bonus = s.board.territory_bonus * matching
    else:
        bonus = s.board.territory_bonus if matching else 0
    hand = s.hands[player]
    for card in action.cards:
        hand.remove(card)
        s.discard.append(card)
    s.turn = turn.but(pool=turn.pool + value + bonus)
    events.append(
        {
            "type": "traded",
            "player": player,
            "cards": list(action.cards),
            "value": value,
            "bonus": bonus,
        }
    )


def _dice_attack(
    s: State, player: str, action: Attack, rng: RandomSource, events: list[Event]
) -> None:
    origin, target = action.origin, action.target
    stop_at = max(1, action.until)
    cap = 3 if action.dice is None else action.dice
    rolled = False
    conquered = False
    attack_dice = 0
    while not (action.until == 0 and rolled) and s.armies[origin] > stop_at:
        attack_dice = min(cap, 3, s.armies[origin] - 1)
        defend_dice = min(3, s.armies[target])
        attacker = sorted((rng.randint(1, 6) for _ in range(attack_dice)), reverse=True)
        defender = sorted((rng.randint(1, 6) for _ in range(defend_dice)), reverse=True)
        lost = [0, 0]
        for a, d in zip(attacker, defender, strict=False):
            lost[0 if a <= d else 1] += 1
        s.armies[origin] -= lost[0]
        s.armies[target] -= lost[1]
        rolled = True
        events.append(
            {
                "type": "roll",
                "player": player,
                "from": origin,
                "to": target,
                "attacker": attacker,
                "defender": defender,
                "attacker_lost": lost[0],
                "defender_lost": lost[1],
            }
        )
        if s.armies[target] == 0:
            conquered = True
            break
    turn = s.turn
    assert turn is not None
    s.turn = turn.but(step=ATTACK)
    if conquered:
        _conquer(s, player, origin, target, attack_dice, action, events)


def _conquer(
    s: State,
    player: str,
    origin: str,
    target: str,
    moved: int,
    action: Attack,
    events: list[Event],
) -> None:
    """A conquest: ``moved`` armies move in at once, then the move clause or a move-in."""
    loser = s.owner[target]
    s.owner[target] = player
    s.armies[target] = 0
    _transfer(s, origin, target, moved)
    events.append(
        {
            "type": "conquered",
            "player": player,
            "territory": target,
            "from": origin,
            "defender": loser,
        }
    )
    most = moved + s.armies[origin] - 1
    turn = s.turn
    assert turn is not None
    s.turn = turn.but(conquered=True)
    if action.move_all or action.move is not None:
        wanted = most if action.move_all else action.move
        assert wanted is not None
        n = min(max(wanted, moved), most)
        _transfer(s, origin, target, n - moved)
        event: Event = {
            "type": "moved_in",
            "player": player,
            "from": origin,
            "to": target,
            "armies": n,
        }
        if not action.move_all and n != wanted:
            event["asked"] = wanted
        events.append(event)
    elif most > moved:
        s.turn = s.turn.but(step=MOVE_IN, move_in=MoveIn(origin, target, moved, most))
    if loser not in s.owner.values() and not s.is_out(loser):
        s.out.append(Out(loser, ELIMINATED, player))
        cards = s.hands[loser]
        s.hands[player] = sorted(s.hands[player] + cards)
        s.hands[loser] = []
        s.truces = [t for t in s.truces if loser not in (t.attacker, t.defender)]
        events.append({"type": "eliminated", "player": loser, "by": player, "cards": len(cards)})


def _open_war(s: State, player: str, action: Attack, events: list[Event]) -> None:
    defender = s.owner[action.target]
    turn = s.turn
    assert turn is not None
    if s.is_out(defender):
        # K36: neutral armies answer at once with the deadline default (K39b).
        s.turn = turn.but(
            step=WAR, war=War(action.origin, action.target, defender, action.canonical())
        )
        events.append(
            {
                "type": "war",
                "player": player,
                "from": action.origin,
                "to": action.target,
                "defender": defender,
            }
        )
        _reveal(s, Answer(min(MAX_WAR_COST, s.armies[action.target] - 1)), events)
        return
    s.turn = turn.but(step=WAR, war=War(action.origin, action.target, defender, action.canonical()))
    s.awaiting = [defender]
    events.append(
        {
            "type": "war",
            "player": player,
            "from": action.origin,
            "to": action.target,
            "defender": defender,
        }
    )


def _reveal(s: State, answer: Answer, events: list[Event]) -> None:
    """K39c–K39e: both halves of a war are in; pay, conquer or make a truce."""
    turn = s.turn
    assert turn is not None and turn.war is not None
    war = turn.war
    attack = read(s.board, war.attack)
    assert isinstance(attack, Attack)
    player = turn.player
    s.turn = turn.but(step=ATTACK, war=None)
    s.awaiting = [player]
    event: Event = {
        "type": "war_revealed",
        "player": player,
        "defender": war.defender,
        "from": war.origin,
        "to": war.target,
        "attack": war.attack,
        "answer": answer.canonical(),
    }
    events.append(event)
    if attack.cost is None and answer.cost is None:
        s.truces.append(Truce(player, war.defender, turn.number))
        event["result"] = "truce"
        return
    a, d = attack.cost or 0, answer.cost or 0
    s.armies[war.origin] -= a
    s.armies[war.target] -= d
    event.update(attacker_paid=a, defender_paid=d, removed=0)
    if a > d:
        event["result"] = "attacker"
        event["removed"] = s.armies[war.target]  # K39d: the remaining armies go
        _conquer(s, player, war.origin, war.target, 1, attack, events)
    else:
        event["result"] = "defender"


def _end_turn(s: State, rng: RandomSource, events: list[Event], draw: bool = True) -> None:
    """K25, K26: the card, the truces that expire, victory, then the next turn."""
    turn = s.turn
    assert turn is not None
    player = turn.player
    if draw and turn.conquered:
        if not s.deck and s.discard:
            s.deck = shuffle(s.discard, rng)
            s.discard = []
            events.append({"type": "reshuffled", "cards": len(s.deck)})
        if s.deck:
            card = s.deck.pop(0)
            s.hands[player] = sorted(s.hands[player] + [card])
            # "card" is for the drawer alone (K25, K33).
            events.append({"type": "drew", "player": player, "card": card})
    expired = [t for t in s.truces if t.attacker == player and turn.number > t.turn]
    if expired:
        s.truces = [t for t in s.truces if t not in expired]
        for t in expired:
            events.append({"type": "truce_ended", "attacker": t.attacker, "defender": t.defender})
    events.append({"type": "turn_ended", "player": player, "number": turn.number})
    if not s.is_out(player) and _check_victory(s, player, events):
        return
    if _check_last(s, events):
        return
    _begin_turn(s, _next_player(s, player), turn.number + 1, events)


def _next_player(s: State, after: str) -> str:
    names = s.names
    at = names.index(after)
    for k in range(1, len(names) + 1):
        name = names[(at + k) % len(names)]
        if not s.is_out(name):
            return name
    raise AssertionError("nobody is left in the game")


# -- objectives and victory (K27-K31) -----------------------------------------------------
def objective_met(s: State, player: str) -> bool:
    """K28, K29: whether ``player`` holds their objective in this position."""
    board = s.board
    objective = board.objectives[s.objectives[player]]
    if objective.destroy is not None:
        targets = [seat.name for seat in s.players if seat.color == objective.destroy]
        if targets and targets[0] != player:
            gone = [o for o in s.out if o.player == targets[0]]
            if not gone:
                return False
            if gone[0].how == ELIMINATED and gone[0].by == player:
                return True
        assert objective.fallback is not None
        objective = board.objectives[objective.fallback]
    if objective.territories:
        held = sum(
            1 for t, o in s.owner.items() if o == player and s.armies[t] >= objective.min_armies
        )
        if held < objective.territories:
            return False
    mine = {t for t, o in s.owner.items() if o == player}
    full = {c for c in board.continents if board.continent_territories[c] <= mine}
    if not set(objective.continents) <= full:
        return False
    return len(full - set(objective.continents)) >= objective.plus_any


def _win(s: State, player: str, how: str, events: list[Event]) -> None:
    s.phase = OVER
    s.winner = player
    s.turn = None
    s.placement = None
    s.awaiting = []
    events.append({"type": "won", "player": player, "how": how, "objective": s.objectives[player]})


def _check_last(s: State, events: list[Event]) -> bool:
    left = s.in_game()
    if s.phase == PLAY and len(left) == 1:
        _win(s, left[0], "last", events)
        return True
    return False


def _check_victory(s: State, player: str, events: list[Event]) -> bool:
    """K30, K31: checked after every action of the active player, for them only."""
    if s.phase != PLAY:
        return s.phase == OVER
    if _check_last(s, events):
        return True
    if objective_met(s, player):
        _win(s, player, "objective", events)
        return True
    return False


# -- forfeit (K36) ------------------------------------------------------------------------
def forfeit(state: State, player: str) -> tuple[State, list[Event]]:
    """``player`` leaves the game: armies stay as neutrals, the hand is discarded."""
    if state.phase != PLAY:
        raise IllegalAction("a player can forfeit only during play (K36)", f"forfeit {player}")
    if player not in state.names or state.is_out(player):
        raise IllegalAction(f"{player!r} is not in the game", f"forfeit {player}")
    s = state.copy()
    events: list[Event] = [{"type": "forfeit", "player": player}]
    s.out.append(Out(player, FORFEIT, None))
    s.discard.extend(sorted(s.hands[player]))
    s.hands[player] = []
    s.truces = [t for t in s.truces if player not in (t.attacker, t.defender)]
    turn = s.turn
    assert turn is not None
    war = turn.war
    if player == turn.player:
        if war is not None:
            events.append({"type": "war_called_off", "from": war.origin, "to": war.target})
        s.turn = turn.but(step=ATTACK, war=None, move_in=None, pool=0, conquered=False)
        if _check_last(s, events):
            return s, events
        _begin_turn(s, _next_player(s, player), turn.number + 1, events)
        return s, events
    if war is not None and war.defender == player:
        _reveal(s, Answer(min(MAX_WAR_COST, s.armies[war.target] - 1)), events)
        _check_victory(s, turn.player, events)
        return s, events
    _check_last(s, events)
    return s, events


# -- deadline defaults (K35) --------------------------------------------------------------
def default_placement(s: State, player: str, armies: int) -> str:
    """One army at a time on the player's territory with the fewest, ties by id."""
    added: dict[str, int] = {}
    mine = s.territories_of(player)
    for _ in range(armies):
        best = min(mine, key=lambda t: (s.armies[t] + added.get(t, 0), t))
        added[best] = added.get(best, 0) + 1
    return Place(tuple(sorted(added.items()))).canonical()


def default_actions(state: State, player: str) -> list[str]:
    """K35: what the server submits for ``player`` at a missed deadline."""
    s = state
    if player not in s.awaiting:
        return []
    if s.phase == PLACEMENT:
        assert s.placement is not None
        left = s.placement.left[player]
        need = left if s.placement.sealed is not None else min(3, left)
        return [default_placement(s, player, need)]
    turn = s.turn
    assert turn is not None
    if turn.war is not None:
        return [f"war cost {min(MAX_WAR_COST, s.armies[turn.war.target] - 1)}"]
    actions: list[str] = []
    if turn.move_in is not None:
        actions.append(f"move {turn.move_in.moved}")
    if turn.pool > 0:
        actions.append(default_placement(s, player, turn.pool))
    actions.append("end")
    return actions


# -- turn scripts (K34) -------------------------------------------------------------------
def script_lines(text: str) -> list[str]:
    return [part for line in text.splitlines() for part in line.split(";") if part.strip()]


def run_script_with_events(
    state: State, player: str, text: str, rng: RandomSource
) -> tuple[State, Report, list[Event]]:
    """:func:`run_script`, also returning every event of the lines that were done."""
    s = state
    report: Report = []
    events: list[Event] = []
    stop: tuple[str, str] | None = None
    mark = _mark(rng)
    try:
        for line in script_lines(text):
            if stop is not None:
                report.append({"line": line, "action": None, "status": stop[0], "why": stop[1]})
                continue
            try:
                action = read(s.board, line)
            except IllegalAction as refused:
                report.append(
                    {"line": line, "action": None, "status": "skipped", "why": refused.reason}
                )
                continue
            try:
                action = check(s, player, action)
            except IllegalAction as refused:
                report.append(
                    {
                        "line": line,
                        "action": refused.action,
                        "status": "skipped",
                        "why": refused.reason,
                    }
                )
                continue
            s, done = _apply(s, player, action, rng)
            events += done
            report.append(
                {"line": line, "action": action.canonical(), "status": "done", "why": None}
            )
            stop = _stop_after(s, player, action)
    except Exception:
        _reset(rng, mark)
        raise
    return s, report, events


def _stop_after(s: State, player: str, action: Action) -> tuple[str, str] | None:
    if s.phase == OVER:
        return "not-run", "the game is over"
    if isinstance(action, Answer):
        return "not-run", "your answer is in"
    turn = s.turn
    if turn is not None and turn.war is not None and turn.player == player:
        return "held", f"held until {turn.war.defender} answers the war on {turn.war.target}"
    if player not in s.awaiting:
        if s.phase == PLACEMENT:
            return "not-run", "your placement is in"
        return "not-run", "the turn has ended"
    if turn is not None and turn.move_in is not None and isinstance(action, Attack):
        return "not-run", "waiting for your move-in"
    return None


def run_script(state: State, player: str, text: str, rng: RandomSource) -> tuple[State, Report]:
    """K34: run the action lines of one mail top to bottom; see the contract's report."""
    s, report, _ = run_script_with_events(state, player, text, rng)
    return s, report
