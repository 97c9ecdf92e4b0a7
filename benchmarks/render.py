"""How fast the renderer draws and encodes, and how big its files are.

    .venv/bin/python benchmarks/render.py

Targets (issue 3): a heavy 8x8 position (tall stacks, walls, both capstones) at the default size
renders and encodes in at most 30 ms (median) into at most 150 KB of PNG; a 60-ply 6x6 GIF takes
at most 3 s; a 150-ply 8x8 GIF stays under Discord's 10 MiB.
"""

from __future__ import annotations

import random
import statistics
import time

from rendering import DEFAULT_SIZE, render_board, render_replay
from tak import Position, Spread, parse_move
from tak.ptn import Game, GamePly

# Towers of 31 and 12 with buried pieces below the carry limit, walls and all four capstones.
HEAVY_8X8 = (
    "2,1,x,1S,2,x,12,1/x,1212121212121212121212121212121,x,21C,x2,2S,1/2,x,1121,x,2,1,x,2/"
    "x,2S,1,x,211221122112C,x,1,2/1,x,2,21C,1,x,2,x/x,1,x,2,2,1,21S,2/"
    "1,2,x,2112S,1,x2,2C/x,1,x,1,2,x,1,2 1 40"
)


def playout(size: int, plies: int, seed: int) -> Game:
    """A game of `plies` random legal moves that does not end early; spreads are favoured so
    that stacks grow as in real games."""
    rng = random.Random(seed)
    position = Position(size, komi=2)
    game = Game(tags={"Player1": "Alice", "Player2": "Bob", "Size": str(size), "Komi": "2"})
    while position.ply < plies:
        moves = position.legal_moves()
        spreads = [m for m in moves if isinstance(m, Spread)]
        pool = spreads if spreads and rng.random() < 0.6 else moves
        rng.shuffle(pool)
        for move in pool:
            position.push(move)
            if position.result is None:
                break
            position.pop()
        else:
            break
    game.plies = [GamePly(move) for move in position.moves]
    return game


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    heavy = Position.from_tps(HEAVY_8X8, komi=2)
    options = {"last_move": parse_move("2b7>11"), "players": ("Alice", "Bob")}
    png = render_board(heavy, **options)  # warms the caches, as a running bot's are
    board_ms = median_ms(lambda: render_board(heavy, **options), 30)
    print(f"8x8 heavy board, {DEFAULT_SIZE} px PNG: median {board_ms:.1f} ms (target <= 30 ms)")
    print(f"  PNG size {len(png) / 1024:.1f} KB (target <= 150 KB)")

    time_replay(playout(6, 60, seed=6), "target <= 3 s")
    time_replay(playout(8, 150, seed=8), "GIF limit 10 MiB")


def time_replay(game: Game, target: str) -> None:
    start = time.perf_counter()
    gif = render_replay(game)
    seconds = time.perf_counter() - start
    size = game.tag("Size")
    print(
        f"{size}x{size} {len(game.plies)}-ply GIF: {seconds:.2f} s, "
        f"{len(gif) / 2**20:.2f} MiB ({target})"
    )


if __name__ == "__main__":
    main()
