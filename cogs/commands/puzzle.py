"""`/puzzle`: puzzles to solve privately (solve, daily, answer, stats). Thin adapters from
Discord to :mod:`bot.puzzles` (the commands' names and groups are declared in
:mod:`cogs.commands.tree`); the answer is picked with :mod:`cogs.actions.puzzle_picker`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.puzzles.service import Puzzle
from cogs.actions.puzzle_picker import answer_puzzle, puzzle_view
from cogs.client import BredonBot
from cogs.delivery.courier import Courier
from cogs.interactions import acting, player_of
from cogs.words import puzzle_messages
from cogs.words.formatting import display


class PuzzleCog(commands.Cog):
    """Puzzles: one to solve privately, the server's daily puzzle, answers and ratings."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.table = courier.table

    async def _put(
        self, interaction: discord.Interaction, puzzle: Puzzle, daily_of: str | None = None
    ) -> None:
        """The puzzle privately: its board, the question and the picker."""
        board = await self.table.position_file(
            puzzle.position(),
            puzzle_messages.side_names(),
            viewer_id=interaction.user.id,
            name=f"puzzle-{puzzle.id}.png",
        )
        await interaction.followup.send(
            puzzle_messages.puzzle_text(puzzle, daily_of=daily_of),
            file=board,
            view=puzzle_view(puzzle),
            ephemeral=True,
        )

    async def solve(self, interaction: discord.Interaction) -> None:
        """A puzzle near your puzzle rating, for you alone: find the winning move"""
        async with acting(interaction):
            puzzle = await self.services.puzzles.next_for(player_of(interaction.user))
            await self._put(interaction, puzzle)

    async def daily(self, interaction: discord.Interaction) -> None:
        """Today's puzzle of this server, for you alone (the same for everyone here)"""
        async with acting(interaction):
            daily = await self.services.puzzles.daily(interaction.guild_id or 0)
            await self._put(interaction, daily.puzzle, daily_of=daily.day.isoformat())

    @app_commands.describe(
        puzzle="The puzzle's number, as its question says", move="Your move, in PTN (e.g. 3c3>12)"
    )
    async def answer(
        self,
        interaction: discord.Interaction,
        puzzle: app_commands.Range[int, 1],
        move: app_commands.Range[str, 1, 20],
    ) -> None:
        """Answer a puzzle by typing the move (PTN); only your first answer counts"""
        async with acting(interaction):
            text = await answer_puzzle(interaction, puzzle, move)
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(user="Whose (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        """A puzzle rating and daily streak, and the streak's rules"""
        async with acting(interaction):
            whose = user or interaction.user
            stats = await self.services.puzzles.stats(whose.id)
            name = display(player_of(whose).name)
            await interaction.followup.send(puzzle_messages.stats_text(stats, name), ephemeral=True)
