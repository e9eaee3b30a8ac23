"""An organiser of league A gets nothing of league B's or of a stranger's, on every page,
JSON endpoint, admin page and action, and from every service that acts for an
organiser; and gets their own league's, so that each check could fail.

The scope table names every URL of the site: a check run for it, or why it needs none
(no object of anyone else's, or a credential in the URL). The admin's pages of each
registered model are checked by one rule over the model's objects (B's and the
stranger's against A's). A URL or a model added without an entry fails
``test_every_url_is_in_the_scope_table``; a service taking an organiser (``by``) without
one fails ``test_every_organiser_service_is_in_the_table``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Absence, Profile
from accounts.services import declare_absence
from games import services as games
from games.models import Game, Move
from inbound.models import InboundMessage
from mail.models import OutgoingMail
from ratings.errors import RatingError
from ratings.models import JournalEntry, Ladder, LadderPlayer
from ratings.services import ladder as ladders
from tests.organisers import Side, TwoLeaguesTestCase, World, foreign_words, snapshot
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, EventJob, League, Membership, Round, Table, Tournament
from tournaments.services import eventjobs, rounds
from ww5 import engine

User = get_user_model()
Check = Callable[["ScopeCase", str], None]

# URL name (or route, for an unnamed one) -> its check, or why it needs none.
SCOPE: dict[str, Check | str] = {}


def covers(*names: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        for name in names:
            SCOPE[name] = check
        return check

    return register


def needs_no_check(why: str, *names: str) -> None:
    for name in names:
        SCOPE[name] = why


class ScopeCase(TwoLeaguesTestCase):
    """The checks of the scope table, one test per URL (added below)."""

    def refused(self, response: HttpResponse, what: Any) -> None:
        """Not there for Anna: a 403 or 404, or the admin's "no such object" redirect to
        its index; and nothing of B's or the stranger's shown."""
        status = response.status_code
        redirected = status == 302 and response["Location"] == reverse("admin:index")
        assert status in (403, 404) or redirected, f"{what}: answered {status}"
        self.assert_nothing_foreign(response.content.decode())

    def refused_after_redirects(self, response: HttpResponse, what: Any) -> None:
        """As ``refused``, for a response followed through its redirects."""
        chain = getattr(response, "redirect_chain", [])
        landed = chain[-1][0] if chain else ""
        status = response.status_code
        assert status in (403, 404) or landed == reverse("admin:index"), f"{what}: {status}"
        self.assert_nothing_foreign(response.content.decode())

    def own_games(self) -> tuple[Game, ...]:
        return self.w.a.games


def seats_of(game: Game) -> list[dict[str, Any]]:
    return list(game.seats.order_by("number").values())


# --- accounts ------------------------------------------------------------------------

needs_no_check("a fixed page", "home")
needs_no_check("the site's icon, the same for everyone", "favicon.ico")
needs_no_check(
    "allauth: the signed-in user's own account, or a mailed key that is the credential",
    "account_login",
    "account_logout",
    "account_inactive",
    "account_signup",
    "account_reauthenticate",
    "account_email",
    "account_email_verification_sent",
    "account_change_password",
    "account_set_password",
    "account_reset_password",
    "account_confirm_login_code",
    "account_confirm_email",
    "account_reset_password_from_key_done",
    "account_reset_password_from_key",
    "account_reset_password_done",
)
needs_no_check(
    "the signed-in player's own profile, time zone and absences",
    "accounts:profile",
    "accounts:mail_works",
    "accounts:browser_time_zone",
    "accounts:declare_absence",
)


@covers("accounts:withdraw_absence")
def withdraw_absence(t: ScopeCase, name: str) -> None:
    carols = t.w.absence
    before = snapshot(carols)
    t.anna.post(reverse(name, args=[carols.pk]))
    assert snapshot(carols) == before
    today = t.w.absence.starts_at.date()
    own = declare_absence(t.w.a.organiser, today + timedelta(days=10), today + timedelta(days=11))
    t.anna.post(reverse(name, args=[own.pk]))
    assert snapshot(own) is None


# --- games ---------------------------------------------------------------------------

needs_no_check(
    "the signed-in player's own new game and next decision (the lobby limits, which "
    "staff no longer escape, are checked by test_staff_alone_escape_no_lobby_limit)",
    "games:create",
    "games:bots",
    "games:next",
)
needs_no_check(
    "the token is the credential: it opens the one game it was made for to whoever "
    "holds it (no page of a foreign game shows it to an organiser: games:detail)",
    "games:invite",
)
needs_no_check("the signed one-click link is one seat's credential", "games:decide")


@covers("games:lobby", "games:finished")
def game_lists(t: ScopeCase, name: str) -> None:
    for game in t.w.foreign_games:  # finished, so that the list of finished games has them
        if game.is_active:
            games.abandon_game(game.pk, t.w.root)
    page = t.anna.get(reverse(name)).content.decode()
    t.assert_nothing_foreign(page)
    public = games.create_game(t.w.a.players[0], name="Open to all")
    if name == "games:finished":
        Game.objects.filter(pk=public.pk).update(
            status=Game.Status.OVER, finished_at=public.created_at
        )
    assert "Open to all" in t.anna.get(reverse(name)).content.decode()


@covers("games:detail", "games:replay", "games:record", "games:live")
def game_pages(t: ScopeCase, name: str) -> None:
    for game in t.w.foreign_games:
        response = t.anna.get(reverse(name, args=[game.pk]))
        t.refused(response, game)
        assert game.invite_token not in response.content.decode()
    for game in t.own_games():
        response = t.anna.get(reverse(name, args=[game.pk]))
        assert response.status_code == 200, game
    if name == "games:detail":  # an organiser's page of a private game gives its invite
        page = t.anna.get(reverse(name, args=[t.w.a.event_game.pk])).content.decode()
        assert t.w.a.event_game.invite_token in page


GAME_POSTS = {
    "games:move": {"text": "grow usa", "turn_number": "1"},
    "games:join": {},
    "games:leave": {},
    "games:resign": {},
    "games:mute": {"muted": "on"},
    "games:dice_words": {"words": "the owl flies"},
    "games:start": {},
    "games:cancel": {"sure": "on"},
    "games:add_bot": {"bot": "greedy"},
    "games:assign_home": {"seat": "1", "home": "europe"},
}


@covers(*GAME_POSTS)
def game_posts(t: ScopeCase, name: str) -> None:
    for game in t.w.foreign_games:
        before = (snapshot(game), seats_of(game))
        t.refused(t.anna.post(reverse(name, args=[game.pk]), GAME_POSTS[name]), game)
        assert (snapshot(game), seats_of(game)) == before, game
    for game in t.own_games():  # there for her: answered, whatever the answer
        assert t.anna.post(reverse(name, args=[game.pk]), GAME_POSTS[name]).status_code != 404


# --- tournaments ---------------------------------------------------------------------


@covers("tournaments:index")
def tournament_index(t: ScopeCase, name: str) -> None:
    page = t.anna.get(reverse(name)).content.decode()
    t.assert_nothing_foreign(page)
    assert "Cup A" in page and "League A" in page


def event_args(name: str, side: Side) -> list[Any]:
    if name in ("tournaments:by_id", "tournaments:standings_json"):
        return [side.event.pk]
    return [side.league.slug, side.event.slug]


@covers("tournaments:by_id", "tournaments:standings_json", "tournaments:tournament")
def event_pages(t: ScopeCase, name: str) -> None:
    t.refused(t.anna.get(reverse(name, args=event_args(name, t.w.b))), t.w.b.event)
    own = t.anna.get(reverse(name, args=event_args(name, t.w.a)), follow=True)
    assert own.status_code == 200 and "Cup A" in own.content.decode()


@covers("tournaments:register", "tournaments:withdraw", "tournaments:check_in")
def event_posts(t: ScopeCase, name: str) -> None:
    rows = [t.w.b.event, *t.w.b.event.entries.all()]
    before = [snapshot(row) for row in rows]
    t.refused(t.anna.post(reverse(name, args=event_args(name, t.w.b))), t.w.b.event)
    assert [snapshot(row) for row in rows] == before
    assert Entry.objects.filter(tournament=t.w.b.event).count() == len(rows) - 1
    assert t.anna.post(reverse(name, args=event_args(name, t.w.a))).status_code == 302


@covers("tournaments:league")
def league_page(t: ScopeCase, name: str) -> None:
    t.refused(t.anna.get(reverse(name, args=[t.w.b.league.slug])), t.w.b.league)
    own = t.anna.get(reverse(name, args=[t.w.a.league.slug]))
    assert own.status_code == 200 and "Cup A" in own.content.decode()


@covers("tournaments:join", "tournaments:leave")
def league_posts(t: ScopeCase, name: str) -> None:
    memberships = list(t.w.b.league.memberships.all())
    before = [snapshot(m) for m in memberships]
    t.refused(t.anna.post(reverse(name, args=[t.w.b.league.slug])), t.w.b.league)
    assert [snapshot(m) for m in memberships] == before
    assert Membership.objects.filter(league=t.w.b.league).count() == len(memberships)
    assert t.anna.post(reverse(name, args=[t.w.a.league.slug])).status_code == 302


# --- mail ----------------------------------------------------------------------------


def outbox_args(name: str, w: World) -> list[int]:
    if name == "mail:outbox":
        return []
    if name == "mail:outbox_picture":
        return [OutgoingMail.objects.exclude(inline_kind="").filter(to_user=w.b.players[0])[0].pk]
    return [w.reset_mail.pk]


@covers("mail:outbox", "mail:outbox_detail", "mail:outbox_picture")
def outbox_pages(t: ScopeCase, name: str) -> None:
    url = reverse(name, args=outbox_args(name, t.w))
    for client in (t.anna, t.root):  # staff, a superuser even, read no one's mail here
        response = client.get(url)
        assert response.status_code == 404
        assert "password/reset/key" not in response.content.decode()
    with override_settings(MAIL_OUTBOX_PAGES=True):  # the development outbox
        assert t.anna.get(url).status_code == 200


needs_no_check(
    "the signed token is the credential; all it can do is turn its player's mail down",
    "mail:unsubscribe",
)


# --- ratings -------------------------------------------------------------------------


@covers("ratings:index")
def ladder_index(t: ScopeCase, name: str) -> None:
    page = t.anna.get(reverse(name)).content.decode()
    t.assert_nothing_foreign(page)
    assert "Ladder A" in page


def finish(game: Game) -> None:
    """The game ended, in seat order: its players are rated."""
    names = [seat.player_name for seat in game.seats.order_by("number")]
    games.adjudicate(game.pk, [[name] for name in names], "a test's end")


@covers("ratings:player", "ratings:player_json")
def player_pages(t: ScopeCase, name: str) -> None:
    carol, alice = t.w.b.players[0], t.w.a.players[0]
    finish(t.w.a.ladder_game)
    finish(t.w.b.ladder_game)  # carol is rated on B's ladder
    foreign = t.anna.get(reverse(name, args=[carol.get_username()]))
    assert "Ladder B" not in foreign.content.decode()
    if name == "ratings:player_json":
        assert foreign.json()["ladders"] == []
    own = t.anna.get(reverse(name, args=[alice.get_username()]))
    if name == "ratings:player_json":
        assert [line["ladder"] for line in own.json()["ladders"]] == [t.w.a.ladder.pk]
    else:
        assert "Ladder A" in own.content.decode()


@covers("ratings:leaderboard")
def game_leaderboard(t: ScopeCase, name: str) -> None:
    """A game's leaderboard lists every player rated in its global pool, as their public
    pages show their ratings: an organiser sees it as anyone does, and nothing of
    another league's events, ladders or games on it."""
    finish(t.w.a.ladder_game)
    finish(t.w.b.ladder_game)

    def board(page: str) -> str:
        return page.split('<table class="leaderboard">', 1)[1].split("</table>", 1)[0]

    for address in (reverse(name), reverse(name) + "?game=ww5"):
        page = t.anna.get(address).content.decode()
        assert board(page) == board(Client().get(address).content.decode())
        for word in ("League B", "Cup B", "Ladder B", "Stella", "stella", "secret"):
            assert word not in page, word
        assert t.w.a.players[0].get_username() in board(page)
    t.refused(t.anna.get(reverse(name) + "?game=nothing"), "an unknown game")


