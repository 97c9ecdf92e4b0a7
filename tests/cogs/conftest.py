"""SimCord fixtures: the real bot (from the one factory) on a temporary database, in a simulated
Discord with one server, one channel and three members, and time that only moves when a test
moves it."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot.settings import Settings
from cogs.client import INVITE_PERMISSIONS, BredonBot, sync_commands
from cogs.running import create_bot
from tak import STANDARD_RESERVES
from tests.databases import forget_test_database, fresh_database


class SimulatedClock:
    """The services' clock on SimCord's simulated time (discord.utils.utcnow follows it)."""

    def now(self) -> datetime:
        return discord.utils.utcnow()


# How long the bot's background loops (the scheduler, the courier, the bot player) sleep when
# nothing wakes them; they still wake at once when kicked and exactly when something is due.
# Each look costs SimCord a wall-clock pause of its own (it settles the look's database work in
# 50 ms steps): looking every ten minutes, as in production, made a simulated 6 hours cost about
# 2 s of waiting.
IDLE_LOOK = timedelta(hours=6)

# SimCord's settle timeout plays two parts. In a settle after a command, a click or a restart it
# catches a bot that never settles, but also decides which timers fire on the wall clock rather
# than wait for simulated time: those due within it. It must stay below the courier's first retry
# (30 s after a failed post), which only advancing time may bring; below that, it is as generous
# as it can be, for a loaded machine.
SETTLE_TIMEOUT = 25.0
# While time is advanced every timer waits for simulated time, so the timeout only catches a bot
# that never settles, across all the work the simulated span holds: generous.
ADVANCE_TIMEOUT = 300.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every SimCord test settles with :data:`SETTLE_TIMEOUT` unless its ``simcord`` marker says
    otherwise (the marker is how the timeout reaches the environment before the bot starts)."""
    for item in items:
        marker = item.get_closest_marker("simcord")
        options = {"settle_timeout": SETTLE_TIMEOUT, **(marker.kwargs if marker else {})}
        item.add_marker(pytest.mark.simcord(**options))


async def advance(env: simcord.Env, duration: timedelta) -> None:
    """Move simulated time on by `duration`, firing every timer due on the way in order."""
    settle_timeout, env.settle_timeout = env.settle_timeout, ADVANCE_TIMEOUT
    try:
        await env.advance_time(duration.total_seconds())
    finally:
        env.settle_timeout = settle_timeout


