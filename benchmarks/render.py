"""How fast the renderer draws and encodes, and how big its files are.

    .venv/bin/python benchmarks/render.py

Targets (issue 3): a heavy 8x8 position (tall stacks, walls, both capstones) at the default size
renders and encodes in at most 30 ms (median) into at most 150 KB of PNG; a 60-ply 6x6 GIF takes
at most 3 s; a 150-ply 8x8 GIF stays under Discord's 10 MiB. Issue 10: a 1,200-ply 8x8 replay
stays within MAX_REPLAY_BYTES (8 MiB) in bounded memory; before, every frame was kept and the
same game took 12.6 s, 33.6 MiB and a peak of 1,084 MiB. The peak is the most resident memory of
a fresh process that plays the game out and renders it. Issue 13: a 32-player standings table, a
32-player bracket (every match played) and a group-stage round's pairings of 32 players in 4
labelled groups, median time and PNG size. Issue 38: a 64-player bracket (two rounds played,
long German names), every picture it is posted as (one before; four sections and the last
rounds after), median time, sizes and total PNG size.
"""

from __future__ import annotations

import io
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from rendering import DEFAULT_SIZE, MAX_REPLAY_BYTES, render_board, render_replay_within
from rendering.bracket import Bracket, BracketMatch, Entrant, bracket_pictures, render_bracket
from rendering.pairings import PairingRow, RoundPairings, render_pairings
from rendering.standings import StandingsRow, StandingsTable, TieBreakColumn, render_standings
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

    time_picture("32-player standings", lambda: render_standings(standings_32()))
    time_picture("32-player bracket", lambda: render_bracket(bracket_32()))
    time_picture("32-player pairings in 4 groups", lambda: render_pairings(pairings_32()))
    time_pictures("64-player bracket", bracket_64())
    time_replay(playout(6, 60, seed=6), "target <= 3 s")
    time_replay(playout(8, 150, seed=8), "GIF limit 10 MiB")
    # In a process of its own, so that the peak memory is this replay's.
    subprocess.run([sys.executable, __file__, "--long-replay"], check=True)


def standings_32() -> StandingsTable:
    tie_breaks = (TieBreakColumn("SB", "Sonneborn-Berger"), TieBreakColumn("Bu", "Buchholz"))
    rows = tuple(
        StandingsRow(
            i + 1, f"Player {i + 1} Ångström", 40 - i, 13 - i // 3, i % 3, i // 3, (i * 1.5, 60 - i)
        )
        for i in range(32)
    )
    return StandingsTable("Winter Cup", rows, tie_breaks, subtitle="after round 7")


def bracket_32() -> Bracket:
    """32 entrants, the top entrant winning every match."""
    current = [Entrant(f"Player {i + 1}", i + 1) for i in range(32)]
    rounds = []
    while len(current) > 1:
        pairs = [(current[i], current[i + 1]) for i in range(0, len(current), 2)]
        rounds.append(tuple(BracketMatch(pair, (2, 1), 0) for pair in pairs))
        current = [a for a, _ in pairs]
    return Bracket("Spring Knockout", tuple(rounds))


def bracket_64() -> Bracket:
    """64 entrants with long German names, two rounds played, the top entrant winning."""
    names = ("Hannelore Grünwald", "GrünwaldSchäfer", "Karl-Heinz Oberhauser", "Ute")
    current = [Entrant(f"{names[i % 4]} {i + 1}", i + 1) for i in range(64)]
    rounds = []
    for _ in range(2):
        pairs = [(current[i], current[i + 1]) for i in range(0, len(current), 2)]
        rounds.append(tuple(BracketMatch(pair, (2, 1), 0) for pair in pairs))
        current = [a for a, _ in pairs]
    return Bracket("Herbstturnier", tuple(rounds))


def time_pictures(what: str, bracket: Bracket) -> None:
    """Every picture the bracket is posted as."""
    parts = bracket_pictures(bracket)

    def render() -> list[bytes]:
        return [render_bracket(part) for part in parts]

    pngs = render()
    sizes = ", ".join(f"{Image.open(io.BytesIO(png)).size}" for png in pngs)
    total = sum(len(png) for png in pngs) / 1024
    print(
        f"{what}: median {median_ms(render, 10):.1f} ms for {len(pngs)} pictures {sizes}, "
        f"{total:.1f} KB PNG"
    )


def pairings_32() -> RoundPairings:
    """A group-stage round: 16 matches under 4 group headings, half of them played."""
    rows = tuple(
        PairingRow(
            i + 1,
            f"Player {2 * i + 1} Ångström",
            f"Player {2 * i + 2}",
            (16, 0) if i % 2 else None,
            group=f"Group {'ABCD'[i // 4]}",
        )
        for i in range(16)
    )
    return RoundPairings("Winter Cup: round 3", rows)


def time_picture(what: str, render) -> None:
    png = render()
    print(f"{what}: median {median_ms(render, 20):.1f} ms, {len(png) / 1024:.1f} KB PNG")


def time_replay(game: Game, target: str) -> None:
    start = time.perf_counter()
    replay = render_replay_within(game)
    seconds = time.perf_counter() - start
    size = game.tag("Size")
    print(
        f"{size}x{size} {len(game.plies)}-ply GIF: {seconds:.2f} s, "
        f"{len(replay.data) / 2**20:.2f} MiB ({target}); {replay.frames} frames at "
        f"{replay.width} px; {replay.note or 'every ply shown.'}"
    )


def long_replay() -> None:
    game = playout(8, 1200, seed=8)
    before = peak_mib()  # the interpreter, the imports and the game
    time_replay(game, f"budget {MAX_REPLAY_BYTES / 2**20:.0f} MiB")
    print(f"  peak memory {peak_mib():.0f} MiB ({before:.0f} MiB before rendering)")


def peak_mib() -> float:
    """This process's peak resident size so far: Linux's VmHWM, which starts afresh at exec
    (ru_maxrss would carry over the parent's peak into the child)."""
    status = Path("/proc/self/status").read_text()
    kib = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(kib) / 1024


if __name__ == "__main__":
    if sys.argv[1:] == ["--long-replay"]:
        long_replay()
    else:
        main()
