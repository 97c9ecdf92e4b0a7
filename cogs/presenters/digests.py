"""The daily digests (:mod:`bot.notifications.service`); a player whose DMs were refused is told
at their next command (:mod:`cogs.delivery.notices`).

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
from functools import partial

import discord

from bot.games.model import NO_SERVER
from bot.languages import _
from bot.notifications.outbox import DigestDue, Item, Outcome
from cogs.delivery.table import GONE, GameTable, Shown, Undeliverable
from cogs.words import notification_messages

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(hours=20)


async def show_digest(table: GameTable, item: Item, due: DigestDue) -> Shown:
    services = table.services
    now = services.clock.now()
    late = now - item.created_at
    if late > STALE_AFTER:
        log.info("Digest %s is %s late: dropped for the next one.", item.id, late)
        return Shown(None, Outcome.GIVEN_UP)
    games = await services.lookup.awaiting(due.player_id, due.guild_id)
    if not games:
        return Shown(None, Outcome.POSTED)
    guild = table.client.get_guild(due.guild_id)
    server = guild.name if guild else _("your server")
    if due.guild_id == NO_SERVER:
        server = _("Discord, outside servers")
    text = notification_messages.digest_text(server, games, now)
    sent = await table.direct_message(due.player_id, text)
    if sent is not None:
        return Shown(sent.jump_url, Outcome.POSTED, in_guild=False)
    await services.notifications.mark_unreachable(due.player_id, due.guild_id)
    if due.guild_id == NO_SERVER:  # no channel of Bredon's: told at their next command there
        return Shown(None, Outcome.GIVEN_UP)
    fallback = notification_messages.digest_fallback_text(due.player_id, text)[
        : notification_messages.MAX_MESSAGE
    ]
    game = games[0]
    for place_id in dict.fromkeys(p for p in (game.thread_id, game.channel_id) if p):
        try:
            place = await table.channel(place_id)
            message = await place.send(
                fallback, allowed_mentions=discord.AllowedMentions(users=True)
            )
        except GONE as error:
            log.info("Digest %s: cannot post in %s (%s).", item.id, place_id, error)
            continue
        return Shown(message.jump_url, Outcome.FALLBACK)
    raise Undeliverable(f"digest for player {due.player_id}: DM, thread and channel refused")


def register(table: GameTable) -> None:
    table.register(DigestDue, partial(show_digest, table))
