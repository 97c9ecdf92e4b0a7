"""Which tests a run takes: with BREDON_TEST_POSTGRES set (a PostgreSQL test server, see
tests/databases.py) the tests of a SQLite file's own behaviour are left out; without it, the
tests that need PostgreSQL are. Left out, not skipped: the SQLite run and the PostgreSQL run in
.ci/run together take every test."""

from __future__ import annotations

import pytest

from tests.databases import POSTGRES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    left_out = "sqlite_only" if POSTGRES else "postgres_only"
    kept = [item for item in items if item.get_closest_marker(left_out) is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
