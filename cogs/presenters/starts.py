"""A game's start: its thread (under the challenge, or under an anchor line in the tournament's
or the league's channel), its first board, the tournament players' DMs and the pointers from the
games it follows."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Final

import discord

from bot.games.model import GameView
from bot.notifications.outbox import GameStart, Item
from cogs.delivery.table import GONE, UNREACHABLE, GameTable, Shown
from cogs.presenters.moves import post_turn
from cogs.words import game_messages, league_messages, notification_messages, tournament_messages

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004  # Discord's code: this message already has a thread
# The longest a thread stays open without a message (a week), so that a game of days per move
# stays in the thread list; a thread archived anyway is reopened when its game moves on.
RENAME_SECONDS = 10  # a rename Discord does not allow at once is given up
THREAD_ARCHIVE_MINUTES: Final = 10080  # Final: discord.py wants the literal


async def show_start(table: GameTable, item: Item, start: GameStart) -> Shown:
    """A thread under the challenge (or under an anchor line in the tournament's channel)
    when the guild wants threads and the bot may make one, else the channel; then the first
    board. Steps already done are skipped on a retry: the thread is stored with the game, the
    anchor line in the item's progress."""
    services = table.services
    game = await services.games.get(start.game_id)
    match = None if game.match_id is None else await services.matches.get(game.match_id)
    match_games = 1 if match is None else match.games_total
    # Bredon makes threads only in its servers (elsewhere it can only answer).
    if game.in_server and game.thread_id is None:
        anchor = await _anchor(table, item, game, start)
        if anchor is not None:
            game = await _make_thread(table, game, anchor, match_games)
    elif game.in_server and not item.progress.get(
        "renamed"
    ):  # a match's next game, in the match's thread
        await _rename_thread(table, game, match_games)
        await services.outbox.save_progress(item, renamed=True)
    position = await services.games.position(game.id)
    # The settings are told once: by the challenge's message, the tournament or the match's
    # first game.
    told = start.anchor_message_id is not None or start.tournament_id is not None
    start_text = game_messages.game_start_text(
        game, match_games=match_games, with_setup=not (told or match)
    )
    text = await table.noted(start_text, game, start)
    # A tournament game's pairing DM tells the player to move, in place of the turn's DM.
    dm = start.tournament_id is None
    shown = await post_turn(table, item, game, position, text, position.last_move, dm=dm)
    if shown.link is not None and shown.in_guild:
        if game.thread_id is None:  # played in the channel: `/tak games` links this post
            await services.games.attach(game.id, message_id=int(shown.link.split("/")[-1]))
        if start.tournament_id is not None:
            await _tell_pairing(table, item, game, start.tournament_id, shown.link)
        await _point_to(table, item, game, shown.link)
    return shown


async def _tell_pairing(
    table: GameTable, item: Item, game: GameView, tournament_id: int, link: str
) -> None:
    """A tournament game's two players by DM, if they want offers by DM: their round, their
    game and who moves (for the player to move, in place of the turn notice's DM)."""
    if game.match_id is None:
        return
    tournament = await table.services.tournaments.get(tournament_id)
    pairing = await table.services.tournaments.pairing_of_match(game.match_id)
    if pairing is None:
        return
    for player in (game.white, game.black):
        moves = player.id == game.player_to_move.id
        async with table.speaking_to(player.id):  # a DM: in its player's language
            title = tournament_messages.round_title(tournament, pairing.round)
            text = notification_messages.pairing_dm_text(title, game, moves, link)
        await table.tell_by_dm(item, player.id, game.guild_id, text, offer=True)


async def _point_to(table: GameTable, item: Item, game: GameView, link: str) -> None:
    """The threads of the games this one follows (a rematch's, the players' previous round)
    say where it is played. Best effort: each pointer is posted once, and one that fails is
    left out."""
    pointed: list[int] = item.progress.get("pointed", [])
    for before in await table.services.lookup.earlier_games(game):
        if before.id in pointed:
            continue
        try:
            place = await table.channel(before.thread_id or before.channel_id)
            if isinstance(place, discord.Thread) and place.archived:
                await table.reopen(place)
            await place.send(notification_messages.next_game_text(game, link))
        except UNREACHABLE as error:
            log.info("Game %s: no pointer to game %s (%s).", before.id, game.id, error)
        pointed = [*pointed, before.id]
        await table.services.outbox.save_progress(item, pointed=pointed)


async def _anchor(
    table: GameTable, item: Item, game: GameView, start: GameStart
) -> discord.PartialMessage | None:
    """The message the game's thread hangs from: the challenge's, or for a tournament game a
    line naming its match in the tournament's channel, for a league game its board in the
    league's (posted once)."""
    try:
        channel = await table.channel(game.channel_id)
    except GONE as error:
        log.warning("Game %s: its channel is gone (%s).", game.id, error)
        return None
    if not isinstance(channel, discord.TextChannel):
        return None
    if start.anchor_message_id is not None:
        return channel.get_partial_message(start.anchor_message_id)
    if "anchor_id" not in item.progress:
        text = await _anchor_text(table, game, start)
        if text is None:
            return None
        try:
            anchor = await channel.send(text)
        except GONE as error:
            log.warning("Game %s: no anchor line in its channel (%s).", game.id, error)
            return None
        await table.services.outbox.save_progress(item, anchor_id=anchor.id)
    return channel.get_partial_message(item.progress["anchor_id"])


async def _anchor_text(table: GameTable, game: GameView, start: GameStart) -> str | None:
    """The line naming a tournament game's match, or a league game's board; None for others."""
    services = table.services
    if start.league_id is not None:
        found = await services.leagues.board_of_game(game.id)
        return None if found is None else league_messages.board_anchor_text(*found)
    if start.tournament_id is None or game.match_id is None:
        return None
    tournament = await services.tournaments.get(start.tournament_id)
    pairing = await services.tournaments.pairing_of_match(game.match_id)
    if pairing is None or pairing.player2 is None:
        return None
    return tournament_messages.match_anchor_text(tournament, pairing, game.id)


async def _rename_thread(table: GameTable, game: GameView, match_games: int) -> None:
    """The thread a match's games share, named for the game now played in it. The bot made
    the thread, so it may rename it (as it may reopen it); a courtesy, so a failure is only
    noted."""
    assert game.thread_id is not None
    name = game_messages.thread_name(game, match_games)
    try:
        thread = await table.channel(game.thread_id)
        if isinstance(thread, discord.Thread) and thread.name != name:
            # Discord allows two renames in ten minutes; past that discord.py would wait out
            # the limit here, holding every announcement behind this one. Not worth it.
            async with asyncio.timeout(RENAME_SECONDS):
                await thread.edit(name=name)
    except UNREACHABLE as error:  # TimeoutError among them
        log.info("Game %s: its thread keeps its name (%s).", game.id, str(error) or "timed out")


async def _make_thread(
    table: GameTable, game: GameView, anchor: discord.PartialMessage, match_games: int
) -> GameView:
    settings = await table.services.guilds.get(game.guild_id)
    if not settings.use_threads:
        return game
    try:
        thread = await anchor.create_thread(
            name=game_messages.thread_name(game, match_games),
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        thread_id = thread.id
    except GONE as error:
        log.info("No thread for game %s (%s); playing in the channel.", game.id, error)
        return game
    except discord.HTTPException as error:
        if error.code != THREAD_EXISTS:
            raise
        thread_id = anchor.id  # made by an earlier try: a message's thread has its id
    return await table.services.games.attach(game.id, thread_id=thread_id)


def register(table: GameTable) -> None:
    table.register(GameStart, partial(show_start, table))
