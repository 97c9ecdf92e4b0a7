"""Running Bredon on Discord: the bot made from its parts (:func:`create_bot`: the client of
:mod:`cogs.client` with the Discord layer of :mod:`cogs.commands.tree`), opened on its store,
run until a signal stops it, or used once to register the commands.

`python -m bot` (:mod:`bot.__main__`) hands a run or a sync here (:func:`run_on_discord`) and gets
back either the number of commands synced or a :class:`DiscordFailure`: the sentence for the
operator when Discord refused the bot or could not be reached.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Coroutine
from datetime import timedelta
from typing import Any, TypeVar

import aiohttp
import discord

from bot.errors import StoreBusy, StoreClosed, StoreUnwritable
from bot.inspection import described
from bot.services import Services
from bot.settings import Settings
from bot.store import StoreError
from bot.store.shard_leases import ShardLease
from bot.timekeeping.clock import Clock, SystemClock
from cogs.client import BredonBot, ShardedBredonBot, sync_commands
from cogs.commands import tree

log = logging.getLogger("bot")

# The Discord layer the bot puts in place when it starts, and takes away when it stops.
LAYER = {"install": tree.install, "uninstall": tree.uninstall}

NO_INTENT = (
    "BREDON_TYPED_MOVES=1 needs the Message Content Intent: switch it on in the Developer Portal "
    "(your application -> Bot -> Privileged Gateway Intents), or set BREDON_TYPED_MOVES=0."
)
BAD_TOKEN = (
    "Discord rejected DISCORD_TOKEN. Reset the token in the Developer Portal "
    "(your application -> Bot -> Reset Token) and put the new one in .env."
)
NO_GATEWAY = (
    "Cannot reach Discord's gateway (the connection for events): check the network and any "
    "firewall, and try again."
)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def create_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    idle_look: timedelta | None = None,
    services: Services | None = None,
) -> BredonBot:
    """A fresh, unstarted bot on the settings' database (or on ``services`` already open, which
    it then owns and closes): an ``AutoShardedBot`` when the settings ask for shards. Tests inject
    a clock that follows their simulated time, and a long ``idle_look`` (see
    :meth:`BredonBot.idle_look`) so that simulated hours where nothing happens cost no wall time."""
    clock = clock or (services.clock if services is not None else SystemClock())
    if settings.sharding is None:
        return BredonBot(settings, clock=clock, idle_look=idle_look, services=services, **LAYER)
    return ShardedBredonBot(
        settings,
        clock=clock,
        idle_look=idle_look,
        services=services,
        **LAYER,
        shard_count=settings.sharding.count,
        shard_ids=list(settings.sharding.ids) if settings.sharding.ids is not None else None,
    )


async def open_bot(settings: Settings) -> BredonBot:
    """The bot on its store, opened (checked, and migrated only if asked to) first, so that a
    database Bredon cannot use is reported before Discord is contacted, and checked only once."""
    services = await Services.open(settings.database, upgrade=settings.migrate_on_start)
    try:
        log.info("%s", await described(services.db))
    except BaseException:
        await services.close()
        raise
    return create_bot(settings, services=services)


class GatewayUnreachable(Exception):
    """The first connection to Discord's gateway failed (discord.py 2.7 then stumbles on the
    connection it never had, with an AttributeError)."""


class UntilConnected(logging.Filter):
    """Drops discord.py's report of a failed connection (with a traceback) until the first
    connection opened: a first one that fails ends `python -m bot` with its own sentence."""

    def __init__(self, bot: BredonBot) -> None:
        super().__init__()
        self._bot = bot

    def filter(self, record: logging.LogRecord) -> bool:
        return self._bot.connected_once or not str(record.msg).startswith("Attempting a reconnect")


async def run_bot(settings: Settings, token: str) -> None:
    """Run until closed or told to stop: SIGTERM and SIGINT (handled also as PID 1, where they
    would otherwise be ignored) begin a clean stop, also while the store opens."""
    loop = asyncio.get_running_loop()
    received: list[str] = []
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, received.append, signal.Signals(number).name)
    try:
        bot = await open_bot(settings)
        logging.getLogger("discord.client").addFilter(UntilConnected(bot))
        async with bot:
            if received:  # while the store opened: Discord is not contacted at all
                bot.stop_soon(received[0])
                return
            sharding = settings.sharding
            shards = ShardKeeper(
                bot,
                await ShardLease.claim(
                    bot.services.db, sharding.ids if sharding is not None else None
                ),
            )
            for number in STOP_SIGNALS:
                loop.add_signal_handler(number, shards.stop, signal.Signals(number).name)
            if received:  # while the shards were claimed
                shards.stop(received[0])
            try:
                try:
                    await bot.start(token)
                finally:
                    await shards.give_back()  # a start that failed too (Discord unreachable)
            except Exception as error:
                if bot.stop_requested:
                    pass  # cut short by the stop (logging in, connecting): stopped as asked
                elif isinstance(error, AttributeError) and not bot.connected_once:
                    # discord.py 2.7 answers a first connection that failed with this.
                    raise GatewayUnreachable() from None
                else:
                    raise
    finally:
        for number in STOP_SIGNALS:
            loop.remove_signal_handler(number)
    if bot.fatal is not None:
        raise bot.fatal


class ShardKeeper:
    """This process's shards while the bot runs: the lease's heartbeat (a shard taken over stops
    the bot), and a stop that gives them back before the store closes, for the next process to
    claim at once (one that fails to give them back only makes the next claim wait)."""

    def __init__(self, bot: BredonBot, lease: ShardLease) -> None:
        self._bot = bot
        self._lease = lease
        self._beating = asyncio.create_task(self._keep(), name="bredon-shards")
        self._stopping: asyncio.Task[None] | None = None
        self._given_back = False

    async def _keep(self) -> None:
        try:
            await self._lease.keep()
        except StoreError as error:  # taken over, or the store failed
            log.critical("%s", error)
            self._bot.fatal = error
            await self._bot.close()

    def stop(self, why: str) -> None:
        """SIGTERM, SIGINT: give the shards back, then the bot's clean stop."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop(why), name="bredon-give-back")

    async def _stop(self, why: str) -> None:
        await self.give_back()
        self._bot.stop_soon(why)

    async def give_back(self) -> None:
        """Stop beating and give the shards back, once, if the store is still open (a bot that
        stopped itself for the store has closed it: the next start on this machine takes them
        back at once all the same, one elsewhere waits)."""
        if self._given_back:
            return
        self._given_back = True
        self._beating.cancel()
        try:
            await self._lease.release()
        except (StoreError, StoreBusy, StoreUnwritable, StoreClosed):
            log.warning("Could not give the shards back; the next start waits to claim them.")


