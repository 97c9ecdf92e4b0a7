"""Moves and their PTN spelling.

Moves name squares by file and rank, not by index, so a move means the same thing on every board
size and prints without knowing the board. Whether a move is legal is the position's business
(:meth:`tak.Position.check`); this module only knows what a well-formed move looks like.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from enum import Enum, IntEnum
from typing import Any

from tak.errors import NotASquare, PTNError, quoted

FILES = "abcdefgh"
MIN_SIZE = 3
MAX_SIZE = 8
# The longest move is about 14 characters (`8a1>11111111*`) plus a few marks; anything much longer
# is refused before a regex or int() sees it.
MAX_MOVE_LENGTH = 32


class Color(IntEnum):
    """The two players. White is player 1 (moves first), Black is player 2 (gets the komi)."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def number(self) -> int:
        """1 or 2, as TPS and PTN results write the player."""
        return self + 1

    def __str__(self) -> str:
        return self.name.lower()


class Piece(IntEnum):
    """What a piece can be. Only the top piece of a stack can be a wall or a capstone."""

    FLAT = 0
    WALL = 1
    CAP = 2

    @property
    def letter(self) -> str:
        """The PTN letter: '' for a flat (F is implied), S for a wall, C for a capstone."""
        return ("", "S", "C")[self]


class Direction(Enum):
    """A spread's direction, with its PTN symbol and its step in (file, rank)."""

    UP = "+"
    DOWN = "-"
    RIGHT = ">"
    LEFT = "<"

    @property
    def step(self) -> tuple[int, int]:
        return _STEPS[self]


_STEPS = {
    Direction.UP: (0, 1),
    Direction.DOWN: (0, -1),
    Direction.RIGHT: (1, 0),
    Direction.LEFT: (-1, 0),
}


def by_fields(value: Any) -> tuple[object, tuple[object, ...]]:
    """`__reduce__` of the frozen dataclasses: pickle and copy through the constructor, since a
    compiled build (see README) cannot set a frozen field afterwards as `pickle` would."""
    return (type(value), tuple(getattr(value, field.name) for field in fields(value)))


def square_name(file: int, rank: int) -> str:
    """`square_name(0, 0) == "a1"`: files a..h left to right, ranks 1..8 upward."""
    return f"{FILES[file]}{rank + 1}"


def off_board(square: str, size: int | None = None) -> str:
    """Why `square` is refused, in one sentence naming the squares there are: on this board of
    `size`, or on any board when the board is not known."""
    last = FILES[(size or MAX_SIZE) - 1]
    where = f"this {size}x{size} board" if size else "any board (at most 8x8)"
    return (
        f"{square} is not a square on {where}, which has files a to {last} "
        f"and ranks 1 to {size or MAX_SIZE}."
    )


