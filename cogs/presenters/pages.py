"""Links to the web pages (web/) in what Bredon posts, where the server has pages on
(``/bredon config pages:``) and the operator said where they are read (``BREDON_PUBLIC_URL``):
under a game's board, and on a tournament's embeds."""

from __future__ import annotations

from bot.games.model import GameView
from bot.notifications.outbox import Payload
from bot.page_addresses import PublicPages
from cogs.client import BredonBot
from cogs.delivery.table import GameTable
from cogs.words import game_messages


def public_pages(table: GameTable) -> PublicPages | None:
    """The pages' addresses, or None when the bot posts no links (no BREDON_PUBLIC_URL)."""
    if not isinstance(table.client, BredonBot) or table.client.settings.web.public_url is None:
        return None
    return PublicPages(table.services.guilds, table.client.settings.web)


def register(table: GameTable) -> None:
    public = public_pages(table)
    if public is None:
        return

    async def page_link(game: GameView, payload: Payload) -> str | None:
        addresses = await public.addresses(game.guild_id)
        return None if addresses is None else game_messages.page_link(addresses.game(game.id))

    table.notes.append(page_link)
