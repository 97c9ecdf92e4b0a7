"""Each table's rows are written by one module, its owner, through named operations.

The test reads the SQL in the string literals of every module under ``bot/``, ``cogs/`` and
``rendering/`` (docstrings left out), finds the tables each one writes, and holds them to
:data:`OWNERS`, which must name every table of the latest schema.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

from bot.store import load_migrations

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot", "cogs", "rendering")

# The one module that writes each table (or tight group of tables).
OWNERS = {
    "players": "bot/players/storage.py",
    "games": "bot/games/storage.py",
    "moves": "bot/games/storage.py",
    "move_requests": "bot/games/storage.py",
    "challenges": "bot/games/challenge_storage.py",
    "matches": "bot/games/matches.py",
    "tournaments": "bot/tournaments/storage.py",
    "tournament_players": "bot/tournaments/storage.py",
    "tournament_pairings": "bot/tournaments/storage.py",
    "tournament_replacements": "bot/tournaments/storage.py",
    "tournament_log": "bot/tournaments/storage.py",
    "tournament_bye_requests": "bot/tournaments/storage.py",
    "tournament_forbidden_pairs": "bot/tournaments/storage.py",
    "guild_settings": "bot/guild_settings.py",
    "page_secret": "bot/guild_settings.py",
    "ratings": "bot/games/ratings.py",
    "rating_changes": "bot/games/ratings.py",
    "outbox": "bot/notifications/outbox.py",
    "notify_prefs": "bot/notifications/service.py",
    "wallet_settings": "bot/coins/service.py",
    "wallets": "bot/coins/service.py",
    "stakes": "bot/coins/service.py",
    "ledger": "bot/coins/service.py",
    "vacations": "bot/deadlines/holds.py",
    "reminder_offsets": "bot/deadlines/holds.py",
    "bot_levels": "bot/computer/opponent.py",
    "analyses": "bot/computer/analysis_queue.py",
    "game_notes": "bot/games/notes.py",
    "conditional_moves": "bot/games/conditions.py",
    **dict.fromkeys(
        (
            "leagues",
            "league_teams",
            "league_players",
            "league_rounds",
            "league_matches",
            "league_lineups",
            "league_boards",
        ),
        "bot/leagues/storage.py",
    ),
    "season_leagues": "bot/seasons/storage.py",
    "seasons": "bot/seasons/storage.py",
    "season_players": "bot/seasons/storage.py",
    "season_divisions": "bot/seasons/storage.py",
    "puzzles": "bot/puzzles/service.py",
    "puzzle_mined_games": "bot/puzzles/service.py",
    "puzzle_attempts": "bot/puzzles/service.py",
    "puzzle_players": "bot/puzzles/service.py",
    "puzzle_channels": "bot/puzzles/service.py",
    "daily_puzzles": "bot/puzzles/service.py",
    # PostgreSQL's schema version (SQLite keeps it in the file's header).
    "bredon_schema": "bot/store/postgres.py",
    "shard_leases": "bot/store/shard_leases.py",
}

# Moving an installation (`python -m bot copy`) writes every table, whole, into an empty database:
# the one module that may, and only into tables it names at run time.
COPIER = "bot/store/copying.py"

# INSERT [OR ...] INTO t, REPLACE INTO t, UPDATE [OR ...] t, DELETE FROM t (the name may be
# quoted); an upsert's "DO UPDATE SET" writes the table its INSERT names. A row lock ("FOR
# UPDATE SKIP LOCKED") writes nothing.
_WRITE_KEYWORD = (
    r"\b(?:INSERT(?:\s+OR\s+[A-Z]+)?\s+INTO|REPLACE\s+INTO|(?<!FOR )UPDATE(?:\s+OR\s+[A-Z]+)?"
    r"|DELETE\s+FROM)"
)
_WRITE = re.compile(_WRITE_KEYWORD + r"\s+[\"`\[]?([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)
# A write whose table is named at run time (an f-string's "{}", or a string that ends there, to
# be concatenated): no one can tell which table it writes, so it counts as an unowned table.
_WRITE_BUILT = re.compile(_WRITE_KEYWORD + r"\s*(?:\{\}|$)")
BUILT_AT_RUN_TIME = "<a table named at run time>"


def string_literals(tree: ast.Module) -> list[str]:
    """The module's string literals (f-strings by their literal parts), docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            texts.append(
                "".join(
                    part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
                )
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            texts.append(node.value)
    return texts


def tables_written(source: str) -> set[str]:
    written = set()
    for text in string_literals(ast.parse(source)):
        for match in _WRITE.finditer(text):
            table = match[1].lower()
            if table != "set":  # "DO UPDATE SET" of an upsert
                written.add(table)
        if _WRITE_BUILT.search(text):
            written.add(BUILT_AT_RUN_TIME)
    return written


def writers() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for root in SCANNED:
        for path in sorted((ROOT / root).rglob("*.py")):
            for table in tables_written(path.read_text(encoding="utf-8")):
                found[table].add(path.relative_to(ROOT).as_posix())
    return found


def schema_tables() -> set[str]:
    with sqlite3.connect(":memory:") as connection:
        for migration in load_migrations():
            connection.executescript(migration.script)
        rows = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    return {name for (name,) in rows}


def test_the_scanner_finds_every_kind_of_write() -> None:
    source = '''
"""UPDATE docstring_table SET x = 1 is prose, not SQL."""
A = "INSERT INTO a (x) VALUES (?) ON CONFLICT (x) DO UPDATE SET x = excluded.x"
B = "INSERT OR IGNORE INTO b (x) VALUES (?)"
C = f"UPDATE c SET {column} = ? WHERE id = ?"
D = "DELETE FROM d WHERE id = ?"
E = "REPLACE INTO e (x) VALUES (?)"
F = "SELECT * FROM f WHERE updated_at > ?"
G = "update or replace g set x = 1"
H = 'UPDATE "h" SET x = 1'
'''
    assert tables_written(source) == {"a", "b", "c", "d", "e", "g", "h"}


def test_a_write_to_a_table_named_at_run_time_has_no_owner() -> None:
    for source in (
        'A = f"UPDATE {table} SET x = ?"',
        'A = "UPDATE " + name + " SET x = ?"',
        'A = "DELETE FROM " + TABLE',
        'A = f"INSERT INTO {table} (x) VALUES (?)"',
    ):
        assert tables_written(source) == {BUILT_AT_RUN_TIME}, source


def test_every_table_of_the_schema_has_an_owner() -> None:
    assert set(OWNERS) == schema_tables() | {"bredon_schema"}


def test_each_table_is_written_by_its_owner_only() -> None:
    found = writers()
    assert {table for table, modules in found.items() if COPIER in modules} == {BUILT_AT_RUN_TIME}
    found[BUILT_AT_RUN_TIME].discard(COPIER)
    found = {table: modules for table, modules in found.items() if modules}
    assert set(found) <= set(OWNERS), f"tables with no known owner: {set(found) - set(OWNERS)}"
    others = {
        table: sorted(modules - {OWNERS[table]})
        for table, modules in found.items()
        if modules != {OWNERS[table]}
    }
    assert others == {}, "tables written outside their owner (or not by it)"
