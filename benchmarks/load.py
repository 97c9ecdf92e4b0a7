"""Headroom on one machine: a database the size of a large deployment, then what the bot does
with it (docs/scaling.md reports the figures).

Builds a database with ``--servers`` servers' worth of games (10,000 by default: each server has
its settings row and its games), ``--active`` games in progress (100,000) at random plies and
``--finished`` finished ones, with their move logs: a SQLite file straight through sqlite3, or,
with ``--database postgresql://...``, a scratch database on that PostgreSQL server (created, then
dropped at the end) filled by COPY. Then, measured:

- start-up: what ``python -m bot`` does before it can answer anyone: open the services' store,
  checking and migrating it (on SQLite ``quick_check`` reads the whole file), and the
  first looks of the deadline scheduler and the courier (the next deadline, the due
  announcements); and, on SQLite, ``python -m bot check`` (the full ``integrity_check``);
- moves per second through ``GameService.move``, each committed, in games picked at random among
  all the active ones (so a move's game is not cached: the usual case with this many games), a
  round cold and then a round in the same games warm;
- what the health endpoint reads (``/metrics``' figures and ``/healthz``'s write probe);
- memory: the process' resident set size after start-up and after the moves.

Run: ``.venv/bin/python benchmarks/load.py`` (a few minutes; ``--active 20000`` for a quick look;
``--database postgresql://bredon@127.0.0.1:55443/bredon_test`` for PostgreSQL, the server
``.ci/start-postgres`` starts).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
from service import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    PLAYERS,
    START,
    game_row,
    insert_game,
    move_rows,
    random_game,
    report,
)

from bot.health import database_problem, store_figures
from bot.inspection import inspect_database
from bot.play.service import GameService
from bot.services import Services
from bot.store import Database, is_postgres, to_db
from bot.store.postgres import to_postgres
from bot.timekeeping.clock import FakeClock
from tak import Position


@asynccontextmanager
async def scratch_database(server: str) -> AsyncIterator[str]:
    """A new, empty database on the PostgreSQL server `server` names (its user must be allowed
    to create databases), dropped afterwards; yields its URL."""
    name = f"bredon_bench_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
        yield f"{server.rpartition('/')[0]}/{name}"
    finally:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()


@asynccontextmanager
async def fresh_location(database: str) -> AsyncIterator[str]:
    """A fresh database for one measurement: on the PostgreSQL server `database` names, or a
    SQLite file in a temporary folder (`database` is then "sqlite" or a folder)."""
    if is_postgres(database):
        async with scratch_database(database) as url:
            yield url
        return
    folder = None if database == "sqlite" else database
    with tempfile.TemporaryDirectory(dir=folder) as temporary:
        yield str(Path(temporary) / "processes.sqlite3")


def rss_mib() -> float:
    """The resident set size now (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def records_for(rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    """The move records games are given: all of them, and those whose moves do not end it."""
    records = [random_game(rng, 6, rng.randint(4, 70)) for _ in range(120)]
    return records, [r for r in records if not _ends(r)]


def game_plans(args: argparse.Namespace, rng: random.Random) -> Iterator[tuple[int, list, list]]:
    """Each game's id, players and moves: the active ones (first) at random plies, none ended
    by its moves; the finished ones at any."""
    records, unfinished = records_for(rng)
    for game_id in range(1, args.active + args.finished + 1):
        record = rng.choice(unfinished if game_id <= args.active else records)
        yield game_id, rng.sample(PLAYERS, 2), record


# After the games are in: the finished ones resigned, and all spread over the servers, a few
# channels each (SQL common to both engines).
FINISH_GAMES = (
    "UPDATE games SET status = 'finished', result = COALESCE(result, '1-0'), "
    "result_kind = COALESCE(result_kind, 'resignation'), finished_at = ?, "
    "deadline_at = NULL, reminder_at = NULL WHERE id > ?"
)
SPREAD_GAMES = "UPDATE games SET guild_id = ? + id % ?, channel_id = 5000000 + id % ?"


def populate(path: Path, args: argparse.Namespace, rng: random.Random) -> None:
    """Servers with their settings, and games spread over them, into the SQLite file."""
    connection = sqlite3.connect(path)
    now = to_db(START)
    with connection:
        connection.executemany(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [(i, f"player{i}", now, now) for i in PLAYERS],
        )
        connection.executemany(
            "INSERT INTO guild_settings (guild_id, size, komi, days_per_move, use_threads) "
            "VALUES (?, 6, 2, 3, 1)",
            [(_guild(n),) for n in range(args.servers)],
        )
        for game_id, players, record in game_plans(args, rng):
            insert_game(connection, game_id, players, record)
        connection.execute(FINISH_GAMES, (now, args.active))
        connection.execute(SPREAD_GAMES, (_guild(0), args.servers, args.servers * 3))
    connection.close()


async def populate_postgres(url: str, args: argparse.Namespace, rng: random.Random) -> None:
    """The same database on PostgreSQL (migrated already), by COPY; then the games' id sequence
    moved past them and the statistics the planner uses gathered (as autovacuum would). The rows
    are consistent by construction: as a superuser (the throwaway server's user is one), their
    foreign keys are not checked row by row while loading, which makes it about 3x faster."""
    now = to_db(START)
    plans = list(game_plans(args, rng))
    connection = await asyncpg.connect(url)
    try:
        try:
            await connection.execute("SET session_replication_role = replica")
        except asyncpg.InsufficientPrivilegeError:
            print("not a superuser: loading with every row's foreign keys checked (slower)")
        async with connection.transaction():
            await connection.copy_records_to_table(
                "players",
                records=[(i, f"player{i}", now, now) for i in PLAYERS],
                columns=["id", "name", "created_at", "updated_at"],
            )
            await connection.copy_records_to_table(
                "guild_settings",
                records=[(_guild(n), 6, 2.0, 3, 1) for n in range(args.servers)],
                columns=["guild_id", "size", "komi", "days_per_move", "use_threads"],
            )
            await connection.copy_records_to_table(
                "games",
                records=(game_row(*plan) for plan in plans),
                columns=GAME_COLUMNS.split(", "),
            )
            await connection.copy_records_to_table(
                "moves",
                records=(row for plan in plans for row in move_rows(*plan)),
                columns=MOVE_COLUMNS.split(", "),
            )
            await connection.execute(to_postgres(FINISH_GAMES).sql, now, args.active)
            await connection.execute(
                to_postgres(SPREAD_GAMES).sql, _guild(0), args.servers, args.servers * 3
            )
            await connection.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games"
            )
        await connection.execute("VACUUM ANALYZE")
    finally:
        await connection.close()


def _guild(n: int) -> int:
    return 1_000_000_000_000_000_000 + n


def _ends(record: list[str]) -> bool:
    position = Position(6, komi=2)
    for move in record:
        position.play(move)
    return position.result is not None


async def start_up(location: str) -> tuple[Services, dict[str, float]]:
    """What `python -m bot` does before answering, timed step by step."""
    times = {}
    started = time.perf_counter()
    # __main__.open_bot: checked and migrated once, then handed to the bot.
    services = await Services.open(location, clock=FakeClock(START))
    times["open, check and migrate the services' store"] = time.perf_counter() - started
    step = time.perf_counter()
    await services.deadlines.next_due_at()  # the scheduler's first look
    await services.outbox.due()  # the courier's
    times["first looks (deadlines, outbox)"] = time.perf_counter() - step
    times["start-up in all"] = time.perf_counter() - started
    return services, times


async def moves(
    services: Services, args: argparse.Namespace, rng: random.Random
) -> dict[str, tuple[float, float, float]]:
    """A round of one move in each of `--moves` random active games (cold), then a second."""
    ids = rng.sample(range(1, args.active + 1), args.moves)
    games = GameService(services.db, services.clock)  # a fresh cache, as after a restart
    figures = {}
    for label in ("cold (game not cached)", "warm (the same games again)"):
        plans = []
        for game_id in ids:  # chosen before the clock starts
            game = await services.games.get(game_id)
            position = await services.games.position(game_id)
            legal = position.legal_moves()
            rng.shuffle(legal)
            plans.append((game_id, game.player_to_move.id, legal[0].ptn(), game.ply))
        latencies = []
        started = time.perf_counter()
        for game_id, player, ptn, ply in plans:
            begun = time.perf_counter()
            outcome = await games.move(game_id, player, ptn, expected_ply=ply)
            latencies.append(time.perf_counter() - begun)
            if outcome.result is not None:
                ids.remove(game_id)
        figures[label] = report(label, latencies, time.perf_counter() - started, None)
    return figures


async def fill(location: str, args: argparse.Namespace, rng: random.Random) -> None:
    """The database at `location`, migrated, then filled (``args.servers``, ``active``,
    ``finished``)."""
    await (await Database.open(location)).close()
    if is_postgres(location):
        await populate_postgres(location, args, rng)
    else:
        populate(Path(location), args, rng)


async def build(location: str, args: argparse.Namespace, rng: random.Random) -> None:
    """The database at `location`, and a line saying what it holds."""
    started = time.perf_counter()
    await fill(location, args, rng)
    if is_postgres(location):
        connection = await asyncpg.connect(location)
        try:
            move_rows_count = await connection.fetchval("SELECT COUNT(*) FROM moves")
            size = await connection.fetchval("SELECT pg_database_size(current_database())")
        finally:
            await connection.close()
    else:
        with sqlite3.connect(location) as db:
            [(move_rows_count,)] = db.execute("SELECT COUNT(*) FROM moves").fetchall()
        size = Path(location).stat().st_size
    print(
        f"built {args.servers:,} servers, {args.active:,} active and {args.finished:,} "
        f"finished games, {move_rows_count:,} moves: {size / 2**20:,.0f} MiB in "
        f"{time.perf_counter() - started:.0f} s"
    )


async def measure(location: str, args: argparse.Namespace, rng: random.Random) -> None:
    await build(location, args, rng)
    base = rss_mib()
    services, times = await start_up(location)
    for label, seconds in times.items():
        print(f"start-up: {label}: {seconds:.2f} s")
    print(f"memory after start-up: {rss_mib():.0f} MiB RSS (before it: {base:.0f} MiB)")
    try:
        await moves(services, args, rng)
        print(f"memory after the moves: {rss_mib():.0f} MiB RSS")
        step = time.perf_counter()
        figures = await store_figures(services.db)
        print(
            f"/metrics figures ({figures.active_games:,} active games): "
            f"{(time.perf_counter() - step) * 1000:.1f} ms"
        )
        step = time.perf_counter()
        assert await database_problem(services.db) is None
        print(f"/healthz write probe: {(time.perf_counter() - step) * 1000:.1f} ms")
    finally:
        await services.close()
    if not is_postgres(location):
        step = time.perf_counter()
        checked = inspect_database(Path(location))
        assert not checked.problems
        print(f"python -m bot check (integrity_check, counts): {time.perf_counter() - step:.1f} s")


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    if args.database:
        async with scratch_database(args.database) as url:
            await measure(url, args, rng)
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        await measure(str(Path(folder) / "load.sqlite3"), args, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=100_000, help="games in progress")
    parser.add_argument("--finished", type=int, default=50_000, help="finished games")
    parser.add_argument("--moves", type=int, default=2_000, help="games moved in, per round")
    parser.add_argument("--dir", help="where to build the file (default: the temporary folder)")
    parser.add_argument(
        "--database", help="a PostgreSQL server's URL: build and measure there instead of SQLite"
    )
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
