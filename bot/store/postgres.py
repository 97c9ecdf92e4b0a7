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
correct. When PostgreSQL cannot keep that promise for a transaction (another transaction changed
what it read, a deadlock, or a row lock held for longer than the busy timeout) the transaction is
rolled back and the caller gets :class:`~bot.errors.StoreConflict` or
:class:`~bot.errors.StoreBusy`, the "busy, try again" refusal SQLite gives behind another
process's write lock; a move is tried again at once (:func:`~bot.store.retried_on_conflict`), and
so is a single statement (:meth:`PostgresDatabase.write_one`). Within one process, writes take
turns (an ``asyncio.Lock``), as on SQLite, so that its own transactions never refuse each other
(without it, ten games played at once in one process conflict past any few retries); reads run
side by side on the connection pool. The turn is bounded as everything else: it is waited for at
most the time-out, and while the server does not answer, writers behind the one waiting for it
are refused at once instead of queueing.

Time: every call is bounded. A connection must be made, and a statement answered, within
:data:`COMMAND_TIMEOUT` beyond the busy timeout (asyncpg's ``timeout`` and ``command_timeout``;
the server's ``statement_timeout`` ends a statement running longer), so a server that stops
answering (stopped, frozen, unreachable) gives a refusal within seconds,
:class:`~bot.errors.StoreUnwritable`, rather than freezing the bot; driver errors are turned
into Bredon's refusals here, once, for every call (:meth:`PostgresDatabase._turn`), and recorded
in :attr:`~bot.store.Database.availability`. A commit that got no answer may have been saved:
it raises :class:`~bot.errors.CommitUnknown`, for the caller to look.

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
from pathlib import Path
from typing import Any

import asyncpg

from bot.errors import CommitUnknown, StoreBusy, StoreClosed, StoreConflict, StoreUnwritable
from bot.store.base import (
    DEFAULT_BUSY_TIMEOUT,
    MIGRATION_TIMEOUT,
    Availability,
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
    is_postgres,
    postgres_migrations,
    retried_on_conflict,
    shown_location,
)
from bot.store.copying import keep_postgres_copy

log = logging.getLogger(__name__)

POOL_SIZE = 10
# Seconds beyond the busy timeout (a row lock waited for) that a statement may run on the server,
# and then that the client waits for any answer, a connection or a free pooled one.
STATEMENT_GRACE = 1.0
COMMAND_TIMEOUT = 2.0
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
    # No answer within the command timeout (the server stopped or frozen).
    TimeoutError,
)
_TOKEN = re.compile(
    r"'(?:[^']|'')*'|\"[^\"]*\"|\?\d*|\b(?:MAX|MIN)\(|\bCOLLATE\s+BINARY\b", re.IGNORECASE
)
_NULL_TEST = re.compile(r"\s+IS\s+(?:NOT\s+)?NULL\b", re.IGNORECASE)


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


