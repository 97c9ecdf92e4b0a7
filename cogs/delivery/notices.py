"""Telling a player, privately after their next command in the server, that their DMs were
refused (a digest then went to a game's thread instead: :mod:`cogs.presenters.digests`)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.languages import _, speaking
from cogs.client import BredonBot
from cogs.interactions import person_language
from cogs.words import notification_messages

log = logging.getLogger(__name__)


class UnreachableNotice(commands.Cog):
    def __init__(self, bot: BredonBot) -> None:
        self.services = bot.services

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command[Any, ..., Any]
    ) -> None:
        """Tell a player whose DMs were refused, once, privately, after their next command in
        the server."""
        if interaction.guild_id is None or not interaction.response.is_done():
            return
        notifications = self.services.notifications
        if await notifications.take_unreachable(interaction.user.id, interaction.guild_id):
            with speaking(await person_language(interaction)):
                server = interaction.guild.name if interaction.guild else _("this server")
                text = notification_messages.unreachable_text(server)
            try:
                await interaction.followup.send(text, ephemeral=True)
            except discord.HTTPException as error:
                log.info("Could not tell %s their DMs are closed (%s).", interaction.user, error)
