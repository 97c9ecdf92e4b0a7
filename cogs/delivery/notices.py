"""Telling a player, privately after their next command in the server, that their DMs were
refused (a digest then went to a game's thread instead: :mod:`cogs.presenters.digests`); and,
after their next command in a conversation Bredon is not in, where their games outside servers
stand (there the DMs were all they would have heard: :mod:`cogs.delivery.conversations`)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import NO_SERVER, GamePlace
from bot.languages import _, speaking
from cogs.client import BredonBot
from cogs.delivery.conversations import only_private_answers, place_of
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
        if not interaction.response.is_done():
            return
        if place_of(interaction) is not GamePlace.SERVER:
            await self._tell_missed(interaction)
            await self._tell_only_private(interaction)
            return
        if interaction.guild_id is None:
            return
        notifications = self.services.notifications
        if await notifications.take_unreachable(interaction.user.id, interaction.guild_id):
            with speaking(await person_language(interaction)):
                server = interaction.guild.name if interaction.guild else _("this server")
                text = notification_messages.unreachable_text(server)
            await _tell(interaction, text, "that their DMs are closed")

    async def _tell_missed(self, interaction: discord.Interaction) -> None:
        """Where a player's games outside servers stand, once, privately, if a DM to them was
        refused since they were last told: the last few finished and those still going."""
        user = interaction.user.id
        if await self.services.notifications.take_unreachable(user, NO_SERVER) is None:
            return
        lookup = self.services.lookup
        going = await lookup.games_for_player(user, guild_id=NO_SERVER)
        finished = await lookup.finished_games(guild_id=NO_SERVER, player_id=user, limit=3)
        with speaking(await person_language(interaction)):
            text = notification_messages.missed_text([*finished, *going], user)
        await _tell(interaction, text, "what they missed")

    async def _tell_only_private(self, interaction: discord.Interaction) -> None:
        """Where Discord lets Bredon answer only privately (the channel does not allow
        external apps), a player with a game there hears that it goes on by DM."""
        if not only_private_answers(interaction):
            return
        user = interaction.user.id
        games = await self.services.lookup.games_for_player(user, guild_id=NO_SERVER)
        if not any(game.channel_id == interaction.channel_id for game in games):
            return
        with speaking(await person_language(interaction)):
            text = notification_messages.only_private_text()
        await _tell(interaction, text, "that their game goes on by DM")


async def _tell(interaction: discord.Interaction, text: str, what: str) -> None:
    """A private word after a command; a courtesy, so Discord's refusal is only noted."""
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as error:
        log.info("Could not tell %s %s (%s).", interaction.user, what, error)
