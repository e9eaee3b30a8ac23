#!/usr/bin/env python3
"""Check a finished game's dice against its revealed seed (version ww5-dice/1).

    python3 verify_dice.py record.json      (or - to read the record from stdin)

The record is the game's JSON record (record.json), everyone's once the game is over.
This script needs Python 3 and nothing else, and repeats the site's algorithm itself.
H(x) is the SHA-256 hex digest of the UTF-8 text x; <game> is the record's dice.game.
From the seed it recomputes:

- the commitment published when the game was made: H("ww5-dice/1|commit|<game>|<seed>");
- P, the players' words: H("ww5-dice/1|players|<game>" + "|<seat>=<H(words)>" per seat,
  in seat order);
- every number n = 1, 2, ... in [low, high]: span = high - low + 1, bits = the bit length
  of span - 1; for j = 0, 1, ... d = HMAC-SHA256(key = the seed's bytes,
  "ww5-dice/1|<game>|<P>|<n>|<j>") read as a big-endian integer, x = its top bits bits;
  the first x < span gives low + x. The start's numbers are #1.., each move's continue;
- the counter "drawn", how many numbers the game drew;
- each sealed action's commitment:
  H("<sealed_prefix>|<game>|<decision>|<player>|<sealed action>|<nonce>").

It prints one line per check and a summary, exit status 0. At the first difference it
names it and exits 1. It exits 2 when there is nothing to check: a game without
verifiable dice, a seed not revealed yet, a file that is not a record.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

VERSION = "ww5-dice/1"


class Different(Exception):
    """The record differs from what its seed gives; the message says where."""


class Unverifiable(Exception):
    """The record has nothing to check (yet)."""


def H(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def number(seed: bytes, game: str, players: str, n: int, low: int, high: int) -> int:
    """Number n of the game's stream, in [low, high]."""
    span = high - low + 1
    bits = (span - 1).bit_length()
    j = 0
    while True:
        message = f"{VERSION}|{game}|{players}|{n}|{j}".encode()
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
        x >>= 256 - bits
        if x < span:
            return low + x
        j += 1


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def counter_problem(groups: list, i: int, expected: int) -> str:
    """Why group i's first number is not #expected: a gap, a reorder or a repeat."""
    label, first = groups[i][0], groups[i][1]
    told = f"{label}: its numbers start at #{first}, but #{expected} comes next"
    if first > expected:
        for later, later_first, _, values in groups[i + 1 :]:
            if later_first == expected and values:
                return f"{told}, in {later} after it: out of order"
        missing = f"#{expected} is" if first == expected + 1 else f"#{expected}–#{first - 1} are"
        return f"{told}: {missing} missing (a gap)"
    for earlier, earlier_first, _, values in groups[:i]:
        if earlier_first <= first < earlier_first + len(values):
            return f"{told}: #{first} is {earlier}'s already (a repeat)"
    return told


def checks(record: dict):
    """Check the record; yield one line per check passed, then the summary. Raises
    Different at the first difference, Unverifiable when there is nothing to check."""
    dice = record.get("dice")
    if dice is None:
        raise Unverifiable("this game has no verifiable dice")
    if dice["version"] != VERSION:
        raise Unverifiable(f"its dice are of version {dice['version']}; this checks {VERSION}")
    if dice["seed"] is None:
        raise Unverifiable("the seed is not revealed yet: it is published once the game is over")
    game, seed = dice["game"], bytes.fromhex(dice["seed"])
    if "game" in record and str(record["game"]) != game:
        raise Different(f"the dice are game {game}'s, the record is game {record['game']}'s")
    yield check_commitment(dice, game, seed)
    P, line = check_players(dice, game)
    yield line
    total, line = check_numbers(record, dice, game, seed, P)
    yield line
    if dice["drawn"] != total:
        raise Different(f"drawn: the record says {dice['drawn']}, its numbers end at #{total}")
    yield f"drawn: {total}, the counter of the last number"
    sealed, line = check_sealed(record, game)
    yield line
    numbers = f"{plural(total, 'number')} #1–#{total}" if total else "no numbers"
    yield f"verified: commitment, players' words, {numbers}, {plural(sealed, 'sealed commitment')}"


def check_commitment(dice: dict, game: str, seed: bytes) -> str:
    mine = H(f"{VERSION}|commit|{game}|{seed.hex()}")
    if mine != dice["commitment"]:
        raise Different(f"commitment: the seed gives {mine}, the record says {dice['commitment']}")
    return f'commitment: {mine} = H("{VERSION}|commit|{game}|<seed>")'


