"""Reserves a game can be *played* with, beyond those a position can be set up with.

:func:`tak.reserve_problem` refuses what no position can start from (no piece at all, no stone
for the swap opening's placement). A challenge asks more: that both players can build a road.
A road needs one of its owner's pieces on every square of a line across the board, so a player
with fewer pieces than the board's size never has one, and the game is only a race to run out
of pieces and count flats: `stones:1 caps:0` on 3x3 ends after one ply, `stones:0 caps:1`
without the swap opening after one ply too.
"""

from __future__ import annotations

from tak.position import Opening, PerPlayer, reserve_problem
from tak.standard import STANDARD_RESERVES


def playable_reserve_problem(
    size: int,
    stones: PerPlayer = None,
    caps: PerPlayer = None,
    opening: Opening | str = Opening.SWAP,
) -> str | None:
    """Why these reserves make no real game (see the module), or None. Includes
    :func:`tak.reserve_problem`'s reasons, which come first."""
    problem = reserve_problem(size, stones, caps, opening)
    if problem is not None:
        return problem
    default_stones, default_caps = STANDARD_RESERVES[size]
    stone_pair = _pair(stones, default_stones)
    cap_pair = _pair(caps, default_caps)
    fewest = min(s + c for s, c in zip(stone_pair, cap_pair, strict=True))
    if fewest < size:
        return (
            f"Each player needs at least {size} pieces (stones and capstones) on {size}x{size}: "
            f"a road covers {size} squares, so with {fewest} no road could ever be built."
        )
    return None


def _pair(value: PerPlayer, default: int) -> tuple[int, int]:
    if value is None:
        return (default, default)
    if isinstance(value, int):
        return (value, value)
    return (value[0], value[1])
