"""A team league's news in its channel: its start with the schedule, each round's boards when
its lineups were due, the matches decided and the final table."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord

from bot.leagues.model import LeagueView
from bot.notifications.outbox import Item, LeagueNews, Outcome
from cogs.delivery.picture_files import league_standings_file
from cogs.delivery.table import GONE, GameTable, Shown, Undeliverable
from cogs.words import league_messages

# One message: its text, its embed, and whether the table's picture goes with it (drawn when it
# is sent: each attempt needs a fresh file).
LeagueMessage = tuple[str, discord.Embed | None, bool]


async def show_news(table: GameTable, item: Item, news: LeagueNews) -> Shown:
    """Each message of the news, in the league's channel; each one sent is counted in the
    item's progress, so a retry goes on from the next one."""
    posts = await _posts(table, news)
    league = await table.services.leagues.get(news.league_id)
    last = item.progress.get("last_link")
    for number, (text, embed, with_table) in enumerate(posts):
        if number < item.progress.get("sent", 0):
            continue
        extra: dict[str, Any] = {"embed": embed} if embed else {}
        if with_table and (
            picture := await league_standings_file(
                table.services, table.draw, league.id, theme="default"
            )
        ):
            extra["file"] = picture
            if embed is not None:
                embed.set_image(url=f"attachment://{picture.filename}")
        try:
            place = await table.channel(league.channel_id)
            sent = await place.send(text, **extra)
        except GONE as error:
            raise Undeliverable(f"league {league.id}: its channel refused ({error})") from error
        last = sent.jump_url
        await table.services.outbox.save_progress(item, sent=number + 1, last_link=last)
    return Shown(last, Outcome.POSTED)


async def _posts(table: GameTable, news: LeagueNews) -> list[LeagueMessage]:
    leagues = table.services.leagues
    league = await leagues.get(news.league_id)
    posts: list[LeagueMessage] = []
    if news.reminder is not None:
        text = await _reminder(table, league, news.reminder, news.teams)
        posts.extend([] if text is None else [(text, None, False)])
    if news.cancelled:
        rows = await leagues.standings(league.id)
        posts.append(
            (
                league_messages.cancelled_text(league),
                league_messages.standings_embed(league, rows),
                True,
            )
        )
    if news.started:
        schedule = league_messages.schedule_embed(
            league, await leagues.rounds(league.id), await leagues.matches(league.id)
        )
        posts.append((league_messages.started_text(league), schedule, False))
    if news.round_begun is not None:
        matches = await leagues.matches(league.id, news.round_begun)
        posts.append(
            (
                league_messages.round_begins_text(league, news.round_begun),
                league_messages.round_embed(league, news.round_begun, matches),
                False,
            )
        )
    elif news.decided:
        decided = await leagues.matches(league.id, ids=news.decided)
        posts.append((league_messages.decided_text(league, decided), None, False))
    if news.finished:
        rows = await leagues.standings(league.id)
        posts.append(
            (
                league_messages.finished_text(league, rows),
                league_messages.standings_embed(league, rows),
                True,
            )
        )
    return posts


async def _reminder(
    table: GameTable, league: LeagueView, number: int, teams: tuple[int, ...]
) -> str | None:
    """The reminder to the captains (as they are now) of the teams that had set no lineup;
    None once the round's games are made (the deadline passed before it was delivered)."""
    leagues = table.services.leagues
    due = next(r for r in await leagues.rounds(league.id) if r.number == number)
    if due.begun:
        return None
    captains = [t.captain.id for t in await leagues.teams(league.id) if t.id in teams]
    return league_messages.reminder_text(league, number, due.lineup_deadline, captains)


def register(table: GameTable) -> None:
    table.register(LeagueNews, partial(show_news, table))
