"""Moves typed as plain messages in a game's thread: opt-in for the bot (BREDON_TYPED_MOVES, which
needs the message content intent) and for each server (/bredon config typed_moves)."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest

from cogs.client import BredonBot
from tests.cogs.conftest import World

pytestmark = pytest.mark.simcord(
    approved_intents=discord.Intents.default() | discord.Intents(message_content=True)
)


@pytest.fixture
def simcord_bot(new_bot: Callable[..., BredonBot]) -> BredonBot:
    """The bot as `python -m bot` builds it with BREDON_TYPED_MOVES=1."""
    return new_bot(typed_moves=True)


async def allow_typed_moves(world: World) -> None:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    done = await boss.slash(world.channel, "bredon config", typed_moves=True)
    assert "Moves typed in game threads: played" in done.response.content


async def test_a_typed_move_is_played_and_chat_is_left_alone(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await alice.send(thread, "a1")  # the server has not turned typed moves on yet
    assert (await world.env.bot.services.games.get(1)).ply == 0

    await allow_typed_moves(world)
    await alice.send(thread, "ａ１")  # full-width, as some phones type it
    assert "**1. a1**" in world.last_bot_message(thread).content
    await alice.send(thread, "b2")  # not alice's turn: ignored
    await bob.send(thread, "good luck!")  # chat: ignored
    await bob.send(thread, "a1")  # occupied: ignored, no refusal posted
    posts = len(world.bot_messages(thread))
    assert (await world.env.bot.services.games.get(1)).ply == 1
    await bob.send(thread, " e5’ ")
    assert len(world.bot_messages(thread)) == posts + 1
    assert "**1... e5**" in world.last_bot_message(thread).content