@covers("ratings:ladder", "ratings:leaderboard_json", "ratings:seats")
def ladder_pages(t: ScopeCase, name: str) -> None:
    t.refused(t.anna.get(reverse(name, args=[t.w.b.ladder.pk])), t.w.b.ladder)
    assert t.anna.get(reverse(name, args=[t.w.a.ladder.pk])).status_code == 200


@covers("ratings:join", "ratings:pause", "ratings:resume", "ratings:leave")
def ladder_posts(t: ScopeCase, name: str) -> None:
    players = list(t.w.b.ladder.players.all())
    before = [snapshot(p) for p in players]
    form = {"max_games": "1"}  # as the join form sends it; the others read nothing
    t.refused(t.anna.post(reverse(name, args=[t.w.b.ladder.pk]), form), t.w.b.ladder)
    assert [snapshot(p) for p in players] == before
    assert LadderPlayer.objects.filter(ladder=t.w.b.ladder).count() == len(players)
    assert t.anna.post(reverse(name, args=[t.w.a.ladder.pk]), form).status_code == 302


# --- webhooks ------------------------------------------------------------------------

# Namespaces whose every URL needs no check, and why.
NO_CHECK_NAMESPACES = {
    "anymail": "a mail provider's webhooks, checked by its shared secret, for no user's rights"
}


