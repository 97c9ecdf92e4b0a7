"""`python -m bot check`: what an operator wants to know about a database file before trusting
it (after a restore, before an upgrade, from a health check): its schema version against this
code's, SQLite's full integrity check, and what it holds.

The file is opened read-only and never created, migrated or changed, so it can be checked while
the bot runs, and a backup can be checked before it is put in place; nothing is left beside it.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from bot.store import DEFAULT_BUSY_TIMEOUT, load_migrations

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
    path: Path
    version: int
    known: int  # the newest schema this code has
    integrity: list[str]  # ["ok"], or SQLite's list of problems
    counts: dict[str, int]

    @property
    def problems(self) -> list[str]:
        found = []
        if self.integrity != ["ok"]:
            found.append(
                f"integrity check failed ({'; '.join(self.integrity[:5])}): restore a backup"
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
            schema = (
                "schema version 0: not set up (this Bredon creates its tables at its next start)"
            )
        elif self.version < self.known:
            schema = (
                f"schema version {self.version}; this Bredon will upgrade it to {self.known} "
                "at its next start (keeping a copy of the file as it was)"
            )
        else:
            schema = f"schema version {self.version}; this Bredon knows up to {self.known}"
        integrity = "ok" if self.integrity == ["ok"] else "FAILED"
        return [
            f"{self.path}: {schema}",
            f"integrity check: {integrity}",
            *(f"{label}: {count:,}" for label, count in self.counts.items()),
        ]


WAL_FILES = ("-wal", "-shm")


def _companion(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


class NotInspectable(Exception):
    """The file cannot be read as a database at all; the message says why."""


def inspect_database(path: Path) -> DatabaseReport:
    if not path.is_file():
        raise NotInspectable(f"There is no database at {path}: check BREDON_DATABASE.")
    uri = f"{path.absolute().as_uri()}?mode=ro"
    if not any(_companion(path, suffix).exists() for suffix in WAL_FILES):
        # No write-ahead log: no process has the file open (the bot keeps both files while it
        # runs), and all of it is in the file. Read-only, SQLite would still create the log and
        # its index beside it, and leave them; immutable, it reads the file alone.
        uri += "&immutable=1"
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=DEFAULT_BUSY_TIMEOUT)) as db:
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
            if integrity == ["ok"]:
                for label, table, query in COUNTS:
                    if table in tables:
                        counts[label] = int(db.execute(query).fetchone()[0])
    except sqlite3.OperationalError as error:  # locked past the busy timeout, unreadable
        raise NotInspectable(f"{path} cannot be read: {error}.") from None
    return DatabaseReport(path, version, len(load_migrations()), integrity, counts)
