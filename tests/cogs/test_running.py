"""`python -m bot`: settings from `.env`, and clear messages (never a traceback) for a missing or
rejected token and for a database file it must not use."""

from __future__ import annotations

import logging
import os
import resource
import sqlite3
import subprocess
import sys
import tomllib
from contextlib import closing
from importlib import metadata
from pathlib import Path

import aiohttp
import discord
import pytest

from bot import __main__ as entry
from bot.settings import Settings, SettingsError, load_settings, parse_env_file
from bot.store import Database, load_migrations
from bot.store.sqlite import SqliteDatabase
from cogs.client import BredonBot

REPO = Path(__file__).resolve().parents[2]


def run_module(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_it_says_what_to_do_and_fails(tmp_path: Path) -> None:
    """With no .env, copy the example; with one whose token is empty, fill it in."""
    for args in ((), ("sync",)):
        done = run_module(tmp_path, *args)
        assert done.returncode == entry.EXIT_CONFIG
        assert done.stderr.startswith("DISCORD_TOKEN is not set. Copy ")
        assert "Traceback" not in done.stderr + done.stdout
    (tmp_path / ".env").write_text("# nothing filled in yet\nDISCORD_TOKEN=\n")
    for args in ((), ("sync",)):
        done = run_module(tmp_path, *args)
        assert done.returncode == entry.EXIT_CONFIG
        assert done.stderr.startswith(
            f"DISCORD_TOKEN is empty in {tmp_path / '.env'}: put your bot's token there"
        )
        assert "Copy" not in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert not (tmp_path / "bredon.sqlite3").exists()  # nothing was started


def test_it_says_its_version_and_so_does_the_bredon_command(tmp_path: Path) -> None:
    """`--version` needs no settings; `bredon` is the installed console script, the same as
    `python -m bot` (here: without a token, it says what to do)."""
    release = metadata.version("bredon-bot")
    assert tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"] == release
    done = run_module(tmp_path, "--version")
    assert (done.returncode, done.stdout) == (0, f"Bredon {release}\n")
    command = Path(sys.executable).parent / "bredon"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    for args, status in ((["--version"], 0), ([], entry.EXIT_CONFIG)):
        ran = subprocess.run(
            [command, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
        assert ran.returncode == status, ran.stderr
    assert (
        ran.stderr.startswith("DISCORD_TOKEN is not set")
        or "DISCORD_TOKEN is not set" in ran.stderr
    )


def test_a_malformed_setting_is_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nBREDON_DEV_GUILD=my-server\n")
    done = run_module(tmp_path, "sync", "--guild")
    assert done.returncode == entry.EXIT_CONFIG
    assert "BREDON_DEV_GUILD must be a server id" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_database_it_must_not_use_is_refused_before_contacting_discord(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=dummy-token\n")
    database = tmp_path / "bredon.sqlite3"
    known = len(load_migrations())
    with closing(sqlite3.connect(database)) as newer:
        newer.execute(f"PRAGMA user_version = {known + 3}")
    done = run_module(tmp_path)
    # Another process's newer Bredon upgraded it: this one is retried until it is upgraded too.
    assert done.returncode == entry.EXIT_UPGRADED == 6
    # The start-up log says which .env was read, then the one sentence.
    settings_line, message = done.stderr.splitlines()
    assert f"Settings from {tmp_path / '.env'} and the environment." in settings_line
    assert message == (
        f"{database} has schema version {known + 3}, but this Bredon knows up to {known}: "
        "upgrade Bredon, or restore a backup made by this version."
    )
    assert done.stdout == "" and "dummy-token" not in done.stderr  # the token is never logged

    database.write_text("not a database at all\n" * 100)
    done = run_module(tmp_path, "sync")
    assert done.returncode == entry.EXIT_DATABASE
    assert done.stderr.splitlines()[-1].startswith(f"{database} is not a SQLite database")
    assert done.stderr.count("\n") == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("failure", "status", "message"),
    [
        (
            discord.LoginFailure("Improper token has been passed."),
            3,
            "Discord rejected DISCORD_TOKEN",
        ),
        # Worth retrying by itself (deploy/bredon.service restarts on it, not on 3).
        (aiohttp.ClientConnectionError("Cannot connect to host"), 5, "Cannot reach Discord"),
    ],
)
def test_a_rejected_token_or_no_connection_says_what_to_do(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: Exception,
    status: int,
    message: str,
) -> None:
    async def fail(self: BredonBot, token: str, *, reconnect: bool = True) -> None:
        raise failure

    monkeypatch.setattr(BredonBot, "start", fail)
    assert entry.main(["init"], {}, tmp_path) == 0
    assert entry.main([], {"DISCORD_TOKEN": "not-a-token"}, tmp_path) == status
    assert message in capsys.readouterr().err
    assert (entry.EXIT_LOGIN, entry.EXIT_NETWORK) == (3, 5)


def test_start_up_checks_the_database_once_and_hands_it_to_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole-file check costs seconds on a large database: `python -m bot` opens the store
    before contacting Discord and the bot uses that store instead of opening it again."""
    checks: list[Path] = []
    check = SqliteDatabase._check_integrity

    async def counted(self: SqliteDatabase) -> None:
        checks.append(self.path)
        await check(self)

    used: list[Database] = []

    async def start(self: BredonBot, token: str, *, reconnect: bool = True) -> None:
        await self._async_setup_hook()
        await self.setup_hook()
        used.append(self.services.db)

    assert entry.main(["init"], {}, tmp_path) == 0
    monkeypatch.setattr(SqliteDatabase, "_check_integrity", counted)
    monkeypatch.setattr(BredonBot, "start", start)
    assert entry.main([], {"DISCORD_TOKEN": "dummy-token"}, tmp_path) == 0
    assert checks == [tmp_path / "bredon.sqlite3"]
    assert len(used) == 1 and used[0].path == checks[0]


def test_env_file_parsing() -> None:
    values = parse_env_file(
        '# comment\n\nDISCORD_TOKEN="abc.def"\nexport BREDON_DATABASE = data/b.sqlite3\n'
        "BREDON_DEV_GUILD='123'\nBREDON_LOG_LEVEL=debug\n"
    )
    settings = Settings.from_mapping(values)
    assert settings == Settings("abc.def", Path("data/b.sqlite3"), 123, "DEBUG")
    with pytest.raises(SettingsError, match="line 2"):
        parse_env_file("A=1\nnot a setting\n")
    with pytest.raises(SettingsError, match="BREDON_LOG_LEVEL"):
        Settings.from_mapping({"BREDON_LOG_LEVEL": "loud"})


def test_the_environment_wins_over_the_file_and_defaults_fill_in(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nBREDON_DEV_GUILD=5\n")
    settings = load_settings(tmp_path / ".env", {"DISCORD_TOKEN": "from-env", "BREDON_X": ""})
    assert settings.token == "from-env" and settings.dev_guild == 5
    assert settings.database == Path("bredon.sqlite3") and settings.log_level == "INFO"
    assert load_settings(tmp_path / "missing.env", {}).token is None


def test_sync_target() -> None:
    with_dev = Settings("t", dev_guild=42)
    assert entry.sync_target(None, with_dev) is None
    assert entry.sync_target("dev", with_dev) == 42
    assert entry.sync_target("7", with_dev) == 7
    with pytest.raises(entry.CommandLineError, match="BREDON_DEV_GUILD"):
        entry.sync_target("dev", Settings("t"))


async def test_start_up_says_who_it_is_and_how_to_invite_it(
    simcord_env, caplog: pytest.LogCaptureFixture
) -> None:
    bot = simcord_env.bot
    simcord_env.create_guild("Tak Club")
    await simcord_env.settle()
    with caplog.at_level(logging.INFO, logger="cogs.client"):
        await bot.on_ready()
    [line] = [r.getMessage() for r in caplog.records if "Logged in as" in r.getMessage()]
    assert f"Logged in as {bot.user} in 1 server." in line
    assert f" Bredon {metadata.version('bredon-bot')}. Invite link: " in line
    assert f"client_id={bot.application_id}" in line and "permissions=309237763072" in line
    assert "applications.commands" in line
    # Bredon never joins voice: discord.py is told not to warn about voice libraries.
    assert not discord.VoiceClient.warn_nacl and not discord.VoiceClient.warn_dave


def test_a_database_that_cannot_grow_is_one_sentence(tmp_path: Path) -> None:
    """A file that may not grow (a limit on file size, as a full disk would) when it is created:
    exit 4 with what to check, not a raw SQLite error."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16_384, 16_384))

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "init"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "dummy-token"},
        preexec_fn=small_files,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == entry.EXIT_DATABASE
    assert done.stderr.splitlines()[-1] == (
        f"Writing {tmp_path / 'bredon.sqlite3'} failed with a disk I/O error (a full or failing "
        "disk, or a limit on file size): check the disk and its free space."
    )
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
