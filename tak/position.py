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

from tak.errors import IllegalMoveError, PTNError, SetupError, quoted
from tak.moves import (
    Color,
    Direction,
    Move,
    Piece,
    Placement,
    Spread,
    parse_move,
    spread_shape_problem,
    square_name,
)
from tak.results import Result, ResultKind
from tak.tps import Board, Stack, parse_tps, row_text

# Stones and capstones per player for each board size: the community standard.
STANDARD_RESERVES: dict[int, tuple[int, int]] = {
    3: (10, 0),
    4: (15, 0),
    5: (21, 1),
    6: (30, 1),
    7: (40, 2),
    8: (50, 2),
}
# PTN Ninja and PlayTak stop at 4.5 (9 half-flats): a game with more komi could not be exported,
# so no position is set up with it. The bot checks challenges against the same number.
MAX_KOMI = 4.5
MAX_RESERVE = 200  # stones, or capstones, per player

FLAT, WALL, CAP = Piece.FLAT.value, Piece.WALL.value, Piece.CAP.value
_DIRECTIONS = (Direction.UP, Direction.DOWN, Direction.RIGHT, Direction.LEFT)
_DIGITS = ("1", "2")  # TPS writes White's pieces as 1 and Black's as 2
_LETTERS = tuple(piece.letter for piece in Piece)


class Opening(Enum):
    """`swap`: each player's first placement is a flat of the opponent's colour (the standard)."""

    SWAP = "swap"
    NO_SWAP = "no-swap"


@dataclass(frozen=True, slots=True)
class Reserves:
    """Pieces a player has not played yet."""

    stones: int
    caps: int

    @property
    def total(self) -> int:
        return self.stones + self.caps


PerPlayer = int | tuple[int, int] | None


def reserve_problem(
    size: int,
    stones: PerPlayer = None,
    caps: PerPlayer = None,
    opening: Opening | str = Opening.SWAP,
) -> str | None:
    """Why no game can start with these reserves (per player, or one number for both; None for
    the board's standard), or None. :class:`Position` raises :class:`tak.SetupError` with the
    same sentence; the bot asks first to refuse a challenge up front."""
    try:
        _checked_reserves(size, stones, caps, opening)
    except SetupError as error:
        return str(error)
    return None


