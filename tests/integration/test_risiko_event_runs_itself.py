"""A Swiss event of 8 RisiKo bots (tables of 4, 2 rounds) runs to its end through the jobs
alone: a real Celery worker and beat (PostgreSQL, Redis), nothing called by the test but
the event's start. The test only keeps the clock: round 1's deadline passes as soon as
its games begin, and round 2's once it has run ``PATIENCE`` seconds, the test moving
each into the past as time would; the beat's sweep then adjudicates the games still
running under the event's published ranking (R28). (Which games the bots finish first
is the worker's timing: a table's check below follows how its game ended.)

Then the event's ``standings.json`` agrees with the games' records: each table's
finishing order is made again from its game's record JSON alone (a won game: the
winner, then the players still in by territories then armies, then those out, the last
out first; a game cut short: the published ranking's measures of its last position,
then the elimination order), and each player's points from the event's points table.

The worker and the beat run RisiKo because their environment names it
(``GAME_KINDS=risiko``); this process registers it for the test's time.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from risiko.kind import RisiKo
from tests.integration.helpers import CeleryProcesses
from tests.kinds.registered import registered
from tests.personas import persona
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

orsola = persona("orsola")
BOTS = 8
PATIENCE = {1: 0, 2: 30}  # seconds a round runs before the test lets its deadline pass
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


def order_from_record(record: dict[str, Any], ranking: list[str]) -> tuple[list[list[str]], str]:
    """The game's finishing order (its player names, best first, ties grouped) from its
    record alone, and whether the game ended by itself (``game``) or was cut short
    (``adjudicated``)."""
    assert record["status"] == "over", record["status"]
    last = record["moves"][-1]["position"] if record["moves"] else record["initial_position"]
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
    kind = RisiKo()
    by_words = {words: key for key, words in kind.adjudication_measures().items()}
    assert ranking[-1] == ELIMINATION
    steps = [by_words[words] for words in ranking[:-1]]
    values = kind.measure(last, steps)
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


def test_a_swiss_of_8_risiko_bots_runs_itself_and_its_standings_agree_with_the_records(
    celery: CeleryProcesses, orsola: Any
) -> None:
    league = services.create_league("RisiKo League", orsola)
    event = services.create_tournament(
        league, orsola, "RisiKo Swiss", kind="risiko", table_size=4, swiss_rounds=2
    )
    services.open_registration(event, orsola)
    for _ in range(BOTS):
        services.add_bot(event, orsola, "random")
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())  # due now

    deadline = time.monotonic() + 240
    while Tournament.objects.get(pk=event.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, f"the event did not finish:\n{celery.logs()}"
        running = Round.objects.filter(tournament=event, status=Round.Status.RUNNING).first()
        if running is not None and running.started_at is not None:
            waited = (timezone.now() - running.started_at).total_seconds()
            if waited >= PATIENCE[running.number] and running.deadline > timezone.now():
                Round.objects.filter(pk=running.pk).update(deadline=timezone.now())
        time.sleep(0.5)

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
    by_size = report["settings"]["points_table"]["by_table_size"]

    points: dict[int, float] = {p["id"]: 0.0 for p in report["players"]}
    games: dict[int, int] = dict.fromkeys(points, 0)
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
            for entry, scored in points_of(expected, by_size[str(len(by_name))]).items():
                points[entry] += scored
                games[entry] += 1

    lines = report["standings"]
    assert len(lines) == BOTS
    assert {line["player"]: line["points"] for line in lines} == {
        entry: round(total, 6) for entry, total in points.items()
    }
    assert {line["player"]: line["games"] for line in lines} == games == dict.fromkeys(points, 2)
    assert [line["rank"] for line in lines] == list(range(1, BOTS + 1))
    assert [line["points"] for line in lines] == sorted(
        (line["points"] for line in lines), reverse=True
    )
