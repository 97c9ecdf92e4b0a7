"""Races and failures: concurrent moves, two processes on one file, exceptions mid-move."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import errors
from bot.services import Services
from bot.store.base import CONFLICT_TRIES
from tests.databases import transaction_class


@pytest.mark.parametrize("cached", [False, True], ids=["cold", "cached"])
async def test_fifty_concurrent_moves_apply_exactly_one(services, new_game, cached) -> None:
    game = await new_game(size=6)
    if cached:  # the first attempt can take the quick path
        await services.games.position(game.id)
    squares = [f"{f}{r}" for f in "abcdef" for r in "123456"]
    attempts = [
        services.games.move(game.id, game.white.id, squares[i % 36], expected_ply=0)
        for i in range(50)
    ]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1
    assert all(isinstance(r, errors.PositionChanged) for r in refused)
    rows = await services.db.fetchall("SELECT ply FROM moves WHERE game_id = ?", (game.id,))
    assert [r["ply"] for r in rows] == [1]
    assert (await services.games.get(game.id)).ply == 1


async def test_two_services_on_one_file_never_both_apply_a_move(
    services, new_game, db_path, clock
) -> None:
    """The second service stands for a second process: its own connection and cache."""
    game = await new_game(size=6)
    other = await Services.open(db_path, clock=clock)
    try:
        # Both caches hold the position at ply 1: each service's first attempt takes the quick
        # path, and the one that loses finds the row changed under its cache.
        await services.games.move(game.id, game.white.id, "a1", expected_ply=0)
        await other.games.position(game.id)
        attempts = [
            service.games.move(game.id, game.black.id, square, expected_ply=1)
            for service in (services, other) * 10
            for square in ("b2", "c3")
        ]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        applied = [r for r in results if not isinstance(r, BaseException)]
        assert len(applied) == 1
        refusals = {type(r) for r in results if isinstance(r, BaseException)}
        # On PostgreSQL a move that raced the other process's may be refused as busy (a
        # serialisation failure), the player told to try again; either way it wrote nothing.
        busy = {errors.StoreBusy} if services.db.engine == "postgresql" else set()
        assert refusals <= {errors.PositionChanged} | busy, refusals
        # Each continues from the other's moves: a stale cached position is never used.
        await other.games.move(game.id, game.white.id, "d4", expected_ply=2)
        outcome = await services.games.move(game.id, game.black.id, "e5", expected_ply=3)
        assert outcome.ply == 4
        assert (await services.games.position(game.id)).tps() == outcome.game.tps
        assert (await other.games.position(game.id)).tps() == outcome.game.tps
    finally:
        await other.close()


class Injected(Exception):
    pass


async def table_dump(services: Services) -> dict[str, list[tuple]]:
    dump = {}
    tables = ("players", "challenges", "games", "moves", "matches", "guild_settings", "outbox")
    for table in tables:
        rows = await services.db.fetchall(f"SELECT * FROM {table} ORDER BY 1")
        dump[table] = [tuple(row) for row in rows]
    return dump


async def test_an_exception_between_the_steps_of_a_move_writes_nothing(
    services, new_game, moves, monkeypatch
) -> None:
    """The move that ends a match game touches the log, the game, the match and a new game;
    failing at any of those statements, or at the commit, leaves every table as it was."""
    game = await new_game(size=3, games=2)
    await moves(game.id, "a3 a1 b1 b3")
    statement_runner = transaction_class(services.db)
    original_execute = statement_runner.execute
    calls = 0

    async def counting(self, sql, params=()):
        nonlocal calls
        calls += 1
        return await original_execute(self, sql, params)

    monkeypatch.setattr(statement_runner, "execute", counting)
    probe = await new_game(size=3, games=2)
    await moves(probe.id, "a3 a1 b1 b3")
    calls = 0
    await services.games.move(probe.id, probe.white.id, "c1", expected_ply=4)
    steps = calls
    assert steps >= 4  # log, game, game result, match (and the next game)

    before = await table_dump(services)
    for failing_step in range(1, steps + 1):
        calls = 0

        async def failing(self, sql, params=(), failing_step=failing_step):
            nonlocal calls
            calls += 1
            if calls == failing_step:
                raise Injected(sql)
            return await original_execute(self, sql, params)

        monkeypatch.setattr(statement_runner, "execute", failing)
        with pytest.raises(Injected):
            await services.games.move(game.id, game.white.id, "c1", expected_ply=4)
        assert await table_dump(services) == before, f"step {failing_step} left a trace"
    monkeypatch.setattr(statement_runner, "execute", original_execute)

    if services.db.engine == "sqlite":
        # A failing COMMIT (SQLite's own step; on PostgreSQL a connection lost before COMMIT is
        # a rollback by the server, which tests/bot/store/test_sqlite_restart.py covers with a
        # kill).
        connection = services.db._connection
        original_commit = type(connection).commit

        async def failing_commit(self):
            raise Injected("commit")

        monkeypatch.setattr(type(connection), "commit", failing_commit)
        with pytest.raises(Injected):
            await services.games.move(game.id, game.white.id, "c1", expected_ply=4)
        monkeypatch.setattr(type(connection), "commit", original_commit)
        assert await table_dump(services) == before

    # A move that does not end the game (the quick path for a cached game): its game row and
    # its announcement go together or not at all.
    other = await new_game(size=3)
    await moves(other.id, "a3 a1")
    await services.games.position(other.id)  # cached, so the quick path is taken
    before = await table_dump(services)
    original_fetchall = statement_runner.fetchall
    for failing_step in (1, 2):
        calls = 0
        await services.games.position(other.id)  # cached again: a failed move dropped it

        def failing_at(original, failing_step=failing_step):
            async def failing_quick(self, sql, params=()):
                nonlocal calls
                calls += 1
                if calls == failing_step:
                    raise Injected(sql)
                return await original(self, sql, params)

            return failing_quick

        monkeypatch.setattr(statement_runner, "execute", failing_at(original_execute))
        monkeypatch.setattr(statement_runner, "fetchall", failing_at(original_fetchall))
        with pytest.raises(Injected):
            await services.games.move(other.id, other.white.id, "b1", expected_ply=2)
        assert await table_dump(services) == before, f"step {failing_step} left a trace"
        monkeypatch.undo()
    await services.games.position(other.id)
    if services.db.engine == "sqlite":
        monkeypatch.setattr(type(connection), "commit", failing_commit)
        with pytest.raises(Injected):
            await services.games.move(other.id, other.white.id, "b1", expected_ply=2)
        monkeypatch.setattr(type(connection), "commit", original_commit)
        assert await table_dump(services) == before
    assert (await moves(other.id, "b1"))[0].tak

    outcome = await services.games.move(game.id, game.white.id, "c1", expected_ply=4)
    assert outcome.result is not None and outcome.result.ptn() == "R-0"
    assert outcome.ending is not None and outcome.ending.next_game is not None


async def test_many_games_played_in_parallel_stay_consistent(services, new_game) -> None:
    """Random legal moves in ten games at once; every game row matches a replay of its log."""
    rng = random.Random(3)
    games = [await new_game(size=4) for _ in range(10)]

    async def play_randomly(game_id: int) -> None:
        for _ in range(20):
            position = await services.games.position(game_id)
            if position.result is not None:
                return
            game = await services.games.get(game_id)
            move = rng.choice(position.legal_moves()).ptn()
            await services.games.move(game_id, game.player_to_move.id, move, expected_ply=game.ply)

    await asyncio.gather(*(play_randomly(g.id) for g in games))
    for game in games:
        stored = await services.games.get(game.id)
        record = await services.lookup.record(game.id)
        assert record.final_position().tps() == stored.tps
        assert len(record.plies) == stored.ply


async def test_a_move_refused_for_a_conflict_is_tried_again_and_never_twice(
    services, new_game, moves, monkeypatch
) -> None:
    """A conflict with another process (PostgreSQL's serialisation failure) wrote nothing: the
    move is made again at once, up to CONFLICT_TRIES times, then the player is told to try
    again; a plain busy refusal (a lock held too long) is not repeated."""
    game = await new_game(size=5)
    runner = transaction_class(services.db)
    originals = {name: getattr(runner, name) for name in ("execute", "fetchall")}
    conflicts = {"left": 1, "raised": 0}

    def refusing(name, refusal, limited=True):
        """The statement that moves the game (by either path: a cached game's quick update
        returns rows) refused with `refusal` while `conflicts["left"]` lasts."""

        async def statement(self, sql, params=()):
            if sql.startswith("UPDATE games") and (conflicts["left"] or not limited):
                conflicts["left"] -= 1
                conflicts["raised"] += 1
                raise refusal()
            return await originals[name](self, sql, params)

        return statement

    for name in originals:
        monkeypatch.setattr(runner, name, refusing(name, errors.StoreConflict))
    outcome = await services.games.move(game.id, game.white.id, "a1", expected_ply=0)
    assert outcome.ply == 1 and conflicts["raised"] == 1
    rows = await services.db.fetchall("SELECT ply FROM moves WHERE game_id = ?", (game.id,))
    assert [r["ply"] for r in rows] == [1]
    announced = await services.db.fetchall(
        "SELECT id FROM outbox WHERE kind = 'move' AND stream = ?", (f"game:{game.id}",)
    )
    assert len(announced) == 1  # the failed attempt's announcement went with its rollback

    conflicts["left"] = CONFLICT_TRIES
    with pytest.raises(errors.StoreConflict):
        await services.games.move(game.id, game.black.id, "e5", expected_ply=1)
    assert conflicts["left"] == 0  # tried CONFLICT_TRIES times

    for name in originals:
        monkeypatch.setattr(runner, name, refusing(name, errors.StoreBusy, limited=False))
    conflicts["raised"] = 0
    with pytest.raises(errors.StoreBusy):
        await services.games.move(game.id, game.black.id, "e5", expected_ply=1)
    assert conflicts["raised"] == 1
    assert (await services.games.get(game.id)).ply == 1
