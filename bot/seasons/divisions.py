"""The pure rules of a season: the order players are cut into divisions, the cut, and who goes up
and down from the final tables.

- Order: players who played last season first, by the division they earned there (promotions
  and relegations carried), then by rating; newcomers after them by rating; unrated players
  last; ties keep the order they signed up in.
- The cut: as many divisions as the field holds `size` players, rounded to the nearest (at least
  one); sizes as even as possible, the larger ones on top.
- Moves: the top `movers` of every division but the top go up one, the bottom `movers` of every
  division but the last go down one; two neighbouring divisions swap as many each way, at most
  half of the smaller one (rounded down), so every division keeps its size. Everyone else stays.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments import MatchResult, Scoring, Standing, compute_standings


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player signed up for a season, in sign-up order."""

    player: int
    earned_division: int | None  # 1 the top; None for a newcomer
    rating: float | None  # on the league's board size; None: unrated


def season_order(candidates: Sequence[Candidate]) -> list[int]:
    """The field best first (see the module's rules)."""

    def key(entry: tuple[int, Candidate]) -> tuple[int, int, float, int]:
        position, candidate = entry
        returning = candidate.earned_division
        rating = candidate.rating
        return (
            0 if returning is not None else 1,
            returning or 0,
            -rating if rating is not None else float("inf"),
            position,
        )

    return [c.player for _, c in sorted(enumerate(candidates), key=key)]


def divide(ordered: Sequence[int], size: int) -> list[list[int]]:
    """The field (best first) cut into divisions, the top one first."""
    count = max(1, (len(ordered) + size // 2) // size)
    base, extra = divmod(len(ordered), count)
    divisions, start = [], 0
    for number in range(count):
        end = start + base + (1 if number < extra else 0)
        divisions.append(list(ordered[start:end]))
        start = end
    return divisions


def movements(tables: Sequence[Sequence[int]], movers: int) -> dict[int, int]:
    """Each player's division next season (1 the top), from the final tables (the top
    division's first, each best first)."""
    placed = {player: number for number, table in enumerate(tables, start=1) for player in table}
    for number, (upper, lower) in enumerate(itertools.pairwise(tables), start=1):
        swapped = exchanged(len(upper), len(lower), movers)
        for player in upper[len(upper) - swapped :]:
            placed[player] = number + 1
        for player in lower[:swapped]:
            placed[player] = number
    return placed


def exchanged(upper: int, lower: int, movers: int) -> int:
    """How many players two neighbouring divisions of these sizes swap: `movers`, at most half
    of either (rounded down), so both keep their size."""
    return min(movers, upper // 2, lower // 2)


@dataclass(frozen=True, slots=True)
class DivisionPlay:
    """A division's seeded field and what was played in it, as the standings take them."""

    seeded: Sequence[int]
    results: Sequence[MatchResult]
    byes: Sequence[int] = ()
    requested_byes: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class SeasonOutcome:
    tables: list[list[Standing]]  # each division's final table, the top division's first
    next_division: Mapping[int, int]  # each player's division next season


def season_outcome(
    divisions: Sequence[DivisionPlay], scoring: Scoring, movers: int
) -> SeasonOutcome:
    """The final tables of a season's divisions and where their players go next."""
    tables = [
        compute_standings(d.seeded, d.results, d.byes, scoring, d.requested_byes) for d in divisions
    ]
    ranked = [[row.player for row in table] for table in tables]
    return SeasonOutcome(tables, movements(ranked, movers))
