"""Bredon's Discord client: the bot, its command tree, and what it tells Discord about itself.

:class:`BredonBot` holds the services (``bot.services``), starts the deadline scheduler, and puts
the Discord layer in place through the `install` it is given (:func:`cogs.commands.tree.install`,
wired by :func:`cogs.running.create_bot`). Commands are only sent to Discord by
:func:`sync_commands`, an explicit action, never at start-up; once connected, the bot compares what
Discord has registered with its own commands and says how to sync if they differ. With
``BREDON_SHARDS`` it is an ``AutoShardedBot`` (all shards, or the ones in ``BREDON_SHARD_IDS``);
with ``BREDON_HEALTH_PORT`` it serves ``/healthz`` and ``/metrics`` (:mod:`bot.health`), timing
every slash command in :class:`BredonTree`. On PostgreSQL the processes wake each other
(``LISTEN/NOTIFY``): an announcement enqueued anywhere wakes every courier, a deadline made sooner
anywhere every scheduler.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.deadlines.scheduler import DEFAULT_MAX_SLEEP, SCHEDULE_CHANNEL, DeadlineScheduler
from bot.deadlines.service import DeadlineReport
from bot.errors import BredonError, StoreClosed
from bot.health import CommandTimings, Gateway, HealthEndpoint
from bot.languages import _, catalogue, speaking
from bot.notifications.outbox import OUTBOX_CHANNEL
from bot.release import bredon_version
from bot.services import Services
from bot.settings import Settings
from bot.store import StoreError
from bot.timekeeping.clock import Clock
from cogs.interactions import (
    OnlyInServers,
    answer_or_warn,
    apologise,
    invoked_name,
    language_despite_failure,
)

log = logging.getLogger(__name__)

# Puts the Discord layer in place on a bot, or takes it away (cogs/commands/tree.py).
LayerStep = Callable[["BredonBot"], Awaitable[None]]
DATABASE_CHECK_EVERY = timedelta(minutes=10)
# Seconds between the watchdog's checks while the database cannot be used: doubling, up to the max.
WATCHDOG_RETRY_FIRST = 1.0
WATCHDOG_RETRY_MAX = 60.0
# Seconds the commands under way get to finish when the bot is told to stop; with the rest of
# the stop (a second or two) it stays within Docker's 10 s before SIGKILL.
STOP_GRACE = 5.0
USER_OPTION = discord.AppCommandOptionType.user


class BredonTree(app_commands.CommandTree):
    """The command tree, which also times each slash command and autocomplete for ``/metrics``,
    counts the commands under way (for a graceful stop), and answers a command Discord still
    shows under its old name with the new one (:attr:`moved`).

    Only discord.py's public hooks are used: a command's time runs from :meth:`interaction_check`
    (called first for every interaction) to its end, :meth:`on_error` or the bot's
    ``on_app_command_completion``; an autocomplete's to :meth:`finished`, which the Discord
    layer's autocompletes call when they are done."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.timings = CommandTimings()
        self.stopping = False  # set when the bot stops: new commands are turned away
        # Old qualified name -> new one, for one release after a command moved ("tak tps").
        self.moved: Mapping[str, str] = {}
        self._under_way = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.stopping:
            if interaction.type is not discord.InteractionType.autocomplete:
                with speaking(catalogue().language_for(interaction.locale.value)):  # no store now
                    closed = StoreClosed().message
                await answer_or_warn(interaction, closed, "a command while stopping")
            return False
        interaction.extras[_STARTED] = time.perf_counter()
        if interaction.type is not discord.InteractionType.autocomplete:
            interaction.extras[_COUNTED] = True
            self._under_way += 1
            self._idle.clear()
        return True

    def finished(self, interaction: discord.Interaction) -> None:
        """A command or an autocomplete is over: its time goes to ``/metrics`` (once)."""
        started = interaction.extras.pop(_STARTED, None)
        if started is None:
            return
        if interaction.extras.pop(_COUNTED, False):
            self._under_way -= 1
            if not self._under_way:
                self._idle.set()
        command = interaction.command
        kind = (
            "autocomplete"
            if interaction.type is discord.InteractionType.autocomplete
            else "command"
        )
        name = command.qualified_name if command is not None else "unknown"
        self.timings.observe(name, kind, time.perf_counter() - started)

    async def finish_under_way(self, seconds: float) -> bool:
        """Wait until no command is running, at most `seconds`; False if some still are."""
        try:
            async with asyncio.timeout(seconds):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        try:
            with speaking(await language_despite_failure(interaction)):
                await self._answer_error(interaction, error)
        finally:
            self.finished(interaction)

    async def _answer_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandNotFound):
            await self._point_to_new_name(interaction, error)
            return
        if interaction.type is discord.InteractionType.autocomplete:
            return  # nobody to tell: the suggestions simply do not come
        original = getattr(error, "original", error)
        command = interaction.command
        name = f"/{command.qualified_name}" if command is not None else "a command"
        if isinstance(error, OnlyInServers):
            await answer_or_warn(interaction, error.text(), name)
            return
        if isinstance(error, app_commands.TransformerError) and error.type is USER_OPTION:
            # A member option given someone who has left (a pasted ID or mention resolves them).
            not_a_member = _("That user is not a member of this server.")
            await answer_or_warn(interaction, not_a_member, name)
            return
        await apologise(interaction, original, name, getattr(interaction.namespace, "game", None))

    async def _point_to_new_name(
        self, interaction: discord.Interaction, error: app_commands.CommandNotFound
    ) -> None:
        """A command this version no longer has, as Discord still shows it until the commands
        are synced again: its new name, if it moved; nothing else happens."""
        old = invoked_name(interaction)
        new = self.moved.get(old)
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])  # no suggestions, no error shown
            return
        if new is None:
            await apologise(interaction, error, f"/{old}")
            return
        await answer_or_warn(
            interaction, _("`/{old}` is now `/{new}`.", old=old, new=new), f"/{old}"
        )


