"""Strength ladder: matches between Bredon's levels through TEI, and the lowest level against a
random mover. Prints a table and checks that every level beats the one below it at least 70% and
that level 1 beats random nearly always (95%), that every move was legal and within its time.

Each level runs as `python -m tak tei --level N --seed S` and is driven by `tak.engine`; games
start from random openings (2 to 4 random plies from the seed), each opening played twice with
the colours swapped. A game still going after MAX_PLIES is a draw. Every level is given the bot's
default think time (`BREDON_BOT_MOVETIME_MS`, or `--think-ms`): levels 1 to 4 stop at their depth
or node cap well before it, the strongest uses all of it. Run from a checkout with the compiled
engine (README, "A faster engine") the games are the same for levels 1 to 4, only quicker, and the
strongest searches more positions in the same time.

Every finished game is appended to the record (`--record`, a JSON line a game, keyed by the run's
seed and komi, the size, the pair, the opening's number and the colours, with the opening's TPS
and the moves played, which benchmarks/tune.py fits the evaluation on). A run skips the games its
record already holds and counts them (the strongest level's only at the same think time), so a
ladder too long for one sitting is played over several; `--report` prints the table from the
record alone. (The L4 v L3 games recorded first were played before each opening was drawn from its
own key, with openings drawn in sequence from the run's seed: same kind, other positions.)

With `--tei COMMAND` the strongest of `--levels` plays an outside engine over TEI instead (any
command line, e.g. `--tei /tmp/taktician/tei-bin --komi 0`; `--pairs 4:tei` picks another level),
and must score 50% against it; its games are recorded with the command. Another checkout's Bredon
is such an engine too, to measure a change: `--tei "env -C OTHER PYTHONPATH=OTHER python -P -m tak
tei"` (`-P` and `-C`: `python -m` puts the working directory first on the path, so without them the
"other" engine would be this checkout's).

    python benchmarks/ladder.py [--games 40] [--sizes 5 6] [--levels 1 2 3 4 5] [--jobs 2]
                                [--pairs 4:3 5:4] [--minutes M] [--think-ms MS]
                                [--record FILE] [--report] [--tei COMMAND]

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bot.settings import DEFAULT_BOT_MOVETIME_MS
from tak import Color, Position
from tak.engine import Engine
from tak.search import LEVELS, MAX_LEVEL, Limits, random_move

MAX_PLIES = 200
GRACE_MS = 1_000  # a move may take this much longer than its think time (pipes, a busy machine)
RANDOM = 0  # the "level" of the random mover
OUTSIDE = -1  # the "level" of the engine given by --tei
RECORD = Path(__file__).with_name("ladder-games.jsonl")


@dataclass(frozen=True)
class GameKey:
    """Which game of which run: the same key is the same opening, colours and seeds."""

    run_seed: int
    komi: float
    size: int
    strong: int
    weak: int
    index: int  # the opening's number in its pair and size
    strong_plays: str  # "white" or "black"
    opponent: str = ""  # the --tei command, in games against it


@dataclass
class Moves:
    """One level's moves in a game: how many, their total and longest think in ms."""

    count: int = 0
    total_ms: float = 0.0
    slowest_ms: float = 0.0

    def add(self, ms: float) -> None:
        self.count += 1
        self.total_ms += ms
        self.slowest_ms = max(self.slowest_ms, ms)

    def merge(self, other: Moves) -> None:
        self.count += other.count
        self.total_ms += other.total_ms
        self.slowest_ms = max(self.slowest_ms, other.slowest_ms)


