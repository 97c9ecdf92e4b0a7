"""What a game can be set up with: board size, komi and reserves, refused with the reason before
a single move, so that no game starts that the opening would break or PTN could not carry."""

from __future__ import annotations

import math
import re

import pytest

from tak import (
    MAX_KOMI,
    Color,
    Opening,
    Position,
    SetupError,
    TakError,
    TPSError,
    parse_tps,
    playable_reserve_problem,
    reserve_problem,
)

NO_STONE = "Each player needs at least one stone for the opening"
NO_PIECE = "Each player needs at least one piece"


@pytest.mark.parametrize(
    ("stones", "caps", "opening", "reason"),
    [
        (0, 1, Opening.SWAP, NO_STONE),  # the bug: the game ended after one ply
        ((1, 0), 1, Opening.SWAP, NO_STONE),
        (0, 0, Opening.SWAP, NO_PIECE),
        (0, 0, Opening.NO_SWAP, NO_PIECE),
        ((5, 0), 0, Opening.NO_SWAP, NO_PIECE),
        (201, 1, Opening.SWAP, "Stones must be a whole number from 0 to 200"),
        (-1, 1, Opening.SWAP, "Stones must be a whole number from 0 to 200"),
        (10, (1, 2, 3), Opening.SWAP, "Capstones must be a whole number from 0 to 200"),
        (True, 1, Opening.SWAP, "Stones must be a whole number"),
    ],
)
def test_reserves_that_break_the_game_are_refused(
    stones: object, caps: object, opening: Opening, reason: str
) -> None:
    problem = reserve_problem(5, stones, caps, opening)  # type: ignore[arg-type]
    assert problem is not None and problem.startswith(reason)
    with pytest.raises(SetupError) as caught:
        Position(5, stones=stones, caps=caps, opening=opening)  # type: ignore[arg-type]
    assert str(caught.value) == problem


@pytest.mark.parametrize(
    ("stones", "caps", "opening"),
    [
        (None, None, Opening.SWAP),
        (1, 0, Opening.SWAP),  # one stone each is enough for the opening
        (0, 1, Opening.NO_SWAP),  # without the swap a capstone can open
        ((30, 1), (1, 0), Opening.SWAP),
    ],
)
def test_reserves_a_game_can_start_with(stones: object, caps: object, opening: Opening) -> None:
    assert reserve_problem(5, stones, caps, opening) is None  # type: ignore[arg-type]
    position = Position(5, stones=stones, caps=caps, opening=opening)  # type: ignore[arg-type]
    assert position.legal_moves()
    position.push(position.legal_moves()[0])
    assert all(position.reserves(color).stones >= 0 for color in Color)


def test_one_stone_each_makes_a_game_of_one_ply() -> None:
    # Allowed, if short: White places Black's only stone, Black is out of pieces, flats decide.
    position = Position(3, stones=1, caps=0)
    position.play("a1")
    assert position.result is not None and position.result.ptn() == "0-F"


@pytest.mark.parametrize("size", [2, 9, 0, -3, 3.0, "5", True, None])
def test_board_sizes_run_from_3_to_8(size: object) -> None:
    problem = reserve_problem(size)  # type: ignore[arg-type]
    assert problem == "The board size must be a whole number: sizes run from 3 to 8."
    with pytest.raises(SetupError, match="sizes run from 3 to 8"):
        Position(size)  # type: ignore[arg-type]


@pytest.mark.parametrize("komi", [4.5, -4.5, 0, 2, 2.5, -0.5, 3])
def test_komi_runs_in_half_flats_up_to_the_cap(komi: float) -> None:
    assert Position(6, komi=komi).komi == komi


@pytest.mark.parametrize(
    "komi",
    [
        *(5, -5, 4.75, 0.3, 10, math.inf, -math.inf, math.nan, 1e308, "2", True),
        pytest.param(10**5000, id="5000 digits"),  # str() of it is refused, so name it
    ],
)
def test_komi_beyond_what_ptn_ninja_and_playtak_read_is_refused(komi: object) -> None:
    assert MAX_KOMI == 4.5
    with pytest.raises(SetupError, match=r"Komi must be a multiple of 0.5 from -4.5 to 4.5"):
        Position(6, komi=komi)  # type: ignore[arg-type]


