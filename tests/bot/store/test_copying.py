"""`python -m bot copy SOURCE TARGET`: a SQLite file with a bit of everything (games, undone
moves, a tournament with a replacement, coins staked, ratings, a vacation, the outbox) copied
into PostgreSQL and back gives the same rows in every table; a target that holds anything, or
has another schema version, is refused untouched; a copy that fails is undone; new rows on
PostgreSQL get new ids. Also `python -m bot backup` of PostgreSQL, restored with pg_restore."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.services import Services
from bot.store import Database, load_migrations
from bot.store.copying import CopyError, SqliteSide, TablePlan, copy_database
from bot.timekeeping.clock import FakeClock
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play, start_game
from tests.bot.setups import create_challenge
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ORGANIZER,
    active_game,
    new_tournament,
    play_moves,
    play_round,
    start,
)
from tests.databases import create_postgres_database, drop_postgres_database

pytestmark = pytest.mark.postgres_only

REPO = Path(__file__).resolve().parents[3]
# Tables whose implicit rowid is part of what they hold (the order of equal times).
ROWID_TABLES = {"rating_changes", "tournament_players", "tournament_replacements"}


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file every test starts from, made once."""
    path = tmp_path_factory.mktemp("populated") / "bredon.sqlite3"
    asyncio.run(populate(path))
    return path


@pytest.fixture
def original(populated: Path, tmp_path: Path) -> Path:
    """A copy of the populated file of the test's own."""
    path = tmp_path / "original.sqlite3"
    shutil.copyfile(populated, path)
    return path


@pytest.fixture
async def postgres() -> AsyncIterator[str]:
    url = await create_postgres_database()
    yield url
    await drop_postgres_database(url)


async def populate(path: Path) -> None:
    """A bit of everything Bredon keeps, made by the services as players would."""
    services = await Services.open(path, clock=FakeClock(), rng=random.Random(3))
    try:
        rated = await start_game(services, size=3)
        await play(services, rated.id, "a3 a1 b1 b3 c1")  # white's road: ratings change
        undone = await start_game(services)
        await play(services, undone.id, "a1 e5 b2")
        await services.games.request_undo(undone.id, ALICE.id)
        await services.games.accept_undo(undone.id, BOB.id)
        await play(services, undone.id, "c3")  # the undone move stays in the log
        resigned = await start_game(services)
        await services.games.resign(resigned.id, resigned.white.id)

        await services.wallets.configure(GUILD, enabled=True)
        challenge = await create_challenge(
            services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=CAROL,
            stakes=True, size=5,
        )  # fmt: skip
        accepted = await services.challenges.accept(challenge.id, CAROL)
        assert accepted.stake is not None
        await services.wallets.bid(accepted.stake.id, ALICE.id, 5)
        staked = await services.wallets.bid(accepted.stake.id, CAROL.id, 3)
        assert staked.game is not None
        await play(services, staked.game.id, "e5 a1 b1")
        await services.wallets.grant(GUILD, BOB, 7)

        await services.holds.start_vacation(GUILD, BOB, 3)

        tournament = await new_tournament(services, (ANN, BEN, CAT, DAN))
        await start(services, tournament.id)
        await play_round(services, tournament.id)
        pairing = next(
            p
            for p in (await services.tournaments.pairings(tournament.id)).pairings
            if DAN.id in (p.player1.id, p.player2 and p.player2.id)
        )
        assert pairing.match_id is not None
        game = await active_game(services, pairing.match_id)
        await play_moves(services, game.id, "a1 c3")
        await services.entry.replace(
            tournament.id, DAN.id, EVE, actor_id=ORGANIZER.id, is_organizer=True
        )
    finally:
        await services.close()


def sqlite_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (with the rowid where it matters), in a fixed order."""
    with closing(sqlite3.connect(path)) as db:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        found = {}
        for table in tables:
            if table in ROWID_TABLES:
                found[table] = db.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()
            else:
                found[table] = sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
        return found


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT type, name, sql FROM sqlite_schema ORDER BY name").fetchall()


async def postgres_counts(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(url)
    try:
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_name != 'bredon_schema'"
        )
        return {
            row[0]: await connection.fetchval(f"SELECT COUNT(*) FROM {row[0]}") for row in tables
        }
    finally:
        await connection.close()


def run_bot(cwd: Path, *args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` with no Bredon settings in its environment but `environment`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(REPO), **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_sqlite_to_postgresql_and_back_keeps_every_row(
    original: Path, tmp_path: Path, postgres: str
) -> None:
    rows = sqlite_rows(original)
    assert all(rows[table] for table in (*ROWID_TABLES, "ledger", "stakes", "vacations", "outbox"))
    assert rows["moves"] != [m for m in rows["moves"] if m[6] is None]  # some undone

    there = await copy_database(original, postgres)
    counts = {table: len(found) for table, found in rows.items()}
    assert there.counts == {table: (n, n) for table, n in counts.items()}
    assert await postgres_counts(postgres) == counts
    assert there.source_problems == []

    back = tmp_path / "back.sqlite3"
    report = await copy_database(postgres, back)
    assert report.counts == {table: (n, n) for table, n in counts.items()}
    assert sqlite_rows(back) == rows
    assert schema_of(back) == schema_of(original)  # the triggers made again, as they were


async def test_the_source_is_read_in_one_snapshot_while_a_bot_writes_to_it(
    original: Path, postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that starts on the source during the copy, plays and stops (checkpointing its
    log into the file) changes nothing of what is copied: the rows as they were at the start."""
    before = sqlite_rows(original)
    batches = SqliteSide.batches
    played = []

    async def a_bot_plays_meanwhile(self: SqliteSide, plan: TablePlan) -> AsyncIterator[Any]:
        if not played:
            services = await Services.open(original, clock=FakeClock(), rng=random.Random(9))
            try:
                game = await start_game(services)
                await play(services, game.id, "a1 e5 c3")
                played.append(game.id)
            finally:
                await services.close()
        async for rows in batches(self, plan):
            yield rows

    monkeypatch.setattr(SqliteSide, "batches", a_bot_plays_meanwhile)
    report = await copy_database(original, postgres)
    assert played and sqlite_rows(original) != before
    counts = {table: len(rows) for table, rows in before.items()}
    assert report.counts == {table: (n, n) for table, n in counts.items()}
    assert await postgres_counts(postgres) == counts


