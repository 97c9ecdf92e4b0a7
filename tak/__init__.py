"""Tak rules engine: positions, moves, PTN and TPS, results, roads, Tak threats and Tinuë.

Python with no dependencies and no I/O, its hot modules compiled with mypyc where the install
could (`tak.BUILD` says which build runs, `python -m tak build` prints it)::

    >>> from tak import Position
    >>> position = Position(6, komi=2)
    >>> position.play("a1")
    Placement(file=0, rank=0, piece=<Piece.FLAT: 0>)
"""

# First, before any module that may be compiled: which build runs (tak/compiled.py).
from tak.compiled import BUILD
from tak.errors import IllegalMoveError, PTNError, SetupError, TakError, TPSError
from tak.moves import (
    Color,
    Direction,
    Move,
    Piece,
    Placement,
    Spread,
    parse_move,
    parse_move_with_marks,
    square_name,
)
from tak.position import (
    MAX_KOMI,
    STANDARD_RESERVES,
    Geometry,
    Opening,
    Position,
    Reserves,
    equivalent_komi,
    perft,
    reserve_problem,
)
from tak.reserves import playable_reserve_problem
from tak.results import Result, ResultKind, parse_result
from tak.starts import start_position
from tak.tinue import Call, Verdict, is_tinue, judge
from tak.tinue import call as tak_call
from tak.tps import Board, Stack, format_tps, parse_tps

__all__ = [
    "BUILD",
    "MAX_KOMI",
    "STANDARD_RESERVES",
    "Board",
    "Call",
    "Color",
    "Direction",
    "Geometry",
    "IllegalMoveError",
    "Move",
    "Opening",
    "PTNError",
    "Piece",
    "Placement",
    "Position",
    "Reserves",
    "Result",
    "ResultKind",
    "SetupError",
    "Spread",
    "Stack",
    "TPSError",
    "TakError",
    "Verdict",
    "equivalent_komi",
    "format_tps",
    "is_tinue",
    "judge",
    "parse_move",
    "parse_move_with_marks",
    "parse_result",
    "parse_tps",
    "perft",
    "playable_reserve_problem",
    "reserve_problem",
    "square_name",
    "start_position",
    "tak_call",
]
