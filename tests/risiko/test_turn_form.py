"""RisiKo's decision form: a person builds a turn from fields (armies to place on their
own territories, a card set, attacks with their stop condition and move rule, a
fortify, the end), sees the exact odds of each attack, and submits; the fields become
the turn's lines, which run and are reported line by line (K34). The form is built from
the player's own view (K33): it offers only their territories and the legal targets,
shows no one else's objective or cards, and a forged field is refused with a message,
changing nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import links
from games.models import Game
from risiko import describe, engine, turnform
from risiko.kind import RisiKo
from tests.games.factories import alice, bob, carol, clock, olga
from tests.risiko.test_kind import game, placed, risiko, user_of

__all__ = ["alice", "bob", "carol", "clock", "game", "olga", "risiko"]

pytestmark = pytest.mark.django_db

FORM = re.compile(r'<section class="decision risiko-turn".*?</form>\n</section>', re.S)


def first_player(game: Game, risiko: RisiKo) -> str:
    return risiko.deciders(risiko.load(game.position))[0]


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def the_form(html: str) -> str:
    found = FORM.search(html)
    assert found is not None, "no RisiKo decision form on the page"
    return found.group(0)


def detail(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def post_form(game: Game, user: User, fields: dict[str, Any], follow: bool = True) -> Any:
    data = {"turn": game.turn_number, "kind_form": "1", **fields}
    return client_of(user).post(reverse("games:move", args=[game.pk]), data, follow=follow)


def options(form: str, name: str) -> set[str]:
    select = re.search(rf'<select name="{name}">(.*?)</select>', form, re.S)
    assert select is not None, name
    return set(re.findall(r'<option value="([^"]+)"', select.group(1)))


def legal_attacks(position: dict[str, Any], player: str) -> set[str]:
    """Every attack the rules allow the player now: from an own territory with 2 armies
    or more to an adjacent one of another player (K18)."""
    spots = position["territories"]
    neighbours = engine.BOARDS[position["board"]].neighbors
    return {
        f"{origin} {target}"
        for origin, spot in spots.items()
        if spot["owner"] == player and spot["armies"] >= 2
        for target in neighbours[origin]
        if spots[target]["owner"] != player
    }


def an_attack(game: Game, player: str) -> tuple[str, str]:
    origin, target = sorted(legal_attacks(game.position, player))[0].split()
    return origin, target


def test_the_form_offers_the_players_own_territories_and_the_legal_targets(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    response = client_of(user_of(game, first)).get(detail(game))
    form = the_form(response.content.decode())

    assert "risiko/decision.html" in {t.name for t in response.templates}
    spots = game.position["territories"]
    mine = {t for t, spot in spots.items() if spot["owner"] == first}
    assert set(re.findall(r'name="place-([a-z-]+)"', form)) == mine
    pool = game.position["turn"]["pool"]
    assert f'<fieldset class="place" data-need="{pool}">' in form
    assert f'Left to place: <output class="left" name="left">{pool}</output>' in form
    attacks = legal_attacks(game.position, first)
    assert attacks and options(form, "attack-1") == attacks
    assert options(form, "attack-1-stop") == {"conquered", "once", "left"}
    neighbours = engine.BOARDS[game.position["board"]].neighbors
    for pair in options(form, "fortify"):
        origin, to = pair.split()
        assert {spots[origin]["owner"], spots[to]["owner"]} == {first} and to in neighbours[origin]
    assert '<input type="checkbox" name="end" value="1">' in form
    assert '<textarea name="notation"' in form, "typing the turn stays possible"


def test_the_odds_shown_are_the_exact_odds_of_each_attack(game: Game, risiko: RisiKo) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    form = the_form(client_of(user_of(game, first)).get(detail(game)).content.decode())
    spots = game.position["territories"]

    for pair in legal_attacks(game.position, first):
        origin, target = pair.split()
        attacking, defending = spots[origin]["armies"], spots[target]["armies"]
        table = re.search(
            rf'<table class="odds-table" id="odds-{pair.replace(" ", "-")}">.*?</table>', form, re.S
        )
        assert table is not None, pair
        shown = table.group(0)
        conquered = engine.attack_odds(attacking, defending).conquered
        assert (
            f'Until conquered: it falls</th><td title="{conquered.numerator}/'
            f'{conquered.denominator}">{turnform.percent(conquered)}</td>'
        ) in shown
        for k in range(2, min(attacking - 1, turnform.UNTIL_SHOWN) + 1):
            until = engine.attack_odds(attacking, defending, until=k).conquered
            assert f'Until {k} left: it falls</th><td title="{until.numerator}/' in shown
        dice = (min(3, attacking - 1), min(3, defending))
        rolls = engine.roll_odds(*dice)
        assert shown.count("One roll (") == len(rolls)
        for (lost, killed), chance in rolls.items():
            assert (
                f"One roll ({dice[0]} against {dice[1]}): you lose {lost}, they lose {killed}"
                f'</th><td title="{chance.numerator}/{chance.denominator}">'
                f"{turnform.percent(chance)}</td>"
            ) in shown


def test_a_placement_an_attack_and_the_end_built_from_the_fields_run_line_by_line(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    origin, target = an_attack(game, first)
    pool = game.position["turn"]["pool"]

    response = post_form(
        game,
        user_of(game, first),
        {
            f"place-{origin}": str(pool),
            "attack-1": f"{origin} {target}",
            "attack-1-stop": "conquered",
            "attack-1-move": "all",
            "attack-2": "",
            "end": "1",
        },
    )

    shown = response.content.decode()
    assert response.status_code == 200
    attack = f"attack {target} from {origin} until conquered move all"
    assert f"“place {pool} {origin}”: done" in shown
    assert f"“{attack}”: done" in shown
    assert "“end”: done" in shown
    assert "Your decision was recorded" not in shown  # the lines' report says it
    game.refresh_from_db()
    assert game.position["turn"]["number"] == 2
    move = game.moves.order_by("-number").first()
    assert move is not None and move.action == f"place {pool} {origin}; {attack}; end"


def test_the_sealed_placement_is_built_from_the_fields_too(game: Game, risiko: RisiKo) -> None:
    player = "red"
    view = risiko.view(game.position, risiko_viewer(player))
    need = view["placement"]["left"][player]
    mine = sorted(t for t, s in view["territories"].items() if s["owner"] == player)
    form = the_form(client_of(user_of(game, player)).get(detail(game)).content.decode())
    assert set(re.findall(r'name="place-([a-z-]+)"', form)) == set(mine)
    assert 'name="attack-1"' not in form and 'name="end"' not in form

    short = post_form(game, user_of(game, player), {f"place-{mine[0]}": str(need - 1)})
    assert short.status_code == 400
    assert f"place exactly {need} armies (your numbers add up to {need - 1})" in (
        short.content.decode()
    )
    response = post_form(
        game,
        user_of(game, player),
        {f"place-{mine[0]}": str(need - 1), f"place-{mine[1]}": "1", f"place-{mine[2]}": "0"},
    )

    assert response.status_code == 200
    assert "Your decision was recorded" in response.content.decode()
    game.refresh_from_db()
    assert game.position["placement"]["sealed"][player] == (
        f"place {need - 1} {mine[0]}, 1 {mine[1]}"
        if mine[0] < mine[1]
        else f"place 1 {mine[1]}, {need - 1} {mine[0]}"
    )


def risiko_viewer(player: str) -> Any:
    from games.kinds import player_viewer

    return player_viewer(player)


@pytest.mark.parametrize(
    ("forged", "said"),
    [
        ("not-yours", "is not yours: place armies only on your territories"),
        ("negative", "“-2” is not a whole number, 0 or more"),
        ("unknown-territory", "there is no territory “atlantis”"),
        ("unknown-field", "this form has no field “attack-9”"),
        ("not-adjacent", "is not an attack you can make now"),
        ("too-many", "place at most"),
        ("bad-stop", "stop once, when conquered, or with armies left"),
        ("not-a-set", "is not a set of your cards"),
        ("nothing", "choose something to do, or type your turn"),
    ],
)
def test_a_forged_field_is_refused_with_a_message_and_changes_nothing(
    game: Game, risiko: RisiKo, forged: str, said: str
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    spots = game.position["territories"]
    mine = sorted(t for t, s in spots.items() if s["owner"] == first)
    theirs = next(t for t, s in spots.items() if s["owner"] != first)
    origin, _ = an_attack(game, first)
    far = next(
        t
        for t, s in spots.items()
        if s["owner"] != first and t not in engine.BOARDS["classic"].neighbors[origin]
    )
    pool = game.position["turn"]["pool"]
    fields = {
        "not-yours": {f"place-{theirs}": "1"},
        "negative": {f"place-{mine[0]}": "-2"},
        "unknown-territory": {"place-atlantis": "1"},
        "unknown-field": {"attack-9": f"{origin} {far}"},
        "not-adjacent": {"attack-1": f"{origin} {far}"},
        "too-many": {f"place-{mine[0]}": str(pool + 1)},
        "bad-stop": {"attack-1": " ".join(an_attack(game, first)), "attack-1-stop": "never"},
        "not-a-set": {"trade": "cina, jolly, siam"},
        "nothing": {"attack-1": "", "fortify": ""},
    }[forged]
    before = (game.turn_number, game.position, game.moves.count())

    response = post_form(game, user_of(game, first), fields)

    assert response.status_code == 400
    shown = response.content.decode()
    assert "Your turn was not accepted:" in shown and said in shown.replace("&#x27;", "'")
    assert "Nothing was changed." in shown
    game.refresh_from_db()
    assert (game.turn_number, game.position, game.moves.count()) == before


def test_another_player_and_a_spectator_get_no_form_and_cannot_send_one(
    game: Game, risiko: RisiKo, olga: User
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    other = next(p for p in ("red", "blue", "yellow") if p != first)
    for user in (user_of(game, other), olga, None):
        html = client_of(user).get(detail(game)).content.decode()
        assert 'class="risiko-form"' not in html and 'name="kind_form"' not in html

    origin, _ = an_attack(game, first)
    before = game.position
    response = post_form(game, user_of(game, other), {f"place-{origin}": "1"}, follow=False)
    assert response.status_code == 403
    assert "it is not your decision now" in response.content.decode()
    game.refresh_from_db()
    assert game.position == before


def test_the_form_is_built_from_the_players_view_and_shows_no_one_elses_secrets(
    game: Game, risiko: RisiKo, monkeypatch: pytest.MonkeyPatch
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    other = next(p for p in ("red", "blue", "yellow") if p != first)
    position = dict(game.position)
    deck = list(position["deck"])
    # three cards of one symbol for the player, a hand of its own for another player
    board = engine.BOARDS[position["board"]]
    symbol = board.symbol[next(c for c in deck if c != "jolly")]
    ours = [c for c in deck if c != "jolly" and board.symbol[c] == symbol][:3]
    theirs = [c for c in deck if c != "jolly" and c not in ours][:3]
    position["deck"] = [c for c in deck if c not in ours + theirs]
    position["hands"] = {**position["hands"], first: sorted(ours), other: sorted(theirs)}
    game.position = engine.dump_position(engine.load_position(position))
    game.save(update_fields=["position"])

    seen: list[dict[str, Any]] = []
    context = RisiKo.decision_context

    def spy(kind: RisiKo, state: Any, player: str, names: Any) -> dict[str, Any]:
        seen.append(state)
        return context(kind, state, player, names)

    monkeypatch.setattr(RisiKo, "decision_context", spy)
    form = the_form(client_of(user_of(game, first)).get(detail(game)).content.decode())

    assert seen and all(state["view"] == first for state in seen)
    assert all(set(state["objectives"]) == {first} for state in seen)
    assert all("deck" not in state for state in seen)
    assert f'value="{", ".join(sorted(ours))}"' in form, "the player's own set to trade"
    for card in ours:
        assert describe.territory(card) in form
    hand_line = re.search(r"Your cards: (.*?)\.</p>", form)
    assert hand_line is not None
    trades = re.findall(r'name="trade" value="([^"]*)"', form)
    assert trades == ["", ", ".join(sorted(ours))]
    for card in theirs:
        assert describe.territory(card) not in hand_line.group(1)
    their_objective = describe.objective(game.position["objectives"][other])
    assert their_objective not in form
    assert "Objective" not in form and "objective" not in form


def test_a_trade_adds_its_armies_to_those_the_fields_may_place(game: Game, risiko: RisiKo) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    position = dict(game.position)
    board = engine.BOARDS[position["board"]]
    deck = [c for c in position["deck"] if c != "jolly"]
    symbol = board.symbol[deck[0]]
    ours = sorted(c for c in deck if board.symbol[c] == symbol)[:3]
    position["deck"] = [c for c in position["deck"] if c not in ours]
    position["hands"] = {**position["hands"], first: ours}
    game.position = engine.dump_position(engine.load_position(position))
    game.save(update_fields=["position"])
    view = risiko.view(game.position, risiko_viewer(first))
    (value,) = turnform.Turn(view, first).sets().values()
    origin, _ = an_attack(game, first)
    pool = game.position["turn"]["pool"]

    response = post_form(
        game, user_of(game, first), {"trade": ", ".join(ours), f"place-{origin}": str(pool + value)}
    )

    shown = response.content.decode()
    assert f"“trade {', '.join(ours)}”: done" in shown
    assert f"“place {pool + value} {origin}”: done" in shown
    game.refresh_from_db()
    assert game.position["turn"]["pool"] == 0


def test_the_move_in_and_the_war_answer_are_fields_too(game: Game, risiko: RisiKo) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    view = risiko.view(game.position, risiko_viewer(first))
    origin, target = an_attack(game, first)
    view["turn"] = {**view["turn"], "pool": 0, "step": "move-in"}
    view["turn"]["move_in"] = {"from": origin, "to": target, "moved": 2, "max": 5}
    moving = turnform.Turn(view, first)
    assert moving.context({})["move_in"]["min"] == 2
    assert moving.script({"move-in": "4"}) == "move 4"
    for wrong in ("1", "6"):
        with pytest.raises(ValueError, match="leave between 2 and 5 armies"):
            moving.script({"move-in": wrong})
    with pytest.raises(ValueError, match="this form has no field “end”"):
        moving.script({"move-in": "4", "end": "1"})

    defender = game.position["territories"][target]["owner"]
    war_view = risiko.view(game.position, risiko_viewer(defender))
    war_view["awaiting"] = [defender]
    war_view["turn"] = {**war_view["turn"], "pool": 0, "step": "war"}
    war_view["turn"]["war"] = {"from": origin, "to": target, "defender": defender}
    war_view["territories"][target]["armies"] = 4
    answering = turnform.Turn(war_view, defender)
    assert answering.context({})["war"]["costs"] == [0, 1, 2, 3]
    assert answering.script({"war": "3"}) == "war cost 3"
    assert answering.script({"war": "flag"}) == "war flag"
    with pytest.raises(ValueError, match="pay between 0 and 3"):
        answering.script({"war": "4"})


def test_the_decision_links_page_takes_a_turn_built_from_the_fields(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    seat = game.seats.get(user=user_of(game, first))
    url = links.decision_url(game, seat).split("localhost:8000", 1)[-1]
    client = Client()
    assert 'class="risiko-form"' in client.get(url).content.decode()
    origin, target = an_attack(game, first)
    pool = game.position["turn"]["pool"]

    response = client.post(
        url,
        {
            "turn": game.turn_number,
            "kind_form": "1",
            f"place-{origin}": str(pool),
            "attack-1": f"{origin} {target}",
            "attack-1-stop": "once",
        },
    )

    shown = response.content.decode()
    assert response.status_code == 200
    assert f"“place {pool} {origin}”: done" in shown
    assert f"“attack {target} from {origin} once”: done" in shown
    game.refresh_from_db()
    assert game.moves.order_by("-number").first().action.startswith(f"place {pool} {origin}; ")


def test_the_live_fragment_swaps_in_the_form_when_the_decision_changed(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = first_player(game, risiko)
    live = reverse("games:live", args=[game.pk])

    html = client_of(user_of(game, first)).get(live, {"v": "stale", "d": "old"}).content.decode()

    assert '<div id="decision-area" hx-swap-oob="true">' in html
    assert 'class="risiko-form"' in the_form(html)
