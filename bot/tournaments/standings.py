"""Standings from match results: records, scores under both scoring systems, tie-breaks, places.

Both scores are always computed, so a table can show them side by side; ``Scoring.system`` says
which one ranks. Tie-breaks are computed on that ranking score:

- head-to-head: the ranking score earned in matches among exactly the players still tied. It
  separates them only when every two of them have met (otherwise who happened to meet whom would
  decide), so a partial mini-league never ranks anyone.
- Sonneborn-Berger: each opponent's score weighted by the match result (all of it for a match won,
  half for a drawn match, none for a loss).
- Buchholz: the sum of the opponents' scores, once per match; a bye contributes nothing.

A requested bye (a Swiss player who asked to sit a round out) scores
``requested_bye_match_points`` in match points (a drawn match's points, or none, as the organizer
chose) and no game points; it counts in the table's byes like the odd player's bye.

Players still tied after every tie-break share a place (two players in third are both 3rd and the
next is 5th); the table lists them in seed order.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.tournaments.pairing_values import MatchResult, TournamentError, check_players


class ScoringSystem(StrEnum):
    """What ranks the table: the rulebook's multi-game points, or points per match result."""

    GAME_POINTS = "game_points"
    MATCH_POINTS = "match_points"


class TieBreak(StrEnum):
    HEAD_TO_HEAD = "head_to_head"
    SONNEBORN_BERGER = "sonneborn_berger"
    BUCHHOLZ = "buchholz"

    @property
    def label(self) -> str:
        return {
            TieBreak.HEAD_TO_HEAD: "head-to-head",
            TieBreak.SONNEBORN_BERGER: "Sonneborn-Berger",
            TieBreak.BUCHHOLZ: "Buchholz",
        }[self]


DEFAULT_TIE_BREAKS = (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ)


@dataclass(frozen=True, slots=True)
class Scoring:
    """How results turn into scores. A bye counts as a match win in match points by default; in
    game points it scores ``bye_game_points`` (0 by default: game points come from games played).
    A requested bye scores ``requested_bye_match_points`` in match points and none in game points
    (never more than the odd player's bye)."""

    system: ScoringSystem = ScoringSystem.MATCH_POINTS
    match_win: float = 3.0
    match_draw: float = 1.0
    match_loss: float = 0.0
    bye_match_points: float = 3.0
    bye_game_points: int = 0
    requested_bye_match_points: float = 1.0
    tie_breaks: tuple[TieBreak, ...] = DEFAULT_TIE_BREAKS

    def __post_init__(self) -> None:
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise TournamentError("Each tie-break can be listed once.")
        if self.bye_game_points < 0:
            raise TournamentError("A bye cannot score negative game points.")

    def match_points(self, result: MatchResult, player: int) -> float:
        if result.winner is None:
            return self.match_draw
        return self.match_win if result.winner == player else self.match_loss

    def ranking_points(self, result: MatchResult, player: int) -> float:
        """What one match adds to ``player``'s ranking score."""
        if self.system is ScoringSystem.GAME_POINTS:
            return result.points_of(player)
        return self.match_points(result, player)

    def bye_points(self) -> float:
        if self.system is ScoringSystem.GAME_POINTS:
            return self.bye_game_points
        return self.bye_match_points

    def requested_bye_points(self) -> float:
        if self.system is ScoringSystem.GAME_POINTS:
            return 0
        return self.requested_bye_match_points


DEFAULT_SCORING = Scoring()


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the table. ``played`` counts matches (byes apart); ``score`` is the ranking score
    and ``tie_breaks`` line up with ``Scoring.tie_breaks``."""

    place: int
    player: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    game_points: int
    match_points: float
    score: float
    tie_breaks: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class _Records:
    """Each player's matches, odd-player byes and requested byes."""

    matches: dict[int, list[MatchResult]]
    byes: dict[int, int]
    requested: dict[int, int]

    def score(self, player: int, scoring: Scoring) -> float:
        return (
            sum(scoring.ranking_points(m, player) for m in self.matches[player])
            + self.byes[player] * scoring.bye_points()
            + self.requested[player] * scoring.requested_bye_points()
        )


def _by_player(
    players: Sequence[int],
    results: Iterable[MatchResult],
    byes: Iterable[int],
    requested_byes: Iterable[int],
) -> _Records:
    """Each player's matches and byes, refusing results for players not in the field."""
    records = _Records(
        {p: [] for p in players}, dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    )
    for result in results:
        for player in (result.player1, result.player2):
            if player not in records.matches:
                raise TournamentError(f"Player {player} has a result but is not in the field.")
            records.matches[player].append(result)
    for counts, given in ((records.byes, byes), (records.requested, requested_byes)):
        for player in given:
            if player not in counts:
                raise TournamentError(f"Player {player} has a bye but is not in the field.")
            counts[player] += 1
    return records


