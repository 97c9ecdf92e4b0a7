"""The bot's database, behind one interface: a SQLite file (the default, nothing to install) or
a PostgreSQL server (a ``postgresql://`` URL in BREDON_DATABASE), which several processes on
several machines can share. :mod:`bot.store.base` is the interface the services use;
:mod:`bot.store.sqlite` and :mod:`bot.store.postgres` are the two engines, both imported here
so that :meth:`Database.open` finds them."""

from bot.store.base import (
    DEFAULT_BUSY_TIMEOUT,
    DEFAULT_PATH,
    MIGRATIONS_DIR,
    Database,
    Migration,
    NewerSchema,
    NotSetUp,
    OlderSchema,
    Params,
    Row,
    StoreError,
    Transaction,
    from_db,
    is_postgres,
    load_migrations,
    retried_on_conflict,
    shown_location,
    to_db,
    to_db_or_none,
)
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import (
    CorruptDatabase,
    DatabaseGone,
    NotADatabase,
    SqliteDatabase,
    backup_file,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT",
    "DEFAULT_PATH",
    "MIGRATIONS_DIR",
    "CorruptDatabase",
    "Database",
    "DatabaseGone",
    "Migration",
    "NewerSchema",
    "NotADatabase",
    "NotSetUp",
    "OlderSchema",
    "Params",
    "PostgresDatabase",
    "Row",
    "SqliteDatabase",
    "StoreError",
    "Transaction",
    "backup_file",
    "from_db",
    "is_postgres",
    "load_migrations",
    "retried_on_conflict",
    "shown_location",
    "to_db",
    "to_db_or_none",
]