@dataclass
class GameRecord:
    key: GameKey
    think_ms: int
    plies: int
    result: str  # the PTN result, or "unfinished"
    score: float  # for the stronger level: 1, 0.5 or 0
    late_moves: int
    moves: dict[int, Moves]
    # The game itself, for benchmarks/tune.py: the opening's TPS and every move after it (PTN).
    # Records older than these fields have neither.
    start: str = ""
    played: list[str] = field(default_factory=list)

    def line(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def parse(cls, line: str) -> GameRecord:
        data = json.loads(line)
        return cls(
            key=GameKey(**data["key"]),
            think_ms=data["think_ms"],
            plies=data["plies"],
            result=data["result"],
            score=data["score"],
            late_moves=data["late_moves"],
            moves={int(level): Moves(**moves) for level, moves in data["moves"].items()},
            start=data.get("start", ""),
            played=data.get("played", []),
        )


@dataclass
class Match:
    size: int
    strong: int
    weak: int
    games: list[GameRecord] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(game.score for game in self.games) / max(1, len(self.games))

    @property
    def needed(self) -> float:
        """Level 1 must crush random, each level beat the one below, and the strongest hold
        its own against an outside engine (issue 29's target)."""
        return {RANDOM: 0.95, OUTSIDE: 0.50}.get(self.weak, 0.70)

    def count(self, score: float) -> int:
        return sum(game.score == score for game in self.games)

    def name(self, level: int) -> str:
        return {RANDOM: "random", OUTSIDE: "TEI"}.get(level, f"L{level}")

    def moves(self, level: int) -> Moves:
        total = Moves()
        for game in self.games:
            if level in game.moves:
                total.merge(game.moves[level])
        return total


def opening(size: int, komi: float, rng: random.Random) -> Position:
    position = Position(size, komi=komi)
    for _ in range(rng.randint(2, 4)):
        position.push(random_move(position, rng))
    return position


def command(level: int, seed: int, outside: str) -> list[str]:
    """How to start a player: one of Bredon's levels, or the --tei engine."""
    if level == OUTSIDE:
        return shlex.split(outside)
    return [sys.executable, "-m", "tak", "tei", "--level", str(level), "--seed", str(seed)]


async def play_game(key: GameKey, start: Position, seed: int, think_ms: int) -> GameRecord:
    strong_plays = Color.WHITE if key.strong_plays == "white" else Color.BLACK
    engines: dict[int, Engine] = {}
    moves = {level: Moves() for level in (key.strong, key.weak) if level != RANDOM}
    late = 0
    rng = random.Random(seed)
    played: list[str] = []
    try:
        for level in moves:
            engines[level] = await Engine.start(command(level, seed, key.opponent))
        position = start.copy()
        while position.result is None and position.ply < MAX_PLIES:
            level = key.strong if position.to_move == strong_plays else key.weak
            began = time.monotonic()
            if level == RANDOM:
                move = random_move(position, rng)
            else:
                move = await engines[level].play(position, Limits(movetime_ms=think_ms))
                took = (time.monotonic() - began) * 1000
                moves[level].add(took)
                late += took > think_ms + GRACE_MS
            position.play(move)  # checks legality once more
            played.append(move.ptn())
    finally:
        for engine in engines.values():
            await engine.quit()
    winner = position.result.winner if position.result else None
    return GameRecord(
        key=key,
        think_ms=think_ms,
        plies=position.ply,
        result=position.result.ptn() if position.result else "unfinished",
        score=0.5 if winner is None else float(winner == strong_plays),
        late_moves=late,
        moves=moves,
        start=start.tps(),
        played=played,
    )


def load(record: Path) -> dict[GameKey, GameRecord]:
    if not record.exists():
        return {}
    games = (GameRecord.parse(line) for line in record.read_text().splitlines() if line.strip())
    return {game.key: game for game in games}


async def run(args: argparse.Namespace, done: dict[GameKey, GameRecord]) -> list[Match]:
    """Play every game the record lacks, or those that start within --minutes."""
    levels = sorted(args.levels)
    stop_at = time.monotonic() + args.minutes * 60 if args.minutes else None
    pairs = [(levels[0], RANDOM), *zip(levels[1:], levels[:-1], strict=True)]
    if args.tei:
        pairs = [(levels[-1], OUTSIDE)]
    if args.pairs:
        pairs = [_pair(text) for text in args.pairs]
    # The cheap pairs first, both sizes side by side: a run cut short has the most to show.
    matches = [Match(size, strong, weak) for strong, weak in pairs for size in args.sizes]
    jobs = asyncio.Semaphore(args.jobs)

    def reusable(key: GameKey) -> bool:
        """A recorded game counts unless the strongest played in it at another think time (the
        other levels stop at their caps, whatever the time)."""
        game = done.get(key)
        capped = max(key.strong, key.weak) < MAX_LEVEL and OUTSIDE not in (key.strong, key.weak)
        return game is not None and (capped or game.think_ms == args.think_ms)

    async def one(match: Match, key: GameKey, start: Position, seed: int) -> None:
        if reusable(key):
            match.games.append(done[key])
            return
        if args.report:
            return
        async with jobs:
            if stop_at is not None and time.monotonic() >= stop_at:
                return
            game = await play_game(key, start, seed, args.think_ms)
        match.games.append(game)
        with args.record.open("a") as record:
            record.write(game.line() + "\n")
        print(summary(match, game), flush=True)

    tasks = []
    for strong, weak in pairs:
        for index in range(args.games // 2):
            for match in matches:
                if (match.strong, match.weak) != (strong, weak):
                    continue
                # Drawn for this opening alone, so that a key names the same game in any run.
                rng = random.Random(f"{args.seed}:{args.komi}:{match.size}:{strong}:{weak}:{index}")
                start = opening(match.size, args.komi, rng)
                seed = rng.randrange(1 << 30)
                for colour in ("white", "black"):
                    opponent = args.tei if OUTSIDE in (strong, weak) else ""
                    key = GameKey(
                        args.seed, args.komi, match.size, strong, weak, index, colour, opponent
                    )
                    tasks.append(one(match, key, start, seed))
    await asyncio.gather(*tasks)
    return matches


def summary(match: Match, game: GameRecord) -> str:
    slowest = ", ".join(
        f"{match.name(level)} {moves.slowest_ms:.0f} ms" for level, moves in game.moves.items()
    )
    return (
        f"{match.size}x{match.size} {match.name(match.strong)} v {match.name(match.weak)}: "
        f"+{match.count(1.0)} -{match.count(0.0)} ={match.count(0.5)} after {game.plies} plies "
        f"({game.result}), slowest move {slowest}"
    )


def _pair(text: str) -> tuple[int, int]:
    """`4:3` is level 4 against level 3; `1:0` is level 1 against the random mover; `5:tei`
    level 5 against the --tei engine."""
    strong, weak = text.split(":")
    return int(strong), OUTSIDE if weak == "tei" else int(weak)


def report(matches: list[Match], seconds: float, games: int) -> bool:
    ok = True
    print(
        f"{'size':>4}  {'pair':<12} {'games':>5} {'W':>4} {'L':>4} {'D':>4} {'score':>6}  "
        f"{'plies/game':>10}  {'s/move (mean, max)':<24} verdict"
    )
    for m in matches:
        late = sum(game.late_moves for game in m.games)
        passed = m.score >= m.needed and late == 0 and len(m.games) >= games
        ok = ok and passed
        times = "  ".join(
            f"{m.name(level)} {moves.total_ms / max(1, moves.count) / 1000:.1f},"
            f"{moves.slowest_ms / 1000:.1f}"
            for level in (m.weak, m.strong)
            if level != RANDOM and (moves := m.moves(level)).count
        )
        plies = sum(game.plies for game in m.games) / max(1, len(m.games))
        print(
            f"{m.size:>4}  {m.name(m.strong) + ' v ' + m.name(m.weak):<12} {len(m.games):>5} "
            f"{m.count(1.0):>4} {m.count(0.0):>4} {m.count(0.5):>4} {m.score:>6.1%}  "
            f"{plies:>10.0f}  {times:<24} "
            f"{'ok' if passed else 'FAIL'} (needs {m.needed:.0%} of {games} games, "
            f"late moves {late})"
        )
    print(f"all moves legal (each was checked by the client and by Position.play); {seconds:.0f} s")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per pair and size (even)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--levels", type=int, nargs="+", default=[level.number for level in LEVELS])
    parser.add_argument(
        "--pairs", nargs="+", default=None, help="only these pairs, strong:weak (0 is random)"
    )
    parser.add_argument("--komi", type=float, default=2)
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--minutes", type=float, default=None, help="start no game after this")
    parser.add_argument("--think-ms", type=int, default=DEFAULT_BOT_MOVETIME_MS)
    parser.add_argument("--record", type=Path, default=RECORD, help="games played so far")
    parser.add_argument("--report", action="store_true", help="play nothing: the record's table")
    parser.add_argument(
        "--tei", default="", help="an outside engine's command: the strongest level plays it"
    )
    args = parser.parse_args()
    if any(pair.endswith(":tei") for pair in args.pairs or ()) and not args.tei:
        parser.error("a pair with tei needs --tei COMMAND")
    started = time.monotonic()
    done = load(args.record)
    matches = asyncio.run(run(args, done))
    return 0 if report(matches, time.monotonic() - started, args.games) else 1


if __name__ == "__main__":
    sys.exit(main())