_STARTED = "bredon_started"  # Interaction.extras keys of BredonTree
_COUNTED = "bredon_counted"


def intents_for(settings: Settings) -> discord.Intents:
    """Slash commands need no privileged intent; reading typed moves needs message content."""
    intents = discord.Intents.default()
    intents.message_content = settings.typed_moves
    return intents


# The permissions docs/discord-setup.md asks for, and nothing else.
INVITE_PERMISSIONS = discord.Permissions(309237763072)


def invite_link(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id,
        permissions=INVITE_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


def sync_command() -> str:
    """The command that registers the commands, as this installation runs it."""
    return f"{shlex.quote(sys.executable)} -m bot sync"


_COMPARED = ("name", "description", "min_value", "max_value", "min_length", "max_length")


def registered_payload(command: app_commands.AppCommand) -> dict[str, Any]:
    """A fetched command as the local tree writes it, with who may see it (which
    ``AppCommand.to_dict`` leaves out)."""
    shown_to = command.default_member_permissions
    return {
        **command.to_dict(),
        "default_member_permissions": None if shown_to is None else shown_to.value,
    }


def command_shape(payload: Mapping[str, Any]) -> tuple[object, ...]:
    """What of a command's (or option's) payload Discord shows the users: the same for the
    local tree's ``to_dict`` and a fetched ``AppCommand.to_dict``, whose extra and default
    fields differ."""
    return (
        payload.get("type") or 1,
        *(payload.get(key) for key in _COMPARED),
        # An int from the local tree, a string in Discord's JSON.
        _as_int(payload.get("default_member_permissions")),
        bool(payload.get("required")),
        bool(payload.get("autocomplete")),
        tuple(sorted(payload.get("channel_types") or ())),
        tuple((choice["name"], choice["value"]) for choice in payload.get("choices") or ()),
        tuple(command_shape(option) for option in payload.get("options") or ()),
    )


def _as_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def command_differences(
    local: Iterable[Mapping[str, Any]], registered: Iterable[Mapping[str, Any]]
) -> list[str]:
    """What registering the local commands would change, as phrases (empty: nothing)."""
    mine = {(c.get("type") or 1, c["name"]): command_shape(c) for c in local}
    theirs = {(c.get("type") or 1, c["name"]): command_shape(c) for c in registered}
    parts = []
    for label, names in (
        ("not registered", sorted(mine.keys() - theirs.keys())),
        ("no longer in this version", sorted(theirs.keys() - mine.keys())),
        ("changed", sorted(k for k in mine.keys() & theirs.keys() if mine[k] != theirs[k])),
    ):
        if names:
            parts.append(f"{label}: " + ", ".join(f"/{name}" for _, name in names))
    return parts


class BredonBot(commands.Bot):
    """The Discord client with the services (``bot.services``) and the deadline scheduler."""

    services: Services
    tree: BredonTree  # type: ignore[assignment]  # discord.py makes it from tree_cls

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock,
        idle_look: timedelta | None,
        install: LayerStep,
        uninstall: LayerStep,
        services: Services | None = None,
        **sharding: Any,
    ) -> None:
        # Bredon never joins voice: discord.py's warnings about voice libraries would only
        # look like a missing dependency.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents_for(settings),
            tree_cls=BredonTree,
            # Names and tournament titles are users' text: they may ping members, never roles
            # or everyone.
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **sharding,
        )
        self.settings = settings
        self._install, self._uninstall = install, uninstall
        self._installed = False
        if services is not None:  # opened (checked, migrated) by `python -m bot` before login
            self.services = services
        self.health: HealthEndpoint | None = None
        self._gateway_up = False
        self._commands_checked = False
        self.clock = clock
        self._idle_look = idle_look
        self.scheduler: DeadlineScheduler | None = None
        self.fatal: StoreError | None = None  # why the bot stopped itself, for `python -m bot`
        self._watchdog: asyncio.Task[None] | None = None
        self.connected_once = False  # the gateway connection opened at least once
        self._stopping: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self._notices: set[asyncio.Task[None]] = set()  # wake-ups sent to other processes

    async def setup_hook(self) -> None:
        if not hasattr(self, "services"):
            self.services = await Services.open(self.settings.database, clock=self.clock)
        await self._install(self)
        self._installed = True
        self.scheduler = DeadlineScheduler(
            self.services.deadlines,
            self.clock,
            self._announce_deadlines,
            max_sleep=self.idle_look(DEFAULT_MAX_SLEEP),
            duties=(
                *(self.services.notifications, self.services.entry),
                *(self.services.leagues, self.services.seasons, self.services.puzzles),
            ),
            on_duty=lambda: self.dispatch("outbox_written"),
        )
        self.scheduler.start(before=self.wait_until_ready)
        await self.follow_other_processes()
        self._watchdog = asyncio.create_task(self._watch_database(), name="bredon-watchdog")
        if self.settings.health_port is not None:
            self.health = HealthEndpoint(self.services.db, self.gateway, self.tree.timings)
            await self.health.start(self.settings.health_host, self.settings.health_port)

    def idle_look(self, default: timedelta) -> timedelta:
        """How long a background loop (the scheduler, the courier, the bot player) may sleep
        when nothing wakes it: its own `default`, short enough to see soon what other processes
        write, unless the bot was made with another (tests, whose database nobody else writes)."""
        return self._idle_look or default

    async def follow_other_processes(self) -> None:
        """Wake this process's courier and scheduler when another process enqueued an
        announcement or made a deadline sooner (PostgreSQL; nothing on SQLite)."""
        await self.services.db.listen(OUTBOX_CHANNEL, lambda _: self.dispatch("outbox_written"))
        await self.services.db.listen(SCHEDULE_CHANNEL, lambda _: self.scheduler_look())

    def wake_scheduler(self) -> None:
        """A deadline, reminder or digest may now fall before the scheduler's next look (it
        sleeps up to an hour): look again now, here and in the other processes."""
        self.scheduler_look()
        notice = asyncio.create_task(self._tell_other_schedulers(), name="bredon-notify")
        self._notices.add(notice)
        notice.add_done_callback(self._notices.discard)

    def scheduler_look(self) -> None:
        """Make this process's scheduler look at the database now."""
        if self.scheduler is not None:
            self.scheduler.wake()

    async def _tell_other_schedulers(self) -> None:
        try:
            await self.services.db.notify(SCHEDULE_CHANNEL)
        except Exception as error:  # the others find it at their next look all the same
            log.warning("Could not wake the other processes' schedulers: %s", error)

    def gateway(self) -> Gateway:
        """Connected: ready, and no connection (shard) is down since."""
        shards = getattr(self, "shards", None)  # an AutoShardedBot's
        up = all(not shard.is_closed() for shard in shards.values()) if shards else self._gateway_up
        return Gateway(self.is_ready() and not self.is_closed() and up, self.latency)

    async def on_connect(self) -> None:
        self._gateway_up = self.connected_once = True

    async def on_resumed(self) -> None:
        self._gateway_up = True

    async def on_disconnect(self) -> None:
        self._gateway_up = False

    async def on_ready(self) -> None:
        """Say who the bot is and how to invite it, once connected, and whether the commands
        need syncing."""
        assert self.user is not None
        self._gateway_up = True
        count = len(self.guilds)
        log.info(
            "Logged in as %s in %d server%s%s. Bredon %s. Invite link: %s",
            self.user,
            count,
            "" if count == 1 else "s",
            f" ({self.settings.sharding.describe()})" if self.settings.sharding else "",
            bredon_version(),
            invite_link(self.application_id or self.user.id),
        )
        if not self._commands_checked:  # on_ready fires again after a fresh connection
            self._commands_checked = True
            await self.check_registered_commands()

    async def check_registered_commands(self) -> None:
        """Warn, with the command to run, when Discord's registered commands are not this
        version's (the first start, or an update that changed them). With a development server
        set, commands synced there count too."""
        local = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        try:
            differences = command_differences(
                local, [registered_payload(c) for c in await self.tree.fetch_commands()]
            )
            if differences and self.settings.dev_guild is not None:
                in_guild = await self.tree.fetch_commands(
                    guild=discord.Object(self.settings.dev_guild)
                )
                if not command_differences(local, [registered_payload(c) for c in in_guild]):
                    return
        except discord.HTTPException as error:
            log.warning("Could not compare the registered commands with these: %s", error)
            return
        if differences:
            log.warning(
                "The slash commands registered with Discord are not this version's (%s). "
                "Register them with: %s",
                "; ".join(differences),
                sync_command(),
            )

    async def _watch_database(self) -> None:
        """Stop the bot, rather than write into a lost file or under a newer schema, when the
        database is no longer the one it opened (each write checks too; this catches a quiet
        bot). A database that cannot be used now (unreachable, busy) passes: it is checked again
        soon, then less and less often (:data:`WATCHDOG_RETRY_FIRST`, doubling), so that the
        end of the outage is seen even when nobody plays; the store logs the outage."""
        delay = DATABASE_CHECK_EVERY.total_seconds()
        while True:
            await asyncio.sleep(delay)
            try:
                await self.services.db.check_in_place()
            except StoreError as error:
                log.critical("%s Stopping.", error)
                self.fatal = error
                await self.close()
                return
            except StoreClosed:  # the bot is stopping
                return
            except BredonError:  # the store has logged it
                failing = delay < DATABASE_CHECK_EVERY.total_seconds()
                delay = min(delay * 2, WATCHDOG_RETRY_MAX) if failing else WATCHDOG_RETRY_FIRST
            except Exception:  # a bug: logged, and the watch goes on
                log.exception("The database check failed.")
                delay = WATCHDOG_RETRY_MAX
            else:
                delay = DATABASE_CHECK_EVERY.total_seconds()

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: object
    ) -> None:
        self.tree.finished(interaction)

    async def _announce_deadlines(self, report: DeadlineReport) -> None:
        """Cogs listen for ``on_deadline_report`` to tell the players."""
        self.dispatch("deadline_report", report)

    @property
    def stop_requested(self) -> bool:
        return self._stopping is not None

    def stop_soon(self, why: str) -> None:
        """Begin :meth:`stop` (for a signal handler); a second call changes nothing."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self.stop(why), name="bredon-stop")

    async def stop(self, why: str) -> None:
        """A clean stop (SIGTERM, SIGINT): new commands are turned away, those under way get
        :data:`STOP_GRACE` seconds to finish, then everything closes (:meth:`close`). A command
        still running then finds the store closed: its transaction rolls back, or had committed
        whole."""
        log.info("%s: stopping.", why)
        self.tree.stopping = True
        if not await self.tree.finish_under_way(STOP_GRACE):
            log.warning("Commands still running after %g s are cut short.", STOP_GRACE)
        await self.close()

    async def close(self) -> None:
        """Stop the background work, the cogs (the worker processes end; the courier last, as
        the others use it), the Discord connection and then the store. Every caller (the stop,
        the watchdog, `async with`) waits for the same closing, which runs once."""
        if self._closing is None:
            self._closing = asyncio.create_task(self._close_down(), name="bredon-close")
        await asyncio.shield(self._closing)

    async def _close_down(self) -> None:
        """Each step is tried whatever the one before did: a part that fails to stop must not
        leave the gateway open and the process running, refusing every command."""
        self.tree.stopping = True
        try:
            health, self.health = self.health, None
            if health is not None:
                await _logged_if_it_fails("the health endpoint", health.stop())
            if self._watchdog is not None:  # (it may be the caller: it waits, shielded)
                self._watchdog.cancel()
            if self.scheduler is not None:
                await _logged_if_it_fails("the scheduler", self.scheduler.stop())
            for notice in list(self._notices):  # wake-ups to other processes, short: let them go
                notice.cancel()
            if self._installed:
                self._installed = False
                await _logged_if_it_fails("the cogs", self._uninstall(self))
        finally:
            try:
                await super().close()
            finally:
                if hasattr(self, "services"):
                    await self.services.close()
        log.info("Closed the Discord connection and the database.")


async def _logged_if_it_fails(part: str, stopping: Awaitable[object]) -> None:
    try:
        await stopping
    except Exception:
        log.exception("Stopping %s failed; the bot stops all the same.", part)


class ShardedBredonBot(BredonBot, commands.AutoShardedBot):
    """Bredon over several gateway connections (shards), all in this process or the ones in
    ``BREDON_SHARD_IDS``; every process runs the scheduler and the courier, which share the
    database's work safely (see docs/scaling.md)."""


async def sync_commands(
    bot: commands.Bot, guild_id: int | None = None
) -> list[app_commands.AppCommand]:
    """Register the command tree with Discord: in one guild (instant, for development) or
    globally (may take up to an hour to show). Discord limits how often this may be done."""
    if guild_id is None:
        return await bot.tree.sync()
    guild = discord.Object(id=guild_id)
    bot.tree.copy_global_to(guild=guild)
    return await bot.tree.sync(guild=guild)
