"""`python -m bot` runs the bot; `python -m bot sync [--guild [ID]]` registers its slash commands;
`python -m bot backup FILE` copies the database consistently, even while the bot runs (SQLite's
online backup, or pg_dump for PostgreSQL);
`python -m bot check [DATABASE]` reports a database's schema version, integrity and contents;
`python -m bot copy SOURCE TARGET` moves an installation from a SQLite file into PostgreSQL or back;
`python -m bot init [DATABASE]` creates a new, empty database (the only way one is created);
`python -m bot migrate [DATABASE]` upgrades a database's schema offline, keeping a copy first;
`python -m bot health` asks the running bot's ``/healthz`` (for Docker's health check);
`python -m bot web` serves the pages anyone can open (web/) alone, without Discord.

The bot starts only on a database of this version's schema: a missing one names ``init``, an
older one ``migrate`` (or ``BREDON_MIGRATE_ON_START=1``), and the start-up log names the database,
its schema version and what it holds. A misspelled ``BREDON_*`` variable stops it at once.

Settings come from `.env` in the working directory and the environment (see `.env.example`).
Every foreseeable failure (no token, a rejected token, a malformed setting, an unusable database
path, a database file that is damaged, newer than this code, locked, read-only or on a full disk,
a health or pages port in use, Discord unreachable, or a `StoreError` that stops the running
bot) ends with one sentence saying what to do and a documented exit status, not a traceback; no
message repeats a setting's value, which could be the token pasted in the wrong place. The
database is checked before Discord is contacted.

SIGTERM and SIGINT stop the bot cleanly, also as PID 1 in a container (:meth:`BredonBot.stop`):
new commands are turned away, those under way finish, the worker processes end, the Discord
connection and the store close, and the exit status is 0.

Exit statuses: 0 done (also stopped by SIGTERM or SIGINT); 1 unhealthy (``health``);
2 configuration (an unknown setting, no database where BREDON_DATABASE points, a shard another
process runs; also ``copy`` between two SQLite files, ``backup`` without pg_dump); 3 Discord
rejected the token; 4 the database cannot be used (an older schema to migrate; also a ``check``,
``backup``, ``copy``, ``init`` or ``migrate`` that failed); 5 Discord cannot be reached; 6 the
database's schema is newer than this code (another process upgraded it: upgrade this one). Only
5, 6 (and 1) are worth retrying without a person: deploy/bredon.service says so.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import sqlite3
import sys
import urllib.error
import urllib.request
from collections.abc import Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from bot.errors import StoreBusy, StoreUnwritable
from bot.health import PortUnavailable
from bot.inspection import NotInspectable, described, inspect_database
from bot.release import bredon_version, shipped
from bot.settings import Settings, SettingsError, is_snowflake, load_settings
from bot.store import (
    Database,
    NewerSchema,
    NotSetUp,
    StoreError,
    backup_file,
    is_postgres,
    shown_location,
)
from bot.store.copying import CopyError, copy_database
from bot.store.pg_backup import ToolMissing, dump_postgres
from bot.store.postgres import bredon_connections
from bot.store.shard_leases import ShardClaimed

# The entry point, the one module that sees both layers: a run or a sync goes to Discord.
from cogs.running import DiscordFailure, log_to_console, run_bot, run_on_discord, run_sync
from web.app import alongside, serve_pages

log = logging.getLogger("bot")

EXIT_UNHEALTHY = 1
EXIT_CONFIG = 2
EXIT_LOGIN = 3
EXIT_DATABASE = 4
EXIT_NETWORK = 5  # worth retrying by itself, unlike the others
EXIT_UPGRADED = 6  # the code is older than the database: retried until it is upgraded too

TOKEN_FROM = (
    "(Discord Developer Portal -> your application -> Bot -> Reset Token), or set DISCORD_TOKEN "
    f"in the environment. See {shipped('docs/discord-setup.md')}."
)
NO_TOKEN = (
    f"DISCORD_TOKEN is not set. Copy {shipped('.env.example')} to .env and put your bot's token "
    f"in it {TOKEN_FROM}"
)
EMPTY_TOKEN = "DISCORD_TOKEN is empty in {env_file}: put your bot's token there " + TOKEN_FROM
Done = TypeVar("Done")
DISCORD_EXITS = {"intent": EXIT_CONFIG, "login": EXIT_LOGIN, "network": EXIT_NETWORK}


class CommandLineError(Exception):
    """A problem the operator can fix; the message says how."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def parse_args(argv: Sequence[str], prog: str = "python -m bot") -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog, description="Run the Bredon bot.")
    parser.add_argument("--version", action="version", version=f"Bredon {bredon_version()}")
    actions = parser.add_subparsers(dest="action")
    sync = actions.add_parser("sync", help="register the slash commands with Discord, then exit")
    sync.add_argument(
        "--guild",
        nargs="?",
        const="dev",
        metavar="ID",
        help="sync to one server only (instant); without ID, to BREDON_DEV_GUILD",
    )
    backup = actions.add_parser(
        "backup",
        help="copy the database to a new file, consistently, even while the bot runs "
        "(PostgreSQL: with pg_dump)",
    )
    backup.add_argument("file", type=Path, help="the backup file to create")
    check = actions.add_parser(
        "check", help="report a database's schema version, integrity and counts (read-only)"
    )
    check.add_argument(
        "database",
        nargs="?",
        help="a SQLite file or a postgresql:// URL (default: BREDON_DATABASE)",
    )
    copy = actions.add_parser(
        "copy",
        help="copy every row from a SQLite file into an empty PostgreSQL database, or back",
    )
    copy.add_argument("source", help="the database to copy: a SQLite file or a postgresql:// URL")
    copy.add_argument("target", help="the empty database to fill: the other kind")
    init = actions.add_parser("init", help="create a new, empty database (the bot creates none)")
    migrate = actions.add_parser(
        "migrate",
        help="upgrade a database to this version's schema, with every Bredon process stopped: "
        "keeps a copy first, then checks",
    )
    for action in (init, migrate):
        action.add_argument(
            "database",
            nargs="?",
            help="a SQLite file or a postgresql:// URL (default: BREDON_DATABASE)",
        )
    actions.add_parser("health", help="ask the running bot's /healthz (needs BREDON_HEALTH_PORT)")
    actions.add_parser(
        "web",
        help="serve the pages anyone can open, alone, from the configured database "
        "(BREDON_WEB_PORT, default 8081; needs no token)",
    )
    return parser.parse_args(argv)


