"""Moves per second through the game service, every move committed, on a populated database.

Builds a database holding 10,000 games (finished and in progress, with their move logs), then
plays random legal 6x6 games through ``GameService.move`` in turns across many games, as the
bot would: each call parses the move, checks it with the engine, appends it to the log, updates
the game and its deadline in one committed transaction, and asks whether the mover threatens a
road ("Tak"). Nothing is rendered. Choosing the moves happens before the clock starts.

Run: ``.venv/bin/python benchmarks/service.py`` (targets: >= 500 moves/s, p99 <= 10 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.clock import FakeClock
from bot.services import Services
from bot.services.games import GameService
from bot.services.views import PlayerRef
from bot.store import Database, to_db
from tak import Position

START = datetime(2024, 1, 1, tzinfo=UTC)


def random_game(rng: random.Random, size: int, max_plies: int) -> list[str]:
    """A random legal game, stopped at its end or after `max_plies`."""
    position = Position(size, komi=2)
    played = []
    while position.result is None and len(played) < max_plies:
        move = rng.choice(position.legal_moves())
        position.play(move)
        played.append(move.ptn())
    return played


def populate(path: Path, games: int, rng: random.Random) -> None:
    """Fill the (migrated) file with `games` games and their logs, straight through sqlite3."""
    records = [random_game(rng, 6, rng.randint(10, 90)) for _ in range(40)]
    finals = []
    for record in records:
        position = Position(6, komi=2)
        for move in record:
            position.play(move)
        finals.append((position.ply, position.tps(), position.result))
    connection = sqlite3.connect(path)
    now = to_db(START)
    with connection:
        connection.executemany(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [(10_000 + i, f"player{i}", now, now) for i in range(500)],
        )
        for game_id in range(1, games + 1):
            which = rng.randrange(len(records))
            ply, tps, result = finals[which]
            white, black = rng.sample(range(10_000, 10_500), 2)
            finished = result is not None or rng.random() < 0.8
            connection.execute(
                "INSERT INTO games (id, guild_id, channel_id, white_id, black_id, size, komi, "
                "opening, stones1, stones2, caps1, caps2, rated, days_per_move, status, result, "
                "result_kind, ply, tps, deadline_at, reminder_at, created_at, finished_at) "
                "VALUES (?, 1, 2, ?, ?, 6, 2, 'swap', 30, 30, 1, 1, 1, 3, ?, ?, ?, ?, ?, ?, ?, "
                "?, ?)",
                (
                    game_id,
                    white,
                    black,
                    "finished" if finished else "active",
                    (result.ptn() if result else "1-0") if finished else None,
                    (result.kind.value if result else "resignation") if finished else None,
                    ply,
                    tps,
                    None if finished else to_db(START + timedelta(days=3)),
                    None if finished else to_db(START + timedelta(days=2.4)),
                    now,
                    now if finished else None,
                ),
            )
            connection.executemany(
                "INSERT INTO moves (game_id, ply, ptn, player_id, played_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, i + 1, move, white if i % 2 == 0 else black, now)
                    for i, move in enumerate(records[which])
                ],
            )
    connection.close()


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await (await Database.open(path)).close()
        started = time.perf_counter()
        populate(path, args.games, rng)
        print(f"populated {args.games} games in {time.perf_counter() - started:.1f} s")

        services = await Services.open(path, clock=FakeClock(START))
        try:
            await measure(services, args, rng)
        finally:
            await services.close()


async def measure(services: Services, args: argparse.Namespace, rng: random.Random) -> None:
    plans = []
    for _ in range(args.active):
        challenge = await services.challenges.create(
            guild_id=1,
            channel_id=2,
            challenger=PlayerRef(1, "white"),
            opponent=PlayerRef(2, "black"),
            colour="white",
            size=6,
            komi=2,
        )
        game = (await services.challenges.accept(challenge.id, PlayerRef(2, "black"))).game
        plans.append((game.id, random_game(rng, 6, args.plies)))

    latencies: list[float] = []
    taks = 0
    total_started = time.perf_counter()
    for ply in range(args.plies):
        for game_id, plan in plans:
            if ply >= len(plan):
                continue
            player = 1 if ply % 2 == 0 else 2
            started = time.perf_counter()
            outcome = await services.games.move(game_id, player, plan[ply], expected_ply=ply)
            latencies.append(time.perf_counter() - started)
            taks += outcome.tak
    elapsed = time.perf_counter() - total_started
    report("warm (positions cached)", latencies, elapsed, taks)

    # Cold: a new service with an empty cache replays each game's log before its first move.
    cold_service = GameService(services.db, services.clock)
    cold: list[float] = []
    for game_id, _plan in plans:
        game = await services.games.get(game_id)
        if not game.is_active:
            continue
        position = game.position_from_tps()
        move = rng.choice(position.legal_moves()).ptn()
        started = time.perf_counter()
        await cold_service.move(game_id, game.player_to_move.id, move, expected_ply=game.ply)
        cold.append(time.perf_counter() - started)
    if cold:
        report(
            f"cold (first move after a restart, replaying ~{args.plies} plies)",
            cold,
            sum(cold),
            None,
        )


def report(label: str, latencies: list[float], elapsed: float, taks: int | None) -> None:
    ordered = sorted(latencies)
    p50 = ordered[len(ordered) // 2] * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    print(
        f"{label}: {len(latencies)} moves in {elapsed:.2f} s = {len(latencies) / elapsed:.0f} "
        f"moves/s; latency mean {statistics.mean(latencies) * 1000:.2f} ms, p50 {p50:.2f} ms, "
        f"p99 {p99:.2f} ms, max {ordered[-1] * 1000:.2f} ms"
        + ("" if taks is None else f"; Tak called {taks} times")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games already in the file")
    parser.add_argument("--active", type=int, default=100, help="games played in turns")
    parser.add_argument("--plies", type=int, default=60, help="plies per game at most")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
