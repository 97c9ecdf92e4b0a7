"""Where games are shown: the plumbing every presenter shares (:mod:`cogs.presenters`).

Everything the players are told because the database changed comes out of the outbox
(:mod:`bot.notifications.outbox`): :meth:`GameTable.show` hands one announcement to the presenter
registered for its kind (:meth:`GameTable.register`), and :class:`cogs.delivery.courier.Courier`
decides when. The table itself holds what they all need: the places a game is posted in, direct
messages, the board images and the players' themes.

Where a game's post goes: its thread (reopened first if Discord archived it); if Discord says
the thread is gone or closed to the bot (403/404), the game's channel; then the two players by
DM; if none of those can be reached, :class:`Undeliverable`. Other failures (5xx, timeouts)
propagate, to be retried.

Images are rendered in a worker thread (``asyncio.to_thread``) so the event loop stays free, a few
at a time and at most one for any player (:class:`bot.work.fair_slots.FairSlots`). The files players
attach are read in a worker process (:class:`bot.work.attached_files.FileReader`, the table's
`files`).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import aiohttp
import discord

from bot.errors import UnknownPlayer
from bot.games.board_words import board_words, replay_words
from bot.games.model import NO_SERVER, GameView
from bot.languages import _, catalogue, speaking
from bot.notifications.outbox import (
    PAYLOADS,
    BiddingNews,
    ChallengeSettled,
    DailyPuzzlePosted,
    DigestDue,
    Item,
    LeagueNews,
    Outcome,
    Payload,
    SeasonNews,
    TournamentNews,
)
from bot.services import Services
from bot.work.attached_files import FileReader
from bot.work.fair_slots import FairSlots
from cogs.delivery.conversations import Conversations, only_players
from rendering import THEMES, render_board, render_replay_within
from tak import Move, Position, Result
from tak.ptn import Game

log = logging.getLogger(__name__)

Place = discord.abc.Messageable
GONE = (discord.Forbidden, discord.NotFound)  # the place is gone or closed to the bot
# Any failure to reach Discord, for the steps that are only a courtesy (a DM, a lapsed offer).
UNREACHABLE = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)
MAX_RENDERS = 2

# A line another cog adds to a game's posts (e.g. the coins of a staked game), or None.
Note = Callable[[GameView, Payload], Awaitable[str | None]]
# What posts one kind of announcement (its item and payload), and where it ended up.
Show = Callable[[Item, Any], Awaitable["Shown"]]


# What the bot needs where a game or a tournament is played (docs/discord-setup.md).
NEEDED = ("view_channel", "send_messages", "attach_files", "embed_links", "read_message_history")
NEEDED_FOR_THREADS = ("create_public_threads", "send_messages_in_threads")


def permission_name(permission: str) -> str:
    """A permission by its name in Discord's settings, in the language spoken (as Discord
    shows it in that language)."""
    return {
        "view_channel": _("View Channels"),
        "send_messages": _("Send Messages"),
        "attach_files": _("Attach Files"),
        "embed_links": _("Embed Links"),
        "read_message_history": _("Read Message History"),
        "create_public_threads": _("Create Public Threads"),
        "send_messages_in_threads": _("Send Messages in Threads"),
    }[permission]


def missing_permissions(
    channel: discord.abc.GuildChannel | discord.Thread, me: discord.Member, *, threads: bool
) -> list[str]:
    """The permissions the bot lacks in `channel` to show games there (by their names in
    Discord's settings)."""
    granted = channel.permissions_for(me)
    needed = NEEDED + (NEEDED_FOR_THREADS if threads else ())
    return [permission_name(name) for name in needed if not getattr(granted, name)]


def is_me(client: discord.Client, user_id: int | None) -> bool:
    """Whether this is the bot's own user (a player in a game against it)."""
    return client.user is not None and user_id == client.user.id


class Undeliverable(Exception):
    """No place is left to post an announcement: its thread, channel and DMs all refused."""


@dataclass(frozen=True, slots=True)
class Shown:
    """Where an announcement ended up."""

    link: str | None  # the post; None when nothing was left to show (e.g. a deleted challenge)
    outcome: Outcome
    in_guild: bool = True  # False: it went to the players by DM
    # A game outside Bredon's servers with no interaction to answer: the players were told by DM.
    by_dm_only: bool = False


@dataclass(frozen=True, slots=True)
class Post:
    """One message: its text, an image and buttons."""

    text: str
    png: bytes | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    silent: bool = False  # its mentions ping nobody (a digest player's turn notice)
    more: tuple[tuple[str, bytes], ...] = ()  # further files (name, content), after the image
    # Where Bredon is not in the game's conversation: the players told by DM (none: both).
    dm_only: tuple[int, ...] = ()

    def kwargs(self, *, with_view: bool = True) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.silent:
            extra["allowed_mentions"] = discord.AllowedMentions.none()
        if self.png is not None:
            extra["file"] = discord.File(io.BytesIO(self.png), filename=self.filename)
        if self.more:
            more = [discord.File(io.BytesIO(data), filename=name) for name, data in self.more]
            extra["files"] = [extra.pop("file"), *more] if "file" in extra else more
        if with_view and self.view is not None:
            extra["view"] = self.view
        return extra


class GameTable:
    """What every presenter posts through; the presenters themselves register, one for each
    kind of announcement (:func:`cogs.presenters.register_all`, and other cogs theirs)."""

    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        # Images are drawn in worker threads; replays (seconds each) have their own slot, so
        # boards never wait for one.
        self._renders = FairSlots(MAX_RENDERS)
        self._replays = FairSlots(1)
        # Reads the files of /game view and /tournament report (bot.tournaments.corrections).
        self.files = FileReader(preload=("bot.tournaments.corrections",))
        self._shows: dict[type[Any], Show] = {}
        # The conversations Bredon is not in, by their latest interaction (fed by the courier).
        self.conversations = Conversations()
        # Added to every game start, move and ending shown (the ply limit's, the coins').
        self.notes: list[Note] = []

    def register(self, kind: type[Any], show: Show) -> None:
        """Let a presenter show a kind of announcement (:mod:`cogs.presenters`)."""
        self._shows[kind] = show

    def unshown_kinds(self) -> list[str]:
        """The kinds of announcement the outbox can carry that no presenter shows (none once
        every cog is loaded: :func:`cogs.commands.tree.setup` refuses to start otherwise)."""
        return sorted(kind for kind, payload in PAYLOADS.items() if payload not in self._shows)

    async def show(self, item: Item) -> Shown:
        """Post one announcement through the presenter of its kind, in the language of whom it
        is for."""
        payload: Payload = item.payload
        with speaking(await self.audience_language(payload)):
            return await self._shows[type(payload)](item, payload)

    async def audience_language(self, payload: Payload) -> str:
        """A digest is for its player; anything else is posted in a server, for everyone, or
        outside servers in the conversation of two players: in the language of the one it is
        mostly for (the challenger, the player to move)."""
        if isinstance(payload, DigestDue):
            return await self.services.players.speaks(payload.player_id)
        if isinstance(payload, ChallengeSettled | BiddingNews):
            challenge = await self.services.challenges.get(payload.challenge_id)
            guild_id, player_id = challenge.guild_id, challenge.challenger.id
        elif isinstance(payload, SeasonNews | DailyPuzzlePosted):
            guild_id, player_id = payload.guild_id, None
        elif isinstance(payload, TournamentNews):
            guild_id = (await self.services.tournaments.get(payload.tournament_id)).guild_id
            player_id = None
        elif isinstance(payload, LeagueNews):
            guild_id = (await self.services.leagues.get(payload.league_id)).guild_id
            player_id = None
        else:
            game = await self.services.games.get(payload.game_id)
            guild_id, player_id = game.guild_id, game.player_to_move.id
        if guild_id == NO_SERVER and player_id is not None:
            return await self.services.players.speaks(player_id)
        return await self.server_language(guild_id)

    async def server_language(self, guild_id: int) -> str:
        """The language of a server's public posts: the one its managers chose
        (``/bredon config``), else the server's own (Discord's preferred locale)."""
        chosen = (await self.services.guilds.get(guild_id)).language
        if chosen is not None:
            return chosen
        guild = self.client.get_guild(guild_id)
        return catalogue().language_for(None if guild is None else guild.preferred_locale.value)

    @asynccontextmanager
    async def speaking_to(self, player_id: int) -> AsyncIterator[None]:
        """Word what is inside for one player (a DM): in their language."""
        with speaking(await self.services.players.speaks(player_id)):
            yield

    async def noted(self, text: str, game: GameView, payload: Payload) -> str:
        """`text` with the notes for this game and announcement, a line each."""
        for note in self.notes:
            line = await note(game, payload)
            if line:
                text = f"{text}\n{line}"
        return text

    # ----------------------------------------------------------------- places and DMs

    async def channel(self, channel_id: int) -> Place:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        assert isinstance(channel, Place)
        return channel

    async def posted_message(self, link: str) -> discord.PartialMessage:
        """The message a recorded post's jump link points to (in a server), to edit it."""
        channel_id, message_id = map(int, link.rsplit("/", 2)[-2:])
        place = await self.channel(channel_id)
        assert isinstance(place, discord.abc.GuildChannel | discord.Thread)
        return place.get_partial_message(message_id)

    async def post_for_game(self, item: Item, game: GameView, post: Post) -> Shown:
        """Post in the game's thread, else its channel, else to both players by DM. What went
        out is recorded in the item's progress, so a retry (after a later step failed) does not
        post it again."""
        done = item.progress.get("posted")
        if done is not None:
            outcome, by_dm_only = Outcome(done["outcome"]), done.get("by_dm_only", False)
            return Shown(done["link"], outcome, done["in_guild"], by_dm_only)
        if not game.in_server:
            return await self._post_in_conversation(item, game, post)
        places = [game.thread_id, game.channel_id] if game.thread_id else [game.channel_id]
        for number, place_id in enumerate(places):
            try:
                place = await self.channel(place_id)
                if isinstance(place, discord.Thread) and place.archived:
                    await self.reopen(place)
                message = await place.send(post.text, **post.kwargs())
            except GONE as error:
                log.warning("Game %s: cannot post in %s (%s).", game.id, place_id, error)
                if place_id == game.thread_id and isinstance(error, discord.NotFound):
                    await self.services.games.forget_thread(game.id)
                continue
            outcome = Outcome.POSTED if number == 0 else Outcome.FALLBACK
            return await self._posted(item, Shown(message.jump_url, outcome))
        sent: list[int] = item.progress.get("dm_sent", [])
        for player in (game.white, game.black):
            if player.id in sent:
                continue
            async with self.speaking_to(player.id):
                apology = _("(I could not post this in the game's channel.)")
            note = f"{apology}\n{post.text}"
            if await self._direct_message(player.id, note, post) is not None:
                sent = [*sent, player.id]
                await self.services.outbox.save_progress(item, dm_sent=sent)
        if not sent:
            raise Undeliverable(f"game {game.id}: thread, channel and both players' DMs refused")
        return await self._posted(item, Shown(None, Outcome.FALLBACK, in_guild=False))

    async def _post_in_conversation(self, item: Item, game: GameView, post: Post) -> Shown:
        """A game in a conversation Bredon is not in: the post answers the interaction of its
        player that caused it, if Discord still takes an answer (mentions pinging the players
        only), and whoever did not cause it is told by DM, with a link back; with no such
        interaction, both players by DM. A player whose DMs are closed hears what they missed
        at their next command there (:mod:`cogs.delivery.notices`)."""
        players = (game.white.id, game.black.id)
        answering = self.conversations.answering(game.channel_id, players)
        shown = Shown(None, Outcome.FALLBACK, in_guild=False, by_dm_only=True)
        if answering is not None and "answered" not in item.progress:
            extra = {"allowed_mentions": only_players(*players), **post.kwargs()}
            try:
                message = await answering.send(post.text, **extra)
            except discord.HTTPException as error:
                if error.status >= 500 or error.status == 429:
                    raise  # a failure of Discord's that time cures: retried, still answerable
                # Refused for good (an invalid token, a channel closed to apps since): the
                # players hear of it by DM now rather than at each retry until it expires.
                log.warning("Game %s: the conversation's answer was refused (%s).", game.id, error)
                answering = None
            else:
                await self.services.outbox.save_progress(item, answered=message.jump_url)
        if "answered" in item.progress:
            shown = Shown(item.progress["answered"], Outcome.POSTED, in_guild=False)
        told: list[int] = item.progress.get("dm_sent", [])
        link = item.progress.get("answered") or self.conversations.link(game.channel_id)
        for player_id in post.dm_only or players:
            if player_id in told or (answering is not None and player_id == answering.user_id):
                continue
            async with self.speaking_to(player_id):
                back = _("In your game's conversation: {link}", link=link)
            sent = await self._direct_message(player_id, f"{post.text}\n{back}", post)
            if sent is None and not is_me(self.client, player_id):
                await self.services.notifications.mark_unreachable(player_id, NO_SERVER)
            told = [*told, player_id]
            await self.services.outbox.save_progress(item, dm_sent=told)
        return await self._posted(item, shown)

    async def reopen(self, thread: discord.Thread) -> None:
        """Unarchive a game's thread (Discord archives a quiet one after a week) so that it is
        back in the thread list. Discord lets whoever may post there do it (and a post in it
        unarchives it too), so a refusal is only noted: the post goes on. A thread locked by
        the server's moderators stays as it is."""
        if thread.locked:
            return
        try:
            await thread.edit(archived=False)
        except discord.HTTPException as error:
            log.info("Game thread %s stays archived until the post (%s).", thread.id, error)
            return
        log.info("Game thread %s was archived: reopened.", thread.id)

    async def _posted(self, item: Item, shown: Shown) -> Shown:
        posted = {
            "link": shown.link,
            "outcome": shown.outcome.value,
            "in_guild": shown.in_guild,
            "by_dm_only": shown.by_dm_only,
        }
        await self.services.outbox.save_progress(item, posted=posted)
        return shown

    async def direct_message(self, player_id: int, text: str) -> discord.Message | None:
        """A DM, or None when the player cannot be reached (DMs closed); a failure that time
        cures propagates, to be retried."""
        return await self._direct_message(player_id, text)

    async def _direct_message(
        self, player_id: int, text: str, post: Post | None = None
    ) -> discord.Message | None:
        """A DM, or None when the player cannot be reached (DMs closed, unknown user); a
        failure that time cures propagates. The bot itself (a player in a game against it) is
        never reached: it cannot DM itself."""
        if is_me(self.client, player_id):
            return None
        try:
            user = self.client.get_user(player_id) or await self.client.fetch_user(player_id)
            extra = {} if post is None else post.kwargs(with_view=False)
            return await user.send(text, **extra)
        except GONE as error:
            log.info("Could not DM player %s (%s).", player_id, error)
        return None

    async def echo_by_dm(
        self,
        item: Item | None,
        shown: Shown,
        player_id: int,
        guild_id: int,
        text: Callable[[str], str],
        *,
        offer: bool,
    ) -> None:
        """A DM pointing to a post made in the server (`text` of the post's link), for a player
        who wants one; nothing when the post itself was the DM or went nowhere."""
        if shown.link is not None and shown.in_guild:
            async with self.speaking_to(player_id):  # a DM: in its player's language
                worded = text(shown.link)
            await self.tell_by_dm(item, player_id, guild_id, worded, offer=offer)

    async def tell_by_dm(
        self, item: Item | None, player_id: int, guild_id: int, text: str, *, offer: bool
    ) -> bool:
        """A DM for a player who wants one in this server: at each move, or (`offer`) for what
        cannot wait. A courtesy: the post in the server stands whatever happens, so a failure
        is not retried; refused DMs are recorded, for the player to hear at their next command.
        With an `item`, a DM already sent for it is not sent again on a retry."""
        prefs = await self.services.notifications.get(player_id, guild_id)
        if not (prefs.offers_by_dm if offer else prefs.dm_per_move):
            return False
        done: list[int] = [] if item is None else item.progress.get("told_by_dm", [])
        if player_id in done:
            return True
        try:
            sent = await self._direct_message(player_id, text)
        except UNREACHABLE as error:
            log.info("Could not DM player %s now (%s); the post stands.", player_id, error)
            return False
        if sent is None:
            await self.services.notifications.mark_unreachable(player_id, guild_id)
            return False
        if item is not None:
            await self.services.outbox.save_progress(item, told_by_dm=[*done, player_id])
        return True

    # ----------------------------------------------------------------- images

    async def theme_for(self, player_id: int | None) -> str:
        if player_id is None:
            return "default"
        try:
            theme = (await self.services.players.get(player_id)).theme
        except UnknownPlayer:
            return "default"
        return theme if theme in THEMES else "default"

    async def close(self) -> None:
        """End the worker process reading files."""
        await self.files.close()

    async def draw(
        self, render: Callable[..., bytes], *args: Any, player_id: int | None = None
    ) -> bytes:
        """A picture drawn in a worker thread, within the bound on renders at once (and one at
        a time for `player_id`, who asked for it)."""
        async with self._renders.slot(player_id):
            return await asyncio.to_thread(render, *args)

    async def board_png(
        self,
        game: GameView,
        position: Position,
        *,
        viewer_id: int | None,
        last_move: Move | None,
        called: tuple[bool, bool] | None = None,
    ) -> bytes:
        """The position as a PNG in the viewer's theme, with the last move tinted and, once the
        game is over, its result (a road drawn across the board). `called` is the Tak and Tinuë
        the service worked out for the move, if known (else the renderer works them out)."""
        theme = await self.theme_for(viewer_id)
        result = game.result
        if result is not None and position.result is not None:
            result = position.result  # the board's own result carries the road
        async with self._renders.slot():
            return await asyncio.to_thread(
                render_board,
                position,
                last_move=last_move,
                players=(game.white.name, game.black.name),
                theme=theme,
                result=result,
                show_tak=None if called is None else called[0],
                tinue=called is not None and called[1],
                words=board_words(),
            )

    async def board_file(
        self, game: GameView, position: Position, *, viewer_id: int | None
    ) -> discord.File:
        png = await self.board_png(
            game, position, viewer_id=viewer_id, last_move=position.last_move
        )
        return discord.File(io.BytesIO(png), filename=_board_name(game, position))

    async def replay_file(
        self, label: int | str, record: Game, viewer_id: int
    ) -> tuple[discord.File, str]:
        """The game as a GIF within Discord's upload limit (`bredon-<label>.gif`: the game's
        number, or a name for a game from a file), and a note on the plies sampled."""
        theme = await self.theme_for(viewer_id)
        async with self._replays.slot(viewer_id):
            words = replay_words()
            replay = await asyncio.to_thread(render_replay_within, record, theme=theme, words=words)
        file = discord.File(io.BytesIO(replay.data), filename=f"bredon-{label}.gif")
        return file, replay.note

    async def position_file(
        self,
        position: Position,
        players: tuple[str, str],
        *,
        viewer_id: int | None,
        name: str,
        result: Result | None = None,
    ) -> discord.File:
        """A board that is no game's here (a challenge's start, a game from a file) as a PNG."""
        theme = await self.theme_for(viewer_id)
        draw = partial(
            render_board,
            position,
            last_move=position.last_move,
            players=players,
            theme=theme,
            result=position.result or result,
            words=board_words(),
        )
        png = await self.draw(draw, player_id=viewer_id)
        return discord.File(io.BytesIO(png), filename=name)

    async def board_post(
        self,
        game: GameView,
        position: Position,
        text: str,
        *,
        viewer_id: int | None,
        last_move: Move | None,
        view: discord.ui.View | None = None,
        called: tuple[bool, bool] | None = None,
    ) -> Post:
        """A post of the board with `text` (see :meth:`board_png`)."""
        png = await self.board_png(
            game, position, viewer_id=viewer_id, last_move=last_move, called=called
        )
        return Post(text, png, _board_name(game, position), view)


def _board_name(game: GameView, position: Position) -> str:
    return f"bredon-{game.id}-ply-{position.ply}.png"
