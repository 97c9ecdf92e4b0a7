"""The evaluation of a Tak position for Bredon's search (:mod:`tak.search`), in centi-flats.

It reads only the public API of :class:`tak.Position` (its bitboards, its stacks and its
:class:`tak.Geometry`). :class:`Board` is a plain mirror of the stacks that the search keeps in step
with the position, square by square, with a hash of the whole board; :class:`Scan` is what one
position's evaluation reads off it, so that the search can ask "may this side have a road in one?"
and "what is this position worth?" from one pass over the board.
"""

from __future__ import annotations

from functools import cache

from tak.moves import Color, Piece
from tak.position import Geometry, Position

WIN = 1_000_000  # a road or flat win, less the plies to reach it: a quicker win scores higher
WIN_ZONE = WIN - 10_000  # scores beyond this are wins or losses, not evaluations
FLAT = 100  # evaluation unit: one flat on top, in centi-flats

_FLAT, _WALL, _CAP = Piece.FLAT.value, Piece.WALL.value, Piece.CAP.value


class Board:
    """A plain mirror of the stacks (colours as ints, top piece as int) kept in step with the
    position during the search, with a hash of the whole board updated square by square."""

    def __init__(self, position: Position) -> None:
        n = position.size
        self.size = n
        self.cells: list[tuple[tuple[int, ...], int]] = [((), _FLAT)] * (n * n)
        self.key = 0
        for sq in range(n * n):
            self._load(position, sq)

    def _load(self, position: Position, sq: int) -> None:
        cell = position.square(sq)
        self.key ^= _square_key(sq, self.cells[sq]) ^ _square_key(sq, cell)
        self.cells[sq] = cell

    def refresh(self, position: Position, squares: tuple[int, ...]) -> None:
        for sq in squares:
            self._load(position, sq)


def _square_key(sq: int, cell: tuple[tuple[int, ...], int]) -> int:
    return hash((sq, cell)) if cell[0] else 0


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
    return sum(bonus * (bits & squares).bit_count() for bonus, squares in rings)


# Weights, in centi-flats. Found by hand and by the ladder (benchmarks/ladder.py).
_TOP_FLAT = FLAT
_WALL_PIECE = 45
_CAP_PIECE = 70
# Stack pieces as taktician weighs them (its "hard" and "soft" flats, scaled to its flat): an own
# piece under an own top is a flat that cannot be captured, for later spreads; an opponent's
# piece there is one they get back when the stack spreads.
_SUPPORT = 60
_CAPTIVE = -35
_CAP_SUPPORT = 15  # extra per piece under an own capstone: the capstone stack is the big weapon
_SPAN = (0, 0, 10, 30, 65, 120, 190, 280, 380)  # a road group by its span
_OTHER_GROUP = 3  # the second and later groups, per square of span
_TEMPO = 35
_WALL_NEXT_TO_ENEMY = 6
_ROAD_SQUARE = 30  # a free square that completes a road: Tak, the opponent must answer


def evaluate(position: Position) -> int:
    """The position's value for the side to move, in centi-flats (100 = one flat).

    A finished game scores ±WIN (0 for a draw); a side to move with a road in one scores WIN - 1.
    Otherwise: flats on top (with komi), walls and capstones, stack control and captives, road
    groups by how far they span the board, free squares that would complete a road, centre, the
    move, and the flat count again as the end nears (by reserves or by a filling board).
    """
    result = position.result
    if result is not None:
        if result.winner is None:
            return 0
        return WIN if result.winner == position.to_move else -WIN
    scan = Scan(position, Board(position))
    if scan.may_road(position.to_move) and position.has_road_threat():
        return WIN - 1
    return scan.value(position)


