"""Refusals of typed moves say the same thing the same way: the board's real size, the input
as typed, and one colon at most."""

from __future__ import annotations

from tests.cogs.conftest import World

SIX = "files a to f and ranks 1 to 6"


async def test_squares_off_a_6x6_board_are_refused_alike(world: World) -> None:
    thread = await world.start_game(size=6)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "f6")
    refusals = {}
    for typed in ("z9", "e7", "g1", "Sz9", "2a7>", "a1>"):  # e7, g1 parse, the engine refuses
        refusals[typed] = (await world.move(world.alice, thread, typed)).response.content
    for square in ("z9", "e7", "g1"):
        assert refusals[square] == f"{square} is not a square on this 6x6 board, which has {SIX}."
    assert refusals["Sz9"] == f"Sz9: z9 is not a square on this 6x6 board, which has {SIX}."
    assert refusals["2a7>"] == f"2a7>: a7 is not a square on this 6x6 board, which has {SIX}."
    for text in refusals.values():
        assert text.count(":") <= 1, text
        assert "a to h" not in text and "8" not in text, text
    assert (await world.env.bot.services.games.get(1)).ply == 2


async def test_a_move_is_refused_as_typed_in_one_sentence(world: World) -> None:
    thread = await world.start_game(size=6)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "f6")
    extra = (await world.move(world.alice, thread, "Cf2 extra")).response.content
    assert extra.startswith("'Cf2 extra' is not a move in PTN.")
    empty = (await world.move(world.alice, thread, "a6>")).response.content
    assert empty == "a6>: a6 is empty, so there is no stack to move."
    occupied = (await world.move(world.alice, thread, "Sa1")).response.content
    assert occupied == "Sa1: a1 is occupied, and pieces can only be placed on empty squares."
    for text in (extra, empty, occupied):
        assert text.count(":") <= 1, text


async def test_spaces_inside_a_move_are_read_as_left_out(world: World) -> None:
    """A phone's "3c3+ 12" or "S b2" is the move without its spaces; only a text that is no move
    either way is refused, and then quoted as typed (above)."""
    thread = await world.start_game(size=6)
    await world.move(world.alice, thread, "a 1")
    await world.move(world.bob, thread, "f 6")
    await world.move(world.alice, thread, "S b2")
    game = await world.env.bot.services.games.get(1)
    # a1 holds bob's flat (alice's placement), f6 alice's, b2 alice's wall.
    assert game.ply == 3 and game.tps == "x5,1/x6/x6/x6/x,1S,x4/2,x5 2 2"