def ranking_scores(
    players: Sequence[int],
    results: Iterable[MatchResult],
    byes: Iterable[int] = (),
    scoring: Scoring = DEFAULT_SCORING,
    requested_byes: Iterable[int] = (),
) -> dict[int, float]:
    """Every player's ranking score (what Swiss pairing groups players by)."""
    records = _by_player(players, results, byes, requested_byes)
    return {p: records.score(p, scoring) for p in records.matches}


def compute_standings(
    players: Sequence[int],
    results: Iterable[MatchResult],
    byes: Iterable[int] = (),
    scoring: Scoring = DEFAULT_SCORING,
    requested_byes: Iterable[int] = (),
) -> list[Standing]:
    """The table for ``players`` (seed order; everyone appears, withdrawn players included).
    ``byes`` are the odd player's byes, ``requested_byes`` those players asked for; a player
    appears once per bye."""
    field = check_players(players)
    records = _by_player(field, results, byes, requested_byes)
    matches = records.matches
    scores = {p: records.score(p, scoring) for p in field}
    opponents = {p: {m.opponent(p) for m in own} for p, own in matches.items()}

    def tie_break(kind: TieBreak, player: int, tied: frozenset[int]) -> float:
        own = matches[player]
        if kind is TieBreak.BUCHHOLZ:
            return sum(scores[m.opponent(player)] for m in own)
        if kind is TieBreak.SONNEBORN_BERGER:
            return sum(scores[m.opponent(player)] * m.fraction_of(player) for m in own)
        if len(tied) == 1 or any(not tied - {p} <= opponents[p] for p in tied):
            return 0.0
        return sum(scoring.ranking_points(m, player) for m in own if m.opponent(player) in tied)

    values: dict[int, list[float]] = {p: [] for p in field}

    def split(group: list[int], depth: int) -> list[list[int]]:
        """``group`` (tied so far) broken up by the tie-breaks from ``depth`` on, best first.
        Each value is recorded as computed among the players tied when it was applied."""
        if depth == len(scoring.tie_breaks):
            return [group]
        tied = frozenset(group)
        kind = scoring.tie_breaks[depth]
        for p in group:
            values[p].append(tie_break(kind, p, tied))
        ordered: list[list[int]] = []
        for value in sorted({values[p][depth] for p in group}, reverse=True):
            ordered.extend(split([p for p in group if values[p][depth] == value], depth + 1))
        return ordered

    seed = {p: i for i, p in enumerate(field)}
    groups: list[list[int]] = []
    for score in sorted(set(scores.values()), reverse=True):
        groups.extend(
            split(sorted((p for p in field if scores[p] == score), key=seed.__getitem__), 0)
        )

    table: list[Standing] = []
    for group in groups:
        place = len(table) + 1
        for player in group:
            own = matches[player]
            bye_count = records.byes[player] + records.requested[player]
            won = sum(1 for m in own if m.winner == player)
            drawn = sum(1 for m in own if m.winner is None)
            table.append(
                Standing(
                    place=place,
                    player=player,
                    played=len(own),
                    won=won,
                    drawn=drawn,
                    lost=len(own) - won - drawn,
                    byes=bye_count,
                    game_points=sum(m.points_of(player) for m in own)
                    + records.byes[player] * scoring.bye_game_points,
                    match_points=sum(scoring.match_points(m, player) for m in own)
                    + records.byes[player] * scoring.bye_match_points
                    + records.requested[player] * scoring.requested_bye_match_points,
                    score=scores[player],
                    tie_breaks=tuple(values[player]),
                )
            )
    return table


def _number(value: float) -> str:
    """Whole numbers without a trailing ``.0``; halves and the like as they are."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def standings_csv(
    table: Sequence[Standing],
    scoring: Scoring = DEFAULT_SCORING,
    names: Mapping[int, str] | None = None,
) -> str:
    """The table as CSV text (RFC 4180, a header row first) for organizers' spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out)
    header = ["Place", "Player ID"]
    if names is not None:
        header.append("Name")
    header += ["Played", "Won", "Drawn", "Lost", "Byes", "Game points", "Match points"]
    header += [kind.label for kind in scoring.tie_breaks]
    writer.writerow(header)
    for row in table:
        cells = [str(row.place), str(row.player)]
        if names is not None:
            cells.append(names.get(row.player, ""))
        cells += [str(n) for n in (row.played, row.won, row.drawn, row.lost, row.byes)]
        cells += [str(row.game_points), _number(row.match_points)]
        cells += [_number(value) for value in row.tie_breaks]
        writer.writerow(cells)
    return out.getvalue()
