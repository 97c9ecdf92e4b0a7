"""The evaluation of a Tak position for Bredon's search (:mod:`tak.search`), in centi-flats.

It reads only the public API of :class:`tak.Position` (its bitboards, its stacks and its
:class:`tak.Geometry`). :class:`Board` is a plain mirror of the stacks that the search keeps in step
with the position, square by square, with a hash of the whole board; :class:`Scan` is what one
position's evaluation reads off it, so that the search can ask "may this side have a road in one?"
and "what is this position worth?" from one pass over the board.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from tak.moves import Piece
from tak.position import Geometry, Position

# A road or flat win, less the plies to reach it: a quicker win scores higher.
WIN: Final = 1_000_000
WIN_ZONE: Final = WIN - 10_000  # scores beyond this are wins or losses, not evaluations
FLAT: Final = 100  # evaluation unit: one flat on top, in centi-flats

_FLAT: Final = Piece.FLAT.value
_WALL: Final = Piece.WALL.value
_CAP: Final = Piece.CAP.value


class Board:
    """A plain mirror of the stacks (colours as ints, top piece as int) kept in step with the
    position during the search, with a hash of the whole board updated square by square."""

    def __init__(self, position: Position) -> None:
        n = position.size
        self.size = n
        self.cells: list[tuple[tuple[int, ...], int]] = [((), _FLAT)] * (n * n)
        self.key = 0
        self.rings = _centre_rings(n)
        # What change() replaced, for restore(): the key, the squares and their cells.
        self._saved: list[tuple[int, tuple[int, ...], list[tuple[tuple[int, ...], int]]]] = []
        for sq in range(n * n):
            self._load(position, sq)

    def _load(self, position: Position, sq: int) -> None:
        cell = position.square(sq)
        self.key ^= _square_key(sq, self.cells[sq]) ^ _square_key(sq, cell)
        self.cells[sq] = cell

    def change(self, position: Position, squares: tuple[int, ...]) -> None:
        """Follow a move the position has made on these squares; restore() takes it back."""
        cells = self.cells
        self._saved.append((self.key, squares, [cells[sq] for sq in squares]))
        for sq in squares:
            self._load(position, sq)

    def restore(self) -> None:
        """Back to the board before the last change() (the position has taken its move back):
        the saved cells and key, not a hash of each square again."""
        key, squares, saved = self._saved.pop()
        cells = self.cells
        for index, sq in enumerate(squares):
            cells[sq] = saved[index]
        self.key = key


# Keys fit in 61 bits: a compiled build keeps such ints unboxed (a full 64-bit hash made every
# XOR of a key allocate).
_KEY_BITS: Final = (1 << 61) - 1


def _square_key(sq: int, cell: tuple[tuple[int, ...], int]) -> int:
    return hash((sq, cell)) & _KEY_BITS if cell[0] else 0


@cache
def _centre_rings(size: int) -> tuple[tuple[int, int], ...]:
    """(bonus, squares) for each ring around the centre: a piece nearer the centre reaches more
    of the board. A bitboard's bonus is a sum of popcounts, with no loop over squares."""
    middle = (size - 1) / 2
    rings: dict[int, int] = {}
    for sq in range(size * size):
        bonus = round(8 * (middle - max(abs(sq % size - middle), abs(sq // size - middle))))
        rings[bonus] = rings.get(bonus, 0) | 1 << sq
    return tuple((bonus, squares) for bonus, squares in rings.items() if bonus)


def _centre(rings: tuple[tuple[int, int], ...], bits: int) -> int:
    total = 0
    for bonus, squares in rings:
        total += bonus * (bits & squares).bit_count()
    return total


# The evaluation is a weighted sum of features, each the side to move's count less the
# opponent's, weighed one way in the middle game and another at the end (`Scan.features`, which
# the fit in benchmarks/tune.py reads); the weights are per board size, in centi-flats per unit.
TEMPO: Final = 0  # 1: the side to move places next
FLATS: Final = 1  # flats on top
WALLS: Final = 2
CAPS: Final = 3
CENTRE: Final = 4  # pieces on top by how near the centre they stand (capstones twice), in eighths
HARD: Final = 5  # own pieces under an own top, within its carry: flats that cannot be captured
SOFT: Final = 6  # the opponent's pieces there: theirs again when the stack spreads
CAP_STACK: Final = 7  # pieces under an own capstone, within its carry: the capstone stack hits
SPAN: Final = 8  # SPAN + k - 2, k = 2..8: the largest road group spans k files or ranks (else 0)
OTHER_GROUPS: Final = 15  # the span of the second and later road groups, summed
ROAD_SQUARES: Final = 16  # free squares that would complete a road: Tak, the opponent must answer
WALL_BLOCKS: Final = 17  # walls next to the opponent's road pieces, in their way
KOMI: Final = 18  # komi for the side to move (negative for White), in half-flats: not fitted
RACE: Final = 19  # the final count if both only placed from now on, with komi, in half-flats
RESERVES: Final = 20  # stones and capstones in hand (weighed at the end only)
FEATURES: Final = 21
ENDGAME: Final = FEATURES  # a feature's weight in the middle game is at its index, at the end here
# The weights the fit leaves as they are: the komi's, and the race and reserves in the middle game.
UNFITTED = (KOMI, RACE, RESERVES, ENDGAME + KOMI)

# The weights are fitted to taktician's judgement: least squares (ridge) of the features on
# taktician's scores (`go movetime 25`) of four fifths of the 16,451 positions of the first 240
# games of benchmarks/teacher-games.jsonl and 20 against taktician in ladder-games.jsonl, rescaled
# so that a flat on top is 100, one set for the middle game and the end alike; spans that are roads
# on the fitted size keep their hand-set weights. The end adds the race (a flat a flat more) and
# the stones in hand, from the logistic fit to results. The scores are committed
# (benchmarks/teacher-scores.jsonl): `benchmarks/tune.py --teacher /tmp/taktician/tei-bin` prints
# these weights from them. A refit on more positions must beat these in play before it replaces
# them (one on the whole record played worse against taktician in the same openings:
# docs/engine.md).
# A size without its own weights takes the nearest size's (7x7 and 8x8 the 6x6 ones).
# fmt: off
_WEIGHTS: dict[int, tuple[int, ...]] = {
    5: (
        80, 100, 60, 86, 1, 88, -46, 42, 1, 13, 27, 120, 190, 280, 380, -15, 24, 10, 50, 0, 0,
        80, 100, 60, 86, 1, 88, -46, 42, 1, 13, 27, 120, 190, 280, 380, -15, 24, 10, 50, 50, -25,
    ),
    6: (
        92, 100, 39, 86, 1, 107, -52, 21, 0, 12, 25, 37, 190, 280, 380, -18, 15, 13, 50, 0, 0,
        92, 100, 39, 86, 1, 107, -52, 21, 0, 12, 25, 37, 190, 280, 380, -18, 15, 13, 50, 50, -25,
    ),
}
# fmt: on


_BY_SIZE = {
    size: _WEIGHTS[min(_WEIGHTS, key=lambda known: abs(known - size))] for size in range(3, 9)
}


def weights_for(size: int) -> tuple[int, ...]:
    """The weights of a board size: its own, or the nearest size's (a size without its own)."""
    return _BY_SIZE[size]


def evaluate(position: Position) -> int:
    """The position's value for the side to move, in centi-flats (100 = one flat).

    A finished game scores ±WIN (0 for a draw); a side to move with a road in one scores WIN - 1.
    Otherwise the weighted features (see FEATURES): flats on top, walls and capstones, stack
    control and captives, road groups by how far they span the board, free squares that would
    complete a road, centre, the move, komi, and, as the end nears (by reserves or by a filling
    board), the flat count with komi again and the pieces left in hand.
    """
    result = position.result
    if result is not None:
        if result.winner is None:
            return 0
        return WIN if result.winner == position.to_move else -WIN
    board = Board(position)
    if road_in_one(position, board, position.to_move):
        return WIN - 1
    return Scan(position, board).value(position)


def road_in_one(position: Position, board: Board, color: int) -> bool:
    """Whether `color` could complete a road with one move. The full check is skipped when no
    single move can cover the files or the ranks its road pieces miss: a placement adds one file
    and one rank, a spread as many as it carries along its line."""
    bits = position.road_pieces(color)
    geo = position.geometry
    missing_files = sum(1 for mask in geo.files if not bits & mask)
    missing_ranks = sum(1 for mask in geo.ranks if not bits & mask)
    fewest = min(missing_files, missing_ranks)
    if fewest > 1:
        # Only a spread covers more than one: as many as the tallest stack it tops carries.
        cells = board.cells
        tall = position.tall_stacks & (bits | position.wall_pieces(color))
        reach = 1
        while tall and reach < fewest:
            low = tall & -tall
            tall ^= low
            reach = max(reach, len(cells[low.bit_length() - 1][0]))
        if fewest > reach:
            return False
    return position.has_road_threat(color)


class Scan:
    """What the evaluation reads off the position's bitboards (road pieces, walls, top flats)
    and off the tall stacks (stack control, captives), per colour."""

    __slots__ = ("centre", "flats", "geo", "road", "stacks", "walls")

    def __init__(self, position: Position, board: Board) -> None:
        n = board.size
        self.geo = position.geometry
        rings = board.rings
        caps = position.capstones
        road = [position.road_pieces(0), position.road_pieces(1)]
        walls = [position.wall_pieces(0), position.wall_pieces(1)]
        flats = [0, 0]
        centre = [0, 0]
        stacks = [[0, 0, 0], [0, 0, 0]]  # per colour: HARD, SOFT, CAP_STACK
        for owner in (0, 1):
            mine = road[owner] | walls[owner]
            flats[owner] = (road[owner] & ~caps).bit_count()
            centre[owner] = _centre(rings, mine) + _centre(rings, road[owner] & caps)
        tall = position.tall_stacks
        cells = board.cells
        while tall:
            low = tall & -tall
            tall ^= low
            colors, top = cells[low.bit_length() - 1]
            owner = colors[-1]
            height = len(colors)
            below = colors[-n - 1 : -1] if height > n else colors[:-1]  # what it can carry
            own = below.count(owner)
            carried = len(below)
            counts = stacks[owner]
            counts[0] += own
            counts[1] += carried - own
            if top == _CAP:
                counts[2] += carried
        self.road, self.walls, self.flats = road, walls, flats
        self.centre, self.stacks = centre, stacks

    def counts(self, position: Position) -> tuple[list[int], float]:
        """The features (see FEATURES), the side to move's less the opponent's, and how near the
        end is, from 0 (placements enough left to fill the board) to 1 (the next one ends it)."""
        geo = self.geo
        road, walls, flats, stacks, centre = (
            self.road,
            self.walls,
            self.flats,
            self.stacks,
            self.centre,
        )
        me = position.ply & 1
        other = 1 - me
        cap_tops = position.capstones
        free = geo.full & ~(road[0] | road[1] | walls[0] | walls[1])
        values = [0] * FEATURES
        # Each feature set once, from plain ints: a compiled build adds them unboxed.
        values[TEMPO] = 1
        values[FLATS] = flats[me] - flats[other]
        values[WALLS] = walls[me].bit_count() - walls[other].bit_count()
        values[CAPS] = (road[me] & cap_tops).bit_count() - (road[other] & cap_tops).bit_count()
        values[CENTRE] = centre[me] - centre[other]
        values[HARD] = stacks[me][0] - stacks[other][0]
        values[SOFT] = stacks[me][1] - stacks[other][1]
        values[CAP_STACK] = stacks[me][2] - stacks[other][2]
        other_groups = road_threats = blocks = 0
        for color in (me, other):
            sign = 1 if color == me else -1
            found = geo.groups(road[color])
            if found:
                longest = total = 0
                for group in found:
                    span = geo.span(group)
                    total += span
                    longest = max(longest, span)
                if longest >= 2:
                    values[SPAN + longest - 2] += sign
                other_groups += sign * (total - longest)
            road_threats += sign * road_squares(geo, found, free)
            blocks += sign * (geo.grow(road[1 - color]) & walls[color]).bit_count()
        values[OTHER_GROUPS] = other_groups
        values[ROAD_SQUARES] = road_threats
        values[WALL_BLOCKS] = blocks
        komi = round(position.equivalent_komi * 2) * (1 if me else -1)
        values[KOMI] = komi
        # The game ends when a player has placed all their pieces or the board is full, whichever
        # comes first (on 5x5 the board fills before the reserves run out, unless the pieces go
        # into stacks): as it nears, the count decides. If both only placed from now on, the side
        # to move would place one more than the opponent when the placements left are odd.
        empty = free.bit_count()
        mine, theirs = position.pieces_left(me), position.pieces_left(other)
        placements = min(2 * mine - 1, 2 * theirs, empty)
        stones, caps = position.starting_stones, position.starting_caps
        start = min(stones[0] + caps[0], stones[1] + caps[1])
        endgame = max(0.0, 1 - (placements - 1) / max(start, 1))  # 1: the next placement ends it
        values[RACE] = 2 * (values[FLATS] + placements % 2) + komi
        values[RESERVES] = mine - theirs
        return values, endgame

    def features(self, position: Position) -> list[float]:
        """The features weighed as the game goes: each once as it counts in the middle game
        (times 1 - the nearness of the end), once as it counts at the end (times the nearness):
        a wall or a stack is worth much early and nothing in the final count."""
        values, endgame = self.counts(position)
        middle = 1 - endgame
        return [v * middle for v in values] + [v * endgame for v in values]

    def value(self, position: Position) -> int:
        """The weighted features (see :meth:`features`), summed without building them."""
        values, endgame = self.counts(position)
        weights = weights_for(self.geo.size)
        middle = end = 0
        for i in range(FEATURES):
            v = values[i]
            if v:
                middle += weights[i] * v
                end += weights[FEATURES + i] * v
        return round(middle * (1 - endgame) + end * endgame)


def road_squares(geo: Geometry, groups: list[int], free: int) -> int:
    """How many free squares would complete a road if the groups' owner placed there: the
    threats of a side not to move (the side to move with one has won already)."""
    files, ranks = geo.files, geo.ranks
    first_file, last_file, first_rank, last_rank = files[0], files[-1], ranks[0], ranks[-1]
    left = right = bottom = top = 0  # the groups touching each edge (plain ints: a hot path)
    for group in groups:
        if group & first_file:
            left |= group
        if group & last_file:
            right |= group
        if group & first_rank:
            bottom |= group
        if group & last_rank:
            top |= group
    left = geo.grow(left) | first_file
    right = geo.grow(right) | last_file
    bottom = geo.grow(bottom) | first_rank
    top = geo.grow(top) | last_rank
    return (free & (left & right | bottom & top)).bit_count()


__all__ = [
    "ENDGAME",
    "FEATURES",
    "FLAT",
    "UNFITTED",
    "WIN",
    "WIN_ZONE",
    "Board",
    "Scan",
    "evaluate",
    "road_in_one",
    "weights_for",
]
