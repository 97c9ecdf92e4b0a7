"""`python -m bot copy SOURCE TARGET`: an installation moved from a SQLite file to a PostgreSQL
server or back, every row of every table with its ids, checked before it is committed.

- The source is read in one snapshot (one read transaction), so a bot may go on running on it;
  what it writes after the snapshot began is not copied (stop the bot first to move everything).
  Nothing is written to the source.
- The target is created (or migrated from nothing) to the source's schema version, which must
  be this Bredon's: an older source is upgraded first with ``python -m bot migrate``. A target that
  has another version, or holds any row, is refused as it is.
- One transaction on the target: a copy that fails leaves it empty. Tables go in an order where
  each comes after the tables it refers to, rows in key order (the outbox refers to its own
  earlier rows), in batches (``executemany`` on SQLite, ``COPY`` on PostgreSQL).
- The schema's triggers would apply every copied ledger row to a balance that is already copied
  (and refuse wallets and pots that do not open empty), so on the target they are off while the
  rows go in, and rows are copied exactly as stored. On PostgreSQL ``ALTER TABLE ... DISABLE
  TRIGGER USER``: the table's owner (the user Bredon migrates with) may do it, unlike
  ``session_replication_role``, which needs a superuser, and foreign keys stay checked. SQLite
  cannot disable a trigger, so they are dropped and re-created from their own SQL; both happen
  inside the copy's transaction, so no other connection ever sees the tables without them.
- Three PostgreSQL tables keep as a ``rowid`` column the order SQLite keeps in its implicit rowid
  (rating_changes, tournament_players, tournament_replacements): it is copied to and from it.
- After a copy into PostgreSQL each identity column's sequence continues after the highest id
  copied, so new rows get new ids (SQLite continues after the highest rowid by itself).
- Before committing, each table's row count and the consistency checks
  (:mod:`bot.store.consistency`) are compared between the source and the target.

Also here, as the other writer of tables named at run time: the copy of every table a PostgreSQL
database keeps in a schema of its own before its migrations (:func:`keep_postgres_copy`).
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, closing
from dataclasses import dataclass
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.base import (
    MIGRATION_TIMEOUT,
    Database,
    StoreError,
    load_migrations,
    postgres_migrations,
    shown_location,
)
from bot.store.consistency import applicable, describe
from bot.store.sqlite import read_only_uri

BATCH_ROWS = 5000
Rows = list[Any]  # rows as a driver gives them: tuples from sqlite3, Records from asyncpg
_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")
# PostgreSQL's version table is not copied: each engine keeps its schema version its own way.
_NOT_BREDONS = {"bredon_schema"}


class CopyError(Exception):
    """The copy was refused or failed, and the target is as it was (a new one left empty); the
    message says what to do."""


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table as both engines have it: the columns to copy (``rowid`` included where
    PostgreSQL keeps SQLite's implicit one) and the order to read its rows in."""

    name: str
    columns: tuple[str, ...]
    order_by: tuple[str, ...]

    @property
    def select(self) -> str:
        return (
            f"SELECT {', '.join(_quoted(c) for c in self.columns)} FROM {_quoted(self.name)} "
            f"ORDER BY {', '.join(_quoted(c) for c in self.order_by)}"
        )


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: str
    target: str
    version: int
    counts: dict[str, tuple[int, int]]  # table -> rows in the source, rows in the target
    source_problems: list[str]  # rules the source breaks, copied as they are

    def lines(self) -> list[str]:
        width = max(len(table) for table in [*self.counts, "table"])
        return [
            f"Copied {self.source} to {self.target} (schema version {self.version}).",
            f"{'table':<{width}}  {'source':>9}  {'target':>9}",
            *(
                f"{table:<{width}}  {source:>9,}  {target:>9,}"
                for table, (source, target) in self.counts.items()
            ),
            "Verified: every table holds as many rows as in the source, and balances, pots and "
            "plies agree as they do there.",
        ]


def _quoted(identifier: str) -> str:
    if not _IDENTIFIER.match(identifier):
        raise CopyError(f"Unexpected name {identifier!r} in the schema: this is not Bredon's.")
    return f'"{identifier}"'


