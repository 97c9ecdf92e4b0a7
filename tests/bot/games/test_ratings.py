"""Ratings change in the transaction that ends a rated game, per guild and board size."""

from __future__ import annotations

import pytest

from bot.games.model import GameStatus
from bot.players.glicko2 import Rating, update_after_game

ROAD_3X3 = "a3 a1 b1 b3 c1"  # white (Alice) wins by road along rank 1


async def test_a_rated_win_moves_both_ratings(services, new_game, moves, alice, bob) -> None:
    game = await new_game(size=3)
    ending = (await moves(game.id, ROAD_3X3))[-1].ending
    assert ending is not None and ending.ratings is not None
    white, black = ending.ratings
    expected_white, expected_black = update_after_game(Rating(), Rating(), 1.0)
    assert (white.player, black.player) == (alice, bob)
    assert white.after == expected_white and black.after == expected_black
    assert white.delta > 0 > black.delta
    stored = {r.player: r for r in await services.ratings.player(game.guild_id, alice.id)}
    assert stored[alice].rating == expected_white
    assert stored[alice].games == 1 and stored[alice].size == 3
    assert stored[alice].provisional
    assert stored[alice].label() == f"{expected_white.rating:.0f}?"


async def test_a_draw_between_equals_keeps_the_rating_and_narrows_the_deviation(
    services, new_game, moves, alice
) -> None:
    game = await new_game(size=3, komi=1, stones=3)
    ending = (await moves(game.id, "a3 c1 b2 c3 a2"))[-1].ending
    assert ending is not None and ending.result.is_draw and ending.ratings is not None
    for change in ending.ratings:
        assert change.after.rating == pytest.approx(1500)
        assert change.after.deviation < change.before.deviation


async def test_unrated_and_aborted_games_change_nothing(services, new_game, moves, alice) -> None:
    unrated = await new_game(size=3, rated=False)
    ending = (await moves(unrated.id, ROAD_3X3))[-1].ending
    assert ending is not None and ending.ratings is None
    aborted = await new_game(size=3)
    abort = await services.games.abort(aborted.id, alice.id)
    assert abort.game.status is GameStatus.ABORTED and abort.ratings is None
    assert await services.ratings.player(unrated.guild_id, alice.id) == []


async def test_sizes_are_rated_apart(services, new_game, moves, alice) -> None:
    await moves((await new_game(size=3)).id, ROAD_3X3)
    four = await new_game(size=4)
    await moves(four.id, "a4 a1 b1 b4 c1 c4 d1")
    ratings = await services.ratings.player(four.guild_id, alice.id)
    assert [(r.size, r.games) for r in ratings] == [(3, 1), (4, 1)]


async def test_leaderboard_leaves_out_provisional_players(
    services, new_game, moves, alice, bob
) -> None:
    # White wins each game, and Alice plays white every other game: the results alternate, so
    # both deviations fall below the provisional threshold after 14 games.
    for number in range(14):
        game = await new_game(size=3, colour="white" if number % 2 == 0 else "black")
        await moves(game.id, ROAD_3X3)
        board = await services.ratings.leaderboard(game.guild_id, 3)
        assert len(board) == (2 if number == 13 else 0)
    assert {entry.player for entry in board} == {alice, bob}
    assert board[0].rating.rating >= board[1].rating.rating
    assert all(not entry.provisional and entry.games == 14 for entry in board)
