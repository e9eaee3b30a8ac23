"""Reading action text leniently and writing it canonically (contract, "Actions").

:func:`read` understands one line of text as an :class:`Action` without looking at the
position (except the board's names); whether the action is legal now is the rules'
business (``rules.check``). Exactly the contract's leniencies are accepted, no others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import JOLLY, Board, fold, normalize_name
from .errors import IllegalAction

MAX_NAME_TOKENS = 6

VERBS = {
    "place": "place",
    "p": "place",
    "piazza": "place",
    "metti": "place",
    "trade": "trade",
    "t": "trade",
    "tris": "trade",
    "scambia": "trade",
    "attack": "attack",
    "a": "attack",
    "attacca": "attack",
    "move": "move",
    "m": "move",
    "fortify": "fortify",
    "f": "fortify",
    "sposta": "fortify",
    "end": "end",
    "e": "end",
    "fine": "end",
    "pass": "end",
    "war": "war",
    "guerra": "war",
}
JOLLY_WORDS = {"jolly", "joker", "wild"}
ANSWER_STARTS = {"cost", "costo", "flag", "white", "bandiera"}


@dataclass(frozen=True)
class Place:
    items: tuple[tuple[str, int], ...]  # sorted by territory id

    def canonical(self) -> str:
        return "place " + ", ".join(f"{n} {t}" for t, n in self.items)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.items)


@dataclass(frozen=True)
class Trade:
    cards: tuple[str, str, str]  # sorted

    def canonical(self) -> str:
        return "trade " + ", ".join(self.cards)


@dataclass(frozen=True)
class Attack:
    target: str
    origin: str
    dice: int | None = None  # a cap of 1 or 2; None: no cap
    until: int = 0  # 0: once; 1: until conquered; k >= 2: until k left
    move: int | None = None
    move_all: bool = False
    war: bool = False  # a war-die attack (K39a): cost or flag
    cost: int | None = None  # None with war: a white flag
    rolls_named: bool = False  # dice, once or until written (refused in a war-die game)

    def canonical(self) -> str:
        text = f"attack {self.target} from {self.origin}"
        if self.war:
            text += " flag" if self.cost is None else f" cost {self.cost}"
        else:
            if self.dice is not None:
                text += f" dice {self.dice}"
            if self.until == 0:
                text += " once"
            elif self.until == 1:
                text += " until conquered"
            else:
                text += f" until {self.until} left"
        if self.move_all:
            text += " move all"
        elif self.move is not None:
            text += f" move {self.move}"
        return text


@dataclass(frozen=True)
class Move:
    armies: int | None  # None: all (resolved against the open move-in)

    def canonical(self) -> str:
        return "move all" if self.armies is None else f"move {self.armies}"


@dataclass(frozen=True)
class Fortify:
    origin: str
    target: str
    armies: int | None  # None: all but one (resolved against the position)

    def canonical(self) -> str:
        n = "all" if self.armies is None else str(self.armies)
        return f"fortify {self.origin} {self.target} {n}"


@dataclass(frozen=True)
class End:
    def canonical(self) -> str:
        return "end"


@dataclass(frozen=True)
class Answer:
    cost: int | None  # None: a white flag

    def canonical(self) -> str:
        return "war flag" if self.cost is None else f"war cost {self.cost}"


@dataclass(frozen=True)
class Forfeit:
    player: str

    def canonical(self) -> str:
        return f"forfeit {self.player}"


Action = Place | Trade | Attack | Move | Fortify | End | Answer | Forfeit


def tokens(text: str) -> list[str]:
    """Folded words; a comma and ``>`` are tokens of their own; a trailing period goes."""
    folded = fold(text).strip()
    folded = re.sub(r"\.+$", "", folded)
    folded = folded.replace("->", " > ").replace(">", " > ").replace(",", " , ")
    return folded.split()


class _Reader:
    def __init__(self, board: Board, words: list[str], text: str) -> None:
        self.board = board
        self.words = words
        self.i = 0
        self.text = text

    def fail(self, why: str) -> IllegalAction:
        return IllegalAction(f"{why} (in {self.text.strip()!r})")

    @property
    def done(self) -> bool:
        return self.i >= len(self.words)

    def peek(self) -> str | None:
        return None if self.done else self.words[self.i]

    def skip_commas(self) -> None:
        while self.peek() == ",":
            self.i += 1

    def territory(self) -> str | None:
        """The longest run of words from here naming a territory, or None."""
        for end in range(min(len(self.words), self.i + MAX_NAME_TOKENS), self.i, -1):
            span = self.words[self.i : end]
            if "," in span or ">" in span:
                continue
            found = self.board.names.get(normalize_name(" ".join(span)))
            if found is not None:
                self.i = end
                return found
        return None

    def need_territory(self, what: str) -> str:
        found = self.territory()
        if found is None:
            word = self.peek()
            if word is None:
                raise self.fail(f"{what} is missing")
            raise self.fail(f"{word!r} is not a territory ({what})")
        return found

    def number(self) -> int | None:
        word = self.peek()
        if word is not None and word.isdigit() and word.isascii():
            self.i += 1
            return int(word)
        return None

    def need_number(self, what: str) -> int:
        n = self.number()
        if n is None:
            word = self.peek()
            raise self.fail(f"{what} is missing" if word is None else f"{word!r} is not {what}")
        return n

    def word(self, *choices: str) -> bool:
        if self.peek() in choices:
            self.i += 1
            return True
        return False

    def leftover(self) -> None:
        self.skip_commas()
        if not self.done:
            raise self.fail(f"{' '.join(self.words[self.i :])!r} is not understood")


def read(board: Board, text: str) -> Action:
    """One line of text as an action, or :class:`IllegalAction` saying what was not
    understood."""
    words = tokens(text)
    if not words:
        raise IllegalAction("there is no action here")
    reader = _Reader(board, words, text)
    first = words[0]
    verb = VERBS.get(first)
    if verb != "place":  # commas only separate a placement's pairs
        reader.words = [w for w in words if w != ","]
    if verb is None and (first in ANSWER_STARTS or first.isdigit()):
        verb = "answer"
    else:
        reader.i = 1
    if verb is None:
        raise reader.fail(
            f"{first!r} is not an action: start with place, trade, attack, move, fortify, "
            "end or, to answer a war, war"
        )
    match verb:
        case "place":
            return _place(reader)
        case "trade":
            return _trade(reader)
        case "attack":
            return _attack(reader)
        case "move":
            if reader.word("all"):
                reader.leftover()
                return Move(None)
            n = reader.need_number("a number of armies")
            reader.leftover()
            return Move(n)
        case "fortify":
            return _fortify(reader)
        case "end":
            reader.leftover()
            return End()
        case _:
            return _answer(reader)


def _place(r: _Reader) -> Place:
    items: list[tuple[str, int | str, int]] = []  # (kind, value, group)
    group = 0
    while not r.done:
        if r.peek() == ",":
            group += 1
            r.i += 1
            continue
        n = r.number()
        if n is not None:
            items.append(("n", n, group))
            continue
        t = r.territory()
        if t is None:
            raise r.fail(f"{r.peek()!r} is not a territory or a number")
        items.append(("t", t, group))
    if not items:
        raise r.fail("say how many armies go where, e.g. 'place 3 cina'")
    totals: dict[str, int] = {}
    k = 0
    while k < len(items):
        pair = items[k : k + 2]
        if len(pair) < 2 or {pair[0][0], pair[1][0]} != {"n", "t"} or pair[0][2] != pair[1][2]:
            raise r.fail("each territory needs one number of armies")
        number = next(v for kind, v, _ in pair if kind == "n")
        name = next(v for kind, v, _ in pair if kind == "t")
        assert isinstance(number, int) and isinstance(name, str)
        if number < 1:
            raise r.fail("each number of armies must be at least 1")
        totals[name] = totals.get(name, 0) + number
        k += 2
    return Place(tuple(sorted(totals.items())))


def _trade(r: _Reader) -> Trade:
    cards: list[str] = []
    while True:
        r.skip_commas()
        if r.done:
            break
        if r.word(*JOLLY_WORDS):
            cards.append(JOLLY)
            continue
        t = r.territory()
        if t is None:
            raise r.fail(f"{r.peek()!r} is not a card (a territory or jolly)")
        cards.append(t)
    if len(cards) != 3:
        raise r.fail(f"a trade is three cards, not {len(cards)}")
    a, b, c = sorted(cards)
    return Trade((a, b, c))


def _attack(r: _Reader) -> Attack:
    first = r.need_territory("the territory to attack")
    if r.word("from", "da"):
        target, origin = first, r.need_territory("the territory to attack from")
    elif r.word(">", "to"):
        origin, target = first, r.need_territory("the territory to attack")
    else:
        raise r.fail("write 'attack <target> from <origin>' or 'attack <origin> -> <target>'")
    dice: int | None = None
    until: int | None = None
    move: int | None = None
    move_all = False
    war: tuple[int | None] | None = None
    seen: set[str] = set()

    def once_only(kind: str) -> None:
        if kind in seen:
            raise r.fail(f"an attack takes at most one {kind}")
        seen.add(kind)

    while True:
        r.skip_commas()
        if r.done:
            break
        if r.word("dice"):
            once_only("number of dice")
            dice = r.need_number("a number of dice")
        elif r.word("with"):
            once_only("number of dice")
            dice = r.need_number("a number of dice")
            if not r.word("dice", "die"):
                raise r.fail("write 'with <n> dice'")
        elif r.word("once"):
            once_only("stop condition")
            until = 0
        elif r.word("until"):
            once_only("stop condition")
            if r.word("conquered"):
                until = 1
            else:
                until = r.need_number("'conquered' or a number of armies")
                r.word("left")
                if until < 1:
                    raise r.fail("'until 0 left' is not possible: the origin keeps 1 army")
        elif r.word("move"):
            once_only("move")
            if r.word("all"):
                move_all = True
            else:
                move = r.need_number("a number of armies or 'all'")
                if move < 1:
                    raise r.fail("a move is at least 1 army")
        elif r.word("cost", "costo"):
            once_only("war cost or flag")
            war = (r.need_number("a war cost"),)
        elif r.word("flag") or (r.word("white") and _then(r, "flag")):
            once_only("war cost or flag")
            war = (None,)
        elif r.word("bandiera"):
            if not r.word("bianca"):
                raise r.fail("'bandiera' alone is not understood: 'bandiera bianca'")
            once_only("war cost or flag")
            war = (None,)
        else:
            raise r.fail(f"{r.peek()!r} is not understood in an attack")
    if dice is not None and dice < 1:
        raise r.fail("an attack rolls at least 1 die")
    rolls_named = dice is not None or until is not None
    if war is not None:
        if rolls_named:
            raise r.fail("a war-die attack names a cost or a flag, never dice, once or until")
        if war[0] is None and (move is not None or move_all):
            raise r.fail("a white flag never conquers: it takes no move")
        return Attack(target, origin, None, 0, move, move_all, True, war[0], False)
    return Attack(
        target,
        origin,
        dice if dice is not None and dice < 3 else None,
        0 if until is None else until,
        move,
        move_all,
        rolls_named=rolls_named,
    )


def _then(r: _Reader, word: str) -> bool:
    if r.word(word):
        return True
    raise r.fail(f"'white' alone is not understood: 'white {word}'")


def _fortify(r: _Reader) -> Fortify:
    if r.peek() == "all" or (r.peek() or "").isdigit():
        n = None if r.word("all") else r.need_number("a number of armies")
        if not r.word("from"):
            raise r.fail("write 'fortify <n> from <territory> to <territory>'")
        origin = r.need_territory("the territory to move from")
        if not r.word("to", ">"):
            raise r.fail("write 'fortify <n> from <territory> to <territory>'")
        target = r.need_territory("the territory to move to")
    else:
        origin = r.need_territory("the territory to move from")
        r.word(">", "to")
        target = r.need_territory("the territory to move to")
        n = None if r.word("all") else r.need_number("a number of armies or 'all'")
    r.leftover()
    if n is not None and n < 1:
        raise r.fail("a fortify moves at least 1 army")
    return Fortify(origin, target, n)


def _answer(r: _Reader) -> Answer:
    if r.word("cost", "costo"):
        answer = Answer(r.need_number("a war cost"))
    elif r.word("flag"):
        answer = Answer(None)
    elif r.word("white"):
        _then(r, "flag")
        answer = Answer(None)
    elif r.word("bandiera"):
        if not r.word("bianca"):
            raise r.fail("'bandiera' alone is not understood: 'bandiera bianca'")
        answer = Answer(None)
    else:
        n = r.number()
        if n is None:
            raise r.fail("answer a war with 'war cost <n>' or 'war flag'")
        answer = Answer(n)
    r.leftover()
    return answer
