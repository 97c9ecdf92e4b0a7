"""The services' SQL as the PostgreSQL store sends it (bot.store.postgres.to_postgres): pure text,
checked without a server."""

from __future__ import annotations

from bot.store import is_postgres, shown_location
from bot.store.postgres import to_postgres


def test_placeholders_are_numbered_in_order_and_quoted_text_is_left_alone() -> None:
    statement = to_postgres(
        "SELECT 'a?b', \"c?\" FROM t WHERE x = ? AND y IN (?, ?) AND z = 'it''s?'"
    )
    assert statement.sql == (
        "SELECT 'a?b', \"c?\" FROM t WHERE x = $1 AND y IN ($2, $3) AND z = 'it''s?'"
    )
    assert statement.arguments((1, 2, 3)) == [1, 2, 3]


def test_numbered_placeholders_keep_their_numbers() -> None:
    statement = to_postgres("SELECT * FROM g WHERE w = ?1 OR b = ?1 AND guild = ?2 LIMIT ?3")
    assert statement.sql == "SELECT * FROM g WHERE w = $1 OR b = $1 AND guild = $2 LIMIT $3"


def test_a_parameter_only_tested_for_null_is_sent_as_text() -> None:
    statement = to_postgres("SELECT 1 FROM t WHERE (? IS NULL OR round = ?) AND ? IS NOT NULL")
    assert statement.sql == (
        "SELECT 1 FROM t WHERE ($1::text IS NULL OR round = $2) AND $3::text IS NOT NULL"
    )
    assert statement.arguments((4, 4, None)) == ["4", 4, None]


def test_scalar_max_and_min_become_greatest_and_least_but_aggregates_stay() -> None:
    statement = to_postgres(
        "SELECT MIN(MAX(a, COALESCE(b, '')), x), MAX(id), min(f(a, b)) FROM t "
        "WHERE MAX(c, (SELECT MIN(d) FROM u)) > ?"
    )
    assert statement.sql == (
        "SELECT LEAST(GREATEST(a, COALESCE(b, '')), x), MAX(id), min(f(a, b)) FROM t "
        "WHERE GREATEST(c, (SELECT MIN(d) FROM u)) > $1"
    )


def test_the_location_tells_the_engine_and_hides_a_password() -> None:
    assert is_postgres("postgresql://bredon:secret@db.example:5432/bredon")
    assert is_postgres("postgres://db/bredon")
    assert not is_postgres("bredon.sqlite3")
    assert not is_postgres("postgresql.sqlite3")
    assert shown_location("postgresql://bredon:s3cr:et@db:5432/bredon") == (
        "postgresql://bredon:***@db:5432/bredon"
    )
    assert shown_location("postgresql://bredon@db/bredon") == "postgresql://bredon@db/bredon"
    assert shown_location("data/bredon.sqlite3") == "data/bredon.sqlite3"


def test_text_ordered_byte_by_byte_stays_so_whatever_the_servers_locale() -> None:
    statement = to_postgres(
        "SELECT name FROM players ORDER BY name COLLATE BINARY, 'COLLATE BINARY'"
    )
    assert statement.sql == "SELECT name FROM players ORDER BY name COLLATE \"C\", 'COLLATE BINARY'"