def sync_target(argument: str | None, settings: Settings) -> int | None:
    """The guild to sync to (None: globally)."""
    if argument is None:
        return None
    if argument == "dev":
        if settings.dev_guild is None:
            raise CommandLineError(
                "--guild without an id needs BREDON_DEV_GUILD in .env.", EXIT_CONFIG
            )
        return settings.dev_guild
    if not is_snowflake(argument):
        raise CommandLineError(
            "--guild takes a server id: up to 20 digits (Discord: right-click the server -> "
            "Copy Server ID).",
            EXIT_CONFIG,
        )
    return int(argument)


def say(text: str) -> None:
    """Print to stdout. A reader that has gone (`check | head`) is no failure of the command:
    what remains is dropped, and the exit status is the command's own."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def tell(lines: Sequence[str], remarks: Sequence[str]) -> None:
    """A command's report on stdout, then its remarks, one sentence each, on stderr."""
    say("\n".join(lines))
    for remark in remarks:
        print(remark, file=sys.stderr)


def no_folder(database: Path) -> str:
    return (
        f"The folder {database.parent} for the database does not exist: create it, or "
        "set BREDON_DATABASE to a file in a folder that does."
    )


def located(argument: str, cwd: Path) -> Path | str:
    """A database named on the command line: a PostgreSQL URL as it is, a path from `cwd`."""
    return argument if is_postgres(argument) else cwd / argument


def run_backup(database: Path | str, target: Path) -> int:
    """`python -m bot backup FILE`: needs no token, and may run beside the bot."""
    try:
        if isinstance(database, str):
            version = dump_postgres(database, target)
            checked = "read back with pg_restore --list"
        else:
            version = backup_file(database, target)
            checked = "integrity ok"
    except ToolMissing as error:
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    except (StoreError, sqlite3.Error) as error:
        print(f"Backup failed: {error}", file=sys.stderr)
        return EXIT_DATABASE
    shown = shown_location(database)
    say(f"Backed up {shown} to {target} (schema version {version}, {checked}).")
    return 0


def run_copy(source: Path | str, target: Path | str) -> int:
    """`python -m bot copy SOURCE TARGET`: needs no token; the source may be in use."""
    if isinstance(source, Path) and isinstance(target, Path):
        raise CommandLineError(
            "Both are SQLite files: to copy a SQLite file, use `python -m bot backup FILE`.",
            EXIT_CONFIG,
        )
    if isinstance(source, str) and isinstance(target, str):
        raise CommandLineError(
            "Both are PostgreSQL URLs: copy one PostgreSQL database to another with pg_dump "
            "and pg_restore (docs/operations.md).",
            EXIT_CONFIG,
        )
    try:
        report = asyncio.run(copy_database(source, target))
    except CopyError as error:
        print(error, file=sys.stderr)
        return EXIT_DATABASE
    tell(report.lines(), [f"Copied as the source has it: {p}." for p in report.source_problems])
    return 0


