"""Tak and Tinuë (tak.tinue) against a brute force that plays every reply and every answer.

The brute force (:func:`tak.tinue.judge_by_brute_force`) reads only `legal_moves`, `push`, `pop`
and `result`; the judge under test prunes replies. They must agree on every position: seeded
random games of every size and reserve (many with Tinuë), and the positions of real games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tak import Position
from tak.ptn import Game
from tak.tinue import Call, call, is_tinue, judge, judge_by_brute_force, with_calls

REAL_GAMES = Path(__file__).parent / "real_games"  # see its README
# White holds a1 b1 a2 on 3x3 and threatens c1 and a3: Black cannot block both.
FORK = "x3/1,x2/1,1,x 2 3"


def test_a_fork_is_tinue_and_a_single_threat_is_tak() -> None:
    assert call(Position.from_tps(FORK)) is Call.TINUE
    assert call(Position.from_tps("x3/x3/1,1,x 2 3")) is Call.TAK  # Black blocks c1
    assert call(Position.from_tps("x3/x3/1,x2 2 2")) is Call.NONE
    assert Call.TINUE.mark == "''" and Call.TAK.mark == "'" and Call.NONE.mark == ""


def test_the_opponent_to_move_with_a_road_of_their_own_stops_it() -> None:
    # White threatens c1 and a3, but Black (c3 c2) completes a road of their own with c1.
    position = Position.from_tps("x2,2/1,x,2/1,1,x 2 4")
    verdict = judge(position)
    assert verdict.threats and verdict.defence is not None
    assert verdict.defence.ptn() == "c1"
    assert judge_by_brute_force(position) is Call.TAK


@pytest.mark.parametrize(("komi", "expected"), [(0, Call.TINUE), (4.5, Call.TAK)])
def test_a_reply_that_ends_the_game_on_flats_counts_the_komi(komi: float, expected: Call) -> None:
    # Black has one stone left: placing it ends the game on flats. White has 3 flats to Black's
    # 1 (Black's walls do not count): without komi that hands White the game, with 4.5 Black
    # wins, which stops the Tinuë.
    position = Position.from_tps("x,2S,2S/1,2S,x/1,1,x 2 4", komi=komi, stones=4)
    assert call(position) is expected
    assert judge_by_brute_force(position) is expected


def test_a_finished_game_calls_nothing() -> None:
    position = Position.from_tps("x3/x3/1,1,1 2 3")
    assert position.result is not None
    assert call(position) is Call.NONE and not is_tinue(position)


def test_the_position_is_left_as_it_was() -> None:
    position = Position(3)
    for move in ("a3", "c3", "a1", "c2", "b1"):
        position.play(move)
    before = (position.tps(), position.moves)
    call(position)
    assert (position.tps(), position.moves) == before


def _random_positions(seed: int, count: int, sizes: list[int]) -> list[Position]:
    """Positions of seeded random games, mostly right after a move that gave Tak (the case
    where Tinuë is judged at all), of every komi and reserve that changes how games end."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position(
            rng.choice(sizes),
            komi=rng.choice([0, 0.5, 1, 2, 2.5, -1]),
            stones=rng.choice([None, None, 4, 6, 9, 12]),
            caps=rng.choice([None, 0, 1, 2]),
        )
        while position.result is None and len(found) < count:
            moves = position.legal_moves()
            spreads = [m for m in moves if not hasattr(m, "piece")]
            position.push(rng.choice(spreads if spreads and rng.random() < 0.5 else moves))
            if position.has_road_threat(position.to_move.other) or rng.random() < 0.05:
                found.append(position.copy())
    return found


def test_the_judge_agrees_with_brute_force_on_random_positions() -> None:
    positions = _random_positions(seed=2016, count=400, sizes=[3, 4, 5])
    calls = [call(p) for p in positions]
    assert calls == [judge_by_brute_force(p) for p in positions]
    # The sample has every answer, Tinuë included, so the agreement means something.
    assert {c: calls.count(c) >= 10 for c in Call} == {c: True for c in Call}


