"""Only a game's latest board has live buttons: once a newer board (or the game's end) is
posted, the board before it loses its Move and Give 1 day buttons. The stripping is an
announcement of its own (:class:`BoardSuperseded`), so an edit Discord fails is retried like
any post, after a restart too, without holding the game's posts back."""

from __future__ import annotations

import logging
from functools import partial

from bot.notifications.outbox import (
    BoardSuperseded,
    GameStart,
    Item,
    MovePlayed,
    MoveTakenBack,
    Outcome,
    game_stream,
)
from cogs.delivery.table import GONE, GameTable, Shown

log = logging.getLogger(__name__)

# The announcements whose post is a board with the turn's buttons.
BOARD_KINDS = (GameStart.KIND, MovePlayed.KIND, MoveTakenBack.KIND)


async def supersede(table: GameTable, item: Item, game_id: int) -> None:
    """Call after `item`'s post went out: the game's previous board is to lose its buttons.
    Asked once per item (its progress says so), so a retry of `item` does not ask again."""
    if item.progress.get("superseded"):
        return
    outbox = table.services.outbox
    earlier = await outbox.delivered_items(game_stream(game_id), *BOARD_KINDS, limit=1)
    posted = earlier[0].progress.get("posted") if earlier else None
    if posted is not None and posted.get("link") is not None and posted.get("in_guild", True):
        await outbox.announce(BoardSuperseded(game_id, posted["link"]))
    await outbox.save_progress(item, superseded=True)


async def strip_buttons(table: GameTable, item: Item, old: BoardSuperseded) -> Shown:
    """The old board without its buttons; a board already deleted (or its place closed to the
    bot) has none left to press. Other failures propagate, to be retried."""
    try:
        message = await table.posted_message(old.link)
        await message.edit(view=None)
    except GONE as error:
        log.info(
            "Game %s: board %s is gone (%s); no buttons to strip.", old.game_id, old.link, error
        )
    return Shown(old.link, Outcome.POSTED)


def register(table: GameTable) -> None:
    table.register(BoardSuperseded, partial(strip_buttons, table))
