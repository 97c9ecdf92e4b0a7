"""Moves through the game service, every move committed (synchronous=FULL), on a populated database.

Builds a database holding 10,000 games (finished and in progress, with their move logs), then
plays random legal 6x6 games through ``GameService.move`` as the bot would: each call parses the
move, checks it with the engine, appends it to the log, updates the game and its deadline in one
committed transaction, and asks whether the mover threatens a road ("Tak"). Nothing is rendered.
Choosing the moves happens before the clock starts. Three measurements:

- warm: 100 games played in turns, their positions cached (moves/s and latency);
- cold and warm at ply 10 and ply 150: the first move of a fresh service (empty cache, as after a
  restart) in games at that ply, then its next move in the same games;
- spread: moves in turns over more active games than the cache holds (and fewer, to compare),
  so that every move finds its game evicted.

Run: ``.venv/bin/python benchmarks/service.py`` (targets: >= 500 moves/s and p99 <= 10 ms warm;
cold at ply 150 at most 1.5x cold at ply 10; no cliff past the cache's size).
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
from functools import cache
from pathlib import Path

from bot.games.model import GameRequest
from bot.guild_settings import GuildSettings
from bot.play.service import GameService, PositionCache
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store import Database, to_db
from bot.timekeeping.clock import FakeClock
from tak import Position, Result

START = datetime(2024, 1, 1, tzinfo=UTC)
PLAYERS = range(10_000, 10_500)


def random_game(rng: random.Random, size: int, max_plies: int) -> list[str]:
    """A random legal game, stopped at its end or after `max_plies`."""
    position = Position(size, komi=2)
    played = []
    while position.result is None and len(played) < max_plies:
        move = rng.choice(position.legal_moves())
        position.play(move)
        played.append(move.ptn())
    return played


def long_game(rng: random.Random, size: int, plies: int) -> list[str]:
    """`plies` random legal moves none of which ends the game."""
    position = Position(size, komi=2)
    played: list[str] = []
    while len(played) < plies:
        moves = position.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            position.push(move)
            if position.result is None:
                break
            position.pop()
        else:
            return long_game(rng, size, plies)  # cornered: start again
        played.append(move.ptn())
    return played


@cache
def replayed(moves: tuple[str, ...]) -> tuple[list[str], Result | None]:
    """The TPS after each of `moves` and the result after the last (records are shared by many
    games: each is replayed once)."""
    position = Position(6, komi=2)
    after = []
    for move in moves:
        position.play(move)
        after.append(position.tps())
    return after, position.result


GAME_COLUMNS = (
    "id, guild_id, channel_id, white_id, black_id, size, komi, opening, stones1, stones2, caps1, "
    "caps2, rated, days_per_move, status, result, result_kind, ply, tps, last_ptn, "
    "last_player_id, last_move_at, deadline_at, reminder_at, created_at, finished_at"
)
MOVE_COLUMNS = "game_id, ply, ptn, player_id, played_at, tps"


def game_row(game_id: int, players: list[int], moves: list[str]) -> tuple:
    """The games row (GAME_COLUMNS) of a 6x6 game that has played `moves`: active unless they
    end it."""
    after, result = replayed(tuple(moves))
    now = to_db(START)
    active = result is None
    return (
        game_id,
        1,
        2,
        *players,
        6,
        2,
        "swap",
        30,
        30,
        1,
        1,
        1,
        3,
        "active" if active else "finished",
        None if result is None else result.ptn(),
        None if result is None else result.kind.value,
        len(moves),
        after[-1] if moves else Position(6, komi=2).tps(),
        moves[-1] if moves else None,
        players[(len(moves) - 1) % 2] if moves else None,
        now if moves else None,
        to_db(START + timedelta(days=3)) if active else None,
        to_db(START + timedelta(days=2.4)) if active else None,
        now,
        None if active else now,
    )


def move_rows(game_id: int, players: list[int], moves: list[str]) -> list[tuple]:
    """The game's move log (MOVE_COLUMNS)."""
    after, _ = replayed(tuple(moves))
    now = to_db(START)
    return [
        (game_id, ply + 1, move, players[ply % 2], now, after[ply])
        for ply, move in enumerate(moves)
    ]


