"""/bredon config pages: a server's web pages turned on, and the link under its boards."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest

from bot.guild_settings import Pages
from bot.settings import WebPages
from cogs.client import BredonBot
from tests.cogs.conftest import World

PUBLIC = "https://tak.example.org"


@pytest.fixture
def simcord_bot(new_bot: Callable[..., BredonBot]) -> BredonBot:
    """The bot with BREDON_PUBLIC_URL set: it links boards to their pages."""
    return new_bot(web=WebPages(public_url=PUBLIC))


async def test_listed_pages_give_the_lobby_and_boards_link_their_game(world: World) -> None:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    thread = await world.start_game(size=5)
    assert PUBLIC not in world.last_bot_message(thread).content  # pages are off by default

    done = await boss.slash(world.channel, "bredon config", pages="listed")
    assert f"Web pages: listed; the lobby: <{PUBLIC}/server/" in done.response.content
    services = world.env.bot.services
    assert (await services.guilds.get(world.guild.id)).pages is Pages.LISTED

    await world.move(world.alice, thread, "a1")
    assert f"(<{PUBLIC}/game/1/" in world.last_bot_message(thread).content
