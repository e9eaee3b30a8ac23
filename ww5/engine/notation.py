"""The contract's lenient move notation: typed text to the one canonical legal action.

Exactly the listed leniencies: case, runs of spaces, commas and a trailing period are
ignored; territories by id, display name or alias (spaces, dashes and underscores
alike); sizes and verbs by their first letter; ``->``, ``>``, ``to`` or a space between
two territories; ``retreat to``. Anything else is refused, saying what was not
understood and listing the legal actions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .errors import IllegalAction
from .explain import why_illegal
from .state import LARGE, MEDIUM, SETUP, SMALL, State, action_table, size_name

SIZES = {"small": SMALL, "s": SMALL, "medium": MEDIUM, "m": MEDIUM, "large": LARGE, "l": LARGE}
VERBS = {
    "grow": "grow",
    "g": "grow",
    "build": "build",
    "b": "build",
    "move": "move",
    "m": "move",
    "invade": "invade",
    "i": "invade",
    "attack": "invade",
    "a": "invade",
    "retreat": "retreat",
    "r": "retreat",
    "pass": "pass",
    "place": "place",
}
ARROW = re.compile(r"\s*-?>\s*")
NAME_BREAKS = re.compile(r"[\s_\-]+")
SEPARATORS = ((), (">",), ("to",))
VERB_HELP = "grow, build, move, invade (or attack), retreat, pass, or place during setup"


class _Refusal(Exception):
    pass


def _words(text: str) -> list[str]:
    """Space-separated words; dashes and underscores join the words of a territory only."""
    text = text.lower().replace(",", "").strip()
    if text.endswith("."):
        text = text[:-1]
    return ARROW.sub(" > ", text).split()


def parse_action(state: State, text: str) -> str:
    """The one canonical legal action that ``text`` names, or :class:`IllegalAction`."""
    legal = state.legal
    if not isinstance(text, str):
        raise IllegalAction("a move must be text", legal)
    words = _words(text)
    if not words:
        raise IllegalAction("no move was given", legal)
    if words[0] == "p":
        verb: str | None = "place" if state.phase == SETUP else "pass"
    else:
        verb = VERBS.get(words[0])
    if verb is None:
        raise IllegalAction(f"{words[0]!r} is not a verb: use {VERB_HELP}", legal)
    try:
        candidates = _READERS[verb](state.board.names, state.board.territories, words[1:])
    except _Refusal as refusal:
        raise IllegalAction(f"{text.strip()!r}: {refusal}", legal) from None
    texts = sorted({_canonical(verb, c, state.board.territories) for c in candidates})
    chosen = [t for t in texts if t in state.legal_set]
    if len(chosen) == 1:
        return chosen[0]
    if chosen:
        raise IllegalAction(f"{text.strip()!r} could mean {' or '.join(chosen)}", legal)
    if len(texts) == 1 and texts[0] in action_table(state.board).parsed:
        raise IllegalAction(f"{texts[0]}: {why_illegal(state, texts[0])}", legal)
    raise IllegalAction(f"{text.strip()!r} is not a legal action now", legal)


Reading = tuple[int, ...]


def _canonical(verb: str, reading: Reading, ids: tuple[str, ...]) -> str:
    if verb == "place":
        pairs = dict(zip(reading[::2], reading[1::2], strict=True))
        if len(reading) == 2:
            return f"place {size_name(reading[0])} {ids[reading[1]]}"
        return " ".join(["place"] + [f"{size_name(p)} {ids[pairs[p]]}" for p in (1, 2, 3)])
    return " ".join([verb] + [ids[t] for t in reading])


def _territory(names: Mapping[str, int], words: list[str]) -> int | None:
    """The territory named by exactly these words (runs of spaces, dashes and
    underscores alike), or None."""
    return names.get(NAME_BREAKS.sub(" ", " ".join(words))) if words else None


def _explain_territory(names: Mapping[str, int], words: list[str], what: str) -> _Refusal:
    """Say why ``words`` is not exactly one territory."""
    if not words:
        return _Refusal(f"{what} is missing")
    for end in range(len(words) - 1, 0, -1):
        if _territory(names, words[:end]) is not None:
            return _Refusal(f"{' '.join(words[end:])!r} was left over")
    return _Refusal(f"{' '.join(words)!r} is not a territory")


def _no_args(names: Mapping[str, int], ids: tuple[str, ...], words: list[str]) -> list[Reading]:
    if words:
        raise _Refusal(f"{' '.join(words)!r} was left over")
    return [()]


def _one(names: Mapping[str, int], ids: tuple[str, ...], words: list[str]) -> list[Reading]:
    t = _territory(names, words)
    if t is None:
        raise _explain_territory(names, words, "the territory")
    return [(t,)]


def _retreat(names: Mapping[str, int], ids: tuple[str, ...], words: list[str]) -> list[Reading]:
    readings = _one_or_none(names, words)
    if words[:1] == ["to"]:
        readings += _one_or_none(names, words[1:])
    if not readings:
        raise _explain_territory(names, words[1:] if words[:1] == ["to"] else words, "where to")
    return readings


def _one_or_none(names: Mapping[str, int], words: list[str]) -> list[Reading]:
    t = _territory(names, words)
    return [] if t is None else [(t,)]


def _two(names: Mapping[str, int], ids: tuple[str, ...], words: list[str]) -> list[Reading]:
    readings: list[Reading] = []
    for cut in range(1, len(words)):
        a = _territory(names, words[:cut])
        if a is None:
            continue
        rest = words[cut:]
        for sep in SEPARATORS:
            if tuple(rest[: len(sep)]) == sep:
                b = _territory(names, rest[len(sep) :])
                if b is not None:
                    readings.append((a, b))
    if readings:
        return readings
    for cut in range(len(words), 0, -1):
        if _territory(names, words[:cut]) is not None:
            rest = words[cut:]
            for sep in SEPARATORS[1:]:
                if rest[:1] == list(sep):
                    rest = rest[1:]
            raise _explain_territory(names, rest, "the second territory")
    raise _explain_territory(names, words, "the territory")


def _place(names: Mapping[str, int], ids: tuple[str, ...], words: list[str]) -> list[Reading]:
    readings = [r for r in _pairs(names, words) if len(r) in (2, 6)]
    readings = [r for r in readings if len(set(r[::2])) == len(r) // 2]
    if readings:
        return readings
    if not words or words[0] not in SIZES:
        raise _Refusal("a placement names a size (small, medium, large) before each territory")
    raise _Refusal("place one size and territory, or all three sizes once each")


def _pairs(names: Mapping[str, int], words: list[str]) -> list[Reading]:
    """Every way to read ``words`` as size-territory pairs."""
    if not words:
        return [()]
    if words[0] not in SIZES:
        return []
    out: list[Reading] = []
    for end in range(2, len(words) + 1):
        t = _territory(names, words[1:end])
        if t is not None:
            out += [(SIZES[words[0]], t, *rest) for rest in _pairs(names, words[end:])]
    return out


_READERS = {
    "grow": _one,
    "build": _one,
    "move": _two,
    "invade": _two,
    "retreat": _retreat,
    "pass": _no_args,
    "place": _place,
}
