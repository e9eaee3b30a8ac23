"""A Swiss event of RisiKo (tables of 4, 2 rounds: 7 bots and a person) runs to its end
through the jobs alone: a real Celery worker and beat (PostgreSQL, Redis), nothing called
by the test but the event's start. Each round has both ways a table ends, every run:

- the table of the person, who never moves, is cut short at the round's deadline and
  adjudicated by the event's published RisiKo ranking (R28: objective progress, then
  territories, then armies, then elimination order). The game opens with the sealed
  placement (K10, K38), a decision every player makes at once: without the person's it
  never goes on. Their decision time (2 days) is far beyond the test, so no default is
  made for them (K35) and they never reach the missed limit (3 missed decisions, R31): the
  round's deadline (14 days, which the test moves into the past) comes first. (Pausing
  the game instead would race the bots, who play as soon as it starts.)
- the other table, 4 greedy bots, is won outright: the test keeps the clock, and lets the
  round's deadline pass only once that game has ended by itself. (Greedy bots end a game
  in a few hundred moves; random ones may take thousands.)

Then the event's ``standings.json`` agrees with the games' records: each table's
finishing order is made again from its game's record JSON alone (a won game: the
winner, then the players still in by territories then armies, then those out, the last
out first; a game cut short: the published ranking's measures of its last position,
then the elimination order), and each player's points from the event's points table.
The adjudicated game is over, its log says it ended at the round's deadline (R28), with
the values of the published measures that ranked its players, as made again from its
record.

The worker and the beat run RisiKo because their environment names it
(``GAME_KINDS=risiko``); this process registers it for the test's time.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import GameEvent
from risiko.kind import RisiKo
from tests.integration.helpers import CeleryProcesses
from tests.kinds.registered import registered
from tests.personas import persona
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

orsola = persona("orsola")
piero = persona("piero")
BOTS = 7
PLAYERS = BOTS + 1
WAIT = 300  # seconds the whole event may take
ELIMINATION = "elimination order"


@pytest.fixture(autouse=True)
def risiko() -> Iterator[RisiKo]:
    with registered(RisiKo()) as kind:
        yield kind


@pytest.fixture
def worker_environment() -> dict[str, str]:
    """The worker and the beat run RisiKo too."""
    return {"GAME_KINDS": "risiko"}


def grouped(players: list[str], key: Any) -> list[list[str]]:
    """``players`` in groups of equal ``key``, the highest first."""
    values = sorted({key(p) for p in players}, reverse=True)
    return [[p for p in players if key(p) == value] for value in values]


def out_order(position: dict[str, Any]) -> list[list[str]]:
    """The players out of the game: eliminated in play, the last out first, then those
    who forfeited, the last first."""
    out = position["out"]
    eliminated = [o["player"] for o in out if o["how"] == "eliminated"]
    forfeited = [o["player"] for o in out if o["how"] == "forfeit"]
    return [[p] for p in reversed(eliminated)] + [[p] for p in reversed(forfeited)]


def last_position(record: dict[str, Any]) -> dict[str, Any]:
    position: dict[str, Any] = (
        record["moves"][-1]["position"] if record["moves"] else record["initial_position"]
    )
    return position


def measured(record: dict[str, Any], ranking: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The published ranking's measures (the kind's names, in its order, elimination
    order aside) and each player's values on them in the game's last position."""
    kind = RisiKo()
    by_words = {words: key for key, words in kind.adjudication_measures().items()}
    assert ranking[-1] == ELIMINATION
    steps = [by_words[words] for words in ranking[:-1]]
    return steps, kind.measure(last_position(record), steps)


def order_from_record(record: dict[str, Any], ranking: list[str]) -> tuple[list[list[str]], str]:
    """The game's finishing order (its player names, best first, ties grouped) from its
    record alone, and whether the game ended by itself (``game``) or was cut short
    (``adjudicated``)."""
    assert record["status"] == "over", record["status"]
    last = last_position(record)
    gone = {o["player"] for o in last["out"]}
    still_in = [p["name"] for p in last["players"] if p["name"] not in gone]
    if last["phase"] == "over":
        winner = last["winner"]
        assert winner is not None and record["winner"] == winner
        held: dict[str, tuple[int, int]] = {p: (0, 0) for p in still_in}
        for spot in last["territories"].values():
            territories, armies = held.get(spot["owner"], (0, 0))
            held[spot["owner"]] = (territories + 1, armies + spot["armies"])
        rest = [p for p in still_in if p != winner]
        return [[winner], *grouped(rest, held.__getitem__), *out_order(last)], "game"
    # Cut short at the round's deadline: the published ranking, in its words.
    _, values = measured(record, ranking)
    return [*grouped(still_in, values.__getitem__), *out_order(last)], "adjudicated"


def points_of(order: list[list[int]], row: list[float]) -> dict[int, float]:
    """Points by place: tied players share the points of the places they tie for."""
    points: dict[int, float] = {}
    place = 0
    for group in order:
        share = sum(row[place : place + len(group)]) / len(group)
        points.update(dict.fromkeys(group, share))
        place += len(group)
    return points


