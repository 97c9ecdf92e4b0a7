"""The command tree the bot builds, walked as Discord will see it: groups by what players do, each
well under Discord's 25 subcommands, every name, description and option within Discord's limits,
no qualified name twice; and the names that moved answering with their new name."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import app_commands

from cogs.arguments import SHARED_OPTIONS
from cogs.client import sync_commands
from cogs.commands.tree import MOVED

NAME = re.compile(r"^[-_\w]{1,32}$")
MOST_SUBCOMMANDS = 20  # Discord allows 25 in a group: room to grow
MOST_OPTIONS = 10  # Discord allows 25 a command: more is a form, not a command (a second step)
SUBCOMMAND, SUBGROUP = 1, 2


def walk(payload: dict[str, Any], path: str = ""):
    """Every command, subcommand and option in a command payload, with its path."""
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options", []):
        yield from walk(option, here)


def commands_of(payload: dict[str, Any], path: str = "") -> list[str]:
    """The qualified names of the commands in a group's payload ("clock vacation start")."""
    here = f"{path} {payload['name']}".strip()
    children = [o for o in payload.get("options", []) if o.get("type") in (SUBCOMMAND, SUBGROUP)]
    if not children:
        return [here]
    return [name for child in children for name in commands_of(child, here)]


def check_limits(path: str, item: dict[str, Any]) -> list[str]:
    problems = []
    name, description = item["name"], item.get("description", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{path}: bad name {name!r}")
    if not 1 <= len(description) <= 100:
        problems.append(f"{path}: description has {len(description)} characters")
    if not description.strip(".…"):  # discord.py's placeholder when none was given
        problems.append(f"{path}: no description")
    options = item.get("options", [])
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options")
    asked = [option for option in options if option.get("type") not in (SUBCOMMAND, SUBGROUP)]
    if len(asked) > MOST_OPTIONS:
        problems.append(f"{path}: asks for {len(asked)} options")
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


def payloads(bot) -> list[dict[str, Any]]:
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


async def test_every_group_has_room_and_every_command_fits_discord(simcord_env) -> None:
    tree = payloads(simcord_env.bot)
    assert len(tree) <= 100
    problems: list[str] = []
    seen: set[str] = set()
    for payload in tree:
        assert payload.get("type", 1) == 1 and payload["options"], payload["name"]
        for path, item in walk(payload):
            assert path not in seen, f"duplicate command {path}"
            seen.add(path)
            problems += check_limits(path, item)
            subcommands = [o for o in item.get("options", []) if o.get("type") in (1, 2)]
            if len(subcommands) >= MOST_SUBCOMMANDS:
                problems.append(f"{path}: {len(subcommands)} subcommands")
    assert problems == []


def test_a_command_asking_for_more_than_ten_options_is_a_problem() -> None:
    def command(count: int, name: str = "made") -> dict[str, Any]:
        options = [
            {"type": 4, "name": f"option{n}", "description": "A number"} for n in range(count)
        ]
        return {"type": 1, "name": name, "description": "Made up", "options": options}

    assert check_limits("tak made", command(10)) == []
    assert check_limits("tak made", command(11)) == ["tak made: asks for 11 options"]
    commands = [command(10, f"made{n}") for n in range(11)]
    group = {"type": 1, "name": "tak", "description": "Play", "options": commands}
    assert check_limits("tak", group) == []  # a group's subcommands are not options


async def test_the_commands_are_grouped_by_what_players_do(simcord_env) -> None:
    tree = {p["name"]: commands_of(p) for p in payloads(simcord_env.bot)}
    every = [name for names in tree.values() for name in names]
    assert len(every) == len(set(every))
    assert tree["tak"] == [
        f"tak {name}"
        for name in (
            "challenge",
            "play",
            "move",
            "board",
            "resign",
            "draw",
            "undo",
            "abort",
            "games",
            "help",
        )
    ]
    assert tree["game"] == [
        *(
            f"game {n}"
            for n in ("tps", "ptn", "replay", "view", "analysis", "note", "scratch", "explore")
        ),
        *(f"game conditions {n}" for n in ("add", "show", "clear")),
    ]
    assert tree["clock"] == [
        "clock moretime",
        "clock pause",
        "clock resume",
        "clock reminders",
        "clock vacation start",
        "clock vacation end",
        "clock vacation status",
    ]
    assert tree["profile"] == [
        "profile settings",
        "profile scores",
        "profile stats",
        "profile leaderboard",
    ]
    assert tree["coins"] == ["coins wallet", "coins leaderboard"]
    assert tree["puzzle"] == ["puzzle solve", "puzzle daily", "puzzle answer", "puzzle stats"]
    assert "organize checkin open" in tree["organize"] and "tournament join" in tree["tournament"]
    assert {"tournament bye"} <= set(tree["tournament"])
    assert {"organize bye", "organize forbid", "organize allow"} <= set(tree["organize"])
    assert {"organize create", "organize settings", "organize clocks"} <= set(tree["organize"])
    assert tree["bredon"] == ["bredon config", "bredon gambling", "bredon grant", "bredon puzzles"]
    # Every moved name leads to a command that exists, and is itself gone.
    assert set(MOVED.values()) <= set(every)
    assert not set(MOVED) & set(every)


async def test_shared_options_are_described_once_for_every_command(simcord_env) -> None:
    described = {}
    for payload in payloads(simcord_env.bot):
        for path, item in walk(payload):
            if item["name"] in SHARED_OPTIONS and item.get("type") not in (1, 2):
                described[path] = item["description"]
    assert {path.rsplit(" ", 1)[1] for path in described} == set(SHARED_OPTIONS)
    assert sum(text == SHARED_OPTIONS["game"] for text in described.values()) >= 9
    assert sum(text == SHARED_OPTIONS["public"] for text in described.values()) >= 10
    assert sum(text == SHARED_OPTIONS["tournament"] for text in described.values()) >= 15


def old_commands(current: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands as Discord still has them where an admin has not synced since the update:
    `/tak` with some of the commands that moved out of it."""
    game = {"type": 4, "name": "game", "description": "The game", "autocomplete": True}
    days = {"type": 4, "name": "days", "description": "How many days", "required": False}
    moved = [
        {"type": 1, "name": "tps", "description": "A game's position", "options": [game]},
        {"type": 1, "name": "wallet", "description": "Your coins", "options": []},
        {
            "type": 2,
            "name": "vacation",
            "description": "Vacations",
            "options": [
                {"type": 1, "name": "start", "description": "Go away", "options": [days]},
            ],
        },
    ]
    registered = [{k: v for k, v in p.items() if k != "nsfw"} for p in current]
    return [{**p, "options": p["options"] + moved} if p["name"] == "tak" else p for p in registered]


@pytest.mark.parametrize(
    ("old", "options", "new"),
    [
        ("tak tps", {"game": 1}, "game tps"),
        ("tak wallet", {}, "coins wallet"),
        ("tak vacation start", {"days": 3}, "clock vacation start"),
    ],
)
async def test_an_old_name_answers_with_the_new_one_and_does_nothing(
    world, old: str, options: dict[str, Any], new: str
) -> None:
    """Discord sends a command the tree no longer has (the server's commands were not synced
    since the update): the user is told its new name, privately, and nothing else happens."""
    env = world.env
    bot = env.bot
    thread = await world.start_game(size=5)
    env.backend.register_commands(None, old_commands(payloads(bot)))
    before = await bot.services.holds.vacation_status(world.guild.id, world.alice.id)
    posts = len(thread.history())

    answered = await world.alice.slash(thread, old, **options)

    assert answered.ephemeral and answered.followups == []
    assert answered.response.content == f"`/{old}` is now `/{new}`."
    after = await bot.services.holds.vacation_status(world.guild.id, world.alice.id)
    assert after == before
    assert await bot.services.wallets.leaderboard(world.guild.id) == []
    assert len(thread.history()) == posts  # nothing posted in the game's thread
    # The commands of this version still work beside the old ones.
    assert (
        await world.move(world.alice, thread, "a1")
    ).response is None  # the post where they moved says it
    suggested = await world.alice.autocomplete(thread, "tak tps", "game", "")
    assert suggested == []
    # discord.py finds neither in the tree and says so to the tree's on_error, which answered.
    assert [type(error) for error in env.errors] == [app_commands.CommandNotFound] * 2
    await sync_commands(bot)  # the admin syncs: the old names are gone from Discord
    assert old not in world.alice.available_commands(thread)


async def test_commands_and_suggestions_are_timed_through_public_hooks(world) -> None:
    """Without overriding discord.py's private CommandTree._call: a command is timed from the
    tree's interaction_check to its completion or error, a suggestion by the argument that
    makes it; none is left counted as under way."""
    bot = world.env.bot
    thread = await world.start_game(size=5)
    suggested = await world.alice.autocomplete(thread, "tak move", "ptn", "a")
    assert suggested and all(choice["name"].startswith("a") for choice in suggested)
    await world.move(world.alice, thread, "zz9")  # refused: still a command that ended
    lines = bot.tree.timings.lines()
    assert 'bredon_command_seconds_count{command="tak move",kind="autocomplete"} 1' in lines
    assert 'bredon_command_seconds_count{command="tak move",kind="command"} 1' in lines
    assert 'bredon_command_seconds_count{command="tak challenge",kind="command"} 1' in lines
    assert await bot.tree.finish_under_way(0.01)
