"""What players see of a game, post by post: only the latest board can be pressed, and a board
that a newer one replaced loses its buttons even when Discord fails the edit or the bot restarts
meanwhile."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from cogs.client import INVITE_PERMISSIONS
from tests.cogs.conftest import World, advance, grant_bot


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
    assert played.response is None  # the move's post went out: it is not held back
    start, board = boards(world, thread)
    assert labels(board) == ["Move", "Give 1 day"]
    pending = await env.bot.services.outbox.pending("boards:1")
    if status == 404:  # Discord says the message is gone: settled, nothing left to retry
        assert pending == 0
        return
    assert labels(start) == ["Move", "Give 1 day"] and pending == 1  # the edit failed: retried
    if restart:
        await env.restart_bot(new_bot())
    await advance(env, timedelta(seconds=31))
    start, board = boards(world, thread)
    assert labels(start) == [] and labels(board) == ["Move", "Give 1 day"]
    await world.move(bob, thread, "a1")
    assert [labels(m) for m in boards(world, thread)] == [[], [], ["Move", "Give 1 day"]]


@pytest.mark.parametrize("may_edit", [False, True], ids=["invite-permissions", "may-edit"])
async def test_a_two_game_match_post_by_post(world: World, may_edit: bool) -> None:
    """Every post of a two-game match: one per move, numbered as in the PTN, the swap opening
    explained on its two plies, how to move said once to each player, the settings not
    repeated, no buttons left on a board that is not the latest, and the thread named for the
    game played in it. Discord lets the bot rename the thread it made; SimCord asks for Manage
    Channels to edit a thread at all, so with the invite permissions the name stays."""
    alice, bob = world.alice, world.bob
    if may_edit:
        grant_bot(
            world.env, world.guild, INVITE_PERMISSIONS | discord.Permissions(manage_channels=True)
        )
    thread = await world.start_game(size=4, games=2)
    hint = "your move with `/tak move`"
    assert thread.name == "Game 1 of 2: alice vs bob"

    def posts_since(count: int) -> list[str]:
        return [m.content for m in world.bot_messages(thread)[count:]]

    [start] = posts_since(0)
    assert start.startswith(
        "Match game 1 of 2 (game #1) starts: **alice** (white) vs **bob** (black).\n"
        f"{alice.mention}, {hint} or the **Move** button: place one of **bob**'s flats · "
        "time runs out <t:"
    ), start
    assert "komi" not in start  # the challenge showed the settings
    before = 1
    for ply, (mover, text) in enumerate([(alice, "a1"), (bob, "d4"), (alice, "b2"), (bob, "c3")]):
        await world.move(mover, thread, text)
        [post] = posts_since(before)  # one post per move
        before += 1
        waiting = [alice, bob][(ply + 1) % 2]
        label = ["1. a1", "1... d4", "2. b2", "2... c3"][ply]
        assert post.startswith(f"**{label}**"), post
        assert ("placed" in post and "first stone" in post) is (ply < 2), post
        assert ("in a swap opening" in post) is (ply == 0), post  # explained once
        assert (hint in post) is (ply == 0), post  # bob's first turn; alice had it at the start
        assert f"{waiting.mention} to move · time runs out <t:" in post or ply == 0, post
    assert "**1. a1** — **alice** placed **bob**'s first stone" in posts_since(1)[0]

    await alice.slash(thread, "tak resign")
    confirm = [m for m in thread.history(viewer=alice) if labels(m) == ["Resign"]][-1]
    await alice.click(confirm, label="Resign")
    ending, second = posts_since(before)
    assert "Game #1 is over" in ending
    assert "Match score: alice 0 – 1 bob (game 1 of 2; points 0 – " in ending  # games first
    assert "Ratings: alice 1" in ending and "?" in ending  # both new: provisional, and said so
    assert "A ? marks a provisional rating" in ending
    assert second.startswith(
        "Match game 2 of 2 (game #2) starts: **bob** (white) vs **alice** (black).\n"
        f"{bob.mention}, {hint} or the **Move** button: place one of **alice**'s flats"
    ), second
    game_boards = boards(world, thread)
    assert [labels(m) for m in game_boards[:-1]] == [[]] * (len(game_boards) - 1)
    assert labels(game_boards[-1]) == ["Move", "Give 1 day"]  # game 2's first board
    renamed = "Game 2 of 2: bob vs alice" if may_edit else "Game 1 of 2: alice vs bob"
    assert world.env.backend.get_channel(thread.id).name == renamed

    # Until game 2 has a move, what reads a game in the thread means game 1, just finished;
    # what acts means game 2.
    for reader in (alice, bob, world.carol):
        tps = await reader.slash(thread, "game tps")
        assert tps.response.content.startswith("Game #1, ply 4:"), tps.response.content
    await world.move(bob, thread, "a4")
    # Game 2 says it all again, once: its numbering starts over, its swap is explained, and
    # alice, to move first in it, is told how.
    assert world.last_bot_message(thread).content.startswith(
        "**1. a4** — **bob** placed **alice**'s first stone"
    )
    assert f"{alice.mention}, {hint}" in world.last_bot_message(thread).content
    tps = await alice.slash(thread, "game tps")
    assert tps.response.content.startswith("Game #2, ply 1:"), tps.response.content
