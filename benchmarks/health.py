"""What ``/healthz`` costs the moves: a move's latency alone, and while 1,000 health requests come
over real HTTP at once (issue 39 measured 62-85x slower when each request read the database).

Plays random legal moves through ``GameService.move`` in a few games (a finished game is
replaced), each committed, first alone, then while 1,000 ``GET /healthz`` are in flight against
the real endpoint (:class:`bot.health.HealthEndpoint`) in the same process, as the bot serves
them. Prints the median and p90 of each and their ratio.

Run: ``.venv/bin/python benchmarks/health.py`` (a SQLite file) or with
``--database postgresql://...`` (target: a move during the flood at most 2x slower).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.games.model import GameRequest
from bot.health import CommandTimings, Gateway, HealthEndpoint
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock

REQUESTS = 1_000
MOVES_ALONE = 200
GAMES = 4


class Mover:
    """Random legal moves in a few games between two players."""

    def __init__(self, services: Services, rng: random.Random) -> None:
        self._services = services
        self._rng = rng
        self._games: list[int] = []
        self._turn = 0

    async def start(self) -> None:
        self._games = [await self._new_game() for _ in range(GAMES)]

    async def _new_game(self) -> int:
        white, black = PlayerRef(1, "white"), PlayerRef(2, "black")
        setup = (await self._services.guilds.get(1)).game_setup(GameRequest(size=6))
        challenge = await self._services.challenges.create(
            guild_id=1, channel_id=1, challenger=white, opponent=black, setup=setup
        )
        return (await self._services.challenges.accept(challenge.id, black)).game.id

    async def move(self) -> float:
        """Seconds one move took (choosing it not counted)."""
        index = self._turn % len(self._games)
        self._turn += 1
        game_id = self._games[index]
        game = await self._services.games.get(game_id)
        position = await self._services.games.position(game_id)
        ptn = self._rng.choice(position.legal_moves()).ptn()
        began = time.perf_counter()
        outcome = await self._services.games.move(
            game_id, game.player_to_move.id, ptn, expected_ply=game.ply
        )
        took = time.perf_counter() - began
        if outcome.result is not None:
            self._games[index] = await self._new_game()
        return took


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[int(len(ordered) * 0.9)]
    return (
        f"median {statistics.median(ordered) * 1000:7.2f} ms, p90 {p90 * 1000:7.2f} ms, "
        f"max {ordered[-1] * 1000:7.2f} ms"
    )


async def main(location: str) -> None:
    services = await Services.open(location, clock=FakeClock(), rng=random.Random(1))
    endpoint = HealthEndpoint(
        services.db, lambda: Gateway(connected=True, latency=0.05), CommandTimings()
    )
    port = await endpoint.start("127.0.0.1", 0)
    mover = Mover(services, random.Random(2))
    try:
        await mover.start()
        for _ in range(20):  # warm: the games cached, the connections made
            await mover.move()
        alone = [await mover.move() for _ in range(MOVES_ALONE)]

        during: list[float] = []
        statuses: list[int] = []
        connector = aiohttp.TCPConnector(limit=REQUESTS)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def healthz() -> None:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                    statuses.append(response.status)
                    await response.read()

            flood = asyncio.gather(*(healthz() for _ in range(REQUESTS)))
            await asyncio.sleep(0)  # the requests are under way
            while not flood.done():
                during.append(await mover.move())
            await flood
        print(f"moves alone ({len(alone)}):            {summary(alone)}")
        print(f"moves during {REQUESTS} /healthz ({len(during)}): {summary(during)}")
        ratio = statistics.median(during) / statistics.median(alone)
        print(f"ratio of medians: {ratio:.2f}x (target <= 2x); health answers: {set(statuses)}")
    finally:
        await endpoint.stop()
        await services.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a postgresql:// URL (default: a new SQLite file)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(main(arguments.database or str(Path(folder) / "bredon.sqlite3")))
