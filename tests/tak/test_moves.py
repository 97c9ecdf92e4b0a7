"""PTN moves: what people type is read leniently, printed canonically, and refused precisely."""

from __future__ import annotations

import pytest

from tak import Direction, Piece, Placement, PTNError, Spread, parse_move, parse_move_with_marks


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("a1", Placement(0, 0)),
        ("Fa1", Placement(0, 0)),
        ("Sb2", Placement(1, 1, Piece.WALL)),
        ("Ch8", Placement(7, 7, Piece.CAP)),
        ("sb2", Placement(1, 1, Piece.WALL)),
        ("cc3", Placement(2, 2, Piece.CAP)),
        ("C3", Placement(2, 2)),
        ("  d4  ", Placement(3, 3)),
        ("a1>", Spread(0, 0, Direction.RIGHT, (1,))),
        ("1a1>", Spread(0, 0, Direction.RIGHT, (1,))),
        ("1a1>1", Spread(0, 0, Direction.RIGHT, (1,))),
        ("3a1>12", Spread(0, 0, Direction.RIGHT, (1, 2))),
        ("3a1>3", Spread(0, 0, Direction.RIGHT, (3,))),
        ("3a1+", Spread(0, 0, Direction.UP, (3,))),
        ("2c3-11*", Spread(2, 2, Direction.DOWN, (1, 1))),
        ("5e5<212'", Spread(4, 4, Direction.LEFT, (2, 1, 2))),
        ("a1>*!?", Spread(0, 0, Direction.RIGHT, (1,))),
    ],
)
def test_accepts_what_people_type(text: str, move: object) -> None:
    assert parse_move(text) == move


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Placement(0, 0), "a1"),
        (Placement(1, 1, Piece.WALL), "Sb2"),
        (Placement(2, 2, Piece.CAP), "Cc3"),
        (Spread(0, 0, Direction.RIGHT, (1,)), "a1>"),
        (Spread(0, 0, Direction.RIGHT, (3,)), "3a1>"),
        (Spread(0, 0, Direction.RIGHT, (1, 2)), "3a1>12"),
        (Spread(7, 7, Direction.DOWN, (1, 1, 1, 1, 1, 1, 1)), "7h8-1111111"),
    ],
)
def test_canonical_output(move: object, text: str) -> None:
    assert str(move) == text


def test_marks_are_returned() -> None:
    assert parse_move_with_marks("Cc3''!") == (Placement(2, 2, Piece.CAP), "''!")
    assert parse_move_with_marks('a1"') == (Placement(0, 0), '"')


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Type a move"),
        ("   ", "Type a move"),
        ("hello", "'hello' is not a move in PTN"),
        ("a1>>", "not a move in PTN"),
        ("i1", "i1 is not a square"),
        ("a9", "a9 is not a square"),
        ("a0", "a0 is not a square"),
        ("3a1", "3a1 picks up pieces but gives no direction"),
        ("Sa1>", "takes no piece letter: write a1>"),
        ("0a1>", "picks up 0 pieces"),
        ("3a1>102", "drops 0 pieces on a square"),
        ("3a1>11", "The drops 11 add up to 2, but 3a1>11 picks up 3 pieces"),
        ("a1>12", "did you mean 3a1>12?"),
        ("9a1>", "more than any board's carry limit"),
        # Digits are ASCII: int() would read these as 3, 1 and 4.
        ("a٣", "'a٣' is not a move in PTN"),
        ("١a1>", "is not a move in PTN"),
        ("a1>۴", "is not a move in PTN"),
        ("a²", "is not a move in PTN"),
        ("5" * 5000 + "a1>", "too long for a move (at most 32 characters)"),
    ],
)
def test_refuses_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(PTNError) as caught:
        parse_move(text)
    assert reason in str(caught.value)


@pytest.mark.parametrize("square", [(8, 0), (0, 8), (-1, 2)])
def test_moves_refuse_squares_no_board_has(square: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="is not a square"):
        Placement(*square)
    with pytest.raises(ValueError, match="is not a square"):
        Spread(*square, Direction.UP)
