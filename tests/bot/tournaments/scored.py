"""Match results made from points, as the tests of the pure tournament logic write them."""

from __future__ import annotations

from bot.tournaments.pairing_values import MatchResult, Pairing


def by_points(round: int, pairing: Pairing, points1: int, points2: int) -> MatchResult:
    """A match decided by its games: more points wins, equal points draw."""
    winner = None
    if points1 != points2:
        winner = pairing.player1 if points1 > points2 else pairing.player2
    return MatchResult(round, pairing.player1, pairing.player2, points1, points2, winner)