class Side(ABC):
    """A database on one open connection, as `copy` (either end) and `check` read it."""

    location: str  # as it may be printed
    engine: str  # as an operator names it

    @abstractmethod
    async def fetch(self, sql: str) -> Rows: ...

    @abstractmethod
    async def version(self) -> int: ...

    @abstractmethod
    async def tables(self) -> set[str]: ...

    @abstractmethod
    def batches(self, plan: TablePlan) -> AsyncIterator[Rows]: ...

    async def scalar(self, sql: str) -> int:
        return int((await self.fetch(sql))[0][0])

    async def counts(self, tables: Sequence[str]) -> dict[str, int]:
        return {
            table: await self.scalar(f"SELECT COUNT(*) FROM {_quoted(table)}") for table in tables
        }

    async def broken_rules(self, tables: set[str]) -> dict[str, int]:
        version = await self.version()
        return {
            check.broken: await self.scalar(check.query) for check in applicable(tables, version)
        }


class SqliteSide(Side):
    """A SQLite file through :mod:`sqlite3`, used synchronously: the command runs alone."""

    engine = "SQLite"

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._connection = connection
        self.location = str(path)
        self._triggers: list[tuple[str, str]] = []

    async def fetch(self, sql: str) -> Rows:
        return self._connection.execute(sql).fetchall()

    async def version(self) -> int:
        return await self.scalar("PRAGMA user_version")

    async def tables(self) -> set[str]:
        rows = await self.fetch(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
            "ESCAPE '\\'"
        )
        return {str(row[0]) for row in rows} - _NOT_BREDONS

    def columns(self, table: str) -> list[tuple[str, int]]:
        """Each column's name and its place in the primary key (0: not in it)."""
        rows = self._connection.execute(
            "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (table,)
        )
        return [(str(name), int(pk)) for name, pk in rows]

    def references(self) -> dict[str, set[str]]:
        """The tables each table refers to by a foreign key."""
        rows = self._connection.execute(
            'SELECT m.name, f."table" FROM sqlite_schema m, pragma_foreign_key_list(m.name) f '
            "WHERE m.type = 'table'"
        )
        found: dict[str, set[str]] = {}
        for table, parent in rows:
            found.setdefault(str(table), set()).add(str(parent))
        return found

    async def batches(self, plan: TablePlan) -> AsyncIterator[Rows]:
        cursor = self._connection.execute(plan.select)
        while rows := cursor.fetchmany(BATCH_ROWS):
            yield rows

    async def begin(self, tables: Sequence[str]) -> None:
        """The copy's transaction, with the write lock taken at once."""
        self._connection.execute("BEGIN IMMEDIATE")

    async def triggers_off(self, tables: Sequence[str]) -> None:
        """SQLite cannot disable a trigger: they are dropped, kept to be made again."""
        self._triggers = self._connection.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name"
        ).fetchall()
        for name, _ in self._triggers:
            self._connection.execute(f"DROP TRIGGER {_quoted(name)}")

    async def rows_written(self, tables: Sequence[str]) -> None:
        for _, sql in self._triggers:
            self._connection.execute(sql)

    async def commit(self) -> None:
        self._connection.execute("COMMIT")

    async def rollback(self) -> None:
        if self._connection.in_transaction:
            self._connection.execute("ROLLBACK")

    async def write(self, plan: TablePlan, rows: Rows) -> None:
        columns = ", ".join(_quoted(c) for c in plan.columns)
        marks = ", ".join("?" for _ in plan.columns)
        self._connection.executemany(
            f"INSERT INTO {_quoted(plan.name)} ({columns}) VALUES ({marks})", rows
        )


