"""`python -m bot backup FILE`: SQLite's online backup, taken while another process writes moves;
every copy opens, passes integrity_check and holds a consistent store (each game's row agrees
with its move log)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import Database, backup_file, load_migrations

REPO = Path(__file__).resolve().parents[3]

WRITER = textwrap.dedent(
    """
    import asyncio, random, sys
    from bot.timekeeping.clock import FakeClock
    from bot.services import Services
    from tests.bot.setups import create_challenge
    from bot.players.model import PlayerRef

    async def main(path):
        services = await Services.open(path, clock=FakeClock(), rng=random.Random(3))
        alice, bob = PlayerRef(1, "alice"), PlayerRef(2, "bob")
        rng = random.Random(5)
        print("writing", flush=True)
        for _ in range(40):
            challenge = await create_challenge(
                services,
                guild_id=9, channel_id=9, challenger=alice, opponent=bob, size=6
            )
            game = (await services.challenges.accept(challenge.id, bob)).game
            for _ in range(30):
                position = await services.games.position(game.id)
                if position.result is not None:
                    break
                current = await services.games.get(game.id)
                move = rng.choice(position.legal_moves()).ptn()
                await services.games.move(game.id, current.player_to_move.id, move)
        await services.close()

    asyncio.run(main(sys.argv[1]))
    """
)


def environment(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return {**env, "PYTHONPATH": str(REPO), "BREDON_DATABASE": str(database)}


def test_backups_taken_while_moves_are_written_are_whole(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(database)],
        cwd=tmp_path,
        env=environment(database),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
    copies = []
    try:
        for number in range(3):
            target = tmp_path / f"copy-{number}.sqlite3"
            made = subprocess.run(
                [sys.executable, "-m", "bot", "backup", target.name],
                cwd=tmp_path,
                env=environment(database),  # no token: a backup needs none
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert made.returncode == 0, made.stderr
            assert "integrity ok" in made.stdout
            copies.append(target)
    finally:
        writer.wait(timeout=120)
    assert writer.returncode == 0
    newest = len(load_migrations())
    for copy in copies:
        with closing(sqlite3.connect(copy)) as backup:
            assert backup.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert backup.execute("PRAGMA user_version").fetchone() == (newest,)
            disagreeing = backup.execute(
                "SELECT g.id FROM games g WHERE g.ply != (SELECT COUNT(*) FROM moves m "
                "WHERE m.game_id = g.id AND m.undone_at IS NULL)"
            ).fetchall()
            assert disagreeing == []


def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    sqlite3.connect(database).close()
    taken = tmp_path / "taken.sqlite3"
    taken.write_bytes(b"keep me")
    made = subprocess.run(
        [sys.executable, "-m", "bot", "backup", taken.name],
        cwd=tmp_path,
        env=environment(database),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 4 and "already exists" in made.stderr
    assert "Traceback" not in made.stderr and taken.read_bytes() == b"keep me"


async def test_an_upgrade_keeps_a_copy_of_the_file_as_it_was(tmp_path: Path) -> None:
    database = tmp_path / "bredon.sqlite3"
    older = load_migrations()[:3]
    await (await Database.open(database, migrations=older)).close()
    await (await Database.open(tmp_path / "fresh.sqlite3")).close()  # a new file: nothing to keep

    upgraded = await Database.open(database)
    try:
        assert await upgraded.schema_version() == len(load_migrations())
    finally:
        await upgraded.close()
    kept = tmp_path / "bredon.v3-backup.sqlite3"
    with closing(sqlite3.connect(kept)) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA user_version").fetchone() == (3,)
    assert sorted(p.name for p in tmp_path.glob("*backup*")) == [kept.name]


def test_a_backup_that_fails_leaves_no_file_to_pass_for_one(tmp_path: Path) -> None:
    source, target = tmp_path / "bredon.sqlite3", tmp_path / "copy.sqlite3"
    source.write_bytes(os.urandom(8192))  # not a database
    with pytest.raises(sqlite3.DatabaseError):
        backup_file(source, target)
    assert not target.exists()
