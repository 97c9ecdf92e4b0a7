"""The `/tournament` slash commands and the tournament announcements.

Commands are thin adapters over :class:`bot.tournaments.service.TournamentService`: each
acknowledges at once (privately), tells organizers apart (Manage Server, or the guild's organizer
role) and passes ``is_organizer`` on; the service refuses everything else with a clear message.

Whatever moves a tournament on (these commands, or a game that ended by a move, a resignation or
a deadline) writes its news to the outbox in the same transaction: forfeits, each new round's
pairings and its games (each started like any Bredon game, with a thread, a board and a mention),
and the winner with the final standings. The courier posts them in the tournament's channel
(:meth:`cogs.delivery.table.GameTable.show`); a command delivers its own news at once
(:meth:`TournamentCog.announce`).
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.languages import _, spoken
from bot.notifications.outbox import game_stream, tournament_stream
from bot.services import Services
from bot.tournaments.corrections import MAX_PTN_BYTES, read_reported_game
from bot.tournaments.rules import (
    MAX_ROUNDS,
)
from bot.tournaments.tournament import TournamentStatus, TournamentView
from bot.work.attached_files import FileReader
from cogs.arguments import Tournament, find_tournament
from cogs.client import BredonBot
from cogs.delivery.courier import Courier
from cogs.delivery.picture_files import pairings_file, tournament_files
from cogs.delivery.sharing import answer, wording_for
from cogs.interactions import Refusal, acting, player_of
from cogs.words import result_messages, tournament_messages
from cogs.words.formatting import display
from tak.ptn import Game as PTNGame


async def is_organizer(services: Services, interaction: discord.Interaction) -> bool:
    """Manage Server, or the guild's organizer role."""
    if interaction.permissions.manage_guild:
        return True
    role_id = (await services.guilds.get(interaction.guild_id or 0)).organizer_role_id
    roles = getattr(interaction.user, "roles", ())
    return role_id is not None and any(role.id == role_id for role in roles)


async def organizer_check(services: Services, interaction: discord.Interaction) -> dict[str, Any]:
    """What the service needs to tell organizers apart: who acts, and whether they may."""
    return {
        "actor_id": interaction.user.id,
        "is_organizer": await is_organizer(services, interaction),
    }


async def announce_stream(courier: Courier, stream: str) -> str:
    """Deliver a tournament's or a league's news now; a note for the organizer if Discord
    refused it for now."""
    report = await courier.deliver_stream(stream)
    if report.pending:
        return " " + _("I couldn't post the news in its channel yet; I'll keep trying.")
    return ""


