"""Tournament, rating and statistics pictures as Discord attachments.

The data comes from :class:`bot.tournaments.pictures.PictureService`; the drawing runs in a worker
thread through `draw` (:meth:`cogs.delivery.table.GameTable.draw`, which bounds how many run at
once).
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable

import discord

from bot.leagues.pictures import league_standings_table
from bot.players.model import PlayerRef
from bot.services import Services
from rendering.bracket import bracket_pictures, render_bracket
from rendering.chart import render_rating_history
from rendering.pairings import render_pairings
from rendering.standings import render_standings
from rendering.statistics import StatisticsCard, render_statistics

Draw = Callable[..., Awaitable[bytes]]

STANDINGS_FILE = "standings.png"
STATISTICS_FILE = "statistics.png"
BRACKET_FILE = "bracket.png"
PAIRINGS_FILE = "pairings.png"
MAX_FILES = 10  # Discord's most attachments on one message


def _file(png: bytes, filename: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=filename)


async def tournament_files(
    services: Services, draw: Draw, tournament_id: int, *, theme: str, bracket_only: bool = False
) -> list[discord.File]:
    """A knockout's bracket, then the standings table (unless `bracket_only` and there is a
    bracket); none before two players have joined. A groups -> knockout event shows each group's
    table (standings-a.png ...), then its bracket once the groups are over (the bracket alone
    with `bracket_only`). A bracket of more than 16 players comes as one picture per section
    and one of the last rounds (bracket-1.png ...), or whole where those and the tables would
    be more files than a message holds."""
    shown = await services.pictures.tournament(tournament_id)
    files = []
    tables = (
        shown.groups if shown.groups and not (bracket_only and shown.bracket is not None) else []
    )
    standings = None if bracket_only and shown.bracket is not None else shown.standings
    if shown.bracket is not None:
        parts = bracket_pictures(shown.bracket)
        if len(parts) + len(tables) + (standings is not None) > MAX_FILES:
            parts = (shown.bracket,)
        for number, part in enumerate(parts, 1):
            name = BRACKET_FILE if len(parts) == 1 else f"bracket-{number}.png"
            files.append(_file(await draw(render_bracket, part, theme), name))
    if tables:
        drawn = [
            _file(await draw(render_standings, table, theme), f"standings-{letter}.png")
            for letter, table in zip("abcdefgh", tables, strict=False)
        ]
        files = drawn + files
    if standings is not None:
        files.append(_file(await draw(render_standings, standings, theme), STANDINGS_FILE))
    return files


async def league_standings_file(
    services: Services, draw: Draw, league_id: int, *, theme: str
) -> discord.File | None:
    """A league's table as a picture; None before it has two teams."""
    league = await services.leagues.get(league_id)
    rows = await services.leagues.standings(league_id)
    if len(rows) < 2:
        return None
    matches = await services.leagues.matches(league_id)
    table = league_standings_table(league, rows, matches)
    return _file(await draw(render_standings, table, theme), STANDINGS_FILE)


async def pairings_file(
    services: Services, draw: Draw, tournament_id: int, number: int | None, *, theme: str
) -> discord.File:
    shown = await services.pictures.round(tournament_id, number)
    return _file(await draw(render_pairings, shown, theme), PAIRINGS_FILE)


async def rating_file(
    services: Services, draw: Draw, guild_id: int, player: PlayerRef, size: int, *, theme: str
) -> discord.File | None:
    """The player's rating history on `size` as a chart; None without a rated game there."""
    history = await services.pictures.rating_history(guild_id, player.id, player.name, size)
    if not history.points:
        return None
    png = await draw(render_rating_history, history, theme)
    return _file(png, f"rating-{size}x{size}.png")


async def statistics_file(draw: Draw, card: StatisticsCard, *, theme: str) -> discord.File:
    """A player's statistics (`/profile stats`) as a picture."""
    return _file(await draw(render_statistics, card, theme), STATISTICS_FILE)
