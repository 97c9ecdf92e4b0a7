"""/healthz and /metrics over real HTTP on a real database: healthy answers 200, a database that
cannot be written (another process holds its write lock, or the store is closed) turns it 503,
and /metrics parses as Prometheus text with figures that match the database."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from importlib.metadata import version
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.errors import StoreClosed
from bot.health import CommandTimings, Gateway, HealthEndpoint, SharedProbe
from bot.services import Services
from tests.bot.conftest import play, start_game
from tests.databases import POSTGRES

Served = tuple[HealthEndpoint, str, dict[str, Gateway]]


@pytest.fixture
async def served(services: Services) -> AsyncIterator[Served]:
    gateway = {"now": Gateway(connected=True, latency=0.042)}
    timings = CommandTimings()
    endpoint = HealthEndpoint(services.db, lambda: gateway["now"], timings)
    port = await endpoint.start("127.0.0.1", 0)
    yield endpoint, f"http://127.0.0.1:{port}", gateway
    await endpoint.stop()


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.content_type, await response.text()


async def test_healthy_when_connected_and_the_database_takes_a_write(
    served: Served, services: Services
) -> None:
    _, base, _ = served
    game = await start_game(services)
    await play(services, game.id, "a1 e5")
    status, kind, body = await get(base + "/healthz")
    assert status == 200 and kind == "application/json"
    report = json.loads(body)
    assert report == {
        "version": version("bredon-bot"),  # the installed distribution's: pyproject.toml's
        "gateway_connected": True,
        "database_writable": True,
        "undelivered_announcements": await services.outbox.pending(),
        "status": "ok",
    }


@pytest.mark.sqlite_only
async def test_unhealthy_while_another_process_holds_the_write_lock(
    served: Served, db_path: Path, services: Services
) -> None:
    _, base, _ = served
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        status, _, body = await get(base + "/healthz")
        other.execute("ROLLBACK")
    assert status == 503
    assert '"database_writable": false' in body and "write lock" in body
    assert (await get(base + "/healthz"))[0] == 503  # the answer is kept a few seconds ...
    await services.db.probe_write()  # ... unless the store writes meanwhile
    assert (await get(base + "/healthz"))[0] == 200  # and healthy again once it is released


@pytest.mark.postgres_only
async def test_unhealthy_when_the_postgresql_database_is_gone(
    served: Served, db_path: str, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the store's connections and takes no new ones to its database (as when
    it is stopped, or the database is dropped): /healthz says so in a sentence, as long as it
    lasts, and healthy again once the database takes connections."""
    _, base, _ = served
    name = db_path.rpartition("/")[2]

    async def allow_connections(allowed: bool) -> None:
        server = await asyncpg.connect(POSTGRES)
        try:
            await server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {allowed}')
            if not allowed:
                await server.fetch(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                    name,
                )
        finally:
            await server.close()

    await allow_connections(False)  # before any probe: the first request probes
    for _ in range(2):  # kept a few seconds (or until the store answers again)
        status, _, body = await get(base + "/healthz")
        assert status == 503
        report = json.loads(body)
        assert report["database_writable"] is False and report["status"] == "unhealthy"
        assert report["database_problem"].startswith(f"PostgreSQL at {db_path} cannot be reached: ")
    await allow_connections(True)
    await services.db.fetchall("SELECT 1")  # the store's own calls find it back
    assert (await get(base + "/healthz"))[0] == 200
    assert not [r for r in caplog.records if r.exc_info and r.name != "asyncpg.pool"]


