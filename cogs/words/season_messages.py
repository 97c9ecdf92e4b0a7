"""The words of seasons (`/organize season`, `/season`, and their news): a league's settings,
sign-ups, the divisions of a season that starts, who goes up and down at its end, its tables and
the hall of fame."""

from __future__ import annotations

from collections import defaultdict

import discord

from bot.languages import _, ngettext
from bot.seasons.league import Honour, LeagueView, Move, SeasonStatus, SeasonView
from bot.seasons.service import DivisionTable, Leaving
from bot.tournaments.tournament import TournamentFormat
from cogs.words.formatting import display, mention, timestamp
from cogs.words.tournament_messages import MAX_DESCRIPTION, standings_table


def settings_text(league: LeagueView) -> str:
    """A league's settings in one line."""
    rules, setup = league.rules, league.setup
    pairing = _("round robin") if rules.format is TournamentFormat.ROUND_ROBIN else _("Swiss")
    return _(
        "divisions of about {size} players, {pairing}, one round every {days} days, "
        "{movers} up and down, {games} games a pairing, {board}x{board} with {days_per_move} "
        "days a move",
        size=rules.division_size,
        pairing=pairing,
        days=rules.period_days,
        movers=rules.movers,
        games=rules.games_per_match,
        board=setup.size,
        days_per_move=setup.days_per_move,
    )


def created_text(league: LeagueView) -> str:
    return _(
        "**{name}** is ready: {settings}. Players sign up with `/season join`; start season 1 "
        "with `/organize season start`.",
        name=display(league.name),
        settings=settings_text(league),
    )


def changed_text(league: LeagueView) -> str:
    return _(
        "The settings of **{name}** are changed, from the next season on: {settings}.",
        name=display(league.name),
        settings=settings_text(league),
    )


def joined_text(league: LeagueView, season: SeasonView) -> str:
    if season.due_at is not None:
        return _(
            "You are in season {number} of **{name}**; it starts {when}.",
            number=season.number,
            name=display(league.name),
            when=timestamp(season.due_at),
        )
    return _(
        "You are in season {number} of **{name}**; it starts when an organizer starts it.",
        number=season.number,
        name=display(league.name),
    )


def left_text(league: LeagueView, leaving: Leaving) -> str:
    lines = []
    if leaving.withdrawn is not None:
        lines.append(
            _(
                "You have withdrawn from **{division}**: your later matches are forfeited.",
                division=display(leaving.withdrawn.tournament.name),
            )
        )
    if leaving.signup is not None:
        lines.append(
            _(
                "You are no longer signed up for season {number} of **{name}**.",
                number=leaving.signup.number,
                name=display(league.name),
            )
        )
    return "\n".join(lines)


def started_text(league: LeagueView, season: SeasonView) -> str:
    return _(
        "Season {number} of **{name}** has started: {settings}. Round 1 is paired; the next "
        "round is paired {when}.",
        number=season.number,
        name=display(league.name),
        settings=settings_text(league),
        when=timestamp(season.due_at) if season.due_at else "",
    )


def round_closed_text(league: LeagueView, season: SeasonView) -> str:
    if season.due_at is None:
        return _(
            "Season {number} of **{name}** is over.",
            number=season.number,
            name=display(league.name),
        )
    return _(
        "The round is closed and the next one paired; its deadline is {when}.",
        when=timestamp(season.due_at),
    )


def round_paired_text(league: LeagueView, season: SeasonView) -> str:
    """A period ended: the next round of every division is paired (their posts follow)."""
    return _(
        "⏰ Season {number} of **{name}**: the round's deadline has passed and the next round is "
        "paired in every division; its deadline is {when}.",
        number=season.number,
        name=display(league.name),
        when=timestamp(season.due_at) if season.due_at else "",
    )


def divisions_embed(season: SeasonView, divisions: dict[int, list[int]]) -> discord.Embed:
    """Who plays in each division of a season that starts."""
    embed = discord.Embed(title=_("Season {number}: the divisions", number=season.number))
    for number, players in sorted(divisions.items()):
        embed.add_field(
            name=_("Division {number}", number=number),
            value=", ".join(mention(p) for p in players)[:1024],
            inline=False,
        )
    return embed


def finished_text(league: LeagueView, season: SeasonView, moves: list[Move]) -> str:
    """The season's end: each division's winner, who goes up and who goes down."""
    lines = [
        _(
            "🏁 Season {number} of **{name}** is over.",
            number=season.number,
            name=display(league.name),
        )
    ]
    for move in moves:
        if move.place == 1:
            lines.append(
                _(
                    "🏆 Division {division}: {player} wins.",
                    division=move.division,
                    player=mention(move.player),
                )
            )
    up = [m for m in moves if m.next_division < m.division]
    down = [m for m in moves if m.next_division > m.division]
    if up:
        lines.append(_("⬆️ Promoted: {players}.", players=", ".join(_moved(m) for m in up)))
    if down:
        lines.append(_("⬇️ Relegated: {players}.", players=", ".join(_moved(m) for m in down)))
    lines.append(
        _(
            "Everyone still in is signed up for the next season; `/season leave` to stop, "
            "`/season join` to come in."
        )
    )
    return "\n".join(lines)


def _moved(move: Move) -> str:
    return _(
        "{player} (to division {division})",
        player=mention(move.player),
        division=move.next_division,
    )


def waiting_text(league: LeagueView, season: SeasonView) -> str:
    return _(
        "Season {number} of **{name}** cannot start: fewer than two players have signed up. "
        "Sign up with `/season join`; an organizer starts it with `/organize season start`.",
        number=season.number,
        name=display(league.name),
    )


def standings_embed(
    league: LeagueView, season: SeasonView, tables: list[DivisionTable]
) -> discord.Embed:
    """A season's tables, one a division, each as its tournament's."""
    parts = []
    for table in tables:
        heading = _("Division {number}", number=table.division.number)
        body = standings_table(table.tournament, table.rows) if table.rows else ""
        parts.append(f"**{heading}**\n{body}")
    description = "\n".join(parts)
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 8] + "\n…\n```"
    if season.status is SeasonStatus.FINISHED:
        title = _(
            "{name}, season {number}: final standings",
            name=display(league.name),
            number=season.number,
        )
    else:
        title = _(
            "{name}, season {number}: standings", name=display(league.name), number=season.number
        )
    embed = discord.Embed(title=title, description=description)
    embed.set_footer(text=_("Score: match points. GP: game points."))
    return embed


def hall_of_fame_embed(league: LeagueView, honours: list[Honour]) -> discord.Embed:
    embed = discord.Embed(title=_("{name}: hall of fame", name=display(league.name)))
    if not honours:
        embed.description = _("No season has finished yet.")
        return embed
    by_season: dict[int, list[Honour]] = defaultdict(list)
    for honour in honours:
        by_season[honour.season].append(honour)
    lines = []
    for number, winners in by_season.items():
        names = ", ".join(
            _("division {division}: {player}", division=h.division, player=display(h.player.name))
            for h in winners
        )
        lines.append(_("Season {number}: {winners}", number=number, winners=names))
    embed.description = "\n".join(lines)[:MAX_DESCRIPTION]
    count = len(by_season)
    embed.set_footer(text=ngettext("{count} season", "{count} seasons", count))
    return embed