class Scan:
    """What the evaluation reads off the position's bitboards (road pieces, walls, top flats)
    and off the tall stacks (stack control, captives, the tallest carry): the score of each
    colour's pieces."""

    __slots__ = ("carry", "flats", "geo", "road", "score", "walls")

    def __init__(self, position: Position, board: Board) -> None:
        n = board.size
        self.geo = position.geometry
        rings = _centre_rings(n)
        caps = position.capstones
        road = [position.road_pieces(0), position.road_pieces(1)]
        walls = [position.wall_pieces(0), position.wall_pieces(1)]
        score = [0, 0]
        flats = [0, 0]
        carry = [0, 0]
        for owner in (0, 1):
            mine = road[owner] | walls[owner]
            flats[owner] = (road[owner] & ~caps).bit_count()
            own_caps = road[owner] & caps
            score[owner] = (
                _TOP_FLAT * flats[owner]
                + _CAP_PIECE * own_caps.bit_count()
                + _WALL_PIECE * walls[owner].bit_count()
                + _centre(rings, mine)
                + _centre(rings, own_caps)
            )
            carry[owner] = 1 if mine else 0
        tall = position.tall_stacks
        cells = board.cells
        while tall:
            low = tall & -tall
            tall ^= low
            colors, top = cells[low.bit_length() - 1]
            owner = colors[-1]
            height = len(colors)
            below = colors[-n - 1 : -1] if height > n else colors[:-1]  # what it can carry
            own = sum(1 for c in below if c == owner)
            value = own * _SUPPORT + (len(below) - own) * _CAPTIVE
            if top == _CAP:
                value += len(below) * _CAP_SUPPORT
            score[owner] += value
            if height > carry[owner]:
                carry[owner] = height if height < n else n
        self.road, self.walls, self.score, self.flats, self.carry = road, walls, score, flats, carry

    def may_road(self, color: Color) -> bool:
        """False when no single move can give `color` a road (so the costly check is skipped).

        A placement adds one file and one rank to the road pieces; a spread along a rank adds at
        most as many files as it carries and no rank (its origin's rank is covered already), and
        the other way round. A road covers every file or every rank.
        """
        geo = self.geo
        bits = self.road[color]
        reach = max(1, self.carry[color])
        missing_files = sum(1 for mask in geo.files if not bits & mask)
        if missing_files <= reach:
            return True
        return sum(1 for mask in geo.ranks if not bits & mask) <= reach

    def value(self, position: Position) -> int:
        geo = self.geo
        road, walls, score, flats = self.road, self.walls, list(self.score), self.flats
        free = geo.full & ~(road[0] | road[1] | walls[0] | walls[1])
        for color in (0, 1):
            found = geo.groups(road[color])
            groups = sorted((geo.span(g) for g in found), reverse=True)
            if groups:
                score[color] += _SPAN[groups[0]] + _OTHER_GROUP * sum(groups[1:])
            score[color] += _ROAD_SQUARE * road_squares(geo, found, free)
            # A wall next to the opponent's road pieces gets in their way.
            near = geo.grow(road[1 - color]) & walls[color]
            score[color] += _WALL_NEXT_TO_ENEMY * near.bit_count()
        score[Color.BLACK] += round(position.equivalent_komi * FLAT)
        # As the end nears the flat count decides: weigh it more. The game ends when a player
        # has placed all their pieces or the board is full, whichever comes first (on 5x5 the
        # board fills before the reserves run out, unless the pieces go into stacks).
        left = min(position.reserves(0).total, position.reserves(1).total, free.bit_count() / 2)
        stones, caps = position.starting_stones, position.starting_caps
        start = min(stones[0] + caps[0], stones[1] + caps[1])
        endgame = max(0.0, 1 - 2 * left / max(start, 1))
        me = int(position.to_move)
        value = score[me] - score[1 - me] + _TEMPO
        return value + round(endgame * FLAT * (flats[me] - flats[1 - me]))


def road_squares(geo: Geometry, groups: list[int], free: int) -> int:
    """How many free squares would complete a road if the groups' owner placed there: the
    threats of a side not to move (the side to move with one has won already)."""
    near = [0, 0, 0, 0]
    edges = (geo.files[0], geo.files[-1], geo.ranks[0], geo.ranks[-1])
    for group in groups:
        for index, edge in enumerate(edges):
            if group & edge:
                near[index] |= group
    left, right, bottom, top = (geo.grow(near[i]) | edges[i] for i in range(4))
    return (free & (left & right | bottom & top)).bit_count()


__all__ = ["FLAT", "WIN", "WIN_ZONE", "Board", "Scan", "evaluate"]