def _check_square(file: int, rank: int) -> None:
    if not (0 <= file < MAX_SIZE and 0 <= rank < MAX_SIZE):
        raise ValueError(f"({file}, {rank}) is not a square: files and ranks run from 0 to 7.")


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece placed from the reserve on an empty square."""

    file: int
    rank: int
    piece: Piece = Piece.FLAT

    def __post_init__(self) -> None:
        _check_square(self.file, self.rank)

    @property
    def square(self) -> str:
        return square_name(self.file, self.rank)

    def ptn(self) -> str:
        return f"{self.piece.letter}{self.square}"

    def __str__(self) -> str:
        return self.ptn()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Spread:
    """Pieces taken from the top of a stack and dropped, bottom first, along a straight line.

    `drops[i]` pieces land on the (i+1)-th square from the origin; their sum is the count.
    """

    file: int
    rank: int
    direction: Direction
    drops: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        _check_square(self.file, self.rank)

    @property
    def square(self) -> str:
        return square_name(self.file, self.rank)

    @property
    def count(self) -> int:
        return sum(self.drops)

    def path(self) -> list[tuple[int, int]]:
        """The (file, rank) of every square dropped on, in order; may leave the board."""
        df, dr = self.direction.step
        return [(self.file + df * i, self.rank + dr * i) for i in range(1, len(self.drops) + 1)]

    def ptn(self) -> str:
        count = self.count
        prefix = str(count) if count > 1 else ""
        drops = "".join(map(str, self.drops)) if len(self.drops) > 1 else ""
        return f"{prefix}{self.square}{self.direction.value}{drops}"

    def __str__(self) -> str:
        return self.ptn()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


Move = Placement | Spread


def spread_shape_problem(spread: Spread) -> str | None:
    """Why a spread is malformed on any board, or None (for the parser and the position)."""
    if not spread.drops:
        return "A spread must drop at least one piece."
    if any(d < 1 for d in spread.drops):
        return (
            f"{spread.ptn()} drops 0 pieces on a square, but every square walked needs at "
            "least one."
        )
    if spread.count > MAX_SIZE:
        return f"{spread.count} pieces is more than any board's carry limit (at most {MAX_SIZE})."
    return None


# Marks that may follow a ply: Tak ('), Tinuë ('' or "), and annotations (! ? and doubles).
# Digits are ASCII only: `\d` would let Arabic-Indic or other Unicode digits through.
_MOVE_RE = re.compile(
    r"(?P<count>[0-9]+)?(?P<piece>[FSCfsc])?(?P<file>[A-Za-z])(?P<rank>[0-9]+)"
    r"(?:(?P<dir>[-+<>])(?P<drops>[0-9]*)(?P<star>\*?))?"
    r"(?P<marks>['\"!?]*)"
)
_PIECES = {"F": Piece.FLAT, "S": Piece.WALL, "C": Piece.CAP}
_EXAMPLES = "a placement like a1, Sa1 (wall) or Ca1 (capstone), or a spread like a1> or 3a1>12"


def parse_move(text: str) -> Move:
    """Parse one move in PTN, leniently: an explicit F or count of 1, full drop lists, a `*`,
    trailing marks, surrounding spaces and either letter case are all accepted.

    Raises :class:`tak.PTNError` saying exactly what is wrong.
    """
    move, _marks = parse_move_with_marks(text)
    return move


def parse_move_with_marks(text: str) -> tuple[Move, str]:
    """Like :func:`parse_move`, also returning the marks written after the move (e.g. `'!`)."""
    stripped = text.strip()
    if not stripped:
        raise PTNError(f"Type a move: {_EXAMPLES}.")
    if len(stripped) > MAX_MOVE_LENGTH:
        raise PTNError(
            f"{quoted(stripped)} is too long for a move (at most {MAX_MOVE_LENGTH} characters). "
            f"Write {_EXAMPLES}."
        )
    match = _MOVE_RE.fullmatch(stripped)
    if match is None:
        raise PTNError(f"{stripped!r} is not a move in PTN. Write {_EXAMPLES}.")
    file_letter = match["file"].lower()
    rank = int(match["rank"])
    if file_letter not in FILES or not 1 <= rank <= MAX_SIZE:
        square = f"{file_letter}{rank}"
        raise NotASquare(off_board(square), square)
    file = FILES.index(file_letter)
    marks = match["marks"]
    if match["dir"] is None:
        if match["count"] is not None:
            raise PTNError(
                f"{stripped} picks up pieces but gives no direction: add +, -, < or > "
                f"(for example {match['count']}{file_letter}{rank}>)."
            )
        piece = _PIECES[(match["piece"] or "F").upper()]
        return Placement(file, rank - 1, piece), marks
    if match["piece"] is not None and match["piece"].upper() != "F":
        raise PTNError(
            f"A spread moves a stack, so it takes no piece letter: write "
            f"{stripped[stripped.index(match['piece']) + 1 :]} instead of {stripped}."
        )
    count = int(match["count"]) if match["count"] is not None else None
    if count == 0:
        raise PTNError(f"{stripped} picks up 0 pieces: a spread moves at least one.")
    drops = tuple(int(d) for d in match["drops"]) if match["drops"] else (count or 1,)
    spread = Spread(file, rank - 1, Direction(match["dir"]), drops)
    problem = spread_shape_problem(spread)
    if problem:
        raise PTNError(problem)
    picked_up = count if count is not None else 1
    if spread.count != picked_up:
        digits = match["drops"]
        raise PTNError(
            f"The drops {digits} add up to {spread.count}, but {stripped} picks up {picked_up} "
            f"piece{'s' if picked_up != 1 else ''} (did you mean {spread.ptn()}?)."
        )
    return spread, marks