# --- the admin's own pages -----------------------------------------------------------

needs_no_check(
    "the admin's sign-in and the signed-in user's own session and password",
    "admin:login",
    "admin:logout",
    "admin:password_change",
    "admin:password_change_done",
    "admin:jsi18n",
)
needs_no_check("the admin's catch-all: a sign-in redirect or a 404", "admin/(?P<url>.*)$")

# Models Anna must not see at all in the admin (site staff's, through permissions).
SITE_STAFF_MODELS = (
    "Users",
    "Groups",
    "Outgoing mails",
    "Journal entries",
    "Profiles",
    "Absences",
    "Access attempts",
)


@covers("admin:index")
def admin_index(t: ScopeCase, name: str) -> None:
    page = t.anna.get(reverse(name)).content.decode()
    for model in SITE_STAFF_MODELS:
        assert f">{model}<" not in page, model
    assert ">Games<" in page and ">Tournaments<" in page and ">Ladders<" in page
    assert ">Users<" in t.root.get(reverse(name)).content.decode()


@covers("admin:app_list")
def admin_app_lists(t: ScopeCase, name: str) -> None:
    for app in ("auth", "mail", "axes", "account", "accounts"):
        t.refused(t.anna.get(reverse(name, args=[app])), app)
    assert t.anna.get(reverse(name, args=["games"])).status_code == 200