def _checked_reserves(
    size: int, stones: PerPlayer, caps: PerPlayer, opening: Opening | str
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Stones and capstones per player, or :class:`SetupError` when no game could start."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in STANDARD_RESERVES:
        raise SetupError("The board size must be a whole number: sizes run from 3 to 8.")
    default_stones, default_caps = STANDARD_RESERVES[size]
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


def _per_player(value: PerPlayer, default: int, what: str) -> tuple[int, int]:
    if value is None:
        return (default, default)
    pair = tuple(value) if isinstance(value, tuple | list) else (value, value)
    if len(pair) != 2 or any(
        isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_RESERVE for v in pair
    ):
        raise SetupError(f"{what} must be a whole number from 0 to {MAX_RESERVE} per player.")
    return (pair[0], pair[1])


def _opening(opening: Opening | str) -> Opening:
    try:
        return Opening(opening)
    except ValueError:
        raise SetupError(
            f"The opening must be 'swap' or 'no-swap', not {quoted(str(opening))}."
        ) from None


def _komi_halves(komi: float) -> int:
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


class _Geometry:
    """Everything about a board size that never changes: rays and edge masks for bitboards."""

    def __init__(self, size: int) -> None:
        n = size
        self.size = n
        self.full = (1 << (n * n)) - 1
        self.files = [sum(1 << (r * n + f) for r in range(n)) for f in range(n)]
        self.ranks = [((1 << n) - 1) << (r * n) for r in range(n)]
        self.not_first_file = self.full & ~self.files[0]
        self.not_last_file = self.full & ~self.files[-1]
        steps = {Direction.UP: n, Direction.DOWN: -n, Direction.RIGHT: 1, Direction.LEFT: -1}
        self.steps = [steps[d] for d in _DIRECTIONS]
        self.rays: list[list[tuple[int, ...]]] = []
        for sq in range(n * n):
            f, r = sq % n, sq // n
            rays = []
            for d in _DIRECTIONS:
                df, dr = d.step
                ray = []
                ff, rr = f + df, r + dr
                while 0 <= ff < n and 0 <= rr < n:
                    ray.append(rr * n + ff)
                    ff, rr = ff + df, rr + dr
                rays.append(tuple(ray))
            self.rays.append(rays)

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
        files, ranks = self.files, self.ranks
        if all(bits & m for m in files) and self.connects(bits, files[0], files[-1]):
            return True
        return all(bits & m for m in ranks) and self.connects(bits, ranks[0], ranks[-1])

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
        size: int = 6,
        *,
        komi: float = 0,
        stones: PerPlayer = None,
        caps: PerPlayer = None,
        opening: Opening | str = Opening.SWAP,
    ) -> None:
        self.starting_stones, self.starting_caps = _checked_reserves(size, stones, caps, opening)
        self.size = size
        self._komi_halves = _komi_halves(komi)
        self.opening = _opening(opening)
        self._geo = _geometry(size)
        self._stacks: list[list[int]] = [[] for _ in range(size * size)]
        self._tops = [FLAT] * (size * size)
        self._road = [0, 0]
        self._walls = 0
        self._caps = 0
        self._stones = list(self.starting_stones)
        self._capstones = list(self.starting_caps)
        self.ply = 0
        self._result: Result | None = None
        # One entry a ply: (move, wall flattened?, result before the move).
        self._undo: list[tuple[Move, bool, Result | None]] = []

    # ----------------------------------------------------------------- construction and TPS

    @classmethod
    def from_tps(
        cls,
        tps: str,
        *,
        komi: float = 0,
        stones: PerPlayer = None,
        caps: PerPlayer = None,
        opening: Opening | str = Opening.SWAP,
    ) -> Position:
        """A position from TPS; the reserves are what the starting ones leave after the board.

        A TPS of a finished game gives a position whose :attr:`result` says how it ended.
        """
        board = parse_tps(tps)
        position = cls(board.size, komi=komi, stones=stones, caps=caps, opening=opening)
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

    def copy(self) -> Position:
        """An independent position with the same stacks, reserves, ply and history."""
        clone = Position(
            self.size,
            komi=self.komi,
            stones=self.starting_stones,
            caps=self.starting_caps,
            opening=self.opening,
        )
        clone._stacks = [list(s) for s in self._stacks]
        clone._tops = list(self._tops)
        clone._road = list(self._road)
        clone._walls, clone._caps = self._walls, self._caps
        clone._stones, clone._capstones = list(self._stones), list(self._capstones)
        clone.ply, clone._result, clone._undo = self.ply, self._result, list(self._undo)
        return clone

    # ----------------------------------------------------------------- reading the position

    @property
    def komi(self) -> float:
        """Flats added to Black's count; a multiple of one half."""
        return self._komi_halves / 2

    @property
    def to_move(self) -> Color:
        return Color(self.ply & 1)

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
        return Stack(tuple(Color(c) for c in colors), Piece(self._tops[sq]))

    def reserves(self, color: Color) -> Reserves:
        return Reserves(self._stones[color], self._capstones[color])

    def flat_count(self, color: Color) -> int:
        """Flats on top of stacks: what a flat win counts (walls and capstones don't)."""
        return (self._road[color] & ~self._caps).bit_count()

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
        n = self.size
        mover = self.ply & 1
        sq = move.rank * n + move.file
        flattened = False
        if type(move) is Placement:
            color = 1 - mover if self.is_opening else mover
            self._stacks[sq].append(color)
            self._tops[sq] = move.piece.value
            if move.piece is Piece.CAP:
                self._capstones[color] -= 1
            else:
                self._stones[color] -= 1
            self._refresh(sq)
        else:
            stacks, tops = self._stacks, self._tops
            origin = stacks[sq]
            count = sum(move.drops)
            carried = origin[-count:]
            del origin[-count:]
            kind = tops[sq]
            tops[sq] = FLAT
            self._refresh(sq)
            step = self._geo.steps[_DIRECTIONS.index(move.direction)]
            taken = 0
            target = sq
            for drop in move.drops:
                target += step
                below = stacks[target]
                # Only the last drop may land on a wall (checked before), which it flattens.
                flattened = bool(below) and tops[target] == WALL
                below.extend(carried[taken : taken + drop])
                taken += drop
                tops[target] = FLAT
                self._refresh(target)
            tops[target] = kind
            self._refresh(target)
        self._undo.append((move, flattened, self._result))
        self.ply += 1
        self._result = self._board_result(Color(mover))

    def pop(self) -> Move:
        """Take back the last move, restoring the position exactly."""
        move, flattened, previous = self._undo.pop()
        self.ply -= 1
        self._result = previous
        n = self.size
        sq = move.rank * n + move.file
        if type(move) is Placement:
            color = self._stacks[sq].pop()
            if move.piece is Piece.CAP:
                self._capstones[color] += 1
            else:
                self._stones[color] += 1
            self._refresh(sq)
            return move
        stacks, tops = self._stacks, self._tops
        step = self._geo.steps[_DIRECTIONS.index(move.direction)]
        target = sq + step * len(move.drops)
        kind = tops[target]
        carried: list[int] = []
        for drop in reversed(move.drops):
            stack = stacks[target]
            carried[:0] = stack[-drop:]
            del stack[-drop:]
            tops[target] = FLAT
            self._refresh(target)
            target -= step
        last = sq + step * len(move.drops)
        if flattened:
            tops[last] = WALL
            self._refresh(last)
        stacks[sq].extend(carried)
        tops[sq] = kind
        self._refresh(sq)
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
        geo = self._geo
        road = self._road
        for color in (mover, mover.other):
            if geo.has_road(road[color]):
                path = geo.road_squares(road[color])
                squares = tuple((sq % self.size, sq // self.size) for sq in path)
                return Result(color, ResultKind.ROAD, squares)
        out_of_pieces = any(self._stones[c] + self._capstones[c] == 0 for c in (0, 1))
        if not out_of_pieces and not self.is_full():
            return None
        white = 2 * self.flat_count(Color.WHITE)
        black = 2 * self.flat_count(Color.BLACK) + self._komi_halves
        winner = None if white == black else Color.WHITE if white > black else Color.BLACK
        return Result(winner, ResultKind.FLATS)

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
            raise IllegalMoveError(f"{move.square} is off the {n}x{n} board.")
        if isinstance(move, Placement):
            self._check_placement(move)
        else:
            self._check_spread(move)

    # The checks read the raw stacks rather than :meth:`stack`, which builds enums per piece:
    # they run for every ply of every PTN file read.

    def _check_placement(self, move: Placement) -> None:
        if self._stacks[move.rank * self.size + move.file]:
            raise IllegalMoveError(
                f"{move.square} is occupied: pieces can only be placed on empty squares."
            )
        mover = self.ply & 1
        if self.is_opening:
            if move.piece is not Piece.FLAT:
                name = "walls" if move.piece is Piece.WALL else "capstones"
                raise IllegalMoveError(
                    f"No {name} in the first two plies: each player's first move places a flat "
                    "of the opponent's colour."
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
            raise IllegalMoveError("You have no stones left: only your capstone can be placed.")

    def _check_spread(self, move: Spread) -> None:
        problem = spread_shape_problem(move)
        if problem:
            raise IllegalMoveError(problem)
        if self.is_opening:
            raise IllegalMoveError(
                "No stack can move in the first two plies: each player's first move places a "
                "flat of the opponent's colour."
            )
        n = self.size
        origin = move.rank * n + move.file
        stack = self._stacks[origin]
        if not stack:
            raise IllegalMoveError(f"{move.square} is empty: there is no stack to move.")
        if stack[-1] != self.ply & 1:
            raise IllegalMoveError(
                f"{move.square} is topped by {Color(stack[-1])}'s piece: you can only move stacks "
                "with your own piece on top."
            )
        count = move.count
        if count > n:
            raise IllegalMoveError(f"You can carry at most {n} pieces on {n}x{n}, not {count}.")
        height = len(stack)
        if count > height:
            raise IllegalMoveError(
                f"{move.square} holds only {height} piece{'s' if height > 1 else ''}: "
                f"you can't pick up {count}."
            )
        path = move.path()
        tops = self._tops
        for index, (file, rank) in enumerate(path):
            if not (0 <= file < n and 0 <= rank < n):
                raise IllegalMoveError(
                    f"{move.ptn()} walks off the board: it drops on {len(path)} squares, "
                    f"but only {index} lie that way from {move.square}."
                )
            target = rank * n + file
            if not self._stacks[target] or tops[target] == FLAT:
                continue
            name = square_name(file, rank)
            if tops[target] == CAP:
                raise IllegalMoveError(f"{name} holds a capstone: nothing can move onto it.")
            if tops[origin] != CAP:
                raise IllegalMoveError(
                    f"{name} holds a wall: only a capstone moving alone can flatten it."
                )
            if index != len(path) - 1:
                raise IllegalMoveError(
                    f"{name} holds a wall: a capstone flattens a wall only with its last drop, "
                    "which ends the move."
                )
            if move.drops[-1] != 1:
                raise IllegalMoveError(
                    f"{name} holds a wall: only a capstone moving alone can flatten it, so the "
                    "last drop must be the capstone by itself (1)."
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
        n = self.size
        occupied = self._road[0] | self._road[1] | self._walls
        empties = [sq for sq in range(n * n) if not occupied >> sq & 1]
        if self.is_opening:
            return [Placement(sq % n, sq // n) for sq in empties]
        mover = self.ply & 1
        pieces = []
        if self._stones[mover]:
            pieces += [Piece.FLAT, Piece.WALL]
        if self._capstones[mover]:
            pieces.append(Piece.CAP)
        moves: list[Move] = [Placement(sq % n, sq // n, p) for sq in empties for p in pieces]
        for sq, carry, direction, _ray, reach, flattens in self._spread_lines(mover):
            file, rank = sq % n, sq // n
            moves.extend(Spread(file, rank, direction, d) for d in drop_sequences(carry, reach))
            if flattens:
                sequences = flattening_sequences(carry, reach)
                moves.extend(Spread(file, rank, direction, d) for d in sequences)
        return moves

    def count_legal_moves(self) -> int:
        """len(legal_moves()), computed without building the moves (for perft's last ply)."""
        if self._result is not None:
            return 0
        n = self.size
        occupied = self._road[0] | self._road[1] | self._walls
        empties = n * n - occupied.bit_count()
        if self.is_opening:
            return empties
        mover = self.ply & 1
        kinds = (2 if self._stones[mover] else 0) + (1 if self._capstones[mover] else 0)
        total = empties * kinds
        for _sq, carry, _direction, _ray, reach, flattens in self._spread_lines(mover):
            total += _sequence_count(carry, reach)
            if flattens:
                total += _flattening_count(carry, reach)
        return total

    def _spread_lines(
        self, mover: int
    ) -> Iterator[tuple[int, int, Direction, tuple[int, ...], int, bool]]:
        """For every stack `mover` controls and every direction: the square, how many pieces it
        can carry, the direction and its ray of squares, how many of those are free to drop on
        (`reach`), and whether a capstone on top could flatten the wall right after them."""
        n = self.size
        blockers = self._walls | self._caps
        walls = self._walls
        rays = self._geo.rays
        tops = self._tops
        for sq, stack in enumerate(self._stacks):
            if not stack or stack[-1] != mover:
                continue
            carry = len(stack) if len(stack) < n else n
            is_cap = tops[sq] == CAP
            for direction, ray in zip(_DIRECTIONS, rays[sq], strict=True):
                reach = 0
                for target in ray:
                    if blockers >> target & 1:
                        break
                    reach += 1
                flattens = is_cap and reach < len(ray) and bool(walls >> ray[reach] & 1)
                yield sq, carry, direction, ray, reach, flattens

    # ----------------------------------------------------------------- Tak threats

    def road_threats(self, color: Color | None = None) -> list[Move]:
        """The moves by which `color` (the side to move by default) would complete a road at once.

        Asked for the player who just moved, this is the "Tak" call: what they threaten to play
        next. Only moves that win by road count (a double road wins for the mover).
        """
        return list(self._threats(color))

    def has_road_threat(self, color: Color | None = None) -> bool:
        """Whether :meth:`road_threats` is non-empty, stopping at the first threat."""
        return next(self._threats(color), None) is not None

    def _threats(self, color: Color | None) -> Iterator[Move]:
        if self._result is not None or self.ply < 2:
            return
        me = int(self.to_move if color is None else color)
        geo = self._geo
        n = self.size
        mine = self._road[me]
        free = geo.full & ~(self._road[0] | self._road[1] | self._walls)
        road_pieces = ([Piece.FLAT] if self._stones[me] else []) + (
            [Piece.CAP] if self._capstones[me] else []
        )
        if road_pieces and geo.has_road(mine | free):
            for sq in _squares(free):
                if geo.has_road(mine | 1 << sq):
                    yield from (Placement(sq % n, sq // n, p) for p in road_pieces)
        for move in self._spread_candidates(me):
            if geo.has_road(self._road_after_spread(move, me)):
                yield move

    def _spread_candidates(self, me: int) -> Iterator[Spread]:
        """Spreads of `me`'s stacks in directions where a road is possible at all.

        A direction is skipped when even the best case (every square it can reach, and the
        origin, becoming a road piece of mine) joins no two edges.
        """
        n = self.size
        mine = self._road[me]
        for sq, carry, direction, ray, reach, flattens in self._spread_lines(me):
            last = min(carry, reach + 1 if flattens else reach)
            best = mine | 1 << sq
            for target in ray[:last]:
                best |= 1 << target
            if last == 0 or not self._geo.has_road(best):
                continue
            file, rank = sq % n, sq // n
            for drops in drop_sequences(carry, reach):
                yield Spread(file, rank, direction, drops)
            if flattens:
                for drops in flattening_sequences(carry, reach):
                    yield Spread(file, rank, direction, drops)

    def _road_after_spread(self, move: Spread, me: int) -> int:
        """`me`'s road bitboard as it would be after `move`, without playing it."""
        n = self.size
        sq = move.rank * n + move.file
        stack = self._stacks[sq]
        count = sum(move.drops)
        bits = self._road[me]
        # The origin shows the piece left under the carried ones (always a flat), or nothing.
        if len(stack) > count and stack[-count - 1] == me:
            bits |= 1 << sq
        else:
            bits &= ~(1 << sq)
        step = self._geo.steps[_DIRECTIONS.index(move.direction)]
        top_kind = self._tops[sq]
        taken = 0
        target = sq
        last_index = len(move.drops) - 1
        for index, drop in enumerate(move.drops):
            target += step
            taken += drop
            color = stack[len(stack) - count + taken - 1]
            kind = top_kind if index == last_index else FLAT
            if color == me and kind != WALL:
                bits |= 1 << target
            else:
                bits &= ~(1 << target)
        return bits


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
