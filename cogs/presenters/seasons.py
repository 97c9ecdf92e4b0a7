"""A season's news in its league's channel: the divisions of a season that starts, each new
round's deadline, who goes up and down at its end, a start that waits for players. Its divisions'
rounds are their tournaments' news (:mod:`cogs.presenters.tournaments`)."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord

from bot.notifications.outbox import Item, Outcome, SeasonEvent, SeasonNews
from cogs.delivery.table import GONE, GameTable, Shown, Undeliverable
from cogs.words import season_messages


async def show_season(table: GameTable, item: Item, news: SeasonNews) -> Shown:
    services = table.services
    league = await services.seasons.league_of(news.season_id)
    season = await services.seasons.season(news.season_id)
    extra: dict[str, Any] = {}
    match SeasonEvent(news.event):
        case SeasonEvent.STARTED:
            text = season_messages.started_text(league, season)
            divisions = {
                division.number: [
                    e.player.id for e in await services.tournaments.entrants(division.tournament_id)
                ]
                for division in await services.seasons.divisions(season.id)
            }
            extra["embed"] = season_messages.divisions_embed(season, divisions)
        case SeasonEvent.ROUND:
            text = season_messages.round_paired_text(league, season)
        case SeasonEvent.FINISHED:
            moves = await services.seasons.moves(season.id)
            text = season_messages.finished_text(league, season, moves)
        case SeasonEvent.WAITING:
            text = season_messages.waiting_text(league, season)
    try:
        place = await table.channel(league.channel_id)
        sent = await place.send(text, allowed_mentions=discord.AllowedMentions(users=True), **extra)
    except GONE as error:
        raise Undeliverable(f"season {season.id}: its channel refused ({error})") from error
    return Shown(sent.jump_url, Outcome.POSTED)


def register(table: GameTable) -> None:
    table.register(SeasonNews, partial(show_season, table))
