"""Playing Bredon itself: `/tak play` (declared in :mod:`cogs.commands.tree`) and the bot's side of
its games (:mod:`bot.computer.player`).

`/tak play level:<1-5>` posts a challenge to the bot, which accepts it at once; so does a
`/tak challenge` addressed to the bot. The bot's moves are posted like anyone's, by the courier.
A player, and a server, may have only so many games against the bot going
(``BREDON_BOT_GAMES_PER_PLAYER``, ``BREDON_BOT_GAMES_PER_SERVER``): past that, `/tak play` says
what to finish first.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.computer.player import POLL_SECONDS, BotPlayer, Thinker
from bot.games.model import GameRequest
from bot.languages import _
from bot.notifications.outbox import Item, game_stream
from cogs.actions.presses import post_or_withdraw
from cogs.arguments import BoardSize, Colour, Days, Komi
from cogs.checks import check_place
from cogs.client import BredonBot
from cogs.delivery.conversations import guild_of, place_of
from cogs.delivery.courier import Courier
from cogs.interactions import acting, player_of
from tak.search import LEVELS, MAX_LEVEL, MIN_LEVEL


class OpponentCog(commands.Cog):
    """The bot's side of its games, and `/tak play`."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.courier = courier
        settings = bot.settings
        self.thinker = Thinker(
            workers=settings.bot_workers,
            engine=settings.engine,
            movetime_ms=settings.bot_movetime_ms,
        )
        self.player: BotPlayer | None = None
        self._starting: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._starting = asyncio.create_task(self._start(), name="bredon-opponent-start")

    async def _start(self) -> None:
        await self.bot.wait_until_ready()
        assert self.bot.user is not None
        self.player = BotPlayer(
            self.bot.services.opponent,
            self.thinker,
            player_of(self.bot.user),
            self.courier.kick,
            fair_use=self.bot.settings.fair_use,
            poll_seconds=self.bot.idle_look(timedelta(seconds=POLL_SECONDS)).total_seconds(),
        )
        self.player.start()

    async def close(self) -> None:
        """Stop playing and end the worker processes and the engine."""
        if self._starting is not None:
            self._starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._starting
        if self.player is not None:
            await self.player.stop()
        await self.thinker.close()

    async def cog_unload(self) -> None:
        await self.close()

    @commands.Cog.listener()
    async def on_outbox_settled(self, item: Item) -> None:
        """A move, a game start, an undo was shown (or given up): maybe it is the bot's turn."""
        if self.player is not None:
            self.player.kick()

    @commands.Cog.listener()
    async def on_bot_challenged(self) -> None:
        if self.player is not None:
            self.player.kick()

    @app_commands.describe(
        level=f"{MIN_LEVEL} (beginner) to {MAX_LEVEL} "
        "(strongest: the server's engine if it has one)",
        days="Days you have for a move (default: the server's); Bredon answers within seconds",
    )
    async def play(
        self,
        interaction: discord.Interaction,
        level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL],
        size: BoardSize | None = None,
        komi: Komi | None = None,
        color: Colour = "random",
        days: Days | None = None,
    ) -> None:
        """Play a game against Bredon itself"""
        bot = self.bot
        async with acting(interaction):
            assert bot.user is not None
            services = bot.services
            settings = await services.guilds.get(guild_of(interaction))
            place = await check_place(interaction, settings.use_threads)
            challenge = await services.opponent.challenge(
                guild_id=guild_of(interaction),
                channel_id=interaction.channel_id or 0,
                player=player_of(interaction.user),
                bot=player_of(bot.user),
                level=level,
                request=GameRequest(size=size, komi=komi, days_per_move=days),
                defaults=settings,
                colour=color,
                fair_use=bot.settings.fair_use,
                place=place_of(interaction),
            )
            courier = self.courier
            await post_or_withdraw(courier.table, place, challenge)
            if self.player is not None:
                await self.player.accept_challenges()
                self.player.kick()
            accepted = await services.challenges.get(challenge.id)
            name = LEVELS[level - 1].name
            if accepted.game_id is None:
                await interaction.followup.send(
                    _(
                        "Challenge #{challenge} is up; I'll accept it as soon as I'm ready.",
                        challenge=challenge.id,
                    ),
                    ephemeral=True,
                )
                return
            report = await courier.deliver_stream(game_stream(accepted.game_id))
            fields = {"game": accepted.game_id, "level": level, "name": name}
            reply = report.reply(
                _("Game #{game} against me, level {level} ({name}), is on", **fields),
                _("Game #{game} against me, level {level} ({name}), was set up", **fields),
            )
            await interaction.followup.send(reply, ephemeral=True)
