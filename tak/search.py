"""Bredon's own Tak player: iterative deepening alpha-beta with a Tak-specific evaluation.

    >>> from tak import Position
    >>> from tak.search import Limits, Player
    >>> position = Position(5)
    >>> result = Player(level=2, seed=1).choose(position, Limits(nodes=500))
    >>> position.is_legal(result.move)
    True

The search is a negamax alpha-beta (principal variation search) with iterative deepening, a
transposition table keyed by a Zobrist-style hash kept alongside the position, null-move pruning
(a pass searched two plies shallower, while no road threat is pending and both players have stones
to spare), late-move reductions (one ply, two for the latest moves) and move ordering by the
table's move (tried before the other moves are generated), blocks of the opponent's roads in one,
killer moves, the last refutation of the previous move and a history table. Roads are
looked at before anything else: a side to move with a road in one has won (so every leaf sees a
pending road, which makes depth 1 enough to take a road and to block one).

Only the public API of :class:`tak.Position` is used (push/pop, and ply stepped on and back
for a pass; legal_moves, is_legal, square, stones_left, has_road_threat, road_threats, result, and
the read-only bitboards road_pieces, wall_pieces, capstones and tall_stacks with their
:class:`tak.Geometry` for road groups and spans), so the
player works with any implementation of it.

Determinism: the same seed, position and limits give the same move, as long as the search stops on
its node or depth limit rather than on the clock (the time limit is a guard): such a search starts
afresh (an empty table), so its answer does not depend on what was searched before. A search that
stops on the clock alone (the strongest level's, given a movetime) keeps its table from one move
to the next in the process (:func:`forget` drops it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from tak.errors import TakError
from tak.evaluation import WIN, WIN_ZONE, Board, Scan, road_in_one
from tak.moves import Move, Placement, by_fields
from tak.position import Position


class GameOverError(TakError):
    """The position has a result already: there is no move to choose."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When to stop searching: any limit reached stops it (None means no limit of that kind).

    Nodes and depth make a search reproducible; movetime is a wall-clock guard.
    """

    movetime_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("movetime_ms", "nodes", "depth"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value < 1):
                raise ValueError(f"The {name} limit must be a positive whole number, not {value}.")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Level:
    """How strong a player is: a depth and node cap, and noise (centi-flats) on root scores."""

    number: int
    name: str
    depth: int | None
    nodes: int | None
    noise: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


# Beginner to strongest, each meant to beat the one below it 70% (benchmarks/ladder.py). Level
# 1 looks one ply ahead with up to 10 flats of noise on each move's score: it plays almost at
# random, but takes a road in one and does not allow one when it can help it. Level 2 looks one
# ply ahead with up to a flat of noise (without it, level 3 beat it only 57.5% on 6x6: one
# more ply gains little there; with it 82.5%, and level 2 still beats level 1 97.5%); level 3
# looks 2 plies ahead; level 4 deepens until 10,000 positions (3 to 4 plies, about a second in pure
# Python): all reproducible. The last level uses all the time it is given. A level between 4 and
# the last, of 40,000 positions, scored only 60% against level 4 (more positions gain less and
# less: a level must search over ten times as many as the one below it to beat it 70%), so
# there is none.
LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", depth=1, nodes=None, noise=1_000),
    Level(2, "casual", depth=1, nodes=None, noise=100),
    Level(3, "club", depth=2, nodes=None, noise=0),
    Level(4, "strong", depth=None, nodes=10_000, noise=0),
    Level(5, "strongest", depth=None, nodes=None, noise=0),
)
MIN_LEVEL, MAX_LEVEL = LEVELS[0].number, LEVELS[-1].number
MAX_DEPTH = 64  # no search gets this far: `Limits(depth=MAX_DEPTH)` searches until stopped
# A level with neither node nor depth cap still stops: at this movetime unless told otherwise.
DEFAULT_MOVETIME_MS = 2_000


def level_for(number: int) -> Level:
    """The level with this number, or ValueError naming the range."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_LEVEL:
        raise ValueError(f"The level must be a whole number from {MIN_LEVEL} to {MAX_LEVEL}.")
    return LEVELS[number - 1]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The move chosen, its score for the side to move (centi-flats; beyond ±WIN_ZONE a forced
    result), the depth completed, nodes searched, the principal variation and the time taken."""

    move: Move
    score: int
    depth: int
    nodes: int
    pv: tuple[Move, ...]
    time_ms: int

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced win (positive) or loss (negative), if the score says so."""
        if self.score > WIN_ZONE:
            return WIN - self.score
        if self.score < -WIN_ZONE:
            return -(WIN + self.score)
        return None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


