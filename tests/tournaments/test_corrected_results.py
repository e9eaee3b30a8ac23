"""An organiser's correction of a finished table's result is announced: the table's
players are mailed their old and new places with the reason, and every page, record
and list that shows the game's result shows the corrected one, with a note saying an
organiser corrected it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags

from games import services as games
from games.models import Game, GameEvent
from mail.models import OutgoingMail
from tournaments import services
from tournaments.models import Entry, League, Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

REASON = "Bob's last placement was lost by his mail server; the organisers replayed it."


@pytest.fixture
def table(league_a: League, anna: Any, alice: Any, bob: Any, carol: Any) -> Table:
    """A finished table of three players and a bot, ended under the turn limit (R28) in
    seat order: seat 1 won."""
    event = services.create_tournament(league_a, anna, "Spring Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for player in (alice, bob, carol):
        services.register(event, player)
    services.add_bot(event, anna)
    rounds.start(event.pk)
    game = Game.objects.get(tournament_table__round__tournament=event)
    order = [[seat.player_name] for seat in game.seats.order_by("number")]
    games.adjudicate(game.pk, order, "The turn limit: the territories held.")
    found = Table.objects.select_related("game", "round__tournament").get(round__tournament=event)
    assert found.finished_at is not None and found.game.status == Game.Status.OVER
    return found


def reversed_result(table: Table, anna: Any, reason: str = REASON) -> list[Entry]:
    """The organiser turns the table's order upside down; returns the new order."""
    order = [entry for group in table.result for entry in group][::-1]
    services.correct_result(
        table.round.tournament, anna, table.pk, [[entry] for entry in order], reason
    )
    return [Entry.objects.get(pk=entry) for entry in order]


def winner_name(table: Table) -> str:
    game = Game.objects.select_related("winner").get(pk=table.game_id)
    assert game.winner is not None
    return game.winner.display_name


def test_the_tables_players_are_mailed_their_old_and_new_places_and_the_reason(
    table: Table, anna: Any, alice: Any, bob: Any, carol: Any
) -> None:
    before = [entry for group in table.result for entry in group]
    order = reversed_result(table, anna)

    mails = OutgoingMail.objects.filter(kind="tournament_corrected")
    assert sorted(m.to_user_id for m in mails) == sorted([alice.pk, bob.pk, carol.pk])
    for mail in mails:
        entry = next(e for e in order if e.user_id == mail.to_user_id)
        old, new = before.index(entry.pk) + 1, order.index(entry) + 1
        assert "Spring Cup, round 1, table 1" in mail.subject
        assert "corrected" in mail.subject
        # The HTML part links each name to the player's page: its text reads the same.
        for body in (mail.body_text, strip_tags(mail.body_html).replace("&#x27;", "'")):
            assert f"Your place: {new} (it was {old})" in body
            assert REASON in body
            for place, player in enumerate(order, start=1):
                assert f"{place}. {player.name}" in body


def test_a_correction_without_a_reason_says_none_was_given(table: Table, anna: Any) -> None:
    reversed_result(table, anna, reason="")

    mail = OutgoingMail.objects.filter(kind="tournament_corrected").first()
    assert mail is not None and "The organiser gave no reason." in mail.body_text


def named_winner(page: str, name: str) -> bool:
    """The page names ``name`` as the winner (their name linking to their page)."""
    link = rf'<a class="player" href="/players/[^"]+/">{re.escape(name)}</a>'
    return re.search(rf"<strong>(?:{link}|{re.escape(name)}) \(", page) is not None


def test_the_game_page_names_the_corrected_winner_with_the_organisers_note(
    table: Table, anna: Any, client: Client
) -> None:
    old_winner = winner_name(table)
    order = reversed_result(table, anna)

    page = client.get(reverse("games:detail", args=[table.game_id])).content.decode()

    new_winner = order[0].name
    assert new_winner != old_winner and winner_name(table) == new_winner
    assert named_winner(page, new_winner) and not named_winner(page, old_winner)
    assert "The result was corrected by an organiser" in page
    assert REASON.replace("'", "&#x27;") in page


