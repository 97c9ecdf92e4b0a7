"""A league's table as the standings picture's data (:mod:`rendering.standings`, the one that
draws tournaments' tables): teams by place, match points, game points as the tie-break column,
and a cross table of the game points each team scored against each other (both meetings of a
double round robin added up, their outcome by that sum). Its words are those of the language
being spoken when it is built."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.languages import _
from bot.leagues.model import LeagueStatus, LeagueView, MatchView, TeamView
from bot.leagues.scoring import TeamStanding
from bot.tournaments.pictures import standings_words
from rendering.standings import (
    CrossCell,
    Outcome,
    StandingsRow,
    StandingsTable,
    TieBreakColumn,
)


def _stage(league: LeagueView, matches: Sequence[MatchView]) -> str:
    if league.cancelled:
        return _("cancelled")
    if league.status is LeagueStatus.FINISHED:
        return _("final")
    played = {m.round for m in matches if m.boards}
    if not played:
        return _("before the start")
    return _("round {round}", round=max(played))


def league_standings_table(
    league: LeagueView,
    rows: Sequence[tuple[TeamStanding, TeamView]],
    matches: Sequence[MatchView],
) -> StandingsTable:
    """The league's table as a picture's data (a league has at least two teams to start, so
    the caller shows no picture for fewer)."""
    order = {team.id: index for index, (_row, team) in enumerate(rows)}
    scored: dict[tuple[int, int], int] = {}  # (team, opponent): halves
    for match in matches:
        if match.away_id is None or not match.decided:
            continue
        home, away = match.halves
        for team, opponent, halves in (
            (match.home_id, match.away_id, home),
            (match.away_id, match.home_id, away),
        ):
            scored[(team, opponent)] = scored.get((team, opponent), 0) + halves
    cross: list[list[CrossCell | None]] = [[None] * len(rows) for _row in rows]
    for (team, opponent), halves in scored.items():
        against = scored[(opponent, team)]
        outcome = (
            Outcome.WIN if halves > against else Outcome.LOSS if halves < against else Outcome.DRAW
        )
        cross[order[team]][order[opponent]] = CrossCell(halves / 2, outcome)
    size = f"{league.size}x{league.size}"
    return StandingsTable(
        title=league.name,
        rows=tuple(
            StandingsRow(
                place=row.place,
                name=team.name,
                points=row.match_points,
                won=row.won,
                drawn=row.drawn,
                lost=row.lost,
                tie_breaks=(row.game_points,),
                cross=tuple(cross[index]),
            )
            for index, (row, team) in enumerate(rows)
        ),
        tie_breaks=(TieBreakColumn(_("GP"), _("game points")),),
        subtitle=_(
            "Standings, {stage} · {size} · ranked by match points, then game points",
            stage=_stage(league, matches),
            size=size,
        ),
        points_heading=_("MP"),
        words=replace(standings_words(), player=_("Team")),
    )
