"""Moves per second with 1, 2 and 4 processes writing to one database, SQLite or PostgreSQL.

Each configuration gets a fresh database (a SQLite file in a temporary folder, or a scratch
database created on the PostgreSQL server given with ``--database`` and dropped after) holding
``--background`` games already (a fifth of them active, with their move logs, built as
``load.py`` builds its database: PostgreSQL tracks what a serializable transaction read by index
page, so on a nearly empty database, whose games' index is a page or two, it refuses far more
writes in different games as conflicting than on a real one), and ``--games`` games per process
started through the services. Then N worker processes are spawned (1, 2, 4), each opening its
own store and ``GameService`` on that database, and all play at once through
``GameService.move``, every move committed:

- own games: each process moves only in its share of the games (no two processes in one game);
- shared games: every process moves in the same games, each in its own order, so that two
  processes often move in one game at once (as two shards serving one game's players would).

Each process plays two passes, started together: cold, one move in each of its games right
after it started (its position cache empty, its connections new, as after a restart), then warm,
``--rounds`` more moves in each (positions cached). Printed per pass: moves per second in all
(all processes' moves over the pass's wall time), p50/p99 latency of a move as its player sees
it (retries included), how many attempts were refused as busy (``StoreBusy``) and how many found
the game moved by another process first (``PositionChanged``): both are retried as a user would,
at once (a refused move is played again; a moved game is looked at again and its next move
played), and the 1-minute load average after the pass. Choosing the moves happens before the
clock starts. Nothing is rendered. No CPU is pinned: on a machine with fewer cores than
processes, the processes share them, which the load average shows.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/processes.py --database sqlite --database
postgresql://bredon@127.0.0.1:55443/bredon_test`` (both engines in one sitting; a throwaway
server: ``.ci/start-postgres /tmp/pg 55443``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.synchronize import Barrier

from load import fill, fresh_location
from service import START, long_game

from bot.errors import PositionChanged, StoreBusy
from bot.games.model import GameRequest
from bot.guild_settings import GuildSettings
from bot.play.service import GameService
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store import Database, is_postgres, shown_location
from bot.timekeeping.clock import FakeClock

Plan = tuple[int, tuple[int, int], list[str]]  # a game, its white and black, the moves it plays


async def start_games(location: str, count: int, plies: int, rng: random.Random) -> list[Plan]:
    """`count` 6x6 games, each between two players of its own, and the moves each will play."""
    services = await Services.open(location, clock=FakeClock(START))
    plans = []
    try:
        for number in range(count):
            white, black = (
                PlayerRef(1000 + 2 * number, "white"),
                PlayerRef(1001 + 2 * number, "black"),
            )
            challenge = await services.challenges.create(
                guild_id=1,
                channel_id=2,
                challenger=white,
                opponent=black,
                colour="white",
                setup=GuildSettings(1).game_setup(GameRequest(size=6, komi=2)),
            )
            game = (await services.challenges.accept(challenge.id, black)).game
            plans.append((game.id, (white.id, black.id), long_game(rng, 6, plies)))
    finally:
        await services.close()
    return plans


@dataclass(frozen=True)
class Share:
    """What one worker process plays."""

    location: str
    plans: list[Plan]
    rounds: int  # warm moves per game
    shuffled: bool  # shared games: each process takes them in its own order
    seed: int


@dataclass
class Pass:
    """One worker's figures for one pass."""

    began: float = 0.0  # time.monotonic(): one clock for every process
    ended: float = 0.0
    latencies: list[float] = field(default_factory=list)
    busy: int = 0
    overtaken: int = 0


def work(share: Share, barrier: Barrier, results: multiprocessing.Queue) -> None:
    """A worker process: its passes, or the traceback of what went wrong, onto `results`."""
    try:
        results.put(asyncio.run(play_share(share, barrier)))
    except BaseException:
        barrier.abort()
        results.put(traceback.format_exc())


async def play_share(share: Share, barrier: Barrier) -> list[Pass]:
    db = await Database.open(share.location)
    games = GameService(db, FakeClock(START))
    plies = {game_id: 0 for game_id, _, _ in share.plans}  # where this process believes each is
    rng = random.Random(share.seed)
    passes = []
    try:
        for rounds in (1, share.rounds):  # cold, then warm
            barrier.wait()  # every process starts the pass together
            figures = Pass(began=time.monotonic())
            for _ in range(rounds):
                order = list(share.plans)
                if share.shuffled:
                    rng.shuffle(order)
                for plan in order:
                    figures.latencies.append(await play_next(games, plan, plies, figures))
            figures.ended = time.monotonic()
            passes.append(figures)
    finally:
        await db.close()
    return passes