class PostgresSide(Side):
    engine = "PostgreSQL"

    def __init__(self, connection: asyncpg.Connection, url: str) -> None:
        self._connection = connection
        self.location = shown_location(url)

    async def fetch(self, sql: str) -> Rows:
        return list(await self._connection.fetch(sql))

    async def version(self) -> int:
        if not await self._connection.fetchval("SELECT to_regclass('bredon_schema') IS NOT NULL"):
            return 0
        return int(await self._connection.fetchval("SELECT version FROM bredon_schema") or 0)

    async def tables(self) -> set[str]:
        rows = await self._connection.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {str(row[0]) for row in rows} - _NOT_BREDONS

    async def columns(self, table: str) -> list[str]:
        rows = await self._connection.fetch(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [str(row[0]) for row in rows]

    async def batches(self, plan: TablePlan) -> AsyncIterator[Rows]:
        cursor = await self._connection.cursor(plan.select)
        while rows := await cursor.fetch(BATCH_ROWS):
            yield rows

    async def begin(self, tables: Sequence[str]) -> None:
        """The copy's transaction; other writers wait until it ends (readers do not)."""
        self._transaction = self._connection.transaction()
        await self._transaction.start()
        await self._connection.execute(
            f"LOCK TABLE {', '.join(_quoted(t) for t in tables)} IN EXCLUSIVE MODE"
        )

    async def triggers_off(self, tables: Sequence[str]) -> None:
        """Bredon's triggers off (those of the foreign keys stay on), in this transaction."""
        for table in tables:
            await self._connection.execute(f"ALTER TABLE {_quoted(table)} DISABLE TRIGGER USER")

    async def rows_written(self, tables: Sequence[str]) -> None:
        for table in tables:
            await self._connection.execute(f"ALTER TABLE {_quoted(table)} ENABLE TRIGGER USER")
        await self._restart_identities()
        # Statistics for the planner (they would come with autovacuum, later): the checks that
        # follow, and the bot's first queries, get the plans of a filled database.
        await self._connection.execute("ANALYZE")

    async def commit(self) -> None:
        await self._transaction.commit()

    async def rollback(self) -> None:
        if self._connection.is_in_transaction():
            await self._transaction.rollback()

    async def write(self, plan: TablePlan, rows: Rows) -> None:
        # COPY writes identity columns as given, GENERATED ALWAYS (rowid) ones too.
        await self._connection.copy_records_to_table(
            plan.name, records=rows, columns=list(plan.columns)
        )

    async def _restart_identities(self) -> None:
        """Each identity column's sequence continues after the highest value in it."""
        rows = await self._connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )
        for table, column in rows:
            await self._connection.execute(
                f"SELECT setval(pg_get_serial_sequence($1, $2), "
                f"COALESCE(MAX({_quoted(column)}), 0) + 1, false) FROM {_quoted(table)}",
                table,
                column,
            )


async def plan_tables(sqlite: SqliteSide, postgres: PostgresSide) -> list[TablePlan]:
    """Every table, each after those it refers to, as both databases have it (which must be
    the same tables and columns: the same schema version makes them so)."""
    tables = await sqlite.tables()
    others = await postgres.tables()
    if tables != others:
        raise CopyError(
            f"The two databases do not have the same tables (differing: "
            f"{', '.join(sorted(tables ^ others))}): this is not the schema Bredon made."
        )
    references = sqlite.references()
    sorter: TopologicalSorter[str] = TopologicalSorter()
    for table in sorted(tables):
        sorter.add(table, *sorted(references.get(table, set()) - {table}))
    plans = []
    for table in sorter.static_order():
        columns = sqlite.columns(table)
        names = [name for name, _ in columns]
        in_postgres = await postgres.columns(table)
        implicit = ["rowid"] if "rowid" in in_postgres and "rowid" not in names else []
        if sorted(in_postgres) != sorted(names + implicit):
            raise CopyError(
                f"The table {table} does not have the same columns in both databases: this is "
                "not the schema Bredon made."
            )
        key = [name for name, place in sorted(columns, key=lambda c: c[1]) if place]
        plans.append(TablePlan(table, tuple(in_postgres), tuple(implicit or key or names)))
    return plans


def _newest_version() -> int:
    """The schema version both engines' migrations reach in this Bredon."""
    return min(load_migrations()[-1].version, postgres_migrations()[-1].version)