class TournamentCog(commands.Cog):
    """`/tournament`: playing in tournaments (the organizers' `/organize` is
    :class:`cogs.commands.organize.OrganizeCog`; the commands' names and groups are declared in
    :mod:`cogs.commands.tree`)."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier

    # ----------------------------------------------------------------- helpers

    async def announce(self, tournament: TournamentView) -> str:
        """Deliver the tournament's news now; a note for the organizer if Discord refused."""
        return await announce_stream(self.courier, tournament_stream(tournament.id))

    # ----------------------------------------------------------------- organizing

    # ----------------------------------------------------------------- playing

    async def join(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Sign up for a tournament"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            if found.status is TournamentStatus.RUNNING:  # a late entry, if the organizer allows
                await self.services.entry.join_late(found.id, player_of(interaction.user))
                late = await self.announce(found)
                first = await self.services.entry.first_round(found.id, interaction.user.id)
                text = _(
                    "You are in **{name}** as a late entrant: you start with 0 points and are "
                    "paired from round {round}.",
                    name=display(found.name),
                    round=first,
                )
                await interaction.followup.send(text + late, ephemeral=True)
                return
            await self.services.tournaments.join(found.id, player_of(interaction.user))
            joined = await self.services.tournaments.get(found.id)
            text = tournament_messages.joined_text(joined)
            if (await self.services.entry.state(found.id)).checkin.is_open(
                self.services.clock.now()
            ):
                text += " " + _("Check-in is open: check in now with `/tournament checkin`.")
            await interaction.followup.send(text, ephemeral=True)

    async def leave(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Take back your sign-up before the start"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            await self.services.tournaments.leave(found.id, interaction.user.id)
            await interaction.followup.send(
                _("You left {name}.", name=display(found.name)), ephemeral=True
            )

    async def withdraw(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Leave a running tournament (matches forfeited)"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            progress = await self.services.tournaments.withdraw(found.id, interaction.user.id)
            late = await self.announce(progress.tournament)
            text = _(
                "You withdrew from {name}; your results so far stay in the standings.",
                name=display(found.name),
            )
            await interaction.followup.send(text + late, ephemeral=True)

    # ----------------------------------------------------------------- looking

    @app_commands.describe(
        round="The round number (default: the current round)",
    )
    async def pairings(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 100] | None = None,
        tournament: Tournament | None = None,
        public: bool = False,
    ) -> None:
        """A round's pairings and results"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            shown = await self.services.tournaments.pairings(found.id, round)
            table = self.courier.table
            theme = await table.theme_for(interaction.user.id)
            async with wording_for(interaction, public):
                picture = await pairings_file(
                    self.services, table.draw, found.id, round, theme=theme
                )
                embed = tournament_messages.round_embed(found, shown)
            await answer(interaction, public, embed=embed, files=[picture])

    async def standings(
        self,
        interaction: discord.Interaction,
        tournament: Tournament | None = None,
        public: bool = False,
    ) -> None:
        """The tournament's table"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            rows = await self.services.tournaments.standings(found.id)
            table = self.courier.table
            theme = await table.theme_for(interaction.user.id)
            replaced = await self.services.entry.replaced(found.id)
            async with wording_for(interaction, public):
                pictures = await tournament_files(self.services, table.draw, found.id, theme=theme)
                embed = tournament_messages.standings_embed(found, rows)
                note = tournament_messages.replacements_text(replaced)
                if note:
                    embed.add_field(
                        name=_("Replacements"), value=note[: tournament_messages.MAX_FIELD]
                    )
            await answer(interaction, public, embed=embed, files=pictures)

    async def info(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """A tournament's settings and players"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            await interaction.followup.send(embed=await self.info_embed(found), ephemeral=True)

    async def info_embed(self, found: TournamentView) -> discord.Embed:
        """A tournament's settings and players, its check-in, byes asked for and players kept
        apart."""
        entrants = await self.services.tournaments.entrants(found.id)
        embed = tournament_messages.info_embed(found, entrants)
        state = await self.services.entry.state(found.id)
        if found.status is TournamentStatus.SIGNUP and state.checkin.opens_at is not None:
            now = self.services.clock.now()
            embed.add_field(name=_("Check-in"), value=tournament_messages.checkin_field(state, now))
        asked = tournament_messages.bye_requests_text(
            await self.services.entry.bye_requests(found.id)
        )
        apart = tournament_messages.kept_apart_text(await self.services.entry.kept_apart(found.id))
        for name, text in ((_("Byes asked for"), asked), (_("Kept apart"), apart)):
            if text is not None:
                embed.add_field(name=name, value=text, inline=False)
        return embed

    async def export(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Standings as CSV and every game as one PTN file"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            stem = tournament_messages.file_stem(found)
            table = await self.services.tournaments.standings_csv(found.id)
            games = await self.services.tournaments.games_ptn(found.id)
            files = [discord.File(io.BytesIO(table.encode()), filename=f"{stem}-standings.csv")]
            if games:
                files.append(discord.File(io.BytesIO(games.encode()), filename=f"{stem}.ptn"))
            if entries := await self.services.corrections.log(found.id):
                log_file = result_messages.log_text(entries).encode()
                files.append(discord.File(io.BytesIO(log_file), filename=f"{stem}-log.txt"))
            text = _("{name}: the standings and the games.", name=display(found.name))
            if not games:
                text += " " + _("No game has finished yet, so there is no PTN file.")
            await interaction.followup.send(
                text,
                files=files,
                ephemeral=True,
            )

    # ----------------------------------------------------------------- entries

    @app_commands.describe(
        round="The round to sit out (before it is paired)",
        withdraw="Take back a bye asked for that round",
    )
    async def bye(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, MAX_ROUNDS],
        withdraw: bool = False,
        tournament: Tournament | None = None,
    ) -> None:
        """Sit out a later round: a Swiss bye, or a round robin's match forfeited"""
        await self.ask_bye(interaction, None, round, tournament, withdraw=withdraw)

    async def ask_bye(
        self,
        interaction: discord.Interaction,
        player: discord.User | None,
        round: int,
        tournament: str | None,
        *,
        withdraw: bool,
    ) -> None:
        """A bye asked for (or taken back) by the caller for themselves (`player` None), or by
        an organizer for `player`."""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            if player is None:
                player_id, who = interaction.user.id, None
                asker: dict[str, Any] = {"actor_id": interaction.user.id, "is_organizer": False}
            else:
                player_id, who = player.id, display(player.display_name)
                asker = await organizer_check(self.services, interaction)
            await self.services.entry.request_bye(
                found.id, player_id, round, withdraw=withdraw, **asker
            )
            await interaction.followup.send(
                tournament_messages.bye_request_text(found, who, round, withdrawn=withdraw),
                ephemeral=True,
            )

    async def checkin(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Check in for a tournament about to start"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            await self.services.entry.check_in(found.id, interaction.user.id)
            await interaction.followup.send(
                _("You are checked in for {name}. Good luck!", name=display(found.name)),
                ephemeral=True,
            )

    # ----------------------------------------------------------------- results by hand

    @app_commands.describe(
        file="The game's PTN file (on PlayTak: the game's PTN download)",
        white="Who had white (Player 1), if the file's player names are not the ones here",
    )
    async def report(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        white: discord.Member | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        """Count a game played elsewhere (e.g. PlayTak) by its PTN file"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            record = await read_reported_file(file, self.courier.table.files, interaction.user.id)
            change = await self.services.corrections.report(
                found.id,
                record,
                reporter=player_of(interaction.user),
                is_organizer=await is_organizer(self.services, interaction),
                white_id=None if white is None else white.id,
            )
            shown = await self.courier.deliver_stream(game_stream(change.game.id))
            late = await self.announce(found)
            link = f" {shown.last_link}" if shown.last_link else ""
            text = _(
                "Game #{game} counts: **{result}**.",
                game=change.game.id,
                result=change.entry.result_after,
            )
            await interaction.followup.send(text + link + late, ephemeral=True)

    async def log(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Results corrected or reported by hand"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            entries = await self.services.corrections.log(found.id)
            await interaction.followup.send(
                embed=result_messages.log_embed(found, entries), ephemeral=True
            )


async def read_reported_file(
    file: discord.Attachment, reader: FileReader, player_id: int
) -> PTNGame:
    """The game of a reported PTN file, read in `reader`'s worker process (in turn with
    `player_id`'s other files; never on the event loop); refused before reading when too big,
    when not text, or when it cannot count."""
    if file.size > MAX_PTN_BYTES:
        raise Refusal(_("A game's PTN file is at most {size} kB.", size=MAX_PTN_BYTES // 1000))
    try:
        text = (await file.read()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refusal(_("That file is not a PTN text file (UTF-8).")) from None
    except discord.HTTPException as error:
        raise Refusal(
            _("I couldn't read the file (Discord said: {status}).", status=error.status)
        ) from None
    return await reader.run(read_reported_game, text, spoken(), player_id=player_id)