# (the model, its foreign key, the model it points to): the admin's autocomplete answers
# from the admin of the model pointed to, scoped as its list is.
AUTOCOMPLETED = (
    (Move, "game", Game),
    (InboundMessage, "game", Game),
    (Game, "creator", User),
    (Entry, "tournament", Tournament),
    (Membership, "league", League),
    (LadderPlayer, "ladder", Ladder),
)


@covers("admin:autocomplete")
def admin_autocomplete(t: ScopeCase, name: str) -> None:
    foreign, own = foreign_rows(t.w), own_rows(t.w)
    answered: list[type[Model]] = []
    for source, field, target in AUTOCOMPLETED:
        meta = source._meta
        query = {"app_label": meta.app_label, "model_name": meta.model_name, "field_name": field}
        response = t.anna.get(reverse(name), query)
        if target not in own or response.status_code != 200:  # (no search: a 404)
            t.refused(response, target)
            continue
        found = {row["id"] for row in response.json()["results"]}
        assert not found & {str(obj.pk) for obj in foreign[target]}, target
        assert found == {str(obj.pk) for obj in own[target]}, target
        t.assert_nothing_foreign(response.content.decode())
        answered.append(target)
    assert Game in answered and Tournament in answered


@covers("admin:auth_user_password_change")
def admin_password_change(t: ScopeCase, name: str) -> None:
    for user in (t.w.root, t.w.b.organiser, t.w.stranger):
        password = user.password
        t.refused(t.anna.get(reverse(name, args=[user.pk])), user)
        response = t.anna.post(
            reverse(name, args=[user.pk]),
            {"password1": "a new tiger lily", "password2": "a new tiger lily"},
        )
        t.refused(response, user)
        assert User.objects.get(pk=user.pk).password == password
    assert t.root.get(reverse(name, args=[t.w.stranger.pk])).status_code == 200


@covers("admin:view_on_site")
def admin_view_on_site(t: ScopeCase, name: str) -> None:
    for obj in (t.w.open_game, t.w.b.event, t.w.b.league, t.w.b.ladder, t.w.reset_mail):
        kind = ContentType.objects.get_for_model(obj)
        t.refused_after_redirects(
            t.anna.get(reverse(name, args=[kind.pk, obj.pk]), follow=True), obj
        )