def insert_game(
    connection: sqlite3.Connection, game_id: int, players: list[int], moves: list[str]
) -> None:
    """A 6x6 game that has played `moves`: active unless they end it, with its log."""
    row = game_row(game_id, players, moves)
    connection.execute(
        f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({', '.join('?' * len(row))})", row
    )
    connection.executemany(
        f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        move_rows(game_id, players, moves),
    )


def populate(path: Path, games: int, rng: random.Random) -> None:
    """Fill the (migrated) file with `games` games and their logs, straight through sqlite3:
    most finished (resigned, if their moves did not end them), a fifth of the rest active."""
    records = [random_game(rng, 6, rng.randint(10, 90)) for _ in range(40)]
    connection = sqlite3.connect(path)
    now = to_db(START)
    with connection:
        connection.executemany(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [(i, f"player{i}", now, now) for i in PLAYERS],
        )
        for game_id in range(1, games + 1):
            insert_game(connection, game_id, rng.sample(PLAYERS, 2), rng.choice(records))
            if rng.random() < 0.8:
                connection.execute(
                    "UPDATE games SET status = 'finished', result = COALESCE(result, '1-0'), "
                    "result_kind = COALESCE(result_kind, 'resignation'), finished_at = ?, "
                    "deadline_at = NULL, reminder_at = NULL WHERE id = ?",
                    (now, game_id),
                )
    connection.close()


Plan = tuple[int, list[str]]  # a game and the moves it will play


async def start_games(services: Services, count: int) -> list[int]:
    """`count` new 6x6 games between the same two players, through the services."""
    ids = []
    for _ in range(count):
        challenge = await services.challenges.create(
            guild_id=1,
            channel_id=2,
            challenger=PlayerRef(1, "white"),
            opponent=PlayerRef(2, "black"),
            colour="white",
            setup=GuildSettings(1).game_setup(GameRequest(size=6, komi=2)),
        )
        ids.append((await services.challenges.accept(challenge.id, PlayerRef(2, "black"))).game.id)
    return ids


async def play_in_turns(
    games: GameService, plans: list[Plan], plies: range, players: dict[int, list[int]]
) -> tuple[list[float], int]:
    """Each game's moves `plies`, game after game for each ply; the latency of every move and
    the number of times Tak was called."""
    latencies: list[float] = []
    taks = 0
    for ply in plies:
        for game_id, plan in plans:
            if ply >= len(plan):
                continue
            player = players[game_id][ply % 2]
            started = time.perf_counter()
            outcome = await games.move(game_id, player, plan[ply], expected_ply=ply)
            latencies.append(time.perf_counter() - started)
            taks += outcome.tak
    return latencies, taks


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await (await Database.open(path)).close()
        started = time.perf_counter()
        populate(path, args.games, rng)
        spread_sets = populate_spread(path, args, rng)
        print(
            f"populated {args.games} games and {sum(args.spread)} active ones at ply "
            f"{args.spread_ply} in {time.perf_counter() - started:.1f} s"
        )
        services = await Services.open(path, clock=FakeClock(START))
        try:
            figures = await warm(services, args, rng)
            for ply in (10, 150):
                figures |= await cold_and_warm_at(services, ply, args.sample, rng)
            for plans in spread_sets:
                figures |= await spread(services, plans, args)
        finally:
            await services.close()
    summary(figures, args)


async def warm(services: Services, args: argparse.Namespace, rng: random.Random) -> dict:
    ids = await start_games(services, args.active)
    plans = [(game_id, random_game(rng, 6, args.plies)) for game_id in ids]
    players = {game_id: [1, 2] for game_id in ids}
    started = time.perf_counter()
    latencies, taks = await play_in_turns(services.games, plans, range(args.plies), players)
    elapsed = time.perf_counter() - started
    return {"warm": report("warm (positions cached)", latencies, elapsed, taks)}


async def cold_and_warm_at(
    services: Services, ply: int, sample: int, rng: random.Random
) -> dict[str, tuple[float, float, float]]:
    """`sample` games played to `ply`; then a fresh service's first move in each (cold: its
    cache is empty, as after a restart) and its second (warm)."""
    ids = await start_games(services, sample)
    plans = [(game_id, long_game(rng, 6, ply + 2)) for game_id in ids]
    players = {game_id: [1, 2] for game_id in ids}
    await play_in_turns(services.games, plans, range(ply), players)
    fresh = GameService(services.db, services.clock)
    figures = {}
    for label, at in ((f"cold at ply {ply}", ply), (f"warm at ply {ply + 1}", ply + 1)):
        latencies, _ = await play_in_turns(fresh, plans, range(at, at + 1), players)
        figures[label] = report(label, latencies, sum(latencies), None)
    return figures


