"""What the operator sees from the running bot: the start-up line with the server count, a
warning with the exact sync command while Discord's registered commands are not the code's, the
bot sharded when configured, and /healthz and /metrics from the real bot in SimCord."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from discord.ext import commands
from prometheus_client.parser import text_string_to_metric_families

from bot.errors import StoreClosed
from bot.settings import Settings, Sharding
from cogs.client import BredonBot, sync_command, sync_commands
from cogs.running import create_bot


def warnings_about_commands(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "slash commands registered" in r.getMessage()]


async def test_start_up_counts_the_servers(simcord_env, caplog: pytest.LogCaptureFixture) -> None:
    for name in ("Tak Club", "Second", "Third"):
        simcord_env.create_guild(name)
    await simcord_env.settle()
    with caplog.at_level(logging.INFO, logger="cogs.client"):
        await simcord_env.bot.on_ready()
    assert any(
        f"Logged in as {simcord_env.bot.user} in 3 servers." in r.getMessage()
        for r in caplog.records
    )


async def test_a_warning_names_the_commands_to_sync_and_the_command(
    simcord_env, caplog: pytest.LogCaptureFixture
) -> None:
    bot: BredonBot = simcord_env.bot
    with caplog.at_level(logging.WARNING, logger="cogs.client"):
        await bot.check_registered_commands()
    [warning] = warnings_about_commands(caplog)
    assert (
        "not registered: /bredon, /clock, /coins, /game, /league, /organize, /profile, /puzzle, "
        "/season, /tak, /tournament" in warning
    )
    assert warning.endswith(f"Register them with: {sync_command()}")
    assert sync_command().endswith(" -m bot sync")

    await sync_commands(bot)
    caplog.clear()
    await bot.check_registered_commands()
    assert warnings_about_commands(caplog) == []  # in step: nothing to say

    removed = bot.tree.remove_command("organize")
    assert removed is not None
    tak = bot.tree.get_command("tak")
    assert tak is not None
    tak.description = "a changed description"  # as an update would
    bredon = bot.tree.get_command("bredon")
    assert bredon is not None and bredon.default_permissions is not None
    bredon.default_permissions = None  # shown to everyone now, not managers only
    await bot.check_registered_commands()
    [warning] = warnings_about_commands(caplog)
    assert "no longer in this version: /organize" in warning
    assert "changed: /bredon, /tak" in warning


async def test_commands_synced_to_the_development_server_count(
    simcord_env, caplog: pytest.LogCaptureFixture
) -> None:
    guild = simcord_env.create_guild("Dev")
    bot: BredonBot = simcord_env.bot
    bot.settings = Settings(None, bot.settings.database, dev_guild=guild.id)
    await sync_commands(bot, guild.id)
    with caplog.at_level(logging.WARNING, logger="cogs.client"):
        await bot.check_registered_commands()
    assert warnings_about_commands(caplog) == []


@pytest.mark.parametrize(
    ("sharding", "count", "ids"),
    [(Sharding(), None, None), (Sharding(8, (0, 1, 2, 3)), 8, [0, 1, 2, 3])],
)
def test_shards_make_an_auto_sharded_bot(
    tmp_path: Path, sharding: Sharding, count: int | None, ids: list[int] | None
) -> None:
    bot = create_bot(Settings(None, tmp_path / "b.sqlite3", sharding=sharding))
    assert isinstance(bot, commands.AutoShardedBot) and isinstance(bot, BredonBot)
    assert (bot.shard_count, bot.shard_ids) == (count, ids)
    plain = create_bot(Settings(None, tmp_path / "b.sqlite3"))
    assert not isinstance(plain, commands.AutoShardedBot)


@pytest.fixture
async def simcord_bot(new_bot) -> AsyncIterator[BredonBot]:
    """The bot with the endpoint on (on any free port), as BREDON_HEALTH_PORT turns it on."""
    bot = new_bot(health_port=0)
    yield bot
    if bot.health is not None:
        await bot.health.stop()


async def test_the_running_bot_serves_health_and_metrics(world) -> None:
    bot: BredonBot = world.env.bot
    assert bot.health is not None and bot.health.port
    await world.start_game(size=5)
    await world.move(world.alice, world.channel.threads[-1], "a1")  # timed by the tree

    base = f"http://127.0.0.1:{bot.health.port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/healthz") as response:
            status, health = response.status, await response.json()
        async with session.get(f"{base}/metrics") as response:
            text = await response.text()
    assert health["database_writable"] is True
    assert health["gateway_connected"] is True and status == 200
    families = {f.name: f for f in text_string_to_metric_families(text)}
    counts = {
        s.labels["command"]: s.value
        for s in families["bredon_command_seconds"].samples
        if s.name.endswith("_count") and s.labels["kind"] == "command"
    }
    assert counts["tak challenge"] == 1 and counts["tak move"] == 1
    assert [s.value for s in families["bredon_moves"].samples] == [1.0]


async def test_a_stopping_bot_turns_new_commands_away_and_changes_nothing(world) -> None:
    """Between the signal and the end of the stop, a command is answered with the sentence (not
    left to time out) and runs no further; one under way is waited for."""
    bot: BredonBot = world.env.bot
    thread = await world.start_game(size=5)
    assert await bot.tree.finish_under_way(0.1)  # nothing under way
    bot.tree.stopping = True
    turned_away = await world.move(world.alice, thread, "a1")
    assert turned_away.ephemeral
    assert turned_away.response.content == StoreClosed().message
    assert (await bot.services.games.get(1)).ply == 0  # the move was not played
    bot.tree.stopping = False
    assert (
        await world.move(world.alice, thread, "a1")
    ).response is None  # the post where they moved says it


@pytest.mark.error_logs
async def test_a_part_that_fails_to_stop_does_not_keep_the_bot_running(
    world, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A part whose stop raises is logged, and the rest still stops: the cogs are unloaded,
    the gateway closes and the store is closed, so the process can exit instead of refusing
    every command for ever."""
    bot: BredonBot = world.env.bot
    assert bot.scheduler is not None

    async def broken_stop() -> None:
        raise RuntimeError("the scheduler cannot stop")

    monkeypatch.setattr(bot.scheduler, "stop", broken_stop)
    await bot.close()
    assert bot.is_closed() and not bot.cogs
    with pytest.raises(StoreClosed):
        async with bot.services.db.transaction():
            pass
    failed = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in failed] == [
        "Stopping the scheduler failed; the bot stops all the same."
    ]
