"""`/league` (captains and players) and `/organize league` (organizers): team leagues.

Thin adapters over :class:`bot.leagues.service.LeagueService`: the organizers create a league,
add teams with their captains and start it; captains keep their rosters and set each round's
lineup before its deadline; everyone reads the teams, a round's matches and the standings. The
service refuses what cannot be done with a short reason; what it announces (the schedule, each
round's boards, results, the final table) the courier posts in the league's channel
(:mod:`cogs.presenters.leagues`), a command delivering its own news at once."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import GameRequest
from bot.languages import _, ngettext
from bot.leagues.model import MAX_BOARDS, LeagueView
from bot.leagues.service import MAX_NAME
from bot.notifications.outbox import LeagueNews
from cogs.arguments import BoardSize, Days, Text
from cogs.checks import check_place
from cogs.client import BredonBot
from cogs.commands.tournament import announce_stream, is_organizer
from cogs.delivery.courier import Courier
from cogs.delivery.picture_files import league_standings_file
from cogs.interactions import acting, player_of, services_of
from cogs.words import league_messages
from cogs.words.formatting import display

MAX_ROUND_DAYS = 60
LEAGUE = "The league (default: the server's only league going)"


class LeagueArgument(Text):
    """A league by its name, suggested from the server's leagues; looked up once the command
    has acknowledged."""

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        wanted = typed.strip().casefold()
        found = await services_of(interaction).leagues.leagues(interaction.guild_id or 0)
        return [
            app_commands.Choice(name=league.name[:100], value=league.name)
            for league in found
            if wanted in league.name.casefold()
        ]


League = app_commands.Transform[str, LeagueArgument]
Player = discord.Member


class LeagueCog(commands.Cog):
    """The bodies of `/league` and `/organize league` (named and grouped in
    :mod:`cogs.commands.tree`)."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier

    async def _find(self, interaction: discord.Interaction, league: str | None) -> LeagueView:
        return await self.services.leagues.named(interaction.guild_id or 0, league)

    # ----------------------------------------------------------------- organizers

    @app_commands.describe(
        name="The league's name, e.g. Winter League",
        boards="Boards (players) a team fields in each match",
        size="Board size, 3 to 8 (default: the server's)",
        komi="Extra points for black in a flat count (default: the server's)",
        days="Days each player has for a move (default: the server's)",
        round_days="Days between rounds: round r's lineups are due r times this after the start",
        double="Each pair of teams meets twice, home and away swapped (default: once)",
    )
    async def league_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        boards: app_commands.Range[int, 1, MAX_BOARDS] = 2,
        size: BoardSize | None = None,
        komi: float | None = None,
        days: Days | None = None,
        round_days: app_commands.Range[int, 1, MAX_ROUND_DAYS] = 7,
        double: bool = False,
    ) -> None:
        """Create a team league in this channel (then add teams and start it)"""
        async with acting(interaction):
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            setup = settings.game_setup(GameRequest(size=size, komi=komi, days_per_move=days))
            await check_place(interaction, settings.use_threads)
            league = await self.services.leagues.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                name=name,
                organizer=player_of(interaction.user),
                is_organizer=await is_organizer(self.services, interaction),
                boards=boards,
                size=setup.size,
                komi=setup.komi,
                days_per_move=setup.days_per_move,
                round_days=round_days,
                legs=2 if double else 1,
            )
            await interaction.followup.send(league_messages.created_text(league), ephemeral=True)

    @app_commands.describe(
        name="The team's name",
        captain="Its captain, the first player on its roster",
        league=LEAGUE,
    )
    async def league_addteam(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        captain: Player,
        league: League | None = None,
    ) -> None:
        """Add a team and its captain to a league before it starts"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            team = await self.services.leagues.add_team(
                found.id,
                name,
                player_of(captain),
                is_organizer=await is_organizer(self.services, interaction),
            )
            text = _(
                "**{team}** is in {league}. Its captain adds players with `/league roster add`.",
                team=display(team.name),
                league=display(found.name),
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(league=LEAGUE)
    async def league_start(
        self, interaction: discord.Interaction, league: League | None = None
    ) -> None:
        """Start a league: the teams paired, each round's lineup deadline set"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            started = await self.services.leagues.start(
                found.id, is_organizer=await is_organizer(self.services, interaction)
            )
            self.bot.wake_scheduler()  # the first lineup deadline
            late = await announce_stream(self.courier, LeagueNews(started.id).stream)
            text = _("**{name}** has started.", name=display(started.name))
            await interaction.followup.send(text + late, ephemeral=True)

    @app_commands.describe(team="The team's name", league=LEAGUE)
    async def league_removeteam(
        self,
        interaction: discord.Interaction,
        team: app_commands.Range[str, 1, MAX_NAME],
        league: League | None = None,
    ) -> None:
        """Take a team and its roster out of a league before it starts"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            removed = await self.services.leagues.remove_team(
                found.id, team, is_organizer=await is_organizer(self.services, interaction)
            )
            text = _(
                "**{team}** is out of {league}.",
                team=display(removed.name),
                league=display(found.name),
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(
        team="The team's name", player="Its new captain, from its roster", league=LEAGUE
    )
    async def league_captain(
        self,
        interaction: discord.Interaction,
        team: app_commands.Range[str, 1, MAX_NAME],
        player: Player,
        league: League | None = None,
    ) -> None:
        """Make another player of a team's roster its captain"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            changed = await self.services.leagues.set_captain(
                found.id,
                team,
                player_of(player),
                is_organizer=await is_organizer(self.services, interaction),
            )
            text = _(
                "{player} is now the captain of **{team}**: they set its lineups.",
                player=display(changed.captain.name),
                team=display(changed.name),
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(league=LEAGUE)
    async def league_cancel(
        self, interaction: discord.Interaction, league: League | None = None
    ) -> None:
        """Call a league off: its games in progress are stopped"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            cancelled, stopped = await self.services.leagues.cancel(
                found.id, is_organizer=await is_organizer(self.services, interaction)
            )
            self.bot.wake_scheduler()
            late = await announce_stream(self.courier, LeagueNews(cancelled.id).stream)
            text = ngettext(
                "**{name}** is cancelled: {count} game stopped.",
                "**{name}** is cancelled: {count} games stopped.",
                stopped,
                name=display(cancelled.name),
            )
            await interaction.followup.send(text + late, ephemeral=True)

    # ----------------------------------------------------------------- captains

    @app_commands.describe(player="The player to add", league=LEAGUE)
    async def roster_add(
        self, interaction: discord.Interaction, player: Player, league: League | None = None
    ) -> None:
        """Add a player to your team's roster (captains)"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            team = await self.services.leagues.add_to_roster(
                found.id, interaction.user.id, player_of(player)
            )
            await interaction.followup.send(league_messages.roster_text(team), ephemeral=True)

    @app_commands.describe(player="The player to take off", league=LEAGUE)
    async def roster_remove(
        self, interaction: discord.Interaction, player: discord.User, league: League | None = None
    ) -> None:
        """Take a player off your team's roster (captains)"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            team = await self.services.leagues.remove_from_roster(
                found.id, interaction.user.id, player.id
            )
            await interaction.followup.send(league_messages.roster_text(team), ephemeral=True)

    @app_commands.describe(
        board1="Who plays board 1",
        board2="Who plays board 2",
        board3="Who plays board 3",
        board4="Who plays board 4",
        board5="Who plays board 5",
        board6="Who plays board 6",
        round="The round (default: the next whose lineups are not due yet)",
        league=LEAGUE,
    )
    async def lineup(
        self,
        interaction: discord.Interaction,
        board1: Player,
        board2: Player | None = None,
        board3: Player | None = None,
        board4: Player | None = None,
        board5: Player | None = None,
        board6: Player | None = None,
        round: app_commands.Range[int, 1, 100] | None = None,
        league: League | None = None,
    ) -> None:
        """Set your team's lineup for a round, board 1 first (captains, before the deadline)"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            players = [p for p in (board1, board2, board3, board4, board5, board6) if p]
            match, due = await self.services.leagues.set_lineup(
                found.id, interaction.user.id, [p.id for p in players], round
            )
            names = ", ".join(
                _("{board}: {player}", board=board, player=display(player_of(p).name))
                for board, p in enumerate(players, start=1)
            )
            text = _(
                "Your lineup for round {round} ({match}): {names}. You can change it until the "
                "deadline, {when}.",
                round=due.number,
                match=league_messages.match_title(match),
                names=names,
                when=f"<t:{int(due.lineup_deadline.timestamp())}:f>",
            )
            await interaction.followup.send(text, ephemeral=True)

    # ----------------------------------------------------------------- everyone

    @app_commands.describe(league=LEAGUE)
    async def standings(
        self, interaction: discord.Interaction, league: League | None = None
    ) -> None:
        """A league's table: match points, then game points"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            rows = await self.services.leagues.standings(found.id)
            table = self.courier.table
            theme = await table.theme_for(interaction.user.id)
            picture = await league_standings_file(self.services, table.draw, found.id, theme=theme)
            embed = league_messages.standings_embed(found, rows)
            if picture is not None:
                embed.set_image(url=f"attachment://{picture.filename}")
            files = [] if picture is None else [picture]
            await interaction.followup.send(embed=embed, files=files, ephemeral=True)

    @app_commands.describe(round="The round number (default: the current round)", league=LEAGUE)
    async def match(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 100] | None = None,
        league: League | None = None,
    ) -> None:
        """A round's team matches: who plays on which board, and the scores"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            number = round or await self.services.leagues.current_round(found.id)
            matches = await self.services.leagues.matches(found.id, number)
            embed = league_messages.round_embed(found, number, matches)
            await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.describe(league=LEAGUE)
    async def teams(self, interaction: discord.Interaction, league: League | None = None) -> None:
        """A league's teams, their captains and rosters"""
        async with acting(interaction):
            found = await self._find(interaction, league)
            teams = await self.services.leagues.teams(found.id)
            lines = [league_messages.roster_text(t) for t in teams] or [_("No teams yet.")]
            await interaction.followup.send("\n".join(lines), ephemeral=True)
