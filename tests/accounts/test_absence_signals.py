"""The absence services tell the apps above accounts through its signals, inside the
transaction that changes the absence: games moves deadlines on them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.dispatch import Signal
from django.utils import timezone

from accounts import services
from accounts.models import Absence, Profile
from accounts.signals import absence_declared, absence_withdrawn

pytestmark = pytest.mark.django_db


class Heard:
    """A receiver that notes what it was told, and what the database held then."""

    def __init__(self, refuse: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.refuse = refuse

    def __call__(self, sender: type, user: AbstractBaseUser, absence: Absence, **_: Any) -> None:
        stored = Absence.objects.filter(pk=absence.pk).exists() if absence.pk else False
        self.calls.append({"user": user, "absence": absence, "stored": stored})
        if self.refuse:
            raise RuntimeError("the receiver refuses")


def listening(signal: Signal, heard: Heard) -> Iterator[Heard]:
    signal.connect(heard, dispatch_uid="test-heard")
    yield heard
    signal.disconnect(dispatch_uid="test-heard")


@pytest.fixture
def declared() -> Iterator[Heard]:
    yield from listening(absence_declared, Heard())


@pytest.fixture
def withdrawn() -> Iterator[Heard]:
    yield from listening(absence_withdrawn, Heard())


@pytest.fixture
def refusing() -> Iterator[Heard]:
    yield from listening(absence_declared, Heard(refuse=True))


def soon(days: int) -> date:
    return timezone.now().date() + timedelta(days=days)  # the players here live in UTC


def test_a_declared_absence_is_told_once_stored(alice: AbstractBaseUser, declared: Heard) -> None:
    absence = services.declare_absence(alice, soon(3), soon(4))

    assert declared.calls == [{"user": alice, "absence": absence, "stored": True}]


def test_a_receiver_that_fails_leaves_no_absence_behind(
    alice: AbstractBaseUser, refusing: Heard
) -> None:
    with pytest.raises(RuntimeError, match="refuses"):
        services.declare_absence(alice, soon(3), soon(4))

    assert len(refusing.calls) == 1
    assert not Absence.objects.exists()
    assert Profile.objects.get(user=alice).away_until is None


def test_a_withdrawn_absence_is_told_with_the_times_it_had(
    alice: AbstractBaseUser, withdrawn: Heard
) -> None:
    absence = services.declare_absence(alice, soon(3), soon(4))

    services.cancel_absence(alice, absence.pk)

    [call] = withdrawn.calls
    assert call["user"] == alice and not call["stored"]
    told = call["absence"]
    assert (told.starts_at, told.ends_at) == (absence.starts_at, absence.ends_at)


def test_a_refused_absence_is_told_to_no_one(
    alice: AbstractBaseUser, declared: Heard, withdrawn: Heard
) -> None:
    with pytest.raises(services.AbsenceRefused, match="in the past"):
        services.declare_absence(alice, soon(-1), soon(2))
    absence = services.declare_absence(alice, soon(0), soon(1))  # begins now
    with pytest.raises(services.AbsenceRefused, match="has begun"):
        services.cancel_absence(alice, absence.pk)

    assert len(declared.calls) == 1 and withdrawn.calls == []