Info = Callable[[SearchResult], None]


class _Stop(Exception):
    """Raised inside the search when a limit is reached."""


# ----------------------------------------------------------------------------- search

# A table entry: depth searched, score (wins and losses counted from this node), bound (0 exact,
# 1 lower: it failed high, 2 upper: it failed low) and the best move found.
_Entry = tuple[int, int, int, Move | None]
_TABLE_LIMIT: Final = 400_000  # entries kept per table before it is emptied (some 100 MB)
_NULL_REDUCTION: Final = 2  # a pass is searched this many plies shallower than a move
# Moves after the first _LATE_MOVE are searched a ply shallower first (at depth 2, that is a
# look at the position after them alone), those after _LATER_MOVE at depth 4 or more two plies.
_LATE_MOVE: Final = 3
_LATER_MOVE: Final = 12


class _Memory:
    """What a search on the clock keeps for the next one in a game: the transposition table,
    the evaluations of leaves and the history of moves that refuted others (a search with a
    node or depth limit starts afresh, so that its move is reproducible)."""

    __slots__ = ("history", "leaves", "table")

    def __init__(self) -> None:
        self.table: dict[int, _Entry] = {}
        self.leaves: dict[int, int] = {}
        self.history: dict[int, int] = {}  # id of a (shared, never copied) move -> bonus

    def trim(self) -> None:
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()
        if len(self.leaves) > _TABLE_LIMIT:
            self.leaves.clear()
        # Old refutations count for less in a new position.
        self.history = {move: bonus // 4 for move, bonus in self.history.items() if bonus >= 4}


_MEMORIES: dict[tuple[object, ...], _Memory] = {}


def _memory_for(position: Position) -> _Memory:
    """The kept memory of games of this setup (one board hash means one position only there),
    that of any other setup dropped."""
    setup = (
        position.size,
        position.equivalent_komi,
        position.starting_stones,
        position.starting_caps,
        position.opening,
    )
    memory = _MEMORIES.get(setup)
    if memory is None:
        _MEMORIES.clear()  # one game's memory at a time: a process may play many, one by one
        memory = _MEMORIES[setup] = _Memory()
    memory.trim()
    return memory


def forget() -> None:
    """Drop what the strongest level kept from earlier searches (a new game, or a benchmark
    that wants every search to start alike)."""
    _MEMORIES.clear()


def _to_table(score: int, ply: int) -> int:
    """A win or loss counted from the node instead of the root, so that the entry holds
    wherever the node is met again."""
    if score > WIN_ZONE:
        return score + ply
    if score < -WIN_ZONE:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > WIN_ZONE:
        return score - ply
    if score < -WIN_ZONE:
        return score + ply
    return score


class _Search:
    """One search: the position searched (moved on and back), its mirror board, the limits and
    the tables. Moves are the position's own shared move objects, compared by identity and
    keyed by `id` (no dataclass hashing or comparing in the hot path)."""

    def __init__(
        self,
        position: Position,
        node_limit: int | None,
        deadline: float | None,
        stop: Callable[[], bool] | None,
        memory: _Memory,
    ) -> None:
        self.position = position
        self.board = Board(position)
        self.node_limit = node_limit
        self.deadline = deadline
        self.stop = stop
        self.nodes = 0
        self.table = memory.table
        self.leaves = memory.leaves
        self.history = memory.history
        self.killers: dict[int, list[Move]] = {}
        self.replies: dict[int, Move] = {}  # id of a move -> the last reply that refuted it
        self.touched: dict[int, tuple[int, ...]] = {}
        # Passing is allowed while both players have stones to spare (no zugzwang of the
        # flat race yet).
        self.spare = max(3, position.size - 1)
        # A side that must block a road in one is searched a ply deeper (only its blocks
        # survive, so it costs little), up to this ply: Tak threats follow each other to Tinuë.
        self.extend_until = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.nodes & 63 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Stop
            if self.stop is not None and self.stop():
                raise _Stop

    def squares_of(self, move: Move) -> tuple[int, ...]:
        squares = self.touched.get(id(move))
        if squares is None:
            squares = self.touched[id(move)] = _touched(move, self.board.size)
        return squares

    def push(self, move: Move) -> None:
        self.position.push(move)
        self.board.change(self.position, self.squares_of(move))

    def pop(self) -> None:
        self.position.pop()
        self.board.restore()

    def key(self) -> int:
        return self.board.key ^ (self.position.ply & 1)

    def static(self, key: int) -> int:
        """The evaluation of a position whose side to move has no road in one."""
        value = self.leaves.get(key)
        if value is None:
            value = self.leaves[key] = Scan(self.position, self.board).value(self.position)
        return value

    def leaf(self, ply: int) -> int:
        position = self.position
        result = position.result
        if result is not None:
            if result.winner is None:
                return 0
            return WIN - ply if result.winner == position.to_move else -(WIN - ply)
        key = self.key()
        value = self.leaves.get(key)
        if value is None:
            if road_in_one(position, self.board, position.ply & 1):
                value = WIN - 1
            else:
                value = Scan(position, self.board).value(position)
            self.leaves[key] = value
        return value - ply if value == WIN - 1 else value  # the road comes a ply after this one

    def ordered(self, ply: int, depth: int, first: Move | None, threats: list[Move]) -> list[Move]:
        """The legal moves but `first` (searched already), likeliest best first: blocks of the
        opponent's roads in one, killers, the last refutation of the move before, then (away
        from the leaves) by history; ties keep the position's order, placements first."""
        moves = self.position.legal_moves()
        front: list[Move] = []
        if threats:
            blocks = {(m.file, m.rank) for m in threats if isinstance(m, Placement)}
            front = [m for m in moves if isinstance(m, Placement) and (m.file, m.rank) in blocks]
        for killer in self.killers.get(ply, ()):
            if not _among(killer, front) and _among(killer, moves):
                front.append(killer)
        reply = self.replies.get(id(self.position.last_move))
        if reply is not None and not _among(reply, front) and _among(reply, moves):
            front.append(reply)
        if front or first is not None:
            if first is not None:
                front.append(first)
            moves = [m for m in moves if not _among(m, front)]
            if first is not None:
                front.pop()
        if depth >= 2 and self.history:
            # A stable sort by history, of the few moves that have one: the others keep their
            # order, after them.
            history = self.history
            scored = []
            rest = []
            for index, move in enumerate(moves):
                bonus = history.get(id(move), 0)
                if bonus:
                    scored.append((-bonus, index))
                else:
                    rest.append(move)
            if scored:
                scored.sort()
                moves = [moves[index] for _bonus, index in scored] + rest
        return front + moves if front else moves

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, may_pass: bool = True) -> int:
        self.tick()
        position = self.position
        if depth <= 0 or position.result is not None:
            return self.leaf(ply)
        me = position.ply & 1
        if road_in_one(position, self.board, me):
            return WIN - ply - 1
        key = self.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            first = entry[3]
            if entry[0] >= depth:
                score, bound = _from_table(entry[1], ply), entry[2]
                if bound == 0 or (bound == 1 and score >= beta) or (bound == 2 and score <= alpha):
                    return score
        opponent = 1 - me
        threats = (
            position.road_threats(opponent) if road_in_one(position, self.board, opponent) else []
        )
        if threats and ply < self.extend_until:
            depth += 1
        if (
            may_pass
            and depth > _NULL_REDUCTION
            and not threats
            and -WIN_ZONE < beta < WIN_ZONE
            and min(position.stones_left(0), position.stones_left(1)) > self.spare
            and self.static(key) >= beta
        ):
            # Pass: a position still at least beta when the opponent moves twice is good enough.
            position.ply += 1
            try:
                score = -self.negamax(depth - 1 - _NULL_REDUCTION, -beta, 1 - beta, ply + 1, False)
            finally:
                position.ply -= 1
            if score >= beta:
                return beta
        start_alpha = alpha
        best = -WIN - 1
        best_move = None
        moves: list[Move] = []
        if first is not None and position.is_legal(first):
            moves.append(first)  # tried before the others are generated: it often cuts
        else:
            first = None
        generated = False
        index = 0
        while True:
            if index == len(moves):
                if generated:
                    break
                moves += self.ordered(ply, depth, first, threats)
                generated = True
                continue
            move = moves[index]
            self.push(move)
            try:
                if index == 0:
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = alpha + 1
                    if index > _LATE_MOVE and depth >= 2 and not threats:
                        reduced = depth - 2 if index <= _LATER_MOVE or depth < 4 else depth - 3
                        score = -self.negamax(reduced, -alpha - 1, -alpha, ply + 1)
                    if score > alpha:
                        score = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                self.pop()
            index += 1
            if score > best:
                best, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                killers = self.killers.setdefault(ply, [])
                if all(killer is not move for killer in killers):
                    killers.insert(0, move)
                    del killers[2:]
                self.history[id(move)] = self.history.get(id(move), 0) + depth * depth
                self.replies[id(position.last_move)] = move
                break
        bound = 1 if best >= beta else 2 if best <= start_alpha else 0
        self.table[key] = (depth, _to_table(best, ply), bound, best_move)
        return best

    def pv(self, first: Move, length: int) -> tuple[Move, ...]:
        line = [first]
        self.push(first)
        try:
            while len(line) < length:
                entry = self.table.get(self.key())
                if entry is None or entry[3] is None or self.position.result is not None:
                    break
                if not self.position.is_legal(entry[3]):
                    break
                line.append(entry[3])
                self.push(entry[3])
        finally:
            for _ in line:
                self.pop()
        return tuple(line)


