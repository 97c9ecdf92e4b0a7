"""Every way a game ends, and what each ending scores."""

from __future__ import annotations

import pickle

import pytest

from tak import Color, Position, Reserves, Result, ResultKind, SetupError, parse_result


def test_road_win_reports_the_road() -> None:
    position = Position.from_tps("x3/2,2,x/1,1,x 1 3")
    position.play("c1")
    assert position.result == Result(Color.WHITE, ResultKind.ROAD, ((0, 0), (1, 0), (2, 0)))
    assert position.result.ptn() == "R-0"


def test_road_squares_run_edge_to_edge() -> None:
    position = Position.from_tps("1,x3/1,1,1,x/x4/2,2,2,x 1 5")
    position.play("d3")
    assert position.result is not None
    assert position.result.road == ((0, 2), (1, 2), (2, 2), (3, 2))


def test_a_move_completing_both_roads_wins_for_the_mover() -> None:
    # c2's top is White's; moving it down shows Black's flat and completes both ranks.
    position = Position.from_tps("x3/2,2,21/1,1,x 1 5")
    position.play("c2-")
    assert position.result is not None
    assert position.result.winner is Color.WHITE
    assert position.result.kind is ResultKind.ROAD
    assert position.result.road == ((0, 0), (1, 0), (2, 0))


def test_completing_only_the_opponents_road_loses() -> None:
    position = Position.from_tps("x3/2,2,21/1,x,x 1 5")
    position.play("c2-")
    assert position.result == Result(Color.BLACK, ResultKind.ROAD, ((0, 1), (1, 1), (2, 1)))
    assert position.result.ptn() == "0-R"


FULL_BUT_ONE = "1,2,1/2,1,2/1,2,x 1 5"


@pytest.mark.parametrize(
    ("move", "komi", "expected"),
    [
        ("c1", 0, "F-0"),  # 5 flats to 4
        ("c1", 1, "1/2-1/2"),  # 5 to 4 + 1
        ("c1", 1.5, "0-F"),  # half-flat komi breaks the tie for Black
        ("c1", -0.5, "F-0"),  # negative komi is allowed
        ("Sc1", 0, "1/2-1/2"),  # a wall is not a flat: 4 to 4
    ],
)
def test_full_board_counts_top_flats_with_komi(move: str, komi: float, expected: str) -> None:
    position = Position.from_tps(FULL_BUT_ONE, komi=komi)
    position.play(move)
    assert position.is_full()
    assert position.result is not None
    assert position.result.kind is ResultKind.FLATS
    assert position.result.ptn() == expected


def test_only_top_flats_count() -> None:
    position = Position.from_tps("12,21,1/2,1,2/1,2,x 1 6")
    position.play("c1")
    assert position.flat_count(Color.WHITE) == 5
    assert position.flat_count(Color.BLACK) == 4
    assert position.result is not None
    assert position.result.ptn() == "F-0"


def test_out_of_pieces_needs_stones_and_capstones_gone() -> None:
    position = Position.from_tps("x5/x5/x5/x5/x,2,x3 1 2", stones=(1, 21))
    position.play("a1")  # White's last stone: the capstone is still in hand
    assert position.reserves(Color.WHITE).total == 1
    assert position.result is None
    position.play("e5")
    position.play("Cc3")  # now White is out of pieces: flats decide
    assert position.reserves(Color.WHITE).total == 0
    assert position.result == Result(Color.BLACK, ResultKind.FLATS)


def test_either_player_running_out_ends_the_game() -> None:
    position = Position.from_tps("x3/x3/2,1,x 2 2", stones=(10, 2))
    position.play("c3")  # Black's last stone; White still has 9
    assert position.result == Result(Color.BLACK, ResultKind.FLATS)


def test_a_position_loaded_after_the_end_knows_its_result() -> None:
    position = Position.from_tps("x3/x3/2,1,x 1 2", stones=(10, 1))
    assert position.result == Result(None, ResultKind.FLATS)


def test_points_are_squares_plus_unplayed_pieces() -> None:
    position = Position.from_tps("1,1,1,x2/x5/x5/x5/2,2,2,2,x 2 5")
    position.play("e1")
    assert position.result is not None and position.result.winner is Color.BLACK
    assert position.reserves(Color.BLACK) == Reserves(stones=16, caps=1)
    assert position.points() == 25 + 17


def test_draws_and_aborts_score_nothing() -> None:
    position = Position.from_tps(FULL_BUT_ONE, komi=1)
    position.play("c1")
    assert position.result is not None and position.result.is_draw
    assert position.points() == 0
    assert position.points(Result(None, ResultKind.ABORT)) == 0