def run_check(database: Path | str) -> int:
    """`python -m bot check [FILE]`: needs no token, changes nothing, may run beside the bot."""
    try:
        report = inspect_database(database)
    except NotInspectable as error:
        print(error, file=sys.stderr)
        return EXIT_DATABASE
    tell(report.lines(), [f"Problem: {problem}." for problem in report.problems])
    return EXIT_DATABASE if report.problems else 0


def on_the_store(step: Coroutine[object, object, Done]) -> Done:
    """Run a command's `step` on the store; what the store refuses ends the command with its
    sentence and exit status 4 (:class:`CommandLineError`)."""
    try:
        return asyncio.run(step)
    except StoreUnwritable as error:
        raise CommandLineError(error.problem, EXIT_DATABASE) from None
    except (StoreError, StoreBusy) as error:
        raise CommandLineError(str(error), EXIT_DATABASE) from None


def run_init(database: Path | str) -> int:
    """`python -m bot init [DATABASE]`: a new, empty database at this version's schema; never
    over one that holds a Bredon database (upgrading one is `migrate`'s). On a database that
    is already this version's it changes nothing and succeeds, so that the README's command
    to install and run the bot can be run again."""
    if isinstance(database, str) or database.exists():
        try:
            report = inspect_database(database)
        except NotInspectable as error:
            print(error, file=sys.stderr)
            return EXIT_DATABASE
        if report.version == report.known:
            say(
                f"{shown_location(database)} already holds a Bredon database of this version "
                f"(schema version {report.version}): nothing to create."
            )
            return 0
        if report.version > 0:
            print(
                f"{shown_location(database)} already holds a Bredon database (schema version "
                f"{report.version}): init makes new ones only (`python -m bot migrate` upgrades "
                "one).",
                file=sys.stderr,
            )
            return EXIT_DATABASE

    async def create() -> str:
        db = await Database.open(database)
        try:
            return await described(db)
        finally:
            await db.close()

    say(f"Created a new, empty Bredon database. {on_the_store(create())}")
    return 0


def run_migrate(database: Path | str) -> int:
    """`python -m bot migrate [DATABASE]`: the offline upgrade, with every Bredon process on the
    database stopped. Keeps a copy first (SQLite: a file beside it, readable by its owner only;
    PostgreSQL: every table copied into a schema ``bredon_backup_vNN``), migrates, then checks
    the result as `check` does and that it holds what the database held."""
    try:
        before = inspect_database(database)
    except NotInspectable as error:
        print(error, file=sys.stderr)
        return EXIT_DATABASE
    if before.problems or before.version == 0:
        problems = before.problems or [str(NotSetUp(database)).rstrip(".")]
        tell([], [f"Not migrated: {problem}." for problem in problems])
        return EXIT_DATABASE
    if before.version == before.known:
        say(f"{before.location} is at this Bredon's schema, {before.version}: nothing to do.")
        return 0
    if isinstance(database, str) and (running := on_the_store(bredon_connections(database))):
        print(
            f"Not migrated: Bredon processes still have {running} connection(s) open to "
            f'{before.location}: stop every one first (docs/operations.md, "Upgrading").',
            file=sys.stderr,
        )
        return EXIT_DATABASE

    async def upgrade() -> str | None:
        db = await Database.open(database)
        await db.close()
        return db.kept_copy

    kept = on_the_store(upgrade())
    after = inspect_database(database)
    where = "" if isinstance(database, Path) else " (a schema of the same database)"
    changed = [
        f"{label} were {count:,}, now {after.counts.get(label, 0):,}"
        for label, count in before.counts.items()
        if after.counts.get(label) != count
    ]
    tell(
        [
            f"Kept a copy of {before.location} as {kept}{where}.",
            f"Migrated it from schema version {before.version} to {after.version}; every count "
            f"{'kept' if not changed else 'NOT kept'}.",
            *after.lines(),
        ],
        [f"Problem: {problem}." for problem in [*after.problems, *changed]],
    )
    return EXIT_DATABASE if after.problems or changed else 0


