"""TPS (Tak Positional System): one line for a whole position, as PTN Ninja and PlayTak write it.

`x6/x6/x6/x6/x6/x6 1 1`: rows from the top rank down; squares separated by `,`; `x` or `xN` for
empty squares; a stack as its colours (1 or 2) bottom to top, with S or C after a wall or capstone
on top; then the player to move and the move number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tak.errors import TPSError, quoted
from tak.moves import MAX_SIZE, MIN_SIZE, Color, Piece, by_fields

# An 8x8 board holding every piece of two 200-stone, 200-capstone reserves takes under 1,000
# characters; a longer text is refused before it is split up.
MAX_TPS_LENGTH = 2_000
MAX_MOVE_NUMBER = 999_999
_STACK_RE = re.compile(r"([12]+)([SC]?)")
_EMPTY_RE = re.compile(r"x([0-9]*)")
_NUMBER_RE = re.compile(r"[0-9]{1,6}")  # ASCII only: str.isdigit() would let "²" through


@dataclass(frozen=True, slots=True)
class Stack:
    """The pieces on one square: colours bottom to top, and what the top piece is."""

    colors: tuple[Color, ...] = ()
    top: Piece = Piece.FLAT

    @property
    def height(self) -> int:
        return len(self.colors)

    @property
    def owner(self) -> Color | None:
        """Whoever's piece is on top, and so may move the stack."""
        return self.colors[-1] if self.colors else None

    def tps(self) -> str:
        if not self.colors:
            return "x"
        return "".join(str(c.number) for c in self.colors) + self.top.letter

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Board:
    """What a TPS string holds: `squares[rank][file]`, rank 0 being rank 1."""

    squares: tuple[tuple[Stack, ...], ...]
    to_move: Color
    move_number: int

    @property
    def size(self) -> int:
        return len(self.squares)

    @property
    def ply(self) -> int:
        """Plies played before this position: move 1 with White to move is ply 0."""
        return (self.move_number - 1) * 2 + self.to_move

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)


def parse_tps(text: str) -> Board:
    """Read a TPS string; raise :class:`tak.TPSError` naming the part that is wrong."""
    if len(text) > MAX_TPS_LENGTH:
        raise TPSError(
            f"A TPS position is at most {MAX_TPS_LENGTH:,} characters long; this one has "
            f"{len(text):,}."
        )
    parts = text.strip().removeprefix("[TPS").strip().strip('[]"').split()
    if len(parts) != 3:
        raise TPSError(
            "A TPS position has three parts separated by spaces: the rows, the player to move "
            "and the move number, like x6/x6/x6/x6/x6/x6 1 1."
        )
    rows_text, player_text, number_text = parts
    rows = rows_text.split("/")
    size = len(rows)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise TPSError(f"The TPS has {size} rows, but boards are 3x3 to 8x8.")
    squares: list[tuple[Stack, ...]] = []
    for index, row in enumerate(rows):
        rank = size - index
        stacks = _parse_row(row, rank, size)
        if len(stacks) != size:
            raise TPSError(
                f"Rank {rank} ({quoted(row)}) has {len(stacks)} squares, but the board is "
                f"{size}x{size}."
            )
        squares.append(tuple(stacks))
    squares.reverse()
    if player_text not in ("1", "2"):
        raise TPSError(f"The player to move must be 1 or 2, not {quoted(player_text)}.")
    if not _NUMBER_RE.fullmatch(number_text) or int(number_text) < 1:
        raise TPSError(
            f"The move number must be a whole number from 1 to {MAX_MOVE_NUMBER:,}, "
            f"not {quoted(number_text)}."
        )
    return Board(tuple(squares), Color(int(player_text) - 1), int(number_text))


def _parse_row(row: str, rank: int, size: int) -> list[Stack]:
    stacks: list[Stack] = []
    for token in row.split(","):
        empty = _EMPTY_RE.fullmatch(token)
        if empty:
            digits = empty[1] or "1"
            if len(digits) > 1 or digits == "0":
                raise TPSError(
                    f"Rank {rank}: {quoted(token)} is not a run of empty squares: write x, or x2 "
                    f"to x{size}."
                )
            count = int(digits)
            if len(stacks) + count > size:
                raise TPSError(
                    f"Rank {rank} ({quoted(row)}) has more than {size} squares, but the board "
                    f"is {size}x{size}."
                )
            stacks.extend([Stack()] * count)
            continue
        match = _STACK_RE.fullmatch(token)
        if match is None:
            raise TPSError(
                f"Rank {rank}: {quoted(token)} is not a square. Write x (or x3 for three empty "
                "squares) or a stack's colours bottom to top, like 12 or 121S or 2C."
            )
        colors = tuple(Color(int(c) - 1) for c in match[1])
        top = {"": Piece.FLAT, "S": Piece.WALL, "C": Piece.CAP}[match[2]]
        stacks.append(Stack(colors, top))
    return stacks


def format_tps(board: Board) -> str:
    """Write a TPS string, merging runs of empty squares as PTN Ninja does (`x3`)."""
    rows = [
        row_text(stack.tps() if stack.colors else "" for stack in rank)
        for rank in reversed(board.squares)
    ]
    return f"{'/'.join(rows)} {board.to_move.number} {board.move_number}"


def row_text(squares: Iterable[str]) -> str:
    """One TPS row from its squares' texts, "" standing for an empty square."""
    tokens: list[str] = []
    empties = 0
    for text in squares:
        if not text:
            empties += 1
            continue
        if empties:
            tokens.append("x" if empties == 1 else f"x{empties}")
            empties = 0
        tokens.append(text)
    if empties:
        tokens.append("x" if empties == 1 else f"x{empties}")
    return ",".join(tokens)