def check_players(dice: dict, game: str) -> tuple:
    """P from the players' words, in seat order. Returns (P, the line)."""
    words = sorted((w["seat"], w["words"]) for w in dice["words"])
    P = H(f"{VERSION}|players|{game}" + "".join(f"|{seat}={H(text)}" for seat, text in words))
    if dice["players_hash"] is None:
        if dice["drawn"]:
            raise Different("players' words: the record has no P, yet the game drew numbers")
        return P, "players' words: no number drawn, so P was never fixed"
    if P != dice["players_hash"]:
        raise Different(
            f"players' words: they give P = {P}, the record says {dice['players_hash']}"
        )
    return P, f"players' words: P = {P} from the words of {plural(len(words), 'seat')}"


def check_numbers(record: dict, dice: dict, game: str, seed: bytes, P: str) -> tuple:
    """Every number: the start's from #1, then each move's where the last left off.
    Returns (the last number's counter, the line)."""
    start = dice["start"]
    groups = [("start", start["from"], start["ranges"], start["values"])]
    for move in record["moves"]:
        label, values = f"move {move['number']}", move.get("dice") or []
        if move.get("dice_from") is not None:
            groups.append((label, move["dice_from"], move["dice_ranges"], values))
        elif values:
            raise Different(f"{label}: it has the dice {values} but no dice_from")
    expected = 1
    for i, (label, first, ranges, values) in enumerate(groups):
        if len(ranges) != len(values):
            raise Different(f"{label}: {len(values)} values but {len(ranges)} ranges")
        if not values:
            continue
        if first != expected:
            raise Different(counter_problem(groups, i, expected))
        mine = []
        for k, (low, high) in enumerate(ranges):
            if low > high:
                raise Different(f"{label}: number #{first + k} has the empty range {low}..{high}")
            mine.append(number(seed, game, P, first + k, low, high))
        for k, value in enumerate(values):
            if value != mine[k]:
                n, (low, high) = first + k, ranges[k]
                problem = f"{label}: number #{n} in {low}..{high} is {mine[k]} by the seed, "
                problem += f"the record says {value}"
                if values[k + 1 : k + 2] == [mine[k]] and mine[k + 1] == value:
                    problem += f" (#{n} and #{n + 1} are swapped)"
                raise Different(problem)
        expected = first + len(values)
    total, moves = expected - 1, sum(1 for g in groups[1:] if g[3])
    if not total:
        return total, "numbers: none drawn"
    where = f"{len(start['values'])} at the start, the rest in {plural(moves, 'move')}"
    return total, f"numbers: #1–#{total} as the seed gives them ({where})"


def check_sealed(record: dict, game: str) -> tuple:
    """Each sealed action's commitment, from its revealed action and nonce. Returns (how
    many, the line)."""
    sealed, hidden = 0, []
    for move in record["moves"]:
        if not move.get("commitment"):
            continue
        if move.get("nonce") is None or move.get("sealed_action") is None:
            hidden.append(str(move["number"]))
            continue
        if not record.get("sealed_prefix"):
            raise Different("the record has sealed actions but no sealed_prefix")
        fields = (move["decision"], move["player"], move["sealed_action"], move["nonce"])
        text = "|".join((record["sealed_prefix"], game, *fields))
        if H(text) != move["commitment"]:
            raise Different(
                f"move {move['number']}: the sealed commitment is {move['commitment']}, "
                f'but H("{text}") is {H(text)}'
            )
        sealed += 1
    never = f"; never revealed: move {', '.join(hidden)}" if hidden else ""
    told = f"{plural(sealed, 'commitment')} match their revealed action and nonce"
    return sealed, f"sealed actions: {told}{never}"


def verify(record: dict) -> list:
    """The lines of a record that checks out; raises Different or Unverifiable."""
    return list(checks(record))


def main(args: list) -> int:
    if len(args) != 1:
        print("usage: verify_dice.py RECORD.json   (or - to read it from stdin)", file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            record = json.load(sys.stdin)
        else:
            with open(args[0], encoding="utf-8") as file:
                record = json.load(file)
        for line in checks(record):
            print(line)
    except Different as difference:
        print(f"DIFFERENT: {difference}")
        return 1
    except Unverifiable as reason:
        print(f"nothing to verify: {reason}")
        return 2
    except OSError as error:
        print(f"cannot read the record: {error}")
        return 2
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"not a game record with dice ({type(error).__name__}: {error})")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
