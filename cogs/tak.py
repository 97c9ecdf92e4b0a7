"""The `/tak` slash commands: thin adapters from Discord to the services.

Each command acknowledges at once (privately), asks a service, and lets :class:`GameTable` post
what the channel should see; refusals come back from the services as :class:`BredonError` and
are shown to the user as they are (:func:`bot.app.refusals`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import BredonBot, refusals
from bot.coins.service import MAX_COINS
from bot.computer.opponent import DEFAULT_LEVEL
from bot.errors import BredonError, UnknownGame
from bot.games.listing import Listing
from bot.games.model import MAX_DAYS_PER_MOVE, MAX_KOMI, MAX_MATCH_GAMES, GameSetup, GameView
from bot.games.service import position_mark, require_active
from bot.guild_settings import MAX_VACATION_DAYS, GuildSettings
from bot.notifications.outbox import game_stream
from bot.text_safety import typed_move
from bot.timekeeping.control import ClockTexts, parse_duration, time_control
from bot.work.attached_files import FileReader, read_game
from cogs import clock_messages, game_messages, notification_messages, player_messages
from cogs.actions import Refusal, announce_to_me, player_of, post_or_withdraw
from cogs.buttons import (
    GIVE_DAY,
    HANDLERS,
    KINDS,
    MOVE_FORMS,
    ActionButton,
    GiveDayButton,
    MoveButton,
    buttons,
)
from cogs.courier import courier_of
from cogs.formatting import display
from cogs.game_list import PageButton, listing_page
from cogs.notifications import zone_choices
from cogs.picture_files import rating_file
from cogs.sharing import PUBLIC_OPTION, answer
from cogs.table import NEEDED_FOR_THREADS, is_me, missing_permissions
from rendering import THEMES
from tak import Position, PTNError, TakError, parse_move
from tak.ptn import Game
from tak.tinue import with_calls
from tak.tps import MAX_TPS_LENGTH

MAX_CHOICES = 25
MAX_RESERVE = 200  # what the engine accepts per player
MAX_NINJA_LINK = 3900  # an embed description holds 4096 characters
# `/tak view`: real PTN files take a few kilobytes (a 300-ply game about 3 KiB); the parser's own
# cap (a million characters) is far above this.
MAX_PTN_FILE_BYTES = 256 * 1024


async def thinking(interaction: discord.Interaction) -> None:
    """Acknowledge within Discord's 3 seconds; the answer follows privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)


@dataclass(frozen=True, slots=True)
class SuggestedMove:
    """A move as suggested by autocompletion: it carries the game, the ply and the mark of the
    position it was suggested for (``c3@12.7.9f3a01c2``, see
    :func:`~bot.games.service.position_mark`), so a stale or re-sent suggestion never lands in
    another position, even one reached again at the same ply after an undo."""

    move: str
    game_id: int
    ply: int
    position: str  # the position's mark

    @classmethod
    def for_game(cls, move: str, game: GameView) -> SuggestedMove:
        return cls(move, game.id, game.ply, position_mark(game.tps))

    @property
    def value(self) -> str:
        return f"{self.move}@{self.game_id}.{self.ply}.{self.position}"

    @classmethod
    def parse(cls, value: str) -> SuggestedMove | None:
        found = _SUGGESTED.fullmatch(value.strip())
        if found is None:
            return None
        return cls(found["move"], int(found["game"]), int(found["ply"]), found["position"])


_SUGGESTED = re.compile(
    r"(?P<move>[^@\s]{1,32})@(?P<game>\d{1,18})\.(?P<ply>\d{1,6})\.(?P<position>[0-9a-f]{8})"
)


async def check_place(interaction: discord.Interaction, use_threads: bool) -> None:
    """Refuse, before anything is stored, to start games where the bot cannot show them."""
    channel = interaction.channel
    guild = interaction.guild
    if guild is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        raise Refusal("Games can only be played in a server's text channel.")
    threads = use_threads and isinstance(channel, discord.TextChannel)
    missing = missing_permissions(channel, guild.me, threads=threads)
    if missing:
        several = len(missing) > 1
        thread_rights = set(missing) & set(NEEDED_FOR_THREADS.values())
        fix = " (or to turn threads off: `/bredon config threads:False`)" if thread_rights else ""
        raise Refusal(
            f"I can't run games in {channel.mention}: I'm missing the "
            f"{', '.join(missing)} permission{'s' if several else ''}. "
            f"Ask a server manager to grant {'them' if several else 'it'}{fix}."
        )


