"""The PostgreSQL store: a server that several Bredon processes, on several machines, share.

Chosen by a ``postgresql://`` URL in BREDON_DATABASE; asyncpg speaks to the server. The services'
SQL is the SQLite store's, translated here once per statement (:func:`to_postgres`): ``?``
placeholders become ``$1, $2...``, and SQLite's scalar ``MAX(a, b)``/``MIN(a, b)`` become
``GREATEST``/``LEAST`` (which pass over a NULL where SQLite's give NULL: the services never
hand them one, their SQL guards it), and ``COLLATE BINARY`` (SQLite's default order of text,
byte by byte) becomes ``COLLATE "C"``, the same order whatever the database's locale. Numbers
come back as SQLite gives them (a ``SUM`` of integers is an int, not a Decimal).

Concurrency: write transactions run at ``SERIALIZABLE``, so they behave as if run one after
another, whichever process runs them: everything that is correct on SQLite's single writer stays
correct. When PostgreSQL cannot keep that promise for a transaction (another process changed what
it read, a deadlock, or a row lock held for longer than the busy timeout) the transaction is
rolled back and the caller gets :class:`~bot.errors.StoreBusy`, the "busy, try again" refusal
SQLite gives behind another process's write lock. Within one process, writes still take turns
(an ``asyncio.Lock``), as on SQLite, so two clicks in one process never conflict; reads run side
by side on the connection pool.

Between processes: a row being claimed is taken with ``FOR UPDATE SKIP LOCKED``
(:attr:`Database.skip_locked`), so two processes never wait for or fight over the same outbox
item or deadline; what one process changes wakes the others through ``LISTEN/NOTIFY``
(:meth:`PostgresDatabase.listen`), on a connection of its own that is made again whenever it is
lost (the loops poll all the same, so a lost notification only makes a wake-up later).

Schema: ``bot/migrations/postgresql/``, numbered as SQLite's; the first file is the whole schema
as of the version PostgreSQL support came with, later files follow SQLite's one for one. The
version is a one-row table, ``bredon_schema``; migrations run under an advisory lock, so processes
starting together migrate once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import re
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.errors import StoreBusy, StoreClosed, StoreConflict, StoreUnwritable
from bot.store.base import (
    DEFAULT_BUSY_TIMEOUT,
    MIGRATIONS_DIR,
    Database,
    Listener,
    Migration,
    NewerSchema,
    NotSetUp,
    OlderSchema,
    Params,
    Row,
    StoreError,
    Transaction,
    load_migrations,
    shown_location,
)

log = logging.getLogger(__name__)

POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
POOL_SIZE = 10
UNREACHABLE_LOG_EVERY = 60.0  # seconds between two log lines about an unreachable server
LISTEN_RETRY_FIRST = 1.0  # seconds before making the listening connection again, doubling
LISTEN_RETRY_MAX = 30.0
LISTEN_CHECK_TIMEOUT = 10.0  # seconds the listening connection has to answer a check
# pg_advisory_xact_lock key held while migrating ("BREDON" in ASCII).
MIGRATION_LOCK = 0x425245444F4E
# What PostgreSQL does when it cannot run a transaction as if alone: the caller may try again.
_CONFLICTS = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
# The server cannot be reached, or is going away: users are told to try again later.
_UNREACHABLE = (
    OSError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.InvalidCatalogNameError,  # a new connection to a database dropped
    asyncpg.ObjectNotInPrerequisiteStateError,  # ... to one that takes no connections now
    # A pooled connection the server ended while idle, used before asyncpg saw it close
    # ("cannot switch to state 15", MagicStack/asyncpg#784): the next one reconnects.
    asyncpg.InternalClientError,
)
_TOKEN = re.compile(
    r"'(?:[^']|'')*'|\"[^\"]*\"|\?\d*|\b(?:MAX|MIN)\(|\bCOLLATE\s+BINARY\b", re.IGNORECASE
)
_NULL_TEST = re.compile(r"\s+IS\s+(?:NOT\s+)?NULL\b", re.IGNORECASE)


def postgres_migrations() -> list[Migration]:
    return load_migrations(POSTGRES_MIGRATIONS_DIR)


@dataclass(frozen=True)
class Statement:
    """A statement translated for PostgreSQL, and the parameters it needs as text."""

    sql: str
    as_text: frozenset[int]  # positions (from 0) of parameters only tested for NULL

    def arguments(self, params: Params) -> list[Any]:
        """`params` as asyncpg sends them. PostgreSQL cannot tell the type of a parameter that
        is only compared with NULL (``? IS NULL OR x = ?``): it is sent as text."""
        return [
            str(value) if index in self.as_text and value is not None else value
            for index, value in enumerate(params)
        ]


@functools.lru_cache(maxsize=4096)
def to_postgres(sql: str) -> Statement:
    """The services' SQL as PostgreSQL reads it (see the module's docstring)."""
    out: list[str] = []
    as_text: set[int] = set()
    position = 0
    number = 0
    for match in _TOKEN.finditer(sql):
        token = match[0]
        out.append(sql[position : match.start()])
        position = match.end()
        if token[0] == "?":  # ? is the next parameter, ?NNN the NNNth
            number = int(token[1:]) if len(token) > 1 else number + 1
            if _NULL_TEST.match(sql, match.end()):
                as_text.add(number - 1)
                out.append(f"${number}::text")
            else:
                out.append(f"${number}")
        elif token[0] in "'\"":
            out.append(token)
        elif token[0] in "cC":
            out.append('COLLATE "C"')
        elif _has_two_arguments(sql, match.end()):
            out.append("GREATEST(" if token[:3].upper() == "MAX" else "LEAST(")
        else:
            out.append(token)
    out.append(sql[position:])
    return Statement("".join(out), frozenset(as_text))


def _has_two_arguments(sql: str, start: int) -> bool:
    """Whether the call whose arguments begin at `start` has a comma at its own level."""
    depth = 0
    quote = ""
    for char in sql[start:]:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return False
            depth -= 1
        elif char == "," and depth == 0:
            return True
    return False


def _number(text: str) -> int | float:
    """A NUMERIC as SQLite would give it: an int when whole, else a float."""
    return int(text) if text.lstrip("-").isdigit() else float(text)


async def _set_up(connection: asyncpg.Connection) -> None:
    await connection.set_type_codec(
        "numeric", encoder=str, decoder=_number, schema="pg_catalog", format="text"
    )


class PostgresTransaction(Transaction):
    def __init__(self, connection: asyncpg.pool.PoolConnectionProxy, origin: str) -> None:
        self._connection = connection
        self._origin = origin

    async def notify(self, channel: str, payload: str = "") -> None:
        await self._connection.execute(
            "SELECT pg_notify($1, $2)", channel, f"{self._origin} {payload}"
        )

    async def execute(self, sql: str, params: Params = ()) -> int:
        statement = to_postgres(sql)
        status = await self._connection.execute(statement.sql, *statement.arguments(params))
        # "UPDATE 3", "INSERT 0 1", "DELETE 0": the count is the last word.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        statement = to_postgres(sql)
        return list(await self._connection.fetch(statement.sql, *statement.arguments(params)))


async def bredon_connections(url: str) -> int:
    """How many connections Bredon processes have open to the database at `url` (by their
    ``application_name``): `python -m bot migrate` runs with none."""
    try:
        connection = await asyncpg.connect(url, timeout=30)
    except (*_UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise StoreError(
            f"Cannot connect to PostgreSQL at {shown_location(url)}: {error}."
        ) from None
    try:
        return int(
            await connection.fetchval(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND application_name IN ('bredon', 'bredon-listener')"
            )
        )
    finally:
        await connection.close()


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.location = shown_location(url)
        self._write_lock = asyncio.Lock()
        self._closed = False
        self._known = 0  # the newest schema version this Bredon knows
        self._told_at: dict[str, float] = {}
        self._busy_at = -math.inf  # when a write was last refused for a lock held too long
        self._url = url
        # Each notification starts with its sender's origin, so that a process is not woken by
        # its own (it acts on its changes itself).
        self._origin = secrets.token_hex(6)
        self._listeners: dict[str, list[Listener]] = {}
        self._listen_connection: asyncpg.Connection | None = None
        self._reconnecting: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
    ) -> PostgresDatabase:
        """See :meth:`Database.open`."""
        migrations = postgres_migrations() if migrations is None else migrations
        # lock_timeout: a write waits for another process's row lock at most the busy timeout,
        # then is refused as busy, as on SQLite. Cheap random reads (the data is mostly cached)
        # make the planner use indexes, so SERIALIZABLE locks rows rather than whole tables.
        settings = {
            "lock_timeout": f"{int(busy_timeout * 1000)}ms",
            "random_page_cost": "1.1",
            "application_name": "bredon",
        }
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, init=_set_up, server_settings=settings
            )
        except _UNREACHABLE as error:
            raise StoreError(
                f"Cannot connect to PostgreSQL at {shown_location(url)} ({error}): check that "
                "the server runs and that BREDON_DATABASE names it."
            ) from error
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            raise StoreError(
                f"PostgreSQL at {shown_location(url)} refused Bredon ({error}): check the user, "
                "password and database name in BREDON_DATABASE."
            ) from error
        database = cls(pool, url)
        try:
            database._known = migrations[-1].version if migrations else 0
            current = await database.schema_version()
            if current > database._known:
                raise NewerSchema(database.location, current, database._known)
            if not upgrade and current == 0:
                raise NotSetUp(database.location)
            if not upgrade and current < database._known:
                raise OlderSchema(database.location, current, database._known)
            await database.migrate(migrations)
        except asyncpg.PostgresError as error:  # e.g. no right to create Bredon's tables
            await pool.close()
            raise StoreError(
                f"PostgreSQL at {database.location} refused to set up Bredon's tables ({error}): "
                "let Bredon's user create tables in the database's schema (GRANT CREATE ON "
                "SCHEMA public), or migrate it once as a user who may."
            ) from error
        except BaseException:
            await pool.close()
            raise
        return database

    @property
    def engine(self) -> str:
        return "postgresql"

    @property
    def skip_locked(self) -> str:
        return " FOR UPDATE SKIP LOCKED"

    async def close(self) -> None:
        async with self._write_lock:
            if self._closed:
                return
            self._closed = True
            if self._reconnecting is not None:
                self._reconnecting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._reconnecting
            connection, self._listen_connection = self._listen_connection, None
            if connection is not None:
                connection.remove_termination_listener(self._listener_lost)
                connection.terminate()
            await self._pool.close()

    # ----------------------------------------------------------------- LISTEN/NOTIFY

    async def notify(self, channel: str, payload: str = "") -> None:
        async with self._turn(write=False):
            await self._pool.execute(
                "SELECT pg_notify($1, $2)", channel, f"{self._origin} {payload}"
            )

    async def listen(self, channel: str, callback: Listener) -> None:
        """See :meth:`Database.listen`. The first call makes the listening connection; if that
        fails, it is logged and tried again in the background (polling goes on meanwhile)."""
        if self._closed:
            raise StoreClosed()
        new = channel not in self._listeners
        self._listeners.setdefault(channel, []).append(callback)
        if self._listen_connection is None and self._reconnecting is None:
            if not await self._connect_listener(again=False):
                self._listener_lost(None)
        elif new and self._listen_connection is not None:
            with contextlib.suppress(*_UNREACHABLE, asyncpg.InterfaceError):
                await self._listen_connection.add_listener(channel, self._heard)

    def _heard(self, _connection: object, _pid: int, channel: str, payload: object) -> None:
        origin, _, text = str(payload).partition(" ")
        if origin != self._origin:
            self._tell_listeners(channel, text)

    def _tell_listeners(self, channel: str, payload: str) -> None:
        for callback in self._listeners.get(channel, ()):
            try:
                callback(payload)
            except Exception:
                log.exception("A listener of %s failed.", channel)

    async def _connect_listener(self, *, again: bool) -> bool:
        """Make the listening connection, on every channel asked for; False (logged) if the
        server cannot be reached. Made `again`, every listener is told "": notifications may
        have been missed meanwhile."""
        try:
            connection = await asyncpg.connect(
                self._url, server_settings={"application_name": "bredon-listener"}
            )
        except (*_UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            self._tell_operator(
                f"Cannot listen for other processes' changes on PostgreSQL at {self.location} "
                f"({error}); polling meanwhile."
            )
            return False
        try:
            for channel in list(self._listeners):
                await connection.add_listener(channel, self._heard)
        except (*_UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError):
            connection.terminate()
            return False
        except BaseException:  # cancelled by close(): the connection must not outlive the store
            connection.terminate()
            raise
        if self._closed:  # closed while connecting
            connection.terminate()
            return False
        connection.add_termination_listener(self._listener_lost)
        self._listen_connection = connection
        if again:
            log.info("Listening for other processes' changes again.")
            for channel in list(self._listeners):
                self._tell_listeners(channel, "")
        return True

    def _listener_lost(self, connection: object) -> None:
        """The listening connection ended (or could not be made): make it again, with backoff,
        in the background."""
        if connection is not None and connection is not self._listen_connection:
            return  # one already replaced
        self._listen_connection = None
        if self._closed or self._reconnecting is not None:
            return
        self._reconnecting = asyncio.create_task(self._reconnect(), name="bredon-listener")

    async def _reconnect(self) -> None:
        delay = LISTEN_RETRY_FIRST
        try:
            while True:
                await asyncio.sleep(delay)
                if await self._connect_listener(again=True):
                    return
                delay = min(delay * 2, LISTEN_RETRY_MAX)
        finally:
            self._reconnecting = None

    async def _check_listener(self) -> None:
        """End a listening connection that no longer answers (a network that dropped without a
        word), so that it is made again."""
        connection = self._listen_connection
        if connection is None:
            return
        try:
            await connection.execute("SELECT 1", timeout=LISTEN_CHECK_TIMEOUT)
        except (*_UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
            connection.terminate()
            self._listener_lost(connection)

    async def check_in_place(self) -> None:
        """Raise :class:`NewerSchema` once a newer Bredon has migrated the shared database: this
        process would write what that version no longer expects. Also makes sure the
        connection listening for other processes' changes still answers."""
        await self._check_listener()
        version = await self.schema_version()
        if version > self._known:
            raise NewerSchema(self.location, version, self._known)

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT to_regclass('bredon_schema') IS NOT NULL")
        if row is None or not row[0]:
            return 0
        row = await self.fetchone("SELECT version FROM bredon_schema")
        return 0 if row is None else int(row[0])

    async def migrate(self, migrations: list[Migration]) -> list[int]:
        """Apply the migrations above the database's version; returns the versions applied.
        All of them in one transaction, under an advisory lock: processes starting together
        wait for the first to finish, then find nothing to do. An up-to-date database is only
        read, so a role that may only read and write rows can run Bredon on it."""
        if migrations and await self.schema_version() >= migrations[-1].version:
            return []
        applied = []
        async with (
            self._turn(write=True),
            self._pool.acquire() as connection,
            connection.transaction(),
        ):
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS bredon_schema ("
                "version INTEGER NOT NULL, "
                "single BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (single))"
            )
            current = await connection.fetchval("SELECT version FROM bredon_schema")
            if current is None:
                await connection.execute("INSERT INTO bredon_schema (version) VALUES (0)")
                current = 0
            if 0 < current < (migrations[-1].version if migrations else 0):
                from bot.store.copying import keep_postgres_copy  # which imports this module

                self.kept_copy = await keep_postgres_copy(connection, current)
                log.info(
                    "Upgrading %s from schema %d to %d; saved a copy of every table in the "
                    "schema %s.",
                    self.location,
                    current,
                    migrations[-1].version,
                    self.kept_copy,
                )
            for migration in migrations:
                if migration.version <= current:
                    continue
                await connection.execute(migration.script)
                applied.append(migration.version)
            if applied:
                await connection.execute("UPDATE bredon_schema SET version = $1", applied[-1])
        return applied

    async def probe_write(self) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE bredon_schema SET version = version")

    def _tell_operator(self, problem: str) -> None:
        now = time.monotonic()
        if now - self._told_at.get(problem, -math.inf) >= UNREACHABLE_LOG_EVERY:
            self._told_at[problem] = now
            log.error("%s", problem)

    @asynccontextmanager
    async def _turn(self, *, write: bool) -> AsyncIterator[None]:
        """Writes of this process one at a time; PostgreSQL's refusals turned into Bredon's.

        A writer that waited behind one refused for a lock held past the busy timeout is refused
        at once, as on SQLite: behind another process's lock each caller waits one busy timeout
        at most, not one per writer ahead of it."""
        if self._closed:
            raise StoreClosed()
        asked = time.monotonic()
        try:
            if write:
                async with self._write_lock:
                    if self._closed:
                        raise StoreClosed()
                    if asked <= self._busy_at:
                        raise StoreBusy()
                    yield
            else:
                yield
        except _CONFLICTS as error:
            raise StoreConflict() from error
        except asyncpg.LockNotAvailableError as error:  # held past the busy timeout
            self._busy_at = time.monotonic()
            raise StoreBusy() from error
        except asyncpg.DiskFullError as error:
            problem = f"The disk of the PostgreSQL server at {self.location} is full: {error}"
            self._tell_operator(problem)
            raise StoreUnwritable(problem) from error
        except asyncpg.ReadOnlySQLTransactionError as error:
            problem = (
                f"PostgreSQL at {self.location} is read-only (a standby?): point BREDON_DATABASE "
                "at the primary server."
            )
            self._tell_operator(problem)
            raise StoreUnwritable(problem) from error
        except _UNREACHABLE as error:
            problem = f"PostgreSQL at {self.location} cannot be reached: {error}"
            self._tell_operator(problem)
            raise StoreUnwritable(problem) from error
        except asyncpg.InterfaceError as error:
            if self._pool.is_closing():
                raise StoreClosed() from error
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:  # type: ignore[override]
        async with (
            self._turn(write=True),
            self._pool.acquire() as connection,
            connection.transaction(isolation="serializable"),
        ):
            yield PostgresTransaction(connection, self._origin)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Transaction]:  # type: ignore[override]
        async with (
            self._turn(write=False),
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(connection, self._origin)

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._turn(write=True):
            statement = to_postgres(sql)
            return list(await self._pool.fetch(statement.sql, *statement.arguments(params)))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._turn(write=False):
            statement = to_postgres(sql)
            return list(await self._pool.fetch(statement.sql, *statement.arguments(params)))
