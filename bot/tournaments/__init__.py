"""Tournament logic without storage or Discord: pairings for each format and the standings table.

The tournament service loads results from the database, calls these functions and stores what
they return.
"""

from bot.tournaments.groups import (
    group_name,
    group_rounds,
    group_tables,
    qualifiers,
    snake_groups,
)
from bot.tournaments.model import MatchResult, Pairing, Round, TournamentError
from bot.tournaments.pairing import (
    bracket_slots,
    elimination_round,
    elimination_round_count,
    elimination_winner,
    forbidden_pairs_met,
    round_robin,
    swiss_round,
)
from bot.tournaments.standings import (
    DEFAULT_SCORING,
    DEFAULT_TIE_BREAKS,
    Scoring,
    ScoringSystem,
    Standing,
    TieBreak,
    compute_standings,
    ranking_scores,
    standings_csv,
)

__all__ = [
    "DEFAULT_SCORING",
    "DEFAULT_TIE_BREAKS",
    "MatchResult",
    "Pairing",
    "Round",
    "Scoring",
    "ScoringSystem",
    "Standing",
    "TieBreak",
    "TournamentError",
    "bracket_slots",
    "compute_standings",
    "elimination_round",
    "elimination_round_count",
    "elimination_winner",
    "forbidden_pairs_met",
    "group_name",
    "group_rounds",
    "group_tables",
    "qualifiers",
    "ranking_scores",
    "round_robin",
    "snake_groups",
    "standings_csv",
    "swiss_round",
]
