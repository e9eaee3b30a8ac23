"""An organiser's correction of a table's result reaches the table's players as real
mail: queued in the correction's transaction, sent by a Celery worker to an SMTP server
(PostgreSQL, Redis, the worker and the server all real)."""

from __future__ import annotations

from typing import Any

import pytest

from games import services as games
from games.models import Game
from tests.integration.helpers import CeleryProcesses, SmtpSink
from tests.personas import persona
from tournaments import services
from tournaments.models import Table
from tournaments.services import rounds

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

anna = persona("anna")
alice = persona("alice")
bob = persona("bob")
REASON = "A lost mail: bob's placement was made again."


def test_the_tables_players_get_the_corrected_result_by_mail(
    celery: CeleryProcesses, sink: SmtpSink, anna: Any, alice: Any, bob: Any
) -> None:
    league = services.create_league("Mail League", anna)
    event = services.create_tournament(league, anna, "Mail Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    services.register(event, alice)
    services.register(event, bob)
    rounds.start(event.pk)
    game = Game.objects.get(tournament_table__round__tournament=event)
    names = {s.user_id: s.player_name for s in game.seats.all()}
    games.adjudicate(game.pk, [[names[alice.pk]], [names[bob.pk]]], "The turn limit.")
    table = Table.objects.get(round__tournament=event)

    services.correct_result(
        event, anna, table.pk, [[table.result[1][0]], [table.result[0][0]]], REASON
    )

    def corrected(mail: Any) -> bool:
        return mail.subject.endswith("Mail Cup, round 1, table 1: the result was corrected")

    to_alice = sink.wait_for(
        lambda m: corrected(m) and m.recipients == (alice.email,), "alice's mail", 60
    )
    to_bob = sink.wait_for(
        lambda m: corrected(m) and m.recipients == (bob.email,), "bob's mail", 60
    )
    assert "Your place: 2 (it was 1)" in to_alice.text and REASON in to_alice.text
    assert "Your place: 1 (it was 2)" in to_bob.text and REASON in to_bob.text
    assert "1. bob" in to_bob.text and "2. alice" in to_bob.text