def test_an_unknown_opening_is_refused() -> None:
    with pytest.raises(SetupError, match="The opening must be 'swap' or 'no-swap', not 'x'"):
        Position(6, opening="x")


def test_setup_errors_are_the_library_errors_a_caller_already_catches() -> None:
    assert issubclass(SetupError, TakError) and issubclass(SetupError, ValueError)


def test_a_tps_whose_opening_placement_has_no_stone_is_refused() -> None:
    # Black has placed White's only stone; White would place Black's flat from an empty hand.
    position = Position.from_tps("x3/x3/x,1,x 2 1", stones=(1, 1), caps=(1, 1))
    assert not position.is_legal("a1")


@pytest.mark.parametrize(
    ("tps", "reason"),
    [
        ("x5/x5/x5/x5/x5 1 ²", "The move number must be a whole number from 1 to 999,999"),
        ("x5/x5/x5/x5/x5 1 ٣", "The move number must be a whole number"),
        ("x5/x5/x5/x5/x5 1 " + "9" * 5000, "at most 2,000 characters"),
        ("x5/x5/x5/x5/x5 1 1000000", "from 1 to 999,999"),
        ("x5/x5/x5/x5/x5 ١ 1", "The player to move must be 1 or 2"),
        ("x999999999// 1 1", "'x999999999' is not a run of empty squares: write x, or x2 to x3"),
        ("x٣,x2/x3/x3 1 1", "'x٣' is not a square"),
        ("x0,x3/x3/x3 1 1", "'x0' is not a run of empty squares"),
        ("x2,x2/x3/x3 1 1", "Rank 3 ('x2,x2') has more than 3 squares"),
        ("x3/x3/x3/x3/x3/x3/x3/x3/x3 1 1", "boards are 3x3 to 8x8"),
    ],
)
def test_tps_numbers_are_ascii_and_bounded(tps: str, reason: str) -> None:
    with pytest.raises(TPSError, match=re.escape(reason)):
        parse_tps(tps)


@pytest.mark.parametrize(
    ("size", "stones", "caps", "opening", "reason"),
    [
        (3, 1, 0, Opening.SWAP, "Each player needs at least 3 pieces"),  # over after one ply
        (3, 2, 0, Opening.SWAP, "Each player needs at least 3 pieces"),
        (5, 0, 1, Opening.NO_SWAP, "Each player needs at least 5 pieces"),  # over after one ply
        (8, (50, 6), (2, 1), Opening.SWAP, "Each player needs at least 8 pieces"),
        (5, 0, 1, Opening.SWAP, NO_STONE),  # the engine's own reasons come first
        (5, 0, 0, Opening.NO_SWAP, NO_PIECE),
    ],
)
def test_reserves_too_small_for_a_road_make_no_game(
    size: int, stones: object, caps: object, opening: Opening, reason: str
) -> None:
    problem = playable_reserve_problem(size, stones, caps, opening)  # type: ignore[arg-type]
    assert problem is not None and problem.startswith(reason)


@pytest.mark.parametrize(
    ("size", "stones", "caps"),
    [(3, 3, 0), (5, 4, 1), (6, None, None), (8, 7, 1), (4, 0, 4)],
)
def test_reserves_with_a_road_in_reach_make_a_game(size: int, stones: object, caps: object) -> None:
    opening = Opening.NO_SWAP if stones == 0 else Opening.SWAP
    assert playable_reserve_problem(size, stones, caps, opening) is None  # type: ignore[arg-type]


def test_the_fewest_pieces_that_allow_a_road_do_allow_one() -> None:
    # With exactly `size` pieces each a road can still be built, by the very last piece.
    position = Position(4, stones=4, caps=0)
    for move in ("d4", "a1", "b1", "d3", "c1", "c4"):
        position.play(move)
    assert position.reserves(Color.WHITE).total == 1
    position.play("d1")
    assert position.result is not None and position.result.ptn() == "R-0"