def parse_reminder_times(text: str) -> list[timedelta] | None:
    """`1d 2h` (times before a deadline, spaces or commas between), `off` (none) or `default`."""
    cleaned = text.strip().lower()
    if cleaned == "default":
        return None
    if cleaned in ("off", "none", "never"):
        return []
    return [parse_duration(part, "reminder time") for part in cleaned.replace(",", " ").split()]


async def game_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """The user's games in progress, for any `game` option: "#12 vs bob (your move)"."""
    services = interaction.client.services  # type: ignore[attr-defined]
    user = interaction.user.id
    choices = []
    for game in await services.queries.games_for_player(user, guild_id=interaction.guild_id):
        turn = "your move" if game.player_to_move.id == user else "waiting"
        label = f"#{game.id} vs {game.opponent_of(user).name} ({turn})"
        if current.strip().lstrip("#") in str(game.id) or current.lower() in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=game.id))
    return choices[:MAX_CHOICES]


# Which of the caller's games a command without `game` means: the one awaiting their move (a
# move), or one where they have just moved (an undo request, giving the opponent time).
Turn = Literal["mine", "theirs"]


def turn_fits(game: GameView, user_id: int, turn: Turn) -> bool:
    return (game.player_to_move.id == user_id) == (turn == "mine")


# What the bot says when asked what only a person answers (it answers moves only).
NOT_ASKING_ME = {
    "draw": "I don't agree to draws: play on, or resign with `/tak resign`.",
    "undo": "I don't take moves back: play on, or resign with `/tak resign`.",
    "pause": "I don't pause games: `/tak vacation start` stops your clocks.",
}


def challenge_terms(
    settings: GuildSettings,
    *,
    size: int | None,
    komi: float | None,
    opening: str,
    stones: int | None,
    caps: int | None,
    days: int | None,
    rated: bool | None,
    antiquity: bool | None,
    tps: str | None,
    clock: ClockTexts,
) -> GameSetup:
    """The checked setup of a challenge's games from the options of `/tak challenge`, the
    server's defaults standing in for those left out."""
    setup = settings.game_setup(
        size=size,
        komi=komi,
        opening=opening,
        stones=stones,
        caps=caps,
        days_per_move=days,
        rated=rated,
        antiquity=antiquity,
        start_tps=tps,
    )
    return dataclasses.replace(setup, clock=time_control(setup.days_per_move, clock))


def refuse_asking_me(interaction: discord.Interaction, game: GameView, what: str) -> None:
    """An offer to the bot itself is refused at once: it would stand unanswered (the bot only
    moves) while the asker waited on their own clock."""
    players = (game.white.id, game.black.id)
    if interaction.user.id in players and any(is_me(interaction.client, p) for p in players):
        raise Refusal(NOT_ASKING_ME[what])


