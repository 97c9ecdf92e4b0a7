"""The pure rules of a team league: who sits on which board, the colours, what a board and a
match score, and the standings.

Points are counted in halves (a won board 2, a drawn board 1) so that they stay integers. A team
match is won by the team with more game points (match points 2, a drawn match 1 each, a loss 0);
the standings rank by match points, then game points; teams level on both share a place, listed
in the order given. A bye scores nothing: in a round robin every team has the same number of
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2, 1, 0


def home_plays_white(board: int) -> bool:
    """Colours alternate by board: the home team has white on board 1, black on board 2, ..."""
    return board % 2 == 1


def default_lineup(roster: Sequence[tuple[int, float]], boards: int) -> list[int]:
    """A team's lineup when its captain set none: the roster's `boards` best by rating, best
    first (roster order among equal ratings). `roster`: (player, rating) in roster order."""
    ranked = sorted(range(len(roster)), key=lambda i: (-roster[i][1], i))
    return [roster[i][0] for i in ranked[:boards]]


@dataclass(frozen=True, slots=True)
class Seat:
    """One board of a team match: who plays for each side (None: nobody, the board forfeited)."""

    board: int
    home: int | None
    away: int | None

    @property
    def forfeit_halves(self) -> tuple[int, int] | None:
        """The board's score when a side has nobody (a win for the side present, nothing when
        both are missing); None when it is played."""
        if self.home is not None and self.away is not None:
            return None
        return (2 if self.home is not None else 0, 2 if self.away is not None else 0)


def seat(boards: int, home: Sequence[int | None], away: Sequence[int | None]) -> list[Seat]:
    """The boards of a match from the two lineups, board 1 first (None: a missing player); a
    lineup shorter than the match leaves its last boards empty."""

    def at(lineup: Sequence[int | None], index: int) -> int | None:
        return lineup[index] if index < len(lineup) else None

    return [Seat(b + 1, at(home, b), at(away, b)) for b in range(boards)]


def board_halves(winner_is_home: bool | None) -> tuple[int, int]:
    """A played board's score in halves: 2-0 for the winner, 1-1 for a draw (None)."""
    if winner_is_home is None:
        return (1, 1)
    return (2, 0) if winner_is_home else (0, 2)


def match_points(own_halves: int, other_halves: int) -> int:
    if own_halves > other_halves:
        return MATCH_WIN
    return MATCH_DRAW if own_halves == other_halves else MATCH_LOSS


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A decided team match between two teams, in game points (halves)."""

    home: int
    away: int
    home_halves: int
    away_halves: int


@dataclass(frozen=True, slots=True)
class TeamStanding:
    place: int
    team: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    game_halves: int

    @property
    def game_points(self) -> float:
        return self.game_halves / 2


def standings(teams: Sequence[int], matches: Iterable[MatchScore]) -> list[TeamStanding]:
    """The table: match points, then game points; teams level on both share a place (the next
    place counts them all: two second, then fourth)."""
    record = {team: [0, 0, 0, 0, 0] for team in teams}  # won, drawn, lost, match pts, halves
    for match in matches:
        for team, own, other in (
            (match.home, match.home_halves, match.away_halves),
            (match.away, match.away_halves, match.home_halves),
        ):
            points = match_points(own, other)
            row = record[team]
            row[(MATCH_WIN, MATCH_DRAW, MATCH_LOSS).index(points)] += 1
            row[3] += points
            row[4] += own
    order = sorted(teams, key=lambda t: (-record[t][3], -record[t][4]))
    table: list[TeamStanding] = []
    for index, team in enumerate(order):
        won, drawn, lost, points, halves = record[team]
        place = index + 1
        if table and (table[-1].match_points, table[-1].game_halves) == (points, halves):
            place = table[-1].place
        table.append(
            TeamStanding(place, team, won + drawn + lost, won, drawn, lost, points, halves)
        )
    return table
