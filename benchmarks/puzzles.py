"""How fast puzzles are mined: the CPU a server's finished games cost.

Mines every position of the published real games (/work/shared/real_games, as
scripts/mine_puzzles.py reads them) in a thread, with a ticker on the event loop: prints the
games, positions and puzzles, the seconds per game, and the longest the loop went without
turning. (PuzzleService.stock mines in the bot's background worker process since 2026-12-07, so
the bot's own process no longer shares its GIL with the mining; the seconds per game are the
same work.)

    python benchmarks/puzzles.py [--real-games /work/shared/real_games]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from benchmarks.parsers import timed_with_ticker
from bot.puzzles.mining import MinedPuzzle, mine
from scripts.mine_puzzles import games
from tak import Position


def _mine_all(played: list[tuple[Position, list[str]]]) -> list[MinedPuzzle]:
    return [found for start, moves in played for found in mine(start, moves)]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real-games", type=Path, default=Path("/work/shared/real_games"))
    args = parser.parse_args()
    played = [(start, moves) for start, moves, _source in games(args.real_games)]
    outcome, seconds, gap = await timed_with_ticker(asyncio.to_thread(_mine_all, played))
    assert isinstance(outcome, list)
    positions = sum(len(moves) + 1 for _start, moves in played)
    print(f"{len(played)} games, {positions} positions, {len(outcome)} puzzles")
    print(f"{seconds:.1f} s: {1000 * seconds / len(played):.0f} ms a game")
    print(f"longest event-loop gap while mining: {1000 * gap:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
