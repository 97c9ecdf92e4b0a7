"""`python -m bot check`: what an operator wants to know about a database before trusting it
(after a restore or a copy, before an upgrade, from a health check): its schema version against
this code's, SQLite's full integrity check (a SQLite file), the rules between tables that the
schema's triggers keep (:mod:`bot.store.consistency`: balances and pots against the ledger,
games' plies against their moves), and what it holds.

A SQLite file is opened read-only and never created, migrated or changed, so it can be checked
while the bot runs, and a backup can be checked before it is put in place; nothing is left beside
it. A PostgreSQL database is read in one read-only transaction, also beside a running bot.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.store import DEFAULT_BUSY_TIMEOUT, Database, is_postgres, load_migrations, shown_location
from bot.store.base import postgres_migrations
from bot.store.consistency import applicable, describe
from bot.store.copying import PostgresSide
from bot.store.sqlite import read_only_uri

# What the report counts: a label and the query, for the tables the file's schema has.
COUNTS = (
    ("active games", "games", "SELECT COUNT(*) FROM games WHERE status = 'active'"),
    ("finished games", "games", "SELECT COUNT(*) FROM games WHERE status = 'finished'"),
    ("aborted games", "games", "SELECT COUNT(*) FROM games WHERE status = 'aborted'"),
    ("players", "players", "SELECT COUNT(*) FROM players"),
    ("tournaments", "tournaments", "SELECT COUNT(*) FROM tournaments"),
    (
        "undelivered announcements",
        "outbox",
        "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL",
    ),
)


@dataclass(frozen=True, slots=True)
class DatabaseReport:
    location: str  # a path, or a URL without its password
    version: int
    known: int  # the newest schema this code has
    integrity: list[str] | None  # ["ok"], or SQLite's list of problems; None: PostgreSQL
    counts: dict[str, int]
    broken: dict[str, int]  # each consistency check that could run: how many rows break it

    @property
    def postgres(self) -> bool:
        return self.integrity is None

    @property
    def problems(self) -> list[str]:
        found = []
        if self.integrity not in (None, ["ok"]):
            found.append(
                f"integrity check failed ({'; '.join(self.integrity[:5])}): restore a backup"
            )
        found.extend(
            f"{broken} (changed outside Bredon? restore a backup)"
            for broken in describe(self.broken)
        )
        if self.version > self.known:
            found.append(
                f"schema version {self.version} is newer than this Bredon's ({self.known}): "
                "upgrade Bredon, or restore a backup made by this version"
            )
        return found

    def lines(self) -> list[str]:
        if self.version == self.known:
            schema = f"schema version {self.version} (this Bredon's)"
        elif self.version == 0:
            schema = "schema version 0: not set up (`python -m bot init` creates Bredon's tables)"
        elif self.version < self.known:
            schema = (
                f"schema version {self.version}; `python -m bot migrate` upgrades it to "
                f"{self.known}, keeping a copy first"
            )
        else:
            schema = f"schema version {self.version}; this Bredon knows up to {self.known}"
        lines = [f"{self.location}: {schema}"]
        if self.integrity is not None:
            lines.append(f"integrity check: {'ok' if self.integrity == ['ok'] else 'FAILED'}")
        if self.broken:
            lines.append(f"consistency check: {'FAILED' if any(self.broken.values()) else 'ok'}")
        return [*lines, *(f"{label}: {count:,}" for label, count in self.counts.items())]


class NotInspectable(Exception):
    """The database cannot be read at all; the message says why."""


def inspect_database(location: Path | str) -> DatabaseReport:
    """The report on a SQLite file or a PostgreSQL database (a ``postgresql://`` URL)."""
    if isinstance(location, str) and is_postgres(location):
        return asyncio.run(inspect_postgres(location))
    return inspect_sqlite(Path(location))


def inspect_sqlite(path: Path) -> DatabaseReport:
    if not path.is_file():
        raise NotInspectable(f"There is no database at {path}: check BREDON_DATABASE.")
    try:
        with closing(
            sqlite3.connect(read_only_uri(path), uri=True, timeout=DEFAULT_BUSY_TIMEOUT)
        ) as db:
            try:
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_schema")}
            except sqlite3.DatabaseError as error:
                raise NotInspectable(
                    f"{path} cannot be read as a SQLite database: {error}."
                ) from None
            try:
                integrity = [str(row[0]) for row in db.execute("PRAGMA integrity_check(20)")]
            except sqlite3.DatabaseError as error:  # damage the check itself stumbles on
                integrity = [str(error)]
            counts = {}
            broken = {}
            if integrity == ["ok"]:
                db.execute("BEGIN")  # one snapshot for what follows, beside a running bot
                for label, table, query in COUNTS:
                    if table in tables:
                        counts[label] = int(db.execute(query).fetchone()[0])
                for check in applicable(tables, version):
                    broken[check.broken] = int(db.execute(check.query).fetchone()[0])
    except sqlite3.OperationalError as error:  # locked past the busy timeout, unreadable
        raise NotInspectable(f"{path} cannot be read: {error}.") from None
    return DatabaseReport(str(path), version, len(load_migrations()), integrity, counts, broken)


async def inspect_postgres(url: str) -> DatabaseReport:
    shown = shown_location(url)
    try:
        connection = await asyncpg.connect(url, timeout=30)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise NotInspectable(f"Cannot connect to PostgreSQL at {shown}: {error}.") from None
    database = PostgresSide(connection, url)
    try:
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            version = await database.version()
            tables = await database.tables()
            counts = {
                label: await database.scalar(query)
                for label, table, query in COUNTS
                if table in tables
            }
            broken = await database.broken_rules(tables)
    except asyncpg.PostgresError as error:
        raise NotInspectable(f"PostgreSQL at {shown} cannot be read: {error}.") from None
    finally:
        await connection.close()
    known = postgres_migrations()[-1].version
    return DatabaseReport(shown, version, known, None, counts, broken)


async def described(db: Database) -> str:
    """The start-up line: which database (a URL without its password), its schema version and
    what it holds, so that an operator sees at once whether it is the one they meant."""
    counts = [
        f"{label} {(await db.fetchone(query) or [0])[0]:,}"
        for label, table, query in COUNTS
        if await db.fetchone(_HAS_TABLE[db.engine], (table,))
    ]
    return f"Database {db.location}: schema version {await db.schema_version()}; " + (
        ", ".join(counts) + "."
    )


_HAS_TABLE = {
    "sqlite": "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
    "postgresql": "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?",
}
