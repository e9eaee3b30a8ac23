"""OpenSkill's Plackett-Luce model over a game's finishing order.

A game's result is a rank per player (1 is best; tied players share a rank: the
survivors of a draw, the players of an R24 mutual elimination; forfeits come last, as
the engine's finishing order ranks them). The model's settings are part of every
journal row, so a replay uses the very model that rated the game.

The shown rating is Elo-like: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma)``: a new
player (mu 25, sigma 25/3) shows 1000, and the number rises as the model grows sure of
a player; its uncertainty is shown as ``SHOWN_SCALE * 3 * sigma`` points.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce

SHOWN_BASE = 1000.0
SHOWN_SCALE = 40.0
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class Settings:
    """The model's settings: OpenSkill's defaults, and how much sigma grows per idle
    week (added in quadrature, never beyond a new player's sigma)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    idle_sigma_per_week: float = 0.25

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        return cls(**{key: float(value) for key, value in data.items()})


DEFAULT = Settings()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The cautious estimate the leaderboards sort by: mu - 3 sigma."""
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        return round(SHOWN_SCALE * 3.0 * self.sigma)


def shown(mu: float, sigma: float) -> int:
    """The Elo-like number a player sees (see the module's text)."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3.0 * sigma))


def initial(settings: Settings = DEFAULT) -> Rating:
    return Rating(settings.mu, settings.sigma)


def idle_weeks(last: datetime | None, when: datetime) -> int:
    """Whole weeks from a player's last rated game to ``when`` (0 before any game)."""
    if last is None or when <= last:
        return 0
    return (when - last) // WEEK


def grown(rating: Rating, weeks: int, settings: Settings = DEFAULT) -> Rating:
    """The rating after ``weeks`` idle weeks: sigma grows in quadrature, at most to a new
    player's sigma; mu stays."""
    if weeks <= 0:
        return rating
    sigma = math.sqrt(rating.sigma**2 + weeks * settings.idle_sigma_per_week**2)
    return Rating(rating.mu, max(rating.sigma, min(sigma, settings.sigma)))


def carried(rating: Rating, extra_sigma: float, settings: Settings = DEFAULT) -> Rating:
    """A rating carried into a new season, with more uncertainty (``extra_sigma`` added
    in quadrature, at most a new player's sigma)."""
    sigma = math.sqrt(rating.sigma**2 + extra_sigma**2)
    return Rating(rating.mu, max(rating.sigma, min(sigma, settings.sigma)))


def _model(settings: Settings) -> PlackettLuce:
    return PlackettLuce(mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau)


_MODELS: dict[Settings, PlackettLuce] = {}


def rate(
    players: Sequence[tuple[Hashable, int, Rating]], settings: Settings = DEFAULT
) -> dict[Hashable, Rating]:
    """The ratings after one game: ``players`` are (key, rank, rating before). Each
    player is a team of one. The result does not depend on the order the players are
    listed in: they are put in a canonical order (rank, then key) first."""
    if len(players) < 2:
        raise ValueError("a rated game has at least two players")
    if len({key for key, _, _ in players}) != len(players):
        raise ValueError("a player is rated once per game")
    ordered = sorted(players, key=lambda p: (p[1], repr(p[0])))
    model = _MODELS.get(settings)
    if model is None:
        model = _MODELS[settings] = _model(settings)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for _, _, r in ordered]
    after = model.rate(teams, ranks=[float(rank) for _, rank, _ in ordered])
    return {
        key: Rating(float(team[0].mu), float(team[0].sigma))
        for (key, _, _), team in zip(ordered, after, strict=True)
    }
