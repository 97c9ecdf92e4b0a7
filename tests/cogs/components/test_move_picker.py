"""The move picker behind a board's Move button, as players use it: every legal move reachable,
none illegal offered, a stale pick refused, Discord's limits held."""

from __future__ import annotations

from typing import Any

from tak import Position
from tests.cogs.conftest import World

# 6x6, white to move: a 7-high white-topped stack on c3, a black 4-high on d4.
TALL_6X6 = "x6/x6/x3,2121,x2/x2,1212121,x3/x6/x6 1 12"
# 8x8, white to move: a 10-high white-topped stack on d5, an 8-high one on e4.
TALL_8X8 = "x8/x8/x8/x3,2121212121,x4/x3,1,12121211,x3/x8/x8/x8 1 20"


def select_of(message: Any) -> dict[str, Any]:
    [select] = [
        part for row in message.components for part in row["components"] if part["type"] == 3
    ]
    return select


def check_limits(message: Any) -> None:
    assert len(message.components) <= 5
    for row in message.components:
        assert len(row["components"]) <= 5
        for part in row["components"]:
            assert len(part["custom_id"]) <= 100
            for option in part.get("options", []):
                assert len(option["label"]) <= 100 and len(option["value"]) <= 100
            assert len(part.get("options", [])) <= 25


async def open_picker(world: World, size: int, tps: str) -> tuple[Any, Any]:
    thread = await world.start_game(size=size, tps=tps)
    board = world.last_bot_message(thread)
    shown = await world.alice.click(board, label="Move")
    assert shown.ephemeral and "choose it below" in shown.response.content
    return thread, shown.response


async def go_to(world: World, picker: Any, path: list[str]) -> str:
    """The picker's message after choosing `path` from its start; returns its text."""
    labels = [part.get("label") for row in picker.components for part in row["components"]]
    if "Start over" in labels:
        await world.alice.click(picker, label="Start over")
    for value in path:
        chosen = await world.alice.select(picker, [value])
        assert chosen.followups == [], [f.content for f in chosen.followups]
    return str(picker.content)


async def test_every_legal_move_is_reachable_on_6x6_and_none_illegal(world: World) -> None:
    _, picker = await open_picker(world, 6, TALL_6X6)
    legal = {move.ptn() for move in Position.from_tps(TALL_6X6).legal_moves()}
    previews: set[str] = set()
    pending: list[list[str]] = [[]]
    while pending:
        path = pending.pop()
        await go_to(world, picker, path)
        check_limits(picker)
        for option in select_of(picker)["options"]:
            text = await go_to(world, picker, [*path, option["value"]])
            if text.startswith("Play **"):
                ptn = text.split("**")[1]
                assert ptn in legal and len(picker.attachments) == 1  # the preview
                labels = [p.get("label") for row in picker.components for p in row["components"]]
                assert f"Confirm {ptn}" in labels
                previews.add(ptn)
            else:
                pending.append([*path, option["value"]])
    assert previews == legal


async def test_a_10_high_stack_on_8x8_is_moved_without_ptn(world: World) -> None:
    _, picker = await open_picker(world, 8, TALL_8X8)
    target = "d5>8323"  # carry 8 of the 10 right: 3 on e5, 2 on f5, 3 on g5
    chosen: list[str] = []
    while not picker.content.startswith("Play **"):
        check_limits(picker)
        values = [option["value"] for option in select_of(picker)["options"]]
        [step] = [value for value in values if target.startswith(value)]
        chosen.append(step)
        await world.alice.select(picker, [step])
    assert len(chosen) >= 4  # the file, the square, the direction, the count, ...
    assert picker.content.startswith("Play **8d5>323** in game #1?")
    check_limits(picker)
    played = await world.alice.click(picker, label="Confirm 8d5>323")
    assert "You played **8d5>323** in game #1" in played.response.content
    game = await world.env.bot.services.games.get(1)
    assert game.ply == Position.from_tps(TALL_8X8).ply + 1 and game.last_move == "8d5>323"


async def test_a_stale_pick_is_refused_and_only_the_mover_gets_a_picker(world: World) -> None:
    thread = await world.start_game(size=6, tps=TALL_6X6)
    board = world.last_bot_message(thread)
    refused = await world.bob.click(board, label="Move")
    assert refused.response.content == "It is not your turn in game #1."
    preview = (await world.alice.click(board, label="Move")).response
    other = (await world.alice.click(board, label="Move")).response
    await world.alice.select(preview, ["a"])
    await world.alice.select(preview, ["a1F"])
    assert preview.content.startswith("Play **a1** in game #1?")
    await world.move(world.alice, thread, "f6")  # played meanwhile, another way
    stale = await world.alice.click(preview, label="Confirm a1")
    [told] = stale.followups
    assert "The position has changed in game #1" in told.content
    again = await world.alice.select(other, ["b"])
    assert "The position has changed in game #1" in again.followups[0].content
    game = await world.env.bot.services.games.get(1)
    assert game.ply == Position.from_tps(TALL_6X6).ply + 1 and game.last_move == "f6"


async def test_start_over_and_typing_ptn_from_the_picker(world: World) -> None:
    _, picker = await open_picker(world, 6, TALL_6X6)
    await world.alice.select(picker, ["c"])
    assert "So far: Squares on the c file" in picker.content
    await world.alice.click(picker, label="Start over")
    assert "So far" not in picker.content
    form = await world.alice.click(picker, label="Type PTN")
    assert form.modal is not None and "game #1" in form.modal["title"]
    played = await world.alice.submit_modal(form, {"move": "3c3+12"})
    assert "You played **3c3+12** in game #1" in played.response.content


async def test_a_picker_opened_before_a_restart_still_plays(world: World, new_bot: Any) -> None:
    _, picker = await open_picker(world, 6, TALL_6X6)
    await world.alice.select(picker, ["c"])
    await world.env.restart_bot(new_bot())
    await world.alice.select(picker, ["c3+"])
    assert "So far: c3: move up." in picker.content
    await world.alice.select(picker, ["c3+11"])
    played = await world.alice.click(picker, label="Confirm c3+")
    assert "You played **c3+** in game #1" in played.response.content


async def test_the_same_choice_confirmed_twice_is_one_move(world: World) -> None:
    """Confirm pressed again for the same move in the same position (a second picker, a press
    Discord delivered twice, a retry after the store failed to answer) is the same request: it
    is told the move was played, not that the position changed, and the move is made once."""
    thread = await world.start_game(size=6, tps=TALL_6X6)
    board = world.last_bot_message(thread)
    first = (await world.alice.click(board, label="Move")).response
    second = (await world.alice.click(board, label="Move")).response
    for picker in (first, second):
        await world.alice.select(picker, ["a"])
        await world.alice.select(picker, ["a1F"])
    played = await world.alice.click(first, label="Confirm a1")
    assert "You played **a1** in game #1" in played.response.content
    again = await world.alice.click(second, label="Confirm a1")
    told = [again.response.content, *(f.content for f in again.followups)]
    # Told as done, and that nothing more was played (the first press made its post).
    assert told == [
        "You had already played **a1** in game #1: that was the same move sent again, so "
        "nothing more was played."
    ]
    game = await world.env.bot.services.games.get(1)
    assert game.ply == Position.from_tps(TALL_6X6).ply + 1 and game.last_move == "a1"
