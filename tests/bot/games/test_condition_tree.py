"""The tree of conditional moves (bot.games.condition_tree) against a brute-force model that
keeps the lines as a plain list and answers by scanning them, on made-up moves and on random
lines of random games of Tak (checked by bot.games.conditions.checked_line)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import errors
from bot.games.condition_tree import ConditionTree, decode, encode
from bot.games.conditions import MAX_LINE_PLIES, checked_line
from tak import Position


class Model:
    """The lines as entered, cut down by the rule alone: a line that gives another answer to
    an opponent's move some line already answers removes that line; a line that is the start
    of another adds nothing."""

    def __init__(self) -> None:
        self.lines: list[list[str]] = []

    def add(self, line: list[str]) -> bool:
        replaced = False
        kept = []
        covered = False
        for old in self.lines:
            differ = next(
                (i for i, (a, b) in enumerate(zip(old, line, strict=False)) if a != b), None
            )
            if differ is None:  # one starts the other
                covered = covered or len(old) >= len(line)
                if len(old) >= len(line):
                    kept.append(old)
            elif differ % 2:  # another answer to the same move of theirs
                replaced = True
            else:
                kept.append(old)
        self.lines = kept if covered else [*kept, line]
        return replaced

    def answer(self, theirs: str) -> tuple[str, list[list[str]]] | None:
        starting = [line for line in self.lines if line[0] == theirs]
        if not starting:
            return None
        answers = {line[1] for line in starting}
        assert len(answers) == 1  # the rule keeps one answer per move
        return answers.pop(), [line[2:] for line in starting if len(line) > 2]


def as_set(lines: list[list[str]]) -> set[tuple[str, ...]]:
    return {tuple(line) for line in lines}


pairs = st.tuples(st.sampled_from("abc"), st.sampled_from("xyz")).map(list)
lines = st.lists(pairs, min_size=1, max_size=4).map(lambda ps: [m for p in ps for m in p])


@settings(max_examples=300, deadline=None)
@given(st.lists(lines, max_size=12), st.lists(st.sampled_from("abcd"), max_size=6))
def test_the_tree_keeps_and_answers_as_the_model(entered, replies) -> None:
    tree, model = ConditionTree(), Model()
    for line in entered:
        assert tree.add(line) == model.add(line)
        assert as_set(tree.lines()) == as_set(model.lines)
        assert len(tree.lines()) == len(model.lines)
    assert as_set(decode(encode(tree)).lines()) == as_set(model.lines)
    for theirs in replies:
        found, expected = tree.answer(theirs), model.answer(theirs)
        if expected is None:
            assert found is None
            break
        assert found is not None
        answer, tree = found
        assert answer == expected[0]
        model.lines = expected[1]
        assert as_set(tree.lines()) == as_set(model.lines)


def random_line(rng: random.Random, start: Position, plies: int) -> list[str]:
    """Random legal plies from `start` (fewer if the game ends), as typed by hand: the moves
    are written as the engine reads them, not always canonically."""
    position = start.copy()
    written = []
    for _ in range(plies):
        if position.result is not None:
            break
        move = rng.choice(position.legal_moves())
        position.push(move)
        written.append(move.ptn())
    return written


def test_random_lines_of_random_games_are_answered_as_the_model() -> None:
    rng = random.Random(27)
    for _ in range(40):
        size = rng.choice((3, 4, 5, 6))
        position = Position(size)
        for _ in range(rng.randrange(0, 12)):
            if position.result is not None:
                break
            position.push(rng.choice(position.legal_moves()))
        if position.result is not None:
            continue
        tree, model = ConditionTree(), Model()
        for _ in range(rng.randrange(1, 8)):
            plies = random_line(rng, position, rng.choice((2, 4, 6)))
            if len(plies) % 2:  # the game ended at the opponent's move: not a line
                continue
            line = checked_line(position, " ".join(plies))
            assert line == plies
            assert tree.add(line) == model.add(line)
        assert as_set(tree.lines()) == as_set(model.lines)
        # The opponent plays a move some line foresaw, or any move; then again.
        here = position.copy()
        while tree and here.result is None:
            foreseen = [line[0] for line in model.lines]
            moves = [m.ptn() for m in here.legal_moves()]
            theirs = rng.choice(foreseen if rng.random() < 0.7 else moves)
            found, expected = tree.answer(theirs), model.answer(theirs)
            assert (found is None) == (expected is None)
            if found is None:
                break
            assert found[0] == expected[0]
            here.play(theirs)
            here.play(found[0])  # the answer a line gives is legal where it comes
            tree, model.lines = found[1], expected[1]
            assert as_set(tree.lines()) == as_set(model.lines)


def test_a_line_is_checked_ply_by_ply_and_written_canonically() -> None:
    start = Position(5)
    start.play("a1")
    start.play("e5")
    assert checked_line(start, "c3, d4' 1c3>1 d4-") == ["c3", "d4", "c3>", "d4-"]
    with pytest.raises(errors.IllegalMove, match=r"^b9"):
        checked_line(start, "c3 b9")
    with pytest.raises(errors.InvalidSetting, match="ends with your opponent's move"):
        checked_line(start, "c3 d4 c4")
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_LINE_PLIES} plies"):
        checked_line(start, " ".join(["c3"] * (MAX_LINE_PLIES + 1)))
    assert start.ply == 2


def test_a_line_may_end_with_a_road_and_goes_no_further() -> None:
    start = Position(3)
    for move in ("a1", "c3", "c1", "a3", "b1"):  # white holds c3, c1, b1; black to move
        start.play(move)
    assert checked_line(start, "b3 c2") == ["b3", "c2"]  # white's c2 makes the c-file road
    with pytest.raises(errors.IllegalMove, match="game is over"):
        checked_line(start, "b3 c2 b2 a2")
