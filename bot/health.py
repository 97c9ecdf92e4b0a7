"""The optional HTTP endpoint for whoever runs Bredon: ``/healthz`` for a health check (Docker,
systemd, a load balancer) and ``/metrics`` in Prometheus' text format.

It is off unless ``BREDON_HEALTH_PORT`` is set, and listens on ``BREDON_HEALTH_HOST`` (127.0.0.1
by default: nothing is exposed beyond the machine unless asked). aiohttp comes with discord.py.

``/healthz`` answers 200 only when the gateway is connected and the database takes a real write
(a committed transaction, so a full disk, a lost file or another process holding the write lock
shows); otherwise 503, with what is wrong in the JSON. The write is committed, and the backlog
read, at most once every :data:`PROBE_EVERY` seconds: requests meanwhile share its answer (those
that come while it runs wait for it), so a flood of requests costs no more than one and does not
slow the moves. An answer is dropped sooner when the store's own calls contradict it (an outage
began, or a call succeeded after a failed probe: :class:`~bot.store.base.Availability`), so an
outage and a recovery show at once. The database figures are read from
the file itself, so they hold for every process sharing it and survive restarts. While the bot
stops (its store closing or closed) both answer 503 with a sentence.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.errors import BredonError, StoreBusy, StoreUnwritable
from bot.release import bredon_version
from bot.store import Database, StoreError

log = logging.getLogger(__name__)

PROBE_TIMEOUT = 5.0  # seconds; past this the database counts as not writable
PROBE_EVERY = 5.0  # seconds a probe's answer is given to the requests that follow it
# Seconds; a slash command must be answered within 3 s, so the buckets are dense below that.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)


@dataclass(frozen=True, slots=True)
class Gateway:
    """The Discord connection as the endpoint reports it."""

    connected: bool
    latency: float  # seconds of the last heartbeat round trip; nan when unknown


@dataclass(slots=True)
class _Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * len(LATENCY_BUCKETS))
    total: int = 0
    seconds: float = 0.0


class CommandTimings:
    """How long slash commands (and their autocomplete) take in the bot, per command: a
    Prometheus histogram, kept in memory since the process started."""

    def __init__(self) -> None:
        self._by_command: dict[tuple[str, str], _Histogram] = {}

    def observe(self, command: str, kind: str, seconds: float) -> None:
        histogram = self._by_command.setdefault((command, kind), _Histogram())
        for index, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                histogram.counts[index] += 1
        histogram.total += 1
        histogram.seconds += seconds

    def lines(self) -> list[str]:
        name = "bredon_command_seconds"
        out = [
            f"# HELP {name} Time from receiving a slash command or autocomplete to its end.",
            f"# TYPE {name} histogram",
        ]
        for (command, kind), histogram in sorted(self._by_command.items()):
            labels = f'command="{_label(command)}",kind="{kind}"'
            for bound, count in zip(LATENCY_BUCKETS, histogram.counts, strict=True):
                out.append(f'{name}_bucket{{{labels},le="{bound}"}} {count}')
            out.append(f'{name}_bucket{{{labels},le="+Inf"}} {histogram.total}')
            out.append(f"{name}_sum{{{labels}}} {histogram.seconds!r}")
            out.append(f"{name}_count{{{labels}}} {histogram.total}")
        return out


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


@dataclass(frozen=True, slots=True)
class StoreFigures:
    moves: int  # ever played (undone ones included: the log keeps them)
    active_games: int
    backlog: int  # announcements not yet delivered


async def store_figures(db: Database) -> StoreFigures:
    """Cheap to read: moves are never deleted (a trigger refuses it), so the highest id counts
    them without a scan."""
    async with db.snapshot() as tx:
        row = await tx.fetchone(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM moves), "
            "(SELECT COUNT(*) FROM games WHERE status = 'active'), "
            "(SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL)"
        )
    assert row is not None
    return StoreFigures(int(row[0]), int(row[1]), int(row[2]))


async def database_problem(db: Database) -> str | None:
    """Why the database cannot be written now, or None. The probe commits a real write that
    changes nothing (:meth:`~bot.store.Database.probe_write`)."""
    try:
        async with asyncio.timeout(PROBE_TIMEOUT):
            await db.probe_write()
    except StoreBusy:
        return "another process holds the database's write lock"
    except TimeoutError:
        return f"a write did not finish within {PROBE_TIMEOUT:g} s"
    except StoreUnwritable as error:
        return error.problem
    except (StoreError, BredonError) as error:  # BredonError: StoreClosed, the bot is stopping
        return str(error)
    except (sqlite3.Error, OSError) as error:
        return f"{type(error).__name__}: {error}"
    return None


class PortUnavailable(Exception):
    """The endpoint cannot listen where the settings say; the message says what to do."""


@dataclass(frozen=True, slots=True)
class StoreHealth:
    """What ``/healthz`` says of the database: why it cannot be written, or how many
    announcements wait to be delivered."""

    problem: str | None
    backlog: int = 0


async def store_health(db: Database) -> StoreHealth:
    problem = await database_problem(db)
    if problem is not None:
        return StoreHealth(problem)
    try:
        return StoreHealth(None, (await store_figures(db)).backlog)
    except StoreUnwritable as error:  # lost since the probe
        return StoreHealth(error.problem)
    except (StoreError, BredonError) as error:  # closed since the probe
        return StoreHealth(str(error))


class SharedProbe:
    """:func:`store_health`, at most once every `every` seconds: a request within that time of
    the last probe gets its answer, and requests that come while one runs wait for it, instead
    of each committing a write of its own. The answer is dropped sooner when the store's calls
    since contradict it (see the module's docstring); an unforeseen failure is not kept."""

    def __init__(self, db: Database, every: float = PROBE_EVERY) -> None:
        self._db = db
        self._every = every
        self._probe: asyncio.Task[StoreHealth] | None = None
        self._started = -math.inf  # loop time the last probe began
        self._answers = 0  # the store's successful calls when it ended (Availability.answers)

    def _kept(self, probe: asyncio.Task[StoreHealth]) -> bool:
        if not probe.done():
            return True
        if probe.cancelled() or probe.exception() is not None:
            return False
        availability = self._db.availability
        if asyncio.get_running_loop().time() - self._started >= self._every:
            return False
        if probe.result().problem is None:
            return availability.problem is None
        return availability.answers == self._answers

    async def _run(self) -> StoreHealth:
        try:
            return await store_health(self._db)
        finally:
            self._answers = self._db.availability.answers

    async def health(self) -> StoreHealth:
        if self._probe is None or not self._kept(self._probe):
            self._started = asyncio.get_running_loop().time()
            self._probe = asyncio.create_task(self._run(), name="bredon-probe")
        # Shielded: a client that hangs up must not cancel the others' answer.
        return await asyncio.shield(self._probe)

    async def problem(self) -> str | None:
        return (await self.health()).problem


class HealthEndpoint:
    """The aiohttp application and its server; :meth:`start` and :meth:`stop` around the bot."""

    def __init__(
        self,
        db: Database,
        gateway: Callable[[], Gateway],
        timings: CommandTimings,
        every: float = PROBE_EVERY,
    ) -> None:
        self._db = db
        self._probe = SharedProbe(db, every)
        self._gateway = gateway
        self._timings = timings
        self.app = web.Application()
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.metrics)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, host: str, port: int) -> int:
        """Listen (port 0: any free port); returns the port."""
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as error:
            await self.stop()
            raise PortUnavailable(
                f"The health endpoint cannot listen on {host} port {port} "
                f"({error.strerror or error}): set BREDON_HEALTH_PORT to a free port, or stop "
                "the program using it (another Bredon?)."
            ) from None
        self.port = int(self._runner.addresses[0][1])
        log.info("Health and metrics at http://%s:%d/healthz and /metrics.", host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        gateway = self._gateway()
        health = await self._probe.health()
        problem = health.problem
        body: dict[str, object] = {
            "version": bredon_version(),
            "gateway_connected": gateway.connected,
            "database_writable": problem is None,
        }
        if problem is not None:
            body["database_problem"] = problem
        else:
            body["undelivered_announcements"] = health.backlog
        healthy = gateway.connected and problem is None
        body["status"] = "ok" if healthy else "unhealthy"
        return web.Response(
            text=json.dumps(body), status=200 if healthy else 503, content_type="application/json"
        )

    async def metrics(self, request: web.Request) -> web.Response:
        gateway = self._gateway()
        try:
            figures = await store_figures(self._db)
        except (StoreError, BredonError) as error:  # BredonError: busy, or closed (stopping)
            return web.Response(text=f"{error}\n", status=503)
        latency = gateway.latency if math.isfinite(gateway.latency) else math.nan
        lines = [
            *_metric("bredon_moves_total", "counter", "Moves played (stored).", figures.moves),
            *_metric("bredon_active_games", "gauge", "Games in progress.", figures.active_games),
            *_metric(
                "bredon_announcement_backlog",
                "gauge",
                "Announcements saved but not yet delivered to Discord.",
                figures.backlog,
            ),
            *_metric(
                "bredon_gateway_connected",
                "gauge",
                "1 when connected to Discord.",
                gateway.connected,
            ),
            *_metric(
                "bredon_gateway_latency_seconds",
                "gauge",
                "Discord heartbeat round trip (NaN when unknown).",
                latency,
            ),
            *self._timings.lines(),
        ]
        return web.Response(
            text="\n".join(lines) + "\n",
            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"},
        )


def _metric(name: str, kind: str, help_text: str, value: float) -> list[str]:
    shown = "NaN" if isinstance(value, float) and math.isnan(value) else repr(float(value))
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}", f"{name} {shown}"]
