"""Post-game analysis (tak.analysis): the exact checks against brute force, the marks against
their definitions, real games, and `python -m tak analyse` as a real subprocess."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tak import Color, Move, Position, ResultKind
from tak.analysis import (
    ANNOTATOR_COMMENT,
    BLUNDER,
    MISTAKE,
    WIN_SCORE,
    Analysis,
    analyse,
    describe,
    evaluate_position,
    tactics,
)
from tak.ptn import Game, GamePly
from tak.tinue import Call, judge_by_brute_force

REAL_GAMES = Path(__file__).parent / "real_games"  # see its README
NODES = 150  # enough for the marks to be about something, and quick


def brute_roads(position: Position) -> set[Move]:
    """Every move that wins by road at once, found by playing each."""
    mover, wins = position.to_move, set()
    for move in position.legal_moves():
        position.push(move)
        result = position.result
        position.pop()
        if result is not None and result.winner is mover and result.kind is ResultKind.ROAD:
            wins.add(move)
    return wins


def brute_tinues(position: Position) -> set[Move]:
    """Every move (not a road) after which every reply loses, by playing all of them."""
    found = set()
    roads = brute_roads(position)
    for move in position.legal_moves():
        if move in roads:
            continue
        position.push(move)
        if position.result is None and judge_by_brute_force(position) is Call.TINUE:
            found.add(move)
        position.pop()
    return found


def random_game(seed: int, size: int, plies: int) -> Game:
    """A game of random moves that takes every road in one half the time."""
    rng = random.Random(seed)
    game = Game(tags={"Size": str(size)})
    position = game.start()
    for _ in range(plies):
        if position.result is not None:
            break
        roads = position.road_threats()
        move = rng.choice(roads) if roads and rng.random() < 0.5 else None
        move = move or rng.choice(position.legal_moves())
        game.plies.append(GamePly(move))
        position.push(move)
    game.result = position.result
    return game


def test_tactics_agree_with_brute_force_on_real_games() -> None:
    checked = tinues_seen = 0
    for name in ("90504.ptn", "kakaburra-v1.ptn"):
        game = Game.parse((REAL_GAMES / name).read_text())
        positions = list(game.replay())
        for position in positions[-8:]:  # the ends, where the roads and Tinuës are
            found = tactics(position)
            assert set(found.roads) == brute_roads(position)
            assert set(found.tinues) == brute_tinues(position)
            checked += 1
            tinues_seen += bool(found.tinues)
    assert checked == 16 and tinues_seen >= 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 4))
def test_tactics_agree_with_brute_force_on_random_positions(seed: int, size: int) -> None:
    game = random_game(seed, size, 30)
    for position in game.replay():
        found = tactics(position)
        assert set(found.roads) == brute_roads(position)
        assert set(found.tinues) == brute_tinues(position)


def _check_notes(analysis: Analysis, first: int = 0) -> None:
    """Every mark and comment from ply `first` on against its definition, by brute force."""
    positions = list(analysis.game.replay())
    plies = zip(analysis.notes, positions, positions[1:], strict=False)
    for note, before, after in list(plies)[first:]:
        mover = before.to_move
        won = after.result is not None and after.result.winner is mover
        roads, tinues = brute_roads(before), brute_tinues(before)
        text = " ".join(note.comments)
        assert ("Missed a road in one" in text) == (bool(roads) and not won)
        assert ("Missed Tinuë" in text) == (
            not roads and bool(tinues) and not won and note.move not in tinues
        )
        sign = 1 if mover is Color.WHITE else -1
        already_lost = (
            sign * note.before <= -WIN_SCORE or judge_by_brute_force(before) is Call.TINUE
        )
        blamed = not won and not already_lost and after.result is None
        their_roads = brute_roads(after) if after.result is None else set()
        assert ("Allows a road in one" in text) == (blamed and bool(their_roads))
        if "Allows Tinuë" in text:
            assert blamed and not their_roads and brute_tinues(after)
        if note.mark == "!":
            assert note.move in tinues and not roads
        still_won = note.call is Call.TINUE or sign * note.after >= WIN_SCORE
        missed = not won and (bool(roads) or (bool(tinues) and note.move not in tinues))
        if missed:  # a miss is a blunder, or a mistake when the move played still wins
            assert note.mark == ("?" if still_won and note.loss < BLUNDER else "??")
        if note.mark == "?":
            assert MISTAKE <= note.loss < BLUNDER or (note.comments and still_won)
        if note.mark == "" and not won:
            assert note.loss < MISTAKE and not note.comments
        assert note.call is judge_by_brute_force(after)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 4))
def test_marks_and_comments_follow_their_definitions(seed: int, size: int) -> None:
    analysis = analyse(random_game(seed, size, 24), nodes=NODES)
    _check_notes(analysis)
    assert all(-WIN_SCORE <= s <= WIN_SCORE for s in analysis.evaluations)
    assert len(analysis.evaluations) == len(analysis.game.plies) + 1


def test_a_real_game_found_tinue_and_missed_one() -> None:
    game = Game.parse((REAL_GAMES / "90504.ptn").read_text())
    analysis = analyse(game, nodes=NODES)
    _check_notes(analysis, first=len(game.plies) - 8)  # the end, where the Tinuës are
    by_move = {(n.ply, n.move.ptn()): n for n in analysis.notes}
    found = by_move[(44, "2d5-")]  # 23. 2d5-'' in the file: Tinuë, and White won by road
    assert found.mark == "!" and found.call is Call.TINUE
    missed = by_move[(42, "4d5-")]  # 22. 4d5-': 3d3+ was Tinuë already
    assert "Missed Tinuë: 3d3+." in missed.comments
    assert analysis.evaluations[-1] == WIN_SCORE
    text = analysis.ptn()
    assert "2d5-''!" in text and "{Missed Tinuë: 3d3+.}" in text
    # What PTN Ninja reads, read back: the same moves and marks.
    again = Game.parse(text)
    assert [p.move for p in again.plies] == [p.move for p in game.plies]
    assert [p.marks for p in again.plies] == [n.call.mark + n.mark for n in analysis.notes]
    assert describe(found, game.start()).startswith("23. 2d5-''! +")
    assert describe(found, game.start()).endswith("→ +10.0")


def test_a_road_in_one_missed_for_a_tinue_is_a_mistake_not_a_blunder() -> None:
    # White has a1, b1 and a2: c1 and a3 win at once. c2 wins too, by force (Tinuë), two plies
    # later: the result is the same, so `?` with the miss named, not `??`.
    game = Game.parse('[TPS "x3/1,x2/1,1,x 1 3"]\n\n3. c2 a3 4. c1 R-0')
    first, _, last = analyse(game, nodes=NODES).notes
    assert first.call is Call.TINUE and first.mark == "?"
    assert first.comments == ("Missed a road in one: a3, c1.",)
    assert last.mark == ""
    text = analyse(game, nodes=NODES).ptn()
    assert "3. c2''? {Missed a road in one: a3, c1.}" in text
    # The same miss with a move that does not still win is a blunder.
    lost = analyse(Game.parse('[TPS "x3/1,x2/1,1,x 1 3"]\n\n3. a1+'), nodes=NODES)
    assert lost.notes[0].mark == "??" and "Missed a road in one: a3, c1." in lost.notes[0].comments


def test_the_annotator_is_a_comment_ptn_ninja_keeps() -> None:
    game = Game.parse('[Size "3"]\n\n{from the club}\n1. a3 a1\n')
    annotated = analyse(game, nodes=NODES).annotated()
    assert annotated.tags == game.tags  # PTN Ninja drops tags it does not know
    assert annotated.comments == [ANNOTATOR_COMMENT, "from the club"]
    assert Game.parse(annotated.ptn()).comments == annotated.comments


def test_evaluations_are_reproducible_and_exact_at_the_end() -> None:
    game = random_game(7, 4, 40)
    first = analyse(game, nodes=NODES)
    assert analyse(game, nodes=NODES).evaluations == first.evaluations
    end = game.final_position()
    expected = 0 if end.result is None or end.result.winner is None else WIN_SCORE
    if end.result is not None and end.result.winner is Color.BLACK:
        expected = -WIN_SCORE
    if end.result is not None:
        assert first.evaluations[-1] == expected
    # Given evaluations (a TEI engine's) are clamped and used as they are.
    given_scores = [5_000 * (-1) ** i for i in range(len(game.plies) + 1)]
    other = analyse(game, evaluations=given_scores)
    assert set(other.evaluations) <= {WIN_SCORE, -WIN_SCORE}
    with pytest.raises(ValueError, match="evaluations for"):
        analyse(game, evaluations=[0])


def test_tinue_is_a_forced_win_and_a_single_threat_is_not() -> None:
    fork = Position.from_tps("x3/1,x2/1,1,x 2 3")  # Black to move, White threatens c1 and a3
    assert evaluate_position(fork, NODES) == WIN_SCORE  # White's side: White wins
    assert 0 < evaluate_position(Position.from_tps("x3/x3/1,1,x 2 3"), NODES) < WIN_SCORE
    assert {m.ptn() for m in tactics(Position.from_tps("x3/2,2,x/1,1,x 1 3")).roads} == {"c1"}


def test_command_line_prints_the_annotated_game(tmp_path: Path) -> None:
    file = tmp_path / "game.ptn"
    file.write_text('[Size "3"]\n\n1. a3 a1 2. b1 b2 3. c2 c1\n')
    done = subprocess.run(
        [sys.executable, "-m", "tak", "analyse", str(file), "--nodes", "200"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "2. b1' b2?? {Allows a road in one: c1.}" in done.stdout
    assert "{Annotated by Bredon}" in done.stdout and "Annotator" not in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "tak", "analyse", str(tmp_path / "missing.ptn")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 1 and "Cannot read" in bad.stderr and bad.stdout == ""