async def test_new_rows_on_postgresql_get_new_ids_and_the_rules_hold_again(
    original: Path, tmp_path: Path, postgres: str
) -> None:
    await copy_database(original, postgres)
    highest = {}
    with closing(sqlite3.connect(original)) as db:
        for table in ("games", "moves", "outbox", "ledger", "challenges", "rating_changes"):
            highest[table] = db.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()[0]

    services = await Services.open(postgres, clock=FakeClock(), rng=random.Random(5))
    try:
        game = await start_game(services, size=3)
        await play(services, game.id, "a3 a1 b1 b3 c1")
        await services.wallets.grant(GUILD, ALICE, 2)
        assert game.id > highest["games"]
        for table, column in (
            ("moves", "id"),
            ("outbox", "id"),
            ("ledger", "id"),
            ("challenges", "id"),
            ("rating_changes", "rowid"),
        ):
            new = await services.db.fetchone(
                f"SELECT MIN({column}) FROM {table} WHERE {column} > ?", (highest[table],)
            )
            assert new is not None and new[0] == highest[table] + 1, table
        # The triggers are on again: the ledger moved the balance, the log refuses deletes.
        wallet = await services.wallets.wallet(GUILD, ALICE, own=False)
        summed = await services.db.fetchone(
            "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND player_id = ?",
            (GUILD, ALICE.id),
        )
        assert summed is not None and wallet.balance == summed[0]
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            async with services.db.transaction() as tx:
                await tx.execute("DELETE FROM moves")
    finally:
        await services.close()


async def test_a_target_that_is_not_empty_is_refused_untouched(
    original: Path, tmp_path: Path, postgres: str
) -> None:
    await copy_database(original, postgres)
    counts = await postgres_counts(postgres)
    with pytest.raises(CopyError, match=r"is not empty: it holds rows in .*nothing was changed"):
        await copy_database(original, postgres)
    assert await postgres_counts(postgres) == counts

    before = original.read_bytes()
    with pytest.raises(CopyError, match="is not empty"):
        await copy_database(postgres, original)
    assert original.read_bytes() == before


async def test_schema_versions_must_match(tmp_path: Path, postgres: str) -> None:
    older = tmp_path / "older.sqlite3"
    await (await Database.open(older, migrations=load_migrations()[:3])).close()
    before = older.read_bytes()
    with pytest.raises(CopyError, match="upgrade it first with `python -m bot migrate`"):
        await copy_database(older, postgres)
    await (await Database.open(tmp_path / "new.sqlite3")).close()
    await copy_database(tmp_path / "new.sqlite3", postgres)  # an empty installation copies too
    with pytest.raises(CopyError, match="upgrade the older one first with `python -m bot migrate`"):
        await copy_database(postgres, older)
    assert older.read_bytes() == before
    with pytest.raises(CopyError, match="Copy from a SQLite file to a PostgreSQL URL, or back"):
        await copy_database(older, tmp_path / "other.sqlite3")


async def test_sources_that_cannot_be_copied_are_refused(tmp_path: Path, postgres: str) -> None:
    (tmp_path / "text.sqlite3").write_text("not a database\n" * 100)
    for name, message in (
        ("missing.sqlite3", "There is no database at"),
        ("text.sqlite3", "Cannot read the databases: file is not a database. Nothing was copied"),
    ):
        with pytest.raises(CopyError, match=message):
            await copy_database(tmp_path / name, postgres)
    assert not (tmp_path / "missing.sqlite3").exists()
    assert set((await postgres_counts(postgres)).values()) <= {0}
    with pytest.raises(CopyError, match="Cannot connect to PostgreSQL at postgresql://bredon:\\*"):
        await copy_database("postgresql://bredon:secret@127.0.0.1:1/bredon", tmp_path / "n.sqlite3")
    assert not (tmp_path / "n.sqlite3").exists()


