"""`/clock`: time (moretime, pause, resume, reminders, vacation start|end|status). Thin adapters
from Discord to the clock service (the commands' names and groups are declared in
:mod:`cogs.commands.tree`)."""

from __future__ import annotations

from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import GameView
from bot.languages import _
from bot.notifications.outbox import game_stream
from bot.timekeeping.control import parse_duration
from cogs.arguments import Game, Span, find_game
from cogs.checks import refuse_asking_me
from cogs.client import BredonBot
from cogs.delivery.conversations import guild_of
from cogs.delivery.courier import Courier
from cogs.interactions import acting, player_of
from cogs.words import clock_messages


def parse_reminder_times(text: str) -> list[timedelta] | None:
    """`1d 2h` (times before a deadline, spaces or commas between), `off` (none) or `default`."""
    cleaned = text.strip().lower()
    if cleaned == "default":
        return None
    if cleaned in ("off", "none", "never"):
        return []
    return [parse_duration(part, "reminder time") for part in cleaned.replace(",", " ").split()]


class ClockCog(commands.Cog):
    """More time, pauses, reminders and vacations; what a change shows in the games' channels
    comes out through the courier."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier

    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)",
        time="How much, e.g. 1d, 12h or 2d6h (1 hour to 7 days; default 1d)",
    )
    async def moretime(
        self,
        interaction: discord.Interaction,
        game: Game | None = None,
        time: Span = "1d",
    ) -> None:
        """Give your opponent more time for their move"""
        async with acting(interaction):
            extra = parse_duration(time, "time")
            target = await find_game(interaction, game, as_player=True, turn="theirs")
            given = await self.services.holds.give_time(target.id, interaction.user.id, extra)
            report = await self.courier.deliver_stream(game_stream(given.id))
            done = clock_messages.gave_time_text(given, extra)
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    async def pause(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Propose to pause a game; your opponent must agree"""
        async with acting(interaction):
            target = await find_game(interaction, game, as_player=True)
            refuse_asking_me(interaction, target, "pause")
            await self.services.holds.propose_pause(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            text = report.reply(_("Asked your opponent"), _("Your proposal was recorded"))
            await interaction.followup.send(text, ephemeral=True)

    async def resume(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """End a game's pause: its clock runs again"""
        async with acting(interaction):
            target = await find_game(interaction, game, as_player=True)
            await self.services.holds.end_pause(target.id, interaction.user.id)
            self.bot.wake_scheduler()  # the deadline may now be within the hour
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = _("Game #{game} is no longer paused", game=target.id)
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    @app_commands.describe(
        times="e.g. `1d 2h` (up to 5 times before each deadline), `off`, or `default` (at 80%)"
    )
    async def reminders(
        self, interaction: discord.Interaction, times: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        """When to remind you before a deadline"""
        async with acting(interaction):
            guild_id = guild_of(interaction)
            clocks = self.services.holds
            if times is None:
                chosen = await clocks.reminders(guild_id, interaction.user.id)
            else:
                chosen = await clocks.set_reminders(
                    guild_id, player_of(interaction.user), parse_reminder_times(times)
                )
                self.bot.wake_scheduler()  # a reminder may now be due within the hour
            await interaction.followup.send(clock_messages.reminders_text(chosen), ephemeral=True)

    @app_commands.describe(days="How many days (default: all you have left this year)")
    async def vacation_start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 365] | None = None
    ) -> None:
        """Go on vacation: your games' clocks stand still"""
        async with acting(interaction):
            guild_id = guild_of(interaction)
            report = await self.services.holds.start_vacation(
                guild_id, player_of(interaction.user), days
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    async def vacation_end(self, interaction: discord.Interaction) -> None:
        """Come back early: your games' clocks run again"""
        async with acting(interaction):
            report = await self.services.holds.end_vacation(
                guild_of(interaction), interaction.user.id
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    async def vacation_status(self, interaction: discord.Interaction) -> None:
        """Your vacation days left this year"""
        async with acting(interaction):
            status = await self.services.holds.vacation_status(
                guild_of(interaction), interaction.user.id
            )
            await interaction.followup.send(
                clock_messages.vacation_status_text(status), ephemeral=True
            )

    async def _deliver_games(self, games: list[GameView]) -> None:
        self.bot.wake_scheduler()  # clocks stopped or run again: deadlines moved
        for game in games:
            await self.courier.deliver_stream(game_stream(game.id))
