"""The bot as Discord will see it: every cog loads with the command groups and no privileged
intent, and every button id respects Discord's limits (the commands themselves:
test_command_tree.py)."""

from __future__ import annotations

import importlib

import discord
import pytest

from cogs.components.buttons import HANDLERS, KINDS, ActionButton

MAX_SNOWFLAKE = 2**63 - 1


async def test_every_cog_loads_with_the_tak_and_tournament_groups(simcord_env) -> None:
    bot = simcord_env.bot
    assert not bot.extensions  # put in place by the entry point's wiring, none loaded by name
    assert {type(cog).__module__ for cog in bot.cogs.values()} == {
        "cogs.delivery.courier",
        "cogs.delivery.notices",
        "cogs.commands.tak",
        "cogs.commands.tak_play",
        "cogs.commands.game",
        "cogs.commands.game_analysis",
        "cogs.commands.clock",
        "cogs.commands.profile",
        "cogs.commands.tournament",
        "cogs.commands.organize",
        "cogs.commands.league",
        "cogs.commands.season",
        "cogs.commands.puzzle",
    }
    assert bot.intents == discord.Intents.default()
    assert not bot.intents.message_content and not bot.intents.members
    names = [command.name for command in bot.tree.get_commands()]
    assert names == [
        "tak",
        "game",
        "clock",
        "profile",
        "coins",
        "puzzle",
        "tournament",
        "season",
        "organize",
        "league",
        "bredon",
    ]
    admin = {c.name: c.default_permissions for c in bot.tree.get_commands()}
    assert admin["bredon"] == admin["organize"] == discord.Permissions(manage_guild=True)
    assert admin["tak"] is None and admin["tournament"] is None and admin["league"] is None
    assert admin["season"] is None


@pytest.mark.parametrize("action", sorted(KINDS))
def test_every_button_has_a_handler_and_a_short_custom_id(action: str) -> None:
    importlib.import_module(
        "cogs.actions.presses"
    )  # registers the handlers, as loading the bot does
    assert action in HANDLERS
    button = ActionButton(action, MAX_SNOWFLAKE)
    custom_id = button.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    assert ActionButton.__discord_ui_compiled_template__.fullmatch(custom_id)
