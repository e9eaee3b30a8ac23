"""K39f and the contract's turn scripts: with the war die, a script pauses at the attack
that opens a war; its remaining lines are kept by the server ("held"), seen by their
player alone, and run as a new script of the same player once the war is revealed (one
more report, by mail), unless the game is over, the turn has ended or the reveal opened
a move-in: then they are reported "not run"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from games import selectors, services
from games.models import Game, Move, Seat
from games.options import GameOptions
from mail.models import OutgoingMail
from risiko.kind import RisiKo
from tests.games.factories import Clock, alice, bob, carol, clock, olga
from tests.risiko.test_kind import page, placed, risiko, user_of

__all__ = ["alice", "bob", "carol", "clock", "olga", "risiko"]

pytestmark = pytest.mark.django_db


def war_table(risiko: RisiKo, users: tuple[User, User, User]) -> Game:
    """A war-die table of the three, seated at once: its sealed placement (K10) next."""
    seats = [services.TableSeat("", user=user) for user in users]
    options = GameOptions(kind=risiko.key, rules={"battle": "war-die"})
    with transaction.atomic():
        game = services.create_table(options, seats, name="War night")
    game.refresh_from_db()
    return game


def war_begun(risiko: RisiKo, users: tuple[User, User, User]) -> tuple[Game, str]:
    """A war-die table after its placement, and the first player's armies to place at
    the front: "place <pool> <territory>"."""
    game = placed(war_table(risiko, users), risiko)
    _, origin, _, _ = front(game, risiko, armies=1)
    return game, f"place {game.position['turn']['pool']} {origin}"


@pytest.fixture
def war_game(risiko: RisiKo, clock: Clock, alice: User, bob: User, carol: User) -> Game:
    """A war-die table of alice, bob and carol after the placement, the first player's
    turn armies placed on one territory at the front."""
    game, reinforce = war_begun(risiko, (alice, bob, carol))
    first = risiko.deciders(risiko.load(game.position))[0]
    services.submit_move(game.pk, user_of(game, first), reinforce, game.turn_number)
    game.refresh_from_db()
    return game


def front(game: Game, risiko: RisiKo, armies: int = 3) -> tuple[str, str, str, str]:
    """The player whose turn it is, a territory of theirs with at least ``armies``, a
    neighbour of another player's, and that player."""
    first = risiko.deciders(risiko.load(game.position))[0]
    spots = game.position["territories"]
    board = risiko.load(game.position).board
    origin, target = next(
        (o, t)
        for o in sorted(spots)
        if spots[o]["owner"] == first and spots[o]["armies"] >= armies
        for t in sorted(board.neighbors[o])
        if spots[t]["owner"] != first
    )
    return first, origin, target, spots[target]["owner"]


def seat_of(game: Game, player: str) -> Seat:
    return next(seat for seat in game.seats.all() if seat.player_name == player)


def answer(game: Game, defender: str, words: str) -> None:
    game.refresh_from_db()
    services.submit_move(game.pk, user_of(game, defender), words, game.turn_number)
    game.refresh_from_db()


def test_held_lines_are_kept_and_run_once_the_war_is_revealed(
    war_game: Game, risiko: RisiKo
) -> None:
    game = war_game
    attacker, origin, target, defender = front(game, risiko)
    script = f"attack {target} from {origin} cost 1 move 1\nend"
    move, report = services.submit_script(
        game.pk, user_of(game, attacker), script, game.turn_number, source=Move.Source.EMAIL
    )
    assert move is not None
    assert [line["status"] for line in report] == ["done", "held"]
    seat = seat_of(game, attacker)
    assert seat.held == "end" and seat.held_source == "email", "K39f: the server keeps them"

    answer(game, defender, "war cost 0")  # 1 > 0: the attacker wins and moves in 1

    seat.refresh_from_db()
    assert seat.held == "" and seat.held_source == ""
    last = game.moves.order_by("-number").first()
    assert last is not None and last.seat_id == seat.pk
    assert last.action == "end" and last.source == Move.Source.EMAIL
    assert game.position["turn"]["player"] != attacker, "the held end ended the turn"
    assert game.position["territories"][target]["owner"] == attacker
    report_mail = OutgoingMail.objects.filter(
        to_user=user_of(game, attacker), kind="script-report"
    ).get()
    assert "“end”: done" in report_mail.body_text
    assert "The game now waits for" in report_mail.body_text
    following = seat_of(game, game.position["turn"]["player"])
    assert OutgoingMail.objects.filter(to_user=following.user, kind="decision").exists()
    assert risiko.dump(selectors.replay(game)[-1][1]) == game.position


