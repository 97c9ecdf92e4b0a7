"""The match score as players read it: games first, then the points that decide the match, and
"on points" whenever the winner did not win more games."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.games.model import GameStatus, MatchStatus
from bot.players.model import PlayerRef
from cogs.words.game_messages import match_text
from tak import Color

ALICE, BOB = PlayerRef(1, "alice"), PlayerRef(2, "bob")


def finished_game(winner: PlayerRef) -> SimpleNamespace:
    """A finished game of the match with alice as white (only what the wording reads)."""
    colour = Color.WHITE if winner == ALICE else Color.BLACK
    return SimpleNamespace(
        status=GameStatus.FINISHED,
        result=SimpleNamespace(winner=colour),
        player=lambda color: ALICE if color is Color.WHITE else BOB,
    )


def finished_match(points: tuple[int, int], leader: PlayerRef) -> SimpleNamespace:
    return SimpleNamespace(
        player1=ALICE,
        player2=BOB,
        points1=points[0],
        points2=points[1],
        status=MatchStatus.FINISHED,
        leader=leader,
        games_total=3,
        games_played=3,
    )


@pytest.mark.parametrize(
    ("points", "leader", "verdict"),
    [
        ((50, 10), ALICE, "alice wins the match!"),
        ((10, 50), BOB, "bob wins the match on points!"),  # fewer games, more points
    ],
)
def test_a_match_won_with_fewer_games_says_on_points(points, leader, verdict) -> None:
    games = [finished_game(ALICE), finished_game(ALICE), finished_game(BOB)]
    text = match_text(finished_match(points, leader), games)  # type: ignore[arg-type]
    assert text == f"Match over: alice 2 – 1 bob (points {points[0]} – {points[1]}). {verdict}"
