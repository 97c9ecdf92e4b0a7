"""The in-memory positions: a cached game moves with one statement, a stale cache is never used."""

from __future__ import annotations

import pytest

from bot import errors
from bot.services.games import GameService
from bot.store import Transaction


async def test_a_cached_game_moves_without_reading_it_again(
    services, new_game, moves, monkeypatch
) -> None:
    """The quick path: one conditional update and its announcement, no read of the game or its
    move log."""
    game = await new_game()
    await moves(game.id, "a1")  # the game is now cached
    statements: list[str] = []
    for name in ("execute", "fetchall", "fetchone"):
        original = getattr(Transaction, name)

        async def recording(self, sql, params=(), _original=original):
            statements.append(sql.split()[0] + " " + sql.split()[2])
            return await _original(self, sql, params)

        monkeypatch.setattr(Transaction, name, recording)
    for turn, text in enumerate(["e5", "c3", "d4"]):
        statements.clear()
        await services.games.move(game.id, (game.black, game.white)[turn % 2].id, text)
        assert statements == ["UPDATE SET", "INSERT outbox"], statements
    outcome = (await moves(game.id, "e4"))[-1]
    assert outcome.game == await services.games.get(game.id)
    assert [m.ptn() for m in outcome.position.moves] == ["a1", "e5", "c3", "d4", "e4"]


async def test_a_change_behind_the_cache_is_noticed(services, new_game, moves, clock) -> None:
    """Another process (a second service here) undoes a move and plays another in its place:
    the first service's cache has the same ply but not the same position."""
    game = await new_game()
    await moves(game.id, "a1 e5 c3")
    other = GameService(services.db, clock)
    await other.request_undo(game.id, game.white.id)
    await other.accept_undo(game.id, game.black.id)
    await other.move(game.id, game.white.id, "b2", expected_ply=2)
    # The first service still caches ply 3 with c3; black's reply must see b2 instead.
    with pytest.raises(errors.IllegalMove):
        await services.games.move(game.id, game.black.id, "b2", expected_ply=3)
    outcome = await services.games.move(game.id, game.black.id, "c3", expected_ply=3)
    assert [m.ptn() for m in outcome.position.moves] == ["a1", "e5", "b2", "c3"]
    assert outcome.game == await services.games.get(game.id)


async def test_refusals_on_a_cached_game_are_the_precise_ones(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1")
    with pytest.raises(errors.NotYourTurn):
        await services.games.move(game.id, game.white.id, "b2")
    with pytest.raises(errors.PositionChanged):
        await services.games.move(game.id, game.black.id, "b2", expected_ply=0)
    with pytest.raises(errors.IllegalMove, match="occupied"):
        await services.games.move(game.id, game.black.id, "a1")
    assert (await services.games.get(game.id)).ply == 1
