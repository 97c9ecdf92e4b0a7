"""Glicko-2 ratings, exactly as in Glickman's "Example of the Glicko-2 system" (2013).

Bredon rates after every rated game, each game its own rating period (:func:`update_after_game`);
the service applies :func:`idle_period` when it decides a period passed without games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
# Glickman's convergence tolerance for the volatility iteration.
CONVERGENCE = 0.000001
# Converts between the Glicko scale (1500, 350) and the Glicko-2 scale (0, 2.0147).
SCALE = 173.7178
# A rating this uncertain or worse is provisional and stays off leaderboards. Lichess uses the same
# threshold; a newcomer gets below it after about ten games against settled players.
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale: strength, its uncertainty (RD) and volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not (self.deviation > 0 and self.volatility > 0):
            raise ValueError("A rating's deviation and volatility must be positive.")

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game of a rating period as the rated player saw it: the opponent's rating before the
    period, and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"A game scores 1, 0.5 or 0, not {self.score}.")


def is_provisional(rating: Rating) -> bool:
    """Too few games for the rating to mean much: RD above 110."""
    return rating.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_g: float) -> float:
    return 1.0 / (1.0 + math.exp(-opponent_g * (mu - opponent_mu)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: solve for the new volatility with the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def idle_period(player: Rating) -> Rating:
    """A rating period without games: the rating stays, its uncertainty grows (step 6 only)."""
    phi = math.sqrt(player.phi**2 + player.volatility**2)
    return Rating(player.rating, phi * SCALE, player.volatility)


def update(player: Rating, games: Sequence[GameScore], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with ``games`` (steps 2 to 8 of the paper)."""
    if tau <= 0:
        raise ValueError("Tau must be positive.")
    if not games:
        return idle_period(player)
    mu, phi = player.mu, player.phi
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        g = _g(game.opponent.phi)
        expected = _expected(mu, game.opponent.mu, g)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (game.score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + inverse_v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, sigma)


def update_after_game(
    white: Rating, black: Rating, score_white: float, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game, each game its own rating period; both updates use
    the ratings from before the game."""
    return (
        update(white, [GameScore(black, score_white)], tau),
        update(black, [GameScore(white, 1.0 - score_white)], tau),
    )
