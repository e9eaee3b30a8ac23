"""An event's draws are verifiable: the site draws the event's seed when the event is
made and publishes a commitment to it at once (on the page, in ``standings.json`` and
in the admin); the seed itself shows nowhere (page, JSON, CSV, admin) until round 1 is
paired, and then everywhere, matching the commitment. No organiser sets or changes it,
through the admin or the services; another league's organiser and a stranger see no
more than the public page."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import subprocess
import sys
from hashlib import blake2b
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import bot_event
from tests.tournaments.test_admin import settings_form, signed_in
from tournaments import eventsettings, services
from tournaments.core.standings import draw_number
from tournaments.errors import TournamentError
from tournaments.models import League, Round, Tournament
from tournaments.selectors import export
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

REVEALED = "seed revealed, it matches the commitment given when the event was made"


def committed(event_id: int, seed: int) -> str:
    """The commitment as a player computes it (the README's formula)."""
    return hashlib.sha256(f"ww5-event-seed/1|{event_id}|{seed}".encode()).hexdigest()


def page(client: Client, event: Tournament) -> str:
    response = client.get(reverse("tournaments:tournament", args=[event.league.slug, event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def standings_json(client: Client, event: Tournament) -> Any:
    response = client.get(reverse("tournaments:standings_json", args=[event.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


def csv_rows(client: Client, event: Tournament) -> list[list[str]]:
    response = client.get(reverse("admin:tournaments_tournament_standings", args=[event.pk]))
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


def admin_page(client: Client, event: Tournament) -> str:
    response = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def paired(event: Tournament) -> Tournament:
    """Round 1 paired, waiting for an organiser to start it (the event reviews pairings):
    the moment the event's draw is first used."""
    rounds.start(event.pk)
    event.refresh_from_db()
    assert event.rounds.get().status == Round.Status.PAIRED
    return event


def test_the_commitment_is_published_when_the_event_is_made_and_recomputes_from_the_seed(
    league_a: League, anna: Any
) -> None:
    event = services.create_tournament(league_a, anna, "Spring Cup")
    organiser = signed_in(anna)

    assert event.seed_commitment == committed(event.pk, event.seed)
    # While it is being prepared (its organiser alone sees it), then once it registers.
    assert event.seed_commitment in page(organiser, event)
    assert standings_json(organiser, event)["settings"]["seed_commitment"] == event.seed_commitment
    assert event.seed_commitment in admin_page(organiser, event)
    services.open_registration(event, anna)
    assert event.seed_commitment in page(Client(), event)
    data = standings_json(Client(), event)
    assert data["settings"]["seed_commitment"] == event.seed_commitment
    assert data["settings"]["seed"] is None


def test_each_event_has_its_own_seed_and_commitment(league_a: League, anna: Any) -> None:
    first = services.create_tournament(league_a, anna, "First Cup")
    second = services.create_tournament(league_a, anna, "Second Cup")

    assert first.seed != second.seed and 0 <= first.seed < 2**62 and 0 <= second.seed < 2**62
    assert first.seed_commitment != second.seed_commitment


def test_the_seed_shows_nowhere_before_round_1_is_paired_and_everywhere_after(
    league_a: League, anna: Any, alice: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1, review_pairings=True)
    services.register(event, alice)
    seed = str(event.seed)
    organiser, player = signed_in(anna), signed_in(alice)

    for client in (Client(), player, organiser):
        shown = page(client, event)
        assert seed not in shown and "The seed is revealed when round 1 is paired." in shown
        assert REVEALED not in shown
        assert standings_json(client, event)["settings"]["seed"] is None
        assert seed not in json.dumps(standings_json(client, event))
    # The CSV has its header alone: the standings' order and draw would come of the seed.
    assert csv_rows(organiser, event) == [list(export.COLUMNS)]
    assert seed not in admin_page(organiser, event)
    listing = organiser.get(reverse("admin:tournaments_tournament_changelist"))
    assert seed not in listing.content.decode()

    event = paired(event)

    for client in (Client(), player, organiser):
        shown = page(client, event)
        assert f'<code class="event-seed">{seed}</code>: {REVEALED}' in shown
        settings = standings_json(client, event)["settings"]
        assert settings["seed"] == event.seed
        assert settings["seed_commitment"] == committed(event.pk, settings["seed"])
    rows = csv_rows(organiser, event)
    draws = {int(row[1]): int(row[rows[0].index("draw")]) for row in rows[1:]}
    assert len(draws) == 5
    assert draws == {entry: draw_number(event.seed, entry) for entry in draws}
    assert f"seed <code>{seed}</code>" in admin_page(organiser, event)


def test_an_event_made_before_commitments_shows_its_seed_after_round_1_without_a_claim(
    league_a: League, anna: Any
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1, review_pairings=True)
    Tournament.objects.filter(pk=event.pk).update(seed_commitment="")  # as the migration
    event.refresh_from_db()

    assert standings_json(Client(), event)["settings"]["seed_commitment"] is None
    assert str(event.seed) not in page(Client(), event)
    event = paired(event)

    shown = page(Client(), event)
    assert str(event.seed) in shown and REVEALED not in shown
    assert "made before the site gave commitments" in shown


def test_an_organiser_cannot_set_the_seed_when_making_an_event(league_a: League, anna: Any) -> None:
    with pytest.raises(TournamentError, match="unknown settings: seed"):
        services.create_tournament(league_a, anna, "Chosen Cup", seed=42)
    with pytest.raises(TournamentError, match="unknown settings: seed"):
        services.new_tournament(league_a, anna, "Chosen Cup", seed=42)
    assert not Tournament.objects.exists()
    client = signed_in(anna)
    url = reverse("admin:tournaments_tournament_add")
    form = client.get(url).context["adminform"].form
    assert "seed" not in form.fields and "seed_commitment" not in form.fields

    client.post(url, settings_form(league_a, seed="42", seed_commitment="0" * 64))

    event = Tournament.objects.get()
    assert event.seed != 42
    assert event.seed_commitment == committed(event.pk, event.seed)


@pytest.mark.parametrize("editor", ["anna", "sam"])
def test_no_one_changes_an_events_seed_through_the_admin_or_the_services(
    league_a: League, anna: Any, sam: Any, editor: str
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1)
    before = (event.seed, event.seed_commitment)
    user = {"anna": anna, "sam": sam}[editor]

    with pytest.raises(TournamentError, match="unknown settings: seed"):
        services.update_tournament(event, user, seed=42)
    with pytest.raises(TournamentError, match="unknown settings: seed_commitment"):
        services.update_tournament(event, user, seed_commitment="0" * 64)
    with pytest.raises(TournamentError, match="unknown settings: seed"):
        eventsettings.apply_changes(event, {"seed": 42})
    client = signed_in(user)
    url = reverse("admin:tournaments_tournament_change", args=[event.pk])
    form = client.get(url).context["adminform"].form
    assert "seed" not in form.fields and "seed_commitment" not in form.fields
    client.post(url, settings_form(league_a, name="Renamed", seed="42", seed_commitment="0" * 64))

    event.refresh_from_db()
    assert event.name == "Renamed"  # the edit was taken, the seed left alone
    assert (event.seed, event.seed_commitment) == before


def test_another_leagues_organiser_and_a_stranger_see_only_the_public_commitment(
    league_a: League, anna: Any, boris: Any, alice: Any, league_b: League
) -> None:
    event = bot_event(league_a, anna, 4, swiss_rounds=1, review_pairings=True)
    hidden = bot_event(league_a, anna, 4, name="Private Cup", is_public=False)
    seed = str(event.seed)

    for client in (signed_in(boris), signed_in(alice), Client()):
        shown = page(client, event)
        assert event.seed_commitment in shown and seed not in shown
        assert standings_json(client, event)["settings"]["seed"] is None
        change = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
        assert change.status_code == 302 and seed not in change.content.decode()
        download = client.get(reverse("admin:tournaments_tournament_standings", args=[event.pk]))
        assert download.status_code in (302, 404) and seed not in download.content.decode()
        private = client.get(reverse("tournaments:standings_json", args=[hidden.pk]))
        assert private.status_code == 404 and hidden.seed_commitment not in private.content.decode()


def readme_event_checker() -> str:
    """The Python of the README's subsection "An event's draws"."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n### An event's draws\n", 1)[1]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0]


def test_the_readmes_formulas_check_an_events_standings_json(
    league_a: League, anna: Any, tmp_path: Path
) -> None:
    """The README's checker accepts the event's JSON once round 1 is paired and refuses
    another seed; its round seed and draw formulas give the JSON's numbers."""
    event = paired(bot_event(league_a, anna, 5, swiss_rounds=1, review_pairings=True))
    rounds.repair_round(event, anna, 1)  # paired again: the second try, attempt 1
    data = standings_json(Client(), event)
    script = tmp_path / "check.py"
    script.write_text(readme_event_checker(), encoding="utf-8")
    altered = {**data, "settings": {**data["settings"], "seed": data["settings"]["seed"] + 1}}
    for name, document in (("good.json", data), ("bad.json", altered)):
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")

    def check(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-I", str(script), name],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )

    good, bad = check("good.json"), check("bad.json")
    assert good.returncode == 0, good.stderr
    assert "matches the commitment" in good.stdout
    assert bad.returncode != 0 and "AssertionError" in bad.stderr
    seed, made = data["settings"]["seed"], data["rounds"][0]
    assert made["costs"]["attempt"] == 1
    assert made["seed"] == random.Random(f"{seed}:1:1").getrandbits(62)
    assert len(data["standings"]) == 5
    for line in data["standings"]:
        digest = blake2b(f"{seed}:{line['player']}".encode(), digest_size=8).digest()
        assert line["draw"] == int.from_bytes(digest, "big")