# --- the organisers' admin pages -----------------------------------------------------


@covers("admin:games_game_move", "admin:games_game_forfeit", "admin:games_game_replace")
def game_admin_pages(t: ScopeCase, name: str) -> None:
    for game in t.w.foreign_games:
        before = (snapshot(game), seats_of(game))
        t.refused(t.anna.get(reverse(name, args=[game.pk])), game)
        seat = game.seats.first()
        assert seat is not None
        form = {"text": "grow usa", "turn_number": game.turn_number, "seat": seat.pk}
        t.refused(t.anna.post(reverse(name, args=[game.pk]), {**form, "username": "anna"}), game)
        assert (snapshot(game), seats_of(game)) == before, game
    for game in t.own_games():
        assert t.anna.get(reverse(name, args=[game.pk])).status_code == 200, game


@covers("admin:tournaments_tournament_standings")
def standings_csv(t: ScopeCase, name: str) -> None:
    t.refused(t.anna.get(reverse(name, args=[t.w.b.event.pk])), t.w.b.event)
    own = t.anna.get(reverse(name, args=[t.w.a.event.pk]))
    assert own.status_code == 200 and own["Content-Type"].startswith("text/csv")


@covers("admin:tournaments_table_correct")
def table_correct(t: ScopeCase, name: str) -> None:
    foreign = Table.objects.get(round__tournament=t.w.b.event)
    before = snapshot(foreign)
    t.refused(t.anna.get(reverse(name, args=[foreign.pk])), foreign)
    t.refused(t.anna.post(reverse(name, args=[foreign.pk]), {}), foreign)
    assert snapshot(foreign) == before
    own = Table.objects.get(round__tournament=t.w.a.event)
    assert t.anna.get(reverse(name, args=[own.pk])).status_code == 200


# --- every model's admin pages -------------------------------------------------------


def _side_rows(side: Side) -> dict[type[Model], list[Model]]:
    event, ladder = side.event, side.ladder
    return {
        Game: list(side.games),
        Move: list(Move.objects.filter(game__in=side.games)),
        League: [side.league],
        Membership: list(side.league.memberships.all()),
        Tournament: [event],
        Entry: list(event.entries.all()),
        Round: list(event.rounds.all()),
        Table: list(Table.objects.filter(round__tournament=event)),
        Ladder: [ladder],
        LadderPlayer: list(ladder.players.all()),
        InboundMessage: [side.inbound],
    }


def foreign_rows(w: World) -> dict[type[Model], list[Model]]:
    """Per admin model, B's and the stranger's rows (every row, for site staff's)."""
    rows = _side_rows(w.b)
    rows[Game] += [w.open_game, w.bot_game]
    rows[Move] += list(Move.objects.filter(game=w.bot_game))
    anna = w.a.organiser
    everyone_else: list[type[Model]] = [
        OutgoingMail,
        JournalEntry,
        Absence,
        Group,
        EmailAddress,
        AccessAttempt,
        AccessLog,
        AccessFailureLog,
    ]
    for model in everyone_else:
        rows[model] = list(model._default_manager.all())
    rows[User] = list(User.objects.exclude(pk=anna.pk))
    rows[Profile] = list(Profile.objects.exclude(user=anna))
    return rows


def own_rows(w: World) -> dict[type[Model], list[Model]]:
    """Per admin model, A's rows Anna must see (none: the model is site staff's)."""
    return _side_rows(w.a)


