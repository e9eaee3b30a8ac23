"""Ladders: joining, pausing, leaving; the matchmaking job's tables and their games;
ladder ratings by season; the leaderboard."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import core
from ratings import selectors
from ratings.errors import RatingError
from ratings.models import Ladder, LadderGame, LadderPlayer, LadderSeat, Rating
from ratings.services import ladder as ladders
from ratings.services import matchmaking, pools, sweeps
from tests.ratings.conftest import end
from tournaments import services
from tournaments.models import League

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(league: League, anna: Any) -> Ladder:
    return ladders.create_ladder(league, anna, "Weekly", player_count="4", min_games=2)


def _join_all(ladder: Ladder, users: list[Any], max_games: int = 1) -> list[LadderPlayer]:
    return [ladders.join(ladder, u, max_games) for u in users]


def _run(ladder: Ladder, at: Any = None) -> list[LadderGame]:
    """A matchmaking run due now (as the beat's would be)."""
    at = at or timezone.now()
    Ladder.objects.filter(pk=ladder.pk).update(match_due_at=at)
    return matchmaking.match(ladder.pk, at)


def test_only_organisers_make_ladders_and_a_ladder_starts_with_season_one(
    league: League, alice: Any, anna: Any
) -> None:
    with pytest.raises(RatingError):
        ladders.create_ladder(league, alice, "Mine")
    made = ladders.create_ladder(league, anna, "Blitz", player_count="2")
    assert made.sizes == (2,)
    with pytest.raises(RatingError, match="player_count|not a valid choice"):
        ladders.create_ladder(league, anna, "Crowded", player_count="7")
    with pytest.raises(RatingError, match="at least a minute"):
        ladders.create_ladder(league, anna, "Hasty", decision_time=timedelta(seconds=5))
    assert not Ladder.objects.filter(name__in=["Crowded", "Hasty"]).exists()
    assert list(made.seasons.values_list("number", flat=True)) == [1]


def test_joining_makes_a_member_and_a_waiting_player(ladder: Ladder, alice: Any) -> None:
    player = ladders.join(ladder, alice, 2)
    assert player.status == LadderPlayer.Status.ACTIVE and player.max_games == 2
    assert player.waiting_since is not None
    assert ladder.league.memberships.filter(user=alice).exists()
    with pytest.raises(RatingError):
        ladders.join(ladder, alice, ladder.max_games_at_once + 1)


def test_a_ladder_of_an_approval_league_wants_members_first(anna: Any, alice: Any) -> None:
    league = services.create_league("Closed", anna, joining=League.Joining.APPROVAL)
    closed = ladders.create_ladder(league, anna, "Closed ladder")
    with pytest.raises(RatingError):
        ladders.join(closed, alice)
    assert not LadderPlayer.objects.exists()


def test_a_run_seats_the_waiting_players_at_games_with_the_strict_setup_and_assigned_homes(
    ladder: Ladder, players: list[Any]
) -> None:
    _join_all(ladder, players)
    made = _run(ladder)
    assert len(made) == 2
    for ladder_game in made:
        game = ladder_game.game
        assert game.options["setup"] == "strict" and game.home_assignment == "assigned"
        assert game.status == Game.Status.SETUP
        assert game.seats.count() == 4
        assert len(set(game.seats.values_list("home", flat=True))) == 4
    seated = [s.player_id for g in made for s in g.seats.all()]
    assert sorted(seated) == sorted(LadderPlayer.objects.values_list("pk", flat=True))
    assert not LadderPlayer.objects.filter(waiting_since__isnull=False).exists()
    assert set(LadderPlayer.objects.values_list("active_games", flat=True)) == {1}


def test_a_run_not_yet_due_does_nothing(ladder: Ladder, players: list[Any]) -> None:
    _join_all(ladder, players)
    now = timezone.now()
    assert len(matchmaking.match(ladder.pk, now)) == 2
    assert matchmaking.match(ladder.pk, now) == []


def test_a_player_is_never_seated_beyond_their_limit(ladder: Ladder, players: list[Any]) -> None:
    _join_all(ladder, players[:4], max_games=2)
    _join_all(ladder, players[4:], max_games=1)
    now = timezone.now()
    for minute in range(6):
        _run(ladder, now + timedelta(minutes=minute, hours=minute * 30))
        for player in LadderPlayer.objects.all():
            running = LadderGame.objects.filter(
                seats__player=player, finished_at__isnull=True
            ).count()
            assert running == player.active_games <= player.max_games
    assert LadderPlayer.objects.filter(max_games=2, active_games=2).count() == 4


def test_paused_and_departed_players_are_not_seated(ladder: Ladder, players: list[Any]) -> None:
    entries = _join_all(ladder, players[:5])
    ladders.pause(entries[0])
    assert len(_run(ladder)) == 1
    entries[0].refresh_from_db()
    assert entries[0].active_games == 0 and entries[0].waiting_since is None
    ladders.resume(entries[0])
    ladders.leave(entries[1])
    with pytest.raises(RatingError):
        ladders.resume(entries[1])  # join again instead
    assert _run(ladder, timezone.now() + timedelta(days=2)) == []  # only one left waiting


def test_a_finished_ladder_game_frees_places_and_is_rated_in_the_season(
    ladder: Ladder, players: list[Any]
) -> None:
    _join_all(ladder, players[:4])
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    made.refresh_from_db()
    assert made.finished_at is not None
    assert set(LadderPlayer.objects.values_list("active_games", flat=True)) == {0}
    assert not LadderPlayer.objects.filter(waiting_since__isnull=True).exists()
    season = ladder.seasons.get()
    assert Rating.objects.filter(season=season, games=1).count() == 4
    assert Rating.objects.filter(season__isnull=True, games=1).count() == 4  # and globally
    first = made.seats.get(seat__number=1).player
    assert selectors.leaderboard(season)[0]["player"] == first


def test_players_are_ranked_only_after_the_minimum_of_games(
    ladder: Ladder, players: list[Any], client: Client
) -> None:
    _join_all(ladder, players[:4])
    for n in range(2):
        (made,) = _run(ladder, timezone.now() + timedelta(days=2 * n))
        end(made.game, [[1], [2], [3], [4]])
        season = ladder.seasons.get()
        lines = selectors.leaderboard(season)
        assert all(line["ranked"] == (n + 1 >= ladder.min_games) for line in lines)
    data = client.get(f"/ladders/{ladder.pk}/leaderboard.json").json()
    assert data["season"]["number"] == 1 and data["min_games"] == 2
    assert [p["position"] for p in data["players"]] == [1, 2, 3, 4]
    states = pools.recompute(ladder.seasons.get())
    for line in data["players"]:
        assert line["games"] == 2 and line["ranked"]
    by_mu = sorted((s.rating.mu for s in states.values()), reverse=True)
    assert [line["mu"] for line in data["players"]] == by_mu


def test_a_new_season_carries_ratings_with_more_uncertainty(
    ladder: Ladder, players: list[Any], anna: Any
) -> None:
    _join_all(ladder, players[:4])
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    old = {r.player_id: r for r in Rating.objects.filter(season__ladder=ladder)}
    second = ladders.new_season(ladder, anna)
    assert second.number == 2
    carried = {r.player_id: r for r in Rating.objects.filter(season=second)}
    assert set(carried) == set(old)
    for key, row in carried.items():
        assert row.start_mu == old[key].mu
        assert old[key].sigma < row.start_sigma <= 25 / 3
    lines = selectors.leaderboard(second)
    assert all(line["games"] == 0 and not line["ranked"] for line in lines)


def test_a_reset_season_starts_everyone_afresh(
    ladder: Ladder, players: list[Any], anna: Any
) -> None:
    Ladder.objects.filter(pk=ladder.pk).update(new_season=Ladder.NewSeason.RESET)
    ladder.refresh_from_db()
    _join_all(ladder, players[:4])
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    second = ladders.new_season(ladder, anna)
    assert not Rating.objects.filter(season=second).exists()


def test_a_ladder_with_a_bot_entrant_rates_it_only_when_the_ladder_rates_bots(
    ladder: Ladder, players: list[Any], anna: Any
) -> None:
    _join_all(ladder, players[:3])
    ladders.add_bot(ladder, anna, "greedy")
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    assert not Rating.objects.exists()  # a game with a bot: unrated
    Ladder.objects.filter(pk=ladder.pk).update(rates_bots=True)
    (again,) = _run(ladder, timezone.now() + timedelta(days=3))
    end(again.game, [[1], [2], [3], [4]])
    assert Rating.objects.filter(season__isnull=False, games=1).count() == 4
    assert not Rating.objects.filter(season__isnull=True).exists()  # never the global pool


def test_the_sweep_ends_a_season_at_its_end_and_starts_the_next(
    league: League, anna: Any, players: list[Any]
) -> None:
    start = timezone.now()
    made = ladders.create_ladder(
        league, anna, "Monthly", now=start, season_length=timedelta(days=30)
    )
    assert made.seasons.get().ends_at == start + timedelta(days=30)
    assert sweeps.sweep(start + timedelta(days=29)) == 0
    sweeps.sweep(start + timedelta(days=30))
    assert [(s.number, s.ended_at is None) for s in made.seasons.order_by("number")] == [
        (1, False),
        (2, True),
    ]
    assert made.seasons.get(number=2).ends_at == start + timedelta(days=60)


def test_a_ladder_game_past_its_time_is_ranked_by_the_house_rule(
    league: League, anna: Any, players: list[Any]
) -> None:
    made = ladders.create_ladder(
        league, anna, "Quick", player_count="3", game_time=timedelta(hours=6)
    )
    _join_all(made, players[:3])
    (ladder_game,) = _run(made)
    assert sweeps.adjudicate_late_games(timezone.now()) == 0
    assert sweeps.adjudicate_late_games(timezone.now() + timedelta(hours=7)) == 1
    ladder_game.refresh_from_db()
    assert ladder_game.finished_at is not None
    assert ladder_game.game.status == Game.Status.OVER
    assert Rating.objects.filter(season__ladder=made, games=1).count() == 3


def test_the_next_run_does_not_seat_the_same_tables_again(
    ladder: Ladder, players: list[Any]
) -> None:
    _join_all(ladder, players)
    first = _run(ladder)
    tables = [set(g.seats.values_list("player_id", flat=True)) for g in first]
    for made in first:
        end(made.game, [[1], [2], [3], [4]])
    again = _run(ladder, timezone.now() + timedelta(minutes=5))
    assert len(again) == 2
    for made in again:
        seated = set(made.seats.values_list("player_id", flat=True))
        assert seated not in tables
        assert all(len(seated & table) <= 2 for table in tables)


def test_an_ended_seasons_leaderboard_stays_as_it_was_at_its_end(
    ladder: Ladder, players: list[Any], anna: Any
) -> None:
    _join_all(ladder, players[:4])
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    first = ladder.seasons.get()
    ladders.new_season(ladder, anna)
    first.refresh_from_db()
    assert first.ended_at is not None
    at_end = selectors.leaderboard(first, first.ended_at)
    later = selectors.leaderboard(first, first.ended_at + timedelta(weeks=30))
    assert [(x["name"], x["mu"], x["sigma"]) for x in later] == [
        (x["name"], x["mu"], x["sigma"]) for x in at_end
    ]
    running = selectors.leaderboard(ladder.seasons.get(number=2))
    assert all(line["games"] == 0 for line in running)


def test_a_player_who_lowered_their_limit_waits_only_once_they_have_room(
    ladder: Ladder, players: list[Any]
) -> None:
    Ladder.objects.filter(pk=ladder.pk).update(player_count="2")
    ladder.refresh_from_db()
    _join_all(ladder, players[:4], max_games=2)
    now = timezone.now()
    for n in range(2):
        _run(ladder, now + timedelta(days=n))
    alice = LadderPlayer.objects.get(user=players[0])
    assert alice.active_games == 2 and alice.waiting_since is None
    ladders.join(ladder, players[0], 1)  # one game at once from now on
    first, second = LadderGame.objects.filter(seats__player=alice).order_by("pk")
    end(first.game, [[1], [2]])
    alice.refresh_from_db()
    assert alice.active_games == 1 and alice.waiting_since is None  # still at the limit
    end(second.game, [[1], [2]])
    alice.refresh_from_db()
    assert alice.active_games == 0 and alice.waiting_since is not None


def test_a_player_who_left_keeps_their_running_games_rated_and_an_abandoned_one_is_not(
    ladder: Ladder, players: list[Any]
) -> None:
    from django.contrib.auth import get_user_model

    from games import services as games

    Ladder.objects.filter(pk=ladder.pk).update(player_count="2")
    ladder.refresh_from_db()
    _join_all(ladder, players[:4])
    first, second = _run(ladder)
    leaver = first.seats.get(seat__number=1).player
    ladders.leave(leaver)
    end(first.game, [[2], [1]])
    leaver.refresh_from_db()
    assert leaver.status == "left" and leaver.active_games == 0 and leaver.waiting_since is None
    season = ladder.seasons.get()
    assert Rating.objects.get(season=season, player=leaver).games == 1  # still rated
    assert leaver.pk in {line["player"].pk for line in selectors.leaderboard(season)}

    sam = get_user_model().objects.create_superuser("sam", "sam@example.com", None)
    games.abandon_game(second.game.pk, sam, "a test")
    second.refresh_from_db()
    assert second.finished_at is not None
    others = LadderPlayer.objects.filter(seats__ladder_game=second)
    assert {(p.active_games, p.waiting_since is not None) for p in others} == {(0, True)}
    assert not Rating.objects.filter(player__in=others).exists()  # unrated


def test_a_carried_rating_survives_a_season_sat_out(
    ladder: Ladder, players: list[Any], anna: Any
) -> None:
    _join_all(ladder, players[:4])
    (made,) = _run(ladder)
    end(made.game, [[1], [2], [3], [4]])
    played = {r.player_id: r for r in Rating.objects.filter(season__ladder=ladder)}
    start = timezone.now()
    ladders.next_season(ladder.pk, start)  # season 2: no one plays
    third = ladders.next_season(ladder.pk, start + timedelta(weeks=8))
    carried = {r.player_id: r for r in Rating.objects.filter(season=third)}
    assert set(carried) == set(played)
    for key, row in carried.items():
        assert row.start_mu == played[key].mu
        assert played[key].sigma < row.start_sigma <= 25 / 3


def test_over_a_season_each_player_moves_first_and_has_each_home_about_as_often(
    league: League, anna: Any, players: list[Any]
) -> None:
    from collections import Counter

    duels = ladders.create_ladder(league, anna, "Duels", player_count="2")
    _join_all(duels, players)
    start = timezone.now()
    for n in range(8):
        # A day on, everyone is overdue: each run seats everyone.
        tables = _run(duels, start + timedelta(days=n + 1))
        assert len(tables) == 4
        for made in tables:
            end(made.game, [[1 + n % 2], [2 - n % 2]])
    seats = LadderSeat.objects.filter(ladder_game__season__ladder=duels).values_list(
        "player_id", "seat__number", "seat__home"
    )
    games = Counter(player for player, _, _ in seats)
    firsts = Counter(player for player, number, _ in seats if number == 1)
    homes = Counter((player, home) for player, _, home in seats)
    assert set(games.values()) == {8}
    # Seat 1 moves first: each player has it half the time, give or take one game
    # (chance alone leaves someone 6 or more of 8 times, or 2 or fewer, in most seasons).
    assert all(3 <= firsts[player] <= 5 for player in games), firsts
    # Six continents over eight games: none a third time.
    assert max(homes.values()) <= 2, homes


def _at(when: Any) -> Any:
    """Set the games' clock (a game's finish is dated by it); returns the one replaced."""
    return core.use_clock(lambda: when)


def test_a_carried_players_idle_weeks_count_from_their_last_rated_game(
    league: League, anna: Any, alice: Any, bob: Any
) -> None:
    from datetime import UTC, datetime

    from ratings.models import JournalEntry

    idle = 0.25  # sigma per idle week, in quadrature (the model's setting)
    carry = 0.5
    duels = ladders.create_ladder(league, anna, "Duels", player_count="2", carry_sigma=carry)
    _join_all(duels, [alice, bob])
    last_game = datetime(2026, 3, 2, 12, tzinfo=UTC)
    previous = _at(last_game)
    try:
        (first,) = _run(duels, last_game)
        end(first.game, [[1], [2]])
        played = {r.player_id: r for r in Rating.objects.filter(season__ladder=duels)}
        second = ladders.next_season(duels.pk, last_game + timedelta(days=4))
        assert second is not None
        ten_weeks = last_game + timedelta(weeks=10, hours=1)  # 9 weeks and 3 days in
        board = {line["player"].pk: line for line in selectors.leaderboard(second, ten_weeks)}
        _at(ten_weeks)
        (again,) = _run(duels, ten_weeks)
        end(again.game, [[2], [1]])
    finally:
        core.use_clock(previous)
    for key, row in played.items():
        # Ten whole weeks since the last rated game, though only nine and a half since
        # the season's start and none whole before it: all count.
        expected = (row.sigma**2 + carry**2 + 10 * idle**2) ** 0.5
        assert board[key]["sigma"] == pytest.approx(expected, rel=1e-12)
        entry = JournalEntry.objects.get(season=second, player_id=key)
        assert entry.sigma_before == pytest.approx(expected, rel=1e-12)
        assert entry.mu_before == row.mu
    stored = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=second)}
    replayed = {k: (s.rating.mu, s.rating.sigma) for k, s in pools.recompute(second).items()}
    assert replayed == stored


def test_idle_weeks_count_across_a_season_sat_out(
    league: League, anna: Any, alice: Any, bob: Any
) -> None:
    from datetime import UTC, datetime

    carry = 0.5
    duels = ladders.create_ladder(league, anna, "Duels", player_count="2", carry_sigma=carry)
    _join_all(duels, [alice, bob])
    last_game = datetime(2026, 3, 2, 12, tzinfo=UTC)
    previous = _at(last_game)
    try:
        (first,) = _run(duels, last_game)
        end(first.game, [[1], [2]])
    finally:
        core.use_clock(previous)
    played = {r.player_id: r for r in Rating.objects.filter(season__ladder=duels)}
    ladders.next_season(duels.pk, last_game + timedelta(days=3))  # sat out
    third = ladders.next_season(duels.pk, last_game + timedelta(days=6))
    assert third is not None
    later = last_game + timedelta(weeks=6)
    lines = {line["player"].pk: line for line in selectors.leaderboard(third, later)}
    for key, row in played.items():
        expected = (row.sigma**2 + 2 * carry**2 + 6 * 0.25**2) ** 0.5
        assert lines[key]["sigma"] == pytest.approx(expected, rel=1e-12)
        assert lines[key]["mu"] == row.mu
