"""Fit the evaluation's weights (tak/evaluation.py) to game results: a logistic ("texel") fit.

Reads quiet positions (no road in one for either side, past the opening) from real games, the PTN
files under /work/shared/real_games/taktician and the PlayTak games-history rows under
/work/shared/real_games, the games of benchmarks/ladder.py's records that keep their moves
(`--ladder FILE ...`; e.g. those against taktician), plus `--self-play N` games a size that
Bredon's level 3 plays against itself from random openings (reproducible: the same N give the same
games). For each board size it fits the weights so that sigmoid(evaluation / K) predicts the game's
result for the side to move (1 a win, 0 a loss, 1/2 a draw), K being the scale that fits the
current weights best: a ridge-regularised logistic regression (Newton's method) pulled towards the
current weights, the komi's weight held (a flat a flat), the race and reserves counted at the end
only. Every fifth game is held out: the log-loss and the share of results predicted right, on the
held-out games, before and after the fit, show whether the new weights generalise. Prints the
weights ready to paste into tak/evaluation.py.

With `--teacher COMMAND` (a TEI engine, e.g. taktician) it fits to that engine's judgement
instead: a ridge least-squares fit of the features to the engine's scores (`go movetime
--teacher-ms`) of the positions in `--teacher-scores`, rescaled so that a flat on top is 100, gives
one set of weights for the middle game and the end alike (the end keeps its race and stones in
hand, which a teacher without komi or a flat race cannot teach; features the positions never show,
such as a span that is already a road, keep theirs too). The scores file is the data set: it is
committed (benchmarks/teacher-scores.jsonl, taktician's scores behind the weights in
tak/evaluation.py), so the fit needs no engine and gives the same weights every time. `--ask` first
scores the positions of the games above (real, ladder, self-play) the file lacks, with `--jobs`
engines, and appends them: a new data set, to be measured before its weights replace the old.
Positions where the side to move has a road in one, and scores of a win found, are left out (not
evaluations); those where the opponent has a road in one are kept (how bad a threat is). A fifth of
the positions, drawn at random with a fixed seed, is held out: the share of the teacher's scores
the weights explain there (R²), before (the current weights, best scaled) and after, shows whether
the fit generalises; the weights printed are those of the other four fifths.

    python benchmarks/tune.py [--self-play 60] [--sizes 5 6] [--ridge 0.02]
    python benchmarks/tune.py --teacher /tmp/taktician/tei-bin [--teacher-ms 25] [--ridge 100]
                              [--ask [--jobs 2]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks.ladder import GameRecord
from tak import Position
from tak.engine import Engine
from tak.evaluation import (
    FEATURES,
    FLATS,
    UNFITTED,
    Board,
    Scan,
    weights_for,
)
from tak.playtak import server_move_ptn
from tak.ptn import Game
from tak.search import Limits, Player

REAL_GAMES = Path("/work/shared/real_games")
OPENING_PLIES = 4  # positions before this ply say more about the opening book than the eval
CACHE = Path("/tmp/bredon-tune-self-play.jsonl")
TEACHER_SCORES = Path(__file__).with_name("teacher-scores.jsonl")
LADDER = Path(__file__).with_name("ladder-games.jsonl")
# Games at 300 ms to 1 s a move between builds of Bredon's strongest level and taktician (and one
# build against another), in benchmarks/ladder.py's record format: positions for the teacher.
TEACHER_GAMES = Path(__file__).with_name("teacher-games.jsonl")
HELD_OUT = 5  # every HELD_OUT-th game (teacher: position) is kept out of the fit, to measure it
SPLIT_SEED = 3  # draws the teacher's held-out positions
# A teacher's score beyond this is a win or loss it found, not a judgement (taktician's are near
# 2^30 then, Bredon's near WIN); an evaluation stays well below (20 flats in taktician's units).
TEACHER_DECIDED = 20_000


@dataclass
class Record:
    """A finished game: its start, moves (PTN) and the score of White (1, 1/2 or 0)."""

    name: str
    start: Position
    moves: list[str]
    white_score: float


def ptn_games(root: Path) -> Iterator[Record]:
    for path in sorted(root.glob("taktician/**/*.ptn")):
        game = Game.parse(path.read_text())
        if game.result is None or game.tag("TPS") is not None:
            continue  # puzzles and unfinished openings
        winner = game.result.winner
        score = 0.5 if winner is None else 1.0 - int(winner)
        yield Record(str(path), game.start(), [ply.move.ptn() for ply in game.plies], score)


def playtak_games(root: Path) -> Iterator[Record]:
    for path in sorted(root.glob("*/*.json")):
        for row in json.loads(path.read_text())["items"]:
            white, _, black = row["result"].partition("-")
            if white == black:  # 1/2-1/2; 0-0 is an aborted game
                if white != "1/2":
                    continue
                score = 0.5
            else:
                score = 1.0 if white != "0" else 0.0
            start = Position(
                row["size"], komi=row["komi"] / 2, stones=row["pieces"], caps=row["capstones"]
            )
            moves = [server_move_ptn(text) for text in row["notation"].split(",") if text.strip()]
            yield Record(f"{path.name}#{row['id']}", start, moves, score)


def ladder_games(path: Path) -> Iterator[Record]:
    """The finished games of a benchmarks/ladder.py record that keep their opening and moves."""
    if not path.exists():
        return
    for number, line in enumerate(path.read_text().splitlines()):
        game = GameRecord.parse(line)
        if not game.played or game.result == "unfinished":
            continue
        white_score = game.score if game.key.strong_plays == "white" else 1.0 - game.score
        start = Position.from_tps(game.start, komi=game.key.komi)
        yield Record(f"{path.name}:{number + 1}", start, game.played, white_score)


def self_play(size: int, games: int, cache: Path) -> Iterator[Record]:
    """Level 3 against itself (two plies, no noise) from openings of 2 to 4 random plies. The
    games are kept in `cache` (a JSON line each), so that a later fit, after the evaluation has
    changed, reads the same games instead of playing them again."""
    known: dict[tuple[int, int], dict[str, object]] = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            known[row["size"], row["index"]] = row
    for index in range(games):
        row = known.get((size, index))
        if row is None:
            row = play_self(size, index)
            with cache.open("a") as out:
                out.write(json.dumps(row) + "\n")
        if row["white_score"] is not None:
            moves = [str(move) for move in row["moves"]]  # type: ignore[attr-defined]
            name = f"self-play {size}x{size} #{index}"
            yield Record(name, Position(size), moves, float(row["white_score"]))  # type: ignore[arg-type]


def play_self(size: int, index: int) -> dict[str, object]:
    rng = random.Random(f"tune-{size}-{index}")
    position = Position(size)
    for _ in range(rng.randint(2, 4)):
        position.push(rng.choice(position.legal_moves()))
    player = Player(3, seed=index)
    while position.result is None and position.ply < 200:
        position.push(player.choose(position).move)
    score = None
    if position.result is not None:
        winner = position.result.winner
        score = 0.5 if winner is None else 1.0 - int(winner)
    moves = [move.ptn() for move in position.moves]
    return {"size": size, "index": index, "moves": moves, "white_score": score}


def samples(record: Record) -> Iterator[tuple[list[float], float]]:
    """The features and the result for the side to move of each quiet position of a game."""
    position = record.start
    for move in record.moves:
        position.play(move)
        if position.result is not None or position.ply < OPENING_PLIES:
            continue
        if position.has_road_threat(0) or position.has_road_threat(1):
            continue
        score = record.white_score if int(position.to_move) == 0 else 1 - record.white_score
        yield Scan(position, Board(position)).features(position), score


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))


def dot(a: list[float], b: list[float] | tuple[float, ...]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def log_loss(data: list[tuple[list[float], float]], weights: list[float], scale: float) -> float:
    total = 0.0
    for features, result in data:
        p = min(max(sigmoid(dot(features, weights) / scale), 1e-9), 1 - 1e-9)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(data)


def right_share(data: list[tuple[list[float], float]], weights: list[float]) -> float:
    """The share of decided games whose winner the evaluation's sign picks."""
    decided = [(f, r) for f, r in data if r != 0.5]
    return sum((dot(f, weights) > 0) == (r == 1) for f, r in decided) / max(len(decided), 1)


