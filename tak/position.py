"""The position: stacks, reserves and turn, with legal moves, make/unmake, results and Tak threats.

Squares are numbered `rank * size + file` internally (a1 is 0). Alongside the stacks the position
keeps bitboards (Python ints, one bit a square) of road pieces per colour, walls and capstones,
so that road checks, flat counts and occupancy are a few integer operations.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache
from math import comb
from typing import Final

from tak.errors import IllegalMoveError, PTNError, SetupError, quoted
from tak.moves import (
    Color,
    Direction,
    Move,
    Piece,
    Placement,
    Spread,
    by_fields,
    off_board,
    parse_move,
    spread_shape_problem,
    square_name,
)
from tak.results import Result, ResultKind
from tak.standard import MAX_KOMI, MAX_RESERVE, STANDARD_RESERVES
from tak.tps import Board, Stack, parse_tps, row_text

FLAT: Final = Piece.FLAT.value
WALL: Final = Piece.WALL.value
CAP: Final = Piece.CAP.value
_COLORS: Final = (Color.WHITE, Color.BLACK)  # by value: Color(c) without the enum lookup
_DIRECTIONS = (Direction.UP, Direction.DOWN, Direction.RIGHT, Direction.LEFT)
_DIGITS = ("1", "2")  # TPS writes White's pieces as 1 and Black's as 2
_LETTERS = tuple(piece.letter for piece in Piece)


class Opening(Enum):
    """`swap`: each player's first placement is a flat of the opponent's colour (the standard)."""

    SWAP = "swap"
    NO_SWAP = "no-swap"


# Members as module constants: the hot paths compare with `is` rather than look them up each time.
_SWAP: Final = Opening.SWAP
_FLAT_PIECE: Final = Piece.FLAT
_WALL_PIECE: Final = Piece.WALL
_CAP_PIECE: Final = Piece.CAP
# The road pieces a player can place, by (1 if stones) + (2 if capstones), as indices into
# `_Geometry.placements[square]`.
_ROAD_PIECES: Final = ((), (FLAT,), (CAP,), (FLAT, CAP))


@dataclass(frozen=True, slots=True)
class Reserves:
    """Pieces a player has not played yet."""

    stones: int
    caps: int

    @property
    def total(self) -> int:
        return self.stones + self.caps

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


# Stones or capstones: one number for both players, a pair, or None for the board's standard.
PerPlayer = int | tuple[int, int] | None
# The set-up functions take a size (int), komi (float), PerPlayer reserves and an Opening or its
# name, but check their arguments themselves and refuse anything else with a SetupError saying
# why; so they are annotated `object`, and a compiled build (which checks annotations on entry)
# gives the same SetupError rather than a bare TypeError.


def reserve_problem(
    size: object,
    stones: object = None,
    caps: object = None,
    opening: object = Opening.SWAP,
) -> str | None:
    """Why no game can start with these reserves (per player, or one number for both; None for
    the board's standard), or None. :class:`Position` raises :class:`tak.SetupError` with the
    same sentence; the bot asks first to refuse a challenge up front."""
    try:
        _checked_reserves(size, stones, caps, opening)
    except SetupError as error:
        return str(error)
    return None


def _checked_size(size: object) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size not in STANDARD_RESERVES:
        raise SetupError("The board size must be a whole number: sizes run from 3 to 8.")
    return size


def _checked_reserves(
    size: object, stones: object, caps: object, opening: object
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Stones and capstones per player, or :class:`SetupError` when no game could start."""
    default_stones, default_caps = STANDARD_RESERVES[_checked_size(size)]
    stone_pair = _per_player(stones, default_stones, "Stones")
    cap_pair = _per_player(caps, default_caps, "Capstones")
    if any(s + c == 0 for s, c in zip(stone_pair, cap_pair, strict=True)):
        raise SetupError("Each player needs at least one piece: a stone or a capstone.")
    if _opening(opening) is Opening.SWAP and 0 in stone_pair:
        raise SetupError(
            "Each player needs at least one stone for the opening: each player's first move "
            "places a flat of the opponent's."
        )
    return stone_pair, cap_pair


def _per_player(value: object, default: int, what: str) -> tuple[int, int]:
    if value is None:
        return (default, default)
    pair = tuple(value) if isinstance(value, tuple | list) else (value, value)
    numbers = [v for v in pair if not isinstance(v, bool) and isinstance(v, int)]
    if len(numbers) != 2 or len(pair) != 2 or any(not 0 <= v <= MAX_RESERVE for v in numbers):
        raise SetupError(f"{what} must be a whole number from 0 to {MAX_RESERVE} per player.")
    return (numbers[0], numbers[1])


def _opening(opening: object) -> Opening:
    try:
        return Opening(opening)
    except ValueError:
        raise SetupError(
            f"The opening must be 'swap' or 'no-swap', not {quoted(str(opening))}."
        ) from None


def _komi_halves(komi: object) -> int:
    """Komi in half-flats; refuses NaN, infinities, huge numbers and anything off the half-grid."""
    if (
        isinstance(komi, bool)
        or not isinstance(komi, int | float)
        or not -MAX_KOMI <= komi <= MAX_KOMI
        or komi * 2 != int(komi * 2)
    ):
        raise SetupError(
            f"Komi must be a multiple of 0.5 from -{MAX_KOMI} to {MAX_KOMI} (e.g. 2 or 2.5)."
        )
    return int(komi * 2)


def _ties_to_black(flag: object) -> bool:
    if not isinstance(flag, bool):
        raise SetupError("The tie rule is on (True: a tied flat count goes to Black) or off.")
    return flag


def equivalent_komi(komi: float, ties_to_black: bool) -> float:
    """The komi that decides every game as `komi` with the tie rule does, for an engine or a
    reader that knows no tie rule: a whole komi gains half a flat (a tie becomes Black's win),
    a half-flat komi stays (no count can tie)."""
    return komi + 0.5 if ties_to_black and komi == int(komi) else komi


class Geometry:
    """The masks of one board size, and flood fills over bitboards: what a search needs to
    read road groups off :meth:`Position.road_pieces` without looking at stacks.

    A bitboard is an int with bit ``rank * size + file`` set for each square in it.

    >>> geo = Position(5).geometry
    >>> [geo.span(group) for group in geo.groups(0b11 | 1 << 24)]  # a1-b1, and e5
    [2, 1]
    """

    def __init__(self, size: int) -> None:
        n = size
        self.size = n
        self.full = (1 << (n * n)) - 1
        self.row = (1 << n) - 1
        self.files = [sum(1 << (r * n + f) for r in range(n)) for f in range(n)]
        self.ranks = [self.row << (r * n) for r in range(n)]
        self.not_first_file = self.full & ~self.files[0]
        self.not_last_file = self.full & ~self.files[-1]

    def grow(self, bits: int) -> int:
        """The squares orthogonally next to `bits`, plus `bits` itself."""
        n = self.size
        return (
            bits
            | ((bits << 1) & self.not_first_file)
            | ((bits >> 1) & self.not_last_file)
            | ((bits << n) & self.full)
            | (bits >> n)
        )

    def group(self, bits: int, seed: int) -> int:
        """The squares of `bits` joined to a square of `seed` (which lies in `bits`)."""
        n = self.size
        not_first, not_last = self.not_first_file, self.not_last_file
        group = seed
        while True:
            grown = (
                group | (group << 1 & not_first) | (group >> 1 & not_last) | group << n | group >> n
            ) & bits
            if grown == group:
                return group
            group = grown

    def groups(self, bits: int) -> list[int]:
        """The orthogonally connected groups of `bits`, lowest square first."""
        found = []
        while bits:
            group = self.group(bits, bits & -bits)
            found.append(group)
            bits &= ~group
        return found

    def span(self, group: int) -> int:
        """How far a group reaches across the board: the most files or ranks it touches."""
        row, n = self.row, self.size
        files = ranks = 0
        while group:
            if group & row:
                files |= group & row
                ranks += 1
            group >>= n
        return max(files.bit_count(), ranks)


class _Geometry(Geometry):
    """Everything about a board size that never changes: edge masks, rays and their blockers,
    and the move objects themselves (moves are immutable, so every position of this size shares
    them instead of building new ones for each list of legal moves)."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        n = size
        self.first_file, self.last_file = self.files[0], self.files[-1]
        self.first_rank, self.last_rank = self.ranks[0], self.ranks[-1]
        self.edges = (self.first_file, self.last_file, self.first_rank, self.last_rank)
        steps = {Direction.UP: n, Direction.DOWN: -n, Direction.RIGHT: 1, Direction.LEFT: -1}
        self.steps = [steps[d] for d in _DIRECTIONS]
        # Per line (square * 4 + direction index): the ray's squares as a mask; `paths[line][k]`
        # the origin and the first k squares of the ray; `reaches[line]` maps the blockers on
        # the ray to (the line's key offset, the first blocker's bit or 0, the free squares).
        self.ray_masks: list[int] = []
        self.paths: list[list[int]] = []
        self.reaches: list[dict[int, tuple[int, int, int]]] = []
        for sq in range(n * n):
            f, r = sq % n, sq // n
            for d in _DIRECTIONS:
                df, dr = d.step
                ray: list[int] = []
                ff, rr = f + df, r + dr
                while 0 <= ff < n and 0 <= rr < n:
                    ray.append(rr * n + ff)
                    ff, rr = ff + df, rr + dr
                line = len(self.ray_masks)
                path = [1 << sq]
                for target in ray:
                    path.append(path[-1] | 1 << target)
                self.paths.append(path)
                self.ray_masks.append(path[-1] & ~(1 << sq))
                self.reaches.append(_reach_table(ray, line))
        # Placements by square and piece, and lists of them by (pieces, rank, empty squares).
        self.placements = [
            tuple(Placement(sq % n, sq // n, piece) for piece in Piece) for sq in range(n * n)
        ]
        self.placement_rows: dict[int, tuple[Placement, ...]] = {}
        self.spread_moves: dict[int, tuple[Spread, ...]] = {}
        # Spreads of a stack without a capstone on top, along its rank and along its file, by
        # the blockers on that line, the stack's place on it and its carry limit.
        self.row_counts = [0] * ((1 << n) * n * _CARRY_KEYS)
        self.column_counts: dict[int, list[int]] = {}
        # Per square: the shift that brings its rank down to the first, its file, and where its
        # counts start in a row's and in a column's list.
        self.line_places = [
            (sq - sq % n, sq % n, sq % n * _CARRY_KEYS, sq // n * _CARRY_KEYS)
            for sq in range(n * n)
        ]
        for blockers in range(1 << n):
            column = sum(1 << (index * n) for index in range(n) if blockers >> index & 1)
            counts = [
                _line_count(blockers, place, n, carry)
                for place in range(n)
                for carry in range(_CARRY_KEYS)
            ]
            self.column_counts[column] = counts
            start = blockers * n * _CARRY_KEYS
            self.row_counts[start : start + len(counts)] = counts

    def connects(self, bits: int, start: int, goal: int) -> bool:
        """Whether `bits` holds an orthogonal path from a square in `start` to one in `goal`."""
        seen = bits & start
        while seen:
            if seen & goal:
                return True
            grown = self.grow(seen) & bits
            if grown == seen:
                return False
            seen = grown
        return False

    def has_road(self, bits: int) -> bool:
        """Whether the road pieces `bits` join two opposite edges."""
        first, last = self.first_file, self.last_file
        if bits & first and bits & last and self.connects(bits, first, last):
            return True
        first, last = self.first_rank, self.last_rank
        return bool(bits & first and bits & last and self.connects(bits, first, last))

    def road_through(self, bits: int, seed: int) -> bool:
        """Whether the road pieces `bits` join two opposite edges through a square of `seed`.

        After a move, a new road must pass through a square the move gave the player, so only
        the groups around those squares are grown: usually a few pieces, not the board.
        """
        first_file, last_file = self.first_file, self.last_file
        first_rank, last_rank = self.first_rank, self.last_rank
        across = bits & first_file and bits & last_file
        if not (across or (bits & first_rank and bits & last_rank)):
            return False
        group = self.group(bits, seed)
        # Several seeds may grow separate groups: then one group must reach both edges.
        if group & first_file and group & last_file and self.connects(group, first_file, last_file):
            return True
        return bool(
            group & first_rank and group & last_rank and self.connects(group, first_rank, last_rank)
        )

    def placement_row(self, kinds: int, rank: int, empty: int) -> tuple[Placement, ...]:
        """The placements of `_PIECE_SETS[kinds]` on the `empty` squares of one rank."""
        key = (kinds * 8 + rank) << 8 | empty
        moves = self.placement_rows.get(key)
        if moves is None:
            pieces = _PIECE_SETS[kinds]
            n = self.size
            moves = tuple(
                self.placements[rank * n + file][piece]
                for file in range(n)
                if empty >> file & 1
                for piece in pieces
            )
            self.placement_rows[key] = moves
        return moves

    def spreads(self, key: int) -> tuple[Spread, ...]:
        """The spreads of a line key from :meth:`Position._line_keys`: plain drops first, then
        those that end by flattening a wall."""
        moves = self.spread_moves.get(key)
        if moves is None:
            line, rest = divmod(key, _LINE_KEYS)
            carry, rest = divmod(rest, 2 * _CARRY_KEYS)
            reach, flattens = divmod(rest, 2)
            n = self.size
            file, rank, direction = line // 4 % n, line // 4 // n, _DIRECTIONS[line % 4]
            sequences = drop_sequences(carry, reach)
            if flattens:
                sequences += flattening_sequences(carry, reach)
            moves = tuple(Spread(file, rank, direction, drops) for drops in sequences)
            self.spread_moves[key] = moves
        return moves

    def road_squares(self, bits: int) -> list[int]:
        """A shortest road through `bits` (which must hold one), edge to edge, for drawing."""
        n = self.size
        best: list[int] = []
        for start, goal in ((self.files[0], self.files[-1]), (self.ranks[0], self.ranks[-1])):
            parents: dict[int, int | None] = {sq: None for sq in _squares(bits & start)}
            frontier = list(parents)
            end = next((sq for sq in frontier if goal >> sq & 1), None)
            while frontier and end is None:
                following = []
                for sq in frontier:
                    for nb in _neighbours(sq, n):
                        if bits >> nb & 1 and nb not in parents:
                            parents[nb] = sq
                            following.append(nb)
                            if goal >> nb & 1:
                                end = nb
                frontier = following
            if end is not None:
                path = []
                node: int | None = end
                while node is not None:
                    path.append(node)
                    node = parents[node]
                if not best or len(path) < len(best):
                    best = path[::-1]
        return best


# A line key packs (line, carry, reach, flattens) into one int, so that a stack's moves are one
# dict lookup: ((line * _CARRY_KEYS + carry) * _CARRY_KEYS + reach) * 2 + flattens.
_CARRY_KEYS: Final = 9
_LINE_KEYS: Final = 2 * _CARRY_KEYS * _CARRY_KEYS
# Which pieces a player can place: by index, the opening's flat; stones; stones and a capstone;
# only a capstone.
_PIECE_SETS: Final = ((FLAT,), (FLAT, WALL), (FLAT, WALL, CAP), (CAP,))


def _line_count(blockers: int, place: int, n: int, carry: int) -> int:
    """The spreads, both ways along a line of `n` squares, of a stack (without a capstone on top)
    at `place` that carries at most `carry` pieces, walls and capstones being at `blockers`."""
    total = 0
    for step in (-1, 1):
        reach = 0
        target = place + step
        while 0 <= target < n and not blockers >> target & 1:
            reach += 1
            target += step
        total += _sequence_count(carry, reach)
    return total


def _reach_table(ray: list[int], line: int) -> dict[int, tuple[int, int, int]]:
    """For every set of blockers on `ray`: (the line's key offset for the free squares before the
    first blocker, that blocker's bit or 0, the number of free squares)."""
    table: dict[int, tuple[int, int, int]] = {}
    for subset in range(1 << len(ray)):
        blockers = sum(1 << target for index, target in enumerate(ray) if subset >> index & 1)
        reach = (subset & -subset).bit_length() - 1 if subset else len(ray)
        first = 1 << ray[reach] if subset else 0
        table[blockers] = (line * _LINE_KEYS + reach * 2, first, reach)
    return table


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _neighbours(sq: int, n: int) -> Iterator[int]:
    f, r = sq % n, sq // n
    if f > 0:
        yield sq - 1
    if f < n - 1:
        yield sq + 1
    if r > 0:
        yield sq - n
    if r < n - 1:
        yield sq + n


@cache
def _geometry(size: int) -> _Geometry:
    return _Geometry(size)


@cache
def drop_sequences(carry: int, reach: int) -> tuple[tuple[int, ...], ...]:
    """Every way to pick up 1..carry pieces and drop them on at most `reach` squares."""
    result: list[tuple[int, ...]] = []
    for count in range(1, carry + 1):
        result.extend(_compositions(count, min(reach, count)))
    return tuple(result)


@cache
def flattening_sequences(carry: int, reach: int) -> tuple[tuple[int, ...], ...]:
    """Drops that cross `reach` free squares and end with a lone capstone on the wall after them."""
    result: list[tuple[int, ...]] = []
    for count in range(reach + 1, carry + 1):
        result.extend((*parts, 1) for parts in _compositions_exact(count - 1, reach))
    return tuple(result)


def _compositions(total: int, max_parts: int) -> list[tuple[int, ...]]:
    return [c for parts in range(1, max_parts + 1) for c in _compositions_exact(total, parts)]


@cache
def _compositions_exact(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    if parts == 0:
        return ((),) if total == 0 else ()
    if parts == 1:
        return ((total,),) if total >= 1 else ()
    return tuple(
        (first, *rest)
        for first in range(1, total - parts + 2)
        for rest in _compositions_exact(total - first, parts - 1)
    )


@cache
def _sequence_count(carry: int, reach: int) -> int:
    return sum(
        comb(count - 1, parts - 1)
        for count in range(1, carry + 1)
        for parts in range(1, min(reach, count) + 1)
    )


@cache
def _flattening_count(carry: int, reach: int) -> int:
    if reach == 0:
        return 1 if carry >= 1 else 0
    return sum(comb(count - 2, reach - 1) for count in range(reach + 1, carry + 1))


# A spread's shape: how many squares it drops on (above _SHAPE_BITS), and which squares of its
# line, the origin first, show the mover's road piece after it (below).
_SHAPE_BITS: Final = 10
_SHAPE_MASK: Final = (1 << _SHAPE_BITS) - 1
_SHAPES: dict[int, tuple[int, ...]] = {}


def _spread_shapes(colors: int, seen: int, carry: int, rest: int, wall: int) -> tuple[int, ...]:
    """The distinct shapes of the spreads of a line key (`carry`, and `rest`: its reach and
    whether it flattens) from a stack whose top `seen` pieces are `colors` (bit i set: the i-th
    from the top is the mover's), topped by a wall if `wall`."""
    cache_key = ((((colors << 4 | seen) << 4 | carry) * 2 * _CARRY_KEYS + rest) << 1) | wall
    shapes = _SHAPES.get(cache_key)
    if shapes is None:
        reach, flattens = divmod(rest, 2)
        sequences = drop_sequences(carry, reach)
        if flattens:
            sequences += flattening_sequences(carry, reach)
        found: set[int] = set()
        for drops in sequences:
            count = sum(drops)
            # The origin keeps the piece under the carried ones, or nothing.
            pattern = 1 if seen > count and colors >> count & 1 else 0
            dropped = 0
            for index, drop in enumerate(drops):
                dropped += drop
                if colors >> (count - dropped) & 1:
                    pattern |= 1 << (index + 1)
            if wall:
                pattern &= ~(1 << len(drops))  # a wall is no road piece
            found.add(len(drops) << _SHAPE_BITS | pattern)
        shapes = _SHAPES[cache_key] = tuple(sorted(found))
    return shapes


# How many squares a line key's spreads can drop on at most.
_LONGEST_DROPS = [
    min(carry, reach + flattens)
    for carry in range(_CARRY_KEYS)
    for reach in range(_CARRY_KEYS)
    for flattens in (0, 1)
]
# Moves per line key (see `_Geometry.spreads`) by carry, reach and flattening, for counting.
_LINE_MOVE_COUNTS = [
    _sequence_count(carry, reach) + (_flattening_count(carry, reach) if flattens else 0)
    for carry in range(_CARRY_KEYS)
    for reach in range(_CARRY_KEYS)
    for flattens in (0, 1)
]


# An undo entry (see Position.__init__), and everything a position holds besides its set-up.
_Undo = tuple[Move, int, bool, Result | None, int, int, int, int, int]
_State = tuple[
    list[list[int]],
    list[int],
    list[int],
    int,
    int,
    int,
    list[int],
    list[int],
    int,
    Result | None,
    list[_Undo],
]


class Position:
    """A Tak position that moves are played on and taken back from.

    >>> p = Position(5)
    >>> for move in ["a1", "e5", "Cc3"]:  # the first two place the opponent's flats
    ...     _ = p.play(move)
    >>> p.tps()
    'x4,1/x5/x2,1C,x2/x5/2,x4 2 2'
    >>> p.pop()
    Placement(file=2, rank=2, piece=<Piece.CAP: 2>)
    """

    def __init__(
        self,
        size: object = 6,
        *,
        komi: object = 0,
        stones: object = None,
        caps: object = None,
        opening: object = Opening.SWAP,
        ties_to_black: object = False,
    ) -> None:
        """Arguments as for :func:`reserve_problem`, `komi` a multiple of 0.5, and
        `ties_to_black` the antiquity tie rule: a tied flat count goes to Black (the player who
        went second), whatever the komi."""
        self.starting_stones, self.starting_caps = _checked_reserves(size, stones, caps, opening)
        self.size = _checked_size(size)
        self._komi_halves = _komi_halves(komi)
        self.ties_to_black = _ties_to_black(ties_to_black)
        self.opening = _opening(opening)
        self._geo = _geometry(self.size)
        squares = self.size * self.size
        self._stacks: list[list[int]] = [[] for _ in range(squares)]
        self._tops = [FLAT] * squares
        self._road = [0, 0]
        self._walls = 0
        self._caps = 0
        self._tall = 0  # squares holding two pieces or more
        self._stones = list(self.starting_stones)
        self._capstones = list(self.starting_caps)
        self.ply = 0
        self._result: Result | None = None
        # One entry a ply: the move, its square, whether it flattened a wall, and the result and
        # bitboards (road pieces of each player, walls, capstones, tall stacks) before it.
        self._undo: list[_Undo] = []

    # ----------------------------------------------------------------- construction and TPS

    @classmethod
    def from_tps(
        cls,
        tps: str,
        *,
        komi: object = 0,
        stones: object = None,
        caps: object = None,
        opening: object = Opening.SWAP,
        ties_to_black: object = False,
    ) -> Position:
        """A position from TPS; the reserves are what the starting ones leave after the board.

        A TPS of a finished game gives a position whose :attr:`result` says how it ended.
        """
        board = parse_tps(tps)
        position = cls(
            board.size,
            komi=komi,
            stones=stones,
            caps=caps,
            opening=opening,
            ties_to_black=ties_to_black,
        )
        position._load(board)
        return position

    def _load(self, board: Board) -> None:
        n = self.size
        for rank, row in enumerate(board.squares):
            for file, stack in enumerate(row):
                sq = rank * n + file
                self._stacks[sq] = [int(c) for c in stack.colors]
                self._tops[sq] = int(stack.top)
                self._refresh(sq)
                if len(stack.colors) > 1:
                    self._tall |= 1 << sq
        for color in Color:
            on_board = [
                (s.top is Piece.CAP and s.colors[-1] == color, sum(c == color for c in s.colors))
                for row in board.squares
                for s in row
                if s.colors
            ]
            caps_used = sum(is_cap for is_cap, _ in on_board)
            stones_used = sum(count for _, count in on_board) - caps_used
            self._stones[color] -= stones_used
            self._capstones[color] -= caps_used
            if self._stones[color] < 0 or self._capstones[color] < 0:
                raise IllegalMoveError(
                    f"The board holds {stones_used} stones and {caps_used} capstones of "
                    f"{color}'s, more than the {self.starting_stones[color]} and "
                    f"{self.starting_caps[color]} {color} has on {n}x{n}."
                )
        self.ply = board.ply
        self._result = self._board_result(Color(1 - board.to_move))

    def tps(self) -> str:
        """The position in TPS, written straight from the stacks (the services call it per move)."""
        n = self.size
        stacks, tops = self._stacks, self._tops
        rows = [
            row_text(
                "".join(_DIGITS[c] for c in stacks[sq]) + _LETTERS[tops[sq]] if stacks[sq] else ""
                for sq in range(rank * n, rank * n + n)
            )
            for rank in range(n - 1, -1, -1)
        ]
        return f"{'/'.join(rows)} {(self.ply & 1) + 1} {self.ply // 2 + 1}"

    def board(self) -> Board:
        """The stacks, whose turn it is and the move number, as TPS describes them."""
        n = self.size
        rows = tuple(tuple(self.stack(file, rank) for file in range(n)) for rank in range(n))
        return Board(rows, self.to_move, self.ply // 2 + 1)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy by state: a compiled build (see README) has no `__dict__` to copy."""
        setup = (
            self.size,
            self.komi,
            self.starting_stones,
            self.starting_caps,
            self.opening,
            self.ties_to_black,
        )
        return (_restored_position, (setup, self._state()))

    def _state(self) -> _State:
        return (
            self._stacks,
            self._tops,
            self._road,
            self._walls,
            self._caps,
            self._tall,
            self._stones,
            self._capstones,
            self.ply,
            self._result,
            self._undo,
        )

    def copy(self) -> Position:
        """An independent position with the same stacks, reserves, ply and history."""
        clone = Position(
            self.size,
            komi=self.komi,
            stones=self.starting_stones,
            caps=self.starting_caps,
            opening=self.opening,
            ties_to_black=self.ties_to_black,
        )
        clone._stacks = [list(s) for s in self._stacks]
        clone._tops = list(self._tops)
        clone._road = list(self._road)
        clone._walls, clone._caps, clone._tall = self._walls, self._caps, self._tall
        clone._stones, clone._capstones = list(self._stones), list(self._capstones)
        clone.ply, clone._result, clone._undo = self.ply, self._result, list(self._undo)
        return clone

    # ----------------------------------------------------------------- reading the position

    @property
    def komi(self) -> float:
        """Flats added to Black's count; a multiple of one half."""
        return self._komi_halves / 2

    @property
    def equivalent_komi(self) -> float:
        """The komi without a tie rule that decides every game alike (:func:`equivalent_komi`)."""
        return equivalent_komi(self.komi, self.ties_to_black)

    @property
    def to_move(self) -> Color:
        return _COLORS[self.ply & 1]  # Color(...) costs an enum lookup, on every node of a search

    @property
    def result(self) -> Result | None:
        """How the game ended on the board (road or flats), or None while it goes on."""
        return self._result

    @property
    def is_opening(self) -> bool:
        """Whether the next ply places a flat of the opponent's colour (the swap opening)."""
        return self.ply < 2 and self.opening is Opening.SWAP

    @property
    def last_move(self) -> Move | None:
        return self._undo[-1][0] if self._undo else None

    @property
    def moves(self) -> list[Move]:
        """The moves played on this object since it was set up."""
        return [entry[0] for entry in self._undo]

    def stack(self, file: int, rank: int) -> Stack:
        sq = rank * self.size + file
        colors = self._stacks[sq]
        return Stack(tuple(_COLORS[c] for c in colors), Piece(self._tops[sq]))

    def square(self, sq: int) -> tuple[tuple[int, ...], int]:
        """Square `sq` (rank * size + file) as plain ints: its colours bottom to top (0 white,
        1 black) and its top piece's value; :meth:`stack` without the enums, for a search."""
        return tuple(self._stacks[sq]), self._tops[sq]

    # The methods that take a player are annotated `int`: they take a Color, or its 0 or 1, in
    # both builds (a compiled build would refuse a plain int given for a Color).

    def reserves(self, color: int) -> Reserves:
        return Reserves(self._stones[color], self._capstones[color])

    def stones_left(self, color: int) -> int:
        """`reserves(color).stones`, without building :class:`Reserves`: a search asks often."""
        return self._stones[color]

    def pieces_left(self, color: int) -> int:
        """`reserves(color).total`, without building :class:`Reserves`: an evaluation asks."""
        return self._stones[color] + self._capstones[color]

    def flat_count(self, color: int) -> int:
        """Flats on top of stacks: what a flat win counts (walls and capstones don't)."""
        return (self._road[color] & ~self._caps).bit_count()

    # Read-only bitboards (see :class:`Geometry`), for a search that looks at the board often.

    @property
    def geometry(self) -> Geometry:
        """The masks and flood fills of this board size."""
        return self._geo

    def road_pieces(self, color: int) -> int:
        """The squares whose top is `color`'s flat or capstone: what its roads are made of."""
        return self._road[color]

    def wall_pieces(self, color: int) -> int:
        """The squares whose top is `color`'s wall."""
        stacks, walls, found = self._stacks, self._walls, 0
        while walls:
            low = walls & -walls
            walls ^= low
            if stacks[low.bit_length() - 1][-1] == color:
                found |= low
        return found

    @property
    def capstones(self) -> int:
        """The squares with a capstone on top, of either colour."""
        return self._caps

    @property
    def tall_stacks(self) -> int:
        """The squares holding two pieces or more."""
        return self._tall

    def is_full(self) -> bool:
        return (self._road[0] | self._road[1] | self._walls) == self._geo.full

    # ----------------------------------------------------------------- making and unmaking

    def _refresh(self, sq: int) -> None:
        """Bring the bitboards up to date with the stack on `sq`."""
        bit = 1 << sq
        keep = ~bit
        road = self._road
        road[0] &= keep
        road[1] &= keep
        self._walls &= keep
        self._caps &= keep
        stack = self._stacks[sq]
        if stack:
            kind = self._tops[sq]
            if kind == WALL:
                self._walls |= bit
            else:
                road[stack[-1]] |= bit
                if kind == CAP:
                    self._caps |= bit

    def push(self, move: Move) -> None:
        """Play a move without checking it: for moves from :meth:`legal_moves` or :meth:`check`."""
        mover = self.ply & 1
        sq = move.rank * self.size + move.file
        stacks, tops, road = self._stacks, self._tops, self._road
        before = self._result
        old_white, old_black = road
        walls, caps, tall = self._walls, self._caps, self._tall
        flattened = False
        if isinstance(move, Placement):
            color = mover ^ 1 if self.ply < 2 and self.opening is _SWAP else mover
            stacks[sq].append(color)
            bit = 1 << sq
            piece = move.piece
            if piece is _FLAT_PIECE:
                road[color] |= bit
                self._stones[color] -= 1
            elif piece is _WALL_PIECE:
                tops[sq] = WALL
                self._walls = walls | bit
                self._stones[color] -= 1
            else:
                tops[sq] = CAP
                road[color] |= bit
                self._caps = caps | bit
                self._capstones[color] -= 1
        else:
            origin = stacks[sq]
            drops = move.drops
            count = sum(drops)
            carried = origin[-count:]
            del origin[-count:]
            kind = tops[sq]
            tops[sq] = FLAT
            line = sq * 4 + _DIRECTIONS.index(move.direction)
            step = self._geo.steps[line & 3]
            # Clear the squares the move touches, then set them again from their new tops. The
            # pieces left on the origin and all but the last dropped are flats: only a stack's
            # top can be a wall or a capstone.
            keep = ~self._geo.paths[line][len(drops)]
            road[0] = old_white & keep
            road[1] = old_black & keep
            heights = tall & keep
            if origin:
                road[origin[-1]] |= 1 << sq
                if len(origin) > 1:
                    heights |= 1 << sq
            taken = 0
            target = sq
            for drop in drops:
                target += step
                stack = stacks[target]
                stack += carried[taken : taken + drop]
                taken += drop
                bit = 1 << target
                road[stack[-1]] |= bit
                if len(stack) > 1:
                    heights |= bit
            self._tall = heights
            flattened = tops[target] == WALL
            tops[target] = kind
            if kind == WALL:
                road[carried[-1]] ^= bit
                self._walls = walls & keep | bit
            else:
                self._walls = walls & keep
                self._caps = caps & keep | bit if kind == CAP else caps & keep
        self._undo.append((move, sq, flattened, before, old_white, old_black, walls, caps, tall))
        self.ply += 1
        if before is not None:
            self._result = self._board_result(Color(mover))
            return
        # The game was going on, so neither player had a road: a new one passes through a
        # square the move gave its owner. The mover's road counts first (it wins a double road).
        geo = self._geo
        white, black = road[0], road[1]
        if mover:
            gain, other_gain = black & ~old_black, white & ~old_white
        else:
            gain, other_gain = white & ~old_white, black & ~old_black
        if gain and geo.road_through(road[mover], gain):
            self._result = self._road_result(Color(mover))
        elif other_gain and geo.road_through(road[mover ^ 1], other_gain):
            self._result = self._road_result(Color(mover ^ 1))
        elif (
            self._stones[0] + self._capstones[0]
            and self._stones[1] + self._capstones[1]
            and (white | black | self._walls) != geo.full
        ):
            self._result = None
        else:
            self._result = self._flats_result()

    def pop(self) -> Move:
        """Take back the last move, restoring the position exactly."""
        move, sq, flattened, before, white, black, walls, caps, tall = self._undo.pop()
        self.ply -= 1
        self._result = before
        road = self._road
        road[0], road[1], self._walls, self._caps, self._tall = white, black, walls, caps, tall
        stacks, tops = self._stacks, self._tops
        if isinstance(move, Placement):
            color = stacks[sq].pop()
            tops[sq] = FLAT
            if move.piece is _CAP_PIECE:
                self._capstones[color] += 1
            else:
                self._stones[color] += 1
            return move
        step = self._geo.steps[_DIRECTIONS.index(move.direction)]
        origin = stacks[sq]
        # Each square's top pieces are the ones dropped there: take them back in order.
        target = sq
        for drop in move.drops:
            target += step
            stack = stacks[target]
            origin += stack[-drop:]
            del stack[-drop:]
        tops[sq] = tops[target]
        tops[target] = WALL if flattened else FLAT
        return move

    def play(self, move: Move | str) -> Move:
        """Check a move (PTN text or a move object) and play it; return the move played.

        Raises :class:`tak.PTNError` or :class:`tak.IllegalMoveError` with the reason, and then
        leaves the position as it was.
        """
        parsed = parse_move(move) if isinstance(move, str) else move
        self.check(parsed)
        self.push(parsed)
        return parsed

    # ----------------------------------------------------------------- results

    def _board_result(self, mover: Color) -> Result | None:
        """The result the board shows, from scratch (a position set up from TPS, for one)."""
        geo = self._geo
        road = self._road
        for color in (mover, mover.other):
            if geo.has_road(road[color]):
                return self._road_result(color)
        return self._flats_result()

    def _road_result(self, color: Color) -> Result:
        n = self.size
        path = self._geo.road_squares(self._road[color])
        return Result(color, ResultKind.ROAD, tuple((sq % n, sq // n) for sq in path))

    def _flats_result(self) -> Result | None:
        """The flat count's result once the board is full or a player is out of pieces."""
        stones, caps = self._stones, self._capstones
        if stones[0] + caps[0] and stones[1] + caps[1] and not self.is_full():
            return None
        return Result(self.flat_winner(), ResultKind.FLATS)

    def flat_winner(self) -> Color | None:
        """Who wins the flat count as it stands, komi and the tie rule included; None for a tie
        that is a draw. The board need not be over (a game ended by its length asks too)."""
        white = 2 * self.flat_count(Color.WHITE)
        black = 2 * self.flat_count(Color.BLACK) + self._komi_halves
        if white == black:
            return Color.BLACK if self.ties_to_black else None
        return Color.WHITE if white > black else Color.BLACK

    def points(self, result: Result | None = None) -> int:
        """The University Edition's multi-game score for a result (the board's by default).

        A win scores the number of squares plus the winner's unplayed stones and capstones;
        draws and aborts score nothing.
        """
        result = result or self._result
        if result is None or result.winner is None:
            return 0
        return self.size * self.size + self.reserves(result.winner).total

    # ----------------------------------------------------------------- legality

    def check(self, move: Move) -> None:
        """Raise :class:`tak.IllegalMoveError` with the reason if `move` is illegal here."""
        if self._result is not None:
            raise IllegalMoveError(f"The game is over ({self._result.ptn()}).")
        n = self.size
        if not (0 <= move.file < n and 0 <= move.rank < n):
            raise IllegalMoveError(off_board(move.square, n))
        if isinstance(move, Placement):
            self._check_placement(move)
        else:
            self._check_spread(move)

    # The checks read the raw stacks rather than :meth:`stack`, which builds enums per piece:
    # they run for every ply of every PTN file read.

    def _check_placement(self, move: Placement) -> None:
        if self._stacks[move.rank * self.size + move.file]:
            raise IllegalMoveError(
                f"{move.square} is occupied, and pieces can only be placed on empty squares."
            )
        mover = self.ply & 1
        if self.is_opening:
            if move.piece is not Piece.FLAT:
                name = "walls" if move.piece is Piece.WALL else "capstones"
                raise IllegalMoveError(
                    f"No {name} in the first two plies, where each player places a flat of the "
                    "opponent's colour."
                )
            if self._stones[1 - mover] == 0:
                raise IllegalMoveError(
                    "Your opponent has no stones left for the opening placement of their flat."
                )
            return
        if move.piece is Piece.CAP:
            if self.starting_caps[mover] == 0:
                raise IllegalMoveError(
                    f"{Color(mover).name.capitalize()} has no capstones in this game."
                )
            if self._capstones[mover] == 0:
                raise IllegalMoveError("You have no capstone left to place.")
        elif self._stones[mover] == 0:
            raise IllegalMoveError("You have no stones left, only your capstone to place.")

    def _check_spread(self, move: Spread) -> None:
        problem = spread_shape_problem(move)
        if problem:
            raise IllegalMoveError(problem)
        if self.is_opening:
            raise IllegalMoveError(
                "No stack can move in the first two plies, where each player places a flat of "
                "the opponent's colour."
            )
        n = self.size
        origin = move.rank * n + move.file
        stack = self._stacks[origin]
        if not stack:
            raise IllegalMoveError(f"{move.square} is empty, so there is no stack to move.")
        if stack[-1] != self.ply & 1:
            raise IllegalMoveError(
                f"{move.square} is topped by {Color(stack[-1])}'s piece, and you can only move "
                "stacks with your own piece on top."
            )
        count = move.count
        if count > n:
            raise IllegalMoveError(f"You can carry at most {n} pieces on {n}x{n}, not {count}.")
        height = len(stack)
        if count > height:
            raise IllegalMoveError(
                f"{move.square} holds only {height} piece{'s' if height > 1 else ''}, "
                f"so you can't pick up {count}."
            )
        path = move.path()
        tops = self._tops
        for index, (file, rank) in enumerate(path):
            if not (0 <= file < n and 0 <= rank < n):
                raise IllegalMoveError(
                    f"{move.ptn()} walks off the board, dropping on {len(path)} squares where "
                    f"only {index} lie that way from {move.square}."
                )
            target = rank * n + file
            if not self._stacks[target] or tops[target] == FLAT:
                continue
            name = square_name(file, rank)
            if tops[target] == CAP:
                raise IllegalMoveError(f"{name} holds a capstone, and nothing can move onto it.")
            if tops[origin] != CAP:
                raise IllegalMoveError(
                    f"{name} holds a wall, and only a capstone moving alone can flatten it."
                )
            if index != len(path) - 1:
                raise IllegalMoveError(
                    f"{name} holds a wall, and a capstone flattens a wall only with its last "
                    "drop, which ends the move."
                )
            if move.drops[-1] != 1:
                raise IllegalMoveError(
                    f"{name} holds a wall, and only a capstone moving alone can flatten it, so "
                    "the last drop must be the capstone by itself (1)."
                )

    def is_legal(self, move: Move | str) -> bool:
        try:
            parsed = parse_move(move) if isinstance(move, str) else move
            self.check(parsed)
        except (IllegalMoveError, PTNError):
            return False
        return True

    # ----------------------------------------------------------------- move generation

    def legal_moves(self) -> list[Move]:
        """Every legal move, placements first."""
        if self._result is not None:
            return []
        geo = self._geo
        mover = self.ply & 1
        if self.ply < 2 and self.opening is _SWAP:
            kinds = 0
        elif self._stones[mover]:
            kinds = 2 if self._capstones[mover] else 1
        else:
            kinds = 3 if self._capstones[mover] else -1
        moves: list[Move] = []
        if kinds >= 0:
            n, row = self.size, geo.row
            empty = geo.full & ~(self._road[0] | self._road[1] | self._walls)
            for rank in range(n):
                squares = empty >> rank * n & row
                if squares:
                    moves += geo.placement_row(kinds, rank, squares)
        if kinds == 0:
            return moves
        spread_moves = geo.spread_moves
        for key in self._line_keys(mover):
            spreads = spread_moves.get(key)
            moves += geo.spreads(key) if spreads is None else spreads
        return moves

    def count_legal_moves(self) -> int:
        """len(legal_moves()), computed without building the moves (for perft's last ply)."""
        if self._result is not None:
            return 0
        n = self.size
        road, walls, caps = self._road, self._walls, self._caps
        geo = self._geo
        free = geo.full & ~(walls | caps)
        empties = (free & ~(road[0] | road[1])).bit_count()
        if self.ply < 2 and self.opening is _SWAP:
            return empties
        mover = self.ply & 1
        total = empties * ((2 if self._stones[mover] else 0) + (1 if self._capstones[mover] else 0))
        # A lone flat moves one way onto each neighbour that is empty or flat: all at once.
        lone = road[mover] & ~caps & ~self._tall
        total += (
            (lone << n & free).bit_count()
            + (lone >> n & free).bit_count()
            + (lone << 1 & geo.not_first_file & free).bit_count()
            + (lone >> 1 & geo.not_last_file & free).bit_count()
        )
        # The other stacks one by one, through tables of each row's and column's blockers.
        tops = self._tops
        blockers = walls | caps
        row, column = geo.row, geo.first_file
        row_counts, column_counts = geo.row_counts, geo.column_counts
        places, row_stride = geo.line_places, n * _CARRY_KEYS
        for sq, carry in self._own_stacks(mover, road[mover] & ~lone | walls):
            if tops[sq] == CAP:
                total += self._capstone_count(sq, carry)
                continue
            shift, file, along_row, along_column = places[sq]
            total += (
                row_counts[(blockers >> shift & row) * row_stride + along_row + carry]
                + column_counts[blockers >> file & column][along_column + carry]
            )
        return total

    def _own_stacks(self, mover: int, squares: int) -> list[tuple[int, int]]:
        """The square and carry limit of each stack on `squares` with `mover`'s piece on top."""
        n = self.size
        stacks = self._stacks
        found = []
        while squares:
            low = squares & -squares
            squares ^= low
            sq = low.bit_length() - 1
            stack = stacks[sq]
            if stack[-1] == mover:
                height = len(stack)
                found.append((sq, height if height < n else n))
        return found

    def _capstone_count(self, sq: int, carry: int) -> int:
        """The spreads of a capstone-topped stack on `sq`, which may end by flattening a wall."""
        walls = self._walls
        blockers = walls | self._caps
        geo = self._geo
        total = 0
        for line in range(sq * 4, sq * 4 + 4):
            _offset, first, reach = geo.reaches[line][blockers & geo.ray_masks[line]]
            total += _LINE_MOVE_COUNTS[carry * 2 * _CARRY_KEYS + reach * 2 + bool(walls & first)]
        return total

    def _line_keys(
        self, mover: int, squares: int = -1, zones: tuple[int, int, int, int] | None = None
    ) -> list[int]:
        """A key for every stack `mover` controls (on `squares`, if given) and every direction it
        can move in (see :meth:`_Geometry.spreads`): the stack's square and carry limit, the
        direction, how many free squares lie that way before a wall, capstone or the edge
        (`reach`), and whether a capstone on top could flatten the wall right after them.

        Given the :meth:`_road_zones`, only the lines along which the stack could reach both
        zones of a pair are kept (a first cut, before the blockers are looked at)."""
        tops = self._tops
        walls = self._walls
        blockers = walls | self._caps
        geo = self._geo
        ray_masks, reaches, paths = geo.ray_masks, geo.reaches, geo.paths
        left, right, bottom, top = zones or (0, 0, 0, 0)
        keys: list[int] = []
        for sq, carry in self._own_stacks(mover, (self._road[mover] | walls) & squares):
            base = carry * 2 * _CARRY_KEYS
            is_cap = tops[sq] == CAP
            for line in range(sq * 4, sq * 4 + 4):
                if zones is not None:
                    path = paths[line]
                    best = path[min(carry, len(path) - 1)]
                    if not ((best & left and best & right) or (best & bottom and best & top)):
                        continue
                offset, first, reach = reaches[line][blockers & ray_masks[line]]
                if is_cap and walls & first:
                    keys.append(base + offset + 1)
                elif reach:
                    keys.append(base + offset)
        return keys

    # ----------------------------------------------------------------- Tak threats

    def road_threats(self, color: int | None = None) -> list[Move]:
        """The moves by which `color` (the side to move by default) would complete a road at once.

        Asked for the player who just moved, this is the "Tak" call: what they threaten to play
        next. Only moves that win by road count (a double road wins for the mover).
        """
        return list(self._threats(color))

    def has_road_threat(self, color: int | None = None) -> bool:
        """Whether :meth:`road_threats` is non-empty; the spreads of a stack one way that would
        leave the player the same squares are tried as one (a search asks at every node)."""
        if self._result is not None or self.ply < 2:
            return False
        me = self.ply & 1 if color is None else int(color)
        zones = self._road_zones(me)
        left, right, bottom, top = zones
        if self._stones[me] or self._capstones[me]:
            free = self._geo.full & ~(self._road[0] | self._road[1] | self._walls)
            if free & (left & right | bottom & top):
                return True
        geo = self._geo
        mine = self._road[me]
        walls, caps, tall = self._walls, self._caps, self._tall
        # A lone flat moves onto one neighbour, empty or flat, and leaves its square empty: the
        # road must pass through that neighbour, so it lies where a placement would win.
        lone = mine & ~caps & ~tall
        targets = (left & right | bottom & top) & geo.grow(lone) & ~(mine | walls | caps)
        while targets:
            low = targets & -targets
            targets ^= low
            origins = geo.grow(low) & lone
            while origins:
                origin = origins & -origins
                origins ^= origin
                if geo.road_through(mine & ~origin | low, low):
                    return True
        # A lone wall leaves a wall: no road. Tall stacks and capstones, line by line.
        stacks, steps = self._stacks, geo.steps
        others = tall | caps
        for key, line in self._spread_lines(me, zones, others):
            sq = line >> 2
            step = steps[line & 3]
            stack = stacks[sq]
            carry, rest = divmod(key % _LINE_KEYS, 2 * _CARRY_KEYS)
            # The pieces that may be carried and the one under them, top first: 1 if mine.
            height = len(stack)
            seen = min(height, carry + 1)
            colors = 0
            for index in range(seen):
                if stack[height - 1 - index] == me:
                    colors |= 1 << index
            shapes = _spread_shapes(colors, seen, carry, rest, walls >> sq & 1)
            for shape in shapes:
                drops, pattern = shape >> _SHAPE_BITS, shape & _SHAPE_MASK
                owned = 0
                target = sq
                while pattern:
                    if pattern & 1:
                        owned |= 1 << target
                    pattern >>= 1
                    target += step
                gained = owned & ~mine
                if gained and geo.road_through(mine & ~geo.paths[line][drops] | owned, gained):
                    return True
        return False

    def _road_zones(self, me: int) -> tuple[int, int, int, int]:
        """For each edge (left, right, bottom, top), the squares on it or next to a group of
        `me`'s road pieces that touches it."""
        geo = self._geo
        mine = self._road[me]
        left, right, bottom, top = geo.edges
        return (
            geo.grow(geo.group(mine, mine & left)) | left,
            geo.grow(geo.group(mine, mine & right)) | right,
            geo.grow(geo.group(mine, mine & bottom)) | bottom,
            geo.grow(geo.group(mine, mine & top)) | top,
        )

    def _spread_lines(
        self, me: int, zones: tuple[int, int, int, int], squares: int = -1
    ) -> list[tuple[int, int]]:
        """The line keys (with their lines) of `me`'s stacks on `squares` whose spreads may
        complete a road: if the best case does, the origin and every square it can drop on
        becoming mine (they form a line, joined to the groups next to it)."""
        paths = self._geo.paths
        left, right, bottom, top = zones
        found = []
        for key in self._line_keys(me, squares, zones):
            line, low = divmod(key, _LINE_KEYS)
            best = paths[line][_LONGEST_DROPS[low]]
            if (best & left and best & right) or (best & bottom and best & top):
                found.append((key, line))
        return found

    def _threats(self, color: int | None) -> Iterator[Move]:
        # While the game goes on, neither player has a road: a threat's road must pass through
        # a square the move gives the player. A square placed on joins the groups next to it,
        # so it completes a road when it is on or next to a group touching each of two opposite
        # edges: those squares are found for the whole board at once.
        if self._result is not None or self.ply < 2:
            return
        me = self.ply & 1 if color is None else int(color)
        geo = self._geo
        mine = self._road[me]
        zones = self._road_zones(me)
        left, right, bottom, top = zones
        kinds = (1 if self._stones[me] else 0) + (2 if self._capstones[me] else 0)
        if kinds:
            free = geo.full & ~(self._road[0] | self._road[1] | self._walls)
            placements = geo.placements
            for sq in _squares(free & (left & right | bottom & top)):
                yield from (placements[sq][piece] for piece in _ROAD_PIECES[kinds])
        for key, _line in self._spread_lines(me, zones):
            for move in geo.spreads(key):
                after = self._road_after_spread(move, me)
                if geo.road_through(after, after & ~mine):
                    yield move

    def _road_after_spread(self, move: Spread, me: int) -> int:
        """`me`'s road bitboard as it would be after `move`, without playing it."""
        sq = move.rank * self.size + move.file
        stack = self._stacks[sq]
        drops = move.drops
        count = sum(drops)
        bits = self._road[me]
        # The origin shows the piece left under the carried ones (always a flat), or nothing.
        if len(stack) > count and stack[-count - 1] == me:
            bits |= 1 << sq
        else:
            bits &= ~(1 << sq)
        step = self._geo.steps[_DIRECTIONS.index(move.direction)]
        target = sq
        taken = len(stack) - count
        for drop in drops:
            target += step
            taken += drop
            if stack[taken - 1] == me:
                bits |= 1 << target
            else:
                bits &= ~(1 << target)
        if self._tops[sq] == WALL:
            bits &= ~(1 << target)
        return bits


def _restored_position(
    setup: tuple[int, float, tuple[int, int], tuple[int, int], Opening, bool], state: _State
) -> Position:
    size, komi, stones, caps, opening, ties_to_black = setup
    position = Position(
        size, komi=komi, stones=stones, caps=caps, opening=opening, ties_to_black=ties_to_black
    )
    (
        position._stacks,
        position._tops,
        position._road,
        position._walls,
        position._caps,
        position._tall,
        position._stones,
        position._capstones,
        position.ply,
        position._result,
        position._undo,
    ) = state
    return position


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of `depth` plies; a finished game counts 0 below it."""
    if depth == 0:
        return 1
    if depth == 1:
        return position.count_legal_moves()
    if position.result is not None:
        return 0
    total = 0
    for move in position.legal_moves():
        position.push(move)
        total += perft(position, depth - 1)
        position.pop()
    return total
