"""An admin's path through real processes (`python -m bot ...`, Discord replaced by
tests/cogs/stand_in.py where the bot runs): a misspelled setting stops the bot and creates
nothing; a database is created only by `init`; a database of an older release is refused at
start with the command to run, and `migrate` upgrades it offline after keeping a copy readable
by its owner only, on both engines; two processes never run the same shard."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot import __main__ as entry
from bot.errors import StoreBusy
from bot.store import Database, Migration, load_migrations, shard_leases, to_db
from bot.store.base import Params, Row, postgres_migrations
from bot.store.shard_leases import TAKEOVER_AFTER, ShardClaimed, ShardLease
from tests.databases import POSTGRES, create_postgres_database, drop_postgres_database

REPO = Path(__file__).resolve().parents[2]
PLAYERS = 5  # rows an older release left in its database


def environment(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return {**env, "PYTHONPATH": str(REPO), **settings}


def bredon(cwd: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` (no token: the commands that need none)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=environment(**settings),
        capture_output=True,
        text=True,
        timeout=120,
    )


def started(cwd: Path, **settings: str) -> subprocess.Popen[str]:
    """The bot, Discord replaced by the stand-in."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cogs.stand_in"],
        cwd=cwd,
        env=environment(DISCORD_TOKEN="stand-in-token", **settings),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@dataclass
class Running:
    process: subprocess.Popen[str]
    log: str = ""  # its stderr, once stopped


@contextmanager
def running(cwd: Path, **settings: str) -> Iterator[Running]:
    """The bot connected (to the stand-in); stopped by SIGTERM, which must end it with 0."""
    bot = started(cwd, **settings)
    try:
        assert bot.stdout is not None
        line = bot.stdout.readline()
        assert line == "connected\n", bot.communicate(timeout=60)[1]
        ran = Running(bot)
        yield ran
        bot.terminate()
        _, ran.log = bot.communicate(timeout=60)
        assert bot.returncode == 0, ran.log
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def refused(cwd: Path, status: int, **settings: str) -> str:
    """The bot's one sentence when it refuses to start, checked to be only that."""
    bot = started(cwd, **settings)
    out, err = bot.communicate(timeout=120)
    assert bot.returncode == status, err
    assert "connected" not in out and "Traceback" not in err
    return err.splitlines()[-1]


