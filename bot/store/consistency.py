"""What must agree between tables, whichever engine keeps them: the rules the schema's triggers
keep while Bredon writes (a balance moves only with its ledger, a game's ply only with its move
log), checked afresh over the whole database by ``python -m bot check`` and after
``python -m bot copy``. Each check counts the rows that break its rule; the SQL is common to
SQLite and PostgreSQL and takes no parameters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConsistencyCheck:
    broken: str  # what the rows it counts are, after their number
    tables: tuple[str, ...]  # the tables it reads: an older schema may lack them
    query: str
    versions: range = range(1, 10_000)  # the schema versions whose columns the query reads


PLY_RULE = "game(s) whose ply is not where their live (not undone) moves lead"
TPS_STARTS = 16  # the schema version that gave games a start position (0016_tps_starts.sql)

CONSISTENCY_CHECKS = (
    ConsistencyCheck(
        "wallet balance(s) not the sum of their ledger rows",
        ("wallets", "ledger"),
        "SELECT COUNT(*) FROM wallets w WHERE w.balance != (SELECT COALESCE(SUM(l.amount), 0) "
        "FROM ledger l WHERE l.guild_id = w.guild_id AND l.player_id = w.player_id)",
    ),
    ConsistencyCheck(
        "staked game pot(s) not the sum of their ledger rows",
        ("stakes", "ledger"),
        "SELECT COUNT(*) FROM stakes s WHERE s.pot != (SELECT COALESCE(SUM(l.amount), 0) "
        "FROM ledger l WHERE l.stake_id = s.id AND l.player_id IS NULL)",
    ),
    ConsistencyCheck(
        # A game from a set position (start_tps, schema 16 on) starts at that position's ply
        # with no move: its live moves, if any, run without a gap up to its ply.
        PLY_RULE,
        ("games", "moves"),
        "SELECT COUNT(*) FROM games g LEFT JOIN (SELECT game_id, COUNT(*) AS n, "
        "MIN(ply) AS first, MAX(ply) AS last FROM moves WHERE undone_at IS NULL "
        "GROUP BY game_id) m ON m.game_id = g.id WHERE CASE "
        "WHEN m.n IS NULL THEN g.start_tps IS NULL AND g.ply != 0 "
        "ELSE g.ply != m.last OR m.n != m.last - m.first + 1 "
        "OR (g.start_tps IS NULL AND m.first != 1) END",
        range(TPS_STARTS, 10_000),
    ),
    ConsistencyCheck(  # before schema 16 every game started from the empty board
        PLY_RULE,
        ("games", "moves"),
        "SELECT COUNT(*) FROM games g WHERE g.ply != (SELECT COUNT(*) FROM moves m "
        "WHERE m.game_id = g.id AND m.undone_at IS NULL)",
        range(1, TPS_STARTS),
    ),
    ConsistencyCheck(  # every end of a game and every undo clears them
        "conditional move row(s) of games that are over",
        ("games", "conditional_moves"),
        "SELECT COUNT(*) FROM conditional_moves c JOIN games g ON g.id = c.game_id "
        "WHERE g.status != 'active'",
    ),
)


def applicable(tables: set[str], version: int) -> list[ConsistencyCheck]:
    """The checks a database with these tables, at this schema version, can take."""
    return [
        check
        for check in CONSISTENCY_CHECKS
        if set(check.tables) <= tables and version in check.versions
    ]


def describe(broken: dict[str, int]) -> list[str]:
    """Each broken rule as a sentence for the operator (none when all hold)."""
    return [f"{count} {what}" for what, count in broken.items() if count]
