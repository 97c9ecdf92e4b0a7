"""The commands for playing, looking at games, clocks and settings: thin adapters from Discord
to the services (their names and groups are declared in :mod:`cogs.commands`).

Each command acknowledges at once (privately), asks a service, and lets :class:`GameTable` post
what the channel should see; refusals come back from the services as :class:`BredonError` and
are shown to the user as they are (:func:`bot.app.acting`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import BredonBot, acting
from bot.coins.service import MAX_COINS
from bot.computer.opponent import DEFAULT_LEVEL
from bot.errors import BredonError, UnknownGame
from bot.games.lookup import Listing
from bot.games.model import MAX_MATCH_GAMES, GameView
from bot.games.service import position_mark, require_active
from bot.guild_settings import MAX_VACATION_DAYS
from bot.notifications.outbox import game_stream
from bot.text_safety import typed_move
from bot.timekeeping.control import clock_options, parse_duration
from bot.work.attached_files import FileReader, read_game
from cogs import clock_messages, game_messages, notification_messages, player_messages
from cogs.actions import Refusal, announce_to_me, player_of, post_or_withdraw
from cogs.arguments import (
    BoardSize,
    Colour,
    Days,
    Game,
    Komi,
    Span,
    Text,
    TimeZone,
    Turn,
    find_game,
    services_of,
)
from cogs.buttons import buttons
from cogs.courier import Courier
from cogs.formatting import display
from cogs.game_list import listing_page
from cogs.picture_files import rating_file
from cogs.sharing import SHAREABLE, answer
from cogs.table import NEEDED_FOR_THREADS, Place, is_me, missing_permissions
from rendering import THEMES
from tak import Position, PTNError, TakError, parse_move
from tak.ptn import Game as PTNGame
from tak.tinue import with_calls
from tak.tps import MAX_TPS_LENGTH

MAX_RESERVE = 200  # what the engine accepts per player
MAX_NINJA_LINK = 3900  # an embed description holds 4096 characters
# `/game view`: real PTN files take a few kilobytes (a 300-ply game about 3 KiB); the parser's own
# cap (a million characters) is far above this.
MAX_PTN_FILE_BYTES = 256 * 1024


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


class MoveArgument(Text):
    """A move, suggested from the legal moves of the caller's game that start with what was
    typed; each suggestion carries the game and the ply it was made for, so that it only ever
    applies there."""

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        try:
            target = await find_game(
                interaction, interaction.namespace.game, acting=True, turn="mine"
            )
            legal = await services_of(interaction).games.legal_moves(target.id)
        except BredonError:
            return []
        start = typed_move(typed).lower()
        return [
            app_commands.Choice(name=text, value=SuggestedMove.for_game(text, target).value)
            for text in legal
            if text.lower().startswith(start)
        ]


Move = app_commands.Transform[str, MoveArgument]


async def check_place(interaction: discord.Interaction, use_threads: bool) -> Place:
    """The channel of the command, where a game will be shown; refused, before anything is
    stored, where the bot cannot show games."""
    channel = interaction.channel
    guild = interaction.guild
    if guild is None or not isinstance(channel, SHAREABLE):
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
    return channel


def parse_reminder_times(text: str) -> list[timedelta] | None:
    """`1d 2h` (times before a deadline, spaces or commas between), `off` (none) or `default`."""
    cleaned = text.strip().lower()
    if cleaned == "default":
        return None
    if cleaned in ("off", "none", "never"):
        return []
    return [parse_duration(part, "reminder time") for part in cleaned.replace(",", " ").split()]


# What the bot says when asked what only a person answers (it answers moves only).
NOT_ASKING_ME = {
    "draw": "I don't agree to draws: play on, or resign with `/tak resign`.",
    "undo": "I don't take moves back: play on, or resign with `/tak resign`.",
    "pause": "I don't pause games: `/clock vacation start` stops your clocks.",
}


def refuse_asking_me(interaction: discord.Interaction, game: GameView, what: str) -> None:
    """An offer to the bot itself is refused at once: it would stand unanswered (the bot only
    moves) while the asker waited on their own clock."""
    players = (game.white.id, game.black.id)
    if interaction.user.id in players and any(is_me(interaction.client, p) for p in players):
        raise Refusal(NOT_ASKING_ME[what])


class TakCog(commands.Cog):
    """Challenges, moves, boards and records, clocks and settings: the commands' bodies (their
    names and groups are declared in :mod:`cogs.commands`) and the moves typed in threads."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier
        self.table = courier.table

    # ----------------------------------------------------------------- challenges

    @app_commands.describe(
        opponent="Who to play; leave out for an open challenge anyone may accept",
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
        tps="Start from this position (TPS, as ptn.ninja or /game tps gives it); unrated",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | None = None,
        size: BoardSize | None = None,
        komi: Komi | None = None,
        color: Colour = "random",
        opening: Literal["swap", "no-swap"] = "swap",
        stones: app_commands.Range[int, 0, MAX_RESERVE] | None = None,
        caps: app_commands.Range[int, 0, MAX_RESERVE] | None = None,
        days: Days | None = None,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] = 1,
        rated: bool | None = None,
        stakes: bool = False,
        ante: app_commands.Range[int, 1, MAX_COINS] | None = None,
        antiquity: bool | None = None,
        bank: Span | None = None,
        increment: Span | None = None,
        maximum: Span | None = None,
        tps: app_commands.Range[str, 1, MAX_TPS_LENGTH] | None = None,
    ) -> None:
        """Challenge someone (or anyone) to a game of Tak"""
        async with acting(interaction):
            me = interaction.client.user
            against_me = me is not None and opponent == me
            if opponent is not None and opponent.bot and not against_me:
                raise Refusal("Bots cannot play Tak here: challenge a person.")
            if against_me and (stakes or ante is not None):
                raise Refusal("I don't play for coins: challenge me without stakes.")
            settings = await self.services.guilds.get(interaction.guild_id or 0)
            place = await check_place(interaction, settings.use_threads)
            setup = settings.game_setup(
                size=size,
                komi=komi,
                opening=opening,
                stones=stones,
                caps=caps,
                days_per_move=days,
                # The bot's games are never rated (its service says so); a `rated` asked of
                # it is let go, as before, rather than refused with a TPS start.
                rated=False if against_me else rated,
                antiquity=antiquity,
                start_tps=tps,
                **clock_options(bank, increment, maximum),
            )
            if me is not None and against_me:
                challenge = await self.services.opponent.challenge(
                    guild_id=interaction.guild_id or 0,
                    channel_id=interaction.channel_id or 0,
                    player=player_of(interaction.user),
                    bot=player_of(me),
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
            message = await post_or_withdraw(self.table, place, challenge)
            announce_to_me(self.bot, challenge)
            await interaction.followup.send(
                f"Challenge #{challenge.id} is up: {message.jump_url}", ephemeral=True
            )

    # ----------------------------------------------------------------- playing

    @app_commands.describe(
        ptn="The move, e.g. a1, Sb2 (wall), Cc3 (capstone), c3> or 3c3+12",
        game="The game number (default: this thread's game, your only one, or one awaiting you)",
    )
    async def move(
        self, interaction: discord.Interaction, ptn: Move, game: Game | None = None
    ) -> None:
        """Play a move in PTN (start typing for the legal moves)"""
        async with acting(interaction):
            chosen = SuggestedMove.parse(ptn)
            target = await find_game(
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

    async def resign(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Resign a game (you will be asked to confirm)"""
        async with acting(interaction):
            target = await find_game(interaction, game, acting=True)
            require_active(target)
            opponent = target.opponent_of(interaction.user.id)
            await interaction.followup.send(
                f"Resign game #{target.id} against {display(opponent.name)}? "
                "This cannot be undone.",
                view=buttons(("resign", target.id)),
                ephemeral=True,
            )

    async def draw(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Offer your opponent a draw"""
        await self._ask(interaction, game, "draw")

    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)"
    )
    async def undo(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Ask your opponent to take back the last move"""
        await self._ask(interaction, game, "undo")

    async def _ask(
        self,
        interaction: discord.Interaction,
        game_id: GameView | UnknownGame | None,
        what: Literal["draw", "undo"],
    ) -> None:
        async with acting(interaction):
            turn: Turn | None = "theirs" if what == "undo" else None
            target = await find_game(interaction, game_id, acting=True, turn=turn)
            refuse_asking_me(interaction, target, what)
            ask = {"draw": self.services.games.offer_draw, "undo": self.services.games.request_undo}
            await ask[what](target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            text = report.reply("Asked your opponent", f"Your {what} request was recorded")
            await interaction.followup.send(text, ephemeral=True)

    async def abort(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Call off a game before both players have moved"""
        async with acting(interaction):
            target = await find_game(interaction, game, acting=True)
            await self.services.games.abort(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = f"Game #{target.id} is aborted"
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    # ----------------------------------------------------------------- looking

    async def board(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """Show a game's board"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            position = await self.services.games.position(target.id)
            file = await self.table.board_file(target, position, viewer_id=interaction.user.id)
            state = game_messages.game_line(target, None if public else interaction.user.id)
            await answer(interaction, public, state, files=[file])

    async def tps(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game's position as TPS text"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            text = f"Game #{target.id}, ply {target.ply}:\n```\n{target.tps}\n```"
            await answer(interaction, public, text)

    async def ptn(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game's record as a PTN file, with a ptn.ninja link"""
        async with acting(interaction):
            target = await find_game(interaction, game)
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

    async def replay(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game replayed as an animated image"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            record = await self.services.queries.record(target.id)
            file, note = await self.table.replay_file(target.id, record, interaction.user.id)
            text = f"Game #{target.id}, {len(record.plies)} plies. {note}".rstrip()
            await answer(interaction, public, text, files=[file])

    @app_commands.describe(
        file="A game record in PTN (.ptn, from ptn.ninja, PlayTak or /game ptn)",
        replay="Add the game replayed as an animated image (default no)",
    )
    async def view(
        self, interaction: discord.Interaction, file: discord.Attachment, replay: bool = False
    ) -> None:
        """Show an attached PTN file: its final board and replay"""
        async with acting(interaction):
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

    @app_commands.describe(
        user="Whose games (default: yours)",
        show="Games in progress or over",
    )
    async def games(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        show: Literal["active", "finished"] = "active",
        public: bool = False,
    ) -> None:
        """Your games (or someone's) with links, a page at a time"""
        async with acting(interaction):
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
                lines.append(
                    game_messages.match_text(await self.services.matches.get(here.match_id))
                )
            theme = await self.table.theme_for(interaction.user.id)
            charts = [
                await rating_file(
                    self.services, self.table.draw, guild_id, r.player, r.size, theme=theme
                )
                for r in ratings
            ]
            files = [chart for chart in charts if chart is not None]
            await answer(interaction, public, "\n".join(lines), files=files)

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
            guild_id = interaction.guild_id or 0
            chosen = size or (await self.services.guilds.get(guild_id)).size
            board = await self.services.ratings.leaderboard(guild_id, chosen)
            await answer(
                interaction, public, embed=player_messages.leaderboard_embed(chosen, board)
            )

    async def help(self, interaction: discord.Interaction) -> None:
        """How to play, read the board and write moves"""
        await interaction.response.send_message(embed=game_messages.HELP, ephemeral=True)

    # ----------------------------------------------------------------- settings

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
        time_zone: TimeZone | None = None,
    ) -> None:
        """Your board theme and how you are notified"""
        async with acting(interaction):
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
        size: BoardSize | None = None,
        komi: Komi | None = None,
        days: Days | None = None,
        threads: bool | None = None,
        organizer: discord.Role | None = None,
        typed_moves: bool | None = None,
        antiquity: bool | None = None,
        vacation_days: app_commands.Range[int, 0, MAX_VACATION_DAYS] | None = None,
    ) -> None:
        """Server defaults: new games, threads, typed moves"""
        async with acting(interaction):
            if not interaction.permissions.manage_guild:
                raise Refusal("Only members with the Manage Server permission can change this.")
            guild_id = interaction.guild_id or 0
            current = await self.services.guilds.get(guild_id)
            changes: dict[str, Any] = {
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

    @app_commands.describe(days="How many days (default: all you have left this year)")
    async def vacation_start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 365] | None = None
    ) -> None:
        """Go on vacation: your games' clocks stand still"""
        async with acting(interaction):
            guild_id = interaction.guild_id or 0
            report = await self.services.clocks.start_vacation(
                guild_id, player_of(interaction.user), days
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    async def vacation_end(self, interaction: discord.Interaction) -> None:
        """Come back early: your games' clocks run again"""
        async with acting(interaction):
            report = await self.services.clocks.end_vacation(
                interaction.guild_id or 0, interaction.user.id
            )
            await self._deliver_games(report.held)
            await interaction.followup.send(clock_messages.vacation_text(report), ephemeral=True)

    async def vacation_status(self, interaction: discord.Interaction) -> None:
        """Your vacation days left this year"""
        async with acting(interaction):
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

    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)",
        time="How much, e.g. 1d, 12h or 2d6h (1 hour to 7 days; default 1d)",
    )
    async def moretime(
        self,
        interaction: discord.Interaction,
        game: Game | None = None,
        time: Span = "1d",
    ) -> None:
        """Give your opponent more time for their move"""
        async with acting(interaction):
            extra = parse_duration(time, "time")
            target = await find_game(interaction, game, acting=True, turn="theirs")
            given = await self.services.clocks.give_time(target.id, interaction.user.id, extra)
            report = await self.courier.deliver_stream(game_stream(given.id))
            done = clock_messages.gave_time_text(given, extra)
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    async def pause(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Propose to pause a game; your opponent must agree"""
        async with acting(interaction):
            target = await find_game(interaction, game, acting=True)
            refuse_asking_me(interaction, target, "pause")
            await self.services.clocks.propose_pause(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            text = report.reply("Asked your opponent", "Your proposal was recorded")
            await interaction.followup.send(text, ephemeral=True)

    async def resume(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """End a game's pause: its clock runs again"""
        async with acting(interaction):
            target = await find_game(interaction, game, acting=True)
            await self.services.clocks.end_pause(target.id, interaction.user.id)
            self.bot.wake_scheduler()  # the deadline may now be within the hour
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = f"Game #{target.id} is no longer paused"
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    @app_commands.describe(
        times="e.g. `1d 2h` (up to 5 times before each deadline), `off`, or `default` (at 80%)"
    )
    async def reminders(
        self, interaction: discord.Interaction, times: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        """When to remind you before a deadline"""
        async with acting(interaction):
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


async def read_attached_game(
    file: discord.Attachment, reader: FileReader, player_id: int
) -> tuple[PTNGame, Position]:
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
