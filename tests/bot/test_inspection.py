"""`python -m bot check [DATABASE]` as a real subprocess, on a SQLite file and on PostgreSQL:
schema version against the code's, integrity, consistency (balances and pots against the ledger,
plies against the move log), counts that match the database; read-only (an old file is not
upgraded); exit 4 for any database that cannot be trusted, with a sentence and no traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.services import Services
from bot.store import Database, load_migrations
from tests.bot.conftest import ALICE, GUILD, play, start_game
from tests.databases import create_postgres_database, drop_postgres_database

REPO = Path(__file__).resolve().parents[2]


def check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", "check", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(REPO)},  # no token: checking needs none
        capture_output=True,
        text=True,
        timeout=60,
    )


def counted(path: Path, query: str) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute(query).fetchone()[0])


async def fill(database: Path | str) -> int:
    """A finished game, an active one, coins granted; returns the announcements undelivered."""
    services = await Services.open(database)
    try:
        finished = await start_game(services)
        await services.games.resign(finished.id, finished.white.id)
        active = await start_game(services)
        await play(services, active.id, "a1 e5")
        await services.wallets.configure(GUILD, enabled=True)
        await services.wallets.grant(GUILD, ALICE, 5)
        return await services.outbox.pending()
    finally:
        await services.close()


def filled_report(backlog: int) -> list[str]:
    """What `check` says of what :func:`fill` made, after the schema and integrity lines."""
    return [
        "consistency check: ok",
        "active games: 1",
        "finished games: 1",
        "aborted games: 0",
        "players: 2",
        "tournaments: 0",
        f"undelivered announcements: {backlog}",
    ]


# What the schema's triggers never let Bredon do: a balance moved without its ledger row, a
# game one ply further with no move logged.
BREAK_RULES = (
    "UPDATE wallets SET balance = balance + 1",
    "UPDATE games SET ply = ply + 1, version = version + 1 WHERE status = 'active'",
)
BROKEN = [
    "Problem: 1 wallet balance(s) not the sum of their ledger rows (changed outside Bredon? "
    "restore a backup).",
    "Problem: 1 game(s) whose ply is not where their live (not undone) moves lead (changed "
    "outside Bredon? restore a backup).",
]


async def test_a_sound_file_is_reported_with_its_counts(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    await fill(database)
    done = check(tmp_path)
    assert done.returncode == 0, done.stderr
    known = len(load_migrations())
    backlog = counted(database, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    assert backlog > 0
    assert done.stdout.splitlines() == [
        f"{database}: schema version {known} (this Bredon's)",
        "integrity check: ok",
        *filled_report(backlog),
    ]
    assert done.stderr == ""


async def test_a_file_that_breaks_the_rules_between_tables_exits_4(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    await fill(database)
    with closing(sqlite3.connect(database)) as db:
        db.execute("DROP TRIGGER wallets_by_ledger_only")
        db.execute("DROP TRIGGER games_log_move")
        for statement in BREAK_RULES:
            db.execute(statement)
        db.commit()
    done = check(tmp_path)
    assert done.returncode == 4
    assert done.stdout.splitlines()[1:3] == ["integrity check: ok", "consistency check: FAILED"]
    assert done.stderr.splitlines() == BROKEN


@pytest.mark.postgres_only
async def test_a_postgresql_database_is_reported_and_its_rules_checked(tmp_path: Path) -> None:
    url = await create_postgres_database()
    try:
        backlog = await fill(url)
        done = check(tmp_path, url)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            f"{url}: schema version {len(load_migrations())} (this Bredon's)",
            *filled_report(backlog),
        ]
        assert done.stderr == ""

        connection = await asyncpg.connect(url)
        try:
            async with connection.transaction():
                for table in ("wallets", "games"):
                    await connection.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
                for statement in BREAK_RULES:
                    await connection.execute(statement)
                for table in ("wallets", "games"):
                    await connection.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        finally:
            await connection.close()
        done = check(tmp_path, url)
        assert done.returncode == 4
        assert done.stdout.splitlines()[1] == "consistency check: FAILED"
        assert done.stderr.splitlines() == BROKEN
    finally:
        await drop_postgres_database(url)


def test_a_postgresql_server_that_cannot_be_reached_exits_4(tmp_path: Path) -> None:
    done = check(tmp_path, "postgresql://bredon:secret@127.0.0.1:1/bredon")
    assert done.returncode == 4
    assert done.stderr.startswith("Cannot connect to PostgreSQL at postgresql://bredon:***@")
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


async def test_an_older_file_is_reported_and_left_as_it_is(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    await (await Database.open(old, migrations=load_migrations()[:3])).close()
    before = old.read_bytes()
    done = check(tmp_path, "old.sqlite3")
    assert done.returncode == 0, done.stderr
    assert (
        f"schema version 3; `python -m bot migrate` upgrades it to {len(load_migrations())}"
        in done.stdout
    )
    assert "undelivered announcements" not in done.stdout  # no outbox before migration 4
    assert old.read_bytes() == before and not list(tmp_path.glob("*backup*"))
    assert counted(old, "PRAGMA user_version") == 3


def test_files_that_cannot_be_trusted_exit_4(tmp_path: Path) -> None:
    known = len(load_migrations())
    newer = tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(newer)) as db:
        db.execute(f"PRAGMA user_version = {known + 1}")
    done = check(tmp_path, "newer.sqlite3")
    assert done.returncode == 4
    assert f"is newer than this Bredon's ({known}): upgrade Bredon" in done.stderr

    damaged = tmp_path / "damaged.sqlite3"
    with closing(sqlite3.connect(damaged)) as db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 50,)] * 2000)
        db.execute("CREATE INDEX tx ON t (x)")
        db.commit()
    data = bytearray(damaged.read_bytes())
    data[4096 * 5 : 4096 * 5 + 200] = b"\xff" * 200  # inside the table's pages
    damaged.write_bytes(bytes(data))
    done = check(tmp_path, "damaged.sqlite3")
    assert done.returncode == 4
    assert done.stdout.splitlines()[1:] == ["integrity check: FAILED"]  # and no counts
    assert "Problem: integrity check failed (" in done.stderr and "restore a backup" in done.stderr

    (tmp_path / "text.sqlite3").write_text("not a database\n" * 100)
    for name, message in (
        ("text.sqlite3", "cannot be read as a SQLite database"),
        ("missing.sqlite3", "There is no database at"),
    ):
        done = check(tmp_path, name)
        assert done.returncode == 4 and message in done.stderr, done.stderr
    for done in (check(tmp_path, "text.sqlite3"), check(tmp_path, "missing.sqlite3")):
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "missing.sqlite3").exists()


async def test_checking_leaves_nothing_beside_the_file(tmp_path: Path) -> None:
    """Read-only also means no write-ahead log or index left beside a file that had none (a
    backup, a stopped bot's file); beside a running bot's file they stay as they are."""
    database = tmp_path / "bredon.sqlite3"
    await (await Database.open(database)).close()
    before = sorted(tmp_path.iterdir())
    assert before == [database]
    done = check(tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(tmp_path.iterdir()) == before

    running = await Database.open(database)
    try:
        beside = sorted(tmp_path.iterdir())
        assert len(beside) == 3  # the file, its -wal and -shm
        done = check(tmp_path)
        assert done.returncode == 0, done.stderr
        assert sorted(tmp_path.iterdir()) == beside
    finally:
        await running.close()
