"""The SQLite store (the default): one file, WAL, foreign keys, numbered migrations, serialised
transactions.

Schema changes live in ``bot/migrations/NNNN_name.sql``. At start-up every file whose number is
above ``PRAGMA user_version`` is applied in its own ``BEGIN IMMEDIATE`` transaction that also
sets ``user_version``, so a migration is applied entirely or not at all, and re-running them
changes nothing.

Concurrency: aiosqlite gives the connection its own thread, and coroutines sharing it would
interleave their statements between awaits. :meth:`Database.transaction` therefore holds an
``asyncio.Lock`` for the whole unit and opens it with ``BEGIN IMMEDIATE``, which takes SQLite's
write lock at once, so writers in other processes on the same file are serialised too. Services
check what they rely on (a game's ply, a challenge's status) inside the transaction.

Faults give the operator or the user a sentence, not a stack trace. At open, ``PRAGMA quick_check``
refuses a damaged file (:class:`CorruptDatabase`) or one that is not a database
(:class:`NotADatabase`), and a file whose ``user_version`` is above the last migration is refused
before anything is changed in it (:class:`NewerSchema`). While running, every write first checks
that the path still names the file that was opened (one ``os.stat``, about 4 µs against the
half millisecond of a synchronous commit), so a file deleted or replaced under the bot raises
:class:`DatabaseGone` instead of committing into an unlinked inode; :meth:`Database.check_file` is
the same check for the bot to await periodically. Another process holding the write lock makes a
write wait at most the busy timeout (2 s, so a Discord command still answers within seconds) and
then refuses it with :class:`~bot.errors.StoreBusy`, a refusal the bot shows the user as is;
writers queued behind a refused one are refused at once rather than waiting in turn.

``synchronous=FULL`` in WAL mode: a committed transaction (an accepted move) survives a crash of the
process and also a power cut or OS crash. It costs about a quarter of the move throughput against
NORMAL (benchmarks/service.py: 730 against 940 moves/s, p99 4.8 ms), well within the targets.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager, closing
from pathlib import Path

import aiosqlite

from bot.errors import StoreBusy, StoreClosed, StoreUnwritable
from bot.store.base import (
    DEFAULT_BUSY_TIMEOUT,
    Availability,
    Database,
    Migration,
    NewerSchema,
    NotSetUp,
    OlderSchema,
    Params,
    Row,
    StoreError,
    Transaction,
    is_postgres,
    load_migrations,
    private_new_file,
)

log = logging.getLogger(__name__)

# What SQLite's refusals to write mean for the operator.
_UNWRITABLE = {
    sqlite3.SQLITE_FULL: "The disk holding {path} is full: free some space (Bredon saves again "
    "as soon as there is room).",
    sqlite3.SQLITE_READONLY: "{path} cannot be written (the file or its folder is read-only, "
    "or owned by another user): let the user Bredon runs as write both.",
    sqlite3.SQLITE_IOERR: "Writing {path} failed with a disk I/O error (a full or failing disk, "
    "or a limit on file size): check the disk and its free space.",
}


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


class CorruptDatabase(StoreError):
    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path} is damaged ({problem}): restore it from a backup.")
        self.problem = problem


class NotADatabase(StoreError):
    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} is not a SQLite database, or its header is damaged: check that the "
            "database setting names the right file, or restore it from a backup."
        )


class DatabaseGone(StoreError):
    def __init__(self, path: Path) -> None:
        super().__init__(
            f"The database file {path} was deleted or replaced while Bredon was running; "
            "stop Bredon and restore it."
        )


class SqliteTransaction(Transaction):
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._connection.execute(sql, params)
        return cursor.rowcount

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._connection.execute_fetchall(sql, params))


class SqliteDatabase(Database, opens=lambda location: not is_postgres(location)):
    """One connection to the bot's SQLite file."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path
        self.location = str(path)
        self.availability = Availability(self.location)
        # Absolute, so a later change of working directory cannot make the file look gone.
        self._file = path.absolute()
        self._identity = _identity(self._file)
        self._busy_at = -math.inf  # when a write was last refused as busy (time.monotonic)
        self._closed = False
        self._opened = False  # set once open() has checked and migrated the file

    @classmethod
    async def connect(
        cls,
        location: str | Path,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
    ) -> SqliteDatabase:
        """See :meth:`Database.open`."""
        path = Path(location)
        migrations = load_migrations() if migrations is None else migrations
        if not upgrade and not path.exists():
            raise NotSetUp(path)
        connection = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        try:
            connection.row_factory = sqlite3.Row
            database = cls(connection, path)
            # Checked before anything is written, so a refused file is left as it was.
            await database._check_integrity()
            newest = migrations[-1].version if migrations else 0
            await database._refuse_newer(newest)
            current = await database.schema_version()
            if not upgrade and current == 0:
                raise NotSetUp(path)
            if not upgrade and current < newest:
                raise OlderSchema(path, current, newest)
            async with database._turn(write=True):
                # These pragmas answer with a row: fetch it, or its open statement blocks COMMIT.
                await connection.execute_fetchall("PRAGMA journal_mode = WAL")
                await connection.execute("PRAGMA synchronous = FULL")
                await connection.execute("PRAGMA foreign_keys = ON")
            if 0 < current < newest:  # an upgrade: keep the file as it was first
                kept = await asyncio.to_thread(_backup_before_upgrade, path, current)
                database.kept_copy = str(kept)
                log.info(
                    "Upgrading %s from schema %d to %d; saved a copy as %s.",
                    path,
                    current,
                    newest,
                    kept,
                )
            await database.migrate(migrations)
        except BaseException:
            await connection.close()
            raise
        database._opened = True
        return database

    async def close(self) -> None:
        """If the file was deleted or replaced, first copy the write-ahead log into the file opened:
        SQLite would otherwise leave the log under the old name, where the next open would replay
        it onto whatever is put there (a restored backup)."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            self.availability.closed(StoreClosed().message)
            try:
                await self.check_in_place()
            except DatabaseGone:
                await self._connection.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                await self._connection.close()

    @property
    def engine(self) -> str:
        return "sqlite"

    async def check_in_place(self) -> None:
        """Raise :class:`DatabaseGone` if the path no longer names the file that was opened.
        Every write checks this before it commits too. It costs one ``os.stat``."""
        try:
            identity = _identity(self._file)
        except FileNotFoundError:
            raise DatabaseGone(self.path) from None
        if identity != self._identity:
            raise DatabaseGone(self.path)

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def _check_integrity(self) -> None:
        rows = await self.fetchall("PRAGMA quick_check(1)")
        problem = " ".join(str(rows[0][0]).replace("*** in database main ***", "").split())
        if problem != "ok":
            raise CorruptDatabase(self.path, problem)

    async def _refuse_newer(self, known: int) -> None:
        version = await self.schema_version()
        if version > known:
            raise NewerSchema(self.path, version, known)

    async def migrate(self, migrations: list[Migration]) -> list[int]:
        """Apply the migrations above the file's version; returns the versions applied.

        An up-to-date file is only read, so opening it does not wait for another writer."""
        current = await self.schema_version()
        applied = []
        for migration in migrations:
            if migration.version <= current:
                continue
            async with self.transaction() as tx:
                row = await tx.fetchone("PRAGMA user_version")
                assert row is not None
                if row[0] >= migration.version:
                    continue
                for statement in _split_statements(migration.script):
                    await tx.execute(statement)
                # PRAGMA takes no parameters; the version is an int from a file name.
                await tx.execute(f"PRAGMA user_version = {int(migration.version)}")
            applied.append(migration.version)
        return applied

    @asynccontextmanager
    async def _turn(self, *, write: bool) -> AsyncIterator[None]:
        """The connection to one caller at a time, with SQLite's busy and corruption errors
        turned into :class:`~bot.errors.StoreBusy` and :class:`StoreError`.

        A writer that waited behind one refused as busy is refused at once: behind an outside
        lock each caller then waits one busy timeout at most, not one per writer ahead of it."""
        asked = time.monotonic()
        async with self._lock:
            if self._closed:
                raise StoreClosed()
            if write and asked <= self._busy_at:
                raise StoreBusy()
            try:
                yield
            except sqlite3.DatabaseError as error:
                # The primary code of an extended one; errors of the module itself have none.
                code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
                if code == sqlite3.SQLITE_BUSY:  # "database is locked": another connection
                    self._busy_at = time.monotonic()
                    raise StoreBusy() from error
                if code == sqlite3.SQLITE_NOTADB:
                    raise NotADatabase(self.path) from error
                if code == sqlite3.SQLITE_CORRUPT:
                    raise CorruptDatabase(self.path, str(error)) from error
                if code in _UNWRITABLE:
                    problem = _UNWRITABLE[code].format(path=self.path)
                    if self._opened:  # while opening, whoever opens it reports it
                        self.availability.failed(problem)
                    raise StoreUnwritable(problem) from error
                raise
            self.availability.succeeded()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._turn(write=True):
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
                yield SqliteTransaction(self._connection)
                await self.check_in_place()
                await self._connection.commit()
            except BaseException:
                # Unconditional: the connection's thread runs this after anything queued before
                # (even a BEGIN whose caller was cancelled), and it is a no-op with no transaction
                # (as after a BEGIN refused as busy).
                await self._connection.rollback()
                raise

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Transaction]:
        async with self._turn(write=False):
            try:
                await self._connection.execute("BEGIN")
                yield SqliteTransaction(self._connection)
            finally:
                await self._connection.rollback()

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._turn(write=True):
            await self.check_in_place()
            return list(await self._connection.execute_fetchall(sql, params))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._turn(write=False):
            return list(await self._connection.execute_fetchall(sql, params))

    async def probe_write(self) -> None:
        """Sets the schema version to the value it has, which rewrites the file's header page
        through the write-ahead log."""
        async with self.transaction() as tx:
            row = await tx.fetchone("PRAGMA user_version")
            assert row is not None
            # PRAGMA takes no parameters; the value is the int just read.
            await tx.execute(f"PRAGMA user_version = {int(row[0])}")


def read_only_uri(path: Path) -> str:
    """The URI that opens `path` for reading only, creating and changing nothing. Without a
    write-ahead log beside the file no process has it open (a running bot keeps both files), and
    all of it is in the file: read-only, SQLite would still create the log and its index beside
    it and leave them; immutable, it reads the file alone."""
    uri = f"{path.absolute().as_uri()}?mode=ro"
    if not any(path.with_name(path.name + suffix).exists() for suffix in ("-wal", "-shm")):
        uri += "&immutable=1"
    return uri


def _identity(path: Path) -> tuple[int, int]:
    """What tells one file from another that takes its name: its device and inode."""
    stat = os.stat(path)
    return stat.st_dev, stat.st_ino


def backup_file(source: Path, target: Path, *, check: bool = True) -> int:
    """Copy the database at `source` to the new file `target` with SQLite's online backup (a
    consistent copy, also while the bot is writing), check the copy (unless the caller has just
    checked the source), and return its schema version. Raises :class:`StoreError` with what to
    do; a copy that failed is never left behind to pass for a backup. The copy is readable by
    its owner only (it holds what the database holds), whatever the umask."""
    if not source.is_file():
        raise StoreError(f"There is no database at {source}: check BREDON_DATABASE.")
    private_new_file(target)
    try:
        with (
            closing(sqlite3.connect(source, timeout=DEFAULT_BUSY_TIMEOUT)) as live,
            closing(sqlite3.connect(target)) as copy,
        ):
            live.backup(copy)
            checked = copy.execute("PRAGMA integrity_check" if check else "SELECT 'ok'").fetchone()
            version = copy.execute("PRAGMA user_version").fetchone()[0]
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    if checked is None or checked[0] != "ok":
        target.unlink(missing_ok=True)
        raise CorruptDatabase(source, str(checked[0] if checked else "no answer"))
    return int(version)


def _backup_before_upgrade(path: Path, version: int) -> Path:
    """A copy of the file as it is, beside it, before migrations change it: to go back to if
    an upgrade goes wrong (``bredon.v4-backup.sqlite3``; a number is added if that exists)."""
    for number in range(1, 1000):
        extra = "" if number == 1 else f"-{number}"
        target = path.with_name(f"{path.stem}.v{version}-backup{extra}{path.suffix}")
        if not target.exists():
            backup_file(path, target, check=False)  # Database.open has just checked the file
            return target
    raise StoreError(f"Too many backups beside {path}: move some away, then start again.")
