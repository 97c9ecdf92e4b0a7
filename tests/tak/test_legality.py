"""Every illegal move is refused with a reason a player understands, and changes nothing."""

from __future__ import annotations

import pytest

from tak import IllegalMoveError, Position


def _position(tps: str, **options: object) -> Position:
    return Position.from_tps(tps, **options)  # type: ignore[arg-type]


MIDGAME = "x4,2/x5/x2,1S,x2/x,2,1C,2,x/1,x3,2S 1 4"  # 5x5, White to move


@pytest.mark.parametrize(
    ("tps", "move", "reason"),
    [
        (MIDGAME, "b2", "b2 is occupied, and pieces can only be placed on empty squares."),
        (
            MIDGAME,
            "f1",
            "f1 is not a square on this 5x5 board, which has files a to e and ranks 1 to 5.",
        ),
        (MIDGAME, "b2+", "b2 is topped by black's piece"),
        (MIDGAME, "2c2+", "c2 holds only 1 piece, so you can't pick up 2."),
        ("x3/x,21,x/x,1S,x 1 3", "b2-", "b1 holds a wall, and only a capstone moving alone"),
        ("x5/x5/x5/x,1,2C,x2/x5 1 3", "b2>", "c2 holds a capstone, and nothing can move onto it."),
        (
            "x5/x5/x,221C,2S,x2/x5/x5 1 5",
            "2b3>",
            "c3 holds a wall, and only a capstone moving alone can flatten it, so the last drop",
        ),
        (
            "x5/x5/x,221C,x,2S,x/x5/x5 1 5",
            "3b3>111",
            "d3 holds a wall, and a capstone flattens a wall only with its last drop",
        ),
        ("x5/x5/x,1111111C,x3/x5/x5 1 8", "6b3>", "You can carry at most 5 pieces on 5x5, not 6."),
        ("x3/x3/x,11,x 1 3", "2b1<11", "2b1<11 walks off the board, dropping on 2 squares"),
        ("x3/x3/x3 1 1", "Sa1", "No walls in the first two plies"),
        ("x5/x5/x5/x5/x5 1 1", "Ca1", "No capstones in the first two plies"),
        ("x3/x3/x,2,x 2 1", "b1>", "No stack can move in the first two plies"),
        ("x3/x3/x,1,x 1 2", "Cc3", "White has no capstones in this game."),
    ],
)
def test_reasons(tps: str, move: str, reason: str) -> None:
    position = _position(tps)
    before = position.tps()
    with pytest.raises(IllegalMoveError) as caught:
        position.play(move)
    assert reason in str(caught.value)
    assert position.tps() == before
    assert not position.is_legal(move)


def test_empty_origin() -> None:
    position = _position(MIDGAME)
    with pytest.raises(IllegalMoveError, match="e2 is empty, so there is no stack to move"):
        position.play("e2+")


def test_no_stones_left_but_a_capstone() -> None:
    position = _position("x5/x5/x5/x5/1,2,x3 1 2", stones=(1, 21))
    with pytest.raises(IllegalMoveError, match="no stones left, only your capstone"):
        position.play("c1")
    with pytest.raises(IllegalMoveError, match="no stones left"):
        position.play("Sc1")
    position.play("Cc1")  # the capstone is still there to play
    assert position.result is not None  # ... and playing it ran White out of pieces


def test_no_capstone_left() -> None:
    position = _position("x5/x5/x5/x5/1C,2,1,x2 2 3")
    position.play("d1")
    with pytest.raises(IllegalMoveError, match="no capstone left"):
        position.play("Ce5")


def test_game_over() -> None:
    position = _position("x3/x3/1,1,1 2 3")
    assert position.result is not None
    with pytest.raises(IllegalMoveError, match=r"The game is over \(R-0\)"):
        position.play("a3")
    assert position.legal_moves() == []


def test_capstone_flattens_a_wall_alone_at_the_end() -> None:
    position = _position("x5/x5/x,221C,x,2S,x/x5/x5 1 5")
    position.play("3b3>21")
    assert position.stack(3, 2).top.name == "CAP"
    assert position.stack(3, 2).colors[-2].name == "BLACK"  # the flattened wall, now a flat
    position.pop()
    assert position.tps() == "x5/x5/x,221C,x,2S,x/x5/x5 1 5"