class PostgresDatabase(Database, opens=is_postgres):
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, pool: asyncpg.Pool, url: str, timeout: float) -> None:
        self._pool = pool
        self.location = shown_location(url)
        self.availability = Availability(self.location)
        self._timeout = timeout  # seconds any answer from the server is waited for
        self._write_lock = asyncio.Lock()
        self._busy_at = -math.inf  # when a write was last refused for a lock held too long
        self._closed = False
        self._known = 0  # the newest schema version this Bredon knows
        self._url = url
        # Each notification starts with its sender's origin, so that a process is not woken by
        # its own (it acts on its changes itself).
        self._origin = secrets.token_hex(6)
        self._listeners: dict[str, list[Listener]] = {}
        self._listen_connection: asyncpg.Connection | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._listen_failing = False  # told the operator the listening connection cannot be made

    @classmethod
    async def connect(
        cls,
        location: str | Path,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
    ) -> PostgresDatabase:
        """See :meth:`Database.open`."""
        url = str(location)
        migrations = postgres_migrations() if migrations is None else migrations
        # lock_timeout: a write waits for another process's row lock at most the busy timeout,
        # then is refused as busy, as on SQLite. Cheap random reads (the data is mostly cached)
        # make the planner use indexes, so SERIALIZABLE locks rows rather than whole tables.
        # statement_timeout: a statement (a lock waited for included) that runs longer is ended
        # by the server; the client waits a little longer than that for any answer.
        timeout = busy_timeout + STATEMENT_GRACE + COMMAND_TIMEOUT
        settings = {
            "lock_timeout": f"{int(busy_timeout * 1000)}ms",
            "statement_timeout": f"{int((busy_timeout + STATEMENT_GRACE) * 1000)}ms",
            # A transaction left open by a client that went away holds no lock for long.
            "idle_in_transaction_session_timeout": f"{int(timeout * 4 * 1000)}ms",
            "random_page_cost": "1.1",
            "application_name": "bredon",
        }
        try:
            pool = await asyncpg.create_pool(
                url,
                # No floor of idle connections: asyncpg would log a traceback each time it
                # fails to restore it while the server is down.
                min_size=0,
                max_size=POOL_SIZE,
                init=_set_up,
                server_settings=settings,
                timeout=timeout,
                command_timeout=timeout,
            )
            try:
                async with pool.acquire(timeout=timeout):  # connects: the server answers, or not
                    pass
            except BaseException:
                pool.terminate()
                raise
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
        database = cls(pool, url, timeout)
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
        """Transactions under way end on their own (each statement is bounded): the pool's
        closing waits for their connections to come back."""
        if self._closed:
            return
        self._closed = True
        self.availability.closed(StoreClosed().message)
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        connection, self._listen_connection = self._listen_connection, None
        if connection is not None:
            connection.remove_termination_listener(self._listener_lost)
            connection.terminate()
        try:
            await asyncio.wait_for(self._pool.close(), self._timeout * 2)
        except TimeoutError:  # a server that does not answer: its connections are dropped
            self._pool.terminate()

    # ----------------------------------------------------------------- LISTEN/NOTIFY

    async def notify(self, channel: str, payload: str = "") -> None:
        async with self._turn(), self._connection() as connection:
            await connection.execute(
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
                self._url,
                server_settings={"application_name": "bredon-listener"},
                timeout=self._timeout,
                command_timeout=self._timeout,
            )
        except (*_UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            # Not an outage of the store (its calls say that, and a listener failing beside a
            # pool that works must not refuse writes as unwritable): once per series of tries.
            if not self._listen_failing:
                self._listen_failing = True
                log.warning(
                    "Cannot listen for other processes' changes on PostgreSQL at %s (%s); "
                    "polling meanwhile.",
                    self.location,
                    error,
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
        self._listen_failing = False
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
        read, so a role that may only read and write rows can run Bredon on it. Unlike every
        other call, it may take long (a big table's new index, another process migrating)."""
        if migrations and await self.schema_version() >= migrations[-1].version:
            return []
        applied = []
        async with (
            self._writing(),
            self._turn(),
            self._connection() as connection,
            connection.transaction(),
        ):
            for setting in ("statement_timeout", "lock_timeout"):
                await connection.execute(f"SET LOCAL {setting} = 0")
            await connection.execute(
                "SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT
            )
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
                await connection.execute(migration.script, timeout=MIGRATION_TIMEOUT)
                applied.append(migration.version)
            if applied:
                await connection.execute("UPDATE bredon_schema SET version = $1", applied[-1])
        return applied

    async def probe_write(self) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE bredon_schema SET version = version")

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """PostgreSQL's refusals and the driver's errors turned into Bredon's, once for every
        call, and the outcome recorded in :attr:`availability`."""
        if self._closed:
            raise StoreClosed()
        try:
            yield
        except _CONFLICTS as error:
            raise StoreConflict() from error
        except asyncpg.LockNotAvailableError as error:  # a row lock held past the busy timeout
            self._busy_at = time.monotonic()
            raise StoreBusy() from error
        except asyncpg.QueryCanceledError as error:  # a statement past its time-out
            raise StoreBusy() from error
        except CommitUnknown as error:
            self.availability.failed(error.problem)
            raise
        except (*_UNREACHABLE, asyncpg.InterfaceError) as error:
            raise self._lost(error) from error
        except asyncpg.DiskFullError as error:
            problem = f"The disk of the PostgreSQL server at {self.location} is full: {error}"
            self.availability.failed(problem)
            raise StoreUnwritable(problem) from error
        except asyncpg.ReadOnlySQLTransactionError as error:
            problem = (
                f"PostgreSQL at {self.location} is read-only (a standby?): point BREDON_DATABASE "
                "at the primary server."
            )
            self.availability.failed(problem)
            raise StoreUnwritable(problem) from error
        self.availability.succeeded()

    def _lost(self, error: BaseException) -> StoreClosed | StoreUnwritable:
        """The refusal for a server that cannot be reached (or a connection lost on the way),
        recorded as an outage; :class:`StoreClosed` when Bredon itself is closing the pool."""
        if self._closed or self._pool.is_closing():
            return StoreClosed()
        if isinstance(error, TimeoutError):
            problem = f"PostgreSQL at {self.location} did not answer within {self._timeout:g} s."
        else:
            problem = f"PostgreSQL at {self.location} cannot be reached: {error}"
        self.availability.failed(problem)
        return StoreUnwritable(problem)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        """This process's turn to write (see the module's docstring). A writer that waited
        behind one refused for a row lock held past the busy timeout is refused at once, as on
        SQLite: behind another process's lock each caller waits one busy timeout at most."""
        asked = time.monotonic()
        problem = self.availability.problem
        if problem is not None and self._write_lock.locked():
            raise StoreUnwritable(problem)
        try:
            async with asyncio.timeout(self._timeout):
                await self._write_lock.acquire()
        except TimeoutError:
            problem = self.availability.problem
            raise (StoreBusy() if problem is None else StoreUnwritable(problem)) from None
        try:
            if self._closed:
                raise StoreClosed()
            if asked <= self._busy_at:
                raise StoreBusy()
            yield
        finally:
            self._write_lock.release()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy]:
        """A pooled connection, waited for (all in use, or being made) at most the time-out.
        Giving it back resets it on the server; if that fails the pool drops the connection, and
        the work done on it stands: a commit that was answered must not be reported as failed."""
        connection = await self._pool.acquire(timeout=self._timeout)
        try:
            yield connection
        finally:
            with contextlib.suppress(*_UNREACHABLE, asyncpg.InterfaceError, asyncpg.PostgresError):
                await self._pool.release(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._writing(), self._turn(), self._connection() as connection:
            transaction = connection.transaction(isolation="serializable")
            await transaction.start()
            try:
                yield PostgresTransaction(connection, self._origin)
            except BaseException:
                # A connection lost on the way cannot roll back: the server has (the pool
                # drops the connection); the caller's error is the one that matters.
                with contextlib.suppress(Exception):
                    await transaction.rollback()
                raise
            try:
                await transaction.commit()
            except (*_UNREACHABLE, asyncpg.InterfaceError) as error:
                if self._closed or self._pool.is_closing():
                    raise StoreClosed() from error
                problem = (
                    f"PostgreSQL at {self.location} stopped answering while a change was "
                    f"committed: {error or 'no answer in time'}"
                )
                raise CommitUnknown(problem) from error

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Transaction]:
        async with (
            self._turn(),
            self._connection() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(connection, self._origin)

    async def write_one(self, sql: str, params: Params = ()) -> list[Row]:
        """Tried again after a conflict: the statement is its whole transaction."""

        async def attempt() -> list[Row]:
            async with self._writing():
                return await self.fetchall(sql, params)

        return await retried_on_conflict(attempt)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        statement = to_postgres(sql)
        async with self._turn(), self._connection() as connection:
            return list(await connection.fetch(statement.sql, *statement.arguments(params)))