def run_health(settings: Settings) -> int:
    """`python -m bot health`: 0 when the bot's /healthz says healthy, else 1 with why."""
    if settings.health_port is None:
        print("BREDON_HEALTH_PORT is not set: the bot serves no /healthz.", file=sys.stderr)
        return EXIT_CONFIG
    host = "127.0.0.1" if settings.health_host in ("0.0.0.0", "::", "") else settings.health_host
    url = f"http://{host}:{settings.health_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            say(response.read().decode())
            return 0
    except urllib.error.HTTPError as error:
        print(error.read().decode(), file=sys.stderr)
    except OSError as error:
        print(f"No answer from {url}: {error}", file=sys.stderr)
    return EXIT_UNHEALTHY


# What stops a long-running action (the bot, the pages) before or while it serves.
STARTUP_FAILURES = (NewerSchema, NotSetUp, PortUnavailable, StoreError, StoreBusy, StoreUnwritable)


def startup_failure(error: Exception) -> int:
    """Say why the bot or the pages stopped (one sentence, no traceback); the exit status."""
    print(error.problem if isinstance(error, StoreUnwritable) else error, file=sys.stderr)
    if isinstance(error, NewerSchema):
        return EXIT_UPGRADED
    if isinstance(error, NotSetUp | PortUnavailable):
        return EXIT_CONFIG
    return EXIT_DATABASE


def run_web(settings: Settings) -> int:
    """`python -m bot web`: the pages alone, until SIGTERM or SIGINT; needs no token."""
    log_to_console(settings.logging_level)
    try:
        asyncio.run(serve_pages(settings))
    except STARTUP_FAILURES as error:
        return startup_failure(error)
    return 0


def main(
    argv: Sequence[str], environ: Mapping[str, str], cwd: Path, prog: str = "python -m bot"
) -> int:
    """Run the action asked for; returns the exit status."""
    args = parse_args(argv, prog)
    try:
        settings = load_settings(cwd / ".env", environ)
    except SettingsError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    # An absolute path stays as it is; a PostgreSQL URL is no path.
    database = settings.database if is_postgres(settings.database) else cwd / settings.database
    try:
        if args.action == "backup":
            return run_backup(database, cwd / args.file)
        if args.action == "check":
            return run_check(located(args.database, cwd) if args.database else database)
        if args.action == "copy":
            return run_copy(located(args.source, cwd), located(args.target, cwd))
        if args.action in ("init", "migrate"):
            named = located(args.database, cwd) if args.database else database
            if isinstance(named, Path) and not named.parent.is_dir():
                raise CommandLineError(no_folder(named), EXIT_CONFIG)
            return (run_init if args.action == "init" else run_migrate)(named)
        if args.action == "health":
            return run_health(settings)
        if args.action == "web":
            return run_web(dataclasses.replace(settings, database=database))
        if settings.token is None:
            read = settings.env_file
            if read is not None and read.found:
                raise CommandLineError(EMPTY_TOKEN.format(env_file=read.path), EXIT_CONFIG)
            raise CommandLineError(NO_TOKEN, EXIT_CONFIG)
        token = settings.token
        guild_id = sync_target(args.guild, settings) if args.action == "sync" else None
        if isinstance(database, Path) and not database.parent.is_dir():
            raise CommandLineError(no_folder(database), EXIT_CONFIG)
    except CommandLineError as error:
        print(error, file=sys.stderr)
        return error.status
    log_to_console(settings.logging_level)
    if settings.env_file is not None:
        log.info(settings.env_file.describe())
    settings = dataclasses.replace(settings, database=database)
    try:
        if args.action == "sync":
            synced = run_on_discord(run_sync(settings, token, guild_id))
            where = "globally (may take up to an hour to appear)"
            if guild_id is not None:
                where = f"to {guild_id}"
            say(f"Synced {synced} command(s) {where}.")
        else:
            run_on_discord(alongside(settings, run_bot(settings, token)))
    except ShardClaimed as error:  # a StoreError: before the others
        print(error, file=sys.stderr)
        return EXIT_CONFIG
    except STARTUP_FAILURES as error:
        return startup_failure(error)
    except DiscordFailure as error:
        print(error, file=sys.stderr)
        return DISCORD_EXITS[error.kind]
    except (OSError, sqlite3.Error) as error:
        print(f"Cannot open the database {shown_location(database)}: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        pass
    return 0


def run() -> None:
    """The `bredon` command (pyproject.toml's console script), the same as `python -m bot`."""
    sys.exit(main(sys.argv[1:], os.environ, Path.cwd(), prog="bredon"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], os.environ, Path.cwd()))
