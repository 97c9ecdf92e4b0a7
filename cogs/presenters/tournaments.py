"""A tournament's news in its channel: its creation, check-in, entries, forfeits, corrections,
the rounds that begin (with the standings or the bracket) and its end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import discord

from bot.languages import _
from bot.notifications.outbox import Headline, Item, Outcome, TournamentNews
from bot.tournaments.tournament import TournamentFormat, TournamentStatus, TournamentView
from cogs.delivery.picture_files import tournament_files
from cogs.delivery.table import GONE, GameTable, Shown, Undeliverable
from cogs.presenters.pages import public_pages
from cogs.words import result_messages, tournament_messages
from cogs.words.formatting import display

# What draws a post's pictures when it is sent (each attempt needs fresh files).
PictureFiles = Callable[[], Awaitable[list[discord.File]]]
# One message: its text, its embed, and what draws its pictures.
TournamentMessage = tuple[str, discord.Embed | None, PictureFiles | None]


async def show_news(table: GameTable, item: Item, news: TournamentNews) -> Shown:
    """Forfeits, the rounds that began and the end, in the tournament's channel. Each message
    sent is counted in the item's progress, so a retry goes on from the next one."""
    tournament = await table.services.tournaments.get(news.tournament_id)
    posts = await _posts(table, tournament, news)
    public = public_pages(table)
    addresses = None if public is None else await public.addresses(tournament.guild_id)
    for _text, embed, _pictures in posts:
        if embed is not None and addresses is not None:
            embed.url = addresses.tournament(tournament.id)  # its title links to its page
    last = item.progress.get("last_link")
    for number, (text, embed, pictures) in enumerate(posts):
        if number < item.progress.get("sent", 0):
            continue
        try:
            place = await table.channel(tournament.channel_id)
            extra: dict[str, Any] = {"embed": embed} if embed else {}
            if pictures is not None and (files := await pictures()):
                extra["files"] = files
            sent = await place.send(text, **extra)
        except GONE as error:
            raise Undeliverable(
                f"tournament {tournament.id}: its channel refused ({error})"
            ) from error
        last = sent.jump_url
        await table.services.outbox.save_progress(item, sent=number + 1, last_link=last)
    return Shown(last, Outcome.POSTED)


async def _posts(
    table: GameTable, tournament: TournamentView, news: TournamentNews
) -> list[TournamentMessage]:
    """Each message of the news (the standings, or a knockout's bracket, are drawn when a round
    begins after another and at the end)."""
    services = table.services
    if news.headline in (Headline.CREATED, Headline.CHANGED):
        signing_up = tournament.status is TournamentStatus.SIGNUP
        changed = ""
        if news.headline == Headline.CHANGED:
            changed = _("The settings of **{name}** changed:", name=display(tournament.name))
        embed = tournament_messages.created_embed(tournament)
        return [(changed, embed, None)] if signing_up else []
    headline = await _headline(table, tournament, news)
    decided = await services.tournaments.pairings_with_ids(tournament.id, news.decided)
    lines = [line for line in (headline, tournament_messages.decided_text(decided)) if line]
    if news.dropped:
        lines.append(tournament_messages.dropped_text(news.dropped))
    if news.cancelled:
        lines.append(tournament_messages.cancelled_text(tournament))
    posts: list[TournamentMessage] = []
    if lines:
        posts.append(("\n".join(lines), None, None))

    def pictures(bracket_only: bool) -> PictureFiles:
        return partial(
            tournament_files,
            services,
            table.draw,
            tournament.id,
            theme="default",
            bracket_only=bracket_only,
        )

    knockout = tournament.format is TournamentFormat.ELIMINATION
    for number in news.rounds:
        begun = await services.tournaments.pairings(tournament.id, number)
        posts.append(
            (
                tournament_messages.round_begins_text(tournament, number),
                tournament_messages.round_embed(tournament, begun),
                pictures(True) if number > 1 or knockout else None,
            )
        )
    if news.finished:
        rows = await services.tournaments.standings(tournament.id)
        embed = tournament_messages.standings_embed(tournament, rows)
        posts.append((tournament_messages.finished_text(tournament), embed, pictures(False)))
    return posts


async def _headline(
    table: GameTable, tournament: TournamentView, news: TournamentNews
) -> str | None:
    """The news's first line: what happened to the tournament or to one of its players (None
    for news of rounds and results alone)."""
    if not news.headline:
        return None
    entry = table.services.entry
    headline = Headline(news.headline)
    match headline:
        case Headline.CHECKIN_OPEN:
            return tournament_messages.checkin_open_text(await entry.state(tournament.id))
        case Headline.CHECKIN_REMINDER:
            return tournament_messages.checkin_reminder_text(await entry.state(tournament.id))
        case Headline.LATE_ENTRY:
            assert news.player_id is not None
            first = await entry.first_round(tournament.id, news.player_id)
            return tournament_messages.late_entry_text(tournament, news.player_id, first)
        case Headline.REPLACED:
            assert news.player_id is not None and news.other_id is not None
            return tournament_messages.replaced_text(tournament, news.player_id, news.other_id)
        case Headline.CORRECTED:
            log_id = news.log_id
            logged = None if log_id is None else await table.services.corrections.entry(log_id)
            if logged is None:
                return result_messages.corrected_text(tournament)
            return result_messages.correction_news(tournament, logged)
    return tournament_messages.headline_text(tournament, headline, news.player_id)


def register(table: GameTable) -> None:
    table.register(TournamentNews, partial(show_news, table))
