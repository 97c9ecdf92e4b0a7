"""After a move, the next game awaiting the mover in this server, one press away (as OGS and ICCF
offer): its line under the confirmation, and a Next game button that shows its board with Move."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import World


def button_labels(message: Any) -> list[str]:
    return [part.get("label") for row in message.components for part in row["components"]]


async def test_the_next_game_is_offered_after_a_move_and_its_board_has_move(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    first = await world.start_game()  # alice (white) against bob
    second = await world.start_game(opponent=carol)  # alice (white) against carol
    # Both await alice's first move: after it in the first, the second is next.
    played = await world.move(alice, first, "a1")
    assert played.ephemeral
    text = played.response.content
    assert text.startswith("Next: game #2 against carol, ply 0"), text
    assert button_labels(played.response) == ["Next game"]

    shown = await alice.click(played.response, label="Next game")
    [board] = shown.followups
    assert board.ephemeral and board.content.startswith("#2 ") and "**your move**" in board.content
    assert len(board.attachments) == 1  # the board picture
    assert button_labels(board) == ["Move"]
    picker = await alice.click(board, label="Move")
    assert picker.ephemeral and "choose it below" in picker.response.content

    # With the second game played too, nothing else awaits alice: no confirmation at all (the
    # move's post in front of her says it), as before.
    played = await world.move(alice, second, "a1")
    assert played.response is None
    # Bob has one game; after his move nothing awaits him either.
    played = await world.move(bob, first, "e5")
    assert played.response is None


async def test_a_move_from_elsewhere_says_it_was_played_then_what_is_next(world: World) -> None:
    alice = world.alice
    await world.start_game()
    await world.start_game(opponent=world.carol)
    # From the lobby, naming the game: the move is posted in its thread, not here.
    played = await world.move(alice, world.channel, "a1", game=1)
    lines = played.response.content.splitlines()
    assert lines[0].startswith("You played **a1** in game #1"), lines
    assert lines[1].startswith("Next: game #2 against carol"), lines