async def test_a_copy_that_fails_is_undone(original: Path, postgres: str) -> None:
    """A move whose game is missing (possible in a file written without foreign keys) stops
    the copy at PostgreSQL's foreign key: nothing of what went before stays."""
    with closing(sqlite3.connect(original)) as db:
        db.execute("DROP TRIGGER moves_only_undo")
        db.execute("UPDATE moves SET game_id = 9999 WHERE id = (SELECT MAX(id) FROM moves)")
        db.commit()
    with pytest.raises(CopyError, match=r"The copy failed and was undone .*left empty.*moves"):
        await copy_database(original, postgres)
    counts = await postgres_counts(postgres)
    assert counts and set(counts.values()) == {0}


async def test_a_source_whose_balances_disagree_is_copied_as_it_is_and_said_so(
    original: Path, postgres: str
) -> None:
    with closing(sqlite3.connect(original)) as db:
        db.execute("DROP TRIGGER wallets_by_ledger_only")
        db.execute("UPDATE wallets SET balance = balance + 1 WHERE player_id = ?", (BOB.id,))
        db.commit()
    report = await copy_database(original, postgres)
    assert report.source_problems == ["1 wallet balance(s) not the sum of their ledger rows"]
    connection = await asyncpg.connect(postgres)
    try:
        balance = await connection.fetchval(
            "SELECT balance FROM wallets WHERE player_id = $1", BOB.id
        )
    finally:
        await connection.close()
    with closing(sqlite3.connect(original)) as db:
        assert (balance,) == db.execute(
            "SELECT balance FROM wallets WHERE player_id = ?", (BOB.id,)
        ).fetchone()


async def test_a_copy_into_sqlite_that_fails_keeps_its_triggers(
    original: Path, tmp_path: Path, postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's triggers are dropped for the copy inside its transaction: undone, they are back."""
    await copy_database(original, postgres)
    target = tmp_path / "target.sqlite3"
    write = SqliteSide.write

    async def failing_at_moves(self: SqliteSide, plan: TablePlan, rows: Any) -> None:
        if plan.name == "moves":
            raise sqlite3.OperationalError("disk I/O error")
        await write(self, plan, rows)

    monkeypatch.setattr(SqliteSide, "write", failing_at_moves)
    with pytest.raises(CopyError, match=r"undone \(.*target.sqlite3 is left empty\): disk I/O"):
        await copy_database(postgres, target)
    assert schema_of(target) == schema_of(original)
    assert all(rows == [] for rows in sqlite_rows(target).values())


async def test_the_command_copies_and_refuses_sqlite_to_sqlite(
    original: Path, tmp_path: Path, postgres: str
) -> None:
    shutil.copyfile(original, tmp_path / "bredon.sqlite3")
    done = run_bot(tmp_path, "copy", "bredon.sqlite3", postgres)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Copied {tmp_path / 'bredon.sqlite3'} (SQLite) to postgresql://")
    games = sqlite_rows(tmp_path / "bredon.sqlite3")["games"]
    assert any(line.split() == ["games", str(len(games)), str(len(games))] for line in lines)
    assert lines[-1].startswith("Verified:")

    done = run_bot(tmp_path, "copy", "bredon.sqlite3", postgres)
    assert done.returncode == 4 and "is not empty" in done.stderr
    assert "Traceback" not in done.stderr
    done = run_bot(tmp_path, "copy", "bredon.sqlite3", "other.sqlite3")
    assert done.returncode == 2 and "python -m bot backup" in done.stderr
    assert not (tmp_path / "other.sqlite3").exists()


async def test_a_postgresql_backup_restores_with_pg_restore(
    original: Path, tmp_path: Path, postgres: str
) -> None:
    await copy_database(original, postgres)
    done = run_bot(tmp_path, "backup", "bredon.dump", BREDON_DATABASE=postgres)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"Backed up {postgres} to {tmp_path / 'bredon.dump'} (schema version "
        f"{len(load_migrations())}, read back with pg_restore --list).\n"
    )
    done = run_bot(tmp_path, "backup", "bredon.dump", BREDON_DATABASE=postgres)
    assert done.returncode == 4 and "bredon.dump already exists" in done.stderr
    nowhere = tmp_path / "no-tools"
    nowhere.mkdir()
    done = run_bot(tmp_path, "backup", "other.dump", BREDON_DATABASE=postgres, PATH=str(nowhere))
    assert done.returncode == 2 and "needs pg_dump and pg_restore on PATH" in done.stderr
    assert not (tmp_path / "other.dump").exists()

    restored = await create_postgres_database()
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", "--dbname", restored, str(tmp_path / "bredon.dump")],
            check=True,
        )
        assert await postgres_counts(restored) == await postgres_counts(postgres)
        done = run_bot(tmp_path, "check", restored)
        assert done.returncode == 0 and "consistency check: ok" in done.stdout, done.stderr
    finally:
        await drop_postgres_database(restored)
