"""What players see of a game, post by post: only the latest board can be pressed, and a board
that a newer one replaced loses its buttons even when Discord fails the edit or the bot restarts
meanwhile."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.discord.conftest import World, advance


def labels(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


def boards(world: World, thread) -> list[discord.Message]:
    return [m for m in world.bot_messages(thread) if m.attachments]


async def test_only_the_latest_board_has_buttons_and_the_last_loses_them_at_the_end(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    moves = ["e5", "a1", "a2", "e4", "a3", "e3", "a4", "e2"]
    for ply, text in enumerate(moves):
        await world.move([alice, bob][ply % 2], thread, text)
        posted = boards(world, thread)
        assert len(posted) == ply + 2  # the start and one board per move
        assert [labels(m) for m in posted[:-1]] == [[]] * (ply + 1)
        assert labels(posted[-1]) == ["Move", "Give 1 day"]
    await world.move(alice, thread, "a5")  # the road
    posted = boards(world, thread)
    assert [labels(m) for m in posted[:-1]] == [[]] * (len(moves) + 1)
    assert labels(posted[-1]) == ["Rematch"]


@pytest.mark.parametrize("restart", [False, True], ids=["retried", "retried-after-a-restart"])
@pytest.mark.parametrize("status", [500, 404])
async def test_a_board_whose_buttons_discord_failed_to_strip_loses_them_later(
    world: World, new_bot, status: int, restart: bool
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    thread = await world.start_game(size=5)
    [start] = boards(world, thread)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/{start.id}", status=status)
    played = await world.move(alice, thread, "e5")
    assert "You played **e5**" in played.response.content  # the move's post is not held back
    start, board = boards(world, thread)
    assert labels(board) == ["Move", "Give 1 day"]
    if status == 404:  # Discord says the message is gone: nothing is left to retry
        return
    assert labels(start) == ["Move", "Give 1 day"]  # the edit failed
    if restart:
        await env.restart_bot(new_bot())
    await advance(env, timedelta(seconds=31))
    start, board = boards(world, thread)
    assert labels(start) == [] and labels(board) == ["Move", "Give 1 day"]
    await world.move(bob, thread, "a1")
    assert [labels(m) for m in boards(world, thread)] == [[], [], ["Move", "Give 1 day"]]
