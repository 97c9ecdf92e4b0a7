"""The words of team leagues: the schedule, each round's boards, results, rosters and the
table."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.languages import _, ngettext, numeral
from bot.leagues.model import BoardView, LeagueStatus, LeagueView, MatchView, RoundView, TeamView
from bot.leagues.scoring import TeamStanding
from cogs.words.formatting import display, mention, timestamp

MAX_DESCRIPTION = 4096


def _points(halves: int) -> str:
    return numeral(halves / 2)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 2] + "\n…"


def created_text(league: LeagueView) -> str:
    every = ngettext("{count} day between rounds", "{count} days between rounds", league.round_days)
    text = _(
        "**{name}** is created: {boards} boards a match, {every}. Add teams with "
        "`/organize league addteam`, then start it with `/organize league start`.",
        name=display(league.name),
        boards=league.boards,
        every=every,
    )
    if league.legs == 2:
        text += " " + _("Each pair of teams meets twice, home and away swapped.")
    return text


def roster_text(team: TeamView) -> str:
    """A team and its players, the captain first."""
    players = ", ".join(display(p.name) for p in team.roster)
    return _(
        "**{team}** (captain {captain}): {players}.",
        team=display(team.name),
        captain=display(team.captain.name),
        players=players,
    )


def match_title(match: MatchView) -> str:
    if match.away_name is None:
        return _("**{team}** has a bye.", team=display(match.home_name))
    home, away = match.halves
    if not any(board.decided for board in match.boards):
        return _(
            "**{home}** vs **{away}**", home=display(match.home_name), away=display(match.away_name)
        )
    return _(
        "**{home}** {home_points}–{away_points} **{away}**",
        home=display(match.home_name),
        away=display(match.away_name),
        home_points=_points(home),
        away_points=_points(away),
    )


def board_line(board: BoardView) -> str:
    """One board: who plays whom with which colour, its game, or the forfeit."""
    if board.home is None or board.away is None:
        if board.home is None and board.away is None:
            return _("Board {board}: nobody on either side.", board=board.board)
        present = board.home or board.away
        assert present is not None
        return _(
            "Board {board}: {player} wins by forfeit (no player opposite).",
            board=board.board,
            player=mention(present),
        )
    white, black = (board.home, board.away) if board.home_white else (board.away, board.home)
    line = _(
        "Board {board}: {white} (white) vs {black} (black), game #{game}",
        board=board.board,
        white=mention(white),
        black=mention(black),
        game=board.game_id,
    )
    if board.decided:  # the score in the order the players are named
        halves = (board.home_halves, board.away_halves)
        white_halves, black_halves = halves if board.home_white else halves[::-1]
        line += f" — {_points(white_halves)}–{_points(black_halves)}"
    return line


def board_anchor_text(league: LeagueView, match: MatchView, board: BoardView) -> str:
    """The line a league game's thread hangs from."""
    return _(
        "{name}, round {round}, {match}: {line}",
        name=display(league.name),
        round=match.round,
        match=match_title(match),
        line=board_line(board),
    )


def match_text(match: MatchView) -> str:
    return "\n".join([match_title(match), *(board_line(b) for b in match.boards)])


def round_title(league: LeagueView, number: int) -> str:
    return _("{name}: round {round}", name=display(league.name), round=number)


def round_embed(league: LeagueView, number: int, matches: list[MatchView]) -> discord.Embed:
    """A round's matches, with their boards once they are made."""
    description = "\n\n".join(match_text(m) for m in matches) or _("No matches.")
    return discord.Embed(title=round_title(league, number), description=_cut(description))


def schedule_embed(
    league: LeagueView, rounds: list[RoundView], matches: list[MatchView]
) -> discord.Embed:
    """Every round's matches and when its lineups are due."""
    parts = []
    for round_view in rounds:
        due = _(
            "**Round {round}**: lineups due {when}",
            round=round_view.number,
            when=timestamp(round_view.lineup_deadline),
        )
        lines = [match_title(m) for m in matches if m.round == round_view.number]
        parts.append("\n".join([due, *lines]))
    title = _("{name}: the schedule", name=display(league.name))
    return discord.Embed(title=title, description=_cut("\n\n".join(parts)))


def started_text(league: LeagueView) -> str:
    return _(
        "**{name}** has started. Captains: set your lineup with `/league lineup` before each "
        "round's deadline, or your best-rated players play.",
        name=display(league.name),
    )


def round_begins_text(league: LeagueView, number: int) -> str:
    return _(
        "The lineups of **{round}** are in: the games begin.",
        round=round_title(league, number),
    )


def decided_text(league: LeagueView, matches: list[MatchView]) -> str:
    lines = [
        _(
            "{name}, round {round}: {match}",
            name=display(league.name),
            round=m.round,
            match=match_title(m),
        )
        for m in matches
    ]
    return "\n".join(lines)


def standings_embed(league: LeagueView, rows: list[tuple[TeamStanding, TeamView]]) -> discord.Embed:
    """The table: place, team, matches won-drawn-lost, match points, game points."""
    team, record, match_points, game_points = _("Team"), _("W-D-L"), _("MP"), _("GP")
    width = min(max([len(team), *(len(t.name) for _row, t in rows)]), 24)
    head = f"{'#':>2} {team:<{width}} {record:>7} {match_points:>3} {game_points:>5}"
    lines = [head]
    for row, of in rows:
        won_drawn_lost = f"{row.won}-{row.drawn}-{row.lost}"
        lines.append(
            f"{row.place:>2} {of.name[:width]:<{width}} {won_drawn_lost:>7} {row.match_points:>3} "
            f"{_points(row.game_halves):>5}"
        )
    name = display(league.name)
    match league.status:
        case LeagueStatus.SIGNUP:
            title = _("{name}: standings (adding teams)", name=name)
        case LeagueStatus.RUNNING:
            title = _("{name}: standings", name=name)
        case LeagueStatus.FINISHED if league.cancelled:
            title = _("{name}: standings (cancelled)", name=name)
        case LeagueStatus.FINISHED:
            title = _("{name}: standings (final)", name=name)
    embed = discord.Embed(
        title=title,
        description=_cut("```\n" + "\n".join(lines) + "\n```"),
    )
    embed.set_footer(text=_("MP: match points (2 a win, 1 a draw). GP: game points."))
    return embed


def reminder_text(
    league: LeagueView, number: int, deadline: datetime, captains: Sequence[int]
) -> str:
    """The captains who have set no lineup for the round, mentioned."""
    return _(
        "⏰ {captains}: your lineup for **{round}** is due {when}. Set it with `/league lineup`, "
        "or your best-rated players play.",
        captains=", ".join(mention(c) for c in captains),
        round=round_title(league, number),
        when=timestamp(deadline),
    )


def cancelled_text(league: LeagueView) -> str:
    return _(
        "**{name}** is cancelled by its organizers: its games in progress are stopped.",
        name=display(league.name),
    )


def stopped_text(league: LeagueView, game_id: int) -> str:
    """Under a league game stopped by the league's cancellation."""
    return _(
        "Game #{game} is stopped: {name} was cancelled. It is not rated or counted; its moves "
        "are kept.",
        game=game_id,
        name=display(league.name),
    )


def finished_text(league: LeagueView, rows: list[tuple[TeamStanding, TeamView]]) -> str:
    first = [team for row, team in rows if row.place == 1]
    name = display(league.name)
    if len(first) != 1:
        return _("🏆 **{name}** is over: first place is shared.", name=name)
    return _("🏆 **{name}** is over: **{team}** wins!", name=name, team=display(first[0].name))