def make_bot(db_path: Path, **settings: Any) -> BredonBot:
    """The bot as `python -m bot` builds it, but for the time its loops sleep (nobody else writes
    the test's database, so they need not look for other processes' work)."""
    return create_bot(
        Settings(token=None, database=db_path, **settings),
        clock=SimulatedClock(),
        idle_look=IDLE_LOOK,
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Iterator[Path | str]:
    """The test's database: a SQLite file, or a PostgreSQL database (tests/databases.py)."""
    location = fresh_database(tmp_path)
    yield location
    forget_test_database(location)


@pytest.fixture
async def new_bot(db_path: Path) -> AsyncIterator[Callable[..., BredonBot]]:
    """`new_bot()`: a fresh bot on the test's database (for `simcord_bot` and restarts);
    keyword arguments change its settings, e.g. `new_bot(typed_moves=True)`.

    SimCord never calls ``bot.close()``, so the bots' databases are closed here afterwards (an
    open aiosqlite connection keeps its thread, and the test process, alive)."""
    made: list[BredonBot] = []

    def make(**settings: Any) -> BredonBot:
        made.append(make_bot(db_path, **settings))
        return made[-1]

    yield make
    for bot in made:
        analysis = bot.get_cog("AnalysisCog")
        if analysis is not None:  # its analyst, before the worker processes it uses
            await analysis.close()  # type: ignore[attr-defined]
        opponent = bot.get_cog("OpponentCog")
        if opponent is not None:  # its worker processes and engine
            await opponent.close()  # type: ignore[attr-defined]
        courier = bot.get_cog("CourierCog")
        if courier is not None:  # the worker process reading attached files
            await courier.courier.table.close()  # type: ignore[attr-defined]
        if bot.scheduler is not None:
            await bot.scheduler.stop()
        if hasattr(bot, "services"):
            await bot.services.close()


@pytest.fixture
def simcord_bot(new_bot: Callable[..., BredonBot]) -> BredonBot:
    return new_bot()


# The options of `/tak challenge` that its custom rules form (custom:True) takes.
CUSTOM_RULES = (
    "stones",
    "caps",
    "black_stones",
    "black_caps",
    "opening",
    "antiquity",
    "bank",
    "increment",
    "maximum",
    "tps",
)


async def ask_challenge(actor, place, **options) -> simcord.InteractionResult:
    """`/tak challenge` with `options`; those of the custom rules go through its form
    (`custom:True`), written as a player writes them there (pieces as 21/1 20/1, the time
    control as bank 3d or +1d max 10d)."""
    custom = {name: options.pop(name) for name in CUSTOM_RULES if name in options}
    if not custom:
        return await actor.slash(place, "tak challenge", **options)
    form = await actor.slash(place, "tak challenge", custom=True, **options)
    assert form.modal is not None, form.response.content
    return await actor.submit_modal(form, custom_rules_form(custom, options.get("size") or 6))


def custom_rules_form(custom: dict, size: int) -> dict[str, str]:
    """The custom rules form's fields for the options `custom` (the old `/tak challenge`
    options), on a board of `size`."""
    stones, caps = STANDARD_RESERVES[size]
    white = (custom.get("stones", stones), custom.get("caps", caps))
    pieces = ""
    if "stones" in custom or "caps" in custom:
        pieces = f"{white[0]}/{white[1]}"
    if "black_stones" in custom or "black_caps" in custom:
        black = (custom.get("black_stones", white[0]), custom.get("black_caps", white[1]))
        pieces = f"{white[0]}/{white[1]} {black[0]}/{black[1]}"
    rules = [custom["opening"]] if "opening" in custom else []
    if "antiquity" in custom:
        rules.append("antiquity" if custom["antiquity"] else "no-antiquity")
    clock = [
        f"{word}{custom[name]}"
        for name, word in (("bank", "bank "), ("increment", "+"), ("maximum", "max "))
        if name in custom
    ]
    fields = {"pieces": pieces, "rules": " ".join(rules), "clock": " ".join(clock)}
    fields["start"] = custom.get("tps", "")
    return {name: text for name, text in fields.items() if text}


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor

    def bot_messages(self, place: simcord.ChannelHandle) -> list[discord.Message]:
        bot_id = self.env.bot.user.id
        return [m for m in place.history() if m.author.id == bot_id and m.type.value == 0]

    def last_bot_message(self, place: simcord.ChannelHandle) -> discord.Message:
        return self.bot_messages(place)[-1]

    async def challenge(self, challenger=None, **options) -> discord.Message:
        """A challenge posted in the channel; returns its message (with the buttons)."""
        result = await ask_challenge(challenger or self.alice, self.channel, **options)
        assert result.ephemeral, result.response.content
        assert "is up" in result.response.content, result.response.content
        return self.last_bot_message(self.channel)

    async def start_game(self, **options) -> simcord.ChannelHandle:
        """Alice (white) challenges Bob, who accepts; returns the game's thread."""
        options.setdefault("opponent", self.bob)
        options.setdefault("color", "white")
        message = await self.challenge(**options)
        accepted = await options["opponent"].click(message, label="Accept")
        assert accepted.followups == [], [f.content for f in accepted.followups]
        return self.channel.threads[-1]

    async def move(self, actor, place, ptn: str, **options):
        return await actor.slash(place, "tak move", ptn=ptn, **options)


def bot_role(env: simcord.Env, guild: simcord.GuildHandle) -> simcord.RoleHandle:
    [role] = [r for r in guild.roles.values() if r.name == env.bot.user.name]
    return role


def grant_bot(
    env: simcord.Env, guild: simcord.GuildHandle, permissions: discord.Permissions
) -> None:
    """Give the bot's own role exactly `permissions` (SimCord's default is nearly all)."""
    env.backend.edit_role(guild.id, bot_role(env, guild).id, {"permissions": permissions.value})


async def allow_command(
    env: simcord.Env, guild: simcord.GuildHandle, name: str, *targets: Any
) -> None:
    """What a server manager does in Server Settings -> Integrations: let `targets` (roles,
    members) use a command Discord shows to managers only."""
    [command] = [c for c in await env.bot.tree.fetch_commands() if c.name == name]
    guild.set_command_permissions(command, dict.fromkeys(targets, True))


@pytest.fixture(autouse=True)
def no_error_logs(request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture):
    """Any ERROR logged during a Discord test fails it, unless the test expects errors
    (``@pytest.mark.error_logs``) and checks them itself."""
    yield
    if request.node.get_closest_marker("error_logs") is None:
        errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
        assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


@pytest.fixture
async def world(simcord_env: simcord.Env) -> World:
    env = simcord_env
    await sync_commands(env.bot)
    guild = env.create_guild("Tak Club")
    grant_bot(env, guild, INVITE_PERMISSIONS)
    channel = guild.create_text_channel("tak")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    return World(env, guild, channel, alice, bob, carol)


async def decoded_image(message: discord.Message) -> Image.Image:
    """The message's one attachment, downloaded and decoded."""
    [attachment] = message.attachments
    image = Image.open(io.BytesIO(await attachment.read()))
    image.load()
    return image
