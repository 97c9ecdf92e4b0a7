"""/bredon config pages: a server's web pages turned on, and the link under its boards."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest

from bot.guild_settings import Pages
from bot.page_addresses import PageAddresses
from bot.settings import WebPages
from cogs.client import BredonBot
from cogs.words import game_messages
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


async def test_a_tournaments_embed_links_its_page_where_pages_are_on(world: World) -> None:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    options = {"format": "round_robin", "size": 3, "komi": 0, "days": 1}
    await boss.slash(world.channel, "organize create", name="Closed Cup", **options)
    await boss.slash(world.channel, "bredon config", pages="unlisted")
    await boss.slash(world.channel, "organize create", name="Open Cup", **options)
    closed, opened = [m.embeds[0] for m in world.bot_messages(world.channel) if m.embeds]
    assert closed.url is None  # made while the server's pages were off
    assert (opened.url or "").startswith(f"{PUBLIC}/tournament/2/")


def test_the_config_line_says_when_no_link_can_be_given() -> None:
    addresses = PageAddresses("a secret of the database", PUBLIC)
    assert game_messages.pages_text(Pages.OFF, addresses, 5) == "Web pages: off."
    unreachable = game_messages.pages_text(Pages.LISTED, None, 5)
    assert "BREDON_PUBLIC_URL" in unreachable and "<" not in unreachable
    assert "posted under the boards" in game_messages.pages_text(Pages.UNLISTED, addresses, 5)
    listed = game_messages.pages_text(Pages.LISTED, addresses, 5)
    assert listed.endswith(f"<{addresses.server(5)}>")