def best_scale(data: list[tuple[list[float], float]], weights: list[float]) -> float:
    """K (centi-flats) minimising the log-loss of the current weights: golden-section search."""
    low, high = math.log(20.0), math.log(5000.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if log_loss(data, weights, math.exp(a)) < log_loss(data, weights, math.exp(b)):
            high = b
        else:
            low = a
    return math.exp((low + high) / 2)


def fit(
    data: list[tuple[list[float], float]], prior: list[float], scale: float, ridge: float
) -> list[float]:
    """Newton's method on the log-loss plus ridge * variance * (w - prior)^2 per feature, in
    logits; the weights in UNFITTED stay as they are. Returns the weights in centi-flats."""
    count = len(prior)
    fitted = [i for i in range(count) if i not in UNFITTED]
    n = len(data)
    mean = [sum(f[i] for f, _ in data) / n for i in range(count)]
    spread = [max(sum((f[i] - mean[i]) ** 2 for f, _ in data) / n, 1e-6) for i in range(count)]
    beta = [w / scale for w in prior]
    target = list(beta)
    for _ in range(30):
        gradient = [0.0] * len(fitted)
        hessian = [[0.0] * len(fitted) for _ in fitted]
        for features, result in data:
            p = sigmoid(dot(features, beta))
            xs = [features[i] for i in fitted]
            g, h = p - result, p * (1 - p)
            for a, xa in enumerate(xs):
                if xa:
                    gradient[a] += g * xa
                    row = hessian[a]
                    for b, xb in enumerate(xs):
                        row[b] += h * xa * xb
        for a, i in enumerate(fitted):
            gradient[a] = gradient[a] / n + 2 * ridge * spread[i] * (beta[i] - target[i])
            for b in range(len(fitted)):
                hessian[a][b] /= n
            hessian[a][a] += 2 * ridge * spread[i]
        step = solve(hessian, gradient)
        for a, i in enumerate(fitted):
            beta[i] -= step[a]
        if max(abs(s) for s in step) < 1e-7:
            break
    return [b * scale for b in beta]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [[*matrix[r], vector[r]] for r in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[r][size] / rows[r][r] if rows[r][r] else 0.0 for r in range(size)]


def teacher_positions(record: Record) -> Iterator[Position]:
    """The positions of a game a teacher scores: past the opening, not over, no road in one
    for the side to move; komi 0 (a TEI teacher may not take komi, and its score has none)."""
    position = record.start
    for move in record.moves:
        position.play(move)
        if position.result is not None or position.ply < OPENING_PLIES:
            continue
        if not position.has_road_threat(position.to_move):
            yield Position.from_tps(position.tps())


async def teacher_scores(
    command: str, movetime_ms: int, positions: list[Position], cache: Path, jobs: int
) -> dict[str, int]:
    """The teacher's score (in its own units, for the side to move) of each position by TPS,
    in the order the scores file first holds them: from the file, or asked of `jobs` engines at
    once and appended to it."""
    known = scored(command, movetime_ms, cache)
    waiting = list({p.tps(): p for p in positions if p.tps() not in known}.values())

    async def ask() -> None:
        async with await Engine.start(shlex.split(command)) as engine:
            while waiting:
                position = waiting.pop()
                lines = await engine.analyse(position, Limits(movetime_ms=movetime_ms))
                if lines and lines[0].score is not None:
                    known[position.tps()] = lines[0].score
                    row = {"teacher": command, "ms": movetime_ms, "tps": position.tps()}
                    with cache.open("a") as out:
                        out.write(json.dumps({**row, "score": lines[0].score}) + "\n")

    if waiting:
        print(f"  asking {command} about {len(waiting)} positions, {movetime_ms} ms each")
        await asyncio.gather(*(ask() for _ in range(jobs)))
    return known


def scored(command: str, movetime_ms: int, path: Path) -> dict[str, int]:
    """What the scores file holds from this teacher at this time a position, by TPS, in order."""
    known: dict[str, int] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["teacher"] == command and row["ms"] == movetime_ms:
                known[row["tps"]] = row["score"]
    return known


def least_squares(data: list[tuple[list[float], float]], ridge: float) -> list[float]:
    """Weights w minimising the squared error of w . features, plus ridge * |w|^2 (the weights
    in UNFITTED stay 0: the teacher counts no komi, race or stones in hand)."""
    fitted = [i for i in range(FEATURES) if i not in UNFITTED]
    matrix = [[0.0] * len(fitted) for _ in fitted]
    vector = [0.0] * len(fitted)
    for features, target in data:
        xs = [features[i] for i in fitted]
        for a, xa in enumerate(xs):
            if xa:
                vector[a] += xa * target
                row = matrix[a]
                for b, xb in enumerate(xs):
                    if xb:
                        row[b] += xa * xb
    for a in range(len(fitted)):
        matrix[a][a] += ridge
    weights = [0.0] * FEATURES
    for a, value in enumerate(solve(matrix, vector)):
        weights[fitted[a]] = value
    return weights


def explained(data: list[tuple[list[float], float]], weights: list[float]) -> float:
    """R²: the share of the targets' variance the weights explain."""
    mean = sum(t for _, t in data) / len(data)
    total = sum((t - mean) ** 2 for _, t in data)
    error = sum((dot(f, weights) - t) ** 2 for f, t in data)
    return 1 - error / total


def teacher_samples(scores: dict[str, int]) -> dict[int, list[tuple[list[float], float]]]:
    """The features and the teacher's score of each position it judged, by board size, in the
    scores' order: positions over, with a road in one for the side to move, or scored as a win
    found are left out."""
    by_size: dict[int, list[tuple[list[float], float]]] = {}
    for tps, score in scores.items():
        position = Position.from_tps(tps)
        if position.result is not None or abs(score) > TEACHER_DECIDED:
            continue
        if not position.has_road_threat(position.to_move):
            counts = Scan(position, Board(position)).counts(position)[0]
            by_size.setdefault(position.size, []).append(([float(v) for v in counts], score))
    return by_size


@dataclass
class TeacherFit:
    """One size's weights fitted to a teacher, and the share of its scores (R²) explained."""

    size: int
    weights: list[float]
    fitted: int  # positions fitted
    held_out: int  # positions held out to measure the fit
    before: float  # R² held out, the current weights best scaled
    after: float  # R² held out, the fitted weights
    on_fit: float  # R² on the positions fitted

    def report(self) -> str:
        return (
            f"{self.size}x{self.size}: {self.fitted} positions to fit, {self.held_out} held out;"
            f" R² held out: before {self.before:.3f}, after {self.after:.3f}"
            f" (fit {self.on_fit:.3f})"
        )


def teacher_fit(data: list[tuple[list[float], float]], size: int, ridge: float) -> TeacherFit:
    """The weights of one size fitted to the teacher's scores of its positions (teacher_samples):
    a fifth, drawn with a fixed seed, held out."""
    data = list(data)
    random.Random(SPLIT_SEED).shuffle(data)
    test, train = data[: len(data) // HELD_OUT], data[len(data) // HELD_OUT :]
    prior = [float(w) for w in weights_for(size)]
    middle = prior[:FEATURES]
    scale = sum(dot(f, middle) * t for f, t in train) / sum(dot(f, middle) ** 2 for f, _ in train)
    fitted = least_squares(train, ridge)
    per_flat = fitted[FLATS] / 100  # the teacher's units in a flat
    unseen = {i for i in range(FEATURES) if not any(f[i] for f, _ in train)}
    weights = [
        prior[part * FEATURES + i] if i in UNFITTED or i in unseen else fitted[i] / per_flat
        for part in (0, 1)
        for i in range(FEATURES)
    ]
    before = explained(test, [w * scale for w in middle])
    return TeacherFit(
        size,
        weights,
        len(train),
        len(test),
        before,
        explained(test, fitted),
        explained(train, fitted),
    )


def print_weights(size: int, weights: list[float]) -> None:
    """The weights as tak/evaluation.py writes them: the middle game's, then the end's."""
    print(f"  {size}: (")
    for part in (weights[:FEATURES], weights[FEATURES:]):
        print(f"      {', '.join(str(round(w)) for w in part)},")
    print("  ),")


def games_of(args: argparse.Namespace, size: int, real: list[Record]) -> list[Record]:
    """The real and ladder games of a size, then its self-play games."""
    games = [record for record in real if record.start.size == size]
    return games + list(self_play(size, args.self_play, args.cache))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--self-play", type=int, default=60, help="games a size (level 3)")
    parser.add_argument(
        "--ridge",
        type=float,
        default=None,
        help="results: pull to the current weights (a share of the variance); --teacher: added"
        " to each feature's sum of squares, pulling to 0 (default 100)",
    )
    parser.add_argument("--real-games", type=Path, default=REAL_GAMES)
    parser.add_argument("--cache", type=Path, default=CACHE, help="the self-play games, kept")
    parser.add_argument(
        "--ladder", type=Path, nargs="*", default=[LADDER, TEACHER_GAMES], help="ladder.py records"
    )
    parser.add_argument("--teacher", help="fit to this TEI engine's scores, not to results")
    parser.add_argument("--teacher-ms", type=int, default=25, help="the teacher's time a position")
    parser.add_argument("--teacher-scores", type=Path, default=TEACHER_SCORES)
    parser.add_argument("--ask", action="store_true", help="score the games' new positions first")
    parser.add_argument("--jobs", type=int, default=2, help="teacher engines at once (--ask)")
    args = parser.parse_args()
    if args.ridge is None:
        args.ridge = 100.0 if args.teacher else 0.02
    real = [*ptn_games(args.real_games), *playtak_games(args.real_games)]
    real += [game for path in args.ladder for game in ladder_games(path)]
    if args.teacher:
        if args.ask:
            positions = [
                position
                for size in args.sizes
                for record in games_of(args, size, real)
                for position in teacher_positions(record)
            ]
            asyncio.run(
                teacher_scores(
                    args.teacher, args.teacher_ms, positions, args.teacher_scores, args.jobs
                )
            )
        scores = scored(args.teacher, args.teacher_ms, args.teacher_scores)
        if not scores:
            parser.error(f"{args.teacher_scores} has no scores of {args.teacher!r}: add --ask")
        by_size = teacher_samples(scores)
        for size in args.sizes:
            if len(by_size.get(size, [])) < HELD_OUT:
                parser.error(f"{args.teacher_scores} has too few {size}x{size} positions: --ask")
            result = teacher_fit(by_size[size], size, args.ridge)
            print(result.report())
            print_weights(size, result.weights)
        return
    for size in args.sizes:
        games = games_of(args, size, real)
        real_count = sum(record.start.size == size for record in real)
        train: list[tuple[list[float], float]] = []
        test: list[tuple[list[float], float]] = []
        for index, record in enumerate(games):
            (test if index % HELD_OUT == 0 else train).extend(samples(record))
        prior = [float(w) for w in weights_for(size)]
        scale = best_scale(train, prior)
        weights = fit(train, prior, scale, args.ridge)
        print(
            f"{size}x{size}: {real_count} real and ladder games"
            f" + {len(games) - real_count} self-play, "
            f"{len(train)} positions to fit, {len(test)} held out; K = {scale:.0f}"
        )
        for name, w in (("before", prior), ("after", weights)):
            print(
                f"  {name:6} held-out log-loss {log_loss(test, w, scale):.4f}"
                f" (fit {log_loss(train, w, scale):.4f}),"
                f" winner right {right_share(test, w):.1%}"
            )
        print_weights(size, weights)


if __name__ == "__main__":
    main()
