"""The command tree as Discord will see it: every cog loads, names are unique, and every name,
description, option and button id respects Discord's limits."""

from __future__ import annotations

import importlib
import re

import discord
import pytest

from bot.app import EXTENSIONS
from cogs.buttons import HANDLERS, KINDS, ActionButton

NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_SNOWFLAKE = 2**63 - 1


def walk(payload: dict, path: str = ""):
    """Every command, subcommand and option in a command payload, with its path."""
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options", []):
        yield from walk(option, here)


def check_limits(path: str, item: dict) -> list[str]:
    problems = []
    name, description = item["name"], item.get("description", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{path}: bad name {name!r}")
    if not 1 <= len(description) <= 100:
        problems.append(f"{path}: description has {len(description)} characters")
    options = item.get("options", [])
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options")
    names = [option["name"] for option in options]
    if len(names) != len(set(names)):
        problems.append(f"{path}: repeated names {names}")
    required = [option.get("required", False) for option in options]
    if required != sorted(required, reverse=True):
        problems.append(f"{path}: a required option follows an optional one")
    for choice in item.get("choices") or []:
        if not 1 <= len(choice["name"]) <= 100:
            problems.append(f"{path}: choice {choice['name']!r}")
    if len(item.get("choices") or []) > 25:
        problems.append(f"{path}: more than 25 choices")
    return problems


async def test_every_cog_loads_with_the_tak_and_tournament_groups(simcord_env) -> None:
    bot = simcord_env.bot
    assert set(bot.extensions) == set(EXTENSIONS)
    assert bot.cogs, "no cog loaded"
    assert bot.intents == discord.Intents.default()
    assert not bot.intents.message_content and not bot.intents.members
    names = [command.name for command in bot.tree.get_commands()]
    assert names == ["tak", "bredon", "tournament", "organize"]
    admin = {c.name: c.default_permissions for c in bot.tree.get_commands()}
    assert admin["bredon"] == admin["organize"] == discord.Permissions(manage_guild=True)
    assert admin["tak"] is None and admin["tournament"] is None


async def test_names_descriptions_and_options_fit_discord(simcord_env) -> None:
    tree = simcord_env.bot.tree
    payloads = [command.to_dict(tree) for command in tree.get_commands()]
    assert len(payloads) <= 100
    problems = []
    seen = set()
    for payload in payloads:
        for path, item in walk(payload):
            assert path not in seen, f"duplicate command {path}"
            seen.add(path)
            problems += check_limits(path, item)
    assert problems == []
    [tak] = [payload for payload in payloads if payload["name"] == "tak"]
    subcommands = {option["name"] for option in tak["options"]}
    assert len(tak["options"]) <= 25
    assert {
        "challenge",
        "move",
        "help",
        "board",
        "games",
        "resign",
        "draw",
        "undo",
        "abort",
        "ptn",
        "tps",
        "replay",
        "scores",
        "settings",
        "leaderboard",
    } <= subcommands


@pytest.mark.parametrize("action", sorted(KINDS))
def test_every_button_has_a_handler_and_a_short_custom_id(action: str) -> None:
    importlib.import_module("cogs.actions")  # registers the handlers, as loading the bot does
    assert action in HANDLERS
    button = ActionButton(action, MAX_SNOWFLAKE)
    custom_id = button.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    assert ActionButton.__discord_ui_compiled_template__.fullmatch(custom_id)
