"""The SQLite store: one file, WAL, foreign keys, numbered migrations, serialised transactions.

Schema changes live in ``bot/migrations/NNNN_name.sql``. At start-up every file whose number is
above ``PRAGMA user_version`` is applied in its own ``BEGIN IMMEDIATE`` transaction that also
sets ``user_version``, so a migration is applied entirely or not at all, and re-running them
changes nothing.

Concurrency: aiosqlite gives the connection its own thread, and coroutines sharing it would
interleave their statements between awaits. :meth:`Database.transaction` therefore holds an
``asyncio.Lock`` for the whole unit and opens it with ``BEGIN IMMEDIATE``, which takes SQLite's
write lock at once, so writers in other processes on the same file are serialised too (they wait
up to the busy timeout). Services check what they rely on (a game's ply, a challenge's status)
inside the transaction.

Times are stored as ISO-8601 UTC text with microseconds (:func:`to_db`), which sorts in time
order, so deadlines compare with plain ``<=`` in SQL.

``synchronous=FULL`` in WAL mode: a committed transaction (an accepted move) survives a crash of the
process and also a power cut or OS crash. It costs about a quarter of the move throughput against
NORMAL (benchmarks/service.py: 730 against 940 moves/s, p99 4.8 ms), well within the targets.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
DEFAULT_PATH = Path("bredon.sqlite3")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

Params = Sequence[Any]


def to_db(moment: datetime) -> str:
    """An aware datetime as the store's UTC text."""
    if moment.tzinfo is None:
        raise ValueError("Times must be timezone-aware.")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_db(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in order; their numbers must run 1, 2, 3... without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise ValueError(f"Migration file name {path.name!r} is not NNNN_name.sql.")
        statements = tuple(_split_statements(path.read_text(encoding="utf-8")))
        migrations.append(Migration(int(match[1]), path.stem, statements))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(f"Migration {migration.name} should be numbered {expected:04d}.")
    return migrations


def _split_statements(script: str) -> Iterable[str]:
    """Complete SQL statements, whole triggers included (sqlite3 decides where one ends)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statement = pending.strip()
            pending = ""
            if not all(part.strip().startswith("--") for part in statement.splitlines()):
                yield statement
    if pending.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in pending.splitlines()
    ):
        raise ValueError(f"Unterminated SQL statement in a migration: {pending.strip()[:60]!r}")


class Transaction:
    """Statements run inside one open transaction; only :meth:`Database.transaction` makes it."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> aiosqlite.Cursor:
        """Run a statement; the cursor gives ``lastrowid`` and ``rowcount``."""
        return await self._connection.execute(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self._connection.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._connection.execute_fetchall(sql, params)
        return next(iter(rows), None)


class Database:
    """One connection to the bot's SQLite file. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        busy_timeout: float = 10.0,
        migrations: list[Migration] | None = None,
    ) -> Database:
        """Open (creating if needed) the file, set it up and bring its schema up to date."""
        path = Path(path)
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            # These pragmas answer with a row: fetch it, or its open statement blocks COMMIT.
            await connection.execute_fetchall("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA synchronous = FULL")
            await connection.execute("PRAGMA foreign_keys = ON")
            database = cls(connection, path)
            await database.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        async with self._lock:
            await self._connection.close()

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def migrate(self, migrations: list[Migration]) -> list[int]:
        """Apply the migrations above the file's version; returns the versions applied."""
        applied = []
        for migration in migrations:
            async with self.transaction() as tx:
                row = await tx.fetchone("PRAGMA user_version")
                assert row is not None
                if row[0] >= migration.version:
                    continue
                for statement in migration.statements:
                    await tx.execute(statement)
                # PRAGMA takes no parameters; the version is an int from a file name.
                await tx.execute(f"PRAGMA user_version = {int(migration.version)}")
            applied.append(migration.version)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: committed if the block ends normally, rolled back if it raises."""
        async with self._lock:
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
                yield Transaction(self._connection)
                await self._connection.commit()
            except BaseException:
                # Unconditional: the connection's thread runs this after anything queued before
                # (even a BEGIN whose caller was cancelled), and it is a no-op with no transaction.
                await self._connection.rollback()
                raise

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Transaction]:
        """A read transaction: every query in the block sees the same committed state."""
        async with self._lock:
            try:
                await self._connection.execute("BEGIN")
                yield Transaction(self._connection)
            finally:
                await self._connection.rollback()

    async def write_one(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run one writing statement on its own: SQLite commits it (with what its triggers do)
        entirely or not at all. For hot paths where one conditional statement is the whole
        change; ``RETURNING`` rows come back."""
        async with self._lock:
            return list(await self._connection.execute_fetchall(sql, params))

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._connection.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
