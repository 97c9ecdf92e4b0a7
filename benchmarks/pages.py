"""How fast the pages answer (web/), with 10,000 games in the database. Prints figures.

    BREDON_COMPILE=0 PYTHONPATH=. .venv/bin/python benchmarks/pages.py

Fills a SQLite file as benchmarks/service.py does (10,000 6x6 games of 10 to 90 plies, most of
them finished, 500 players, one server with its pages on), serves the pages over real HTTP in
this process, and asks, one request at a time:

- a game page the first time (its move list worked out with Tak and Tinuë marks: a thread),
  then again (kept) at random plies;
- its board picture the first time (drawn), then again (kept; the target's "cached pictures");
- a player's page (ratings, recent games, head to head).

Target (issue 42): p99 at most 50 ms for a game page with its pictures kept.

Measured (pure-Python engine, 2 cores under a load of 4): a game page kept p50 4.4 ms, p99
26.5 ms; the first time p50 16 ms (p99 226 ms: long games' Tinuë checks); a board picture kept
p50 2.0 ms, p99 16 ms, drawn p50 13 ms; a player's page p50 23 ms, p99 66 ms.
(Named pages.py, not web.py: a script's own folder comes first on its path, and would hide
the web package.)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp

from benchmarks.service import PLAYERS, populate
from bot.guild_settings import GuildSettings, Pages
from bot.services import Services
from bot.settings import WebPages
from web.app import PageSite
from web.safety import RateLimit

GUILD = 1  # benchmarks/service.py's games are all in server 1


def summary(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):6.1f} ms  p99 {p99:6.1f} ms  ({len(ms)} requests)"


async def timed(ask: Callable[[], Awaitable[int]], times: int) -> list[float]:
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        status = await ask()
        seconds.append(time.perf_counter() - start)
        assert status == 200, status
    return seconds


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(42)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bredon.sqlite3"
        services = await Services.open(path)
        await services.close()
        started = time.perf_counter()
        populate(path, args.games, rng)
        print(f"{args.games:,} games written in {time.perf_counter() - started:.1f} s")
        services = await Services.open(path)
        await services.guilds.save(GuildSettings(GUILD, pages=Pages.UNLISTED))
        site = PageSite(services, WebPages(), rate=RateLimit(burst=1e9, per_second=1e9))
        port = await site.start("127.0.0.1", 0)
        base = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as session:

                async def get(path: str) -> int:
                    async with session.get(base + path) as response:
                        await response.read()
                        return response.status

                games = rng.sample(range(1, args.games + 1), args.sample)
                pages = [site.addresses.game(game) for game in games]
                cold = [
                    await timed(lambda page=page: get(page), 1)
                    for page in pages  # type: ignore[misc]
                ]
                print("game page, first time:     ", summary([s for c in cold for s in c]))

                def kept_page() -> Awaitable[int]:
                    page = rng.choice(pages)
                    return get(f"{page}?ply={rng.randint(0, 10)}")

                print("game page, kept:           ", summary(await timed(kept_page, 1000)))
                boards = [f"{page}/board.png?ply=5" for page in pages]
                drawn = [await timed(lambda b=board: get(b), 1) for board in boards]  # type: ignore[misc]
                print("board picture, drawn:      ", summary([s for d in drawn for s in d]))
                print(
                    "board picture, kept:       ",
                    summary(await timed(lambda: get(rng.choice(boards)), 1000)),
                )
                players = [site.addresses.player(GUILD, p) for p in rng.sample(PLAYERS, 50)]
                print(
                    "player page:               ",
                    summary(await timed(lambda: get(rng.choice(players)), 200)),
                )
        finally:
            await site.stop()
            await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=100, help="games whose pages are asked")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
