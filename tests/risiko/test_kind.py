"""RisiKo on the server, through its kind: a table starts in the sealed placement (K10,
K38) that every player makes at once; a turn is many actions of one player under one
deadline and one decision mail (K34); a missed turn is finished by the default (K35);
every reader sees the game through the engine's views (K33): no player, spectator or mail
reader sees another's objective, cards or sealed placement while the game runs, and all
of it shows once the game is over (K32)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import services
from games.kinds import SPECTATOR, player_viewer
from games.models import Game
from games.options import GameOptions
from mail.models import OutgoingMail
from risiko import describe
from risiko.kind import RisiKo
from tests.games.factories import Clock, alice, bob, carol, clock, olga
from tests.kinds.registered import registered

__all__ = ["alice", "bob", "carol", "clock", "olga"]

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


@pytest.fixture
def game(risiko: RisiKo, clock: Clock, alice: User, bob: User, carol: User) -> Game:
    """Alice (red), bob (blue) and carol (yellow) at a RisiKo table, in its placement."""
    seats = [services.TableSeat("", user=user) for user in (alice, bob, carol)]
    with transaction.atomic():
        made = services.create_table(GameOptions(kind=risiko.key), seats, name="Risiko night")
    made.refresh_from_db()
    return made


def user_of(game: Game, player: str) -> User:
    seat = game.seats.get(number=["red", "blue", "yellow"].index(player) + 1)
    assert seat.user is not None
    return seat.user


def placed(game: Game, risiko: RisiKo) -> Game:
    """Every player sends the default placement (K35's, a legal one): the reveal."""
    for player in ("red", "blue", "yellow"):
        game.refresh_from_db()
        state = risiko.load(game.position)
        (action,) = risiko.legal(state, player)
        services.submit_move(game.pk, user_of(game, player), action, game.turn_number)
    game.refresh_from_db()
    return game


def objective_text(game: Game, player: str) -> str:
    return describe.objective(game.position["objectives"][player])


def page(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_table_starts_in_a_sealed_placement_everyone_makes_at_once(
    game: Game, risiko: RisiKo
) -> None:
    assert game.kind == "risiko" and game.status == Game.Status.SETUP
    assert [s.player_name for s in game.seats.order_by("number")] == ["red", "blue", "yellow"]
    assert set(risiko.deciders(risiko.load(game.position))) == {"red", "blue", "yellow"}
    assert game.to_move is None and game.seats.filter(deciding=True).count() == 3
    assert game.start_record[0]["type"] == "setup" and game.start_record[0]["rng"]

    state = risiko.load(game.position)
    (red,) = risiko.legal(state, "red")
    services.submit_move(game.pk, user_of(game, "red"), red, game.turn_number)
    game.refresh_from_db()

    assert set(risiko.deciders(risiko.load(game.position))) == {"blue", "yellow"}
    for reader in ("blue", "yellow"):
        shown = risiko.view(game.position, player_viewer(reader))
        assert shown["placement"]["sealed"]["red"] == "sealed", "K38: sealed until all are in"
    blue = page(user_of(game, "blue"), reverse("games:detail", args=[game.pk]))
    assert "place (sealed)" in blue and red not in blue


def test_a_turn_is_many_actions_under_one_deadline_and_one_decision_mail(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    assert game.status == Game.Status.PLAY
    first = risiko.deciders(risiko.load(game.position))[0]
    player = user_of(game, first)
    deadline = game.deadline
    mails = OutgoingMail.objects.filter(to_user=player, kind="decision").count()

    state = risiko.load(game.position)
    reinforce = risiko.legal(state, first)[0]  # K35: the placement of the turn's armies
    services.submit_move(game.pk, player, reinforce, game.turn_number)
    game.refresh_from_db()

    assert risiko.deciders(risiko.load(game.position)) == (first,)
    assert game.deadline == deadline, "the same turn: its deadline stands"
    assert OutgoingMail.objects.filter(to_user=player, kind="decision").count() == mails

    services.submit_move(game.pk, player, "end", game.turn_number)
    game.refresh_from_db()
    assert risiko.deciders(risiko.load(game.position)) != (first,)
    assert game.position["turn"]["number"] == 2


def test_a_missed_turn_is_finished_by_the_default(game: Game, risiko: RisiKo, clock: Clock) -> None:
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    assert game.deadline is not None

    clock.at = game.deadline
    assert services.handle_missed_decision(game.pk) == "grace"
    game.refresh_from_db()
    assert game.deadline is not None
    clock.at = game.deadline
    assert services.handle_missed_decision(game.pk) == "timeout move"

    game.refresh_from_db()
    assert game.position["turn"]["number"] == 2, "K35: placed by default, then ended"
    assert risiko.deciders(risiko.load(game.position)) != (first,)
    actions = list(game.moves.filter(source="timeout").values_list("action", flat=True))
    assert actions[0].startswith("place ") and actions[-1] == "end"


def test_no_reader_sees_another_players_objective_or_cards_while_the_game_runs(
    game: Game, risiko: RisiKo, olga: User
) -> None:
    placed(game, risiko)
    reds = objective_text(game, "red")
    assert reds not in {objective_text(game, p) for p in ("blue", "yellow")}  # K27: distinct
    url = reverse("games:detail", args=[game.pk])
    mine = page(user_of(game, "red"), url)
    assert reds in mine, "each player reads their own objective"
    for reader in (user_of(game, "blue"), user_of(game, "yellow"), None):
        shown = page(reader, url) + page(reader, reverse("games:record", args=[game.pk]))
        assert reds not in shown
        assert '"deck":' not in shown and '"setup_rng"' not in shown
    spectator = risiko.view(game.position, SPECTATOR)
    assert spectator["objectives"] == {} and spectator["hands"] == {}
    record = json.loads(page(None, reverse("games:record", args=[game.pk])))
    assert record["start"] == [], "the setup's values deal every secret"
    assert all(m["position"]["objectives"] == {} for m in record["moves"])
    from games import digests
    from tests.kinds.test_mails_of_another_kind import say

    blue = user_of(game, "blue")
    for command in ("board", "moves", "help"):  # the answers to replies by mail
        say(game, blue, command)
    assert OutgoingMail.objects.filter(to_user=blue, kind="reply").count() == 3
    for mail in OutgoingMail.objects.filter(to_user=blue):
        text = mail.body_text + mail.body_html + json.dumps(mail.inline_spec)
        assert reds not in text, mail.kind
        assert '"deck":' not in text
    from datetime import timedelta

    last = game.moves.order_by("-number").first()  # the services' clock, not the wall's
    assert last is not None and game.started_at is not None
    told = digests.digest_games(
        blue, game.started_at - timedelta(minutes=1), last.created_at + timedelta(minutes=1)
    )
    assert told and reds not in str(told)


def test_everything_shows_once_the_game_is_over(game: Game, risiko: RisiKo, olga: User) -> None:
    placed(game, risiko)
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    game.refresh_from_db()
    record = json.loads(page(None, reverse("games:record", args=[game.pk])))
    assert record["start"] == game.start_record
    assert set(record["moves"][-1]["position"]["objectives"]) == {"red", "blue", "yellow"}
    for player in ("red", "blue", "yellow"):
        assert objective_text(game, player) in page(None, reverse("games:detail", args=[game.pk]))


def test_the_decision_mail_shows_the_board_and_the_readers_own_view(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    mail = OutgoingMail.objects.filter(to_user=user_of(game, first), kind="decision").latest("id")
    assert mail.subject.startswith("[RisiKo] Risiko night: your turn")
    assert mail.inline_spec is not None and mail.inline_spec["kind"] == "risiko"
    assert mail.inline_spec["position"]["view"] == first
    assert set(mail.inline_spec["position"]["objectives"]) == {first}
    assert objective_text(game, first) in mail.body_text
    assert "attack " in mail.body_text or "place " in mail.body_text


def test_a_record_replays_to_the_stored_position(game: Game, risiko: RisiKo) -> None:
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    state = risiko.load(game.position)
    reinforce = risiko.legal(state, first)[0]
    services.submit_move(game.pk, user_of(game, first), reinforce, game.turn_number)
    services.submit_move(game.pk, user_of(game, first), "end", game.turn_number + 1)
    game.refresh_from_db()

    from games import selectors

    states = selectors.replay(game)
    assert risiko.dump(states[-1][1]) == game.position


def test_a_player_sends_a_whole_turn_by_replying_to_the_decision_mail(
    game: Game, risiko: RisiKo
) -> None:
    """K34: the reply's lines run top to bottom as far as the turn goes; the answer
    reports each line; the lines done are one move, which the record replays."""
    from games import selectors
    from inbound.models import InboundMessage
    from tests.kinds.test_mails_of_another_kind import say

    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    player = user_of(game, first)
    reinforce = risiko.legal(risiko.load(game.position), first)[0]

    assert say(game, player, "end") == InboundMessage.Outcome.REFUSED  # armies to place
    game.refresh_from_db()
    assert game.position["turn"]["number"] == 1 and game.position["turn"]["pool"] > 0

    script = f"trade cina, siam, india\n{reinforce}\nend\nfortify cina siam 1"
    assert say(game, player, script) == InboundMessage.Outcome.APPLIED

    game.refresh_from_db()
    assert game.position["turn"]["number"] == 2
    move = game.moves.order_by("-number").first()
    assert move is not None and move.action == f"{reinforce}; end" and move.source == "email"
    answer = OutgoingMail.objects.filter(to_user=player, kind="reply").latest("id").body_text
    assert "“trade cina, siam, india”: skipped" in answer
    assert f"“{reinforce}”: done" in answer and "“end”: done" in answer
    assert "“fortify cina siam 1”: not run" in answer
    assert risiko.dump(selectors.replay(game)[-1][1]) == game.position


def test_a_swiss_event_of_risiko_bots_runs_to_its_end(
    risiko: RisiKo, django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.personas import make_user
    from tests.tournaments.conftest import bot_event
    from tests.tournaments.test_formats import run
    from tournaments import services as events
    from tournaments.models import Table

    organiser = make_user(django_user_model, "orsola")
    league = events.create_league("RisiKo League", organiser)
    event = bot_event(league, organiser, 8, kind=risiko.key, table_size=4, swiss_rounds=2)

    played = run(event, django_capture_on_commit_callbacks)

    assert [r.stage for r in played] == ["swiss", "swiss"]
    from tournaments.selectors import report

    ranking = report.event_report(event)["settings"]["house_rule"]["ranking"]
    assert ranking == [
        "progress towards their objective",
        "territories held",
        "armies on the board",
        "elimination order",
    ]
    tables = Table.objects.filter(round__tournament=event)
    assert tables.count() == 4
    for table in tables:
        game = Game.objects.get(pk=table.game_id)
        assert game.kind == "risiko" and game.status == Game.Status.OVER
        assert table.result_source in ("game", "adjudicated")
        assert sorted(p for group in table.result for p in group) == sorted(
            table.seats.values_list("entry_id", flat=True)
        )


def test_a_players_cards_and_the_deck_show_to_no_one_else(game: Game, risiko: RisiKo) -> None:
    """K33: each player sees their own hand and the others' hand sizes, never the deck."""
    placed(game, risiko)
    position = dict(game.position)
    position["hands"] = {**position["hands"], "red": ["cina", "jolly"]}
    position["deck"] = [c for c in position["deck"] if c not in ("cina", "jolly")] + ["jolly"]
    risiko.load(position)  # still a sound position: 44 cards in all
    Game.objects.filter(pk=game.pk).update(position=position)
    url = reverse("games:detail", args=[game.pk])
    red = user_of(game, "red")
    red_name = game.seats.get(number=1).display_name

    assert f"Cards of {red_name} (red): Cina, jolly." in page(red, url)
    for reader in (user_of(game, "blue"), user_of(game, "yellow"), None):
        shown = page(reader, url) + page(reader, reverse("games:record", args=[game.pk]))
        assert f"Cards of {red_name}" not in shown
        assert '"deck":' not in shown and '"jolly"' not in shown
        if reader is not None:
            assert f"{red_name} (red) 2" in shown, "the others see how many cards red holds"


def test_a_war_cost_stays_sealed_from_everyone_but_the_attacker_until_the_reveal(
    risiko: RisiKo, alice: User, bob: User, carol: User
) -> None:
    """K38, K39: the attacker's war cost shows to no one else, the defender included, in
    any page, record, mail or digest, until the defender's answer reveals it."""
    from games import digests

    game, first, defender = at_war(risiko, (alice, bob, carol))
    attacker = user_of(game, first)
    attack = game.moves.get(number=game.turn_number).action
    assert attack.endswith(" cost 1")
    assert risiko.deciders(risiko.load(game.position)) == (defender,), "the defender answers"

    since = game.started_at
    for player in {"red", "blue", "yellow"} - {first}:
        reader = user_of(game, player)
        told = [page(reader, reverse("games:detail", args=[game.pk]))]
        told.append(page(reader, reverse("games:record", args=[game.pk])))
        for mail in OutgoingMail.objects.filter(to_user=reader):
            told.append(mail.body_text + mail.body_html + json.dumps(mail.inline_spec))
        told.append(str(digests.digest_games(reader, since, game.moves.last().created_at)))
        for text in told:
            assert "cost 1" not in text.replace("war cost 1", ""), player
    assert attack in page(attacker, reverse("games:detail", args=[game.pk]))


def test_a_player_types_a_whole_turn_on_the_game_page(game: Game, risiko: RisiKo) -> None:
    """K34 on the web: the decision form takes several lines; the page reports each."""
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    client = Client()
    client.force_login(user_of(game, first))
    url = reverse("games:detail", args=[game.pk])
    assert '<textarea name="notation"' in client.get(url).content.decode()
    reinforce = risiko.legal(risiko.load(game.position), first)[0]

    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"turn": game.turn_number, "notation": f"{reinforce}\nattack nowhere\nend"},
        follow=True,
    )

    shown = response.content.decode()
    assert f"“{reinforce}”: done" in shown and "“end”: done" in shown
    assert "“attack nowhere”: skipped" in shown
    game.refresh_from_db()
    assert game.position["turn"]["number"] == 2


def test_a_finished_risiko_game_rates_risiko_alone(
    game: Game, risiko: RisiKo, django_capture_on_commit_callbacks: Any
) -> None:
    """A RisiKo finishing order rates the players in RisiKo's own pool, never World War 5's."""
    from ratings.models import Rating

    placed(game, risiko)
    with django_capture_on_commit_callbacks(execute=True):
        services.adjudicate(game.pk, [["blue"], ["red"], ["yellow"]], "a test")

    rated = Rating.objects.filter(season__isnull=True)
    assert rated.count() == 3 and set(rated.values_list("kind", flat=True)) == {"risiko"}
    best = rated.order_by("-mu").first()
    assert best is not None and best.user == user_of(game, "blue")


def test_a_finished_games_record_replays_with_the_engine_alone(
    game: Game, risiko: RisiKo, olga: User
) -> None:
    """K37: the record of a finished game, in the contract's format, replays to its last
    position with the engine alone; a whole turn sent at once is written line by line."""
    from risiko import engine

    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    reinforce = risiko.legal(risiko.load(game.position), first)[0]
    services.submit_script(game.pk, user_of(game, first), f"{reinforce}\nend", game.turn_number)
    game.refresh_from_db()
    services.abandon_game(game.pk, olga, reason="the players agreed to stop")
    game.refresh_from_db()

    record = json.loads(page(None, reverse("games:record", args=[game.pk])))["record"]

    assert record["format"] == "risiko-record/1" and record["game"] == str(game.pk)
    assert [m["action"] for m in record["moves"]][-2:] == [reinforce, "end"]
    state = engine.new_game(
        record["seats"],
        {"board": record["board"], **record["options"]},
        engine.ListRandom(record["setup_rng"]),
    )
    for move in record["moves"]:
        values = engine.ListRandom(move["rng"])
        state, _ = engine.apply_action(state, move["player"], move["action"], values)
        assert values.position == len(move["rng"]), "each move's values, no more"
    assert engine.dump_position(state) == game.position


def test_a_running_games_record_has_no_export_to_anyone_but_everyone(
    game: Game, risiko: RisiKo
) -> None:
    placed(game, risiko)
    shown = json.loads(page(None, reverse("games:record", args=[game.pk])))
    assert "record" not in shown


def test_a_stranger_or_a_player_out_of_turn_sending_a_turn_changes_nothing(
    game: Game, risiko: RisiKo, olga: User, django_user_model: Any
) -> None:
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    other = next(p for p in ("red", "blue", "yellow") if p != first)
    stranger = django_user_model.objects.create_user("stranger", "s@example.com", "pw-x-1234")
    before = (game.turn_number, game.position)
    for user in (stranger, user_of(game, other)):
        client = Client()
        client.force_login(user)
        response = client.post(
            reverse("games:move", args=[game.pk]),
            {"turn": game.turn_number, "notation": "end\nend"},
            follow=True,
        )
        assert response.status_code in (400, 403, 404)
        game.refresh_from_db()
        assert (game.turn_number, game.position) == before


def test_a_player_plays_risiko_against_bots_from_the_lobby(
    risiko: RisiKo, alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    client = Client()
    client.force_login(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'name="kind"' in lobby and ">RisiKo</option>" in lobby

    refused = client.post(
        reverse("games:bots"), {"bots": "1", "bot": "greedy", "board": "original", "kind": "risiko"}
    )
    assert refused.status_code == 302 and not Game.objects.exists(), "RisiKo seats 3 to 6"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("games:bots"),
            {"bots": "2", "bot": "greedy", "board": "original", "kind": "risiko"},
        )

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.kind == "risiko" and game.options["board"] == "classic"
    assert game.seats.filter(bot="greedy").count() == 2 and not game.is_public
    assert "alice" in game.seats.get(number=1).user.username


def test_an_events_seating_decides_who_goes_first(
    risiko: RisiKo, alice: User, bob: User, carol: User
) -> None:
    """K6, or the event's balanced first seat: the turn order is the seats' from that one
    on, the start record says so, and the game replays from its record the same way."""
    from games import selectors

    seats = [services.TableSeat("", user=user) for user in (alice, bob, carol)]
    with transaction.atomic():
        game = services.create_table(
            GameOptions(kind=risiko.key), seats, name="Seated", first_seat=1
        )
    game.refresh_from_db()

    assert [p["name"] for p in game.position["players"]] == ["blue", "yellow", "red"]
    assert game.start_record[-1] == {"type": "first_player", "player": "blue", "by": "seating"}
    assert risiko.dump(selectors.replay(game)[0][1]) == game.position
    shown = page(alice, reverse("games:detail", args=[game.pk]))
    assert "goes first, as the event seated them." in shown


def at_war(risiko: RisiKo, users: tuple[User, User, User]) -> tuple[Game, str, str]:
    """A war-die game in which the first player's war waits for its defender's answer:
    (the game, the attacker, the defender)."""
    seats = [services.TableSeat("", user=user) for user in users]
    options = GameOptions(kind=risiko.key, rules={"battle": "war-die"})
    with transaction.atomic():
        game = services.create_table(options, seats, name="War night")
    game.refresh_from_db()
    placed(game, risiko)
    first = risiko.deciders(risiko.load(game.position))[0]
    reinforce = risiko.legal(risiko.load(game.position), first)[0]
    services.submit_move(game.pk, user_of(game, first), reinforce, game.turn_number)
    game.refresh_from_db()
    spots = game.position["territories"]
    board = risiko.load(game.position).board
    origin, target = next(
        (o, t)
        for o in sorted(spots)
        if spots[o]["owner"] == first and spots[o]["armies"] >= 3
        for t in sorted(board.neighbors[o])
        if spots[t]["owner"] != first
    )
    attack = f"attack {target} from {origin} cost 1"
    services.submit_move(game.pk, user_of(game, first), attack, game.turn_number)
    game.refresh_from_db()
    return game, first, spots[target]["owner"]


@pytest.mark.parametrize("leaving", ["attacker", "defender"])
def test_a_war_survives_either_side_forfeiting(
    risiko: RisiKo, alice: User, bob: User, carol: User, olga: User, leaving: str
) -> None:
    """K36, K39: the attacker forfeiting calls the war off and passes the turn; the
    defender forfeiting reveals it with the default answer for their neutral armies."""
    from games import selectors

    game, attacker, defender = at_war(risiko, (alice, bob, carol))
    assert game.position["turn"]["war"] is not None
    player = attacker if leaving == "attacker" else defender
    seat = game.seats.get(number=["red", "blue", "yellow"].index(player) + 1)

    services.forfeit_seat(game.pk, olga, seat.pk, "admin", reason="a test")

    game.refresh_from_db()
    turn = game.position["turn"]
    assert {"player": player, "how": "forfeit", "by": None} in game.position["out"]
    if leaving == "attacker":
        assert turn["player"] != attacker, "the turn passes"
        assert game.moves.last().events[0] == {"type": "forfeit", "player": attacker}
        assert any(e["type"] == "war_called_off" for e in game.moves.last().events)
    else:
        assert turn["war"] is None and turn["player"] == attacker, "the attacker goes on"
        assert any(e["type"] == "war_revealed" for e in game.moves.last().events)
    assert risiko.dump(selectors.replay(game)[-1][1]) == game.position