async def play_next(games: GameService, plan: Plan, plies: dict[int, int], figures: Pass) -> float:
    """The game's next move, retried until played; how long its player waited."""
    game_id, players, moves = plan
    started = time.perf_counter()
    while True:
        ply = plies[game_id]
        try:
            await games.move(game_id, players[ply % 2], moves[ply], expected_ply=ply)
        except StoreBusy:  # refused: played again
            figures.busy += 1
            continue
        except PositionChanged as changed:  # another process moved first: look again
            figures.overtaken += 1
            plies[game_id] = changed.actual_ply
            continue
        plies[game_id] = ply + 1
        return time.perf_counter() - started


@dataclass(frozen=True)
class Figures:
    moves: int
    rate: float
    p50: float  # ms
    p99: float
    busy: int
    overtaken: int
    load: float


def combined(passes: list[Pass]) -> Figures:
    latencies = sorted(latency for figures in passes for latency in figures.latencies)
    elapsed = max(p.ended for p in passes) - min(p.began for p in passes)
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return Figures(
        len(latencies),
        len(latencies) / elapsed,
        cuts[49] * 1000,
        cuts[98] * 1000,
        sum(p.busy for p in passes),
        sum(p.overtaken for p in passes),
        os.getloadavg()[0],
    )


def measure(location: str, processes: int, shared: bool, args: argparse.Namespace) -> list[Figures]:
    """Cold and warm figures of `processes` workers on the (fresh) database at `location`."""
    rng = random.Random(args.seed)
    background = argparse.Namespace(
        servers=100, active=args.background // 5, finished=args.background - args.background // 5
    )
    asyncio.run(fill(location, background, rng))
    count = args.games if shared else args.games * processes
    # Shared, a game gets a move from every process each round.
    plies = (args.rounds + 1) * (processes if shared else 1)
    plans = asyncio.run(start_games(location, count, plies, rng))
    context = multiprocessing.get_context("spawn")  # fresh interpreters: nothing cached
    barrier = context.Barrier(processes)
    results: multiprocessing.Queue = context.Queue()
    workers = [
        context.Process(
            target=work,
            args=(
                Share(
                    location,
                    plans if shared else plans[index * args.games : (index + 1) * args.games],
                    args.rounds,
                    shuffled=shared,
                    seed=args.seed + index,
                ),
                barrier,
                results,
            ),
        )
        for index in range(processes)
    ]
    for worker in workers:
        worker.start()
    answers = [results.get() for _ in workers]
    for worker in workers:
        worker.join()
    failures = [answer for answer in answers if isinstance(answer, str)]
    if failures:
        raise RuntimeError("a worker failed:\n" + failures[0])
    return [combined([passes[index] for passes in answers]) for index in (0, 1)]


async def run_in(
    database: str, processes: int, shared: bool, args: argparse.Namespace
) -> list[Figures]:
    async with fresh_location(database) as location:
        return await asyncio.to_thread(measure, location, processes, shared, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database",
        action="append",
        help="'sqlite' (a temporary file), a folder to put the SQLite file in, or a PostgreSQL "
        "server's URL (a scratch database is made on it); give it twice for both engines "
        "(default: sqlite)",
    )
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="games per process (own games), or shared by all (shared games)",
    )
    parser.add_argument("--rounds", type=int, default=4, help="warm moves per game and process")
    parser.add_argument(
        "--background", type=int, default=10_000, help="games in the database beforehand"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.1f}")
    print(
        "| engine | games | processes | pass | moves | moves/s | p50 ms | p99 ms | busy | "
        "overtaken | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for database in args.database or ["sqlite"]:
        engine = "postgresql" if is_postgres(database) else "sqlite"
        for shared in (False, True):
            for processes in args.processes:
                cold, warm = asyncio.run(run_in(database, processes, shared, args))
                for label, figures in (("cold", cold), ("warm", warm)):
                    print(
                        f"| {engine} | {'shared' if shared else 'own'} | {processes} | {label} | "
                        f"{figures.moves} | {figures.rate:.0f} | {figures.p50:.1f} | "
                        f"{figures.p99:.1f} | {figures.busy} | {figures.overtaken} | "
                        f"{figures.load:.1f} |",
                        flush=True,
                    )
    if any(is_postgres(d) for d in args.database or []):
        print(
            "PostgreSQL server: "
            + ", ".join(shown_location(d) for d in args.database if is_postgres(d))
        )


if __name__ == "__main__":
    main()
