"""The move picker's tree, without Discord: every legal move is reached by following its
choices, nothing else is offered, and every step fits Discord's limits."""

from __future__ import annotations

import random

import pytest

from cogs.actions.move_picker import (
    MAX_OPTIONS,
    StaleChoice,
    describe,
    move_steps,
    next_choices,
    steps_move,
)
from tak import Position

# An 8x8 middle game, white to move, with a 10-high white-topped stack on d5 and an 8-high one
# on e4.
TALL_8X8 = "x8/x8/x8/x3,2121212121,x4/x3,1,12121211,x3/x8/x8/x8 1 20"


def reachable(position: Position) -> tuple[set[str], int]:
    """Every move the picker leads to from its first select, and the most options shown."""
    found: set[str] = set()
    widest = 0
    pending = [""]
    while pending:
        chosen = pending.pop()
        choices = next_choices(position.legal_moves(), chosen)
        widest = max(widest, len(choices))
        for steps in choices:
            assert steps.startswith(chosen) and len(steps) > len(chosen) and len(steps) <= 12
            assert len(describe(steps, position)) <= 100
            move = steps_move(steps)
            if move is None:
                pending.append(steps)
            else:
                assert move_steps(move) == steps
                found.add(move.ptn())
    return found, widest


def random_position(seed: int, size: int) -> Position:
    rng = random.Random(seed)
    position = Position(size)
    for _ in range(rng.randrange(0, 120)):
        legal = position.legal_moves()
        if position.result is not None or not legal:
            break
        spreads = [move for move in legal if not hasattr(move, "piece")]
        position.play(rng.choice(spreads if spreads and rng.random() < 0.7 else legal))
        if position.result is not None:
            position.pop()
            break
    return position


@pytest.mark.parametrize("seed", range(60))
def test_every_legal_move_and_nothing_else_is_reachable(seed: int) -> None:
    position = random_position(seed, 3 + seed % 6)
    found, widest = reachable(position)
    assert found == {move.ptn() for move in position.legal_moves()}
    assert widest <= MAX_OPTIONS


def test_a_tall_stack_on_8x8_fits_every_select() -> None:
    position = Position.from_tps(TALL_8X8)
    legal = {move.ptn() for move in position.legal_moves()}
    assert len(legal) > 500  # far beyond one select
    found, widest = reachable(position)
    assert found == legal and widest <= MAX_OPTIONS
    legal_moves = position.legal_moves()
    assert next_choices(legal_moves, "d5") == ["d5+", "d5-", "d5<", "d5>"]
    # at most 8 carried (the carry limit), one carried is one move only
    assert next_choices(legal_moves, "d5>") == ["d5>11"] + [f"d5>{n}" for n in range(2, 9)]
    assert len(next_choices(legal_moves, "d5>8")) > 1  # drops still to choose
    assert next_choices(legal_moves, "d4") == ["d4+11", "d4-11", "d4<11", "d4>11"]


def test_few_moves_are_listed_whole() -> None:
    position = Position.from_tps("x3/x3/x3 1 1")  # the opening: a flat on any of 9 squares
    assert next_choices(position.legal_moves(), "") == [
        f"{file}{rank}F" for file in "abc" for rank in "123"
    ]
    assert describe("b2F", position) == "b2: place a flat on b2"


def test_few_moves_are_listed_by_square_and_words_say_what_happens() -> None:
    position = Position.from_tps("x3/x,1,x/2,x2 1 3")
    assert next_choices(position.legal_moves(), "") == [
        "a2F", "a2S", "a3F", "a3S", "b1F", "b1S", "b2+11", "b2-11", "b2<11", "b2>11",
        "b3F", "b3S", "c1F", "c1S", "c2F", "c2S", "c3F", "c3S",
    ]  # fmt: skip
    assert describe("b2>11", position) == "b2>: carry 1 right, 1 on c2"
    assert describe("a2S", position) == "Sa2: place a wall (standing stone) on a2"
    assert describe("b2", position) == "b2: stack of 1, white on top"
    assert describe("a1", position) == "a1: stack of 1, black on top"
    assert describe("c3", position) == "c3: empty, place a piece"


def test_a_step_leading_nowhere_is_refused() -> None:
    position = Position(5)
    with pytest.raises(StaleChoice):
        next_choices(position.legal_moves(), "a1>")


@pytest.mark.parametrize(
    "steps", ["", "a", "a1", "a1>", "a1>2", "a1>21", "a1>20", "a9F", "i1F", "a1X"]
)
def test_steps_that_make_no_move_are_none(steps: str) -> None:
    assert steps_move(steps) is None
