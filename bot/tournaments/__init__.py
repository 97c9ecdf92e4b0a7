"""Tournaments. The pure logic, re-exported here, needs no storage or Discord: pairings for each
format (:mod:`~bot.tournaments.pairing`, :mod:`~bot.tournaments.groups`), the standings table
(:mod:`~bot.tournaments.standings`) and seeds (:mod:`~bot.tournaments.seeding`). The services
(:mod:`~bot.tournaments.service`, :mod:`~bot.tournaments.rounds`, :mod:`~bot.tournaments.entry`,
:mod:`~bot.tournaments.corrections`) load results from the database through
:mod:`~bot.tournaments.storage`, call these functions and store what they return.
"""

from bot.tournaments.groups import (
    group_name,
    group_rounds,
    group_tables,
    qualifiers,
    snake_groups,
)
from bot.tournaments.pairing import (
    bracket_slots,
    elimination_round,
    elimination_round_count,
    elimination_winner,
    forbidden_pairs_met,
    round_robin,
    swiss_round,
)
from bot.tournaments.pairing_values import MatchResult, Pairing, Round, TournamentError
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
