"""Private notes on games (bot.games.notes) and the scratch board (bot.games.scratch)."""

from __future__ import annotations

import pytest

from bot import errors
from bot.games import notes
from bot.games.notes import MAX_NOTE
from bot.games.scratch import MAX_SCRATCH_PLIES, try_line
from tak import Position
from tests.bot.conftest import ALICE, BOB, CAROL


async def test_each_player_keeps_their_own_note_and_may_delete_it(services, new_game) -> None:
    game = await new_game()
    assert await services.notes.write(game.id, ALICE.id, "  plan:\u200b c3 then\n\n  d4 ") == (
        "plan: c3 then\n\nd4"
    )
    await services.notes.write(game.id, BOB.id, "watch the a-file")
    assert await services.notes.read(game.id, ALICE.id) == "plan: c3 then\n\nd4"
    assert await services.notes.read(game.id, BOB.id) == "watch the a-file"
    assert await services.notes.write(game.id, ALICE.id, "changed my mind") == "changed my mind"
    assert await services.notes.read(game.id, ALICE.id) == "changed my mind"
    assert await services.notes.write(game.id, ALICE.id, "   ") is None
    assert await services.notes.read(game.id, ALICE.id) is None
    assert await services.notes.read(game.id, BOB.id) == "watch the a-file"


async def test_only_players_write_notes_and_a_long_one_is_refused(services, new_game) -> None:
    game = await new_game()
    with pytest.raises(errors.NotInGame):
        await services.notes.write(game.id, CAROL.id, "spying")
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_NOTE:,} characters"):
        await services.notes.write(game.id, ALICE.id, "x" * (MAX_NOTE + 1))
    with pytest.raises(errors.UnknownGame):
        await services.notes.write(999, ALICE.id, "no such game")
    assert await services.db.fetchall("SELECT * FROM game_notes") == []


def test_a_scratch_line_is_numbered_and_marked_and_the_game_untouched() -> None:
    start = Position(5)
    start.play("a1")
    start.play("e5")  # black's a1 answered; white to move at ply 2
    # White owns e5 (the swap opening): e4, e3, e2 leave e1 to finish the road, a Tak.
    line = try_line(start, "e4 a2 e3, a3 e2")
    assert line.text == "2. e4 a2 3. e3 a3 4. e2'"
    assert start.ply == 2 and line.position.ply == 7
    black_first = try_line(line.position, "e1")  # black blocks: a ply of move 4
    assert black_first.text == "4... e1"


def test_an_illegal_move_in_a_scratch_line_names_it_and_shows_nothing() -> None:
    start = Position(5)
    with pytest.raises(errors.IllegalMove, match=r"^b7"):
        try_line(start, "a1 b7")
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_SCRATCH_PLIES}"):
        try_line(start, " ".join(["a1"] * (MAX_SCRATCH_PLIES + 1)))
    with pytest.raises(errors.InvalidSetting, match="Write the moves"):
        try_line(start, " , ")
    assert start.ply == 0


def test_nothing_is_tried_past_the_end_of_the_game() -> None:
    start = Position(3)
    with pytest.raises(errors.IllegalMove, match="game is over"):
        try_line(start, "a1 c1 c2 a2 c3 b2")  # white's road c1-c3 ends it at ply 5


async def test_a_note_past_the_limit_is_refused_before_it_is_cleaned(
    services, new_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2 MB note took seconds to clean before its length was checked: its length as sent is
    refused first (cleaning counted, not timed)."""
    game = await new_game()
    cleaned: list[int] = []
    strip_unsafe = notes.strip_unsafe

    def counted(text: str) -> str:
        cleaned.append(len(text))
        return strip_unsafe(text)

    monkeypatch.setattr(notes, "strip_unsafe", counted)
    with pytest.raises(errors.InvalidSetting, match="this one has 2,000,000"):
        await services.notes.write(game.id, ALICE.id, "x\u200b" * 1_000_000)
    assert cleaned == []
    assert await services.notes.write(game.id, ALICE.id, "x" * MAX_NOTE) == "x" * MAX_NOTE
    assert cleaned == [MAX_NOTE]
