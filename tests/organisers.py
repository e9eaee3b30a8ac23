"""Two leagues and a stranger: the base test case of the organiser-scope tests.

Anna organises league A and Boris league B (each named the usual way, by
``make_organiser``, which lets them into the admin). Each league is private and has a
private event with a running game and a private ladder with a running game, both past
their setup (each with a few moves in its log), and a received mail about the event's
game. Stella, a stranger to both leagues, has a private lobby game waiting for players
(with its invite token) and a private game against a bot. Root, a superuser, has asked
for a password reset: its mail, with the link that would give the account, is in the
outbox. Alice and Bob play in A, Carol and Dave in B; Carol has declared an absence.
The "Site staff" group holds the site-wide organiser's permission.

"Charlie should have no access to Alice's stuff": Anna must get nothing of B's or
Stella's, and what is her own league's, so that each check could fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.core.cache import cache
from django.db.models import Model
from django.forms.models import model_to_dict
from django.test import Client, TestCase, override_settings
from django.utils import timezone

from accounts.models import Absence
from accounts.services import declare_absence
from games import services as games
from games.models import Game
from inbound.models import InboundMessage
from mail.models import OutgoingMail
from ratings.models import Ladder
from ratings.services import ladder as ladders
from ratings.services import matchmaking
from tests.personas import make_user
from tournaments import services
from tournaments.models import League, Tournament
from tournaments.services import rounds
from ww5 import engine
from ww5.engine.state import PLAY

# Words that name B's or the stranger's things: none may show on a page of Anna's.
FOREIGN_WORDS = ("League B", "Cup B", "Ladder B", "Stella", "stella", "carol", "dave", "boris")

# A form's CSRF token: 64 random letters and digits, in which any of the words above may
# turn up by chance ("dave" in about one token of 240,000; a page has one or two, and the
# scope tests read thousands of pages a run).
CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{64}(")')


def foreign_words(page: str) -> list[str]:
    """The words of league B and the stranger on ``page``, its random CSRF tokens aside."""
    page = CSRF_TOKEN.sub(r"\1\2", page)
    return [word for word in FOREIGN_WORDS if word in page]


@dataclass
class Side:
    """One league with its organiser, its two players, an event and a ladder, each
    with a game in play, and a received mail about the event's game."""

    league: League
    organiser: AbstractBaseUser
    players: tuple[AbstractBaseUser, AbstractBaseUser]
    event: Tournament
    event_game: Game
    ladder: Ladder
    ladder_game: Game
    inbound: InboundMessage

    @property
    def games(self) -> tuple[Game, Game]:
        return (self.event_game, self.ladder_game)


@dataclass
class World:
    a: Side
    b: Side
    stranger: AbstractBaseUser
    open_game: Game  # the stranger's private game, waiting for players
    bot_game: Game  # the stranger's private game against a bot, in play
    root: AbstractBaseUser
    reset_mail: OutgoingMail
    absence: Absence  # Carol's, of league B
    staff_group: Group

    @property
    def foreign_games(self) -> tuple[Game, ...]:
        return (*self.b.games, self.open_game, self.bot_game)


def through_setup(game: Game, by: AbstractBaseUser) -> Game:
    """The game played past its setup by an organiser moving for each player."""
    while True:
        game.refresh_from_db()
        state = games.state_of(game)
        if state.phase == PLAY:
            return game
        games.move_on_behalf(game.pk, by, engine.legal_actions(state)[0], game.turn_number)


def _side(
    letter: str, organiser: AbstractBaseUser, players: list[AbstractBaseUser], root: Any
) -> Side:
    league = services.create_league(f"League {letter}", organiser, is_public=False)  # type: ignore[arg-type]
    event = services.create_tournament(league, organiser, f"Cup {letter}", is_public=False)
    services.open_registration(event, organiser)
    for player in players:
        services.register(event, player)
    rounds.start(event.pk)
    event.refresh_from_db()
    event_game = Game.objects.get(tournament_table__round__tournament=event)
    ladder = ladders.create_ladder(
        league, organiser, f"Ladder {letter}", player_count="2", is_public=False
    )
    for player in players:
        ladders.join(ladder, player)
    (made,) = matchmaking.match(ladder.pk)
    inbound = InboundMessage.objects.create(
        message_id=f"<{letter}@example.com>", sender=players[0].email, game=event_game
    )
    return Side(
        league,
        organiser,
        (players[0], players[1]),
        event,
        through_setup(event_game, root),
        ladder,
        through_setup(made.game, root),
        inbound,
    )


def build_world() -> World:
    users = get_user_model()

    def user(name: str) -> AbstractBaseUser:
        return make_user(users, name)

    root = users.objects.create_superuser("root", "root@example.com", None)
    a = _side("A", user("anna"), [user("alice"), user("bob")], root)
    b = _side("B", user("boris"), [user("carol"), user("dave")], root)
    stella = user("stella")
    open_game = games.create_game(stella, name="Stella's secret", is_public=False)
    bot_game = games.play_against_bots(stella)
    Client().post("/accounts/password/reset/", {"email": root.email})
    reset_mail = OutgoingMail.objects.get(to_address=root.email)
    today = timezone.now().date()
    absence = declare_absence(b.players[0], today + timedelta(days=2), today + timedelta(days=4))
    staff_group = Group.objects.create(name="Site staff")
    staff_group.permissions.add(Permission.objects.get(codename="organise_any_game"))
    return World(a, b, stella, open_game, bot_game, root, reset_mail, absence, staff_group)


def snapshot(obj: Model) -> dict[str, Any] | None:
    """Every field of the row as stored now (None: it is gone)."""
    found = type(obj)._default_manager.filter(pk=obj.pk).first()
    return None if found is None else model_to_dict(found)


class TwoLeaguesTestCase(TestCase):
    """The world above, made once per class; ``self.anna``: league A's organiser,
    signed in; ``self.root``: the superuser, signed in."""

    world: World

    @classmethod
    def setUpTestData(cls) -> None:
        # Django's own mail (the password reset) goes through the outbox, as on the site;
        # allauth counts reset requests in the cache.
        cache.clear()
        with override_settings(
            EMAIL_BACKEND="mail.backends.OutboxBackend",
            MAIL_TRANSPORT="django.core.mail.backends.locmem.EmailBackend",
        ):
            cls.world = build_world()

    def setUp(self) -> None:
        self.w = self.world
        self.anna = Client()
        self.anna.force_login(self.w.a.organiser)
        self.root = Client()
        self.root.force_login(self.w.root)

    def assert_nothing_foreign(self, page: str) -> None:
        found = foreign_words(page)
        assert not found, f"{found} shows on a page of league A's organiser"