def admin_url(model: type[Model], kind: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{kind}", args=args)


def check_model_admin(t: ScopeCase, model: type[Model]) -> None:
    """Its list, change, history, delete and add pages, its old-style address and its
    actions: nothing of B's or the stranger's, and A's own rows shown."""
    foreign = foreign_rows(t.w)[model]
    own = own_rows(t.w).get(model, [])
    listing = t.anna.get(admin_url(model, "changelist"))
    if own:
        assert listing.status_code == 200
        page = listing.content.decode()
        t.assert_nothing_foreign(page)
        for obj in own:
            assert admin_url(model, "change", obj.pk) in page, obj
        for obj in own:
            assert t.anna.get(admin_url(model, "change", obj.pk)).status_code == 200, obj
            assert t.anna.get(admin_url(model, "history", obj.pk)).status_code == 200, obj
    else:
        t.refused(listing, model)
        assert t.root.get(admin_url(model, "changelist")).status_code == 200
    add = t.anna.get(admin_url(model, "add"))
    if add.status_code == 200:  # an organiser adds to their own leagues only
        t.assert_nothing_foreign(add.content.decode())
    else:
        t.refused(add, f"{model.__name__} add")
    before = [snapshot(obj) for obj in foreign]
    for obj in foreign:
        for kind in ("change", "history", "delete"):
            t.refused(t.anna.get(admin_url(model, kind, obj.pk)), f"{obj} {kind}")
        old_style = f"{admin_url(model, 'changelist')}{obj.pk}/"
        t.refused_after_redirects(t.anna.get(old_style, follow=True), obj)
        t.refused(t.anna.post(admin_url(model, "delete", obj.pk), {"post": "yes"}), obj)
    model_admin = admin.site._registry[model]
    request = t.root.get(admin_url(model, "changelist")).wsgi_request
    for action in model_admin.get_actions(request):
        data = {
            "action": action,
            "_selected_action": [str(obj.pk) for obj in foreign],
            "post": "yes",
            "apply": "1",
            "confirm": "yes",
            "extension": "1d 12h",
        }
        response = t.anna.post(admin_url(model, "changelist"), data, follow=True)
        t.assert_nothing_foreign(response.content.decode())
    assert [snapshot(obj) for obj in foreign] == before


ADMIN_KINDS = ("changelist", "add", "history", "delete", "change")


def model_routes(model: type[Model]) -> set[str]:
    """The admin's standard URLs of a model: named ones by name, the old-style
    redirect by its route."""
    label, name = model._meta.app_label, model._meta.model_name
    return {f"admin:{label}_{name}_{kind}" for kind in ADMIN_KINDS} | {
        f"admin/{label}/{name}/<path:object_id>/"
    }


# --- the tests -----------------------------------------------------------------------


class TestOrganiserScope(ScopeCase):
    """One test per URL with a check (added below), one per admin model."""

    def test_staff_alone_escape_no_lobby_limit(self) -> None:
        anna = self.w.a.organiser
        with override_settings(OPEN_GAMES_PER_PLAYER=1):
            games.create_lobby_game(anna, name="Anna's first")
            with self.assertRaisesRegex(games.GameError, "open"):
                games.create_lobby_game(anna, name="Anna's second")
            anna.groups.add(self.w.staff_group)  # a site-wide organiser is not limited
            anna = User.objects.get(pk=anna.pk)  # permissions are cached per instance
            games.create_lobby_game(anna, name="Anna's second")
        assert Game.objects.filter(creator=anna, status=Game.Status.OPEN).count() == 2

    def test_a_site_wide_organiser_organises_every_game(self) -> None:
        anna = self.w.a.organiser
        anna.groups.add(self.w.staff_group)
        anna = User.objects.get(pk=anna.pk)
        games.pause_game(self.w.b.event_game.pk, anna)
        games.pause_game(self.w.bot_game.pk, anna)
        assert (
            Game.objects.filter(pk__in=[self.w.b.event_game.pk, self.w.bot_game.pk])
            .filter(paused_at__isnull=False)
            .count()
            == 2
        )


def _url_test(name: str, check: Check) -> Callable[[ScopeCase], None]:
    def test(self: ScopeCase) -> None:
        check(self, name)

    test.__doc__ = f"{name}: nothing of B's or the stranger's, and A's own."
    return test


def _model_test(model: type[Model]) -> Callable[[ScopeCase], None]:
    def test(self: ScopeCase) -> None:
        check_model_admin(self, model)

    test.__doc__ = f"The admin's pages of {model.__name__}: nothing of B's or the stranger's."
    return test


for _name, _check in list(SCOPE.items()):
    if callable(_check):
        slug = re.sub(r"\W+", "_", _name)
        setattr(TestOrganiserScope, f"test_url_{slug}", _url_test(_name, _check))

ADMIN_MODELS = [
    Game,
    Move,
    League,
    Membership,
    Tournament,
    Entry,
    Round,
    Table,
    Ladder,
    LadderPlayer,
    InboundMessage,
    OutgoingMail,
    JournalEntry,
    Absence,
    Group,
    EmailAddress,
    AccessAttempt,
    AccessLog,
    AccessFailureLog,
    User,
    Profile,
]
for _model in ADMIN_MODELS:
    setattr(
        TestOrganiserScope,
        f"test_admin_{_model._meta.app_label}_{_model._meta.model_name}",
        _model_test(_model),
    )


def every_url(
    patterns: list[URLPattern | URLResolver], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str]]:
    """Each URL pattern of the site: (its route, its name with namespaces, or "")."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from every_url(pattern.url_patterns, route, inner)
        elif pattern.name:
            yield route, f"{namespace}:{pattern.name}" if namespace else pattern.name
        else:
            yield route, ""


def test_every_url_is_in_the_scope_table() -> None:
    covered = set(SCOPE)
    for model in ADMIN_MODELS:
        covered |= model_routes(model)
    missing = []
    for route, name in every_url(get_resolver().url_patterns):
        if name.split(":")[0] in NO_CHECK_NAMESPACES:
            continue
        if (name or route) not in covered:
            missing.append(name or route)
    assert not missing, f"URLs with no entry in the scope table: {missing}"


def test_every_admin_model_is_checked() -> None:
    assert set(admin.site._registry) == set(ADMIN_MODELS)


# --- services ------------------------------------------------------------------------

RIGHTS = re.compile(
    r"^only (the game's creator or an organiser|an organiser|the league's organisers)"
)
REFUSALS = (games.GameError, TournamentError, RatingError)
ServiceCall = Callable[[World, Side, AbstractBaseUser], Any]


def _seat(game: Game) -> int:
    seat = game.seats.order_by("number").first()
    assert seat is not None
    return seat.pk


def _legal(game: Game) -> str:
    return engine.legal_actions(games.state_of(game))[0]


def _lobby_game(w: World, side: Side) -> Game:
    """An open game: the stranger's for B, one of Anna's own for A."""
    if side is w.b:
        return w.open_game
    return games.create_game(side.organiser, name="Anna's table", seats=3)


def _entry(side: Side) -> Entry:
    return side.event.entries.order_by("pk")[0]


# service -> a call acting on a side's object as ``by``
SERVICES: dict[str, ServiceCall] = {
    "games.add_bot": lambda w, s, by: games.add_bot(_lobby_game(w, s).pk, by),
    "games.assign_home": lambda w, s, by: games.assign_home(
        (g := _lobby_game(w, s)).pk, by, _seat(g), "europe"
    ),
    "games.cancel_game": lambda w, s, by: games.cancel_game(_lobby_game(w, s).pk, by),
    "games.start_game": lambda w, s, by: games.start_game(_lobby_game(w, s).pk, by),
    "games.abandon_game": lambda w, s, by: games.abandon_game(s.event_game.pk, by),
    "games.correct_result": lambda w, s, by: games.correct_result(
        s.event_game.pk, by, {seat.pk: 1 for seat in s.event_game.seats.all()}
    ),
    "games.extend_deadline": lambda w, s, by: games.extend_deadline(
        s.ladder_game.pk, by, timedelta(hours=1)
    ),
    "games.forfeit_seat": lambda w, s, by: games.forfeit_seat(
        s.event_game.pk, by, _seat(s.event_game), "admin"
    ),
    "games.move_on_behalf": lambda w, s, by: games.move_on_behalf(
        s.ladder_game.pk, by, _legal(s.ladder_game)
    ),
    "games.pause_game": lambda w, s, by: games.pause_game(s.event_game.pk, by),
    "games.resume_game": lambda w, s, by: games.resume_game(s.ladder_game.pk, by),
    "games.replace_player": lambda w, s, by: games.replace_player(
        s.ladder_game.pk, by, _seat(s.ladder_game), w.stranger
    ),
    "tournaments.name_organiser": lambda w, s, by: services.name_organiser(
        s.league, by, w.stranger
    ),
    "tournaments.approve_member": lambda w, s, by: services.approve_member(
        s.league, by, w.stranger
    ),
    "tournaments.create_tournament": lambda w, s, by: services.create_tournament(
        s.league, by, "Another cup"
    ),
    "tournaments.new_tournament": lambda w, s, by: services.new_tournament(
        s.league, by, "Another cup"
    ),
    "tournaments.update_tournament": lambda w, s, by: services.update_tournament(
        s.event, by, name="Renamed"
    ),
    "tournaments.open_registration": lambda w, s, by: services.open_registration(s.event, by),
    "tournaments.add_bot": lambda w, s, by: services.add_bot(s.event, by),
    "tournaments.start_event": lambda w, s, by: services.start_event(s.event, by),
    "tournaments.pause_event": lambda w, s, by: services.pause_event(s.event, by),
    "tournaments.resume_event": lambda w, s, by: services.resume_event(s.event, by),
    "tournaments.drop_entry": lambda w, s, by: services.drop_entry(s.event, by, _entry(s)),
    "tournaments.admit": lambda w, s, by: services.admit(s.event, by, _entry(s)),
    "tournaments.reinstate": lambda w, s, by: services.reinstate(s.event, by, _entry(s)),
    "tournaments.correct_result": lambda w, s, by: services.correct_result(
        s.event, by, Table.objects.get(round__tournament=s.event).pk, [[_entry(s).pk]]
    ),
    "tournaments.check_organiser": lambda w, s, by: services.check_organiser(s.league, by),
    "tournaments.queue": lambda w, s, by: eventjobs.queue(s.event, by, EventJob.Kind.ADD_BOT),
    "tournaments.start_round": lambda w, s, by: rounds.start_round(s.event, by, 1),
    "tournaments.repair_round": lambda w, s, by: rounds.repair_round(s.event, by, 1),
    "ratings.create_ladder": lambda w, s, by: ladders.create_ladder(s.league, by, "Another"),
    "ratings.update_ladder": lambda w, s, by: ladders.update_ladder(s.ladder, by),
    "ratings.new_season": lambda w, s, by: ladders.new_season(s.ladder, by),
    "ratings.add_bot": lambda w, s, by: ladders.add_bot(s.ladder, by),
}
SERVICE_MODULES = {
    "games": "games.services",
    "tournaments": "tournaments.services",
    "tournaments.services.rounds": "tournaments.services.rounds",
    "tournaments.services.eventjobs": "tournaments.services.eventjobs",
    "ratings": "ratings.services.ladder",
}


def organiser_services() -> set[str]:
    """Every public service that takes the organiser acting (``by``, ``admin``)."""
    found = set()
    for short, path in SERVICE_MODULES.items():
        module = importlib.import_module(path)
        app = short.split(".")[0]
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if not function.__module__.startswith(path):
                continue
            if {"by", "admin"} & set(inspect.signature(function).parameters):
                found.add(f"{app}.{name}")
    return found


def test_every_organiser_service_is_in_the_table() -> None:
    assert organiser_services() == set(SERVICES)


def _affected(w: World) -> list[Model]:
    side = w.b
    return [
        *w.foreign_games,
        side.league,
        side.event,
        side.ladder,
        *side.event.entries.all(),
        *Table.objects.filter(round__tournament=side.event),
    ]


def _service_test(name: str, call: ServiceCall) -> Callable[[TwoLeaguesTestCase], None]:
    def test(self: TwoLeaguesTestCase) -> None:
        w, anna = self.w, self.w.a.organiser
        rows = _affected(w)
        before = [snapshot(row) for row in rows]
        counts = (Game.objects.count(), Tournament.objects.count(), Ladder.objects.count())
        try:
            call(w, w.b, anna)
        except REFUSALS as refusal:
            assert RIGHTS.match(str(refusal)), f"{name} refused B's for another reason: {refusal}"
        else:
            raise AssertionError(f"{name} acted on league B's or the stranger's for Anna")
        assert [snapshot(row) for row in rows] == before
        assert (Game.objects.count(), Tournament.objects.count(), Ladder.objects.count()) == (
            counts
        )
        try:  # her own: not refused for want of rights (another refusal may come)
            call(w, w.a, anna)
        except REFUSALS as refusal:
            assert not RIGHTS.match(str(refusal)), f"{name} refused A's own to Anna"

    test.__doc__ = f"{name}: refused on B's and the stranger's, allowed on A's."
    return test


class TestOrganiserServices(TwoLeaguesTestCase):
    """One test per service that acts for an organiser (added below)."""


for _name, _call in SERVICES.items():
    setattr(TestOrganiserServices, f"test_{_name.replace('.', '_')}", _service_test(_name, _call))


def test_a_foreign_word_counts_everywhere_but_in_a_random_csrf_token() -> None:
    token = "dave" + "x" * 56 + "Bor1"
    form = f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
    assert foreign_words(f"<p>Welcome</p>{form}") == []
    assert foreign_words(f"<p>dave</p>{form}") == ["dave"]
    assert foreign_words(f'<input name="next" value="{token}">') == ["dave"]
