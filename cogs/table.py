"""Where games are shown: the thread (or channel) of each game, its board images, its turn
notices, reminders and endings. Commands, buttons and the deadline scheduler all post through
one :class:`GameTable`, so a game looks the same whichever way it moved on.

Images are rendered in a worker thread (``asyncio.to_thread``) so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot.errors import UnknownPlayer
from bot.services import Services
from bot.services.deadlines import Reminder
from bot.services.views import ChallengeView, GameEnding, GameView, MoveOutcome, NotifyMode
from cogs import messages
from cogs.buttons import buttons, challenge_buttons
from rendering import THEMES, render_board, render_replay
from tak import Position
from tak.ptn import Game

log = logging.getLogger(__name__)

Place = discord.abc.Messageable


class GameTable:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services

    # ----------------------------------------------------------------- places

    async def channel(self, channel_id: int) -> Place:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        assert isinstance(channel, Place)
        return channel

    async def place_of(self, game: GameView) -> Place:
        return await self.channel(game.thread_id or game.channel_id)

    # ----------------------------------------------------------------- images

    async def theme_for(self, player_id: int | None) -> str:
        if player_id is None:
            return "default"
        try:
            theme = (await self.services.players.get(player_id)).theme
        except UnknownPlayer:
            return "default"
        return theme if theme in THEMES else "default"

    async def board_file(
        self, game: GameView, position: Position, *, viewer_id: int | None
    ) -> discord.File:
        """The position as a PNG in the viewer's theme, with the last move tinted and, once the
        game is over, its result (a road drawn across the board)."""
        theme = await self.theme_for(viewer_id)
        result = game.result
        if result is not None and position.result is not None:
            result = position.result  # the board's own result carries the road
        png = await asyncio.to_thread(
            render_board,
            position,
            last_move=position.last_move,
            players=(game.white.name, game.black.name),
            theme=theme,
            result=result,
        )
        return discord.File(io.BytesIO(png), filename=f"bredon-{game.id}-ply-{position.ply}.png")

    async def replay_file(self, game_id: int, record: Game, viewer_id: int) -> discord.File:
        theme = await self.theme_for(viewer_id)
        gif = await asyncio.to_thread(render_replay, record, theme=theme)
        return discord.File(io.BytesIO(gif), filename=f"bredon-{game_id}.gif")

    # ----------------------------------------------------------------- challenges

    async def post_challenge(self, place: Place, challenge: ChallengeView) -> discord.Message:
        message = await place.send(
            messages.challenge_text(challenge), view=challenge_buttons(challenge)
        )
        await self.services.challenges.set_message(challenge.id, message.id)
        return message

    async def close_challenge(self, challenge: ChallengeView) -> None:
        """Show that a challenge is settled and take its buttons away."""
        if challenge.message_id is None:
            return
        place = await self.channel(challenge.channel_id)
        assert isinstance(place, discord.abc.GuildChannel | discord.Thread)
        await place.get_partial_message(challenge.message_id).edit(
            content=messages.challenge_text(challenge), view=None
        )

    # ----------------------------------------------------------------- games

    async def open_game(self, game: GameView, anchor: discord.Message | None) -> discord.Message:
        """Start showing a game: a thread under `anchor` (the challenge) when the guild wants
        threads and the bot may make one, else the game's channel; then the first board."""
        if game.thread_id is None and anchor is not None:
            game = await self._make_thread(game, anchor)
        return await self.post_board(game, messages.game_start_text(game))

    async def _make_thread(self, game: GameView, anchor: discord.Message) -> GameView:
        settings = await self.services.guilds.get(game.guild_id)
        if not settings.use_threads or not isinstance(anchor.channel, discord.TextChannel):
            return game
        try:
            thread = await anchor.create_thread(name=messages.thread_name(game))
        except discord.HTTPException as error:
            log.info("No thread for game %s (%s); playing in the channel.", game.id, error)
            return game
        return await self.services.games.attach(game.id, thread_id=thread.id)

    async def post_board(self, game: GameView, text: str) -> discord.Message:
        """The current board with `text`, for the player to move; they are notified."""
        position = await self.services.games.position(game.id)
        place = await self.place_of(game)
        viewer = game.player_to_move.id
        message = await place.send(
            text, file=await self.board_file(game, position, viewer_id=viewer)
        )
        await self.notify_by_dm(game, viewer, message.jump_url)
        return message

    async def post_move(self, outcome: MoveOutcome) -> discord.Message:
        if outcome.ending is not None:
            return await self.post_ending(outcome.ending, messages.move_text(outcome))
        game = outcome.game
        place = await self.place_of(game)
        viewer = game.player_to_move.id
        message = await place.send(
            messages.move_text(outcome),
            file=await self.board_file(game, outcome.position, viewer_id=viewer),
        )
        await self.notify_by_dm(game, viewer, message.jump_url)
        return message

    async def post_ending(self, ending: GameEnding, preface: str | None = None) -> discord.Message:
        """The result, the road, the points and the match score, with the final board and a
        Rematch button; the match's next game starts right after."""
        game = ending.game
        text = messages.ending_text(ending)
        if preface:
            text = f"{preface}\n{text}"
        position = await self.services.games.position(game.id)
        place = await self.place_of(game)
        view = buttons(("rematch", game.id)) if ending.next_game is None else None
        message = await place.send(
            text,
            file=await self.board_file(game, position, viewer_id=None),
            view=view,
        )
        if ending.next_game is not None:
            await self.open_game(ending.next_game, anchor=None)
        if ending.tournament is not None:  # announced by cogs.tournaments
            self.client.dispatch("tournament_progress", ending.tournament)
        return message

    async def post_request(self, game: GameView, asker_id: int, what: str) -> discord.Message:
        """A draw offer or undo request, with the opponent's buttons."""
        opponent = game.opponent_of(asker_id)
        text = {
            "draw": f"{messages.mention(asker_id)} offers a draw in game #{game.id}. "
            f"{messages.mention(opponent)}, do you accept?",
            "undo": f"{messages.mention(asker_id)} asks to take back the last move "
            f"({game.last_move}) in game #{game.id}. "
            f"{messages.mention(opponent)}, do you allow it?",
        }[what]
        place = await self.place_of(game)
        view = buttons((f"{what}-yes", game.id), (f"{what}-no", game.id))
        return await place.send(text, view=view)

    async def post_reminder(self, reminder: Reminder) -> None:
        place = await self.place_of(reminder.game)
        message = await place.send(messages.reminder_text(reminder))
        await self.notify_by_dm(reminder.game, reminder.player.id, message.jump_url, reminder)

    async def notify_by_dm(
        self, game: GameView, player_id: int, link: str, reminder: Reminder | None = None
    ) -> None:
        """A direct message for players who asked for them; the mention in the game's thread
        stays the fallback when their DMs are closed."""
        try:
            profile = await self.services.players.get(player_id)
        except UnknownPlayer:
            return
        if profile.notify is not NotifyMode.DM:
            return
        text = messages.reminder_text(reminder) if reminder else messages.dm_turn_text(game, link)
        try:
            user = self.client.get_user(player_id) or await self.client.fetch_user(player_id)
            await user.send(f"{text}\n{link}" if reminder else text)
        except discord.HTTPException as error:
            log.info("Could not DM player %s (%s); the thread mention stands.", player_id, error)