def test_the_record_and_the_replay_show_the_corrected_result(
    table: Table, anna: Any, client: Client
) -> None:
    order = reversed_result(table, anna)

    record = client.get(reverse("games:record", args=[table.game_id])).json()
    replay = client.get(reverse("games:replay", args=[table.game_id])).content.decode()

    ranks = {seat["name"]: seat["rank"] for seat in record["seats"]}
    assert ranks == {entry.name: place for place, entry in enumerate(order, start=1)}
    winner = next(s for s in record["seats"] if s["rank"] == 1)
    assert record["winner"] == winner["player"]
    assert record["corrected"]["reason"] == REASON
    assert record["corrected"]["before"] != record["corrected"]["after"]
    assert re.search(rf"{re.escape(order[0].name)}(</a>)? \(\w+\) won\.", replay)  # a bot: plain
    assert "The result was corrected by an organiser" in replay


def test_the_finished_list_and_the_players_page_show_the_corrected_result(
    table: Table, anna: Any, alice: Any, client: Client
) -> None:
    order = reversed_result(table, anna)
    client.force_login(alice)
    place = next(n for n, e in enumerate(order, start=1) if e.user_id == alice.pk)

    finished = client.get(reverse("games:finished") + "?mine=1").content.decode()
    public = client.get(reverse("games:finished")).content.decode()
    player = client.get(reverse("ratings:player", args=["alice"])).content.decode()

    for listing in (finished, public):
        assert f"{order[0].name} won" in strip_tags(listing)  # the name links to their page
        assert "corrected by an organiser" in listing
    assert f"place {place} of 4" in player and "corrected by an organiser" in player


def test_the_game_log_keeps_the_correction_and_a_second_correction_is_mailed_again(
    table: Table, anna: Any
) -> None:
    reversed_result(table, anna)
    table.refresh_from_db()
    reversed_result(table, anna, reason="Back as it was: the dispute was withdrawn.")

    kept = GameEvent.objects.filter(game=table.game, kind=GameEvent.Kind.CORRECT)
    assert kept.count() == 2
    assert OutgoingMail.objects.filter(kind="tournament_corrected").count() == 6


def test_the_admins_correction_page_takes_the_reason_and_refuses_a_place_out_of_range(
    table: Table, anna: Any
) -> None:
    client = Client()
    client.force_login(anna)
    url = reverse("admin:tournaments_table_correct", args=[table.pk])
    order = [entry for group in table.result for entry in group]
    places = {f"place_{entry}": str(n) for n, entry in enumerate(reversed(order), start=1)}

    refused = client.post(url, {**places, f"place_{order[0]}": "9", "reason": REASON})
    assert refused.status_code == 200 and "errorlist" in refused.content.decode()
    assert Table.objects.get(pk=table.pk).result == table.result
    assert not OutgoingMail.objects.filter(kind="tournament_corrected").exists()
    assert not GameEvent.objects.filter(kind=GameEvent.Kind.CORRECT).exists()

    done = client.post(url, {**places, "reason": REASON})
    assert done.status_code == 302
    assert Table.objects.get(pk=table.pk).result == [[entry] for entry in reversed(order)]
    mails = OutgoingMail.objects.filter(kind="tournament_corrected")
    assert mails.count() == 3 and all(REASON in m.body_text for m in mails)


def test_an_abandoned_tables_result_set_by_an_organiser_shows_and_is_mailed(
    league_a: League, anna: Any, alice: Any, bob: Any, client: Client
) -> None:
    event = services.create_tournament(league_a, anna, "Autumn Cup", swiss_rounds=1)
    services.open_registration(event, anna)
    for player in (alice, bob):
        services.register(event, player)
    rounds.start(event.pk)
    game = Game.objects.get(tournament_table__round__tournament=event)
    games.abandon_game(game.pk, anna, "The server lost a day of mail.")
    table = Table.objects.get(round__tournament=event)
    assert table.result == [] and table.finished_at is not None
    entries = {seat.entry.user_id: seat.entry_id for seat in table.seats.select_related("entry")}

    services.correct_result(event, anna, table.pk, [[entries[bob.pk]], [entries[alice.pk]]], "")

    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "This game was abandoned." in page and named_winner(page, "bob") and " won." in page
    assert "The result was corrected by an organiser" in page
    to_alice = OutgoingMail.objects.get(kind="tournament_corrected", to_user=alice)
    assert "Your place: 2 (it was none: the game had no result)" in to_alice.body_text
