"""The PostgreSQL store's own behaviour, on the real test server: its schema against SQLite's, its
migrations and version table, the rules the database enforces, and PostgreSQL's refusals turned
into Bredon's (busy, unreachable, newer schema)."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot import errors
from bot.services import Services
from bot.store import Database, Migration, NewerSchema, StoreError, load_migrations, postgres
from bot.store.base import postgres_migrations
from bot.store.postgres import PostgresTransaction
from bot.timekeeping.clock import FakeClock
from tests.bot.conftest import play, start_game
from tests.databases import (
    POSTGRES,
    REFUSED_BY_SCHEMA,
    create_postgres_database,
    drop_postgres_database,
    with_database,
)

pytestmark = pytest.mark.postgres_only

# Columns PostgreSQL has where SQLite orders by its implicit rowid (0020_schema.sql).
ROWID_TABLES = {"rating_changes", "tournament_players", "tournament_replacements"}


@pytest.fixture
async def url() -> AsyncIterator[str]:
    made = await create_postgres_database()
    yield made
    await drop_postgres_database(made)


def sqlite_schema(tmp_path: Path) -> tuple[dict[str, list[str]], set[str]]:
    """{table: columns in order} and the index names of SQLite's schema after every migration."""
    with sqlite3.connect(tmp_path / "schema.sqlite3") as connection:
        for migration in load_migrations():
            connection.executescript(migration.script)
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        columns = {
            table: [row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')]
            for table in tables
        }
        indexes = {
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    return columns, indexes


async def test_the_schema_is_sqlites_table_for_table_column_for_column(
    url: str, tmp_path: Path
) -> None:
    db = await Database.open(url)
    try:
        rows = await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
        indexes = await db.fetchall(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
            "AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'"
        )
    finally:
        await db.close()
    columns: dict[str, list[str]] = {}
    for row in rows:
        columns.setdefault(row["table_name"], []).append(row["column_name"])
    expected_columns, expected_indexes = sqlite_schema(tmp_path)
    for table in ROWID_TABLES:
        expected_columns[table] = ["rowid", *expected_columns[table]]
    assert columns == {**expected_columns, "bredon_schema": ["version", "single"]}
    assert {row["indexname"] for row in indexes} == expected_indexes


async def test_migrations_reach_the_latest_version_once_even_when_processes_start_together(
    url: str,
) -> None:
    opened = await asyncio.gather(*(Database.open(url) for _ in range(3)))
    try:
        latest = postgres_migrations()[-1].version
        assert latest == load_migrations()[-1].version  # one history for both engines
        assert [await db.schema_version() for db in opened] == [latest] * 3
        assert await opened[0].migrate(postgres_migrations()) == []
        rows = await opened[0].fetchall("SELECT version FROM bredon_schema")
        assert [row["version"] for row in rows] == [latest]
    finally:
        for db in opened:
            await db.close()


async def test_a_failing_migration_leaves_the_database_as_it_was(url: str) -> None:
    db = await Database.open(url)
    try:
        version = await db.schema_version()
        broken = Migration(
            version + 1,
            "broken",
            "CREATE TABLE half_done (id BIGINT); INSERT INTO no_such_table VALUES (1);",
        )
        with pytest.raises(asyncpg.UndefinedTableError):
            await db.migrate([*postgres_migrations(), broken])
        assert await db.schema_version() == version
        row = await db.fetchone("SELECT to_regclass('half_done') IS NULL")
        assert row is not None and row[0] is True
    finally:
        await db.close()


async def test_an_upgrade_and_its_kept_copy_may_take_longer_than_any_other_call(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every other call is bounded by a few seconds; an upgrade is not: copying a big table
    before the migrations, or a migration building an index, takes as long as it takes. Here
    both take longer than the (shortened) time-out: a row whose check sleeps, and a migration
    that sleeps."""
    monkeypatch.setattr(postgres, "STATEMENT_GRACE", 0.0)
    monkeypatch.setattr(postgres, "COMMAND_TIMEOUT", 0.1)
    db = await Database.open(url, busy_timeout=0.1)
    version = await db.schema_version()
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(
            "CREATE FUNCTION slowly(x BIGINT) RETURNS BOOLEAN LANGUAGE SQL "
            "AS 'SELECT pg_sleep(0.5) IS NOT NULL'; "
            "CREATE TABLE slow_rows (x BIGINT CHECK (slowly(x))); "
            "INSERT INTO slow_rows VALUES (1)"
        )
    finally:
        await connection.close()
    slow = Migration(version + 1, "slow", "SELECT pg_sleep(0.5)")
    try:
        assert await db.migrate([*postgres_migrations(), slow]) == [version + 1]
        assert await db.schema_version() == version + 1
        assert db.kept_copy is not None
        row = await db.fetchone(f'SELECT COUNT(*) FROM "{db.kept_copy}".slow_rows')
        assert row is not None and row[0] == 1
    finally:
        await db.close()


async def test_a_listener_that_cannot_connect_refuses_no_write(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listening connection failing while the pool works (its own connection refused) is
    no outage: a writer queued behind another waits its turn rather than being refused as if
    the server could not be reached."""
    db = await Database.open(url)
    holding, go_on = asyncio.Event(), asyncio.Event()

    async def hold_the_turn() -> None:
        async with db.transaction() as tx:
            await tx.execute("UPDATE bredon_schema SET version = version")
            holding.set()
            await go_on.wait()

    async def refused(*args: object, **kwargs: object) -> None:
        raise OSError("connection refused (a test)")

    try:
        holder = asyncio.create_task(hold_the_turn())
        await holding.wait()
        monkeypatch.setattr(postgres.asyncpg, "connect", refused)
        assert not await db._connect_listener(again=True)
        queued = asyncio.create_task(db.write_one("UPDATE bredon_schema SET version = version"))
        await asyncio.sleep(0)  # it asks for the turn, held by the holder
        go_on.set()
        await asyncio.gather(holder, queued)
        assert db.availability.problem is None
    finally:
        await db.close()


async def test_a_database_migrated_by_a_newer_bredon_is_refused_and_left_alone(url: str) -> None:
    db = await Database.open(url)
    known = await db.schema_version()
    await db.write_one("UPDATE bredon_schema SET version = ?", (known + 5,))
    # A process still running notices at its next look, and stops rather than write.
    with pytest.raises(NewerSchema):
        await db.check_in_place()
    await db.close()
    with pytest.raises(NewerSchema, match=f"schema version {known + 5}"):
        await Database.open(url)
    connection = await asyncpg.connect(url)
    try:
        assert await connection.fetchval("SELECT version FROM bredon_schema") == known + 5
    finally:
        await connection.close()


async def test_the_append_only_tables_refuse_truncate_too(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    for table in ("moves", "ledger", "tournament_log"):
        with pytest.raises(REFUSED_BY_SCHEMA, match="append-only"):
            await services.db.write_one(f"TRUNCATE {table} CASCADE")
    rows = await services.db.fetchall("SELECT ply FROM moves ORDER BY id")
    assert [row["ply"] for row in rows] == [1, 2]


async def test_a_write_that_another_process_makes_impossible_is_refused_as_busy(
    url: str,
) -> None:
    """Two stores stand for two processes. The first reads a row, the second changes it and
    commits, then the first writes on what it read: PostgreSQL cannot run the two as if one
    after the other, so the first is rolled back and refused as busy."""
    first, second = await Database.open(url), await Database.open(url)
    try:
        await first.write_one(
            "INSERT INTO wallet_settings (guild_id, ante) VALUES (1, 10), (2, 10)"
        )
        with pytest.raises(errors.StoreBusy):
            async with first.transaction() as tx:
                row = await tx.fetchone("SELECT ante FROM wallet_settings WHERE guild_id = 1")
                assert row is not None
                async with second.transaction() as other:
                    await other.execute("UPDATE wallet_settings SET ante = 20 WHERE guild_id = 1")
                await tx.execute(
                    "UPDATE wallet_settings SET ante = ? WHERE guild_id = 1", (row["ante"] + 1,)
                )
        rows = await first.fetchall("SELECT guild_id, ante FROM wallet_settings ORDER BY 1")
        assert [tuple(row) for row in rows] == [(1, 20), (2, 10)]
    finally:
        await first.close()
        await second.close()


async def test_a_row_locked_for_longer_than_the_busy_timeout_is_refused_as_busy(
    url: str,
) -> None:
    db = await Database.open(url, busy_timeout=0.2)
    holder = await asyncpg.connect(url)
    try:
        await db.write_one("INSERT INTO wallet_settings (guild_id) VALUES (1)")
        async with holder.transaction():
            await holder.execute("SELECT * FROM wallet_settings WHERE guild_id = 1 FOR UPDATE")
            with pytest.raises(errors.StoreBusy):
                async with db.transaction() as tx:
                    await tx.execute("UPDATE wallet_settings SET ante = 3 WHERE guild_id = 1")
        # Once the other lets go, the same write goes through.
        async with db.transaction() as tx:
            assert await tx.execute("UPDATE wallet_settings SET ante = 3 WHERE guild_id = 1") == 1
    finally:
        await holder.close()
        await db.close()


async def test_sums_come_back_as_numbers_sqlite_would_give(url: str) -> None:
    db = await Database.open(url)
    try:
        row = await db.fetchone(
            "SELECT SUM(x), AVG(x), SUM(y) FROM (VALUES (1, 0.5), (2, 1.0)) t(x, y)"
        )
        assert row is not None
        assert (row[0], row[1], row[2]) == (3, 1.5, 1.5)
        assert type(row[0]) is int
    finally:
        await db.close()


async def test_an_unreachable_server_or_a_wrong_database_is_a_sentence_with_no_password() -> None:
    with socket_closed_port() as port:
        unreachable = f"postgresql://bredon:hunter2@127.0.0.1:{port}/bredon"
        with pytest.raises(StoreError, match="Cannot connect to PostgreSQL") as caught:
            await Database.open(unreachable)
    assert "hunter2" not in str(caught.value)
    missing = with_database(POSTGRES, "no_such_database_here")
    with pytest.raises(StoreError, match=r"does not exist.*BREDON_DATABASE names it"):
        await Database.open(missing)


class socket_closed_port:
    """A local port nobody listens on, for as long as the block runs."""

    def __enter__(self) -> int:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        return int(self._socket.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self._socket.close()


async def test_a_role_that_may_only_read_and_write_rows_runs_bredon(url: str) -> None:
    """Migrated once by its owner, the database is used by a role without the right to create
    anything: opening it only reads the version. Where that role would have to create Bredon's
    tables, it is refused with a sentence saying what to grant."""
    await (await Database.open(url)).close()
    role = f"bredon_rows_{uuid.uuid4().hex[:8]}"
    owner = await asyncpg.connect(url)
    fresh = await create_postgres_database()
    try:
        await owner.execute(f'CREATE ROLE "{role}" LOGIN')
        for grant in (
            "USAGE ON SCHEMA public",
            "SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public",
            "USAGE ON ALL SEQUENCES IN SCHEMA public",
        ):
            await owner.execute(f'GRANT {grant} TO "{role}"')
        as_role = url.replace("://bredon@", f"://{role}@", 1)
        services = await Services.open(as_role, clock=FakeClock())
        try:
            game = await start_game(services)
            await play(services, game.id, "a1 e5")
            assert (await services.games.get(game.id)).ply == 2
        finally:
            await services.close()
        with pytest.raises(StoreError, match=r"refused to set up Bredon's tables.*GRANT CREATE"):
            await Database.open(fresh.replace("://bredon@", f"://{role}@", 1))
    finally:
        await drop_postgres_database(fresh)
        await owner.execute(f'DROP OWNED BY "{role}"')
        await owner.execute(f'DROP ROLE "{role}"')
        await owner.close()


async def test_writers_queued_behind_one_refused_for_a_held_lock_are_refused_at_once(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds a row past the busy timeout: the first writer here waits it out
    and is refused; the writers that queued behind it are refused without waiting in turn (their
    statements never reach the server), and a writer that comes afterwards is served."""
    db = await Database.open(url, busy_timeout=0.3)
    holder = await asyncpg.connect(url)
    reached = 0
    original = PostgresTransaction.execute

    async def counted(self, sql, params=()):
        nonlocal reached
        reached += 1
        return await original(self, sql, params)

    async def write() -> None:
        async with db.transaction() as tx:
            await tx.execute("UPDATE wallet_settings SET ante = ante + 1 WHERE guild_id = 1")

    try:
        await db.write_one("INSERT INTO wallet_settings (guild_id) VALUES (1)")
        monkeypatch.setattr(PostgresTransaction, "execute", counted)
        async with holder.transaction():
            await holder.execute("SELECT * FROM wallet_settings WHERE guild_id = 1 FOR UPDATE")
            outcomes = await asyncio.gather(*(write() for _ in range(3)), return_exceptions=True)
        assert [type(outcome) for outcome in outcomes] == [errors.StoreBusy] * 3
        assert reached == 1
        await write()  # the lock let go: served
        row = await db.fetchone("SELECT ante FROM wallet_settings WHERE guild_id = 1")
        assert row is not None and row["ante"] == 11
    finally:
        await holder.close()
        await db.close()
