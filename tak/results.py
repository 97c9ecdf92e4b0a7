"""How games end, and the PTN result strings that record it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tak.errors import PTNError, quoted
from tak.moves import Color, by_fields


class ResultKind(Enum):
    """Why a game ended. ROAD and FLATS come from the board; the rest from the players or clock."""

    ROAD = "road"
    FLATS = "flats"
    RESIGNATION = "resignation"
    TIME = "time"
    AGREEMENT = "agreement"
    ABORT = "abort"
    # A PTN file's "1-0" says who won but not whether by resignation or time.
    OTHER = "other"

    @property
    def on_board(self) -> bool:
        return self in (ResultKind.ROAD, ResultKind.FLATS)


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: the winner (None for a draw or an abort), why, and a road's squares.

    `road` lists (file, rank) pairs from one edge to the opposite one, for drawing.
    """

    winner: Color | None
    kind: ResultKind
    road: tuple[tuple[int, int], ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.kind is not ResultKind.ABORT

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return by_fields(self)

    def ptn(self) -> str:
        """`R-0 0-R F-0 0-F 1-0 0-1 1/2-1/2`, and `0-0` for an aborted game."""
        if self.kind is ResultKind.ABORT:
            return "0-0"
        if self.winner is None:
            return "1/2-1/2"
        letter = {ResultKind.ROAD: "R", ResultKind.FLATS: "F"}.get(self.kind, "1")
        return f"{letter}-0" if self.winner is Color.WHITE else f"0-{letter}"

    def describe(self) -> str:
        """A sentence for people: 'White wins by road.'"""
        if self.kind is ResultKind.ABORT:
            return "The game was aborted."
        if self.winner is None:
            if self.kind is ResultKind.AGREEMENT:
                return "Draw by agreement."
            return "Draw: the flat count is tied."
        how = {
            ResultKind.ROAD: "by road",
            ResultKind.FLATS: "on flats",
            ResultKind.RESIGNATION: "by resignation",
            ResultKind.TIME: "on time",
            ResultKind.OTHER: "",
        }[self.kind]
        return f"{str(self.winner).capitalize()} wins {how}".rstrip() + "."

    def __str__(self) -> str:
        return self.ptn()


def parse_result(text: str) -> Result:
    """Read a PTN result string. Board results come back without road squares."""
    token = text.strip().upper()
    fixed = {"1/2-1/2": Result(None, ResultKind.FLATS), "0-0": Result(None, ResultKind.ABORT)}
    if token in fixed:
        return fixed[token]
    kinds = {"R": ResultKind.ROAD, "F": ResultKind.FLATS, "1": ResultKind.OTHER}
    left, sep, right = token.partition("-")
    if sep and right == "0" and left in kinds:
        return Result(Color.WHITE, kinds[left])
    if sep and left == "0" and right in kinds:
        return Result(Color.BLACK, kinds[right])
    raise PTNError(
        f"{quoted(text.strip())} is not a PTN result: use R-0, 0-R, F-0, 0-F, 1-0, 0-1, 1/2-1/2 "
        "or 0-0."
    )