def _check_source_version(source: Side, version: int) -> None:
    newest = _newest_version()
    if version == 0:
        raise CopyError(f"{source.location} holds no Bredon database (no schema): nothing to copy.")
    if version < newest:
        raise CopyError(
            f"{source.location} has schema version {version}, older than this Bredon's "
            f"({newest}): upgrade it first with `python -m bot migrate`, then copy."
        )
    if version > newest:
        raise CopyError(
            f"{source.location} has schema version {version}, newer than this Bredon's "
            f"({newest}): copy it with the Bredon that made it."
        )


async def _check_target(target: Side, version: int) -> None:
    """Refuse a target that is not empty or has another schema version; reads only."""
    found = await target.version()
    if found not in (0, version):
        raise CopyError(
            f"{target.location} has schema version {found} and the source {version}: upgrade "
            "the older one first with `python -m bot migrate`, then copy."
        )
    tables = await target.tables()
    if found == 0 and tables:
        raise CopyError(
            f"{target.location} already holds tables ({', '.join(sorted(tables)[:5])}) but no "
            "Bredon schema: copy into an empty database."
        )
    filled = {table: rows for table, rows in (await target.counts(sorted(tables))).items() if rows}
    if filled:
        shown = ", ".join(f"{table} ({rows:,})" for table, rows in sorted(filled.items())[:5])
        raise CopyError(
            f"{target.location} is not empty: it holds rows in {shown}. Copy into an empty "
            "database; nothing was changed."
        )


async def _open_sqlite_target(path: Path, version: int, stack: AsyncExitStack) -> SqliteSide:
    """A write connection to the SQLite target; refused as it is if not empty."""
    if path.exists():
        try:
            with closing(sqlite3.connect(read_only_uri(path), uri=True)) as reading:
                await _check_target(SqliteSide(reading, path), version)
        except sqlite3.DatabaseError as error:
            raise CopyError(f"{path} cannot be read as a SQLite database: {error}.") from None
    elif not path.parent.is_dir():
        raise CopyError(f"The folder {path.parent} does not exist: create it first.")
    await (await Database.open(path)).close()  # created, migrated
    connection = sqlite3.connect(path, isolation_level=None)
    stack.callback(connection.close)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA synchronous = FULL")
    return SqliteSide(connection, path)


async def _connect_postgres(url: str, stack: AsyncExitStack) -> asyncpg.Connection:
    try:
        connection = await asyncpg.connect(url, timeout=30)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise CopyError(
            f"Cannot connect to PostgreSQL at {shown_location(url)}: {error}."
        ) from None
    stack.push_async_callback(connection.close)
    return connection


async def _read_source(location: Path | str, stack: AsyncExitStack) -> Side:
    """The source, opened for reading in one snapshot that lasts until `stack` closes."""
    if isinstance(location, str):
        connection = await _connect_postgres(location, stack)
        snapshot = connection.transaction(isolation="repeatable_read", readonly=True)
        await snapshot.start()
        stack.push_async_callback(snapshot.rollback)
        return PostgresSide(connection, location)
    if not location.is_file():
        raise CopyError(f"There is no database at {location}: check the source's path.")
    # Read-only, but not "immutable" even when no bot has the file open: one may start during
    # the copy, and the snapshot must hold against its writes and checkpoints.
    uri = f"{location.absolute().as_uri()}?mode=ro"
    reading = sqlite3.connect(uri, uri=True, isolation_level=None)
    stack.callback(reading.close)
    reading.execute("BEGIN")  # one read transaction: one snapshot for every query in it
    return SqliteSide(reading, location)


async def copy_database(source: Path | str, target: Path | str) -> CopyReport:
    """Copy the database at `source` into the new or empty one at `target`: one a SQLite file's
    path, the other a PostgreSQL URL. Raises :class:`CopyError` with what to do."""
    if isinstance(source, Path) == isinstance(target, Path):
        raise CopyError("Copy from a SQLite file to a PostgreSQL URL, or back.")
    try:
        async with AsyncExitStack() as stack:
            reader = await _read_source(source, stack)
            version = await reader.version()
            _check_source_version(reader, version)
            if isinstance(target, str):
                connection = await _connect_postgres(target, stack)
                await _check_target(PostgresSide(connection, target), version)
                await (await Database.open(target)).close()  # created, migrated
                writer: SqliteSide | PostgresSide = PostgresSide(connection, target)
            else:
                writer = await _open_sqlite_target(target, version, stack)
            return await _copy(reader, writer, version)
    except (StoreError, OSError) as error:
        raise CopyError(str(error)) from None
    except (sqlite3.Error, asyncpg.PostgresError) as error:  # before the copy began
        raise CopyError(f"Cannot read the databases: {error}. Nothing was copied.") from None


