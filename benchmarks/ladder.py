"""Strength ladder: matches between Bredon's levels through TEI, and the lowest level against a
random mover. Prints a table and checks that every level beats the one below it at least 70% and
that level 1 beats random nearly always (95%), that every move was legal and within its time.

Each level runs as `python -m tak tei --level N --seed S` and is driven by `tak.engine`; games
start from random openings (2 to 4 random plies from the seed), each opening played twice with
the colours swapped. A game still going after MAX_PLIES is a draw. Levels 5 and 6 search the
same way as level 4, only longer (40,000 positions; all the time given): they are left out by
default, as 40 games of them take hours on two cores (`--pairs 5:4` plays them alone).

    python benchmarks/ladder.py [--games 40] [--sizes 5 6] [--levels 1 2 3 4] [--jobs 2]
                                [--pairs 4:3 5:4] [--minutes M]

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from dataclasses import dataclass, field

from tak import Color, Position
from tak.engine import Engine
from tak.search import Limits, random_move

MAX_PLIES = 200
GUARD_MS = 5_000  # the movetime each engine is given; its level's node cap stops it well before
GRACE_MS = 1_000  # a move may take this much longer than GUARD_MS (pipes, a busy machine)
RANDOM = 0  # the "level" of the random mover


@dataclass
class Match:
    size: int
    strong: int
    weak: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    plies: int = 0
    late_moves: int = 0
    move_ms: dict[int, list[float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / max(1, self.games)

    @property
    def needed(self) -> float:
        return 0.95 if self.weak == RANDOM else 0.70

    def name(self, level: int) -> str:
        return "random" if level == RANDOM else f"L{level}"


def opening(size: int, komi: float, rng: random.Random) -> Position:
    position = Position(size, komi=komi)
    for _ in range(rng.randint(2, 4)):
        position.push(random_move(position, rng))
    return position


async def play_game(match: Match, start: Position, strong_plays: Color, seed: int) -> None:
    engines: dict[int, Engine] = {}
    rng = random.Random(seed)
    try:
        for level in (match.strong, match.weak):
            if level != RANDOM:
                engines[level] = await Engine.start(
                    [sys.executable, "-m", "tak", "tei", "--level", str(level), "--seed", str(seed)]
                )
        position = start.copy()
        slowest = dict.fromkeys(engines, 0.0)
        while position.result is None and position.ply < MAX_PLIES:
            level = match.strong if position.to_move == strong_plays else match.weak
            began = time.monotonic()
            if level == RANDOM:
                move = random_move(position, rng)
            else:
                move = await engines[level].play(position, Limits(movetime_ms=GUARD_MS))
            took = (time.monotonic() - began) * 1000
            match.move_ms.setdefault(level, []).append(took)
            if level != RANDOM:
                slowest[level] = max(slowest[level], took)
            if took > GUARD_MS + GRACE_MS:
                match.late_moves += 1
            position.play(move)  # checks legality once more
        match.plies += position.ply
        winner = position.result.winner if position.result else None
        if winner is None:
            match.draws += 1
        elif winner == strong_plays:
            match.wins += 1
        else:
            match.losses += 1
        print(
            f"{match.size}x{match.size} {match.name(match.strong)} v {match.name(match.weak)}: "
            f"+{match.wins} -{match.losses} ={match.draws} after {position.ply} plies "
            f"({position.result.ptn() if position.result else 'unfinished'}), slowest move "
            + ", ".join(f"{match.name(level)} {ms:.0f} ms" for level, ms in slowest.items()),
            flush=True,
        )
    finally:
        for engine in engines.values():
            await engine.quit()


async def run(args: argparse.Namespace) -> list[Match]:
    """Play every game, or those that start within --minutes (a reduced run, said so)."""
    levels = sorted(args.levels)
    stop_at = time.monotonic() + args.minutes * 60 if args.minutes else None
    pairs = [(levels[0], RANDOM), *zip(levels[1:], levels[:-1], strict=True)]
    if args.pairs:
        pairs = [_pair(text) for text in args.pairs]
    # The cheap pairs first, both sizes side by side: a run cut short has the most to show.
    matches = [Match(size, strong, weak) for strong, weak in pairs for size in args.sizes]
    jobs = asyncio.Semaphore(args.jobs)
    rng = random.Random(args.seed)

    async def one(match: Match, start: Position, colour: Color, seed: int) -> None:
        async with jobs:
            if stop_at is None or time.monotonic() < stop_at:
                await play_game(match, start, colour, seed)

    tasks = []
    for strong, weak in pairs:
        for index in range(args.games // 2):
            for match in matches:
                if (match.strong, match.weak) != (strong, weak):
                    continue
                start = opening(match.size, args.komi, rng)
                seed = rng.randrange(1 << 30)
                for colour in Color:
                    tasks.append(one(match, start, colour, seed + index))
    await asyncio.gather(*tasks)
    return matches


def _pair(text: str) -> tuple[int, int]:
    """`4:3` is level 4 against level 3; `1:0` is level 1 against the random mover."""
    strong, weak = text.split(":")
    return int(strong), int(weak)


def report(matches: list[Match], seconds: float, games: int) -> bool:
    ok = True
    print(
        f"{'size':>4}  {'pair':<12} {'games':>5} {'W':>4} {'L':>4} {'D':>4} {'score':>6}  "
        f"{'plies/game':>10}  {'ms/move (mean, max)':<28} verdict"
    )
    for m in matches:
        passed = m.score >= m.needed and m.late_moves == 0 and m.games >= games
        ok = ok and passed
        times = "  ".join(
            f"{m.name(level)} {sum(ms) / len(ms):.0f},{max(ms):.0f}"
            for level, ms in sorted(m.move_ms.items())
            if level != RANDOM
        )
        print(
            f"{m.size:>4}  {m.name(m.strong) + ' v ' + m.name(m.weak):<12} {m.games:>5} "
            f"{m.wins:>4} {m.losses:>4} {m.draws:>4} {m.score:>6.1%}  "
            f"{m.plies / max(1, m.games):>10.0f}  {times:<28} "
            f"{'ok' if passed else 'FAIL'} (needs {m.needed:.0%} of {games} games, "
            f"late moves {m.late_moves})"
        )
    print(f"all moves legal (each was checked by the client and by Position.play); {seconds:.0f} s")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per pair and size (even)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument(
        "--pairs", nargs="+", default=None, help="only these pairs, strong:weak (0 is random)"
    )
    parser.add_argument("--komi", type=float, default=2)
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--minutes", type=float, default=None, help="start no game after this")
    args = parser.parse_args()
    started = time.monotonic()
    matches = asyncio.run(run(args))
    return 0 if report(matches, time.monotonic() - started, args.games) else 1


if __name__ == "__main__":
    sys.exit(main())
