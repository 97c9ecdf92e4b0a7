"""Coins in the posts: the bidding announcements (with the Bid button), and the coin lines of a
staked game's posts (its start, each move and its end)."""

from __future__ import annotations

import logging

from bot.coins.service import StakeView
from bot.games.model import GameView
from bot.notifications.outbox import (
    BiddingNews,
    GameEnded,
    GameStart,
    Item,
    MovePlayed,
    Outcome,
)
from cogs.components.bids import bid_view
from cogs.delivery.table import GONE, GameTable, Shown
from cogs.words import coin_messages

log = logging.getLogger(__name__)


class CoinTable:
    """The bidding announcements, and the coin lines of a staked game's posts."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.services = table.services

    async def show_bidding(self, item: Item, news: BiddingNews) -> Shown:
        """Bidding opened: a message with the Bid button in the challenge's channel. Closed:
        that message shows the bids instead (or a new one does, if it is gone)."""
        stake = await self.services.wallets.stake(news.stake_id)
        challenge = await self.services.challenges.get(news.challenge_id)
        posted = item.progress.get("posted")
        if posted is not None:  # a retry after the post went out
            return Shown(posted["link"], Outcome.POSTED)
        if news.closed:
            edited = await self._reveal(item, stake)
            if edited is not None:
                return edited
            view, text = None, coin_messages.bidding_closed_text(stake)
        else:
            view, text = bid_view(stake.id), coin_messages.bidding_open_text(stake)
        try:
            place = await self.table.channel(challenge.channel_id)
            message = await (place.send(text) if view is None else place.send(text, view=view))
        except GONE as error:
            log.info("Bidding %s: its channel refused the post (%s).", stake.id, error)
            return Shown(None, Outcome.GIVEN_UP)  # the game's start says the bids too
        link = message.jump_url
        await self.services.outbox.save_progress(item, posted={"link": link, "id": message.id})
        return Shown(link, Outcome.POSTED)

    async def _reveal(self, item: Item, stake: StakeView) -> Shown | None:
        """Edit the bidding message into the revealed bids; None if it cannot be found."""
        opened = await self.services.outbox.delivered_items(item.stream, BiddingNews.KIND)
        for earlier in opened:
            posted = earlier.progress.get("posted")
            if posted is None or posted.get("link") is None:
                continue
            try:
                message = await (await self.table.posted_message(posted["link"])).edit(
                    content=coin_messages.bidding_closed_text(stake), view=None
                )
            except GONE as error:
                log.info("Bidding %s: its message cannot be edited (%s).", stake.id, error)
                return None
            return Shown(message.jump_url, Outcome.POSTED)
        return None

    async def note(self, game: GameView, payload: object) -> str | None:
        """The coins of a staked game, under its start, each move and its end."""
        if isinstance(payload, MovePlayed):
            if payload.pot is None:
                return None
            mover = game.white if payload.ply % 2 == 1 else game.black
            return coin_messages.move_coins_text(
                game,
                mover.id,
                payload.tak,
                payload.paid,
                payload.pot,
                payload.token_id,
                payload.owes_id,
            )
        if not isinstance(payload, GameStart | GameEnded):
            return None
        stake = await self.services.wallets.stake_of_game(game.id)
        if stake is None:
            return None
        if isinstance(payload, GameStart):
            return coin_messages.bids_text(stake)
        rows = await self.services.wallets.game_rows(stake.id, ("pot", "bonus", "refund"))
        reserve = None
        if game.result is not None and game.result.winner is not None:
            reserve = game.position_from_tps().reserves(game.result.winner).total
        return coin_messages.settlement_text(game, rows, reserve)


def register(table: GameTable) -> None:
    coin_table = CoinTable(table)
    table.register(BiddingNews, coin_table.show_bidding)
    table.notes.append(coin_table.note)