async def _copy(reader: Side, writer: SqliteSide | PostgresSide, version: int) -> CopyReport:
    if isinstance(writer, PostgresSide):
        assert isinstance(reader, SqliteSide)
        plans = await plan_tables(reader, writer)
    else:
        assert isinstance(reader, PostgresSide)
        plans = await plan_tables(writer, reader)
    names = [plan.name for plan in plans]
    expected = await reader.counts(names)
    source_broken = await reader.broken_rules(set(names))
    try:
        await writer.begin(names)
        try:
            await _check_target(writer, version)  # again, now that no one else can write
            await writer.triggers_off(names)
            for plan in plans:
                async for rows in reader.batches(plan):
                    await writer.write(plan, rows)
            await writer.rows_written(names)
            copied = await writer.counts(names)
            target_broken = await writer.broken_rules(set(names))
            _verify(expected, copied, source_broken, target_broken)
            await writer.commit()
        except BaseException:
            await writer.rollback()
            raise
    except (asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error) as error:
        # InterfaceError: a value the column's type cannot take (asyncpg's DataError).
        raise CopyError(
            f"The copy failed and was undone ({writer.location} is left empty): {error}"
        ) from None
    return CopyReport(
        f"{reader.location} ({reader.engine})",
        f"{writer.location} ({writer.engine})",
        version,
        {name: (expected[name], copied[name]) for name in names},
        describe(source_broken),
    )


def _verify(
    expected: dict[str, int],
    copied: dict[str, int],
    source_broken: dict[str, int],
    target_broken: dict[str, int],
) -> None:
    """Refuse to commit a copy that differs from its source in what can be counted."""
    differing = [name for name in expected if copied[name] != expected[name]]
    if differing:
        raise CopyError(
            "The copy was undone: the row counts of "
            + ", ".join(f"{name} ({expected[name]:,} -> {copied[name]:,})" for name in differing)
            + " differ from the source's. Report this to Bredon's maintainers."
        )
    if target_broken != source_broken:
        found = "; ".join(describe(target_broken)) or "none fail"
        raise CopyError(
            f"The copy was undone: its consistency checks differ from the source's ({found}). "
            "Report this to Bredon's maintainers."
        )


async def keep_postgres_copy(connection: asyncpg.pool.PoolConnectionProxy, version: int) -> str:
    """Copy every table of Bredon's schema, rows, defaults, checks and indexes, into a new schema
    ``bredon_backup_vNN`` of the same database (in the migrations' transaction: kept if they are
    applied), so that an upgrade can be gone back on without pg_dump on the machine; its name.
    Foreign keys are not copied (they would name the live tables); docs/operations.md says how
    to go back to it. A big table takes long to copy: not the few seconds every other call
    gets, but the migrations' own time-out."""
    taken = set(
        await connection.fetchval(
            "SELECT array_agg(nspname) FROM pg_namespace WHERE nspname LIKE 'bredon_backup_v%'"
        )
        or ()
    )
    schema = next(
        name
        for number in range(1, 1000)
        if (name := f"bredon_backup_v{version}" + ("" if number == 1 else f"_{number}"))
        not in taken
    )
    tables = await connection.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
    )
    await connection.execute(f'CREATE SCHEMA "{schema}"')
    for (table,) in tables:
        copy = f'"{schema}"."{table}"'
        await connection.execute(
            f'CREATE TABLE {copy} (LIKE "{table}" INCLUDING ALL)', timeout=MIGRATION_TIMEOUT
        )
        await connection.execute(
            f'INSERT INTO {copy} OVERRIDING SYSTEM VALUE SELECT * FROM "{table}"',
            timeout=MIGRATION_TIMEOUT,
        )
    await connection.execute(f'REVOKE ALL ON SCHEMA "{schema}" FROM PUBLIC')
    return schema
