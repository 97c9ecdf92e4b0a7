"""What every store gives the services, whichever database is behind it.

A store is a :class:`Database`: write transactions (:meth:`Database.transaction`), read
snapshots (:meth:`Database.snapshot`), one self-contained writing statement
(:meth:`Database.write_one`) and single reads. Services write their SQL once, with ``?``
placeholders and the SQL common to SQLite and PostgreSQL; the PostgreSQL store translates the
placeholders. Rows are read by column name or position (:class:`Row`).

Times are stored as ISO-8601 UTC text with microseconds (:func:`to_db`), which sorts in time
order on both engines, so deadlines compare with plain ``<=`` in SQL.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from bot.errors import StoreConflict

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent.parent / "migrations"
POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
MIGRATION_TIMEOUT = 3600.0  # seconds a schema migration may take (a big table's new index)
DEFAULT_PATH = Path("bredon.sqlite3")
DEFAULT_BUSY_TIMEOUT = 2.0
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

Params = Sequence[Any]
CONFLICT_TRIES = 3  # a change refused for a conflict with another process is tried this often
_Result = TypeVar("_Result")


async def retried_on_conflict(attempt: Callable[[], Awaitable[_Result]]) -> _Result:
    """`attempt()`, made again (after a few milliseconds, so that two processes do not collide
    again in step) while the store refuses it for a conflict with another process, which wrote
    nothing (:class:`~bot.errors.StoreConflict`); the last refusal is raised, and the user told
    to try again. PostgreSQL's serializable transactions also refuse changes to neighbouring rows
    (in different games), so a user's move should not be refused for that."""
    for _ in range(CONFLICT_TRIES - 1):
        try:
            return await attempt()
        except StoreConflict:
            await asyncio.sleep(random.uniform(0.001, 0.02))
    return await attempt()


# Called with a notification's payload ("" after the listening connection was lost and made
# again: notifications may have been missed meanwhile).
Listener = Callable[[str], object]


class Row(Protocol):
    """A result row: ``row["column"]`` or ``row[0]`` (Row and asyncpg.Record both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Any: ...


def is_postgres(location: str | Path) -> bool:
    """Whether a BREDON_DATABASE value names a PostgreSQL server rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def shown_location(location: str | Path) -> str:
    """The location as it may be printed: a PostgreSQL URL without its password."""
    text = str(location)
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^@/]*@", r"\1:***@", text)


def private_new_file(target: Path) -> None:
    """Create `target`, empty and readable by its owner only (0600); refused if it exists."""
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise StoreError(f"{target} already exists: name a new file for the backup.") from None


def to_db(moment: datetime) -> str:
    """An aware datetime as the store's UTC text."""
    if moment.tzinfo is None:
        raise ValueError("Times must be timezone-aware.")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def to_db_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else to_db(moment)