def test_a_reveal_that_opens_a_move_in_leaves_the_held_lines_not_run(
    war_game: Game, risiko: RisiKo
) -> None:
    game = war_game
    attacker, origin, target, defender = front(game, risiko, armies=4)  # a choice to make
    player = user_of(game, attacker)
    services.submit_script(
        game.pk, player, f"attack {target} from {origin} cost 1\nend", game.turn_number
    )
    decisions = OutgoingMail.objects.filter(to_user=player, kind="decision").count()

    answer(game, defender, "war cost 0")

    assert game.position["turn"]["move_in"] is not None, "K39d: the attacker moves in"
    assert seat_of(game, attacker).held == ""
    assert game.moves.order_by("-number").first().seat.player_name == defender
    mails = OutgoingMail.objects.filter(to_user=player, kind="decision").order_by("id")
    assert mails.count() == decisions + 1, "one mail asks for the move-in, with the report"
    body = mails.last().body_text
    assert "“end”: not run, waiting for your move-in" in body
    assert not OutgoingMail.objects.filter(to_user=player, kind="script-report").exists()


def test_a_held_attack_opens_the_next_war_and_holds_the_rest_again(
    war_game: Game, risiko: RisiKo
) -> None:
    game = war_game
    attacker, origin, target, defender = front(game, risiko)
    attack = f"attack {target} from {origin} cost 0"
    services.submit_script(
        game.pk, user_of(game, attacker), f"{attack}\n{attack}\nend", game.turn_number
    )
    assert seat_of(game, attacker).held == f"{attack}\nend"

    answer(game, defender, "war flag")  # 0 against a flag: the defender holds, no one pays

    assert game.position["turn"]["war"] is not None, "the held attack opened a second war"
    assert seat_of(game, attacker).held == "end"
    report = OutgoingMail.objects.filter(to_user=user_of(game, attacker), kind="script-report")
    assert f"“{attack}”: done" in report.get().body_text
    assert "“end”: held" in report.get().body_text

    answer(game, defender, "war flag")

    assert seat_of(game, attacker).held == ""
    assert game.position["turn"]["player"] != attacker
    actions = list(game.moves.order_by("number").values_list("action", flat=True))
    assert actions[-5:] == [attack, "war flag", attack, "war flag", "end"]
    assert risiko.dump(selectors.replay(game)[-1][1]) == game.position


def test_held_lines_run_after_the_defenders_default_at_the_deadline(
    war_game: Game, risiko: RisiKo, clock: Clock
) -> None:
    """K39b: a missing defender answers with the largest cost it can pay; the held lines
    run after that reveal as after any other."""
    game = war_game
    attacker, origin, target, defender = front(game, risiko)
    services.submit_script(
        game.pk,
        user_of(game, attacker),
        f"attack {target} from {origin} cost 0\nend",
        game.turn_number,
    )
    game.refresh_from_db()
    assert game.deadline is not None
    clock.at = game.deadline
    services.handle_missed_decision(game.pk)
    game.refresh_from_db()
    clock.at = game.deadline
    assert services.handle_missed_decision(game.pk) == "timeout move"

    game.refresh_from_db()
    assert seat_of(game, attacker).held == ""
    assert game.position["turn"]["player"] != attacker, "the held end ran"
    assert risiko.dump(selectors.replay(game)[-1][1]) == game.position


def test_an_attacker_who_forfeits_hears_their_held_lines_were_not_run(
    war_game: Game, risiko: RisiKo, olga: User
) -> None:
    game = war_game
    attacker, origin, target, _ = front(game, risiko)
    services.submit_script(
        game.pk,
        user_of(game, attacker),
        f"attack {target} from {origin} cost 0\nend",
        game.turn_number,
    )
    seat = seat_of(game, attacker)

    services.forfeit_seat(game.pk, olga, seat.pk, "admin", reason="a test")

    seat.refresh_from_db()
    assert seat.held == ""
    report = OutgoingMail.objects.filter(to_user=seat.user, kind="script-report").get()
    assert "“end”: not run, the turn has ended" in report.body_text


