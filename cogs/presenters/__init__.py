"""The presenters: one module for each kind of announcement the outbox carries, each putting
its news into posts through the shared plumbing of :class:`cogs.delivery.table.GameTable`.

A module registers its handlers with :func:`register`; :func:`register_all` registers them all
(other cogs register theirs too: the coins' bidding, the digests, the analyses).
"""

from __future__ import annotations

from cogs.delivery.table import GameTable
from cogs.presenters import (
    analyses,
    boards,
    challenges,
    clocks,
    coins,
    digests,
    endings,
    leagues,
    moves,
    offers,
    pages,
    puzzles,
    seasons,
    starts,
    tournaments,
)


def register_all(table: GameTable) -> None:
    """Let `table` show every kind of announcement presented here."""
    for module in (
        *(challenges, starts, moves, boards, offers, endings, clocks, tournaments, coins, digests),
        analyses,
        leagues,
        seasons,
        puzzles,
        pages,
    ):
        module.register(table)