def run_event(event: Tournament, person: Any, celery: CeleryProcesses) -> None:
    """Keep the clock until the event has finished: each round's deadline passes (moved
    into the past, as time would) once every table without ``person`` has ended by
    itself; the person's table is still waiting for them then."""
    deadline = time.monotonic() + WAIT
    while Tournament.objects.get(pk=event.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, f"the event did not finish:\n{celery.logs()}"
        running = Round.objects.filter(tournament=event, status=Round.Status.RUNNING).first()
        if running is not None and running.deadline > timezone.now():
            tables = running.tables.all()
            theirs = tables.filter(seats__entry__user=person)
            others = tables.exclude(seats__entry__user=person)
            if (
                tables.count() == 2
                and theirs.count() == 1
                and not others.filter(finished_at__isnull=True).exists()
            ):
                assert theirs.get().finished_at is None  # the person's game waits for them
                Round.objects.filter(pk=running.pk).update(deadline=timezone.now())
        time.sleep(0.5)


def test_each_round_has_a_table_won_and_the_silent_players_table_adjudicated_and_standings_agree(
    celery: CeleryProcesses, orsola: Any, piero: Any
) -> None:
    league = services.create_league("RisiKo League", orsola)
    event = services.create_tournament(
        league,
        orsola,
        "RisiKo Swiss",
        kind="risiko",
        table_size=4,
        swiss_rounds=2,
        decision_time=timedelta(days=2),
        missed_limit=3,
        round_time=timedelta(days=14),
    )
    services.open_registration(event, orsola)
    services.register(event, piero)
    for _ in range(BOTS):
        services.add_bot(event, orsola, "greedy")
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())  # due now

    run_event(event, piero, celery)

    client = Client()
    response = client.get(reverse("tournaments:standings_json", args=[event.pk]))
    assert response.status_code == 200
    report = response.json()
    assert report["status"] == "finished" and report["settings"]["game"]["kind"] == "risiko"
    assert [(r["number"], r["stage"], r["status"]) for r in report["rounds"]] == [
        (1, "swiss", "finished"),
        (2, "swiss", "finished"),
    ]
    ranking = report["settings"]["house_rule"]["ranking"]
    assert ranking == [
        "progress towards their objective",
        "territories held",
        "armies on the board",
        ELIMINATION,
    ]
    by_size = report["settings"]["points_table"]["by_table_size"]
    (person,) = [p["id"] for p in report["players"] if p["username"] == "piero"]
    assert [p["bot"] for p in report["players"]].count(True) == BOTS

    points: dict[int, float] = {p["id"]: 0.0 for p in report["players"]}
    games: dict[int, int] = dict.fromkeys(points, 0)
    adjudicated: list[tuple[int, int]] = []
    for played in report["rounds"]:
        assert played["byes"] == []  # 8 players at tables of 4
        assert len(played["tables"]) == 2
        for table in played["tables"]:
            record = client.get(table["game"]["record"]).json()
            assert record["kind"] == "risiko"
            entry_of = {seat["seat"]: seat["player"] for seat in table["seats"]}
            assert sorted(entry_of) == [s["seat"] for s in record["seats"]] == [1, 2, 3, 4]
            by_name = {s["player"]: entry_of[s["seat"]] for s in record["seats"]}
            order, source = order_from_record(record, ranking)
            expected = [[by_name[p] for p in group] for group in order]
            assert [sorted(g) for g in table["result"]] == [sorted(g) for g in expected], (
                table["number"],
                source,
                order,
            )
            assert table["result_source"] == source
            # The person's table, and it alone, was cut short at the deadline.
            assert (source == "adjudicated") == (person in entry_of.values()), (
                played["number"],
                table["number"],
                source,
            )
            if source == "adjudicated":
                adjudicated.append((played["number"], table["number"]))
                (theirs,) = [name for name, entry in by_name.items() if entry == person]
                check_adjudicated(table, record, ranking, theirs)
            for entry, scored in points_of(expected, by_size[str(len(by_name))]).items():
                points[entry] += scored
                games[entry] += 1
    assert len(adjudicated) == 2 and [r for r, _ in adjudicated] == [1, 2], adjudicated

    lines = report["standings"]
    assert len(lines) == PLAYERS
    assert {line["player"]: line["points"] for line in lines} == {
        entry: round(total, 6) for entry, total in points.items()
    }
    assert {line["player"]: line["games"] for line in lines} == games == dict.fromkeys(points, 2)
    assert [line["rank"] for line in lines] == list(range(1, PLAYERS + 1))
    assert [line["points"] for line in lines] == sorted(
        (line["points"] for line in lines), reverse=True
    )


def check_adjudicated(
    table: dict[str, Any], record: dict[str, Any], ranking: list[str], theirs: str
) -> None:
    """The person's game (``theirs``: their player in it): waiting for their sealed
    placement, never decided for them, over, and its log says it ended at the round's
    deadline (R28), ranked by the published measures with the values its record gives."""
    last = last_position(record)
    assert last["phase"] != "over" and last["out"] == []
    assert theirs not in {move["player"] for move in record["moves"]}  # no default (K35)
    assert table["game"]["status"] == record["status"] == "over"
    (ended,) = GameEvent.objects.filter(game_id=table["game"]["id"], kind=GameEvent.Kind.ADJUDICATE)
    # RisiKo's rules name no turn limit: no rule id (World War 5's is R28).
    assert ended.text == "The game ended at its round's deadline under the turn-limit house rule."
    steps, values = measured(record, ranking)
    told = "; ".join(f"{p}: " + ", ".join(str(v) for v in values[p]) for p in values)
    assert ended.reason == f"ranked by {', '.join(steps)}, then elimination order ({told})"
