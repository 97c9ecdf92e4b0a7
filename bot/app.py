"""The bot factory: one place builds the Discord bot, for `python -m bot` and for the tests.

The bot opens the services on the database named in the settings, loads the cogs by name (the
Discord layer sits above this one), and starts the deadline scheduler. Commands are only sent to
Discord by :func:`sync_commands`, an explicit action, never at start-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.errors import BredonError
from bot.scheduler import DEFAULT_MAX_SLEEP, DeadlineScheduler
from bot.services import Services
from bot.services.deadlines import DeadlineReport
from bot.settings import Settings
from bot.store import StoreError
from bot.text_safety import message_text

log = logging.getLogger(__name__)

# The courier first (others use it); cogs.wallets adds commands to cogs.tak's groups.
EXTENSIONS = ("cogs.courier", "cogs.tak", "cogs.wallets", "cogs.tournaments")
DATABASE_CHECK_EVERY = timedelta(minutes=10)
APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again later."


async def send_private(interaction: discord.Interaction, text: str, **extra: object) -> None:
    """Answer only the user who acted, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)  # type: ignore[arg-type]


@asynccontextmanager
async def refusals(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Show a refusal by the services (or the Discord layer) to the user, as it is, privately."""
    try:
        yield
    except BredonError as error:
        await send_private(interaction, message_text(error.message))


async def apologise(
    interaction: discord.Interaction, error: BaseException, action: str, game_id: object = None
) -> None:
    """Log an unexpected failure with what was being done and in which game, and tell the user
    briefly."""
    log.error(
        "%s failed (game %s, user %s, guild %s)",
        action,
        game_id if game_id is not None else "-",
        interaction.user.id,
        interaction.guild_id,
        exc_info=error,
    )
    try:
        await send_private(interaction, APOLOGY)
    except discord.HTTPException:
        log.warning("Could not send the apology for %s.", action)


class BredonTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        command = interaction.command
        name = f"/{command.qualified_name}" if command is not None else "a command"
        await apologise(interaction, original, name, getattr(interaction.namespace, "game", None))


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


class BredonBot(commands.Bot):
    """The Discord client with the services (``bot.services``) and the deadline scheduler."""

    services: Services

    def __init__(self, settings: Settings, *, clock: Clock, scheduler_max_sleep: timedelta) -> None:
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
        )
        self.settings = settings
        self.clock = clock
        self._scheduler_max_sleep = scheduler_max_sleep
        self.scheduler: DeadlineScheduler | None = None
        self.fatal: StoreError | None = None  # why the bot stopped itself, for `python -m bot`
        self._watchdog: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.services = await Services.open(self.settings.database, clock=self.clock)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.scheduler = DeadlineScheduler(
            self.services.deadlines,
            self.clock,
            self._announce_deadlines,
            max_sleep=self._scheduler_max_sleep,
        )
        self.scheduler.start(before=self.wait_until_ready)
        self._watchdog = asyncio.create_task(self._watch_database(), name="bredon-watchdog")

    async def on_ready(self) -> None:
        """Say who the bot is and how to invite it, once connected."""
        assert self.user is not None
        count = len(self.guilds)
        log.info(
            "Logged in as %s in %d server%s. Invite link: %s",
            self.user,
            count,
            "" if count == 1 else "s",
            invite_link(self.application_id or self.user.id),
        )

    async def _watch_database(self) -> None:
        """Stop the bot, rather than write into a lost file, when the database file is deleted
        or replaced under it (each write checks too; this catches a quiet bot)."""
        while True:
            await asyncio.sleep(DATABASE_CHECK_EVERY.total_seconds())
            try:
                await self.services.db.check_file()
            except StoreError as error:
                log.critical("%s Stopping.", error)
                self.fatal = error
                await self.close()
                return

    async def _announce_deadlines(self, report: DeadlineReport) -> None:
        """Cogs listen for ``on_deadline_report`` to tell the players."""
        self.dispatch("deadline_report", report)

    async def close(self) -> None:
        if self._watchdog is not None and self._watchdog is not asyncio.current_task():
            self._watchdog.cancel()
        if self.scheduler is not None:
            await self.scheduler.stop()
        await super().close()  # unloads the cogs: the courier stops before the store closes
        if hasattr(self, "services"):
            await self.services.close()


def create_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    scheduler_max_sleep: timedelta = DEFAULT_MAX_SLEEP,
) -> BredonBot:
    """A fresh, unstarted bot on the settings' database. Tests inject a clock that follows their
    simulated time."""
    return BredonBot(
        settings, clock=clock or SystemClock(), scheduler_max_sleep=scheduler_max_sleep
    )


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
