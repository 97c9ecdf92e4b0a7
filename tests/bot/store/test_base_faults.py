"""Storage faults: a newer, damaged or foreign file is refused at open, a file deleted or replaced
while open is noticed before anything is written, and an outside write lock is refused fast."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Awaitable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from bot.errors import BredonError, StoreBusy, StoreClosed, StoreUnwritable
from bot.store import (
    DEFAULT_BUSY_TIMEOUT,
    CorruptDatabase,
    Database,
    DatabaseGone,
    NewerSchema,
    NotADatabase,
    load_migrations,
)

# Faults of the file itself; PostgreSQL's are in test_store_postgres.py.
pytestmark = pytest.mark.sqlite_only


KNOWN = len(load_migrations())
PLAYER = "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, 'x', 'x')"
NOT_FOR_EVER = 60.0  # seconds; only a write that waits for ever takes this long, however busy


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def add_player(db: Database, player_id: int) -> None:
    async with db.transaction() as tx:
        await tx.execute(PLAYER, (player_id, f"p{player_id}"))


async def player_ids(db: Database) -> list[int]:
    return [row["id"] for row in await db.fetchall("SELECT id FROM players ORDER BY id")]


async def test_a_newer_schema_is_refused_and_left_as_it_was(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as other:
        other.execute("CREATE TABLE future (id INTEGER)")
        other.execute(f"PRAGMA user_version = {KNOWN + 3}")
        other.commit()
    before = digest(db_path)
    with pytest.raises(NewerSchema) as refused:
        await Database.open(db_path)
    assert str(refused.value) == (
        f"{db_path} has schema version {KNOWN + 3}, but this Bredon knows up to {KNOWN}: "
        "upgrade Bredon, or restore a backup made by this version."
    )
    # Not even switched to WAL: the file is as the newer Bredon left it.
    assert digest(db_path) == before
    assert not db_path.with_name(db_path.name + "-wal").exists()


async def test_a_page_overwritten_with_garbage_is_refused(db_path: Path) -> None:
    db = await Database.open(db_path)
    for player_id in range(1, 400):
        await add_player(db, player_id)
    (root,) = await db.fetchone("SELECT rootpage FROM sqlite_master WHERE name = 'players'")
    (page_size,) = await db.fetchone("PRAGMA page_size")
    await db.close()  # the last close copies the log into the file and removes it
    assert not db_path.with_name(db_path.name + "-wal").exists()
    with db_path.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(random.Random(9).randbytes(page_size))
    damaged = digest(db_path)
    with pytest.raises(CorruptDatabase) as refused:
        await Database.open(db_path)
    message = str(refused.value)
    assert message.startswith(f"{db_path} is damaged (Page {root}: ")
    assert message.endswith("): restore it from a backup.")
    assert digest(db_path) == damaged


async def test_a_file_that_is_not_a_database_is_refused(db_path: Path) -> None:
    db_path.write_text("DISCORD_TOKEN=oops, this is the .env file\n" * 200)
    before = digest(db_path)
    with pytest.raises(NotADatabase) as refused:
        await Database.open(db_path)
    assert str(refused.value).startswith(f"{db_path} is not a SQLite database")
    assert "restore it from a backup" in str(refused.value)
    assert digest(db_path) == before


async def test_a_file_deleted_while_open_is_never_written_and_a_backup_restores(
    db_path: Path, tmp_path: Path
) -> None:
    db = await Database.open(db_path)
    await add_player(db, 1)
    backup = tmp_path / "backup.sqlite3"
    await db.write_one("VACUUM INTO ?", (str(backup),))
    await add_player(db, 2)
    await db.check_in_place()

    db_path.unlink()
    gone = f"The database file {db_path} was deleted or replaced while Bredon was running"
    with pytest.raises(DatabaseGone, match=gone):
        await db.check_in_place()
    with pytest.raises(DatabaseGone, match=gone):
        await add_player(db, 3)
    with pytest.raises(DatabaseGone, match=gone):
        await db.write_one(PLAYER, (4, "p4"))
    assert await player_ids(db) == [1, 2]  # reads still see the file that was opened
    await db.close()
    assert not db_path.exists()

    # What the message asks for: the old write-ahead log left beside it is empty, so a restored
    # backup opens as the backup, not with the lost file's pages replayed onto it.
    shutil.copy(backup, db_path)
    restored = await Database.open(db_path)
    try:
        assert await player_ids(restored) == [1]
    finally:
        await restored.close()


async def test_a_file_replaced_while_open_is_never_written(db_path: Path, tmp_path: Path) -> None:
    db = await Database.open(db_path)
    await add_player(db, 1)
    replacement = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(replacement)) as other:
        other.execute("CREATE TABLE marker (note TEXT)")
        other.execute("INSERT INTO marker VALUES ('the new file')")
        other.commit()
    os.replace(replacement, db_path)

    with pytest.raises(DatabaseGone, match="deleted or replaced"):
        await add_player(db, 2)
    with pytest.raises(DatabaseGone, match="deleted or replaced"):
        await db.check_in_place()
    await db.close()
    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("SELECT name FROM sqlite_master").fetchall() == [("marker",)]
        assert other.execute("SELECT note FROM marker").fetchall() == [("the new file",)]
        assert other.execute("PRAGMA quick_check").fetchall() == [("ok",)]


# Runs in a second process: takes the file's write lock and holds it until told (or 30 s).
LOCK_HOLDER = textwrap.dedent(
    """
    import select, sqlite3, sys
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    select.select([sys.stdin], [], [], 30)
    connection.execute("ROLLBACK")
    """
)


@contextmanager
def write_lock_held(path: Path) -> Iterator[subprocess.Popen[str]]:
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield holder
    finally:
        holder.communicate("release\n", timeout=30)


async def timed(awaitable: Awaitable[object]) -> tuple[BaseException | None, float]:
    """What the awaitable raised (None if nothing) and how long it took."""
    start = time.perf_counter()
    try:
        await awaitable
    except BaseException as error:
        return error, time.perf_counter() - start
    return None, time.perf_counter() - start


async def test_an_outside_write_lock_is_refused_fast_and_then_writes_go_on(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        await add_player(db, 1)
        with write_lock_held(db_path):
            error, seconds = await timed(add_player(db, 2))
            assert isinstance(error, StoreBusy) and isinstance(error, BredonError)
            assert (
                error.message == "The game store is busy right now; please try again in a moment."
            )
            print(f"transaction refused after {seconds:.2f} s")
            # Waited for the busy timeout, not for ever (only a hang reaches the upper bound).
            assert DEFAULT_BUSY_TIMEOUT - 0.2 < seconds < NOT_FOR_EVER
            one_timeout = seconds  # the baseline, as long as this machine takes today

            error, seconds = await timed(db.write_one(PLAYER, (3, "p3")))
            assert isinstance(error, StoreBusy) and seconds < 2 * one_timeout

            # Writers queued behind a refused one are refused with it, not one timeout each
            # (six timeouts would be six times the baseline).
            start = time.perf_counter()
            queued = await asyncio.gather(
                *(add_player(db, player_id) for player_id in range(10, 16)),
                return_exceptions=True,
            )
            seconds = time.perf_counter() - start
            print(f"six queued writers refused after {seconds:.2f} s")
            assert all(isinstance(result, StoreBusy) for result in queued)
            assert seconds < 3 * one_timeout

            # Reads do not need the write lock (WAL): they are answered, not refused as busy.
            assert await player_ids(db) == [1]
        # The refused BEGINs left no transaction open: the next write simply works.
        await add_player(db, 2)
        await db.write_one(PLAYER, (3, "p3"))
        assert await player_ids(db) == [1, 2, 3]
    finally:
        await db.close()


async def test_opening_needs_the_write_lock_only_to_migrate(db_path: Path) -> None:
    await (await Database.open(db_path)).close()
    with write_lock_held(db_path):
        # Up to date: only read. Needing the lock would be refused at once without waiting.
        db = await Database.open(db_path, busy_timeout=0)
        await db.close()
    db_path.unlink()
    with closing(sqlite3.connect(db_path)) as other:
        other.execute("PRAGMA journal_mode = WAL").fetchall()
    with write_lock_held(db_path):
        error, seconds = await timed(Database.open(db_path))  # has to migrate
    assert isinstance(error, StoreBusy) and seconds < NOT_FOR_EVER


async def test_a_full_disk_or_a_read_only_file_is_a_sentence_and_changes_nothing(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite's own refusals, as a full disk (the file may not grow: max_page_count) and a
    read-only file (query_only) give them: a refusal the user can be shown, with a sentence for
    the operator, logged once without a traceback."""
    db = await Database.open(db_path)
    try:
        pages = (await db.fetchone("PRAGMA page_count"))[0]  # type: ignore[index]
        async with db.transaction() as tx:
            await tx.execute(f"PRAGMA max_page_count = {int(pages)}")
        for number in range(2):  # the second is refused the same way, and not logged again
            with pytest.raises(StoreUnwritable) as full:
                async with db.transaction() as tx:
                    for index in range(2_000):
                        await tx.execute(PLAYER, (10_000 * number + index, "x" * 200))
            assert full.value.problem == (
                f"The disk holding {db_path} is full: free some space (Bredon saves again as soon "
                "as there is room)."
            )
            assert full.value.message.startswith("The game store cannot save anything right now")
        assert (await db.fetchone("SELECT COUNT(*) FROM players"))[0] == 0  # type: ignore[index]
        async with db.transaction() as tx:
            await tx.execute("PRAGMA max_page_count = 1073741823")
            await tx.execute("PRAGMA query_only = 1")
        with pytest.raises(StoreUnwritable) as read_only:
            async with db.transaction() as tx:
                await tx.execute(PLAYER, (1, "alice"))
        assert read_only.value.problem.startswith(f"{db_path} cannot be written (the file or")
    finally:
        await db.close()
    # One line as each outage begins, one as it ends (the PRAGMAs between were written).
    logged = [r for r in caplog.records if r.name == "bot.store.base"]
    lines = [r.getMessage() for r in logged]
    assert lines[0] == full.value.problem and lines[2] == read_only.value.problem
    assert lines[1].startswith(f"The database at {db_path} answers again, after an outage")
    assert len(lines) == 3
    assert not any(r.exc_info for r in logged)


async def test_a_closed_store_refuses_with_a_sentence(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    await db.close()  # closing again changes nothing
    for attempt in (db.fetchall("SELECT 1"), db.write_one("DELETE FROM players")):
        with pytest.raises(StoreClosed, match="Bredon is restarting"):
            await attempt
