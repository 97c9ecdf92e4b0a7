"""Tak rules engine: positions, moves, PTN and TPS, results, roads, Tak threats and Tinuë.

Python with no dependencies and no I/O, its hot modules compiled with mypyc where the install
could (`tak.BUILD` says which build runs, `python -m tak build` prints it)::

    >>> from tak import Position
    >>> position = Position(6, komi=2)
    >>> position.play("a1")
    Placement(file=0, rank=0, piece=<Piece.FLAT: 0>)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# First, before any module that may be compiled: which build runs (tak/compiled.py).
from tak.compiled import BUILD

if TYPE_CHECKING:
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
    from tak.standard import MAX_KOMI, STANDARD_RESERVES
    from tak.starts import start_position
    from tak.tinue import Call, Verdict, is_tinue, judge
    from tak.tinue import call as tak_call
    from tak.tps import Board, Stack, format_tps, parse_tps

# The modules that define the names of `__all__`: each name is imported from the first of them that
# has it, when first asked for (PEP 562), so that `python -m tak tei` answers its handshake before
# loading the rules.
_SOURCES = (
    "tak.errors",
    "tak.moves",
    "tak.standard",
    "tak.position",
    "tak.reserves",
    "tak.results",
    "tak.starts",
    "tak.tinue",
    "tak.tps",
)
_RENAMED = {"tak_call": ("tak.tinue", "call")}


def __getattr__(name: str) -> object:
    """A name of `__all__`, imported from its module on first use; or a submodule (`tak.search`)."""
    value: object
    if name in _RENAMED:
        module, attribute = _RENAMED[name]
        value = getattr(importlib.import_module(module), attribute)
    elif name in __all__:
        modules = map(importlib.import_module, _SOURCES)
        value = next(getattr(module, name) for module in modules if hasattr(module, name))
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


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
