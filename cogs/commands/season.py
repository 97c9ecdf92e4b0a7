"""`/season` (players: sign up for the next season, leave, the tables, the hall of fame) and
`/organize season` (organizers: create the server's league, change its settings, start a season,
close a round early). Thin adapters over :class:`bot.seasons.service.SeasonService`; a season's
divisions are tournaments, so their pairings, withdrawals and results are also `/tournament`'s
and `/organize`'s. The commands' names and groups are declared in :mod:`cogs.commands.tree`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import MAX_MATCH_GAMES, GameRequest
from bot.notifications.outbox import season_stream, tournament_stream
from bot.seasons.league import (
    MAX_DIVISION_SIZE,
    MAX_NAME_LENGTH,
    MAX_PERIOD_DAYS,
    LeagueRules,
    LeagueView,
    SeasonView,
)
from bot.seasons.service import SeasonService
from cogs.arguments import BoardSize, Days
from cogs.checks import check_place
from cogs.client import BredonBot
from cogs.commands.tournament import is_organizer, organizer_check
from cogs.delivery.courier import Courier
from cogs.delivery.sharing import answer, wording_for
from cogs.interactions import acting, player_of
from cogs.words import season_messages

PAIRINGS = [
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Swiss", value="swiss"),
]
MAX_SEASONS = 10_000


class SeasonCog(commands.Cog):
    """The bodies of `/season` and `/organize season`."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier

    @property
    def seasons(self) -> SeasonService:
        return self.services.seasons

    async def announce(self, season_id: int) -> None:
        """Post the season's news and its divisions' now (the games follow from the courier's
        own round)."""
        await self.courier.deliver_stream(season_stream(season_id))
        for division in await self.seasons.divisions(season_id):
            await self.courier.deliver_stream(tournament_stream(division.tournament_id))

    # ----------------------------------------------------------------- organizers

    @app_commands.describe(
        name="The league's name, e.g. Ladder",
        pairing="How each division is paired",
        division_size="About how many players a division has (default 8)",
        period_days="Days a round lasts, its deadline at the end (default 7)",
        movers="How many go up from, and down from, each division (default 1)",
        games="Games a pairing, colours alternating (default 2)",
        size="Board size, 3 to 8 (default: the server's)",
        komi="Extra points for black in a flat count, in halves (default: the server's)",
        days="Days each player has for a move (default: the server's)",
    )
    @app_commands.choices(pairing=PAIRINGS)
    async def season_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME_LENGTH],
        pairing: str = "round_robin",
        division_size: app_commands.Range[int, 3, MAX_DIVISION_SIZE] = 8,
        period_days: app_commands.Range[int, 1, MAX_PERIOD_DAYS] = 7,
        movers: app_commands.Range[int, 0, MAX_DIVISION_SIZE // 2] = 1,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] = 2,
        size: BoardSize | None = None,
        komi: float | None = None,
        days: Days | None = None,
    ) -> None:
        """Make this server's season league, its games in this channel"""
        async with acting(interaction):
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            setup = settings.game_setup(
                GameRequest(size=size, komi=komi, days_per_move=days, antiquity=False)
            )
            rules = LeagueRules.create(
                format=pairing,
                division_size=division_size,
                period_days=period_days,
                movers=movers,
                games_per_match=games,
            )
            await check_place(interaction, settings.use_threads)
            league = await self.seasons.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                organizer=player_of(interaction.user),
                is_organizer=await is_organizer(self.services, interaction),
                name=name,
                rules=rules,
                setup=setup,
            )
            await interaction.followup.send(season_messages.created_text(league), ephemeral=True)

    @app_commands.describe(
        pairing="How each division is paired",
        division_size="About how many players a division has",
        period_days="Days a round lasts, its deadline at the end",
        movers="How many go up from, and down from, each division",
        games="Games a pairing, colours alternating",
        size="Board size, 3 to 8",
        komi="Extra points for black in a flat count, in halves",
        days="Days each player has for a move",
    )
    @app_commands.choices(pairing=PAIRINGS)
    async def season_settings(
        self,
        interaction: discord.Interaction,
        pairing: str | None = None,
        division_size: app_commands.Range[int, 3, MAX_DIVISION_SIZE] | None = None,
        period_days: app_commands.Range[int, 1, MAX_PERIOD_DAYS] | None = None,
        movers: app_commands.Range[int, 0, MAX_DIVISION_SIZE // 2] | None = None,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] | None = None,
        size: BoardSize | None = None,
        komi: float | None = None,
        days: Days | None = None,
    ) -> None:
        """Change the league's settings from the next season on, its games in this channel"""
        async with acting(interaction):
            league = await self.seasons.league(interaction.guild_id or 0)
            now = league.rules
            rules = LeagueRules.create(
                format=pairing or now.format,
                division_size=division_size or now.division_size,
                period_days=period_days or now.period_days,
                movers=now.movers if movers is None else movers,
                games_per_match=games or now.games_per_match,
            )
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            await check_place(interaction, settings.use_threads)
            changed = await self.seasons.change(
                interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                rules=rules,
                game=GameRequest(size=size, komi=komi, days_per_move=days, antiquity=False),
                **await organizer_check(self.services, interaction),
            )
            await interaction.followup.send(season_messages.changed_text(changed), ephemeral=True)

    async def season_start(self, interaction: discord.Interaction) -> None:
        """Start the next season now: its divisions and their first round"""
        await self._move_on(interaction, self.seasons.start, season_messages.started_text)

    async def season_round(self, interaction: discord.Interaction) -> None:
        """Close the running season's round now, as its deadline would, and pair the next"""
        await self._move_on(
            interaction, self.seasons.close_round, season_messages.round_closed_text
        )

    async def season_end(self, interaction: discord.Interaction) -> None:
        """End the running season now: its round closed as at its deadline, then the final tables"""
        await self._move_on(
            interaction,
            partial(self.seasons.close_round, last=True),
            season_messages.round_closed_text,
        )

    async def _move_on(
        self,
        interaction: discord.Interaction,
        change: Callable[..., Awaitable[SeasonView]],
        confirmation: Callable[[LeagueView, SeasonView], str],
    ) -> None:
        """An organizer's step (made by the service, which checks who may), its news posted at
        once, and confirmed to the organizer."""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            season = await change(guild_id, **await organizer_check(self.services, interaction))
            await self.announce(season.id)
            league = await self.seasons.league(guild_id)
            await interaction.followup.send(confirmation(league, season), ephemeral=True)

    # ----------------------------------------------------------------- players

    async def join(self, interaction: discord.Interaction) -> None:
        """Sign up for the league's next season"""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            season = await self.seasons.join(guild_id, player_of(interaction.user))
            league = await self.seasons.league(guild_id)
            await interaction.followup.send(
                season_messages.joined_text(league, season), ephemeral=True
            )

    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the league: your sign-up for the next season, and the running season"""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            leaving = await self.seasons.leave(guild_id, interaction.user.id)
            if leaving.withdrawn is not None:
                await self.courier.deliver_stream(
                    tournament_stream(leaving.withdrawn.tournament.id)
                )
            league = await self.seasons.league(guild_id)
            await interaction.followup.send(
                season_messages.left_text(league, leaving), ephemeral=True
            )

    @app_commands.describe(
        season="The season's number (default: the running or the latest)",
        division="Only this division (1 is the top)",
        public="Show it to the channel",
    )
    async def standings(
        self,
        interaction: discord.Interaction,
        season: app_commands.Range[int, 1, MAX_SEASONS] | None = None,
        division: app_commands.Range[int, 1, 100] | None = None,
        public: bool = False,
    ) -> None:
        """A season's tables, one a division"""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            played, tables = await self.seasons.standings(guild_id, season, division)
            league = await self.seasons.league(guild_id)
            async with wording_for(interaction, public):
                embed = season_messages.standings_embed(league, played, tables)
            await answer(interaction, public, embed=embed)

    @app_commands.describe(public="Show it to the channel")
    async def halloffame(self, interaction: discord.Interaction, public: bool = False) -> None:
        """Every season's division winners"""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            honours = await self.seasons.hall_of_fame(guild_id)
            league: LeagueView = await self.seasons.league(guild_id)
            async with wording_for(interaction, public):
                embed = season_messages.hall_of_fame_embed(league, honours)
            await answer(interaction, public, embed=embed)
