"""Search speed and depth: Bredon's strongest level, and any TEI engine beside it in the same run,
on the same fixed 5x5 and 6x6 positions (from real games, komi 0) at the same time per move.
Prints, per position and per size, the depth completed, the positions searched to complete it and
positions per second (wall-clock, at the last depth completed: what a TEI engine's last `info`
line says).

    python benchmarks/search.py [--movetime 1000] [--tei COMMAND ...]

`--tei` takes an engine's command line as one string, e.g. `--tei /tmp/taktician/tei-bin`; its
figures are those of its last `info` line (depth, nodes, time), and it is told `teinewgame` before
every position. The `tak` imported is measured, pure or compiled (README, "A faster engine"); to
set builds side by side in one run give the others as TEI engines, e.g.
`--tei "env PYTHONPATH=OTHER_CHECKOUT python -P -m tak tei"` (without `-P`, `python -m` puts the
current directory first on its path, and from a checkout would run that checkout's `tak`, not
OTHER_CHECKOUT's).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import time
from dataclasses import dataclass

from tak import Position
from tak.search import Limits, Player, SearchResult, forget

# Mid-games from tests/tak/real_games (5x5: 53752, 86085, 90504, asgardiator-v4; 6x6: 70709)
# and one 6x6 opening.
POSITIONS = {
    5: [
        "x,2,1,1,1/2,1,2,1,x/x,2C,1,2,2/x5/x5 1 7",
        "221C,2,1,1,1/2112C,x,2,1,x/x,2,x,21,2/x3,2,x/x5 1 13",
        "2,2,21S,x2/x2,112,2C,x/x2,1,2,1/x2,1C,2,x/1,112,1,1,x 1 13",
        "2,2,x2,1/x2,2,2,1/x4,2/1,1112C,1C,2,1/1,12S,x,1,1 1 13",
        "2,x,2,x2/x3,2,x/x5/x,1,1,111112C,x/1,2,1,2221C,12 1 19",
    ],
    6: [
        "x6/x6/x2,2,1,x2/x6/x6/x6 1 2",
        "2,x4,1/x3,2,1,1/x2,2,1C,2,1/x3,2,1,x/x4,2,x/x6 1 7",
        "2,x4,1/x3,2,x,1/x2,2,x,212C,x/x3,11C,1,121/x2,2,12,2,x/x6 1 13",
        "2,x,2,x2,1/x2,2,2,x,1/x2,2,x,2,1/x2,2,x2,2112C/x2,2,x,21,1211C/x2,1,x,1,21 1 19",
    ],
}


@dataclass(frozen=True)
class Figure:
    depth: int
    nodes: int
    ms: int

    @property
    def per_second(self) -> float:
        return self.nodes / max(self.ms, 1) * 1000


def bredon(tps: str, movetime_ms: int) -> Figure:
    """The figures at the last depth completed, as a TEI engine's last `info` line gives them."""
    forget()  # every search starts alike: nothing kept from the last position
    completed: list[SearchResult] = []
    Player().choose(Position.from_tps(tps), Limits(movetime_ms=movetime_ms), completed.append)
    last = completed[-1]
    return Figure(last.depth, last.nodes, last.time_ms)


class TeiEngine:
    """A TEI engine driven line by line: enough to time one search of a position."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("tei")
        self.wait_for("teiok")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, word: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        for line in self.process.stdout:
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines
        raise RuntimeError(f"the engine stopped before saying {word!r}")

    def search(self, tps: str, movetime_ms: int) -> Figure:
        self.send(f"teinewgame {Position.from_tps(tps).size}")  # nothing kept from the last
        self.send(f"position tps {tps}")
        started = time.monotonic()
        self.send(f"go movetime {movetime_ms}")
        lines = self.wait_for("bestmove")
        elapsed = round((time.monotonic() - started) * 1000)
        figure = Figure(0, 0, elapsed)
        for line in lines:
            words = line.split()
            if words[:1] == ["info"]:
                figure = Figure(*(_after(words, name) for name in ("depth", "nodes", "time")))
        return figure

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=5)


def _after(words: list[str], name: str) -> int:
    """The number after `name` in an `info` line (0 if missing): `score cp 35` has three words,
    so the line is not read in pairs."""
    place = words.index(name) + 1 if name in words else len(words)
    return int(words[place]) if place < len(words) else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--movetime", type=int, default=1_000, help="ms per search")
    parser.add_argument("--tei", action="append", default=[], help="a TEI engine's command")
    args = parser.parse_args()
    import tak.position

    build = "pure Python" if tak.position.__file__.endswith(".py") else "compiled (mypyc)"
    players = [(f"Bredon, {build}", lambda tps: bredon(tps, args.movetime))]
    engines = [TeiEngine(command) for command in args.tei]
    for command, engine in zip(args.tei, engines, strict=True):
        players.append((command, lambda tps, engine=engine: engine.search(tps, args.movetime)))
    print(f"{args.movetime} ms a position; depth, positions searched, positions/s")
    try:
        for size, positions in POSITIONS.items():
            figures: dict[str, list[Figure]] = {name: [] for name, _ in players}
            for tps in positions:
                print(f"{size}x{size} {tps}")
                for name, search in players:
                    figure = search(tps)
                    figures[name].append(figure)
                    print(
                        f"    {name:40} depth {figure.depth:2}  {figure.nodes:9,} in"
                        f" {figure.ms:5} ms  {figure.per_second / 1e3:7.1f} k/s"
                    )
            for name, found in figures.items():
                depth = statistics.mean(f.depth for f in found)
                rate = sum(f.nodes for f in found) / max(sum(f.ms for f in found), 1)
                print(f"  {size}x{size} {name:40} mean depth {depth:.1f}  {rate:7.1f} k/s")
    finally:
        for engine in engines:
            engine.close()


if __name__ == "__main__":
    main()
