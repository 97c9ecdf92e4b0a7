"""Perft against published numbers: start positions, and the mid-game positions of
ViliamVadocz/tak-perft (src/perft.zig) and MortenLohne/tiltak (src/tests/move_gen_*_tests.rs).

tak-perft counts a finished game as 0 below it, as we do. tiltak counts a finished game as one
leaf at any remaining depth, so its positions are compared through `_perft_finished_is_leaf`.
Depths that take more than a few seconds carry the `slow` mark: run them with `pytest -m slow`.
"""

from __future__ import annotations

import pytest

from tak import Position, perft

START = {
    3: [9, 72, 1200, 17792, 271812, 3712952],
    4: [16, 240, 7440, 216464],
    5: [25, 600, 43320, 2999784],
    6: [36, 1260, 132720, 13586048],
    7: [49, 2352, 339696, 48051008],
    8: [64, 4032, 764064, 142512336],
}
FAST_NODES = 300_000


def _cases(table: dict[str, list[int]]) -> list:
    cases = []
    for start, counts in table.items():
        for depth, count in enumerate(counts, 1):
            marks = [pytest.mark.slow] if count > FAST_NODES else []
            cases.append(pytest.param(start, depth, count, marks=marks, id=f"{start[:24]}-{depth}"))
    return cases


@pytest.mark.parametrize(
    ("start", "depth", "count"),
    _cases({f"{'/'.join([f'x{n}'] * n)} 1 1": counts for n, counts in START.items()}),
)
def test_start_positions(start: str, depth: int, count: int) -> None:
    assert perft(Position.from_tps(start), depth) == count


TAK_PERFT = {
    # "complicated"
    "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/"
    "21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33": [56, 17322, 1419637],
    "x2,2,22,2C,1/21221S,1112,x,2211,1,2/x2,111S,x,11S,12S/11S,1S,2S,2,12S,1211C/"
    "x,12S,2,122S,x,212S/12,x2,1S,22222S,21121 2 31": [108, 11169, 991034],
    "2,x,2,111S,2,12/2,122S,2122,1S,x,1/x,111,1,11S,x2/21122112C,x,212S,2S,2,1212S/"
    "1,112S,21221S,2S,x2/21,222,x,12S,x2 2 30": [197, 15300, 2616619],
    "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/"
    "2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41": [203, 43807, 9102472],
    "1,1,x5/x,12,1S,111,2S,211,2/12S,2,1C,21212S,212,21,2C/x,211S,122,2221,21,22,1/"
    "x,1,221,12,1,1,1112S/x,1,12222S,2,222,112121S,122/1,x,1,x,2,12,11S 2 41": [253, 63284],
    "2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/"
    "1S,2S,1S,111222111C,x,2S,1S,2S/2S,1S,2S,x,222111222C,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/"
    "2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S 2 40": [42, 1298, 11632, 223448, 4623236],
    "x,1,1,1S,1S,1S,1S,1S/1,x,1,1,2S,2S,1C,1S/1,1,x,1,1,2C,2S,1S/1S,1,1,x,1,1,2S,1S/"
    "1S,2S,1,1,x,1,1,1S/1S,2S,2C,1,1,x,1,1/1S,1C,2S,2S,1,1,x,1/1S,1S,1S,1S,1S,1,1,x 2 50": [
        32,
        3400,
        92372,
        9968672,
    ],
    # "capstone blocking smash"
    "x5/x5/2S,211C,2C,212S,x/x5/x5 1 7": [55, 3314, 175900, 10062310],
    "x6/x4,1S,x/x2,21111S,1C,22122C,x/x6/x6/x6 2 11": [95, 11683, 1035124],
    "x7/1C,1112S,x,112211C,2S,2C,1S/x7/x3,222C,x3/x3,2S,x3/x3,1S,x3/x7 1 10": [112, 14248, 1693182],
    "x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14": [
        148,
        16516,
        2446613,
    ],
    # "max stacks": reserves nearly spent, so games end inside the horizon
    "x3/x,111222111222111222,x/x3 2 10": [28, 216, 1224, 13272, 167800],
    "x4/x4/x2,1112221112221112221112221122,x/x4 2 15": [58, 1188, 24596, 726346],
    "x5/x5/x2,111222111222111222111222111222111222111222C,x2/x5/x5 2 22": [108, 3740, 236696],
    "x6/x6/x6/x3,111222111222111222111222111222111222111222111222111222111222C,x2/x6/x6 2 31": [
        194,
        11334,
        963760,
    ],
}


@pytest.mark.parametrize(("start", "depth", "count"), _cases(TAK_PERFT))
def test_tak_perft_positions(start: str, depth: int, count: int) -> None:
    assert perft(Position.from_tps(start), depth) == count


def _perft_finished_is_leaf(position: Position, depth: int) -> int:
    """tiltak's perft: a finished game is one leaf whatever the depth left."""
    if depth == 0 or position.result is not None:
        return 1
    total = 0
    for move in position.legal_moves():
        position.push(move)
        total += _perft_finished_is_leaf(position, depth - 1)
        position.pop()
    return total


TILTAK_MOVES = {
    "d3 c3 c4 1d3< 1c4- Sc4": [87, 6155, 461800],
    "c2 c3 d3 b3 c4 1c2+ 1d3< 1b3> 1c4- Cc2 a1 1c2+ a2": [104, 7743, 592645],
    # The "suicide" test: moves that complete the opponent's road too.
    "c4 c2 d2 c3 b2 d3 1d2+ b3 d2 b4 1c2+ 1b3> 2d3< 1c4- d4 5c3<23 c2 c4 1d4< d3 1d2+ 1c3+ Cc3 "
    "2c4> 1c3< d2 c3 1d2+ 1c3+ 1b4> 2b3>11 3c4-12 d2 c4 b4 c5 1b3> 1c4< 3c3- e5 e2": [
        85,
        11206,
        957000,
    ],
}


@pytest.mark.parametrize(("moves", "depth", "count"), _cases(TILTAK_MOVES))
def test_tiltak_positions(moves: str, depth: int, count: int) -> None:
    position = Position(5)
    for move in moves.split():
        position.play(move)
    assert _perft_finished_is_leaf(position, depth) == count


TILTAK_ENDGAME = (
    "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/"
    "1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"
)


@pytest.mark.parametrize(
    ("depth", "count"), [(1, 140), (2, 21413), pytest.param(3, 2774947, marks=pytest.mark.slow)]
)
def test_tiltak_endgame(depth: int, count: int) -> None:
    assert _perft_finished_is_leaf(Position.from_tps(TILTAK_ENDGAME), depth) == count


def test_conventions_differ_only_by_finished_games() -> None:
    """The two conventions differ at depth 2 by exactly the moves that end the game at once."""
    position = Position.from_tps(TILTAK_ENDGAME)
    finishing = 0
    for move in position.legal_moves():
        position.push(move)
        finishing += position.result is not None
        position.pop()
    assert finishing > 0
    assert _perft_finished_is_leaf(position, 2) - perft(position, 2) == finishing
