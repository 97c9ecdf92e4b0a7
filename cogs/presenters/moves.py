"""A move played or taken back: the board for the player to move, with the Move button."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from bot.games.model import GameView
from bot.notifications.outbox import ConditionsDropped, Item, MovePlayed, MoveTakenBack, Outcome
from bot.play.outcomes import MoveOutcome
from cogs.components.buttons import turn_buttons
from cogs.delivery.table import GameTable, Shown
from cogs.presenters.boards import supersede
from cogs.presenters.offers import lapse
from cogs.words import game_messages, notification_messages
from tak import Move, Position, parse_move


async def post_turn(
    table: GameTable,
    item: Item,
    game: GameView,
    position: Position,
    text: str,
    last_move: Move | None,
    called: tuple[bool, bool] | None = None,
    *,
    dm: bool = True,
    quiet: bool = False,
) -> Shown:
    """The board with `text`, in the theme of the player to move, with the Move button for
    this position; the player is told by DM if they asked to be (unless not `dm`), and not
    pinged if they get a daily digest instead, nor when `quiet` (their turn is already
    over: their conditional move answered)."""
    viewer = game.player_to_move.id
    prefs = await table.services.notifications.get(viewer, game.guild_id)
    post = await table.board_post(
        game,
        position,
        text,
        viewer_id=viewer,
        last_move=last_move,
        view=turn_buttons(game),
        called=called,
    )
    post = replace(post, silent=quiet or not prefs.mention_per_move)
    shown = await table.post_for_game(item, game, post)
    await supersede(table, item, game.id)
    if dm:
        turn_text = partial(notification_messages.dm_turn_text, game)
        await table.echo_by_dm(None, shown, viewer, game.guild_id, turn_text, offer=False)
    return shown


async def show_move(table: GameTable, item: Item, played: MovePlayed) -> Shown:
    """The move and its Tak or Tinuë, on the board as it left it; the offers it cancelled
    lapse. A move answered by condition tells nobody it is their turn: the answer follows."""
    stored = await table.services.games.get(played.game_id)
    game = replace(stored, ply=played.ply, tps=played.tps)
    position = game.position_from_tps()
    called = (played.tak, played.tinue)
    outcome = MoveOutcome(game, played.move, played.ply, position, played.tak, None, called[1])
    worded = game_messages.move_text(
        outcome, by_condition=played.by_condition, answered=played.answered
    )
    text = await table.noted(worded, game, played)
    last = parse_move(played.move)
    answered = played.answered
    shown = await post_turn(
        table, item, game, position, text, last, called, dm=not answered, quiet=answered
    )
    await lapse(table, played)
    return shown


async def show_undo(table: GameTable, item: Item, undo: MoveTakenBack) -> Shown:
    """The move taken back, on the board as it was before it."""
    stored = await table.services.games.get(undo.game_id)
    game = replace(stored, ply=undo.ply, tps=undo.tps)
    text = game_messages.taken_back_text(game, undo.taken_back)
    return await post_turn(table, item, game, game.position_from_tps(), text, None)


async def tell_dropped(table: GameTable, item: Item, dropped: ConditionsDropped) -> Shown:
    """Why a player's conditional moves were dropped, by DM to them alone: never in the game's
    thread, where their opponent would read it. Unreachable, they see it in
    `/game conditions show` (their lines are gone) and hear of the closed DMs at their next
    command."""
    async with table.speaking_to(dropped.player_id):
        text = game_messages.conditions_dropped_text(dropped)
    sent = await table.direct_message(dropped.player_id, text)
    if sent is not None:
        return Shown(sent.jump_url, Outcome.POSTED, in_guild=False)
    game = await table.services.games.get(dropped.game_id)
    await table.services.notifications.mark_unreachable(dropped.player_id, game.guild_id)
    return Shown(None, Outcome.GIVEN_UP)


def register(table: GameTable) -> None:
    table.register(MovePlayed, partial(show_move, table))
    table.register(MoveTakenBack, partial(show_undo, table))
    table.register(ConditionsDropped, partial(tell_dropped, table))
