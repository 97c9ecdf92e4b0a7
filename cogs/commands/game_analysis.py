"""`/game analysis game:`: a finished game analysed, by the bot player's engine.

The request is queued (:mod:`bot.computer.analysis_queue`) and worked by
:class:`bot.computer.analyst.Analyst` in the worker processes; the result is an outbox
announcement (:class:`~bot.notifications.outbox.AnalysisReady`) posted in the game's thread
(:mod:`cogs.presenters.analyses`). Asking for a finished analysis again shows it from storage,
privately.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.computer.analyst import Analyst
from bot.computer.player import Thinker
from cogs.client import BredonBot
from cogs.delivery.conversations import guild_of
from cogs.delivery.courier import Courier
from cogs.delivery.table import GameTable
from cogs.interactions import acting
from cogs.presenters.analyses import analysis_post
from cogs.words.analysis_messages import queued_text


class AnalysisCog(commands.Cog):
    """`/game analysis`; it works in the bot player's worker processes
    (`thinker`)."""

    def __init__(self, bot: BredonBot, courier: Courier, thinker: Thinker) -> None:
        self.bot = bot
        self.courier = courier
        self.table: GameTable = courier.table
        self.thinker = thinker
        self.analyst: Analyst | None = None

    async def cog_load(self) -> None:
        self.analyst = Analyst(
            self.bot.services.analysis,
            self.thinker,
            self.courier.kick,
            engine=self.bot.settings.engine,
            nodes=self.bot.settings.analysis_nodes,
        )
        self.analyst.start()  # it needs the database only, not Discord

    async def close(self) -> None:
        if self.analyst is not None:
            await self.analyst.stop()
            self.analyst = None

    async def cog_unload(self) -> None:
        await self.close()

    @app_commands.describe(game="The game's number (#), a finished game of this server")
    async def analysis(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1]
    ) -> None:
        """A finished game analysed: evaluation graph and annotated PTN"""
        async with acting(interaction):
            services = self.bot.services
            settings = self.bot.settings
            queued = await services.analysis.request(
                game,
                guild_of(interaction),
                interaction.user.id,
                fair_use=settings.fair_use,
                nodes=settings.analysis_nodes,
            )
            findings = queued.analysis.findings
            if findings is None:
                if self.analyst is not None:
                    self.analyst.kick()
                await interaction.followup.send(queued_text(queued, game), ephemeral=True)
                return
            view = await services.games.get(game)
            post = await analysis_post(self.table, view, findings, interaction.user.id)
            await interaction.followup.send(post.text, ephemeral=True, **post.kwargs())