@pytest.mark.parametrize(
    ("result", "text", "description"),
    [
        (Result(Color.WHITE, ResultKind.ROAD), "R-0", "White wins by road."),
        (Result(Color.BLACK, ResultKind.ROAD), "0-R", "Black wins by road."),
        (Result(Color.WHITE, ResultKind.FLATS), "F-0", "White wins on flats."),
        (Result(Color.BLACK, ResultKind.FLATS), "0-F", "Black wins on flats."),
        (Result(None, ResultKind.FLATS), "1/2-1/2", "Draw: the flat count is tied."),
        (Result(Color.WHITE, ResultKind.RESIGNATION), "1-0", "White wins by resignation."),
        (Result(Color.BLACK, ResultKind.TIME), "0-1", "Black wins on time."),
        (Result(None, ResultKind.AGREEMENT), "1/2-1/2", "Draw by agreement."),
        (Result(None, ResultKind.ABORT), "0-0", "The game was aborted."),
    ],
)
def test_non_board_and_board_results(result: Result, text: str, description: str) -> None:
    assert result.ptn() == text
    assert result.describe() == description
    assert parse_result(text).ptn() == text
    assert parse_result(text).winner == result.winner


def test_parse_result_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="is not a PTN result"):
        parse_result("2-0")


# 4x4, board full after White's wall on d1: 9 White flats to 6, and 7 to 8.
NINE_TO_SIX = "1,2,1,1/1,1,2,1/2,1,1,2/1,2,2,x 1 9"
SEVEN_TO_EIGHT = "2,1,2,1/1,2,1,2/2,1,2,1/2,2,1,x 1 9"


@pytest.mark.parametrize(
    ("tps", "komi", "plain", "antiquity"),
    [
        # Half-flat komi: no count can tie, so the rule changes nothing (it once added half a
        # flat to the komi, making 2.5 a 3 and -1.5 a -1, and these ties draws).
        (NINE_TO_SIX, 2.5, "F-0", "F-0"),
        (SEVEN_TO_EIGHT, -1.5, "F-0", "F-0"),
        # Whole komi: the tie that is a draw without the rule goes to Black with it.
        (NINE_TO_SIX, 3, "1/2-1/2", "0-F"),
        (SEVEN_TO_EIGHT, -1, "1/2-1/2", "0-F"),
        (SEVEN_TO_EIGHT, 2, "0-F", "0-F"),
    ],
)
def test_the_antiquity_rule_gives_ties_to_black_whatever_the_komi(
    tps: str, komi: float, plain: str, antiquity: str
) -> None:
    for ties_to_black, expected in ((False, plain), (True, antiquity)):
        position = Position.from_tps(tps, komi=komi, ties_to_black=ties_to_black)
        position.play("Sd1")
        assert position.result is not None and position.result.ptn() == expected
        assert position.result.kind is ResultKind.FLATS
        again = pickle.loads(pickle.dumps(position))
        assert again.ties_to_black is ties_to_black and again.result == position.result
        assert position.copy().ties_to_black is ties_to_black


@pytest.mark.parametrize(
    ("komi", "equivalent"), [(2, 2.5), (2.5, 2.5), (-1, -0.5), (-1.5, -1.5), (4, 4.5), (4.5, 4.5)]
)
def test_the_komi_equivalent_to_the_tie_rule_stays_on_the_half_grid(
    komi: float, equivalent: float
) -> None:
    assert Position(6, komi=komi, ties_to_black=True).equivalent_komi == equivalent
    assert Position(6, komi=komi).equivalent_komi == komi


def test_the_tie_rule_is_on_or_off() -> None:
    with pytest.raises(SetupError, match="The tie rule is on"):
        Position(6, ties_to_black="yes")


@pytest.mark.parametrize(
    ("komi", "ties_to_black", "winner"),
    [
        (0, False, None),
        (0, True, Color.BLACK),
        (0.5, False, Color.BLACK),
        (-0.5, True, Color.WHITE),
    ],
)
def test_the_flat_count_has_a_winner_before_the_board_is_over(
    komi: float, ties_to_black: bool, winner: Color | None
) -> None:
    """A game ended by its length asks the flat count of a board still in play (one flat each)."""
    position = Position.from_tps("1,2,x3/x5/x5/x5/x5 1 2", komi=komi, ties_to_black=ties_to_black)
    assert position.result is None
    assert position.flat_winner() is winner