def test_held_lines_show_to_their_player_alone(war_game: Game, risiko: RisiKo, olga: User) -> None:
    """They may hold sealed costs (the contract): no other player, spectator or
    organiser who does not play sees them while they wait."""
    from django.urls import reverse

    game = war_game
    attacker, origin, target, defender = front(game, risiko)
    secret = f"attack {target} from {origin} cost 1 move all"
    services.submit_script(
        game.pk,
        user_of(game, attacker),
        f"attack {target} from {origin} cost 0\n{secret}",
        game.turn_number,
    )
    url = reverse("games:detail", args=[game.pk])
    assert secret in page(user_of(game, attacker), url)
    others = [user_of(game, p) for p in ("red", "blue", "yellow") if p != attacker]
    for reader in [*others, olga, None]:
        assert secret not in page(reader, url)
        assert "cost 1 move all" not in page(reader, url)


def test_the_turn_form_builds_war_die_attacks_and_the_rest_waits_for_the_war(
    war_game: Game, risiko: RisiKo
) -> None:
    """K39a on the page: each attack row takes a war cost (0–11) or a white flag and a
    move rule; the rows after the first war and the end are held, and run after it."""
    from django.urls import reverse

    from tests.risiko.test_turn_form import options, post_form, the_form

    game = war_game
    attacker, origin, target, defender = front(game, risiko, armies=4)
    player = user_of(game, attacker)
    form = the_form(page(player, reverse("games:detail", args=[game.pk])))
    assert options(form, "attack-1-cost") == {*(str(n) for n in range(12)), "flag"}
    assert f"{origin} {target}" in options(form, "attack-1")
    assert 'name="attack-1-dice"' not in form and "The odds of each attack" not in form
    most = min(11, game.position["territories"][target]["armies"] - 1)
    assert f"who can pay up to {most}" in form

    response = post_form(
        game,
        player,
        {
            "attack-1": f"{origin} {target}",
            "attack-1-cost": "0",
            "attack-2": f"{origin} {target}",
            "attack-2-cost": "flag",
            "end": "1",
        },
    )
    shown = response.content.decode()
    assert f"“attack {target} from {origin} cost 0”: done" in shown
    assert f"“attack {target} from {origin} flag”: held" in shown
    assert seat_of(game, attacker).held == f"attack {target} from {origin} flag\nend"

    answer(game, defender, "war flag")  # the defender holds: the flag attack is held no more
    answer(game, defender, "war flag")  # two flags: a truce (K39e)
    assert seat_of(game, attacker).held == ""
    assert game.position["truces"], "K39e: two white flags made a truce"
    assert game.position["turn"]["player"] != attacker, "the held end ran"


def test_a_war_cost_out_of_range_on_the_form_is_refused_and_changes_nothing(
    war_game: Game, risiko: RisiKo
) -> None:
    from tests.risiko.test_turn_form import post_form

    game = war_game
    attacker, origin, target, _ = front(game, risiko)
    before = game.moves.count()
    for cost in ("12", "-1", "lots", ""):
        response = post_form(
            game,
            user_of(game, attacker),
            {"attack-1": f"{origin} {target}", "attack-1-cost": cost},
            follow=False,
        )
        assert response.status_code == 400, cost
        assert "war cost" in response.content.decode()
    assert game.moves.count() == before
    assert seat_of(game, attacker).held == ""


def test_the_finished_records_sealed_lines_carry_commitments_anyone_can_check(
    risiko: RisiKo, alice: User, bob: User, carol: User, olga: User
) -> None:
    """K37, K38: in the record of a finished war-die game each sealed action (the
    placements, a war's attack, even as the last line of a turn sent at once, and its
    answer) carries its decision, nonce and commitment, and H recomputes from them."""
    import json

    from django.urls import reverse

    from risiko import engine

    game, place = war_begun(risiko, (alice, bob, carol))
    attacker, origin, target, defender = front(game, risiko, armies=1)
    script = f"{place}\nattack {target} from {origin} cost 1 move 1\nend"
    services.submit_script(game.pk, user_of(game, attacker), script, game.turn_number)
    answer(game, defender, "war cost 0")
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    game.refresh_from_db()

    record = json.loads(page(None, reverse("games:record", args=[game.pk])))["record"]

    sealed = [m for m in record["moves"] if "commitment" in m]
    assert [m["decision"] for m in sealed].count("placement") == 3
    attack = f"attack {target} from {origin} cost 1 move 1"
    wars = [m for m in sealed if m["decision"].startswith("war-")]
    assert [m["action"] for m in wars] == [attack, "war cost 0"]
    assert wars[0]["decision"] == wars[1]["decision"]
    for move in sealed:
        assert engine.verify_commitment(
            move["commitment"],
            record["game"],
            move["decision"],
            move["player"],
            move["action"],
            move["nonce"],
        ), move
    assert [m["action"] for m in record["moves"]][-4:] == [place, attack, "war cost 0", "end"]
