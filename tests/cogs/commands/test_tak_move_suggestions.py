"""`/tak move` suggestions follow what is typed: the prefix decides the order, at most 25 are
shown, and every legal move shows once typed far enough."""

from __future__ import annotations

import pytest

from cogs.commands.tak import MAX_SUGGESTIONS, suggested_moves
from tak import Position
from tests.cogs.components.test_move_picker_tree import TALL_8X8, random_position
from tests.cogs.conftest import World

# 6x6, white to move, capstones in hand: the c file's moves once fell behind capstone placements.
MIDDLE_6X6 = "x6/x6/x3,2121,x2/x2,1212121,x3/x6/x6 1 12"


def test_the_typed_file_comes_before_capstones_elsewhere() -> None:
    legal = [move.ptn() for move in Position.from_tps(MIDDLE_6X6).legal_moves()]
    shown = suggested_moves(legal, "c")
    c_file = [text for text in legal if text.startswith("c")]
    assert shown[: len(c_file)] == sorted(c_file, key=lambda text: (len(text), text))
    assert "c6" in shown and shown[len(c_file)].startswith("C")
    assert suggested_moves(legal, "C")[:3] == ["Ca1", "Ca2", "Ca3"]  # a capitalised C: capstones


@pytest.mark.parametrize("seed", range(30))
def test_every_legal_move_shows_once_typed_far_enough(seed: int) -> None:
    position = random_position(seed, 3 + seed % 6)
    legal = [move.ptn() for move in position.legal_moves()]
    for text in legal:
        for cut in range(len(text) + 1):
            shown = suggested_moves(legal, text[:cut])
            assert len(shown) <= MAX_SUGGESTIONS
            assert all(move.lower().startswith(text[:cut].lower()) for move in shown)
        assert suggested_moves(legal, text)[0] == text


def test_a_tall_stack_s_moves_are_reached_by_typing_them() -> None:
    legal = [move.ptn() for move in Position.from_tps(TALL_8X8).legal_moves()]
    assert len(suggested_moves(legal, "8d5>")) == MAX_SUGGESTIONS  # more than fit
    assert "8d5>323" in suggested_moves(legal, "8d5>32")


async def test_typing_c_suggests_the_c_file_first(world: World) -> None:
    thread = await world.start_game(size=6, tps=MIDDLE_6X6)
    typed = await world.alice.autocomplete(thread, "tak move", "ptn", "c")
    names = [choice["name"] for choice in typed]
    assert names[:5] == ["c1", "c2", "c4", "c5", "c6"] and len(names) == MAX_SUGGESTIONS
    assert names.index("c3>") < names.index("Ca1")
