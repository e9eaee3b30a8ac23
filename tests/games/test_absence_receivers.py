"""Games hear of the absences accounts records (through ``accounts.signals``): a
player's pending deadlines move with an absence declared or withdrawn on the profile
page, which calls accounts' services, not games'."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import AbstractBaseUser

from accounts import services as accounts
from games.models import Game
from tests.games.factories import Clock, LoadedDice, seated_game

pytestmark = pytest.mark.django_db

User = AbstractBaseUser
DAY = timedelta(days=1)
T0 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)  # the clock fixture's time


@pytest.fixture
def duel(clock: Clock, dice: LoadedDice, alice: User, bob: User) -> Game:
    """A fixed-time duel (2 days per decision): alice to decide since T0."""
    return seated_game(dice, [alice, bob], decision_time=2 * DAY)


def test_an_absence_declared_in_accounts_moves_the_players_deadline(
    duel: Game, alice: User
) -> None:
    accounts.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2), now=T0)

    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY + DAY


def test_an_absence_withdrawn_in_accounts_moves_the_deadline_back(duel: Game, alice: User) -> None:
    absence = accounts.declare_absence(alice, date(2030, 3, 2), date(2030, 3, 2), now=T0)

    accounts.cancel_absence(alice, absence.pk, now=T0)

    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY


def test_another_players_absence_leaves_the_deadline_alone(duel: Game, bob: User) -> None:
    accounts.declare_absence(bob, date(2030, 3, 2), date(2030, 3, 2), now=T0)

    duel.refresh_from_db()
    assert duel.deadline == T0 + 2 * DAY