def _among(move: Move, moves: list[Move]) -> bool:
    """Whether `move` is one of `moves`: the same shared object (no dataclass comparison)."""
    return any(other is move for other in moves)


def _touched(move: Move, size: int) -> tuple[int, ...]:
    """The squares a move changes: where it is placed, or a spread's origin and drops."""
    origin = move.rank * size + move.file
    if isinstance(move, Placement):
        return (origin,)
    return (origin, *(rank * size + file for file, rank in move.path()))


class Player:
    """Bredon's player at a level (1 beginner to 5 strongest), reproducible under a seed.

    `choose` never returns an illegal move; it raises :class:`GameOverError` when the game is over.
    """

    def __init__(self, level: int = MAX_LEVEL, seed: int | None = None) -> None:
        self.level = level_for(level)
        self.seed = seed

    def __repr__(self) -> str:
        return f"Player(level={self.level.number}, seed={self.seed})"

    def choose(
        self,
        position: Position,
        limits: Limits | None = None,
        info: Info | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> SearchResult:
        """Search `position` (left as it was) within the limits and the level's caps.

        `info` is called after every completed depth with the best line so far; `stop` is asked
        now and then whether to stop early (the first depth always finishes).
        """
        if position.result is not None:
            raise GameOverError(
                f"The game is over ({position.result.ptn()}): there is no move to choose."
            )
        limits = limits or Limits()
        started = time.monotonic()
        caps = self.level
        depth_limit = _smallest(limits.depth, caps.depth) or MAX_DEPTH
        node_limit = _smallest(limits.nodes, caps.nodes)
        movetime = limits.movetime_ms
        if movetime is None and node_limit is None and limits.depth is None:
            movetime = DEFAULT_MOVETIME_MS
        deadline = started + movetime / 1000 if movetime is not None else None
        # Only a search that stops on the clock alone keeps what it learns for the next: one
        # with a node or depth limit must answer the same whatever was searched before.
        on_the_clock = depth_limit == MAX_DEPTH and node_limit is None
        memory = _memory_for(position) if on_the_clock else _Memory()
        search = _Search(position.copy(), node_limit, deadline, stop, memory)
        rng = random.Random(f"{self.seed}:{position.tps()}") if self.seed is not None else None
        rng = rng or random.Random()
        winning = search.position.road_threats()
        if winning:
            move = winning[0]
            return SearchResult(move, WIN - 1, 1, 1, (move,), _ms(started))
        opponent = search.position.to_move.other
        moves = search.ordered(0, MAX_DEPTH, None, search.position.road_threats(opponent))
        noise = {move: rng.randint(-caps.noise, caps.noise) for move in moves} if caps.noise else {}
        best: tuple[int, Move] | None = None
        completed = 0
        pv: tuple[Move, ...] = ()
        for depth in range(1, depth_limit + 1):
            scored, finished = self._root(search, moves, depth, noise, must_finish=depth == 1)
            if not finished:
                # The previous best was searched first, with a full window: a move that beat it
                # in the unfinished depth is better indeed.
                if scored and scored[0][1] != moves[0]:
                    best = scored[0]
                    pv = search.pv(best[1], depth)
                break
            moves = [move for _score, move in scored]
            best = scored[0]
            completed = depth
            pv = search.pv(best[1], depth)
            if info is not None:
                info(SearchResult(best[1], best[0], depth, search.nodes, pv, _ms(started)))
            if abs(best[0]) > WIN_ZONE:
                break
        assert best is not None  # depth 1 always finishes
        score, move = best
        return SearchResult(move, score, completed, search.nodes, pv, _ms(started))

    @staticmethod
    def _root(
        search: _Search, moves: list[Move], depth: int, noise: dict[Move, int], must_finish: bool
    ) -> tuple[list[tuple[int, Move]], bool]:
        """Scores for the root moves (noise added), best first, and whether every move was
        searched; the order of the previous depth breaks ties, so the result only depends on the
        position and the limits."""
        saved = search.node_limit, search.deadline, search.stop
        if must_finish:
            search.node_limit = search.deadline = search.stop = None
        scored = []
        alpha = -WIN - 1
        finished = False
        search.extend_until = 2 * depth
        try:
            for index, move in enumerate(moves):
                search.push(move)
                try:
                    if index == 0 or noise:
                        score = -search.negamax(depth - 1, -WIN - 1, WIN + 1, 1)
                    else:
                        score = -search.negamax(depth - 1, -alpha - 1, -alpha, 1)
                        if score > alpha:
                            score = -search.negamax(depth - 1, -WIN - 1, -alpha, 1)
                finally:
                    search.pop()
                if abs(score) < WIN_ZONE:
                    score += noise.get(move, 0)
                alpha = max(alpha, score)
                scored.append((score, index, move))
            finished = True
        except _Stop:
            pass
        finally:
            if must_finish:
                search.node_limit, search.deadline, search.stop = saved
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [(score, move) for score, _index, move in scored], finished


def _smallest(*values: int | None) -> int | None:
    present = [v for v in values if v is not None]
    return min(present) if present else None


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def random_move(position: Position, rng: random.Random) -> Move:
    """A legal move picked uniformly: the weakest opponent there is, for tests and the ladder."""
    moves = position.legal_moves()
    if not moves:
        raise GameOverError("The game is over: there is no move to choose.")
    return rng.choice(moves)


__all__ = [
    "LEVELS",
    "MAX_DEPTH",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "WIN",
    "WIN_ZONE",
    "GameOverError",
    "Level",
    "Limits",
    "Player",
    "SearchResult",
    "forget",
    "level_for",
    "random_move",
]
