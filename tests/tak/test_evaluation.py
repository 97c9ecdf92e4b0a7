"""The evaluation's features: the same for either colour, komi and reserves counted, the flat
race read as the end nears. The weights are fitted (benchmarks/tune.py), so these tests check
what the features say and the direction of the terms the rules decide, not the fitted numbers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tak import Color, Position
from tak.evaluation import (
    FEATURES,
    FLAT,
    FLATS,
    KOMI,
    RACE,
    RESERVES,
    WIN_ZONE,
    Board,
    Scan,
    evaluate,
    weights_for,
)
from tests.tak.test_search import ROAD_IN_ONE


def mirror_colours(position: Position) -> Position:
    """The same board with the colours swapped and the other side to move (komi 0)."""
    rows, player, number = position.tps().split()
    swap = str.maketrans("12", "21")
    swapped = "/".join(
        ",".join(square if square.startswith("x") else square.translate(swap) for square in row)
        for row in (row.split(",") for row in rows.split("/"))
    )
    return Position.from_tps(f"{swapped} {3 - int(player)} {number}")


def features(position: Position) -> list[int]:
    return Scan(position, Board(position)).counts(position)[0]


@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5, 6, 7, 8]), st.integers(2, 90))
@settings(max_examples=50, deadline=None)
def test_evaluation_is_the_same_for_either_colour(seed: int, size: int, plies: int) -> None:
    rng = random.Random(seed)
    position = Position(size)
    while position.ply < plies and position.result is None:
        position.push(rng.choice(position.legal_moves()))
    mirrored = mirror_colours(position)
    assert evaluate(position) == evaluate(mirrored)
    if position.result is None:
        scans = [Scan(p, Board(p)) for p in (position, mirrored)]
        assert scans[0].counts(position) == scans[1].counts(mirrored)
        assert scans[0].features(position) == scans[1].features(mirrored)
        assert len(scans[0].features(position)) == 2 * FEATURES == len(weights_for(size))


# 5x5 with one empty square (a5), Black's walls keeping the flats apart.
NEAR_END = "{a5},2S,1,2,1/2,1,2,1,2/1,2,1,2,1/2S,1,2,1,2/1,2,1,2,1 1 13"
EARLY = "x5/x5/x5/2S,x4/x,2S,x3 1 5"


def test_komi_counts_as_flats_and_more_as_the_end_nears() -> None:
    def komi_cost(tps: str) -> int:
        return evaluate(Position.from_tps(tps)) - evaluate(Position.from_tps(tps, komi=2))

    early, near_end = komi_cost(EARLY), komi_cost(NEAR_END.format(a5="x"))
    assert early == 2 * FLAT  # the komi's weight is a flat a point, not fitted
    assert near_end > early  # and the race counts it again, as it counts the flats
    komi = features(Position.from_tps(EARLY, komi=2))[KOMI]
    assert komi == -4  # in half-flats; White to move: the komi is against it


def test_a_finished_game_scores_its_result() -> None:
    finished = Position.from_tps(ROAD_IN_ONE)
    finished.play("e1")
    assert evaluate(finished) < -WIN_ZONE  # Black to move, and White has won


def test_the_race_is_the_count_when_only_placements_are_left() -> None:
    """One square left: White (to move) places there and the board is full. The race is the
    flat count after that placement: White's flats less Black's, plus the one White places."""
    position = Position.from_tps(NEAR_END.format(a5="x"))
    values = features(position)
    assert values[FLATS] == position.flat_count(0) - position.flat_count(1)
    assert values[RACE] == 2 * (values[FLATS] + 1)  # in half-flats; the last placement is White's


def test_a_won_flat_race_scores_as_winning() -> None:
    """Level on flats, one square left, White to move: White places there, the board is full and
    White wins by a flat: scored as at least a flat; with komi 2 to Black the same count loses by
    a flat."""
    level = "x,2,1,2,1/2,1,2,1,2/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 1 13"
    position = Position.from_tps(level)
    assert position.flat_count(0) == position.flat_count(1)
    position.play("a5")
    assert position.result is not None and position.result.winner == 0
    assert evaluate(Position.from_tps(level)) >= FLAT
    assert evaluate(Position.from_tps(level, komi=2)) <= -FLAT


def test_reserves_are_counted_as_the_end_nears() -> None:
    """Three squares left, White to move and ahead on flats: with one stone left in hand White
    places it and the game ends, won on the count; with seven the game goes on."""
    tps = "x,2S,1,2,1/2,1,2,1,2/1,2,1,2,1/2S,1,2,1,2/1,2,1,x,x 1 13"
    few = Position.from_tps(tps, stones=(12, 19), caps=0)
    many = Position.from_tps(tps, stones=(18, 19), caps=0)
    assert few.reserves(0).total == 1 and many.reserves(0).total == 7
    assert features(few)[RESERVES] < features(many)[RESERVES]
    assert features(few)[FLATS] == features(many)[FLATS] > 0
    assert evaluate(few) > evaluate(many)


def test_a_flat_counts_for_more_as_the_board_fills_though_stones_are_left() -> None:
    """On 5x5 the board fills before the reserves run out: with one square left (and ten stones
    each in hand) a flat is nearly a point of the final count, worth far more than early on.
    The flat compared is on a1, walled off by Black's walls on a2 and b1 on both boards."""
    full = "1,2,1,2,x/2,1,2,1,2/1,2,1,2,1/2S,1,2,1,2/{a1},2S,1,2,1 1 13"
    early = "x5/x5/x5/2S,x4/{a1},2S,x3 1 5"

    def worth_of_a1(tps: str) -> int:
        with_flat, without = (Position.from_tps(tps.format(a1=a1)) for a1 in ("1", "x"))
        assert with_flat.reserves(Color.WHITE).total >= 10
        return evaluate(with_flat) - evaluate(without)

    assert worth_of_a1(full) >= worth_of_a1(early) + FLAT * 3 // 4
