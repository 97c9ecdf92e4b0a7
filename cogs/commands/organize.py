"""`/organize`: running tournaments (organizers: Manage Server or the server's organizer role;
the service checks who may). A tournament is created with its essentials (`create`), its other
settings shown and changed until it starts (`settings`, `clocks`); then it is started, decided on
(forfeits, disqualifications, byes, pairs kept apart, late entries, replacements) and its results
corrected. The commands' names and groups are declared in :mod:`cogs.commands.tree`; the players'
side is :mod:`cogs.commands.tournament`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import MAX_MATCH_GAMES, GameRequest
from bot.languages import _
from bot.notifications.outbox import tournament_stream
from bot.text_safety import message_text
from bot.timekeeping.control import clock_options, parse_duration
from bot.tournaments.corrections import MAX_REASON_LENGTH
from bot.tournaments.groups import MAX_GROUPS
from bot.tournaments.rules import (
    MAX_ADVANCE,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SWISS_ROUNDS,
    MAX_TIEBREAK_GAMES,
    RulesRequest,
    TournamentRules,
)
from bot.tournaments.service import MAX_NAME_LENGTH
from bot.tournaments.tournament import TournamentProgress, TournamentView
from cogs.arguments import BoardSize, Days, Span, Tournament, find_tournament
from cogs.checks import check_place
from cogs.client import BredonBot
from cogs.commands.tournament import TournamentCog, is_organizer, organizer_check
from cogs.delivery.courier import Courier
from cogs.interactions import Refusal, acting, player_of
from cogs.words import result_messages, tournament_messages
from cogs.words.formatting import display
from tak.tps import MAX_TPS_LENGTH

MAX_SIGNUP_DAYS = 60

FORMATS = [
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Double round robin (colours swapped)", value="double_round_robin"),
    app_commands.Choice(name="Swiss (set swiss_rounds)", value="swiss"),
    app_commands.Choice(name="Single elimination", value="elimination"),
    app_commands.Choice(name="Groups, then knockout (set groups and advance)", value="groups"),
]
REQUESTED_BYES = [
    app_commands.Choice(name="Half: a draw's points (default)", value="half"),
    app_commands.Choice(name="Zero", value="zero"),
]
SCORINGS = [
    app_commands.Choice(name="Match points (3 a win, 1 a draw)", value="match_points"),
    app_commands.Choice(name="Game points (squares + unplayed pieces)", value="game_points"),
]
NEW_RESULTS = [
    app_commands.Choice(name="White wins", value="white"),
    app_commands.Choice(name="Black wins", value="black"),
    app_commands.Choice(name="Draw", value="draw"),
]


class OrganizeCog(commands.Cog):
    """`/organize`: the commands' bodies. The tournament's news and its sign-up card are the
    players' cog's (`tournaments`), shared."""

    def __init__(self, bot: BredonBot, courier: Courier, tournaments: TournamentCog) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier
        self.tournaments = tournaments

    async def check_channel(self, interaction: discord.Interaction) -> None:
        """Refuse, before anything is stored, a tournament where its games cannot be shown."""
        settings = await self.services.guilds.get(interaction.guild_id or 0)
        await check_place(interaction, settings.use_threads)

    async def decide(
        self,
        interaction: discord.Interaction,
        tournament: str | None,
        decision: Callable[..., Awaitable[TournamentProgress]],
        confirmation: Callable[[TournamentView, str], str],
    ) -> None:
        """An organizer's decision on the tournament named: made by the service (which checks
        who may), announced in the tournament's channel, and confirmed to the organizer
        (`confirmation` of the tournament and the note if the news could not be posted yet)."""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            progress = await decision(found.id, **await organizer_check(self.services, interaction))
            late = await self.tournaments.announce(progress.tournament)
            await interaction.followup.send(confirmation(found, late), ephemeral=True)

    @app_commands.describe(
        name="The tournament's name, e.g. Spring Open",
        format="How players are paired",
        size="Board size, 3 to 8 (default: the server's)",
        komi="Extra points for black in a flat count, in halves (default: the server's)",
        games="Games per match, colours alternating (default 2)",
        days="Days each player has for a move (default: the server's)",
        signup_days="Days sign-up stays open (default: until the organizer starts it)",
        swiss_rounds="Rounds of a Swiss tournament (Swiss only)",
        groups="Groups -> knockout: how many round-robin groups (players spread by seed)",
        advance="Groups -> knockout: how many of each group go into the knockout",
    )
    @app_commands.choices(format=FORMATS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME_LENGTH],
        format: str,
        size: BoardSize | None = None,
        komi: float | None = None,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] = 2,
        days: Days | None = None,
        signup_days: app_commands.Range[int, 1, MAX_SIGNUP_DAYS] | None = None,
        swiss_rounds: app_commands.Range[int, 1, MAX_SWISS_ROUNDS] | None = None,
        groups: app_commands.Range[int, 2, MAX_GROUPS] | None = None,
        advance: app_commands.Range[int, 1, MAX_ADVANCE] | None = None,
    ) -> None:
        """Open a tournament for sign-up (then `/organize settings` and `/organize clocks`)"""
        async with acting(interaction):
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            # A tournament keeps no tie rule (not the server's default).
            setup = settings.game_setup(
                GameRequest(size=size, komi=komi, days_per_move=days, antiquity=False)
            )
            rules = TournamentRules.create(
                RulesRequest(
                    format,
                    swiss_rounds=swiss_rounds,
                    games_per_match=games,
                    groups=groups,
                    advance=advance,
                ),
                days_per_move=setup.days_per_move,
            )
            await self.check_channel(interaction)
            deadline = None
            if signup_days is not None:
                deadline = self.services.clock.now() + timedelta(days=signup_days)
            created = await self.services.tournaments.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                organizer=player_of(interaction.user),
                is_organizer=await is_organizer(self.services, interaction),
                name=name,
                setup=setup,
                rules=rules,
                signup_deadline=deadline,
            )
            report = await self.courier.deliver_stream(tournament_stream(created.id))
            name = display(created.name)
            if report.pending:
                opened = _(
                    "**{name}** is open for sign-up, but I couldn't announce it here yet; "
                    "I'll keep trying.",
                    name=name,
                )
            elif report.given_up:
                opened = _(
                    "**{name}** is open for sign-up, but Discord refused the announcement: "
                    "check my permissions here.",
                    name=name,
                )
            elif report.last_link:  # posted now, or just before by the courier's own round
                opened = _(
                    "**{name}** is open for sign-up: {link}.", name=name, link=report.last_link
                )
            else:
                opened = _("**{name}** is open for sign-up.", name=name)
            start_it = _("Start it with `/organize start` once the players are in.")
            await interaction.followup.send(f"{opened} {start_it}", ephemeral=True)

    @app_commands.describe(
        scoring="What ranks the table",
        max_players="Most players who may join",
        rated="Whether the games count for the ratings (never from a `start`)",
        vacations="Whether players' vacations stop the clocks of its games",
        checkin="Check-in window before sign-up closes, e.g. 1d or 12h (needs signup_days)",
        start="Every game starts here: a TPS, or opening moves in PTN (a thematic event)",
        requested_bye="Swiss: what a bye a player asks for scores (half: a draw)",
    )
    @app_commands.choices(scoring=SCORINGS, requested_bye=REQUESTED_BYES)
    async def settings(
        self,
        interaction: discord.Interaction,
        tournament: Tournament | None = None,
        scoring: str | None = None,
        max_players: app_commands.Range[int, 2, MAX_PLAYERS] | None = None,
        rated: bool | None = None,
        vacations: bool | None = None,
        checkin: Span | None = None,
        start: app_commands.Range[str, 1, MAX_TPS_LENGTH] | None = None,
        requested_bye: str | None = None,
    ) -> None:
        """A tournament's settings before it starts: shown, and changed where given"""
        game = {"rated": rated, "start": start}
        rules = {
            "scoring": scoring,
            "max_players": max_players,
            "vacation_allowed": vacations,
            "requested_bye": requested_bye,
        }
        async with acting(interaction):
            window = None if checkin is None else parse_duration(checkin, _("check-in window"))
            await self.change(interaction, tournament, game, rules, checkin=window)

    @app_commands.describe(
        bank="A reserve for moves that take longer than `days`, e.g. 7d (never refilled)",
        increment="Fischer clock: start with `days`, add this a move, e.g. 1d or 12h",
        maximum="With an increment: the most a clock can hold, e.g. 10d",
        tiebreak_games="Knockouts: most tiebreak games for a drawn match, then the better seed "
        "goes through",
        tiebreak_days="Knockouts: days a move in tiebreak games",
        tiebreak_bank="Knockouts: a bank for tiebreak games, e.g. 2d",
        tiebreak_increment="Knockouts: an increment for tiebreak games, e.g. 12h",
        tiebreak_maximum="Knockouts: with a tiebreak increment, the most a clock can hold",
    )
    async def clocks(
        self,
        interaction: discord.Interaction,
        tournament: Tournament | None = None,
        bank: Span | None = None,
        increment: Span | None = None,
        maximum: Span | None = None,
        tiebreak_games: app_commands.Range[int, 1, MAX_TIEBREAK_GAMES] | None = None,
        tiebreak_days: Days | None = None,
        tiebreak_bank: Span | None = None,
        tiebreak_increment: Span | None = None,
        tiebreak_maximum: Span | None = None,
    ) -> None:
        """A tournament's time control and knockout tiebreak games: shown, changed where given"""
        async with acting(interaction):
            game: dict[str, Any] = {}
            if bank or increment or maximum:  # a new time control, whole
                game.update(clock_options(bank, increment, maximum))
            rules: dict[str, Any] = {
                "tiebreak_games": tiebreak_games,
                "tiebreak_days": tiebreak_days,
            }
            if tiebreak_bank or tiebreak_increment or tiebreak_maximum:
                spans = clock_options(tiebreak_bank, tiebreak_increment, tiebreak_maximum)
                rules.update({f"tiebreak_{name}": span for name, span in spans.items()})
            await self.change(interaction, tournament, game, rules)

    async def change(
        self,
        interaction: discord.Interaction,
        tournament: str | None,
        game: dict[str, Any],
        rules: dict[str, Any],
        *,
        checkin: timedelta | None = None,
    ) -> None:
        """The tournament's settings changed where given (the service checks them whole and
        who may; `checkin` None: as it is), then shown as `/tournament info` shows them."""
        found = await find_tournament(interaction, tournament)
        game = {name: value for name, value in game.items() if value is not None}
        rules = {name: value for name, value in rules.items() if value is not None}
        text = _("{name}'s settings:", name=display(found.name))
        if game or rules or checkin:
            found = await self.services.tournaments.change(
                found.id,
                replace(GameRequest.of(found.setup), **game),
                replace(RulesRequest.of(found), **rules),
                checkin=checkin,
                **await organizer_check(self.services, interaction),
            )
            if checkin is not None:
                self.bot.wake_scheduler()  # the check-in may open before its next look
            late = await self.tournaments.announce(found)
            text = _("{name}'s settings are changed:", name=display(found.name)) + late
        await interaction.followup.send(
            text, embed=await self.tournaments.info_embed(found), ephemeral=True
        )

    async def start(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Close sign-up and begin round 1"""
        await self.decide(
            interaction,
            tournament,
            self.services.tournaments.start,
            lambda found, late: (
                _(
                    "{name} has started: the pairings are in {channel}.",
                    name=display(found.name),
                    channel=f"<#{found.channel_id}>",
                )
                + late
            ),
        )

    @app_commands.describe(
        player="The player who wins their undecided match of this round",
    )
    async def forfeit(
        self,
        interaction: discord.Interaction,
        player: discord.User,  # a player who has left the server is still named
        tournament: Tournament | None = None,
    ) -> None:
        """Award a player their current match"""
        await self.decide(
            interaction,
            tournament,
            partial(self.services.tournaments.forfeit, winner_id=player.id),
            lambda found, late: (
                _(
                    "{player} is awarded their round {round} match.",
                    player=display(player.display_name),
                    round=found.current_round,
                )
                + late
            ),
        )

    @app_commands.describe(player="The player to remove")
    async def disqualify(
        self,
        interaction: discord.Interaction,
        player: discord.User,  # a player who has left the server is still named
        tournament: Tournament | None = None,
    ) -> None:
        """Remove a player from a running tournament"""
        await self.decide(
            interaction,
            tournament,
            partial(self.services.tournaments.disqualify, player_id=player.id),
            lambda found, late: (
                _(
                    "{player} is disqualified from {name}.",
                    player=display(player.display_name),
                    name=display(found.name),
                )
                + late
            ),
        )

    async def cancel(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Call a tournament off"""
        await self.decide(
            interaction,
            tournament,
            self.services.tournaments.cancel,
            lambda found, late: _("{name} is cancelled.", name=display(found.name)) + late,
        )

    async def checkin_open(
        self, interaction: discord.Interaction, tournament: Tournament | None = None
    ) -> None:
        """Open check-in now (no-shows left out at start)"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            await self.services.entry.open_checkin(
                found.id, **await organizer_check(self.services, interaction)
            )
            late = await self.tournaments.announce(found)
            text = _(
                "Check-in for {name} is open; whoever has not checked in when you start it is "
                "left out.",
                name=display(found.name),
            )
            await interaction.followup.send(text + late, ephemeral=True)

    @app_commands.describe(
        player="The player to move",
        seed="The seed to put them at (1 is the top)",
        move="Or move them one place up or down",
    )
    @app_commands.choices(
        move=[
            app_commands.Choice(name="up (a better seed)", value=-1),
            app_commands.Choice(name="down", value=1),
        ]
    )
    async def seed(
        self,
        interaction: discord.Interaction,
        player: discord.User,  # a player who has left the server is still named
        seed: app_commands.Range[int, 1, MAX_PLAYERS] | None = None,
        move: int | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        """Set a player's seed before the start"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            state = await self.services.entry.seed(
                found.id,
                player.id,
                seed=seed,
                places=move,
                **await organizer_check(self.services, interaction),
            )
            embed = discord.Embed(
                title=_("{name}: seeds", name=display(found.name)),
                description=tournament_messages.seed_order_text(state),
            )
            await interaction.followup.send(
                _("The seeds are now set by hand; players who join later go to the end."),
                embed=embed,
                ephemeral=True,
            )

    @app_commands.describe(
        until_round="The last round a late entrant can start in (0: no more late entries)",
    )
    async def late(
        self,
        interaction: discord.Interaction,
        until_round: app_commands.Range[int, 0, MAX_SWISS_ROUNDS],
        tournament: Tournament | None = None,
    ) -> None:
        """Let players join a running Swiss until a round"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            await self.services.entry.allow_late_entry(
                found.id, until_round, **await organizer_check(self.services, interaction)
            )
            text = (
                _(
                    "{name} takes late entries (`/tournament join`) until round {round}; a late "
                    "entrant starts with 0 points.",
                    name=display(found.name),
                    round=until_round,
                )
                if until_round
                else _("{name} takes no more late entries.", name=display(found.name))
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(
        old="The player who leaves (withdrawn, disqualified or gone)",
        new="The player who takes their place, seed and pending matches",
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        old: discord.User,
        new: discord.Member,
        tournament: Tournament | None = None,
    ) -> None:
        """Give a player's place to someone else"""
        async with acting(interaction):
            if new.bot:
                raise Refusal(_("A bot cannot take a place in a tournament."))
            found = await find_tournament(interaction, tournament)
            games = await self.services.entry.replace(
                found.id,
                old.id,
                player_of(new),
                **await organizer_check(self.services, interaction),
            )
            late = await self.tournaments.announce(found)
            text = _(
                "{new} takes {old}'s place in {name}.",
                new=display(new.display_name),
                old=display(old.display_name),
                name=display(found.name),
            )
            taken = "".join(" " + _("They take over game #{game}.", game=game) for game in games)
            await interaction.followup.send(text + taken + late, ephemeral=True)

    @app_commands.describe(
        player="The player who sits the round out",
        round="The round (before it is paired)",
        withdraw="Take back the bye asked for that round",
    )
    async def bye(
        self,
        interaction: discord.Interaction,
        player: discord.User,  # a player who has left the server is still named
        round: app_commands.Range[int, 1, MAX_ROUNDS],
        withdraw: bool = False,
        tournament: Tournament | None = None,
    ) -> None:
        """Let a player sit out a later round (a Swiss bye; a round robin's forfeit)"""
        await self.tournaments.ask_bye(interaction, player, round, tournament, withdraw=withdraw)

    @app_commands.describe(player1="One of the two (e.g. a team-mate)", player2="The other")
    async def forbid(
        self,
        interaction: discord.Interaction,
        player1: discord.User,
        player2: discord.User,
        tournament: Tournament | None = None,
    ) -> None:
        """Keep two players of a Swiss from being paired"""
        await self.keep_apart(interaction, (player1, player2), tournament, allow=False)

    @app_commands.describe(player1="One of the two", player2="The other")
    async def allow(
        self,
        interaction: discord.Interaction,
        player1: discord.User,
        player2: discord.User,
        tournament: Tournament | None = None,
    ) -> None:
        """Let two players kept apart be paired again"""
        await self.keep_apart(interaction, (player1, player2), tournament, allow=True)

    async def keep_apart(
        self,
        interaction: discord.Interaction,
        players: tuple[discord.User, discord.User],
        tournament: str | None,
        *,
        allow: bool,
    ) -> None:
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            first, second = players
            pairs = await self.services.entry.keep_apart(
                found.id,
                (first.id, second.id),
                allow=allow,
                **await organizer_check(self.services, interaction),
            )
            fields = {
                "player1": display(first.display_name),
                "player2": display(second.display_name),
                "name": display(found.name),
                "pairs": tournament_messages.kept_apart_text(pairs) or _("none"),
            }
            text = (
                _(
                    "{player1} and {player2} may meet again in {name}. Kept apart now:\n{pairs}",
                    **fields,
                )
                if allow
                else _(
                    "{player1} and {player2} will not be paired together in {name}. Kept apart "
                    "now:\n{pairs}",
                    **fields,
                )
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.describe(
        game="The game's number, e.g. 12 (see /tournament pairings or the game's thread)",
        result="The right result",
        reason="Why: kept in the tournament's log and announced",
    )
    @app_commands.choices(result=NEW_RESULTS)
    async def correct(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1],
        result: str,
        reason: app_commands.Range[str, 1, MAX_REASON_LENGTH],
        tournament: Tournament | None = None,
    ) -> None:
        """Correct a game's result (kept in the log)"""
        async with acting(interaction):
            found = await find_tournament(interaction, tournament)
            change = await self.services.corrections.correct(
                found.id,
                game,
                result,
                reason,
                actor=player_of(interaction.user),
                is_organizer=await is_organizer(self.services, interaction),
            )
            late = await self.tournaments.announce(found)
            await interaction.followup.send(
                message_text(result_messages.entry_text(change.entry) + late), ephemeral=True
            )
