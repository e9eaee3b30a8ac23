"""RisiKo's decision form: a turn built from fields, with the exact odds of each attack.

The form (``risiko/decision.html``) shows, step by step, what the player may do now:
armies to place (a number for each of their territories), a card set to trade, a few
attacks (an origin and target pair, its stop condition and its move rule), a fortify
and the end of the turn; the move-in after a conquest; the answer to a war. Its fields
become the turn's action lines (K34), which the server runs as if they were typed.

Everything here reads the player's view (``risiko.engine.view``, K33) and nothing
else: the form is built from what its player may see, and a submission is checked
against it, so a forged field (a territory not theirs, a count out of range, a name
the form never had) is refused with a message before anything runs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from games.kinds import Refused
from risiko.describe import territory
from risiko.engine import BOARDS, DEFAULT_BOARD, attack_odds, roll_odds

JOLLY = "jolly"
ROWS = 3  # attack rows on the form
UNTIL_SHOWN = 4  # the odds of "until k left" shown for k = 2 .. this
MOST_WAR_COST = 11  # K39b
# Fields every post of the form may carry besides its own.
COMMON = {"csrfmiddlewaretoken", "turn", "notation", "action", "kind_form"}
NUMBER = re.compile(r"\d{1,4}")


def percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


def _armies(n: int) -> str:
    return f"{n} arm{'y' if n == 1 else 'ies'}"


def step_of(view: Mapping[str, Any], player: str) -> str:
    """What the player decides now: "placement", "reinforce", "attack", "move-in",
    "war", or "" for nothing."""
    if player not in view.get("awaiting", []):
        return ""
    if view["phase"] == "placement":
        return "placement"
    turn = view.get("turn")
    if view["phase"] != "play" or turn is None:
        return ""
    if turn.get("war"):
        return "war" if turn["war"].get("defender") == player else ""
    if turn.get("move_in"):
        return "move-in"
    return "reinforce" if turn["step"] == "reinforce" else "attack"


class Turn:
    """What the form offers the player of ``view`` now, read from that view alone."""

    def __init__(self, view: Mapping[str, Any], player: str) -> None:
        self.view, self.player = view, player
        self.board = BOARDS[view.get("board", DEFAULT_BOARD)]
        self.step = step_of(view, player)
        spots = view["territories"]
        self.armies: dict[str, int] = {t: v["armies"] for t, v in spots.items()}
        self.owner: dict[str, str] = {t: v["owner"] for t, v in spots.items()}
        self.mine = sorted((t for t, o in self.owner.items() if o == player), key=territory)
        self.war_die = view.get("options", {}).get("battle") == "war-die"

    # --- what may be done -----------------------------------------------------------

    @property
    def need(self) -> int:
        """The armies to place now: exactly these in a placement, at most in a turn."""
        if self.step == "placement":
            placement = self.view["placement"]
            left = int(placement["left"][self.player])
            return left if placement.get("sealed") is not None else min(3, left)
        if self.step == "reinforce":
            return int(self.view["turn"]["pool"])
        return 0

    def sets(self) -> dict[str, int]:
        """The card sets the player may trade now (K15), as the trade line writes them,
        each with the armies it brings (K16's bonus included)."""
        if self.step != "reinforce":
            return {}
        hand = sorted(self.view.get("hands", {}).get(self.player, []))
        found: dict[str, int] = {}
        for cards in itertools.combinations(hand, 3):
            value = self._set_value(cards)
            if value is not None:
                found.setdefault(", ".join(sorted(cards)), value + self._bonus(cards))
        return found

    def _set_value(self, cards: Sequence[str]) -> int | None:
        jolly = sum(1 for c in cards if c == JOLLY)
        symbols = [self.board.symbol[c] for c in cards if c != JOLLY]
        values = self.board.card_values
        if jolly == 0 and len(set(symbols)) == 1:
            return int(values[symbols[0]])
        if jolly == 0 and len(set(symbols)) == 3:
            return int(values["mixed"])
        if jolly == 1 and symbols[0] == symbols[1]:
            return int(values[JOLLY])
        return None

    def _bonus(self, cards: Sequence[str]) -> int:
        held = sum(1 for c in cards if c != JOLLY and self.owner.get(c) == self.player)
        per_card = self.view.get("options", {}).get("territory_bonus") == "per-card"
        bonus = int(self.board.territory_bonus)
        return bonus * held if per_card else (bonus if held else 0)

    def may_attack(self) -> bool:
        return self.step in ("reinforce", "attack")

    def attacks(self) -> dict[str, list[str]]:
        """Each own territory that may attack (2 armies or more) with the adjacent
        territories it may attack: another player's, not in a truce with the player."""
        if not self.may_attack():
            return {}
        truce = {
            t["defender"] if t["attacker"] == self.player else t["attacker"]
            for t in self.view.get("truces", [])
            if self.player in (t["attacker"], t["defender"])
        }
        found = {}
        for origin in self.mine:
            if self.armies[origin] < 2:
                continue
            targets = [
                t
                for t in self.board.neighbors.get(origin, ())
                if self.owner[t] != self.player and self.owner[t] not in truce
            ]
            if targets:
                found[origin] = sorted(targets, key=territory)
        return found

    def fortifies(self) -> dict[str, list[str]]:
        """Each own territory with armies to spare, with the own adjacent ones (K24)."""
        if self.step not in ("reinforce", "attack"):
            return {}
        found = {}
        for origin in self.mine:
            if self.armies[origin] < 2:
                continue
            to = [t for t in self.board.neighbors.get(origin, ()) if self.owner[t] == self.player]
            if to:
                found[origin] = sorted(to, key=territory)
        return found

    # --- the form -------------------------------------------------------------------

    def context(self, names: Mapping[str, str]) -> dict[str, Any]:
        step = self.step
        context: dict[str, Any] = {"step": step, "war_die": self.war_die}
        if step in ("placement", "reinforce"):
            context["need"] = self.need
            context["exact"] = step == "placement"
            context["territories"] = [
                {"id": t, "name": territory(t), "armies": self.armies[t]} for t in self.mine
            ]
            context["sets"] = [
                {
                    "value": cards,
                    "label": self._cards_words(cards),
                    "armies": _armies(value),
                    "count": value,
                }
                for cards, value in self.sets().items()
            ]
            context["hand"] = [
                territory(c) if c != JOLLY else JOLLY
                for c in self.view.get("hands", {}).get(self.player, [])
            ]
        if step in ("reinforce", "attack"):
            attacks = self.attacks()
            context["pairs"] = [
                {
                    "value": f"{origin} {target}",
                    "label": (
                        f"{territory(origin)} ({self.armies[origin]}) → "
                        f"{territory(target)} ({self.armies[target]})"
                        + (
                            f", who can pay up to {self._most_defence(target)}"
                            if self.war_die
                            else ""
                        )
                    ),
                }
                for origin, targets in attacks.items()
                for target in targets
            ]
            context["rows"] = list(range(1, ROWS + 1))
            if self.war_die:
                context["war_costs"] = list(range(MOST_WAR_COST + 1))
            else:
                context["odds"] = [
                    self._odds(origin, targets) for origin, targets in attacks.items()
                ]
            context["fortify"] = [
                {
                    "value": f"{origin} {to}",
                    "label": (
                        f"{territory(origin)} ({self.armies[origin]}) → "
                        f"{territory(to)} ({self.armies[to]})"
                    ),
                }
                for origin, tos in self.fortifies().items()
                for to in tos
            ]
            context["pool"] = int(self.view["turn"]["pool"])
        if step == "move-in":
            move = self.view["turn"]["move_in"]
            context["move_in"] = {
                "from": territory(move["from"]),
                "to": territory(move["to"]),
                "min": move["moved"],
                "max": move["max"],
            }
        if step == "war":
            war = self.view["turn"]["war"]
            most = self._most_war_cost()
            context["war"] = {
                "from": territory(war["from"]),
                "to": territory(war["to"]),
                "armies": self.armies[war["to"]],
                "costs": list(range(most + 1)),
            }
        return context

    def _cards_words(self, cards: str) -> str:
        return ", ".join(territory(c) if c != JOLLY else JOLLY for c in cards.split(", "))

    def _most_war_cost(self) -> int:
        return self._most_defence(self.view["turn"]["war"]["to"])

    def _most_defence(self, target: str) -> int:
        """K39b: the most a defender of ``target`` can pay now."""
        return min(MOST_WAR_COST, self.armies[target] - 1)

    def _odds(self, origin: str, targets: Sequence[str]) -> dict[str, Any]:
        """The exact chances of attacking each target from ``origin`` now: until it
        falls, until k left, and each outcome of one roll (K19–K21)."""
        attacking = self.armies[origin]
        rows = []
        for target in targets:
            defending = self.armies[target]
            conquered = attack_odds(attacking, defending).conquered
            until = [
                {"k": k, **_chance(attack_odds(attacking, defending, until=k).conquered)}
                for k in range(2, min(attacking - 1, UNTIL_SHOWN) + 1)
            ]
            dice = (min(3, attacking - 1), min(3, defending))
            once = [
                {"lost": lost, "killed": killed, **_chance(chance)}
                for (lost, killed), chance in roll_odds(*dice).items()
            ]
            rows.append(
                {
                    "id": target,
                    "name": territory(target),
                    "armies": defending,
                    "conquered": _chance(conquered),
                    "until": until,
                    "dice": dice,
                    "once": once,
                }
            )
        return {"id": origin, "name": territory(origin), "armies": attacking, "targets": rows}

    # --- a submission -----------------------------------------------------------------

    def script(self, post: Mapping[str, str]) -> str:
        """The action lines of a submission of the form; ``Refused`` for any field the
        form did not offer or a value out of its range."""
        step = self.step
        if not step:
            raise Refused("it is not your decision now")
        fields = {k: str(v).strip() for k, v in post.items() if k not in COMMON}
        allowed = self._fields()
        for name in fields:
            if name not in allowed:
                raise Refused(self._unknown(name))
        lines: list[str] = []
        if step in ("placement", "reinforce"):
            lines += self._trade_and_place(fields)
        if step in ("reinforce", "attack"):
            lines += self._attack_lines(fields)
            fortify = self._fortify_line(fields)
            lines += [fortify] if fortify else []
            if fields.get("end") and not fortify:
                lines.append("end")
        if step == "move-in":
            move = self.view["turn"]["move_in"]
            n = _number(fields.get("move-in", ""), "the armies to leave in the conquered land")
            if n is None or not move["moved"] <= n <= move["max"]:
                raise Refused(f"leave between {move['moved']} and {move['max']} armies (K22)")
            lines.append(f"move {n}")
        if step == "war":
            answer = fields.get("war", "")
            if answer == "flag":
                lines.append("war flag")
            else:
                cost = _number(answer, "the cost of your defence")
                if cost is None or cost > self._most_war_cost():
                    raise Refused(f"pay between 0 and {self._most_war_cost()} (K39b), or a flag")
                lines.append(f"war cost {cost}")
        if not lines:
            raise Refused("choose something to do, or type your turn")
        return "\n".join(lines)

    def _fields(self) -> set[str]:
        step = self.step
        names: set[str] = set()
        if step in ("placement", "reinforce"):
            names |= {f"place-{t}" for t in self.mine}
        if step == "reinforce":
            names.add("trade")
        if step in ("reinforce", "attack"):
            parts = ("", "-cost") if self.war_die else ("", "-stop", "-k", "-dice")
            for i in range(1, ROWS + 1):
                names |= {f"attack-{i}{part}" for part in (*parts, "-move", "-m")}
            names |= {"fortify", "fortify-n", "end"}
        if step == "move-in":
            names.add("move-in")
        if step == "war":
            names.add("war")
        return names

    def _unknown(self, name: str) -> str:
        if name.startswith("place-"):
            spot = name.removeprefix("place-")
            if spot not in self.owner:
                return f"there is no territory “{spot}”"
            if spot in self.owner and self.owner[spot] != self.player:
                return f"{territory(spot)} is not yours: place armies only on your territories"
            return "there are no armies to place now"
        return f"this form has no field “{name}”"

    def _trade_and_place(self, fields: Mapping[str, str]) -> list[str]:
        lines = []
        extra = 0
        trade = fields.get("trade", "")
        if trade:
            sets = self.sets()
            if trade not in sets:
                raise Refused(f"“{trade}” is not a set of your cards (K15)")
            lines.append(f"trade {trade}")
            extra = sets[trade]
        placed: dict[str, int] = {}
        for t in self.mine:
            n = _number(fields.get(f"place-{t}", ""), f"the armies for {territory(t)}")
            if n:
                placed[t] = n
        total, need = sum(placed.values()), self.need + extra
        if self.step == "placement" and total != need:
            raise Refused(f"place exactly {_armies(need)} (your numbers add up to {total})")
        if total > need:
            raise Refused(f"place at most {_armies(need)} (your numbers add up to {total})")
        if placed:
            lines.append("place " + ", ".join(f"{n} {t}" for t, n in sorted(placed.items())))
        return lines

    def _attack_lines(self, fields: Mapping[str, str]) -> list[str]:
        attacks = self.attacks()
        lines = []
        for i in range(1, ROWS + 1):
            pair = fields.get(f"attack-{i}", "")
            if not pair:
                continue
            origin, _, target = pair.partition(" ")
            if target not in attacks.get(origin, ()):
                raise Refused(f"attack {i}: “{pair}” is not an attack you can make now")
            line = f"attack {target} from {origin}"
            if self.war_die:
                cost = self._war_cost(i, fields.get(f"attack-{i}-cost", ""))
                if cost == "flag":
                    lines.append(f"{line} flag")
                    continue
                line += f" cost {cost}"
                lines.append(line + self._move_clause(i, fields))
                continue
            dice = fields.get(f"attack-{i}-dice", "") or "3"
            if dice not in ("1", "2", "3"):
                raise Refused(f"attack {i}: roll 1, 2 or 3 dice")
            line += f" dice {dice}" if dice != "3" else ""
            stop = fields.get(f"attack-{i}-stop", "") or "conquered"
            if stop == "once":
                line += " once"
            elif stop == "conquered":
                line += " until conquered"
            elif stop == "left":
                k = _number(fields.get(f"attack-{i}-k", ""), f"attack {i}'s armies to keep")
                if k is None or k < 2:
                    raise Refused(f"attack {i}: stop with 2 armies left or more")
                line += f" until {k} left"
            else:
                raise Refused(f"attack {i}: stop once, when conquered, or with armies left")
            lines.append(line + self._move_clause(i, fields))
        return lines

    def _war_cost(self, i: int, typed: str) -> str:
        """K39a: an attack's sealed war cost, 0 to 11 (the engine checks it against the
        origin's armies when the line runs), or a white flag."""
        if typed == "flag":
            return "flag"
        cost = _number(typed, f"attack {i}'s war cost")
        if cost is None or cost > MOST_WAR_COST:
            raise Refused(f"attack {i}: a war cost between 0 and {MOST_WAR_COST}, or a flag (K39a)")
        return str(cost)

    def _move_clause(self, i: int, fields: Mapping[str, str]) -> str:
        move = fields.get(f"attack-{i}-move", "")
        if move == "all":
            return " move all"
        if move == "some":
            m = _number(fields.get(f"attack-{i}-m", ""), f"attack {i}'s armies to move in")
            if not m:
                raise Refused(f"attack {i}: move in 1 army or more")
            return f" move {m}"
        if move:
            raise Refused(f"attack {i}: move all in, some, or choose after the conquest")
        return ""

    def _fortify_line(self, fields: Mapping[str, str]) -> str:
        pair = fields.get("fortify", "")
        if not pair:
            return ""
        origin, _, to = pair.partition(" ")
        if to not in self.fortifies().get(origin, ()):
            raise Refused(f"“{pair}” is not a move between two of your adjacent territories")
        n = _number(fields.get("fortify-n", ""), "the armies to move")
        if not n:
            raise Refused("move 1 army or more when you fortify (K24)")
        return f"fortify {origin} {to} {n}"


def _chance(chance: Fraction) -> dict[str, str]:
    return {"percent": percent(chance), "exact": f"{chance.numerator}/{chance.denominator}"}


def _number(text: str, what: str) -> int | None:
    """A count typed in a field: None for an empty field; ``Refused`` for anything but
    a whole number, 0 or more."""
    if text == "":
        return None
    if not NUMBER.fullmatch(text):
        raise Refused(f"{what}: “{text}” is not a whole number, 0 or more")
    return int(text)
