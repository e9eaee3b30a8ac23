"""Every change to leagues and tournaments goes through here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from tournaments.errors import TournamentError
from tournaments.models import League, Membership
from tournaments.selectors import organises


def create_league(
    name: str, organiser: AbstractBaseUser, *, joining: str = League.Joining.OPEN, **fields: str
) -> League:
    """A league, with its first organiser (who may then use the admin for it)."""
    name = name.strip()
    if not name:
        raise TournamentError("a league needs a name")
    slug = slugify(name)
    if not slug or League.objects.filter(slug=slug).exists():
        raise TournamentError(f"a league named “{name}” exists already")
    with transaction.atomic():
        league = League.objects.create(name=name, slug=slug, joining=joining, **fields)
        make_organiser(league, organiser)
    return league


def make_organiser(league: League, user: AbstractBaseUser) -> Membership:
    """The user organises the league: a member with the organiser's role, let into the
    admin (where they see only their own leagues' objects)."""
    with transaction.atomic():
        membership, _ = Membership.objects.update_or_create(
            league=league,
            user=user,
            defaults={"role": Membership.Role.ORGANISER, "status": Membership.Status.ACTIVE},
        )
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    return membership


def update_league(league: League) -> League:
    """Save an organiser's edit of the league's name, description and joining policy."""
    league.name = league.name.strip()
    if not league.name:
        raise TournamentError("a league needs a name")
    league.save(update_fields=["name", "description", "joining", "is_public"])
    return league


def name_organiser(league: League, by: AbstractBaseUser, user: AbstractBaseUser) -> Membership:
    """An organiser names another organiser of their league."""
    _check_organiser(league, by)
    return make_organiser(league, user)


def join_league(league: League, user: AbstractBaseUser) -> Membership:
    """The user joins: at once in an open league, else waiting for an organiser."""
    status = (
        Membership.Status.ACTIVE
        if league.joining == League.Joining.OPEN
        else Membership.Status.PENDING
    )
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is not None and membership.status != Membership.Status.LEFT:
            raise TournamentError(
                "you are already a member of this league"
                if membership.status == Membership.Status.ACTIVE
                else "your request to join is waiting for an organiser"
            )
        if membership is None:
            return Membership.objects.create(league=league, user=user, status=status)
        membership.status, membership.role = status, Membership.Role.MEMBER
        membership.save(update_fields=["status", "role"])
        return membership


def approve_member(league: League, by: AbstractBaseUser, user: AbstractBaseUser) -> Membership:
    _check_organiser(league, by)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is None or membership.status != Membership.Status.PENDING:
            raise TournamentError("there is no request to join from this player")
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
        return membership


def leave_league(league: League, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
        if membership is None or membership.status == Membership.Status.LEFT:
            raise TournamentError("you are not a member of this league")
        if (
            membership.is_organiser
            and not league.memberships.filter(
                role=Membership.Role.ORGANISER, status=Membership.Status.ACTIVE
            )
            .exclude(pk=membership.pk)
            .exists()
        ):
            raise TournamentError("you are this league's last organiser: name another first")
        membership.status, membership.role = Membership.Status.LEFT, Membership.Role.MEMBER
        membership.save(update_fields=["status", "role"])


def _check_organiser(league: League, by: AbstractBaseUser) -> None:
    if not organises(by, league):
        raise TournamentError("only an organiser of this league can do that")