def sqlite_players(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM players").fetchone()[0])


def sqlite_version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


async def old_release(location: Path | str, migrations: list[Migration]) -> None:
    """A database as the release of the last of `migrations` left it, with a few players."""
    db = await Database.open(location, migrations=migrations)
    async with db.transaction() as tx:
        for number in range(PLAYERS):
            await tx.execute(
                "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (1000 + number, f"player {number}", to_db(datetime.now(UTC)), "x"),
            )
    await db.close()


def old_release_file(path: Path) -> None:
    """A SQLite file of schema 19, the issue's previous release."""
    asyncio.run(old_release(path, load_migrations()[:19]))


@contextmanager
def shell_umask() -> Iterator[None]:
    """The umask a shell outside systemd usually has (022), where copies were world-readable."""
    umask = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(umask)


def private(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.sqlite_only
def test_a_misspelled_setting_is_named_and_nothing_is_created(tmp_path: Path) -> None:
    for where in ("environment", ".env"):
        settings = {}
        if where == "environment":
            settings["BREDON_DATABSE"] = "mine.sqlite3"
        else:
            (tmp_path / ".env").write_text("BREDON_LOG_LEVEL=INFO\nBREDON_DATABSE=mine.sqlite3\n")
        line = refused(tmp_path, entry.EXIT_CONFIG, **settings)
        assert line.startswith("Configuration error: BREDON_DATABSE (in ")
        assert "did you mean BREDON_DATABASE?" in line
        assert not list(tmp_path.glob("*.sqlite3*"))


@pytest.mark.sqlite_only
def test_a_database_is_created_by_init_only_and_the_start_names_it(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    line = refused(tmp_path, entry.EXIT_CONFIG)
    assert line == (
        f"There is no Bredon database at {database}: if BREDON_DATABASE names your database, "
        "check it; to start with a new, empty one, run `python -m bot init` "
        "(docs/operations.md)."
    )
    assert not database.exists()

    done = bredon(tmp_path, "init")
    known = len(load_migrations())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"Created a new, empty Bredon database. Database {database}: schema version {known}; "
        "active games 0, "
    )
    # Again (the README's install-and-run command run a second time): nothing is made anew.
    again = bredon(tmp_path, "init")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(
        f"{database} already holds a Bredon database of this version (schema version {known}): "
        "nothing to create."
    )

    with running(tmp_path) as bot:
        pass
    assert f"Database {database}: schema version {known}; active games 0" in bot.log


@pytest.mark.sqlite_only
def test_an_older_file_is_refused_at_start_and_migrated_offline(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    old_release_file(database)
    before = database.read_bytes()
    line = refused(tmp_path, entry.EXIT_DATABASE)
    assert line.startswith(
        f"{database} has schema version 19, older than this Bredon's {len(load_migrations())}: "
        "stop every Bredon process using it, then run `python -m bot migrate` once"
    )
    assert database.read_bytes() == before and not list(tmp_path.glob("*backup*"))
    older = bredon(tmp_path, "init")
    assert older.returncode == entry.EXIT_DATABASE
    assert (
        f"{database} already holds a Bredon database (schema version 19): init makes new ones "
        "only (`python -m bot migrate` upgrades one)."
    ) in older.stderr
    assert database.read_bytes() == before

    with shell_umask():
        done = bredon(tmp_path, "migrate")
    assert done.returncode == 0, done.stderr
    kept = tmp_path / "bredon.v19-backup.sqlite3"
    assert done.stdout.splitlines()[:2] == [
        f"Kept a copy of {database} as {kept}.",
        f"Migrated it from schema version 19 to {len(load_migrations())}; every count kept.",
    ]
    assert private(kept) and sqlite_version(kept) == 19 and sqlite_players(kept) == PLAYERS
    assert sqlite_version(database) == len(load_migrations()) and sqlite_players(database) == 5
    assert bredon(tmp_path, "migrate").stdout.endswith("nothing to do.\n")

    with running(tmp_path):
        pass
    with shell_umask():
        backup = bredon(tmp_path, "backup", "taken.sqlite3")
    assert backup.returncode == 0, backup.stderr
    assert private(tmp_path / "taken.sqlite3")


@pytest.mark.sqlite_only
def test_migrating_at_start_is_asked_for_by_one_setting(tmp_path: Path) -> None:
    old_release_file(tmp_path / "bredon.sqlite3")
    with running(tmp_path, BREDON_MIGRATE_ON_START="1"):
        pass
    assert private(tmp_path / "bredon.v19-backup.sqlite3")
    assert sqlite_version(tmp_path / "bredon.sqlite3") == len(load_migrations())


@pytest.mark.sqlite_only
def test_two_processes_never_run_the_same_shards(tmp_path: Path) -> None:
    assert bredon(tmp_path, "init").returncode == 0
    with running(tmp_path, BREDON_SHARDS="4", BREDON_SHARD_IDS="0-1") as first:
        line = refused(tmp_path, entry.EXIT_CONFIG, BREDON_SHARDS="4", BREDON_SHARD_IDS="1-2")
        assert line.startswith(
            f"Shard 1 is already run by another Bredon process on this database (process "
            f"{first.process.pid} on "
        )
        assert "give each process shards of its own with BREDON_SHARDS and BREDON_SHARD_IDS" in line
        with running(tmp_path, BREDON_SHARDS="4", BREDON_SHARD_IDS="2-3"):
            # A process without shard ids runs them all: it overlaps both.
            line = refused(tmp_path, entry.EXIT_CONFIG)
            assert line.startswith("Shard 0 is already run by another Bredon process")
    with running(tmp_path, BREDON_SHARDS="4", BREDON_SHARD_IDS="0-3"):  # given back at the stop
        pass


@pytest.mark.sqlite_only
def test_a_start_that_fails_after_claiming_gives_the_shards_back(tmp_path: Path) -> None:
    """Discord unreachable (exit 5, which systemd and Docker retry): the shards are given back as
    at a clean stop, so that a retry in a new container (another host name) need not wait."""
    assert bredon(tmp_path, "init").returncode == 0
    refused(tmp_path, entry.EXIT_NETWORK, STAND_IN_GATEWAY="real")
    with closing(sqlite3.connect(tmp_path / "bredon.sqlite3")) as db:
        assert db.execute("SELECT * FROM shard_leases").fetchall() == []


async def test_a_lease_of_another_machine_is_taken_over_only_once_its_heartbeat_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await Database.open(tmp_path / "bredon.sqlite3")
    try:
        await db.write_one(
            "INSERT INTO shard_leases (shard, holder, host, pid, beat, claimed_at) "
            "VALUES (2, 'elsewhere', 'another-machine', 1, 0, '2026-01-01T00:00:00')"
        )
        waited: list[float] = []

        async def still_beating(seconds: float) -> None:
            waited.append(seconds)
            await db.write_one("UPDATE shard_leases SET beat = beat + 1")

        with pytest.raises(ShardClaimed, match="process 1 on another-machine"):
            await ShardLease.claim(db, (1, 2), wait=still_beating)
        assert waited == [TAKEOVER_AFTER]
        # The wait is said, so that a start that seems to hang tells why.
        assert caplog.messages == [
            "Shard 2 is already run by another Bredon process on this database (process 1 on "
            "another-machine, since 2026-01-01 00:00:00 UTC): waiting 50 s to see whether its "
            "heartbeat moves (a process stopped cleanly gives its shards back; one that crashed "
            "leaves them to be taken over)."
        ]

        async def gone(seconds: float) -> None:
            waited.append(seconds)

        lease = await ShardLease.claim(db, (1, 2), wait=gone)
        rows = await db.fetchall("SELECT shard, holder FROM shard_leases ORDER BY shard")
        assert [tuple(row) for row in rows] == [(1, lease.holder), (2, lease.holder)]
        await lease.beat()
        await lease.release()
        assert await db.fetchall("SELECT * FROM shard_leases") == []
        with pytest.raises(ShardClaimed, match="took over this process's shards"):
            await lease.beat()
    finally:
        await db.close()


async def test_a_heartbeat_the_store_refuses_for_a_moment_beats_again_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A heartbeat refused as busy (another process held SQLite's write lock past its 2 s) must
    not stop the beating: a running bot whose heartbeat stopped would have its shards taken over
    by another machine's process while it still runs them."""
    db = await Database.open(tmp_path / "bredon.sqlite3")
    try:
        lease = await ShardLease.claim(db, None)
        write_one = db.write_one
        refused: list[str] = []

        async def busy_once(sql: str, params: Params = ()) -> list[Row]:
            if not refused:
                refused.append(sql)
                raise StoreBusy()
            return await write_one(sql, params)

        monkeypatch.setattr(db, "write_one", busy_once)
        monkeypatch.setattr(shard_leases, "BEAT_EVERY", 0.01)
        beating = asyncio.create_task(lease.keep())
        while not await db.fetchone("SELECT 1 FROM shard_leases WHERE beat > 0"):
            assert not beating.done(), beating.exception()
            await asyncio.sleep(0.01)
        assert refused
        beating.cancel()
    finally:
        await db.close()


async def test_a_lease_left_by_a_crash_on_this_machine_is_taken_back_at_once(
    tmp_path: Path,
) -> None:
    """A process killed (SIGKILL, a power cut) keeps its rows; restarted on the same machine, the
    bot sees that process gone and claims its shards without waiting."""
    crashed = subprocess.Popen([sys.executable, "-c", "pass"])
    crashed.wait()
    db = await Database.open(tmp_path / "bredon.sqlite3")
    try:
        await db.write_one(
            "INSERT INTO shard_leases (shard, holder, host, pid, beat, claimed_at) "
            "VALUES (-1, 'crashed', ?, ?, 7, '2026-01-01T00:00:00')",
            (socket.gethostname(), crashed.pid),
        )
        waited: list[float] = []

        async def wait(seconds: float) -> None:
            waited.append(seconds)

        lease = await ShardLease.claim(db, (0, 1), wait=wait)
        assert waited == []
        rows = await db.fetchall("SELECT shard, holder FROM shard_leases ORDER BY shard")
        assert [tuple(row) for row in rows] == [(0, lease.holder), (1, lease.holder)]
    finally:
        await db.close()


# --------------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def postgres() -> Iterator[str]:
    url = asyncio.run(create_postgres_database())
    yield url
    asyncio.run(drop_postgres_database(url))


async def postgres_scalar(url: str, sql: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval(sql))
    finally:
        await connection.close()


@pytest.mark.postgres_only
async def test_two_processes_claiming_a_shard_at_once_on_postgresql(postgres: str) -> None:
    """Both find the shard free; the one whose row commits first keeps it, the other is
    refused with the sentence (not PostgreSQL's conflict, "the game store is busy")."""
    db = await Database.open(postgres)
    first = await asyncpg.connect(postgres)
    try:
        other = first.transaction()
        await other.start()
        await first.execute(
            "INSERT INTO shard_leases (shard, holder, host, pid, beat, claimed_at) "
            "VALUES (1, 'first', $1, $2, 0, '2026-01-01T00:00:00')",
            socket.gethostname(),
            os.getppid(),  # a process that runs, on this machine
        )
        claim = asyncio.create_task(ShardLease.claim(db, (0, 1)))
        while not await postgres_scalar(  # until the claim waits for the first one's row
            postgres, "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ):
            assert not claim.done(), claim.exception()
            await asyncio.sleep(0.05)
        await other.commit()
        with pytest.raises(
            ShardClaimed, match=rf"Shard 1 is already run .*\(process {os.getppid()} on "
        ):
            await claim
        rows = await db.fetchall("SELECT shard, holder FROM shard_leases ORDER BY shard")
        assert [tuple(row) for row in rows] == [(1, "first")]
    finally:
        await first.close()
        await db.close()


@pytest.mark.postgres_only
def test_several_processes_upgrade_postgresql_in_order(tmp_path: Path, postgres: str) -> None:
    """The documented order: every old process stopped, `migrate` once (a copy of every table
    kept in the database first), then the new processes, each on shards of its own; a process
    whose code is older than the schema exits with 6, which systemd restarts."""
    assert POSTGRES
    known = postgres_migrations()[-1].version
    old = known - 2
    asyncio.run(old_release(postgres, [m for m in postgres_migrations() if m.version <= old]))
    line = refused(tmp_path, entry.EXIT_DATABASE, BREDON_DATABASE=postgres)
    assert f"has schema version {old}, older than this Bredon's {known}" in line
    assert "`python -m bot migrate`" in line

    async def migrate_beside_a_process() -> subprocess.CompletedProcess[str]:
        """`migrate` while a process of the old release is still connected: refused."""
        old_process = await asyncpg.connect(
            postgres, server_settings={"application_name": "bredon"}
        )
        try:
            return await asyncio.to_thread(bredon, tmp_path, "migrate", postgres)
        finally:
            await old_process.close()

    done = asyncio.run(migrate_beside_a_process())
    assert done.returncode == entry.EXIT_DATABASE
    assert done.stderr.startswith("Not migrated: Bredon processes still have 1 connection(s) open")
    done = bredon(tmp_path, "migrate", postgres)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        f"Kept a copy of {postgres} as bredon_backup_v{old} (a schema of the same database).",
        f"Migrated it from schema version {old} to {known}; every count kept.",
    ]
    kept = f"bredon_backup_v{old}"
    for sql, expected in (
        ("SELECT version FROM bredon_schema", known),
        ("SELECT COUNT(*) FROM players", PLAYERS),
        (f"SELECT COUNT(*) FROM {kept}.players", PLAYERS),
        (f"SELECT version FROM {kept}.bredon_schema", old),
    ):
        assert asyncio.run(postgres_scalar(postgres, sql)) == expected, sql

    shards = {"BREDON_DATABASE": postgres, "BREDON_SHARDS": "2"}
    with (
        running(tmp_path, **shards, BREDON_SHARD_IDS="0"),
        running(tmp_path, **shards, BREDON_SHARD_IDS="1"),
    ):
        line = refused(tmp_path, entry.EXIT_CONFIG, **shards, BREDON_SHARD_IDS="0-1")
        assert line.startswith("Shard 0 is already run by another Bredon process")

    newer = f"UPDATE bredon_schema SET version = {known + 1} RETURNING version"  # a newer release
    assert asyncio.run(postgres_scalar(postgres, newer)) == known + 1
    line = refused(tmp_path, entry.EXIT_UPGRADED, BREDON_DATABASE=postgres)
    assert f"has schema version {known + 1}, but this Bredon knows up to {known}" in line
