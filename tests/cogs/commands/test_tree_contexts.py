"""Where each command may be used, as the payload discord.py sends Discord at sync declares it:
the commands a player plays with wherever Bredon is installed (a server, or the player's own
account) and used (a server, Bredon's DMs, DMs and group DMs between players); every other
group, and any group added later without saying so, only in the servers that installed Bredon."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.commands.tree import group

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
PLAYERS = {"tak", "game", "clock", "profile"}
SERVERS_ONLY = {"coins", "tournament", "organize", "bredon", "season", "league", "puzzle"}


def synced(bot: Any) -> dict[str, dict[str, Any]]:
    """The top-level commands as sent to Discord at sync, by name."""
    return {command.name: command.to_dict(bot.tree) for command in bot.tree.get_commands()}


async def test_the_player_commands_work_anywhere_and_the_rest_only_in_bredons_servers(
    simcord_env,
) -> None:
    payloads = synced(simcord_env.bot)
    assert set(payloads) == PLAYERS | SERVERS_ONLY
    for name in PLAYERS:
        assert payloads[name]["integration_types"] == [GUILD_INSTALL, USER_INSTALL], name
        assert payloads[name]["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
    for name in SERVERS_ONLY:
        assert payloads[name]["integration_types"] == [GUILD_INSTALL], name
        assert payloads[name]["contexts"] == [GUILD], name


async def test_a_new_group_is_for_bredons_servers_unless_it_says_otherwise() -> None:
    async def ping(interaction: Any) -> None:
        """Answer"""

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    made = group("later", "A group added later", ping).to_dict(tree)
    assert (made["integration_types"], made["contexts"]) == ([GUILD_INSTALL], [GUILD])
    anywhere = group("later", "A group added later", ping, anywhere=True).to_dict(tree)
    assert anywhere["integration_types"] == [GUILD_INSTALL, USER_INSTALL]
    assert anywhere["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL]
