"""Bredon's player: roads in one taken and blocked, reproducible under a seed, never illegal.

Road wins and blocks are checked by brute force (every reply played out on the board), not by
the position's own threat detection that the search relies on.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tak import Color, Piece, Placement, Position, ResultKind
from tak.evaluation import FLAT, evaluate
from tak.search import (
    LEVELS,
    MAX_LEVEL,
    WIN_ZONE,
    GameOverError,
    Limits,
    Player,
    SearchResult,
    forget,
    level_for,
)

QUICK = Limits(nodes=300, movetime_ms=10_000)


def wins_by_road(position: Position, move: object, color: Color) -> bool:
    position.push(move)  # type: ignore[arg-type]
    try:
        result = position.result
        return result is not None and result.kind is ResultKind.ROAD and result.winner == color
    finally:
        position.pop()


def road_in_one(position: Position) -> bool:
    """Whether the side to move can win by road at once: every legal move tried."""
    me = position.to_move
    return any(wins_by_road(position, move, me) for move in position.legal_moves())


def random_game(seed: int, size: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = Position(size, komi=rng.choice([0, 1.5, 2]))
    while position.ply < plies and position.result is None:
        position.push(rng.choice(position.legal_moves()))
    return position


# White has a1-d1; Black has a2-d2 and White to move: White must (and can) finish at e1.
ROAD_IN_ONE = "x5/x5/x5/2,2,2,2,x/1,1,1,1,x 1 5"
# Black threatens a2-e2 at e2 (White's a1-d1 have no fifth square: e1 is Black's wall).
MUST_BLOCK = "x5/x5/1,1,x3/2,2,2,2,x/1,1,1,1,2S 1 7"


@pytest.mark.parametrize("number", [level.number for level in LEVELS[:-1]])
def test_every_level_takes_a_road_in_one(number: int) -> None:
    position = Position.from_tps(ROAD_IN_ONE)
    result = Player(number, seed=1).choose(position, QUICK)
    assert wins_by_road(position, result.move, Color.WHITE)
    assert result.mate_in == 1


@pytest.mark.parametrize("number", [level.number for level in LEVELS[:-1]])
def test_every_level_blocks_a_road_in_one(number: int) -> None:
    position = Position.from_tps(MUST_BLOCK)
    assert road_in_one(Position.from_tps("x5/x5/1,1,x3/2,2,2,2,x/1,1,1,1,2S 2 7"))
    result = Player(number, seed=1).choose(position, QUICK)
    position.push(result.move)
    assert not road_in_one(position), result.move


# Black's a2-b2 and its c2 stack: only a spread of the stack (2c2>11 or 3c2>12) covers d2 and e2,
# two files no placement covers at once; a flat on d2 or e2 would be covered too.
SPREAD_THREAT = "x2,1,x,1/1,1,x3/x5/2,2,222,x2/x5 1 6"


@pytest.mark.parametrize("number", [level.number for level in LEVELS[:-1]])
def test_every_level_blocks_a_road_only_a_stack_spread_completes(number: int) -> None:
    threat = Position.from_tps(SPREAD_THREAT.replace(" 1 6", " 2 6"))
    assert road_in_one(threat)
    assert not any(
        wins_by_road(threat, move, Color.BLACK)
        for move in threat.legal_moves()
        if isinstance(move, Placement)
    )
    position = Position.from_tps(SPREAD_THREAT)
    result = Player(number, seed=1).choose(position, QUICK)
    position.push(result.move)
    assert not road_in_one(position), result.move


def test_an_unstoppable_double_threat_is_scored_as_lost_in_two_plies() -> None:
    # Black's a2-d2 and a4-d4 each lack only their e-square: White cannot block both.
    position = Position.from_tps("x5/2,2,2,2,x/1,1,x3/2,2,2,2,x/1,x4 1 8")
    for move in position.legal_moves():  # brute force: every White move leaves a Black road
        position.push(move)
        assert position.result is not None or road_in_one(position), move
        position.pop()
    result = Player(4, seed=1).choose(position, Limits(nodes=3_000))
    assert result.score < -WIN_ZONE
    assert result.mate_in == -2


def test_same_seed_same_position_same_limits_same_move() -> None:
    for seed in range(4):
        position = random_game(seed, 6, 14)
        for number in (1, 3):
            first = Player(number, seed=seed).choose(position, QUICK)
            again = Player(number, seed=seed).choose(position.copy(), QUICK)
            player = Player(number, seed=seed)
            player.choose(random_game(seed + 100, 6, 10), QUICK)  # no memory between searches
            third = player.choose(position, QUICK)
            assert first.move == again.move == third.move
            assert first.score == again.score == third.score
            assert first.nodes == again.nodes


def nodes_to_depth(position: Position, depth: int) -> int:
    """Positions the strongest level searched, on the clock alone, to complete `depth`."""
    reached: list[int] = []

    def info(result: SearchResult) -> None:
        if result.depth == depth:
            reached.append(result.nodes)

    Player(MAX_LEVEL).choose(
        position, Limits(movetime_ms=60_000), info=info, stop=lambda: bool(reached)
    )
    return reached[0]


def test_a_search_on_the_clock_keeps_its_table_for_the_next() -> None:
    """What the strongest level learnt searching a position on the clock makes searching it
    again cheaper; forget() starts it afresh. With a node or depth limit nothing is kept."""
    position = random_game(3, 6, 14)
    forget()
    first = nodes_to_depth(position, 3)
    assert nodes_to_depth(position, 3) < first
    forget()
    assert nodes_to_depth(position, 3) == first
    capped = Player(MAX_LEVEL).choose(position, Limits(depth=3))
    assert Player(MAX_LEVEL).choose(position, Limits(depth=3)).nodes == capped.nodes


def test_a_forced_loss_is_scored_alike_with_the_table_kept() -> None:
    position = Position.from_tps("x5/2,2,2,2,x/1,1,x3/2,2,2,2,x/1,x4 1 8")  # as above
    forget()
    for _ in range(3):  # on the clock: it stops at the forced loss, and keeps its table
        result = Player(MAX_LEVEL).choose(position, Limits(movetime_ms=60_000))
        assert result.mate_in == -2


def test_the_beginners_noise_depends_on_the_seed() -> None:
    position = Position(6)
    for move in ("a1", "f6", "c3"):
        position.play(move)
    moves = {Player(1, seed=seed).choose(position).move for seed in range(12)}
    assert len(moves) > 1


def test_casual_plays_within_a_flat_of_the_best_one_ply_move() -> None:
    """Level 2's noise (up to a flat either way) varies its move with the seed, but it never
    picks a move whose one-ply score is more than two flats below the best (here 80 of the 91)."""
    position = random_game(11, 6, 40)
    after = {}
    for move in position.legal_moves():
        position.push(move)
        after[move] = -evaluate(position)
        position.pop()
    best = max(after.values())
    chosen = {Player(2, seed=seed).choose(position).move for seed in range(12)}
    assert len(chosen) > 1
    assert all(after[move] >= best - 2 * FLAT for move in chosen)


def test_the_position_is_left_as_it_was() -> None:
    position = random_game(5, 5, 20)
    before = position.tps(), position.moves
    Player(4, seed=0).choose(position, QUICK)
    assert (position.tps(), position.moves) == before


def test_a_finished_game_has_no_move() -> None:
    position = Position.from_tps(ROAD_IN_ONE)
    position.play("e1")
    with pytest.raises(GameOverError, match=r"The game is over \(R-0\)"):
        Player(2).choose(position)


def test_the_opening_places_the_opponents_flat() -> None:
    position = Position(6)
    for _ in range(2):
        move = Player(3, seed=0).choose(position, QUICK).move
        assert isinstance(move, Placement) and move.piece is Piece.FLAT
        mover = position.to_move
        position.play(move)
        assert position.stack(move.file, move.rank).owner == mover.other


def test_limits_and_levels_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="nodes limit must be a positive"):
        Limits(nodes=0)
    with pytest.raises(ValueError, match="from 1 to 5"):
        level_for(MAX_LEVEL + 1)
    with pytest.raises(ValueError, match="from 1 to 5"):
        Player(0)


def test_a_depth_limit_is_kept() -> None:
    result = Player(MAX_LEVEL, seed=0).choose(random_game(1, 5, 12), Limits(depth=2))
    assert result.depth == 2
    assert len(result.pv) <= 2


def test_stop_ends_the_search_after_the_first_depth() -> None:
    result = Player(MAX_LEVEL, seed=0).choose(random_game(2, 6, 16), stop=lambda: True)
    assert result.depth == 1


@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5, 6, 7, 8]), st.integers(0, 60))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_never_an_illegal_move(seed: int, size: int, plies: int) -> None:
    position = random_game(seed, size, plies)
    if position.result is not None:
        return
    number = seed % 4 + 1
    result = Player(number, seed=seed).choose(position, Limits(nodes=150))
    assert result.move in position.legal_moves()
    assert result.pv[0] == result.move
