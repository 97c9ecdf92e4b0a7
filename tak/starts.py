"""Games that start from a position given in TPS (a lesson, a puzzle, an adjourned game).

A TPS says where the pieces stand and who is to move; the game's settings (size, komi, reserves,
opening) say what is left to play with. :func:`start_position` checks that the two fit and that
there is a game left to play, with one sentence a player can read for each way they do not.
"""

from __future__ import annotations

from tak.errors import IllegalMoveError, SetupError
from tak.position import Opening, PerPlayer, Position
from tak.tps import parse_tps


def start_position(
    tps: str,
    *,
    size: int | None = None,
    komi: object = 0,
    stones: PerPlayer = None,
    caps: PerPlayer = None,
    opening: object = Opening.SWAP,
    ties_to_black: object = False,
) -> Position:
    """The position a new game starts from. Raises :class:`tak.TPSError` for text that is not a
    TPS, and :class:`tak.SetupError` when the board is not `size` (if given), holds more pieces
    than the reserves, or the game is already over there."""
    board = parse_tps(tps)
    if size is not None and size != board.size:
        raise SetupError(
            f"The TPS is a {board.size}x{board.size} board, but the size asked for is {size}: "
            "leave the size out, or give the TPS of a board that size."
        )
    try:
        position = Position.from_tps(
            tps,
            komi=komi,
            stones=stones,
            caps=caps,
            opening=opening,
            ties_to_black=ties_to_black,
        )
    except IllegalMoveError as error:
        raise SetupError(f"{error} Give more stones or capstones, or another position.") from None
    if position.result is not None:
        raise SetupError(
            f"The game is already over in that position: {position.result.describe()} "
            "A new game needs a position with moves left to play."
        )
    return position
