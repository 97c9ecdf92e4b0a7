"""The arguments and options many commands share, declared once.

The `game` and `tournament` arguments are discord.py transformers: Discord sends a number or a
name, the command receives the game or tournament of this server it names, or the refusal it
gives once it has acknowledged (:func:`find_game`, :func:`find_tournament`: another server's game
does not exist here); what the user types is completed from their games or the server's
tournaments. The option descriptions every command shares are in
:data:`SHARED_OPTIONS`; :mod:`cogs.commands.tree` gives them to every command that has the option.
Each autocomplete here is timed for ``/metrics`` (:meth:`cogs.client.BredonTree.finished`).
"""

from __future__ import annotations

import abc
from typing import Literal

import discord
from discord import app_commands

from bot.errors import UnknownGame
from bot.games.model import MAX_DAYS_PER_MOVE, NO_SERVER, GameView
from bot.languages import _, speaking
from bot.notifications.digest import suggest_zones
from bot.services import Services
from bot.text_safety import one_line
from bot.tournaments.tournament import TournamentStatus, TournamentView
from cogs.client import BredonBot
from cogs.delivery.conversations import guild_of
from cogs.delivery.sharing import PUBLIC_OPTION
from cogs.interactions import Refusal, person_language, services_of
from cogs.words.formatting import display
from tak import MAX_KOMI

MAX_CHOICES = 25

SHARED_OPTIONS = {
    "game": "The game number (default: this thread's game or your only one)",
    "public": PUBLIC_OPTION,
    "tournament": "The tournament (default: the only one running or signing up here)",
    "size": "Board size, 3 to 8 (default: the server's, usually 6)",
    "komi": "Extra points for black in a flat count, in halves, e.g. 2 or 2.5",
    "color": "Your colour; white moves first",
}

# The types of options many commands share.
BoardSize = app_commands.Range[int, 3, 8]
Komi = app_commands.Range[float, -MAX_KOMI, MAX_KOMI]
Colour = Literal["white", "black", "random"]
Days = app_commands.Range[int, 1, MAX_DAYS_PER_MOVE]
Span = app_commands.Range[str, 1, 20]  # a duration as typed, e.g. 1d or 12h


def bredon(interaction: discord.Interaction) -> BredonBot:
    """The bot an interaction reached, typed."""
    client = interaction.client
    if not isinstance(client, BredonBot):
        raise RuntimeError("Bredon's commands run in a BredonBot")
    return client


class Suggesting(app_commands.Transformer, abc.ABC):
    """An argument whose values are suggested as the user types."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: int | float | str
    ) -> list[app_commands.Choice[int]] | list[app_commands.Choice[str]]:
        try:
            with speaking(await person_language(interaction)):  # suggestions in their language
                return (await self.suggest(interaction, str(value)))[:MAX_CHOICES]
        finally:
            bredon(interaction).tree.finished(interaction)

    @abc.abstractmethod
    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[int]] | list[app_commands.Choice[str]]:
        """The suggestions for what was typed (at most 25 are shown)."""


class Text(Suggesting):
    """A text option with suggestions: the command gets the text as typed."""

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return value


# ----------------------------------------------------------------- games


def known_here(interaction: discord.Interaction, game: GameView) -> bool:
    """Whether a game of the interaction's server (or of none) may be seen where it comes from:
    a game outside Bredon's servers (a DM's, a group DM's) only in its own conversation, or by
    its players in their DMs with Bredon, which nobody else reads."""
    if game.guild_id != NO_SERVER or interaction.channel_id == game.channel_id:
        return True
    players = (game.white.id, game.black.id)
    return bool(interaction.context.dm_channel) and interaction.user.id in players


async def named_game(
    interaction: discord.Interaction, services: Services, game_id: int, guild_id: int
) -> GameView:
    """The game of that number in this server; other servers' games do not exist here, nor
    a game outside servers away from its conversation (:func:`known_here`)."""
    try:
        named = await services.games.get(game_id)
    except UnknownGame:
        named = None
    if named is None or not known_here(interaction, named):
        raise UnknownGame(game_id)
    if named.guild_id != guild_id and named.channel_id != interaction.channel_id:
        raise UnknownGame(game_id)  # a game begun here before the server installed Bredon
    return named


class GameArgument(Suggesting):
    """A game by its number, suggested from the user's games in progress ("#12 vs bob (your
    move)"). The command gets the number: the game is looked up by :func:`find_game`, after the
    command has acknowledged (a converter runs before, and a read may wait on a write)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    async def transform(self, interaction: discord.Interaction, value: int) -> int:
        return int(value)

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[int]]:
        user = interaction.user.id
        games = await services_of(interaction).lookup.games_for_player(
            user, guild_id=guild_of(interaction)
        )
        games = [game for game in games if known_here(interaction, game)]
        choices = []
        for game in games:
            opponent = game.opponent_of(user).name
            label = (
                _("#{game} vs {opponent} (your move)", game=game.id, opponent=opponent)
                if game.player_to_move.id == user
                else _("#{game} vs {opponent} (waiting)", game=game.id, opponent=opponent)
            )
            if typed.strip().lstrip("#") in str(game.id) or typed.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=game.id))
        return choices


