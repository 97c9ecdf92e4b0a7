"""Where games are shown: the thread (or channel) of each game, its board images, its turn
notices, reminders and endings, and the tournaments' news.

Everything the players are told because the database changed comes out of the outbox
(:mod:`bot.notifications.outbox`): :meth:`GameTable.show` turns one announcement into messages, and
:class:`cogs.courier.Courier` decides when. An announcement is shown from what the database holds
now plus the facts it carries (the position after a move, the match score after a game), so a
retry days later shows what happened then.

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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import aiohttp
import discord

from bot.errors import UnknownPlayer
from bot.games.model import (
    ChallengeView,
    GameView,
    MatchStatus,
)
from bot.games.outcomes import GameEnding, MoveOutcome
from bot.notifications.outbox import (
    ChallengeSettled,
    ClockEvent,
    ClockNews,
    EndingCause,
    GameEnded,
    GameStart,
    Headline,
    Item,
    MovePlayed,
    MoveTakenBack,
    Outcome,
    Payload,
    ReminderDue,
    RequestMade,
    TournamentNews,
    game_stream,
)
from bot.services import Services
from bot.store import from_db
from bot.timekeeping.deadlines import Reminder
from bot.tournaments.tournament import TournamentFormat, TournamentStatus, TournamentView
from bot.work.attached_files import FileReader
from bot.work.fair_slots import FairSlots
from cogs import game_messages, notification_messages, result_messages, tournament_messages
from cogs.buttons import buttons, challenge_buttons, turn_buttons
from cogs.picture_files import tournament_files
from rendering import THEMES, render_board, render_replay_within
from tak import Move, Position, Result, parse_move
from tak.ptn import Game

log = logging.getLogger(__name__)

Place = discord.abc.Messageable
GONE = (discord.Forbidden, discord.NotFound)  # the place is gone or closed to the bot
# Any failure to reach Discord, for the steps that are only a courtesy (a DM, a lapsed offer).
UNREACHABLE = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)
THREAD_EXISTS = 160004  # Discord's code: this message already has a thread
# The longest a thread stays open without a message (a week), so that a game of days per move
# stays in the thread list; a thread archived anyway is reopened when its game moves on.
THREAD_ARCHIVE_MINUTES = 10080
MAX_RENDERS = 2
# What draws a post's pictures when it is sent (each attempt needs fresh files).
PictureFiles = Callable[[], Awaitable[list[discord.File]]]

# A line another cog adds to a game's posts (e.g. the coins of a staked game), or None.
Note = Callable[[GameView, Payload], Awaitable[str | None]]


# What the bot needs where a game or a tournament is played (docs/discord-setup.md).
NEEDED = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}
NEEDED_FOR_THREADS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def missing_permissions(
    channel: discord.abc.GuildChannel | discord.Thread, me: discord.Member, *, threads: bool
) -> list[str]:
    """The permissions the bot lacks in `channel` to show games there (by their names in
    Discord's settings)."""
    granted = channel.permissions_for(me)
    needed = {**NEEDED, **(NEEDED_FOR_THREADS if threads else {})}
    return [label for name, label in needed.items() if not getattr(granted, name)]


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


@dataclass(frozen=True, slots=True)
class Post:
    """One message: its text, an image and buttons."""

    text: str
    png: bytes | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    silent: bool = False  # its mentions ping nobody (a digest player's turn notice)
    more: tuple[tuple[str, bytes], ...] = ()  # further files (name, content), after the image

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
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        # Images are drawn in worker threads; replays (seconds each) have their own slot, so
        # boards never wait for one.
        self._renders = FairSlots(MAX_RENDERS)
        self._replays = FairSlots(1)
        # Reads the files of /tak view and /tournament report (bot.tournaments.corrections).
        self.files = FileReader(preload=("bot.tournaments.corrections",))
        self._shows: dict[type[Any], Callable[[Item, Any], Awaitable[Shown]]] = {
            GameStart: self._show_game_start,
            MovePlayed: self._show_move,
            GameEnded: self._show_ending,
            RequestMade: self._show_request,
            MoveTakenBack: self._show_undo,
            ReminderDue: self._show_reminder,
            ChallengeSettled: self._show_challenge_settled,
            TournamentNews: self._show_tournament_news,
            ClockNews: self._show_clock_news,
        }
        # Added to every game start, move and ending shown; other cogs add theirs (coins).
        self.notes: list[Note] = [game_messages.ply_limit_note]

    async def _noted(self, text: str, game: GameView, payload: Payload) -> str:
        for note in self.notes:
            line = await note(game, payload)
            if line:
                text = f"{text}\n{line}"
        return text

    def register(self, kind: type[Any], show: Callable[[Item, Any], Awaitable[Shown]]) -> None:
        """Let another cog show a kind of announcement (e.g. cogs.notifications the digests)."""
        self._shows[kind] = show

    async def show(self, item: Item) -> Shown:
        """Post one announcement (see the module's notes on where)."""
        payload: Payload = item.payload
        return await self._shows[type(payload)](item, payload)

    # ----------------------------------------------------------------- places

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
            return Shown(done["link"], Outcome(done["outcome"]), done["in_guild"])
        places = [game.thread_id, game.channel_id] if game.thread_id else [game.channel_id]
        for number, place_id in enumerate(places):
            try:
                place = await self.channel(place_id)
                if isinstance(place, discord.Thread) and place.archived:
                    await self._reopen(place)
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
            note = f"(I could not post this in the game's channel.)\n{post.text}"
            if await self._direct_message(player.id, note, post) is not None:
                sent = [*sent, player.id]
                await self.services.outbox.save_progress(item, dm_sent=sent)
        if not sent:
            raise Undeliverable(f"game {game.id}: thread, channel and both players' DMs refused")
        return await self._posted(item, Shown(None, Outcome.FALLBACK, in_guild=False))

    async def _reopen(self, thread: discord.Thread) -> None:
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
        posted = {"link": shown.link, "outcome": shown.outcome.value, "in_guild": shown.in_guild}
        await self.services.outbox.save_progress(item, posted=posted)
        return shown

    async def direct_message(self, player_id: int, text: str) -> discord.Message | None:
        """A DM, or None when the player cannot be reached (DMs closed); a failure that time
        cures propagates, to be retried."""
        return await self._direct_message(player_id, text)

    async def _direct_message(
        self, player_id: int, text: str, post: Post | None = None, *, best_effort: bool = False
    ) -> discord.Message | None:
        """A DM, or None when the player cannot be reached (DMs closed, unknown user). A
        `best_effort` DM (a courtesy notice) also gives up on a failure that time would cure,
        rather than make its announcement be posted again. The bot itself (a player in a game
        against it) is never reached: it cannot DM itself."""
        if is_me(self.client, player_id):
            return None
        try:
            user = self.client.get_user(player_id) or await self.client.fetch_user(player_id)
            extra = {} if post is None else post.kwargs(with_view=False)
            return await user.send(text, **extra)
        except GONE as error:
            log.info("Could not DM player %s (%s).", player_id, error)
        except UNREACHABLE as error:
            if not best_effort:
                raise
            log.info("Could not DM player %s now (%s); the mention stands.", player_id, error)
        return None

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
            replay = await asyncio.to_thread(render_replay_within, record, theme=theme)
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
        )
        png = await self.draw(draw, player_id=viewer_id)
        return discord.File(io.BytesIO(png), filename=name)

    async def _board_post(
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
        png = await self.board_png(
            game, position, viewer_id=viewer_id, last_move=last_move, called=called
        )
        return Post(text, png, _board_name(game, position), view)

    # ----------------------------------------------------------------- challenges

    async def post_challenge(self, place: Place, challenge: ChallengeView) -> discord.Message:
        """Post a new challenge with its buttons (the caller learns at once if it failed); one
        from a TPS shows its starting board."""
        board = None
        if challenge.setup.start_tps is not None:
            board = await self.position_file(
                challenge.setup.start_position(),
                ("White", "Black"),
                viewer_id=None,
                name=f"challenge-{challenge.id}.png",
            )
        message = await place.send(
            game_messages.challenge_text(challenge), view=challenge_buttons(challenge), file=board
        )
        await self.services.challenges.set_message(challenge.id, message.id)
        if challenge.opponent is not None and message.guild is not None:
            text = notification_messages.challenge_dm_text(
                message.guild.name, challenge.challenger.name, message.jump_url
            )
            await self.tell_by_dm(None, challenge.opponent.id, challenge.guild_id, text, offer=True)
        return message

    async def _show_challenge_settled(self, item: Item, news: ChallengeSettled) -> Shown:
        """Show that a challenge is settled and take its buttons away."""
        challenge = await self.services.challenges.get(news.challenge_id)
        if challenge.message_id is None:
            return Shown(None, Outcome.POSTED)
        try:
            place = await self.channel(challenge.channel_id)
            if not isinstance(place, discord.abc.GuildChannel | discord.Thread):
                return Shown(None, Outcome.GIVEN_UP)
            message = await place.get_partial_message(challenge.message_id).edit(
                content=game_messages.challenge_text(challenge), view=None
            )
        except GONE as error:
            log.info("Challenge %s: its message cannot be edited (%s).", challenge.id, error)
            return Shown(None, Outcome.GIVEN_UP)
        return Shown(message.jump_url, Outcome.POSTED)

    # ----------------------------------------------------------------- games

    async def _show_game_start(self, item: Item, start: GameStart) -> Shown:
        """A thread under the challenge (or under an anchor line in the tournament's channel)
        when the guild wants threads and the bot may make one, else the channel; then the first
        board. Steps already done are skipped on a retry: the thread is stored with the game, the
        anchor line in the item's progress."""
        game = await self.services.games.get(start.game_id)
        if game.thread_id is None:
            anchor = await self._anchor(item, game, start)
            if anchor is not None:
                game = await self._make_thread(game, anchor)
        position = await self.services.games.position(game.id)
        text = await self._noted(game_messages.game_start_text(game), game, start)
        shown = await self._post_turn(item, game, position, text, position.last_move)
        if shown.link is not None and shown.in_guild:
            if game.thread_id is None:  # played in the channel: `/tak games` links this post
                await self.services.games.attach(game.id, message_id=int(shown.link.split("/")[-1]))
            if start.tournament_id is not None:
                await self._tell_pairing(item, game, start.tournament_id, shown.link)
            await self._point_to(item, game, shown.link)
        return shown

    async def _tell_pairing(
        self, item: Item, game: GameView, tournament_id: int, link: str
    ) -> None:
        """A tournament game's two players by DM, if they want offers by DM: their round, their
        game and who moves (for the player to move, in place of the turn notice's DM)."""
        if game.match_id is None:
            return
        tournament = await self.services.tournaments.get(tournament_id)
        pairing = await self.services.tournaments.pairing_of_match(game.match_id)
        if pairing is None:
            return
        title = tournament_messages.round_title(tournament, pairing.round)
        for player in (game.white, game.black):
            moves = player.id == game.player_to_move.id
            text = notification_messages.pairing_dm_text(title, game, moves, link)
            await self.tell_by_dm(item, player.id, game.guild_id, text, offer=True)

    async def _point_to(self, item: Item, game: GameView, link: str) -> None:
        """The threads of the games this one follows (a rematch's, the players' previous round)
        say where it is played. Best effort: each pointer is posted once, and one that fails is
        left out."""
        pointed: list[int] = item.progress.get("pointed", [])
        for before in await self.services.notifications.earlier_games(game):
            if before.id in pointed:
                continue
            try:
                place = await self.channel(before.thread_id or before.channel_id)
                if isinstance(place, discord.Thread) and place.archived:
                    await self._reopen(place)
                await place.send(notification_messages.next_game_text(game, link))
            except UNREACHABLE as error:
                log.info("Game %s: no pointer to game %s (%s).", before.id, game.id, error)
            pointed = [*pointed, before.id]
            await self.services.outbox.save_progress(item, pointed=pointed)

    async def _anchor(
        self, item: Item, game: GameView, start: GameStart
    ) -> discord.PartialMessage | None:
        try:
            channel = await self.channel(game.channel_id)
        except GONE as error:
            log.warning("Game %s: its channel is gone (%s).", game.id, error)
            return None
        if not isinstance(channel, discord.TextChannel):
            return None
        if start.anchor_message_id is not None:
            return channel.get_partial_message(start.anchor_message_id)
        if start.tournament_id is None or game.match_id is None:
            return None
        if "anchor_id" not in item.progress:
            tournament = await self.services.tournaments.get(start.tournament_id)
            pairing = await self.services.tournaments.pairing_of_match(game.match_id)
            if pairing is None or pairing.player2 is None:
                return None
            try:
                anchor = await channel.send(
                    tournament_messages.match_anchor_text(tournament, pairing, game.id)
                )
            except GONE as error:
                log.warning("Game %s: no anchor line in its channel (%s).", game.id, error)
                return None
            await self.services.outbox.save_progress(item, anchor_id=anchor.id)
        return channel.get_partial_message(item.progress["anchor_id"])

    async def _make_thread(self, game: GameView, anchor: discord.PartialMessage) -> GameView:
        settings = await self.services.guilds.get(game.guild_id)
        if not settings.use_threads:
            return game
        try:
            thread = await anchor.create_thread(
                name=game_messages.thread_name(game), auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            thread_id = thread.id
        except GONE as error:
            log.info("No thread for game %s (%s); playing in the channel.", game.id, error)
            return game
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            thread_id = anchor.id  # made by an earlier try: a message's thread has its id
        return await self.services.games.attach(game.id, thread_id=thread_id)

    async def _post_turn(
        self,
        item: Item,
        game: GameView,
        position: Position,
        text: str,
        last_move: Move | None,
        called: tuple[bool, bool] | None = None,
    ) -> Shown:
        """The board with `text`, in the theme of the player to move, with the Move button for
        this position; the player is told by DM if they asked to be, and not pinged if they
        get a daily digest instead."""
        viewer = game.player_to_move.id
        prefs = await self.services.notifications.get(viewer, game.guild_id)
        post = await self._board_post(
            game,
            position,
            text,
            viewer_id=viewer,
            last_move=last_move,
            view=turn_buttons(game),
            called=called,
        )
        post = replace(post, silent=not prefs.mention_per_move)
        shown = await self.post_for_game(item, game, post)
        start = item.payload
        if not (isinstance(start, GameStart) and start.tournament_id is not None):
            await self.notify_by_dm(game, viewer, shown)  # else the pairing DM tells them
        return shown

    async def _show_move(self, item: Item, played: MovePlayed) -> Shown:
        stored = await self.services.games.get(played.game_id)
        game = replace(stored, ply=played.ply, tps=played.tps)
        position = game.position_from_tps()
        called = (played.tak, played.tinue)
        outcome = MoveOutcome(game, played.move, played.ply, position, played.tak, None, called[1])
        text = await self._noted(game_messages.move_text(outcome), game, played)
        last = parse_move(played.move)
        shown = await self._post_turn(item, game, position, text, last, called)
        await self._lapse(played)
        return shown

    async def _show_undo(self, item: Item, undo: MoveTakenBack) -> Shown:
        game = replace(await self.services.games.get(undo.game_id), ply=undo.ply, tps=undo.tps)
        text = (
            f"**{undo.taken_back}** was taken back in game #{game.id}.\n"
            f"{game_messages.your_move(game)}"
        )
        return await self._post_turn(item, game, game.position_from_tps(), text, None)

    async def _show_ending(self, item: Item, ended: GameEnded) -> Shown:
        """The result, the road, the points and the match score, with the final board and a
        Rematch button (the match's next game is its own announcement)."""
        game = await self.services.games.get(ended.game_id)
        if ended.cause == EndingCause.STOPPED:
            assert ended.tournament_id is not None
            tournament = await self.services.tournaments.get(ended.tournament_id)
            stopped = Post(tournament_messages.stopped_text(tournament, game.id))
            return await self.post_for_game(item, game, stopped)
        position = game.position_from_tps()
        ending = await self._ending_of(game, position, ended)
        last = ended.move or game.last_move
        text = game_messages.ending_text(ending)
        preface = {
            EndingCause.RESIGN: f"{game_messages.mention(ended.by or 0)} resigned.",
            EndingCause.ABORT: f"{game_messages.mention(ended.by or 0)} aborted the game.",
            EndingCause.DRAW: f"{game_messages.mention(ended.by or 0)} accepted the draw offer.",
            EndingCause.TIME: "Time is up.",
            EndingCause.REPORTED: f"{game_messages.mention(ended.by or 0)} reported this game, "
            "played elsewhere, with its PTN file: its moves are checked and stored here.",
        }.get(EndingCause(ended.cause))
        if ended.cause == EndingCause.MOVE and ended.move is not None and ended.ply is not None:
            played = MoveOutcome(game, ended.move, ended.ply, position, ended.tak, ending)
            preface = game_messages.move_text(played)
        if preface:
            text = f"{preface}\n{text}"
        text = await self._noted(text, game, ended)
        view = buttons(("rematch", game.id)) if ending.next_game is None else None
        post = await self._board_post(
            game,
            position,
            text,
            viewer_id=None,
            last_move=None if last is None else parse_move(last),
            view=view,
        )
        return await self.post_for_game(item, game, post)

    async def _ending_of(self, game: GameView, position: Position, ended: GameEnded) -> GameEnding:
        """The game's ending as it stood when it ended (the match score then, not now)."""
        assert game.result is not None
        result = game.result
        board = position.result
        if board is not None and board.kind is result.kind:
            result = board  # with its road
        match = None
        if game.match_id is not None and ended.match_points is not None:
            match = replace(
                await self.services.matches.get(game.match_id),
                points1=ended.match_points[0],
                points2=ended.match_points[1],
                games_played=ended.match_games_played or 0,
                status=MatchStatus(ended.match_status),
            )
        next_game = None
        if ended.next_game_id is not None:
            next_game = await self.services.games.get(ended.next_game_id)
        ratings = await self.services.ratings.changes_for_game(game.id)
        return GameEnding(game, result, game.points or 0, match, next_game, ratings)

    async def _show_request(self, item: Item, request: RequestMade) -> Shown:
        """A draw offer or undo request, with the opponent's buttons."""
        game = await self.services.games.get(request.game_id)
        asker = request.asker_id
        opponent = game.opponent_of(asker)
        text = {
            "draw": f"{game_messages.mention(asker)} offers a draw in game #{game.id}. "
            f"{game_messages.mention(opponent)}, do you accept?",
            "undo": f"{game_messages.mention(asker)} asks to take back the last move "
            f"({request.last_move}) in game #{game.id}. "
            f"{game_messages.mention(opponent)}, do you allow it?",
        }[request.what]
        view = buttons((f"{request.what}-yes", game.id), (f"{request.what}-no", game.id))
        shown = await self.post_for_game(item, game, Post(text, view=view))
        if shown.link is not None and shown.in_guild:
            dm = notification_messages.offer_dm_text(text, shown.link)
            await self.tell_by_dm(item, opponent.id, game.guild_id, dm, offer=True)
        return shown

    async def _lapse(self, played: MovePlayed) -> None:
        """The offers a move cancelled lose their buttons. Best effort: a press on one that is
        left says it lapsed, too."""
        stream = game_stream(played.game_id)
        offers = await self.services.outbox.delivered_items(stream, RequestMade.KIND)
        for what in played.lapsed:
            asked = [o for o in offers if isinstance(o.payload, RequestMade)]
            latest = next((o for o in asked if o.payload.what == what), None)
            posted = None if latest is None else latest.progress.get("posted")
            if posted is None or not posted["in_guild"] or posted["link"] is None:
                continue  # given up, or sent by DM: no buttons to take away
            try:
                message = await (await self.posted_message(posted["link"])).fetch()
                lapsed = f"{message.content}\n*This has lapsed: a move came first.*"
                await message.edit(content=lapsed[:2000], view=None)
            except UNREACHABLE as error:
                log.info("Game %s: a lapsed %s offer keeps its buttons (%s).", stream, what, error)

    async def _show_clock_news(self, item: Item, news: ClockNews) -> Shown:
        """A clock stopped, restarted or lengthened; a proposed pause with the opponent's
        buttons."""
        game = await self.services.games.get(news.game_id)
        view = None
        if news.event == ClockEvent.PAUSE_OFFER.value:
            view = buttons(("pause-yes", game.id), ("pause-no", game.id))
        return await self.post_for_game(
            item, game, Post(game_messages.clock_news_text(game, news), view=view)
        )

    async def _show_reminder(self, item: Item, due: ReminderDue) -> Shown:
        game = await self.services.games.get(due.game_id)
        deadline = from_db(due.deadline)
        assert deadline is not None
        player = game.white if game.white.id == due.player_id else game.black
        reminder = Reminder(game, player, deadline)
        shown = await self.post_for_game(item, game, Post(game_messages.reminder_text(reminder)))
        await self.notify_by_dm(game, player.id, shown, reminder)
        return shown

    async def notify_by_dm(
        self, game: GameView, player_id: int, shown: Shown, reminder: Reminder | None = None
    ) -> None:
        """A direct message for players who asked for them (a reminder is time-sensitive: digest
        players get it too); the mention in the game's thread stays the fallback when their DMs
        are closed."""
        link = shown.link
        if link is None or not shown.in_guild:
            return  # the post itself went out by DM
        text = (
            game_messages.reminder_text(reminder)
            if reminder
            else game_messages.dm_turn_text(game, link)
        )
        text = f"{text}\n{link}" if reminder else text
        await self.tell_by_dm(None, player_id, game.guild_id, text, offer=reminder is not None)

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

    # ----------------------------------------------------------------- tournaments

    async def _show_tournament_news(self, item: Item, news: TournamentNews) -> Shown:
        """Forfeits, the rounds that began and the end, in the tournament's channel. Each message
        sent is counted in the item's progress, so a retry goes on from the next one."""
        tournament = await self.services.tournaments.get(news.tournament_id)
        posts = await self._tournament_posts(tournament, news)
        last = item.progress.get("last_link")
        for number, (text, embed, pictures) in enumerate(posts):
            if number < item.progress.get("sent", 0):
                continue
            try:
                place = await self.channel(tournament.channel_id)
                extra: dict[str, Any] = {"embed": embed} if embed else {}
                if pictures is not None and (files := await pictures()):
                    extra["files"] = files
                sent = await place.send(text, **extra)
            except GONE as error:
                raise Undeliverable(
                    f"tournament {tournament.id}: its channel refused ({error})"
                ) from error
            last = sent.jump_url
            await self.services.outbox.save_progress(item, sent=number + 1, last_link=last)
        return Shown(last, Outcome.POSTED)

    async def _tournament_posts(
        self, tournament: TournamentView, news: TournamentNews
    ) -> list[tuple[str, discord.Embed | None, PictureFiles | None]]:
        """Each message: its text, its embed, and what draws its pictures (the standings, or a
        knockout's bracket, when a round begins after another and at the end)."""
        if news.headline == Headline.CREATED:
            signing_up = tournament.status is TournamentStatus.SIGNUP
            return [("", tournament_messages.created_embed(tournament), None)] if signing_up else []
        name = game_messages.display(tournament.name)
        who = game_messages.mention(news.player_id or 0)
        headline = await self._entry_headline(tournament, news)
        if headline is None and news.headline and news.headline != Headline.CORRECTED:
            headline = {
                Headline.STARTED: f"**{name}** has started!",
                Headline.WITHDREW: f"{who} withdrew from **{name}**.",
                Headline.DISQUALIFIED: f"{who} is disqualified from **{name}**.",
            }[Headline(news.headline)]
        if news.headline == Headline.CORRECTED:
            headline = await self._correction_text(tournament, news)
        decided = await self.services.tournaments.pairings_with_ids(tournament.id, news.decided)
        lines = [line for line in (headline, tournament_messages.decided_text(decided)) if line]
        if news.dropped:
            lines.append(tournament_messages.dropped_text(news.dropped))
        if news.cancelled:
            lines.append(tournament_messages.cancelled_text(tournament))
        posts: list[tuple[str, discord.Embed | None, PictureFiles | None]] = []
        if lines:
            posts.append(("\n".join(lines), None, None))

        def pictures(bracket_only: bool) -> PictureFiles:
            return partial(
                tournament_files,
                self.services,
                self.draw,
                tournament.id,
                theme="default",
                bracket_only=bracket_only,
            )

        knockout = tournament.format is TournamentFormat.ELIMINATION
        for number in news.rounds:
            begun = await self.services.tournaments.pairings(tournament.id, number)
            posts.append(
                (
                    f"**{tournament_messages.round_title(tournament, number)}** begins.",
                    tournament_messages.round_embed(tournament, begun),
                    pictures(True) if number > 1 or knockout else None,
                )
            )
        if news.finished:
            rows = await self.services.tournaments.standings(tournament.id)
            embed = tournament_messages.standings_embed(tournament, rows)
            posts.append((tournament_messages.finished_text(tournament), embed, pictures(False)))
        return posts

    async def _entry_headline(self, tournament: TournamentView, news: TournamentNews) -> str | None:
        """The news of check-in, a late entry or a replacement (None for other headlines)."""
        entry = self.services.entry
        match news.headline:
            case Headline.CHECKIN_OPEN:
                return tournament_messages.checkin_open_text(await entry.state(tournament.id))
            case Headline.CHECKIN_REMINDER:
                return tournament_messages.checkin_reminder_text(await entry.state(tournament.id))
            case Headline.LATE_ENTRY:
                assert news.player_id is not None
                first = await entry.first_round(tournament.id, news.player_id)
                return tournament_messages.late_entry_text(tournament, news.player_id, first)
            case Headline.REPLACED:
                assert news.player_id is not None and news.other_id is not None
                return tournament_messages.replaced_text(tournament, news.player_id, news.other_id)
        return None

    async def _correction_text(self, tournament: TournamentView, news: TournamentNews) -> str:
        """A corrected result, as its log entry tells it."""
        entry = None if news.log_id is None else await self.services.results.entry(news.log_id)
        if entry is None:
            return f"A result of **{game_messages.display(tournament.name)}** is corrected."
        return result_messages.correction_news(tournament, entry)


def _board_name(game: GameView, position: Position) -> str:
    return f"bredon-{game.id}-ply-{position.ply}.png"
