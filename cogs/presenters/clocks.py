"""A game's clock: stopped, restarted or lengthened (a proposed pause with the opponent's
buttons), and the reminders before a deadline."""

from __future__ import annotations

from functools import partial

from bot.deadlines.service import Reminder
from bot.notifications.outbox import ClockEvent, ClockNews, Item, ReminderDue
from bot.store import from_db
from cogs.components.buttons import buttons
from cogs.delivery.table import GameTable, Post, Shown
from cogs.words import clock_messages


async def show_clock_news(table: GameTable, item: Item, news: ClockNews) -> Shown:
    """The clock news in the game's thread; a proposed pause with the opponent's buttons; an
    automatic vacation day also by DM to its player, as a reminder is (it cannot wait), in the
    player's own language: once, from the game whose time-out took it, with every game it
    stopped."""
    game = await table.services.games.get(news.game_id)
    view = None
    if news.event == ClockEvent.PAUSE_OFFER.value:
        view = buttons(("pause-yes", game.id), ("pause-no", game.id))
    text = clock_messages.clock_news_text(game, news)
    shown = await table.post_for_game(item, game, Post(text, view=view))
    if news.event == ClockEvent.AUTO_VACATION.value and news.held:  # one DM for the day
        async with table.speaking_to(news.player_id):
            dm = (
                f"{clock_messages.clock_news_text(game, news)} "
                f"{clock_messages.auto_vacation_dm_text(news)}"
            )
        await table.echo_by_dm(
            item, shown, news.player_id, game.guild_id, lambda link: f"{dm}\n{link}", offer=True
        )
    return shown


async def show_reminder(table: GameTable, item: Item, due: ReminderDue) -> Shown:
    """The reminder in the game's thread, and by DM to a player who wants offers so (a
    reminder cannot wait: digest players get it too); the mention stays the fallback when
    their DMs are closed. The DM is in the player's own language, the post in the server's."""
    game = await table.services.games.get(due.game_id)
    deadline = from_db(due.deadline)
    assert deadline is not None
    player = game.white if game.white.id == due.player_id else game.black
    auto_vacation = await table.services.holds.takes_vacation_day(game.id, deadline)
    reminder = Reminder(game, player, deadline)
    text = clock_messages.reminder_text(reminder, auto_vacation=auto_vacation)
    shown = await table.post_for_game(item, game, Post(text, dm_only=(player.id,)))
    async with table.speaking_to(player.id):
        own = clock_messages.reminder_text(reminder, auto_vacation=auto_vacation)
    await table.echo_by_dm(
        None, shown, player.id, game.guild_id, lambda link: f"{own}\n{link}", offer=True
    )
    return shown


def register(table: GameTable) -> None:
    table.register(ClockNews, partial(show_clock_news, table))
    table.register(ReminderDue, partial(show_reminder, table))
