"""Engine speed: make/unmake, move generation, perft, Tak threats, Tinuë, single moves and the
search's positions per second. Prints figures.

Targets (issue 2, 2-core machine, CPython): perft(6x6 start, 4) = 13,586,048 in <= 15 s; threat
detection on heavy 6x6-8x8 mid-game positions median <= 2 ms and worst <= 10 ms; parse, validate
and apply one move <= 0.1 ms. Issue 11: judging Tak or Tinuë after a move on heavy 6x6-8x8
positions median <= 20 ms and worst <= 200 ms. Issue 12: make/unmake and move generation 3x faster
than before.

The throughput figures (make/unmake, movegen, perft nodes/s) run on fixed positions, so figures from
two versions of `tak` compare directly; times are CPU times, so that other work on a shared machine
disturbs them less. The script measures the `tak` it imports; when that is the
compiled build (see README), it measures the pure Python modules too, in a second process.
`--baseline DIR` adds the figures of another checkout's `tak` (DIR holds its `tak/` folder).

    python benchmarks/engine.py [--quick] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tak import Call, Color, Position, perft, tak_call

# Heavy published positions (tall stacks, walls, capstones) from ViliamVadocz/tak-perft.
HEAVY = [
    "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/"
    "21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33",
    "2,x,2,111S,2,12/2,122S,2122,1S,x,1/x,111,1,11S,x2/21122112C,x,212S,2S,2,1212S/"
    "1,112S,21221S,2S,x2/21,222,x,12S,x2 2 30",
    "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/"
    "2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41",
    "1,1,x5/x,12,1S,111,2S,211,2/12S,2,1C,21212S,212,21,2C/x,211S,122,2221,21,22,1/"
    "x,1,221,12,1,1,1112S/x,1,12222S,2,222,112121S,122/1,x,1,x,2,12,11S 2 41",
    "x,1,1,1S,1S,1S,1S,1S/1,x,1,1,2S,2S,1C,1S/1,1,x,1,1,2C,2S,1S/1S,1,1,x,1,1,2S,1S/"
    "1S,2S,1,1,x,1,1,1S/1S,2S,2C,1,1,x,1,1/1S,1C,2S,2S,1,1,x,1/1S,1S,1S,1S,1S,1,1,x 2 50",
    "x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14",
]

# Tinuë for the side not to move (komi 2), found by seeded random play on 6x6-8x8 favouring spreads
# (taking the first Tinuë after ply 30 of each game): the case where the search reads every reply.
HEAVY_TINUE = [
    "2,111C,1C,2,12,2,12C/2C,112,2,x,12,2,x/x,2S,21,2,2,1S,1S/1S,1S,x,2S,212,x,21S/"
    "2S,x,1112S,1S,2S,22,x/x2,1S,x,2S,2,2S/11,2,x,1S,2S,2112,2S 1 120",
    "x,112,12,11,2S,22S,2/21,x,2,1S,2S,x,11/1S,22,2C,x,21111,1C,12122/21S,212,21,111,221,212,x/"
    "2,1122,12,2,2,12,1/x3,2S,1,1S,1/21,2,12,1,1C,12S,2C 1 360",
    "11,221,1C,1,1,2S,1/x2,2,22S,x,21,1/12S,2,2,21,2S,x,21/22S,2,x3,12,1/x,221,112,122,1C,x,1/"
    "1,1111,1221,2C,12S,x,12/2S,12C,11,1,x,1,1 2 235",
    "21,11,2,211C,x,2S/2S,2,x,212211,121121,11/1S,222C,x2,2,x/12S,x,2,x,1,1S/"
    "1,1S,x,2121,11S,1S/x,1,2,11,x,2S 2 190",
    "112,12S,11,221S,22,2,x/1S,x,2111C,2,2C,x,22/x,12,2,2,x,21,211/2,22,22S,2S,1,1,2/"
    "1S,x,2S,x,11222C,2,11C/1,11,21S,1,1S,22,21S/2S,1,2,2S,1S,2,2S 1 236",
    "2S,2,x,1S,1,x/12,2,x3,11C/2,x,2,2,2,12C/1,1,x,2S,2S,x/1S,x,1S,x,12S,x/2,1S,x,122,2S,2S 1 55",
    "2,112S,111,x,1,x,2/1S,x,21C,12C,x,221122,2C/2S,x,22,2,22S,1,2/x,2S,11S,1112,121,22,22/"
    "1S,1S,x,121,x2,121122/21S,2,12212,x,21211C,12,1/22,1S,2,21S,x,112,11 1 434",
    "21,1,x,211,x,221,11C/121C,121121,21S,1,1,1,1121/2S,2,2S,x,1S,1S,x/22,2,x,2S,122,1,11/"
    "x,1,21221S,1S,2S,222,21S/222C,12C,x,2S,222,11S,1/x,122,21S,122,x,21S,2S 2 338",
    "21,2121S,1S,12C,1S,x,212/x2,1S,1S,2S,21,11S/21,2S,2S,2,1,x,2C/1,21,2S,1,21,1S,12/"
    "1S,1,1,1,1,2S,2S/2,21,212221,x,1C,211,x/1,21C,x2,12,11,2 2 184",
    "2S,1S,2S,x3,2/2S,x,21S,x2,1S,122C/2,22,21,x,11222,12,2/22,1S,2S,2S,122,11,22C/x5,22,x/"
    "12S,11,12,112221S,1C,2,21221111S/x,1C,x,2,21,22,x 1 233",
    "1S,1,2S,2S,1S,2/2,1S,1S,2,1S,222/x,1121S,2S,1S,2S,x/21,21C,x,21S,1,2/2,21,x,1112,22,12C/"
    "x,2,2,2,121,2 1 126",
    "x,1S,22S,2S,1S,x,1/112S,x3,1S,x,1/1S,2,2S,1,x,211,1/1,2221C,21,1,2122122,2S,121/"
    "1S,2122,1,2S,1S,2S,1C/112C,11221,11,212C,x2,1/1222S,x,22,2,x,1S,x 2 298",
]


def random_midgames(
    count: int, *, threatened: bool, seed: int = 7, mover_only: bool = False
) -> list[Position]:
    """Mid-game positions of 6x6 to 8x8 from seeded random play that favours spreads (so stacks
    grow tall), still in play after 40 to 90 plies. With `threatened`, each game instead stops at
    the first position after ply 30 where a player threatens a road: the expensive case, where
    many spreads survive the pruning. With `mover_only`, the player who just moved (a Tak: where
    the Tinuë search runs at all)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position(rng.choice([6, 7, 8]), komi=2)
        target = rng.randint(40, 90)
        while position.result is None:
            threatening = [position.to_move.other] if mover_only else list(Color)
            if threatened and position.ply > 30:
                if any(position.has_road_threat(c) for c in threatening):
                    positions.append(Position.from_tps(position.tps(), komi=2))
                    break
            elif not threatened and position.ply >= target:
                positions.append(Position.from_tps(position.tps(), komi=2))
                break
            moves = position.legal_moves()
            spreads = [m for m in moves if not hasattr(m, "piece")]
            pool = spreads if spreads and rng.random() < 0.6 else moves
            position.push(rng.choice(pool))
    return positions


