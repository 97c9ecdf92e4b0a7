"""`/profile`: you and the server's tables (settings, scores, stats, leaderboard). Thin
adapters from Discord to the services (the commands' names and groups are declared in
:mod:`cogs.commands.tree`)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import NO_SERVER
from bot.languages import _, speaking
from cogs.arguments import BoardSize, TimeZone
from cogs.checks import only_own_outside_servers, server_only
from cogs.client import BredonBot
from cogs.delivery.conversations import guild_of
from cogs.delivery.courier import Courier
from cogs.delivery.picture_files import rating_file, statistics_file
from cogs.delivery.sharing import answer, wording_for
from cogs.delivery.table import is_me
from cogs.interactions import acting, person_language, player_of
from cogs.translation import language_choices
from cogs.words import game_messages, notification_messages, player_messages
from cogs.words.formatting import display
from rendering import THEMES

FOLLOW_DISCORD = "discord"  # /profile settings language: as the player's Discord


class ProfileCog(commands.Cog):
    """A player's settings, scores and statistics, and the server's rating leaderboard."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.table = courier.table

    @app_commands.describe(
        theme="The look of your board images",
        notify="In this server: a mention at each move, a DM too, or a daily digest by DM",
        digest_hour="The hour of your daily digest, 0 to 23, in your time zone (default 8)",
        time_zone="Your time zone for the digest, e.g. Europe/London (suggested as you type)",
        auto_vacation="Out of time: take a vacation day (if any left) instead of losing",
        language="The language Bredon speaks to you (default: your Discord's)",
    )
    @app_commands.choices(
        theme=[app_commands.Choice(name=n, value=n) for n in THEMES],
        language=language_choices(FOLLOW_DISCORD, "Your Discord's"),
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        theme: str | None = None,
        notify: Literal["mention", "dm", "digest"] | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
        time_zone: TimeZone | None = None,
        auto_vacation: Literal["on", "off"] | None = None,
        language: str | None = None,
    ) -> None:
        """Your board theme, how you are notified, and automatic vacation"""
        async with acting(interaction):
            players = self.services.players
            profile = await players.register(player_of(interaction.user))
            notifications = self.services.notifications
            guild_id = guild_of(interaction)
            if notify is not None or digest_hour is not None or time_zone is not None:
                # First: a time zone it refuses leaves the theme unchanged too.
                prefs = await notifications.choose(
                    interaction.user.id, guild_id, notify, hour=digest_hour, zone=time_zone
                )
                self.bot.wake_scheduler()  # the first digest may be due within the hour
            else:
                prefs = await notifications.get(interaction.user.id, guild_id)
            if theme is not None:
                profile = await players.set_theme(interaction.user.id, theme)
            if auto_vacation is not None:
                on = auto_vacation == "on"
                profile = await players.set_auto_vacation(interaction.user.id, on)
            if language is not None:
                chosen = None if language == FOLLOW_DISCORD else language
                profile = await players.set_language(interaction.user.id, chosen)
            # The rule every command speaks by (a language just chosen answers already), not
            # what is stored: a player new with this command has no Discord language noted yet.
            with speaking(await person_language(interaction)):
                text = player_messages.settings_text(profile)
                text += "\n" + notification_messages.prefs_text(prefs)
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(user="Whose scores (default: yours)")
    async def scores(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        public: bool = False,
    ) -> None:
        """All-time points in this server, and the match score"""
        async with acting(interaction):
            whose = user or interaction.user
            only_own_outside_servers(interaction, whose.id)
            me = self.bot.user
            totals = await self.services.matches.guild_totals(
                guild_of(interaction), bot_id=None if me is None else me.id
            )
            mine = next((t for t in totals if t.player.id == whose.id), None)
            name = display(player_of(whose).name)
            guild_id = guild_of(interaction)
            ratings = await self.services.ratings.player(guild_id, whose.id)
            anywhere = []  # their own games outside servers, rated apart: shown to them only
            if guild_id != NO_SERVER and whose.id == interaction.user.id and not public:
                anywhere = await self.services.ratings.player(NO_SERVER, whose.id)
            here = await self.services.lookup.game_in_thread(interaction.channel_id or 0, guild_id)
            match_and_games = None
            if here is not None and here.match_id is not None:  # this thread's match, even if over
                match_and_games = (
                    await self.services.matches.get(here.match_id),
                    await self.services.matches.games(here.match_id),
                )
            async with wording_for(interaction, public):
                lines = [
                    _("Games against me count in their own game and match only: I keep no score.")
                    if is_me(self.bot, whose.id)
                    else player_messages.totals_text(mine, name),
                    player_messages.ratings_text(ratings, name),
                ]
                if anywhere:
                    lines.append(player_messages.anywhere_ratings_text(anywhere))
                if match_and_games is not None:
                    lines.append(game_messages.match_text(*match_and_games))
                theme = await self.table.theme_for(interaction.user.id)
                charts = [  # their words too
                    await rating_file(
                        self.services, self.table.draw, guild_id, r.player, r.size, theme=theme
                    )
                    for r in ratings
                ]
            files = [chart for chart in charts if chart is not None]
            await answer(interaction, public, "\n".join(lines), files=files)

    @app_commands.describe(
        user="Whose statistics (default: yours)",
        size="Board size, 3 to 8 (default: every size)",
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        size: BoardSize | None = None,
        public: bool = False,
    ) -> None:
        """A player's record in this server as a picture: results, openings, opponents"""
        async with acting(interaction):
            whose = user or interaction.user
            only_own_outside_servers(interaction, whose.id)
            guild_id = guild_of(interaction)
            me = self.bot.user
            if is_me(self.bot, whose.id):
                async with wording_for(interaction, public):
                    text = _("I keep no record of my own games: ask for a player's.")
                await answer(interaction, public, text)
                return
            stats = await self.services.lookup.statistics(
                whose.id, guild_id, bot_id=None if me is None else me.id, size=size
            )
            name = player_of(whose).name
            card = None
            async with wording_for(interaction, public):
                if not stats.games:
                    text = player_messages.no_statistics_text(
                        display(name), size, stats.against_bot
                    )
                else:
                    text = player_messages.statistics_text(stats, display(name), size)
                    bot_name = "Bredon" if me is None else me.display_name
                    card = player_messages.statistics_card(stats, name, size, bot_name)
            files = []
            if card is not None:
                theme = await self.table.theme_for(interaction.user.id)
                files.append(await statistics_file(self.table.draw, card, theme=theme))
            await answer(interaction, public, text, files=files)

    @app_commands.describe(
        size="Board size, 3 to 8 (default: the server's); provisional left out",
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        size: BoardSize | None = None,
        public: bool = False,
    ) -> None:
        """The server's best rated players on a board size"""
        async with acting(interaction):
            guild_id = server_only(interaction)
            chosen = size or (await self.services.guilds.get(guild_id)).size
            board = await self.services.ratings.leaderboard(guild_id, chosen)
            async with wording_for(interaction, public):
                embed = player_messages.leaderboard_embed(chosen, board)
            await answer(interaction, public, embed=embed)