async def test_unhealthy_when_the_store_is_closed_or_the_gateway_down(
    served: Served, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    _, base, gateway = served
    gateway["now"] = Gateway(connected=False, latency=math.nan)
    status, _, body = await get(base + "/healthz")
    assert status == 503 and '"gateway_connected": false' in body
    gateway["now"] = Gateway(connected=True, latency=0.05)
    await services.db.close()  # as the bot does when it stops
    status, _, body = await get(base + "/healthz")
    assert status == 503 and '"database_writable": false' in body
    assert '"status": "unhealthy"' in body
    assert json.loads(body)["database_problem"] == StoreClosed().message
    status, _, text = await get(base + "/metrics")
    assert (status, text) == (503, StoreClosed().message + "\n")
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_concurrent_requests_share_one_probe_write(
    served: Served, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of /healthz costs one write: those that come while the probe runs wait for it,
    those within PROBE_EVERY seconds after it get its answer."""
    _, base, _ = served
    writes = []
    transaction = services.db.transaction

    def counted() -> Any:
        writes.append(1)
        return transaction()

    monkeypatch.setattr(services.db, "transaction", counted)
    async with aiohttp.ClientSession() as session:

        async def status() -> int:
            async with session.get(base + "/healthz") as response:
                return response.status

        answers = await asyncio.gather(*(status() for _ in range(200)))
        assert answers == [200] * 200 and len(writes) == 1
        assert await asyncio.gather(*(status() for _ in range(50))) == [200] * 50
        assert len(writes) == 1  # still within PROBE_EVERY of the first


async def test_a_new_probe_after_its_answer_has_aged(services: Services) -> None:
    probe = SharedProbe(services.db, every=0.2)
    writes = []
    transaction = services.db.transaction

    def counted() -> Any:
        writes.append(1)
        return transaction()

    services.db.transaction = counted  # type: ignore[method-assign]
    assert await probe.problem() is None and await probe.problem() is None
    assert len(writes) == 1
    await asyncio.sleep(0.25)
    assert await probe.problem() is None
    assert len(writes) == 2


async def test_a_probe_that_failed_unforeseen_is_not_kept(services: Services) -> None:
    """An error the probe does not expect answers that request; the next one probes again
    (kept, it would have answered every later request with the same error until a restart)."""
    probe = SharedProbe(services.db)
    transaction = services.db.transaction
    failures = [RuntimeError("unforeseen")]

    def failing_once() -> Any:
        if failures:
            raise failures.pop()
        return transaction()

    services.db.transaction = failing_once  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="unforeseen"):
        await probe.problem()
    assert await probe.problem() is None


async def test_metrics_parse_as_prometheus_text_and_match_the_database(
    served: Served, services: Services
) -> None:
    endpoint, base, _ = served
    first = await start_game(services)
    await start_game(services)
    await play(services, first.id, "a1 e5 b1")
    timings = endpoint._timings
    timings.observe("tak move", "command", 0.07)
    timings.observe("tak move", "command", 2.5)
    timings.observe("tak move", "autocomplete", 0.01)

    status, kind, text = await get(base + "/metrics")
    assert status == 200 and kind == "text/plain"
    families = {f.name: f for f in text_string_to_metric_families(text)}
    value = {name: [s.value for s in f.samples] for name, f in families.items()}
    assert value["bredon_moves"] == [3.0] and families["bredon_moves"].type == "counter"
    assert value["bredon_active_games"] == [2.0]
    assert value["bredon_announcement_backlog"] == [float(await services.outbox.pending())]
    assert value["bredon_gateway_connected"] == [1.0]
    assert value["bredon_gateway_latency_seconds"] == [0.042]

    histogram = families["bredon_command_seconds"]
    assert histogram.type == "histogram"
    moves = {
        s.labels["le"]: s.value
        for s in histogram.samples
        if s.name.endswith("_bucket") and s.labels == {**s.labels, "kind": "command"}
    }
    assert moves["0.05"] == 0 and moves["0.1"] == 1 and moves["3.0"] == 2 and moves["+Inf"] == 2
    counts = {
        (s.name, s.labels["kind"]): s.value for s in histogram.samples if "le" not in s.labels
    }
    assert counts[("bredon_command_seconds_count", "command")] == 2
    assert counts[("bredon_command_seconds_sum", "command")] == pytest.approx(2.57)
    assert counts[("bredon_command_seconds_count", "autocomplete")] == 1
    assert_strict_exposition(text)


def assert_strict_exposition(text: str) -> None:
    """What the parser above forgives: every sample follows its family's HELP and TYPE, names
    are valid, every line ends with a newline."""
    assert text.endswith("\n")
    sample = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_]\w*="(\\.|[^"\\])*",?)*\})? (\S+)')
    typed: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
        elif not line.startswith("# HELP "):
            match = sample.fullmatch(line)
            assert match, line
            name = match[1]
            assert any(name == t or name.startswith(t + "_") for t in typed), line
            float(match[5])