@pytest.mark.slow
def test_the_judge_agrees_with_brute_force_on_larger_boards() -> None:
    positions = _random_positions(seed=7, count=300, sizes=[5, 6, 7, 8])
    assert [call(p) for p in positions] == [judge_by_brute_force(p) for p in positions]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 6))
def test_the_judge_agrees_with_brute_force_over_a_whole_game(seed: int, size: int) -> None:
    rng = random.Random(seed)
    position = Position(size, komi=rng.choice([0, 0.5, 2]), stones=rng.choice([None, 7]))
    while position.result is None and position.ply < 80:
        position.push(rng.choice(position.legal_moves()))
        assert call(position) is judge_by_brute_force(position), position.tps()


# The Tinuës in tests/tak/real_games: brute force confirms each, and finds no others.
REAL_GAME_TINUES = 12


def _real_game_positions() -> list[Position]:
    """Positions of real games (PlayTak, tournaments, bots) right after a move giving Tak."""
    positions = []
    for path in sorted(REAL_GAMES.rglob("*.ptn")):
        for position in Game.parse(path.read_text()).replay():
            if position.result is None and position.has_road_threat(position.to_move.other):
                positions.append(position)
    return positions


def test_the_judge_agrees_with_brute_force_on_real_games() -> None:
    positions = _real_game_positions()
    calls = [call(p) for p in positions]
    assert calls.count(Call.TINUE) == REAL_GAME_TINUES and calls.count(Call.TAK) >= 100
    # Every Tinuë and every fifth Tak here; all of them under -m slow.
    checked = [
        (p, c)
        for i, (p, c) in enumerate(zip(positions, calls, strict=True))
        if c is Call.TINUE or i % 5 == 0
    ]
    assert [c for _, c in checked] == [judge_by_brute_force(p) for p, _ in checked]


@pytest.mark.slow
def test_every_real_game_position_agrees_with_brute_force() -> None:
    positions = _real_game_positions()
    assert [call(p) for p in positions] == [judge_by_brute_force(p) for p in positions]


def _real_games() -> list[Game]:
    return [Game.parse(path.read_text()) for path in sorted(REAL_GAMES.rglob("*.ptn"))]


def test_with_calls_marks_each_move_as_a_fresh_replay_calls_it() -> None:
    """Every move of the real games gets the call of the position it leaves, worked out here
    by playing the moves on a board of our own: Tak exactly where the mover threatens a road
    (the engine's road search, not the judge), and each Tinuë confirmed by brute force."""
    tinues = 0
    for game in _real_games():
        marked = with_calls(game)
        position = game.start()
        for ply in marked.plies:
            position.push(ply.move)
            calls = ply.marks[: len(ply.marks) - len(ply.marks.lstrip("'"))]
            threat = position.result is None and position.has_road_threat(position.to_move.other)
            assert (calls != "") is threat, (position.tps(), ply.marks)
            assert calls == call(position).mark, position.tps()
            if calls == "''":
                tinues += 1
                assert judge_by_brute_force(position) is Call.TINUE, position.tps()
    assert tinues == REAL_GAME_TINUES


def test_with_calls_replaces_typed_calls_keeps_other_marks_and_leaves_the_record_alone() -> None:
    # White's a2 makes a fork that Black cannot block (Tinuë), after a Tak at c1; the players
    # typed wrong calls on purpose.
    record = Game.parse("[Size \"3\"]\n1. c3 c2'! 2. b1? c3<\" 3. c2-'' b3<'?? 4. a2\"! {fork}")
    before = record.ptn()
    marked = with_calls(record)
    assert [p.marks for p in marked.plies] == ["", "!", "?", "", "'", "??", "''!"]
    assert marked.plies[-1].comments == ["fork"]
    assert record.ptn() == before
    assert [p.marks for p in record.plies] == ["", "'!", "?", '"', "''", "'??", '"!']
    marked.plies[-1].comments.append("mine")
    marked.tags["Site"] = "here"
    assert record.plies[-1].comments == ["fork"] and "Site" not in record.tags