async def run_sync(settings: Settings, token: str, guild_id: int | None) -> int:
    async with await open_bot(settings) as bot:
        await bot.login(token)  # runs setup_hook, which loads the commands
        return len(await sync_commands(bot, guild_id))


class DiscordFailure(Exception):
    """Discord refused the bot or could not be reached: what to do, and which kind of failure
    (``"intent"``, ``"login"``, ``"network"``: each its exit status)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


Done = TypeVar("Done")


def run_on_discord(running: Coroutine[Any, Any, Done]) -> Done:
    """Run :func:`run_bot` or :func:`run_sync` to its end; Discord's refusals become a
    :class:`DiscordFailure` (the store's and the rest's pass as they are)."""
    try:
        return asyncio.run(running)
    except GatewayUnreachable:
        raise DiscordFailure(NO_GATEWAY, "network") from None
    except discord.PrivilegedIntentsRequired:
        raise DiscordFailure(NO_INTENT, "intent") from None
    except discord.LoginFailure:
        raise DiscordFailure(BAD_TOKEN, "login") from None
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.ConnectionClosed) as error:
        raise DiscordFailure(
            f"Cannot reach Discord ({error}). Check the network and try again.", "network"
        ) from None


def log_to_console(level: int) -> None:
    """Log lines as discord.py formats them (in colour on a terminal), for the whole process."""
    discord.utils.setup_logging(level=level, root=True)