def from_db(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    script: str


_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files of a folder in order. Their numbers must follow each other without
    gaps; the first is 1 for SQLite, and PostgreSQL's history starts at the schema it was
    introduced with (one file holding the whole schema as of that version)."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise ValueError(f"Migration file name {path.name!r} is not NNNN_name.sql.")
        migrations.append(Migration(int(match[1]), path.stem, path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(
        migrations, start=migrations[0].version if migrations else 1
    ):
        if migration.version != expected:
            raise ValueError(f"Migration {migration.name} should be numbered {expected:04d}.")
    return migrations


def postgres_migrations() -> list[Migration]:
    return load_migrations(POSTGRES_MIGRATIONS_DIR)


class Availability:
    """Whether the database answers, as the store's own calls find it. An outage begins at the
    first call that cannot reach or write the database and ends at the first that succeeds; it
    is logged once as it begins and once, with how long it lasted, as it ends (no traceback:
    the users were told each time). For whoever keeps an answer that these calls may contradict
    (the health endpoint)."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.problem: str | None = None  # why the database cannot be used now; None: it can
        self.answers = 0  # calls that succeeded
        self._began = 0.0  # time.monotonic() of the outage's first failure
        self._shut = False  # closed by Bredon

    def failed(self, problem: str) -> None:
        if self.problem is None:
            self._began = time.monotonic()
            log.error("%s", problem)
        self.problem = problem

    def closed(self, problem: str) -> None:
        """Bredon closed the store: not an outage (nothing logged), but nothing answers now."""
        self.problem = problem
        self._shut = True

    def succeeded(self) -> None:
        self.answers += 1
        if self.problem is not None and not self._shut:
            self.problem = None
            log.warning(
                "The database at %s answers again, after an outage of %.1f s.",
                self.location,
                time.monotonic() - self._began,
            )


class StoreError(Exception):
    """The database cannot be used as it is: not a refusal to show a user, but a sentence
    for the operator, who has to fix it before Bredon can go on."""


class NewerSchema(StoreError):
    def __init__(self, location: str | Path, version: int, known: int) -> None:
        super().__init__(
            f"{shown_location(location)} has schema version {version}, but this Bredon knows "
            f"up to {known}: upgrade Bredon, or restore a backup made by this version."
        )
        self.version = version
        self.known = known


class NotSetUp(StoreError):
    """No Bredon database where the settings point: created only when asked for, never because a
    path or a name was mistyped."""

    def __init__(self, location: str | Path) -> None:
        super().__init__(
            f"There is no Bredon database at {shown_location(location)}: if BREDON_DATABASE names "
            "your database, check it; to start with a new, empty one, run `python -m bot init` "
            "(docs/operations.md)."
        )


class OlderSchema(StoreError):
    """A database of an older Bredon: migrated only when asked for, after a copy is taken."""

    def __init__(self, location: str | Path, version: int, known: int) -> None:
        super().__init__(
            f"{shown_location(location)} has schema version {version}, older than this Bredon's "
            f"{known}: stop every Bredon process using it, then run `python -m bot migrate` once "
            "(it keeps a copy first), or set BREDON_MIGRATE_ON_START=1 (docs/operations.md, "
            '"Upgrading").'
        )
        self.version = version
        self.known = known


class Transaction(ABC):
    """Statements run inside one open transaction; only :meth:`Database.transaction` (or
    :meth:`Database.snapshot`) makes one."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement; returns how many rows it changed."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def notify(self, channel: str, payload: str = "") -> None:
        """Tell the other processes listening on `channel` (:meth:`Database.listen`), when
        and only if this transaction commits. Nothing on SQLite, whose processes poll."""
        return None

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT of one row into a table keyed by ``id``; returns the new row's id."""
        row = await self.fetchone(f"{sql} RETURNING id", params)
        assert row is not None
        return int(row[0])


class Database(ABC):
    """The bot's database. :meth:`open` picks the engine from the location: a PostgreSQL URL,
    or else a SQLite file's path."""

    location: str  # for messages: a path, or a URL without its password
    # Where the copy taken before this opening's migrations is (a file, or PostgreSQL's schema).
    kept_copy: str | None = None
    availability: Availability  # kept up to date by every call
    # Each engine with the locations it opens: an engine names them where it subclasses
    # (``class SqliteDatabase(Database, opens=...)``) and `bot.store` imports every engine, so
    # this interface names none of them.
    _engines: ClassVar[list[tuple[Callable[[str | Path], bool], type[Database]]]] = []

    def __init_subclass__(
        cls, *, opens: Callable[[str | Path], bool] | None = None, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        if opens is not None:
            Database._engines.append((opens, cls))

    @classmethod
    async def open(
        cls,
        location: str | Path = DEFAULT_PATH,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
    ) -> Database:
        """Open the database, check it and bring its schema up to date, first keeping a copy of
        an older one; with `upgrade` also create it. Without `upgrade` (`python -m bot`), a
        missing or empty database raises :class:`NotSetUp` and an older one :class:`OlderSchema`.
        Raises a :class:`StoreError` for a database Bredon must not use."""
        engine = next(engine for opens, engine in Database._engines if opens(location))
        return await engine.connect(
            location, busy_timeout=busy_timeout, migrations=migrations, upgrade=upgrade
        )

    @classmethod
    @abstractmethod
    async def connect(
        cls,
        location: str | Path,
        *,
        busy_timeout: float,
        migrations: list[Migration] | None,
        upgrade: bool,
    ) -> Database:
        """:meth:`open` on this engine."""

    @property
    @abstractmethod
    def engine(self) -> str:
        """ "sqlite" or "postgresql"."""

    @property
    def skip_locked(self) -> str:
        """What ends a ``SELECT`` of rows to claim: on PostgreSQL ``FOR UPDATE SKIP LOCKED``,
        so that a row another process's writer holds is passed over (that process is settling
        it) rather than waited for and fought over. Empty on SQLite, whose one writer at a time
        never meets a row another holds."""
        return ""

    async def notify(self, channel: str, payload: str = "") -> None:
        """:meth:`Transaction.notify` on its own, for a change already committed."""
        return None

    async def listen(self, channel: str, callback: Listener) -> None:
        """Call `callback` with the payload of each notification another process sends on
        `channel`. A wake-up, never the only way to learn of a change: on SQLite nothing is
        sent and the processes poll, and on PostgreSQL notifications sent while the listening
        connection is down are lost (it is made again, and `callback` gets "")."""
        return None

    @abstractmethod
    async def close(self) -> None:
        """Close, once the transaction under way has ended; later callers are refused with
        :class:`~bot.errors.StoreClosed`. Closing again does nothing."""

    @abstractmethod
    async def check_in_place(self) -> None:
        """Raise :class:`StoreError` if the database can no longer be used safely (a SQLite
        file deleted or replaced under the bot), or a :class:`~bot.errors.BredonError` refusal
        if it cannot be reached now (which passes). The bot's watchdog awaits it every few
        seconds."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def probe_write(self) -> None:
        """Commit a real write that changes nothing, to prove the database takes writes."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: committed if the block ends normally, rolled back if it raises.
        Transactions behave as if run one after another; when another writer makes that
        impossible the block raises :class:`~bot.errors.StoreBusy` and nothing is written.
        Every statement is bounded in time: a database that does not answer makes the block
        raise :class:`~bot.errors.StoreUnwritable` within seconds, or
        :class:`~bot.errors.CommitUnknown` when it stopped answering during the commit itself
        (the transaction may have been saved)."""

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Transaction]:
        """A read transaction: every query in the block sees the same committed state."""

    @abstractmethod
    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one writing statement on its own, committed entirely or not at all (with what its
        triggers do). For a change that is one conditional statement (settling an outbox item);
        ``RETURNING`` rows come back."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
