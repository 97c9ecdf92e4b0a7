"""A draw offer or an undo request, with the opponent's buttons; a move that comes first
takes the buttons away."""

from __future__ import annotations

import logging
from functools import partial

from bot.languages import _
from bot.notifications.outbox import Item, MovePlayed, RequestMade, game_stream
from cogs.components.buttons import buttons
from cogs.delivery.table import UNREACHABLE, GameTable, Post, Shown
from cogs.words import game_messages, notification_messages

log = logging.getLogger(__name__)


async def show_request(table: GameTable, item: Item, request: RequestMade) -> Shown:
    """The offer in the game's thread, and to the opponent by DM if they want offers so."""
    game = await table.services.games.get(request.game_id)
    opponent = game.opponent_of(request.asker_id)
    text = game_messages.request_text(game, request)
    view = buttons((f"{request.what}-yes", game.id), (f"{request.what}-no", game.id))
    shown = await table.post_for_game(item, game, Post(text, view=view))

    def dm(link: str) -> str:  # worded by echo_by_dm in the opponent's language
        return notification_messages.offer_dm_text(game_messages.request_text(game, request), link)

    await table.echo_by_dm(item, shown, opponent.id, game.guild_id, dm, offer=True)
    return shown


async def lapse(table: GameTable, played: MovePlayed) -> None:
    """The offers a move cancelled lose their buttons. Best effort: a press on one that is
    left says it lapsed, too."""
    stream = game_stream(played.game_id)
    offers = await table.services.outbox.delivered_items(stream, RequestMade.KIND)
    asked = [(o, o.payload) for o in offers if isinstance(o.payload, RequestMade)]
    for what in played.lapsed:
        latest = next((o for o, request in asked if request.what == what), None)
        posted = None if latest is None else latest.progress.get("posted")
        if posted is None or not posted["in_guild"] or posted["link"] is None:
            continue  # given up, or sent by DM: no buttons to take away
        try:
            message = await (await table.posted_message(posted["link"])).fetch()
            note = _("This has lapsed: a move came first.")
            lapsed = f"{message.content}\n*{note}*"
            await message.edit(content=lapsed[:2000], view=None)
        except UNREACHABLE as error:
            log.info("Game %s: a lapsed %s offer keeps its buttons (%s).", stream, what, error)


def register(table: GameTable) -> None:
    table.register(RequestMade, partial(show_request, table))