class TakCog(commands.Cog):
    tak = app_commands.Group(
        name="tak", description="Play Tak: challenges, moves, games and scores", guild_only=True
    )
    # Server settings: shown to server managers only (Discord hides it from everyone else).
    bredon = app_commands.Group(
        name="bredon",
        description="Bredon's settings for this server (server managers)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: BredonBot) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier_of(bot)
        self.table = self.courier.table

    # ----------------------------------------------------------------- finding the game

    async def find_game(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        *,
        acting: bool = False,
        turn: Turn | None = None,
    ) -> GameView:
        """The game meant, by one rule everywhere: the game named (in this server only), else
        the game this thread was made for (whatever its age or status), else among the caller's
        games in this channel (or, with none here, all of theirs) the only one, or the only one
        whose turn fits the command (`turn`: "mine" for a move, "theirs" for what only the player
        who has just moved may ask). Anything else is a question, never a guess. `acting` (a
        move, a resignation, an offer) never picks a game the caller is not playing in."""
        guild_id = interaction.guild_id or 0
        user = interaction.user.id
        if game_id is not None:
            try:
                named = await self.services.games.get(game_id)
            except UnknownGame:
                named = None
            if named is None or named.guild_id != guild_id:
                raise UnknownGame(game_id)  # other servers' games do not exist here
            return named
        queries = self.services.queries
        here = await queries.game_in_thread(interaction.channel_id or 0, guild_id)
        if here is not None and (not acting or user in (here.white.id, here.black.id)):
            return here
        mine = await queries.games_for_player(user, guild_id=guild_id)
        in_channel = [g for g in mine if interaction.channel_id in (g.channel_id, g.thread_id)]
        pool = in_channel or mine
        fitting = [g for g in pool if turn is not None and turn_fits(g, user, turn)]
        for candidates in (pool, fitting):
            if len(candidates) == 1:
                return candidates[0]
        if not mine and not acting:
            for game in await queries.finished_games(guild_id=guild_id, player_id=user, limit=1):
                return game
        if not mine:
            raise Refusal("You have no game in progress here. Start one with `/tak challenge`.")
        listed, u = (fitting or pool)[:10], user
        choices = ", ".join(f"#{g.id} vs {display(g.opponent_of(u).name)}" for g in listed)
        raise Refusal(f"Which game? Name it with the `game` option: {choices}.")

    # ----------------------------------------------------------------- challenges

    @tak.command(name="challenge", description="Challenge someone (or anyone) to a game of Tak")
    @app_commands.describe(
        opponent="Who to play; leave out for an open challenge anyone may accept",
        size="Board size, 3 to 8 (default: the server's, usually 6)",
        komi="Extra points for black in a flat count, in halves, e.g. 2 or 2.5",
        color="Your colour; white moves first",
        opening="swap: each side's first move places an opponent's flat (standard)",
        stones="Stones per player (default: standard for the size)",
        caps="Capstones per player (default: standard for the size)",
        days="Days each player has for a move (default: the server's)",
        games="Games in the match, colours alternating (default 1)",
        rated="Whether the game counts for the ratings (default yes; a game from a TPS: never)",
        stakes="Play for coins, if the server allows it: antes, bids for first, Tak payments",
        ante="Coins each player puts in the pot (default: the server's, usually 10)",
        antiquity="Antiquity tie rule: a tied flat count goes to black, whatever the komi",
        bank="A reserve for moves that take longer than `days`, e.g. 7d (never refilled)",
        increment="Fischer clock: start with `days`, add this a move, e.g. 1d or 12h",
        maximum="With an increment: the most a clock can hold, e.g. 10d",
        tps="Start from this position (TPS, as ptn.ninja or /tak tps gives it); unrated",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | None = None,
        size: app_commands.Range[int, 3, 8] | None = None,
        komi: app_commands.Range[float, -MAX_KOMI, MAX_KOMI] | None = None,
        color: Literal["white", "black", "random"] = "random",
        opening: Literal["swap", "no-swap"] = "swap",
        stones: app_commands.Range[int, 0, MAX_RESERVE] | None = None,
        caps: app_commands.Range[int, 0, MAX_RESERVE] | None = None,
        days: app_commands.Range[int, 1, MAX_DAYS_PER_MOVE] | None = None,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] = 1,
        rated: bool | None = None,
        stakes: bool = False,
        ante: app_commands.Range[int, 1, MAX_COINS] | None = None,
        antiquity: bool | None = None,
        bank: app_commands.Range[str, 1, 20] | None = None,
        increment: app_commands.Range[str, 1, 20] | None = None,
        maximum: app_commands.Range[str, 1, 20] | None = None,
        tps: app_commands.Range[str, 1, MAX_TPS_LENGTH] | None = None,
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            against_me = opponent is not None and opponent == interaction.client.user
            if opponent is not None and opponent.bot and not against_me:
                raise Refusal("Bots cannot play Tak here: challenge a person.")
            if against_me and (stakes or ante is not None):
                raise Refusal("I don't play for coins: challenge me without stakes.")
            if against_me:  # past the fair-use limits the bot would only decline it
                await self.services.opponent.check_room(
                    interaction.guild_id or 0,
                    interaction.user.id,
                    opponent.id,
                    self.bot.settings.fair_use,
                )
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            await check_place(interaction, settings.use_threads)
            setup = challenge_terms(
                settings,
                size=size,
                komi=komi,
                opening=opening,
                stones=stones,
                caps=caps,
                days=days,
                rated=rated,
                antiquity=antiquity,
                tps=tps,
                clock=(bank, increment, maximum),
            )
            if against_me and opponent is not None:
                challenge = await self.services.opponent.challenge(
                    guild_id=interaction.guild_id or 0,
                    channel_id=interaction.channel_id or 0,
                    player=player_of(interaction.user),
                    bot=player_of(opponent),
                    level=DEFAULT_LEVEL,
                    setup=setup,
                    colour=color,
                    games=games,
                    fair_use=self.bot.settings.fair_use,
                )
            else:
                challenge = await self.services.challenges.create(
                    guild_id=interaction.guild_id or 0,
                    channel_id=interaction.channel_id or 0,
                    challenger=player_of(interaction.user),
                    opponent=None if opponent is None else player_of(opponent),
                    setup=setup,
                    colour=color,
                    games=games,
                    stakes=stakes,
                    ante=ante,
                )
            assert interaction.channel is not None
            message = await post_or_withdraw(self.table, interaction.channel, challenge)
            announce_to_me(self.bot, challenge)
            await interaction.followup.send(
                f"Challenge #{challenge.id} is up: {message.jump_url}", ephemeral=True
            )

    # ----------------------------------------------------------------- playing

    @tak.command(name="move", description="Play a move in PTN (start typing for the legal moves)")
    @app_commands.describe(
        ptn="The move, e.g. a1, Sb2 (wall), Cc3 (capstone), c3> or 3c3+12",
        game="The game number (default: this thread's game, your only one, or one awaiting you)",
    )
    @app_commands.autocomplete(game=game_choices)
    async def move(
        self, interaction: discord.Interaction, ptn: str, game: int | None = None
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            chosen = SuggestedMove.parse(ptn)
            target = await self.find_game(
                interaction, chosen.game_id if chosen else game, acting=True, turn="mine"
            )
            text = chosen.move if chosen else typed_move(ptn)
            outcome = await self.services.games.move(
                target.id,
                interaction.user.id,
                text,
                expected_ply=chosen.ply if chosen else None,
                expected_mark=chosen.position if chosen else None,
            )
            report = await self.courier.deliver_stream(game_stream(target.id))
            reply = report.reply(
                f"You played **{outcome.move}** in game #{target.id}",
                f"Your move {outcome.move} in game #{target.id} was recorded",
            )
            await interaction.followup.send(reply, ephemeral=True)

    @move.autocomplete("ptn")
    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The legal moves of the caller's game that start with what was typed; each carries
        the game and the ply it was suggested for, so that it only ever applies there."""
        try:
            target = await self.find_game(
                interaction, interaction.namespace.game, acting=True, turn="mine"
            )
            legal = await self.services.games.legal_moves(target.id)
        except BredonError:
            return []
        typed = typed_move(current).lower()
        found = [text for text in legal if text.lower().startswith(typed)]
        return [
            app_commands.Choice(name=text, value=SuggestedMove.for_game(text, target).value)
            for text in found[:MAX_CHOICES]
        ]

    @tak.command(name="resign", description="Resign a game (you will be asked to confirm)")
    @app_commands.describe(game="The game number (default: this thread's game or your only one)")
    @app_commands.autocomplete(game=game_choices)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game, acting=True)
            require_active(target)
            opponent = target.opponent_of(interaction.user.id)
            await interaction.followup.send(
                f"Resign game #{target.id} against {display(opponent.name)}? "
                "This cannot be undone.",
                view=buttons(("resign", target.id)),
                ephemeral=True,
            )

    @tak.command(name="draw", description="Offer your opponent a draw")
    @app_commands.describe(game="The game number (default: this thread's game or your only one)")
    @app_commands.autocomplete(game=game_choices)
    async def draw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._ask(interaction, game, "draw")

    @tak.command(name="undo", description="Ask your opponent to take back the last move")
    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)"
    )
    @app_commands.autocomplete(game=game_choices)
    async def undo(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._ask(interaction, game, "undo")

    async def _ask(
        self, interaction: discord.Interaction, game_id: int | None, what: Literal["draw", "undo"]
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            turn: Turn | None = "theirs" if what == "undo" else None
            target = await self.find_game(interaction, game_id, acting=True, turn=turn)
            refuse_asking_me(interaction, target, what)
            ask = {"draw": self.services.games.offer_draw, "undo": self.services.games.request_undo}
            await ask[what](target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            text = report.reply("Asked your opponent", f"Your {what} request was recorded")
            await interaction.followup.send(text, ephemeral=True)

    @tak.command(name="abort", description="Call off a game before both players have moved")
    @app_commands.describe(game="The game number (default: this thread's game or your only one)")
    @app_commands.autocomplete(game=game_choices)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game, acting=True)
            await self.services.games.abort(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = f"Game #{target.id} is aborted"
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    # ----------------------------------------------------------------- looking

    @tak.command(name="board", description="Show a game's board")
    @app_commands.describe(
        game="The game number (default: this thread's game or your only one)",
        public=PUBLIC_OPTION,
    )
    @app_commands.autocomplete(game=game_choices)
    async def board(
        self, interaction: discord.Interaction, game: int | None = None, public: bool = False
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game)
            position = await self.services.games.position(target.id)
            file = await self.table.board_file(target, position, viewer_id=interaction.user.id)
            state = game_messages.game_line(target, None if public else interaction.user.id)
            await answer(interaction, public, state, files=[file])

    @tak.command(name="tps", description="A game's position as TPS text")
    @app_commands.describe(
        game="The game number (default: this thread's game or your only one)",
        public=PUBLIC_OPTION,
    )
    @app_commands.autocomplete(game=game_choices)
    async def tps(
        self, interaction: discord.Interaction, game: int | None = None, public: bool = False
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game)
            text = f"Game #{target.id}, ply {target.ply}:\n```\n{target.tps}\n```"
            await answer(interaction, public, text)

    @tak.command(name="ptn", description="A game's record as a PTN file, with a ptn.ninja link")
    @app_commands.describe(
        game="The game number (default: this thread's game or your only one)",
        public=PUBLIC_OPTION,
    )
    @app_commands.autocomplete(game=game_choices)
    async def ptn(
        self, interaction: discord.Interaction, game: int | None = None, public: bool = False
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game)
            record = await self.services.queries.record(target.id)
            record = await asyncio.to_thread(with_calls, record)
            text = record.ptn()
            url = record.ninja_url()
            link = (
                f"[Open game #{target.id} in ptn.ninja]({url})"
                if len(url) <= MAX_NINJA_LINK
                else "The game is too long for a link: open the file in ptn.ninja."
            )
            await answer(
                interaction,
                public,
                embed=discord.Embed(title=f"Game #{target.id}", description=link),
                files=[discord.File(io.BytesIO(text.encode()), filename=f"bredon-{target.id}.ptn")],
            )

    @tak.command(name="replay", description="A game replayed as an animated image")
    @app_commands.describe(
        game="The game number (default: this thread's game or your only one)",
        public=PUBLIC_OPTION,
    )
    @app_commands.autocomplete(game=game_choices)
    async def replay(
        self, interaction: discord.Interaction, game: int | None = None, public: bool = False
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game)
            record = await self.services.queries.record(target.id)
            file, note = await self.table.replay_file(target.id, record, interaction.user.id)
            text = f"Game #{target.id}, {len(record.plies)} plies. {note}".rstrip()
            await answer(interaction, public, text, files=[file])

    @tak.command(name="view", description="Show an attached PTN file: its final board and replay")
    @app_commands.describe(
        file="A game record in PTN (.ptn, from ptn.ninja, PlayTak or /tak ptn)",
        replay="Add the game replayed as an animated image (default no)",
    )
    async def view(
        self, interaction: discord.Interaction, file: discord.Attachment, replay: bool = False
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            record, final = await read_attached_game(file, self.table.files, interaction.user.id)
            text = game_messages.viewed_game_text(record, file.filename)
            players = (record.tag("Player1") or "Player 1", record.tag("Player2") or "Player 2")
            files = [
                await self.table.position_file(
                    final,
                    players,
                    viewer_id=interaction.user.id,
                    name="bredon-view.png",
                    result=record.result,
                )
            ]
            if replay and not record.plies:
                text += "\nThe file has no moves to replay."
            elif replay:
                gif, note = await self.table.replay_file("view", record, interaction.user.id)
                files.append(gif)
                text += f"\n{note}".rstrip()
            await interaction.followup.send(text, files=files, ephemeral=True)

    @tak.command(name="games", description="Your games (or someone's) with links, a page at a time")
    @app_commands.describe(
        user="Whose games (default: yours)",
        show="Games in progress or over",
        public=PUBLIC_OPTION,
    )
    async def games(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        show: Literal["active", "finished"] = "active",
        public: bool = False,
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            caller, whose = interaction.user.id, (user or interaction.user).id
            embed, view = await listing_page(
                interaction,
                caller=caller,
                whose=whose,
                listing=Listing(show),
                as_of=self.services.clock.now(),
                number=0,
                viewer_id=None if public else caller,
            )
            await answer(interaction, public, embed=embed, view=view)

    @tak.command(name="scores", description="All-time points in this server, and the match score")
    @app_commands.describe(user="Whose scores (default: yours)", public=PUBLIC_OPTION)
    async def scores(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        public: bool = False,
    ) -> None:
        await thinking(interaction)
        whose = user or interaction.user
        me = self.bot.user
        totals = await self.services.matches.guild_totals(
            interaction.guild_id or 0, bot_id=None if me is None else me.id
        )
        mine = next((t for t in totals if t.player.id == whose.id), None)
        name = display(player_of(whose).name)
        lines = [
            "Games against me count in their own game and match only: I keep no score."
            if is_me(self.bot, whose.id)
            else player_messages.totals_text(mine, name)
        ]
        ratings = await self.services.ratings.player(interaction.guild_id or 0, whose.id)
        lines.append(player_messages.ratings_text(ratings, name))
        guild_id = interaction.guild_id or 0
        here = await self.services.queries.game_in_thread(interaction.channel_id or 0, guild_id)
        if here is not None and here.match_id is not None:  # this thread's match, even if over
            lines.append(game_messages.match_text(await self.services.matches.get(here.match_id)))
        theme = await self.table.theme_for(interaction.user.id)
        charts = [
            await rating_file(
                self.services, self.table.draw, guild_id, r.player, r.size, theme=theme
            )
            for r in ratings
        ]
        files = [chart for chart in charts if chart is not None]
        await answer(interaction, public, "\n".join(lines), files=files)

    @tak.command(name="leaderboard", description="The server's best rated players on a board size")
    @app_commands.describe(
        size="Board size, 3 to 8 (default: the server's); provisional left out",
        public=PUBLIC_OPTION,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        size: app_commands.Range[int, 3, 8] | None = None,
        public: bool = False,
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            guild_id = interaction.guild_id or 0
            chosen = size or (await self.services.guilds.get(guild_id)).size
            board = await self.services.ratings.leaderboard(guild_id, chosen)
            await answer(
                interaction, public, embed=player_messages.leaderboard_embed(chosen, board)
            )

    @tak.command(name="help", description="How to play, read the board and write moves")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=game_messages.HELP, ephemeral=True)

    # ----------------------------------------------------------------- settings

    @tak.command(name="settings", description="Your board theme and how you are notified")
    @app_commands.describe(
        theme="The look of your board images",
        notify="In this server: a mention at each move, a DM too, or a daily digest by DM",
        digest_hour="The hour of your daily digest, 0 to 23, in your time zone (default 8)",
        time_zone="Your time zone for the digest, e.g. Europe/London (suggested as you type)",
    )
    @app_commands.choices(theme=[app_commands.Choice(name=n, value=n) for n in THEMES])
    async def settings(
        self,
        interaction: discord.Interaction,
        theme: str | None = None,
        notify: Literal["mention", "dm", "digest"] | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
        time_zone: str | None = None,
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            players = self.services.players
            profile = await players.register(player_of(interaction.user))
            notifications = self.services.notifications
            guild_id = interaction.guild_id or 0
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
            await interaction.followup.send(
                f"{player_messages.settings_text(profile)}\n{notification_messages.prefs_text(prefs)}",
                ephemeral=True,
            )

    @settings.autocomplete("time_zone")
    async def _time_zones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await zone_choices(current)

    @bredon.command(name="config", description="Server defaults: new games, threads, typed moves")
    @app_commands.describe(
        size="Default board size, 3 to 8",
        komi="Default komi, in halves",
        days="Default days per move",
        threads="Give each game its own thread",
        organizer="A role that may run tournaments besides the server managers",
        typed_moves="Play moves typed as plain messages in a game's thread (if the bot reads them)",
        antiquity="New challenges use the antiquity tie rule: a tied flat count goes to black",
        vacation_days="Vacation days each player may take a year (0 turns vacations off)",
    )
    async def config(
        self,
        interaction: discord.Interaction,
        size: app_commands.Range[int, 3, 8] | None = None,
        komi: app_commands.Range[float, -MAX_KOMI, MAX_KOMI] | None = None,
        days: app_commands.Range[int, 1, MAX_DAYS_PER_MOVE] | None = None,
        threads: bool | None = None,
        organizer: discord.Role | None = None,
        typed_moves: bool | None = None,
        antiquity: bool | None = None,
        vacation_days: app_commands.Range[int, 0, MAX_VACATION_DAYS] | None = None,
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            if not interaction.permissions.manage_guild:
                raise Refusal("Only members with the Manage Server permission can change this.")
            guild_id = interaction.guild_id or 0
            current = await self.services.guilds.get(guild_id)
            changes = {
                "size": size,
                "komi": komi,
                "days_per_move": days,
                "use_threads": threads,
                "organizer_role_id": organizer.id if organizer else None,
                "typed_moves": typed_moves,
                "antiquity": antiquity,
                "vacation_days": vacation_days,
            }
            changed = {name: value for name, value in changes.items() if value is not None}
            if changed:
                current = await self.services.guilds.save(dataclasses.replace(current, **changed))
            reading = self.bot.settings.typed_moves
            text = game_messages.guild_settings_text(current, reads_typed_moves=reading)
            await interaction.followup.send(text, ephemeral=True)

    # ----------------------------------------------------------------- clocks

    vacation = app_commands.Group(
        name="vacation", description="Stop the clocks of all your games here", parent=tak
    )

    @vacation.command(name="start", description="Go on vacation: your games' clocks stand still")
    @app_commands.describe(days="How many days (default: all you have left this year)")
    async def vacation_start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 365] | None = None
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            guild_id = interaction.guild_id or 0
            report = await self.services.clocks.start_vacation(
                guild_id, player_of(interaction.user), days
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    @vacation.command(name="end", description="Come back early: your games' clocks run again")
    async def vacation_end(self, interaction: discord.Interaction) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            report = await self.services.clocks.end_vacation(
                interaction.guild_id or 0, interaction.user.id
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    @vacation.command(name="status", description="Your vacation days left this year")
    async def vacation_status(self, interaction: discord.Interaction) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            status = await self.services.clocks.vacation_status(
                interaction.guild_id or 0, interaction.user.id
            )
            await interaction.followup.send(
                clock_messages.vacation_status_text(status), ephemeral=True
            )

    async def _deliver_games(self, games: list[GameView]) -> None:
        self.bot.wake_scheduler()  # clocks stopped or run again: deadlines moved
        for game in games:
            await self.courier.deliver_stream(game_stream(game.id))

    @tak.command(name="moretime", description="Give your opponent more time for their move")
    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)",
        time="How much, e.g. 1d, 12h or 2d6h (1 hour to 7 days; default 1d)",
    )
    @app_commands.autocomplete(game=game_choices)
    async def moretime(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        time: app_commands.Range[str, 1, 20] = "1d",
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            extra = parse_duration(time, "time")
            target = await self.find_game(interaction, game, acting=True, turn="theirs")
            given = await self.services.clocks.give_time(target.id, interaction.user.id, extra)
            report = await self.courier.deliver_stream(game_stream(given.id))
            done = clock_messages.gave_time_text(given, extra)
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    @tak.command(name="pause", description="Propose to pause a game; your opponent must agree")
    @app_commands.describe(game="The game number (default: this thread's game or your only one)")
    @app_commands.autocomplete(game=game_choices)
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game, acting=True)
            refuse_asking_me(interaction, target, "pause")
            await self.services.clocks.propose_pause(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            text = report.reply("Asked your opponent", "Your proposal was recorded")
            await interaction.followup.send(text, ephemeral=True)

    @tak.command(name="resume", description="End a game's pause: its clock runs again")
    @app_commands.describe(game="The game number (default: this thread's game or your only one)")
    @app_commands.autocomplete(game=game_choices)
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            target = await self.find_game(interaction, game, acting=True)
            await self.services.clocks.end_pause(target.id, interaction.user.id)
            self.bot.wake_scheduler()  # the deadline may now be within the hour
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = f"Game #{target.id} is no longer paused"
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    @tak.command(name="reminders", description="When to remind you before a deadline")
    @app_commands.describe(
        times="e.g. `1d 2h` (up to 5 times before each deadline), `off`, or `default` (at 80%)"
    )
    async def reminders(
        self, interaction: discord.Interaction, times: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        await thinking(interaction)
        async with refusals(interaction):
            guild_id = interaction.guild_id or 0
            clocks = self.services.clocks
            if times is None:
                chosen = await clocks.reminders(guild_id, interaction.user.id)
            else:
                chosen = await clocks.set_reminders(
                    guild_id, player_of(interaction.user), parse_reminder_times(times)
                )
                self.bot.wake_scheduler()  # a reminder may now be due within the hour
            await interaction.followup.send(clock_messages.reminders_text(chosen), ephemeral=True)

    # ----------------------------------------------------------------- typed moves

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A move typed in a game's thread, where the bot reads messages (BREDON_TYPED_MOVES)
        and the server allows it: played if it is a legal move by the player to move, for the
        position they see; anything else is left alone, as the players' own chat."""
        if not self.bot.settings.typed_moves or message.author.bot or message.guild is None:
            return
        text = typed_move(message.content)
        try:
            parse_move(text)
        except PTNError:
            return  # not a move: chat
        game = await self.services.queries.game_in_thread(message.channel.id, message.guild.id)
        if game is None or not game.is_active or game.player_to_move.id != message.author.id:
            return
        if not (await self.services.guilds.get(message.guild.id)).typed_moves:
            return
        try:
            await self.services.games.move(game.id, message.author.id, text, expected_ply=game.ply)
        except BredonError:
            return  # not a legal move here: just chat
        await self.courier.deliver_stream(game_stream(game.id))


def command_group(bot: BredonBot, name: str) -> app_commands.Group:
    """A slash group of this extension (/tak, /bredon), for the extensions that add to it."""
    group = bot.tree.get_command(name)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"/{name} belongs to cogs.tak, which must be loaded first")
    return group


async def setup(bot: BredonBot) -> None:
    missing = sorted(set(KINDS) - set(HANDLERS))
    missing += [
        name for name, handler in (("move", MOVE_FORMS), ("give-day", GIVE_DAY)) if not handler
    ]
    if missing:
        raise RuntimeError(f"Buttons without a handler: {missing}")
    bot.add_dynamic_items(ActionButton, MoveButton, GiveDayButton, PageButton)
    await bot.add_cog(TakCog(bot))


async def read_attached_game(
    file: discord.Attachment, reader: FileReader, player_id: int
) -> tuple[Game, Position]:
    """The game in an attached PTN file and its final position, or a :class:`Refusal` saying
    why it cannot be read. The size is checked before the file is fetched; the file is read in
    `reader`'s worker process (in turn with `player_id`'s other files), never on the event
    loop."""
    if file.size > MAX_PTN_FILE_BYTES:
        raise Refusal(
            f"That file is {file.size:,} bytes; a PTN file is at most "
            f"{MAX_PTN_FILE_BYTES // 1024} KiB here (a whole game takes a few kilobytes)."
        )
    try:
        data = await file.read()
    except discord.HTTPException as error:
        raise Refusal(
            f"I couldn't fetch the file (Discord said: {error.text or error.status}). "
            "Please try again."
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal(
            "That file is not text in UTF-8, so it is not a PTN file: attach a .ptn game record."
        ) from None
    try:
        return await reader.run(read_game, text, player_id=player_id)
    except TakError as error:
        raise Refusal(f"That file is not a game I can read: {error}") from None
