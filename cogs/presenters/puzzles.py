"""A server's daily puzzle (:mod:`bot.puzzles.service`), posted in the channel its managers chose:
the board, who moves, and the day before's solution (never shown before). Players answer it
privately with `/puzzle daily` (:mod:`cogs.commands.puzzle`). A channel that is gone or closed
to the bot is given up (logged): the next day's puzzle tries again. A post that could not go out
on its day (Bredon was down, Discord failed all day) is dropped: the next day's post shows its
solution, and a puzzle of yesterday posted as new would show it too late.
"""

from __future__ import annotations

import logging
from datetime import date
from functools import partial

from bot.notifications.outbox import DailyPuzzlePosted, Item, Outcome
from bot.puzzles.service import day_of
from cogs.delivery.table import GONE, GameTable, Shown
from cogs.words import puzzle_messages

log = logging.getLogger(__name__)


async def show_daily_puzzle(table: GameTable, item: Item, posted: DailyPuzzlePosted) -> Shown:
    day = date.fromisoformat(posted.day)
    if day < day_of(table.services.clock.now()):
        log.info("Daily puzzle %s of %s is a day late: dropped.", item.id, posted.day)
        return Shown(None, Outcome.GIVEN_UP)
    daily = await table.services.puzzles.daily(posted.guild_id, day)
    board = await table.position_file(
        daily.puzzle.position(),
        puzzle_messages.side_names(),
        viewer_id=None,
        name=f"puzzle-{posted.day}.png",
    )
    try:
        place = await table.channel(posted.channel_id)
        message = await place.send(puzzle_messages.daily_post_text(daily), file=board)
    except GONE as error:
        log.info("Daily puzzle %s: cannot post in %s (%s).", item.id, posted.channel_id, error)
        return Shown(None, Outcome.GIVEN_UP)
    return Shown(message.jump_url, Outcome.POSTED)


def register(table: GameTable) -> None:
    table.register(DailyPuzzlePosted, partial(show_daily_puzzle, table))
