"""Notifications in Discord: the daily digests, and telling a player whose DMs were refused
(:mod:`bot.notifications.service`).

A digest is an outbox announcement (:class:`~bot.notifications.outbox.DigestDue`) shown here,
through the courier: a DM listing the games of the server awaiting the player's move. Nothing
awaits: no DM. DMs refused (closed, 403): the digest is posted with a mention in the thread of the
game whose clock runs out first (else its channel), and the player is told at their next command
in the server. Discord failing for now (5xx, network): the courier retries it. A digest that could
not go out for :data:`STALE_AFTER` is dropped, as the next day's one tells the same and more.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import BredonBot, person_language
from bot.languages import _, speaking
from bot.notifications.outbox import DigestDue, Item, Outcome
from cogs import notification_messages
from cogs.table import GONE, GameTable, Shown, Undeliverable

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(hours=20)


class NotificationsCog(commands.Cog):
    def __init__(self, bot: BredonBot, table: GameTable) -> None:
        self.bot = bot
        self.services = bot.services
        self.table = table

    async def cog_load(self) -> None:
        self.table.register(DigestDue, self.show_digest)

    async def show_digest(self, item: Item, due: DigestDue) -> Shown:
        now = self.services.clock.now()
        late = now - item.created_at
        if late > STALE_AFTER:
            log.info("Digest %s is %s late: dropped for the next one.", item.id, late)
            return Shown(None, Outcome.GIVEN_UP)
        games = await self.services.lookup.awaiting(due.player_id, due.guild_id)
        if not games:
            return Shown(None, Outcome.POSTED)
        guild = self.bot.get_guild(due.guild_id)
        server = guild.name if guild else _("your server")
        text = notification_messages.digest_text(server, games, now)
        sent = await self.table.direct_message(due.player_id, text)
        if sent is not None:
            return Shown(sent.jump_url, Outcome.POSTED, in_guild=False)
        await self.services.notifications.mark_unreachable(due.player_id, due.guild_id)
        fallback = notification_messages.digest_fallback_text(due.player_id, text)[
            : notification_messages.MAX_MESSAGE
        ]
        game = games[0]
        for place_id in dict.fromkeys(p for p in (game.thread_id, game.channel_id) if p):
            try:
                place = await self.table.channel(place_id)
                message = await place.send(
                    fallback, allowed_mentions=discord.AllowedMentions(users=True)
                )
            except GONE as error:
                log.info("Digest %s: cannot post in %s (%s).", item.id, place_id, error)
                continue
            return Shown(message.jump_url, Outcome.FALLBACK)
        raise Undeliverable(f"digest for player {due.player_id}: DM, thread and channel refused")

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command
    ) -> None:
        """Tell a player whose DMs were refused, once, privately, after their next command in
        the server."""
        if interaction.guild_id is None or not interaction.response.is_done():
            return
        notifications = self.services.notifications
        if await notifications.take_unreachable(interaction.user.id, interaction.guild_id):
            with speaking(await person_language(interaction)):
                server = interaction.guild.name if interaction.guild else _("this server")
                text = notification_messages.unreachable_text(server)
            try:
                await interaction.followup.send(text, ephemeral=True)
            except discord.HTTPException as error:
                log.info("Could not tell %s their DMs are closed (%s).", interaction.user, error)