def populate_spread(path: Path, args: argparse.Namespace, rng: random.Random) -> list[list[Plan]]:
    """For each count of `args.spread`, that many active games for the spread measurement,
    inserted at `spread_ply` plies with the moves that follow (one a round)."""
    records = [long_game(rng, 6, args.spread_ply + args.rounds + 1) for _ in range(40)]
    connection = sqlite3.connect(path)
    sets = []
    with connection:
        last = connection.execute("SELECT MAX(id) FROM games").fetchone()[0]
        for count in args.spread:
            ids = range(last + 1, last + 1 + count)
            plans = [(game_id, rng.choice(records)) for game_id in ids]
            for game_id, record in plans:
                insert_game(connection, game_id, [*PLAYERS[:2]], record[: args.spread_ply])
            sets.append(plans)
            last += count
    connection.close()
    return sets


async def spread(
    services: Services, plans: list[Plan], args: argparse.Namespace
) -> dict[str, tuple[float, float, float]]:
    """Rounds of one move in each game, in the same order every round, by a service whose cache
    holds `args.cache` games: with more games than that, every move finds its game evicted. The
    first round (every game cold) is not measured."""
    games = GameService(services.db, services.clock, PositionCache(args.cache))
    first = args.spread_ply
    players = {game_id: [PLAYERS[0], PLAYERS[1]] for game_id, _ in plans}
    await play_in_turns(games, plans, range(first, first + 1), players)
    started = time.perf_counter()
    measured = range(first + 1, first + 1 + args.rounds)
    latencies, _ = await play_in_turns(games, plans, measured, players)
    elapsed = time.perf_counter() - started
    label = f"spread over {len(plans)} games, cache {args.cache}"
    return {f"spread {len(plans)}": report(label, latencies, elapsed, None)}


def report(
    label: str, latencies: list[float], elapsed: float, taks: int | None
) -> tuple[float, float, float]:
    """Print the figures; return moves/s, p50 and p99 (ms)."""
    ordered = sorted(latencies)
    p50 = ordered[len(ordered) // 2] * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    rate = len(latencies) / elapsed
    print(
        f"{label}: {len(latencies)} moves in {elapsed:.2f} s = {rate:.0f} moves/s; latency "
        f"mean {statistics.mean(latencies) * 1000:.2f} ms, p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
        f"max {ordered[-1] * 1000:.2f} ms" + ("" if taks is None else f"; Tak called {taks} times")
    )
    return rate, p50, p99


def summary(figures: dict[str, tuple[float, float, float]], args: argparse.Namespace) -> None:
    rate, _, p99 = figures["warm"]
    print(f"\nwarm: {rate:.0f} moves/s (target >= 500), p99 {p99:.2f} ms (target <= 10 ms)")
    cold10, cold150 = figures["cold at ply 10"][1], figures["cold at ply 150"][1]
    print(f"cold at ply 150 / cold at ply 10, p50: {cold150 / cold10:.2f}x (target <= 1.5x)")
    fewest, most = min(args.spread), max(args.spread)
    few, many = figures[f"spread {fewest}"], figures[f"spread {most}"]
    print(
        f"{most} / {fewest} active games with a cache of {args.cache}: p50 "
        f"{many[1] / few[1]:.2f}x, p99 {many[2] / few[2]:.2f}x (target: no cliff)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games already in the file")
    parser.add_argument("--active", type=int, default=100, help="games played in turns, warm")
    parser.add_argument("--plies", type=int, default=60, help="plies per warm game at most")
    parser.add_argument("--sample", type=int, default=100, help="games per cold measurement")
    parser.add_argument("--cache", type=int, default=4096, help="the spread service's cache")
    parser.add_argument(
        "--spread", type=int, nargs="+", default=[4000, 6000], help="active games to spread over"
    )
    parser.add_argument("--spread-ply", type=int, default=60, help="their ply at the start")
    parser.add_argument("--rounds", type=int, default=2, help="measured moves per spread game")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
