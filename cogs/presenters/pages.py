"""Under a board Bredon posts: a link to the game's page, where the server has pages on
(``/bredon config pages:``) and the operator said where they are read (``BREDON_PUBLIC_URL``)."""

from __future__ import annotations

from bot.games.model import GameView
from bot.notifications.outbox import Payload
from bot.page_addresses import PublicPages
from cogs.client import BredonBot
from cogs.delivery.table import GameTable
from cogs.words import game_messages


def register(table: GameTable) -> None:
    if not isinstance(table.client, BredonBot) or table.client.settings.web.public_url is None:
        return
    public = PublicPages(table.services.guilds, table.client.settings.web)

    async def page_link(game: GameView, payload: Payload) -> str | None:
        addresses = await public.addresses(game.guild_id)
        return None if addresses is None else game_messages.page_link(addresses.game(game.id))

    table.notes.append(page_link)
