"""How long the opening explorer takes to answer with 2,000 finished 6x6 games. Prints figures.

    BREDON_COMPILE=0 .venv/bin/python benchmarks/explorer.py

The games are random legal games whose first plies come from a few common openings (so that
positions recur, as on a real server) and that end within 80 plies. Figures: building the index
(the first question after a start: every game replayed), a question once it is built (a game
that finished since is replayed at the next question, nothing else), the memory it holds, and
the first and the next question through the service on a SQLite file holding the games.

Measured (pure-Python engine, 2 busy cores, 2,000 games of 89,054 plies): the index built in
3.4 s (38 µs a ply), a question on it 3 to 4 ms (at the start, which every game reached), 14.4 MiB
(23.5 before a position one game reached kept its one occurrence as an int); through the
service on SQLite the first question 4.1 s, the next 22 ms.

The games are replayed in a worker process (at a lower priority) since 2026-12-07, no longer in
a thread of the bot's process. Same sitting, a machine kept busy by five other jobs: the first
question 4.5 s in a thread, 18.1 s in the worker (which yields the CPU to everything else); the
bot's own work went on at 26% of its speed alone meanwhile with the thread, at 63% with the worker.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

from bot.games.explorer import ExplorerService, FinishedGame, OpeningIndex, standard_position
from bot.games.model import GameRequest, GameSetup, GameStatus
from bot.games.storage import end_game, insert_game
from bot.services import BACKGROUND_SECONDS
from bot.store import Database, to_db
from bot.work.attached_files import FileReader
from tak import Color, Result, ResultKind

GAMES = 2_000
SIZE = 6
MAX_PLIES = 80
OPENINGS = ("a1 f6", "a6 f1", "a1 f1", "f6 a1")


def random_game(rng: random.Random, game_id: int) -> FinishedGame:
    position = standard_position(SIZE)
    moves = rng.choice(OPENINGS).split()
    for move in moves:
        position.play(move)
    length = rng.randint(10, MAX_PLIES)
    while position.result is None and len(moves) < length:
        move = rng.choice(position.legal_moves())
        position.play(move)
        moves.append(move.ptn())
    result = position.result or Result(
        rng.choice((Color.WHITE, Color.BLACK, None)), ResultKind.RESIGNATION
    )
    return FinishedGame(game_id, tuple(moves), result)


async def through_the_service(games: list[FinishedGame]) -> tuple[float, float]:
    """The first question and the next one through :class:`ExplorerService` on a SQLite file
    holding `games` (with their moves): seconds each."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    setup = GameSetup.create(GameRequest(), size=SIZE, komi=2, days_per_move=1)
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "explorer.db")
        async with db.transaction() as tx:
            for player in (1, 2):
                await tx.execute(
                    "INSERT INTO players (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (player, f"player {player}", to_db(now), to_db(now)),
                )
            for game in games:
                view = await insert_game(
                    tx,
                    guild_id=1,
                    channel_id=1,
                    thread_id=None,
                    white_id=1,
                    black_id=2,
                    setup=setup,
                    now=now,
                )
                for ply, move in enumerate(game.moves, start=1):
                    await tx.execute(
                        "INSERT INTO moves (game_id, ply, ptn, player_id, played_at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (view.id, ply, move, 1 + (ply + 1) % 2, to_db(now)),
                    )
                await end_game(tx, view, GameStatus.FINISHED, game.result, 1, now)
        worker = FileReader(timeout=BACKGROUND_SECONDS, preload=("bot.games.explorer",))
        service = ExplorerService(db, worker)
        times = []
        alone = await units_per_second()
        UNITS[0], LONGEST_TICK[0] = 0, 0.0
        ticking = asyncio.create_task(longest_tick())
        for _question in range(2):
            started = time.perf_counter()
            await service.explore(1, standard_position(SIZE), bot_id=3)
            times.append(time.perf_counter() - started)
            if not _question:
                share = UNITS[0] / times[0] / alone
        ticking.cancel()
        await worker.close()
        await db.close()
    return times[0], times[1], LONGEST_TICK[0], share


LONGEST_TICK = [0.0]  # the event loop's longest wait beyond a 1 ms sleep, in seconds
UNITS = [0]  # units of the bot's own work done (each about 1 ms of CPU) while the explorer works


async def longest_tick() -> None:
    """What the rest of the bot feels while the explorer works: how late a short sleep wakes,
    and how much work of its own the bot gets done (units of CPU, between sleeps)."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(0.001)
        LONGEST_TICK[0] = max(LONGEST_TICK[0], time.perf_counter() - started - 0.001)
        sum(range(20_000))
        UNITS[0] += 1


async def units_per_second(seconds: float = 2.0) -> float:
    """The bot's own work rate with nothing else running (the baseline)."""
    UNITS[0] = 0
    ticking = asyncio.create_task(longest_tick())
    await asyncio.sleep(seconds)
    ticking.cancel()
    return UNITS[0] / seconds


def main() -> None:
    rng = random.Random(43)
    games = [random_game(rng, game_id) for game_id in range(GAMES)]
    plies = sum(len(game.moves) for game in games)
    started = time.perf_counter()
    index = OpeningIndex(SIZE)
    index.add(games)
    built = time.perf_counter() - started
    tracemalloc.start()  # a second index, measured apart: tracing slows the building down
    traced = OpeningIndex(SIZE)
    traced.add(games)
    memory, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    position = standard_position(SIZE)
    questions = []
    for move in ("a1", "f6", "c3"):
        started = time.perf_counter()
        index.explore(position)
        questions.append(time.perf_counter() - started)
        position.play(move)
    print(f"{GAMES} games, {plies} plies")
    print(f"index built in {built:.2f} s ({built / plies * 1e6:.0f} µs a ply)")
    print(f"a question on the built index: {max(questions) * 1000:.2f} ms at most")
    print(f"the index holds {memory / 2**20:.1f} MiB")
    first, next_one, tick, share = asyncio.run(through_the_service(games))
    print(
        f"through the service on SQLite: the first question {first:.2f} s, "
        f"the next {next_one * 1000:.1f} ms"
    )
    print(
        f"while the first question is answered, the bot's own work goes at {share:.0%} of its "
        f"speed alone; its event loop's longest stall {tick * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
