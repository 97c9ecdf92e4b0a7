"""The database a test runs on: a SQLite file by default, or a fresh PostgreSQL database when
BREDON_TEST_POSTGRES names a server (``.ci/start-postgres`` starts one and prints its URL).

Tests of what only a SQLite file has (its faults, its backups, its migrations from old files) are
marked ``sqlite_only``; the PostgreSQL run leaves them out (``-m "not sqlite_only"``) and has its
own (tests/bot/store/test_postgres.py)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from pathlib import Path

import asyncpg

from bot.store import Database, Transaction

POSTGRES = os.environ.get("BREDON_TEST_POSTGRES", "")


def with_database(url: str, name: str) -> str:
    """`url` with its database name replaced by `name`."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


async def create_postgres_database(server: str = POSTGRES) -> str:
    """A new, empty database on the test server; returns its URL."""
    name = f"bredon_{uuid.uuid4().hex[:16]}"
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return with_database(server, name)


async def drop_postgres_database(url: str, server: str = POSTGRES) -> None:
    name = url.rpartition("/")[2]
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


def fresh_database(tmp_path: Path) -> Path | str:
    """Where a test's bot or services keep their data: a file in `tmp_path`, or a new database
    on the PostgreSQL test server (dropped by :func:`forget_test_database`)."""
    if POSTGRES:
        return asyncio.run(create_postgres_database())
    return tmp_path / "bredon.sqlite3"


def forget_test_database(location: Path | str) -> None:
    if isinstance(location, str):
        asyncio.run(drop_postgres_database(location))


def transaction_class(db: Database) -> type[Transaction]:
    """The class of `db`'s transactions, for a test to wrap its statements."""
    if db.engine == "postgresql":
        from bot.store.postgres import PostgresTransaction

        return PostgresTransaction
    from bot.store.sqlite import SqliteTransaction

    return SqliteTransaction


# What either engine raises when the schema refuses a change (a CHECK, a trigger's rule).
REFUSED_BY_SCHEMA = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