Game = app_commands.Transform[int, GameArgument]

# Which of the caller's games a command without `game` means: the one awaiting their move (a
# move), or one where they have just moved (an undo request, giving the opponent time).
Turn = Literal["mine", "theirs"]


def turn_fits(game: GameView, user_id: int, turn: Turn) -> bool:
    return (game.player_to_move.id == user_id) == (turn == "mine")


async def find_game(
    interaction: discord.Interaction,
    game: int | None,
    *,
    as_player: bool = False,
    turn: Turn | None = None,
) -> GameView:
    """The game meant, by one rule everywhere: the game named (in this server only), else
    the game this thread was made for (whatever its age or status), else among the caller's
    games in this channel (or, with none here, all of theirs) the only one, or the only one
    whose turn fits the command (`turn`: "mine" for a move, "theirs" for what only the player
    who has just moved may ask). Anything else is a question, never a guess. `as_player` (a
    move, a resignation, an offer) never picks a game the caller is not playing in; without
    it (a command that only reads), a match's thread means the game just finished until the
    next one has a move."""
    services = services_of(interaction)
    guild_id = guild_of(interaction)
    user = interaction.user.id
    if game is not None:
        return await named_game(interaction, services, game, guild_id)
    queries = services.lookup
    here = await queries.game_in_thread(interaction.channel_id or 0, guild_id)
    if here is not None and not as_player:
        return await _just_finished(services, here)
    if here is not None and user in (here.white.id, here.black.id):
        return here
    mine = await queries.games_for_player(user, guild_id=guild_id)
    if guild_id != NO_SERVER:  # and those begun here before the server installed Bredon
        begun = await queries.games_for_player(user, guild_id=NO_SERVER)
        mine += [g for g in begun if g.channel_id == interaction.channel_id]
    mine = [g for g in mine if known_here(interaction, g)]
    in_channel = [g for g in mine if interaction.channel_id in (g.channel_id, g.thread_id)]
    pool = in_channel or mine
    fitting = [g for g in pool if turn is not None and turn_fits(g, user, turn)]
    for candidates in (pool, fitting):
        if len(candidates) == 1:
            return candidates[0]
    if not mine and not as_player:
        finished = await queries.finished_games(guild_id=guild_id, player_id=user)
        for last in (g for g in finished if known_here(interaction, g)):
            return last
    if not mine:
        raise Refusal(_("You have no game in progress here. Start one with `/tak challenge`."))
    listed, u = (fitting or pool)[:10], user
    choices = ", ".join(
        _("#{game} vs {opponent}", game=g.id, opponent=display(g.opponent_of(u).name))
        for g in listed
    )
    raise Refusal(_("Which game? Name it with the `game` option: {choices}.", choices=choices))


async def _just_finished(services: Services, here: GameView) -> GameView:
    """In a match's thread, a command that only reads a game means the game just finished
    until the next one has a move: right after a game ends its players look back at it."""
    if here.match_id is None or not here.is_active or here.plies_played > 0:
        return here
    earlier = [g for g in await services.matches.games(here.match_id) if g.id < here.id]
    return earlier[-1] if earlier and earlier[-1].thread_id == here.thread_id else here


# ----------------------------------------------------------------- tournaments

_LIVE = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


class TournamentArgument(Text):
    """A tournament by its name, suggested from the server's tournaments signing up or running.
    The command gets the name as typed: :func:`find_tournament` looks it up once the command
    has acknowledged."""

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        wanted = typed.strip().casefold()
        found = await services_of(interaction).tournaments.in_guild(guild_of(interaction))
        with speaking(await person_language(interaction)):  # each stage in their words
            return [
                app_commands.Choice(name=f"{t.name} ({t.status.word()})"[:100], value=t.name)
                for t in found
                if wanted in t.name.casefold()
            ]


Tournament = app_commands.Transform[str, TournamentArgument]


async def find_tournament(interaction: discord.Interaction, named: str | None) -> TournamentView:
    """The tournament of that name (the newest, live ones first), else the server's only live
    one; otherwise the user must say which."""
    services = services_of(interaction)
    if named is not None:
        wanted = " ".join(named.split()).casefold()
        every = await services.tournaments.in_guild(guild_of(interaction), live_only=False)
        found = [t for t in every if t.name.casefold() == wanted]
        live_first = sorted(found, key=lambda t: t.status not in _LIVE)  # stable: newest first
        if not live_first:
            raise Refusal(
                _("There is no tournament called '{name}' in this server.", name=one_line(named))
            )
        return live_first[0]
    live = await services.tournaments.in_guild(guild_of(interaction))
    if len(live) == 1:
        return live[0]
    if not live:
        raise Refusal(_("No tournament is signing up or running in this server."))
    names = ", ".join(display(t.name) for t in live[:10])
    raise Refusal(
        _("Which tournament? Name it with the `tournament` option ({names}).", names=names)
    )


# ----------------------------------------------------------------- time zones


class ZoneArgument(Text):
    """A time zone, suggested as it is typed (it only suggests: the service checks the name)."""

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(typed)]


TimeZone = app_commands.Transform[str, ZoneArgument]
