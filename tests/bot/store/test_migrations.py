"""The SQLite store: set-up, migrations, transactions, and the append-only move log."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import Database, Migration, load_migrations
from tests.databases import REFUSED_BY_SCHEMA


async def schema(db: Database) -> list[tuple[str, str]]:
    rows = await db.fetchall("SELECT name, sql FROM sqlite_master ORDER BY type, name")
    return [(row["name"], row["sql"]) for row in rows]


@pytest.mark.sqlite_only
async def test_migrations_from_empty_reach_the_latest_version(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == len(load_migrations())
        tables = {name for name, _ in await schema(db)}
        assert {"players", "guild_settings", "challenges", "games", "moves", "matches"} <= tables
    finally:
        await db.close()


@pytest.mark.sqlite_only
async def test_rerunning_migrations_changes_nothing(db_path: Path) -> None:
    db = await Database.open(db_path)
    before = await schema(db)
    assert await db.migrate(load_migrations()) == []
    assert await schema(db) == before
    await db.close()
    reopened = await Database.open(db_path)
    try:
        assert await schema(reopened) == before
        assert await reopened.schema_version() == len(load_migrations())
    finally:
        await reopened.close()


@pytest.mark.sqlite_only
async def test_a_failing_migration_leaves_the_file_as_it_was(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        version = await db.schema_version()
        before = await schema(db)
        broken = Migration(
            version + 1,
            "broken",
            "CREATE TABLE half_done (id INTEGER);\nINSERT INTO no_such_table VALUES (1);",
        )
        with pytest.raises(sqlite3.OperationalError):
            await db.migrate([*load_migrations(), broken])
        assert await db.schema_version() == version
        assert await schema(db) == before
    finally:
        await db.close()


@pytest.mark.sqlite_only
async def test_wal_and_foreign_keys_are_on(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
        with pytest.raises(REFUSED_BY_SCHEMA):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO moves (game_id, ply, ptn, player_id, played_at) "
                    "VALUES (999, 1, 'a1', 1, '2024-01-01T00:00:00.000000+00:00')"
                )
    finally:
        await db.close()


async def test_a_transaction_that_raises_writes_nothing(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO players (id, name, created_at, updated_at) "
                    "VALUES (1, 'a', 'x', 'x')"
                )
                raise RuntimeError("boom")
        assert await db.fetchall("SELECT * FROM players") == []
    finally:
        await db.close()


async def test_migration_files_are_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE a (id INTEGER);\n")
    (tmp_path / "0003_third.sql").write_text("CREATE TABLE b (id INTEGER);\n")
    with pytest.raises(ValueError, match="0002"):
        load_migrations(tmp_path)


async def test_the_move_log_is_append_only(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    for statement in (
        "DELETE FROM moves",
        "UPDATE moves SET ptn = 'b1' WHERE ply = 1",
        "UPDATE moves SET played_at = 'later' WHERE ply = 1",
    ):
        with pytest.raises(REFUSED_BY_SCHEMA, match="append-only"):
            async with services.db.transaction() as tx:
                await tx.execute(statement)
    async with services.db.transaction() as tx:
        await tx.execute("UPDATE moves SET undone_at = 'now' WHERE ply = 2")
    with pytest.raises(REFUSED_BY_SCHEMA, match="append-only"):
        async with services.db.transaction() as tx:
            await tx.execute("UPDATE moves SET undone_at = 'again' WHERE ply = 2")
    rows = await services.db.fetchall("SELECT ply, ptn FROM moves ORDER BY id")
    assert [(r["ply"], r["ptn"]) for r in rows] == [(1, "a1"), (2, "e5")]


async def test_a_game_advances_one_logged_ply_at_a_time(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1")
    for statement in (
        "UPDATE games SET ply = ply + 2, last_ptn = 'b2', last_player_id = 202",
        "UPDATE games SET ply = ply + 1, last_ptn = NULL",
    ):
        with pytest.raises(REFUSED_BY_SCHEMA, match="one ply at a time"):
            async with services.db.transaction() as tx:
                await tx.execute(statement)
    rows = await services.db.fetchall("SELECT ply FROM moves")
    assert [r["ply"] for r in rows] == [1]


async def test_a_cancelled_transaction_leaves_the_connection_usable(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        entered = asyncio.Event()

        async def slow_writer() -> None:
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO players (id, name, created_at, updated_at) "
                    "VALUES (1, 'a', 'x', 'x')"
                )
                entered.set()
                await asyncio.sleep(10)

        task = asyncio.create_task(slow_writer())
        await entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await db.fetchall("SELECT * FROM players") == []
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO players (id, name, created_at, updated_at) VALUES (2, 'b', 'x', 'x')"
            )
        assert [r["id"] for r in await db.fetchall("SELECT id FROM players")] == [2]
    finally:
        await db.close()
