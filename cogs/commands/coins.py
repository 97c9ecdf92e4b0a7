"""`/coins`: a wallet and the server's coin leaderboard (the University Gambling Rules; the server's
coin settings are `/bredon gambling` and `/bredon grant`, in :mod:`cogs.commands.bredon`)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.delivery.sharing import answer, wording_for
from cogs.interactions import acting, player_of, services_of
from cogs.words import coin_messages

log = logging.getLogger(__name__)


@app_commands.describe(user="Whose wallet (default: yours)")
async def wallet(interaction: discord.Interaction, user: discord.Member | None = None) -> None:
    """Your coins (or someone's) and their latest movements"""
    async with acting(interaction):
        services = services_of(interaction)
        guild_id = interaction.guild_id or 0
        whose = user or interaction.user
        own = whose.id == interaction.user.id
        found = await services.wallets.wallet(guild_id, player_of(whose), own=own)
        settings = await services.wallets.settings(guild_id)
        await interaction.followup.send(coin_messages.wallet_text(found, settings), ephemeral=True)


async def leaderboard(interaction: discord.Interaction, public: bool = False) -> None:
    """The server's coin leaderboard"""
    async with acting(interaction):
        board = await services_of(interaction).wallets.leaderboard(interaction.guild_id or 0)
        async with wording_for(interaction, public):
            embed = coin_messages.coin_board_embed(board)
        await answer(interaction, public, embed=embed)