def time_ms(function, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        samples.append((time.process_time() - start) * 1000)
    return samples


def fixed_positions() -> list[Position]:
    """The throughput figures' positions: the heavy published ones and seeded random mid-games."""
    positions = [Position.from_tps(t) for t in HEAVY]
    positions += [Position.from_tps(p.tps(), komi=2) for p in random_midgames(24, threatened=False)]
    return positions


def rate(function, work: int, seconds: float = 1.0) -> float:  # type: ignore[no-untyped-def]
    """`work` units done by each call of `function`, per second, over about `seconds`: best of 3."""
    calls = 1
    while True:
        start = time.process_time()
        for _ in range(calls):
            function()
        elapsed = time.process_time() - start
        if elapsed > seconds / 10:
            break
        calls *= 2
    best = elapsed
    for _ in range(2):
        start = time.process_time()
        for _ in range(calls):
            function()
        best = min(best, time.process_time() - start)
    return work * calls / best


def bench_throughput(quick: bool) -> None:
    positions = fixed_positions()
    seconds = 0.3 if quick else 1.0
    lists = [p.legal_moves() for p in positions]
    pairs = sum(len(m) for m in lists)

    def make_unmake() -> None:
        for position, moves in zip(positions, lists, strict=True):
            push, pop = position.push, position.pop
            for move in moves:
                push(move)
                pop()

    def movegen() -> None:
        for position in positions:
            position.legal_moves()

    def count() -> None:
        for position in positions:
            position.count_legal_moves()

    def threats() -> None:
        for position in positions:
            position.road_threats(Color.WHITE)
            position.road_threats(Color.BLACK)

    print(f"throughput on {len(positions)} fixed 6x6-8x8 positions ({pairs:,} legal moves):")
    for label, function, work in [
        ("make/unmake (push + pop)", make_unmake, pairs),
        ("legal_moves()", movegen, len(positions)),
        ("count_legal_moves()", count, len(positions)),
        ("road_threats(color)", threats, 2 * len(positions)),
    ]:
        print(f"  {label:<26}{rate(function, work, seconds) / 1e3:10.2f} k/s")
    for tps, depth in PERFT_CASES[: 2 if quick else None]:
        start = time.process_time()
        nodes = perft(Position.from_tps(tps), depth)
        elapsed = time.process_time() - start
        print(
            f"  perft {tps[:28]}... depth {depth}: {nodes:,} nodes, "
            f"{nodes / elapsed / 1e6:.2f} M nodes/s"
        )


# Perft positions (published figures in tests/tak/test_perft.py): a 5x5 capstone fight, a heavy
# 6x6 mid-game, and the 6x6 opening, whose last ply is counted without playing it.
PERFT_CASES = [
    ("x5/x5/2S,211C,2C,212S,x/x5/x5 1 7", 3),
    (HEAVY[0], 2),
    ("x6/x6/x6/x6/x6/x6 1 1", 3),
]


def bench_search(quick: bool) -> None:
    """Bredon's player (tak.search): positions searched per second of CPU, on seeded 5x5 and 6x6
    mid-games, each searched to a fixed number of positions (so two versions do the same work
    as long as they search alike)."""
    from tak.search import Limits, Player, random_move

    rng = random.Random(12)
    positions = []
    for size in (5, 6):
        while len(positions) < (2 if quick else 6) * (size - 4):
            position = Position(size, komi=2)
            for _ in range(rng.randint(10, 24)):
                if position.result is None:
                    position.push(random_move(position, rng))
            if position.result is None:
                positions.append(position)
    limits = Limits(nodes=3_000)
    nodes = 0
    start = time.process_time()
    for position in positions:
        nodes += Player(seed=1).choose(position, limits).nodes
    elapsed = time.process_time() - start
    print(
        f"search (tak.search) on {len(positions)} 5x5/6x6 mid-games: "
        f"{nodes / elapsed / 1e3:.1f} k positions/s"
    )


def bench_perft() -> None:
    start = time.process_time()
    nodes = perft(Position(6), 4)
    seconds = time.process_time() - start
    print(
        f"perft 6x6 start depth 4: {nodes:,} nodes in {seconds:.2f} s "
        f"({nodes / seconds / 1e6:.2f} M nodes/s)  target <= 15 s"
    )


def bench_threats(quick: bool) -> None:
    count = 20 if quick else 100
    positions = [Position.from_tps(t) for t in HEAVY]
    positions += random_midgames(count, threatened=False)
    positions += random_midgames(count // 2, threatened=True)
    per_position = []
    threatened = 0
    for position in positions:
        for color in Color:
            samples = time_ms(lambda p=position, c=color: p.road_threats(c), 5)
            per_position.append(statistics.median(samples))
            threatened += bool(position.road_threats(color))
    per_position.sort()
    print(
        f"road threats ({len(per_position)} checks on {len(positions)} heavy 6x6-8x8 positions,"
        f" {threatened} with a threat): median {statistics.median(per_position):.3f} ms, "
        f"p95 {per_position[int(len(per_position) * 0.95)]:.3f} ms, "
        f"worst {per_position[-1]:.3f} ms  targets median <= 2 ms, worst <= 10 ms"
    )


def bench_tinue(quick: bool) -> None:
    count = 20 if quick else 100
    positions = [Position.from_tps(t) for t in HEAVY]
    positions += random_midgames(count, threatened=False)
    positions += random_midgames(count, threatened=True, seed=11, mover_only=True)
    positions += [Position.from_tps(t, komi=2) for t in HEAVY_TINUE]
    per_position = []
    calls = dict.fromkeys(Call, 0)
    for position in positions:
        samples = time_ms(lambda p=position: tak_call(p), 3)
        per_position.append(statistics.median(samples))
        calls[tak_call(position)] += 1
    per_position.sort()
    print(
        f"Tak/Tinue call ({len(positions)} heavy 6x6-8x8 positions: {calls[Call.NONE]} quiet, "
        f"{calls[Call.TAK]} Tak, {calls[Call.TINUE]} Tinue): "
        f"median {statistics.median(per_position):.2f} ms, "
        f"p95 {per_position[int(len(per_position) * 0.95)]:.2f} ms, "
        f"worst {per_position[-1]:.2f} ms  targets median <= 20 ms, worst <= 200 ms"
    )


def bench_single_move() -> None:
    position = Position.from_tps(HEAVY[0])
    texts = [m.ptn() for m in position.legal_moves()]
    rounds = 20
    start = time.process_time()
    for _ in range(rounds):
        for text in texts:
            position.play(text)
            position.pop()
    per_move = (time.process_time() - start) / (rounds * len(texts)) * 1000
    print(f"parse + validate + apply one move (then undo): {per_move:.4f} ms  target <= 0.1 ms")


def is_compiled() -> bool:
    """Whether the imported engine is the mypyc build (its modules are extension modules)."""
    import tak.position

    return not tak.position.__file__.endswith(".py")


def run_with_engine(directory: Path, label: str, arguments: list[str]) -> None:
    """Run this script again in a new process whose `tak` comes from `directory`."""
    print(f"\n({label})", flush=True)
    code = (
        "import runpy, sys; sys.path.insert(0, sys.argv[1]); sys.argv = sys.argv[2:]; "
        "runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    command = [sys.executable, "-c", code, str(directory), __file__, "--engine-only", *arguments]
    subprocess.run(command, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions, same figures")
    parser.add_argument("--baseline", type=Path, help="also measure the tak/ package in DIR")
    parser.add_argument("--engine-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    import tak

    compiled = is_compiled()
    print(f"== {'compiled (mypyc)' if compiled else 'pure Python'}: tak from {tak.__file__}")
    bench_throughput(args.quick)
    bench_single_move()
    bench_threats(args.quick)
    bench_tinue(args.quick)
    bench_search(args.quick)
    if not args.quick:
        bench_perft()
    if args.engine_only:
        return
    extra = ["--quick"] if args.quick else []
    if compiled:
        with tempfile.TemporaryDirectory() as pure:
            shutil.copytree(Path(tak.__file__).parent, Path(pure) / "tak", ignore=_not_source)
            run_with_engine(Path(pure), "pure Python", extra)
    if args.baseline:
        run_with_engine(args.baseline, "baseline", extra)


def _not_source(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if not name.endswith(".py")]


if __name__ == "__main__":
    main()
