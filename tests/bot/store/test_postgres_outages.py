"""A PostgreSQL server of its own (started by the test, as .ci/start-postgres does) restarted
(fast and immediate), stopped, its backends terminated and frozen (SIGSTOP on the postmaster and
every backend) for longer than the store's time-outs, while games are played on it: every move
a player was told was played is in the database exactly once, no move refused as not saved is
there, a frozen server gives refusals while it is frozen (it does not freeze the bot), nothing
logs a traceback, each outage is logged as it begins and as it ends, and the watchdog still
checks afterwards. The server's faults make the timing: the test waits for events, generously.
"""

from __future__ import annotations

import asyncio
import glob
import logging
import os
import random
import signal
import subprocess
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import asyncpg
import pytest

from bot.errors import BredonError, MoveUnconfirmed
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from cogs import client
from tests.bot.conftest import start_game

pytestmark = pytest.mark.postgres_only

REPO = Path(__file__).resolve().parents[3]
GAMES = 4
FROZEN_FOR = 15.0  # seconds: well past the store's time-outs (about 5 s)
STOPPED_FOR = 5.0


def _server_binaries() -> str:
    return os.path.dirname(sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))[-1])


class Server:
    """A throwaway PostgreSQL server in a folder of its own (PostgreSQL runs as its packages'
    user when the tests run as root, as .ci/start-postgres does)."""

    def __init__(self) -> None:
        self.data = f"/tmp/bredon-outages-{uuid.uuid4().hex[:12]}"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self._bin = _server_binaries()

    def start(self) -> str:
        out = subprocess.run(
            [str(REPO / ".ci/start-postgres"), self.data],
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip().splitlines()[-1]

    def pg_ctl(self, *arguments: str) -> None:
        """The server it starts writes to its log, not to a pipe this would wait on."""
        log = f"{self.data}/server.log"
        subprocess.run(
            [*self._as, f"{self._bin}/pg_ctl", "-D", self.data, "-l", log, "-w", *arguments],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def remove(self) -> None:
        subprocess.run([str(REPO / ".ci/stop-postgres"), self.data], capture_output=True)

    def processes(self) -> list[int]:
        """The postmaster and its children (the backends and the server's own workers)."""
        postmaster = int(Path(self.data, "postmaster.pid").read_text().split()[0])
        children = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(stat.split("/")[2]))
        return [postmaster, *children]


@dataclass
class Play:
    """What the players were told."""

    acknowledged: list[tuple[str, int, int, str]] = field(default_factory=list)  # key, game...
    # key, refusal: moves the service refused (a read refused before one leaves it pending: a
    # move whose commit was unconfirmed may be saved, and is asked for again)
    refused: list[tuple[str, str]] = field(default_factory=list)
    unconfirmed: list[str] = field(default_factory=list)
    refused_while_frozen: int = 0  # calls, reads or moves, refused while the server was frozen


@pytest.fixture
async def server() -> AsyncIterator[tuple[Server, str]]:
    started = Server()
    try:
        url = await asyncio.to_thread(started.start)
        yield started, url
    finally:
        await asyncio.to_thread(started.remove)


async def test_play_goes_on_through_restarts_stops_kills_and_a_freeze(
    server: tuple[Server, str], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg, url = server
    caplog.set_level(logging.INFO)
    services = await Services.open(url, clock=FakeClock(), rng=random.Random(5))
    games = [(await start_game(services)).id for _ in range(GAMES)]
    play = Play()
    frozen = asyncio.Event()
    done = asyncio.Event()
    rng = random.Random(11)

    async def play_game(game_id: int) -> None:
        pending: tuple[str, int, str] | None = None  # a move whose saving was not confirmed
        attempt = 0
        unsure = False  # the pending move's commit was unconfirmed: asked again, even at the end
        while unsure or not done.is_set():
            try:
                if pending is None:
                    game = await services.games.get(game_id)
                    if not game.is_active:
                        return
                    position = await services.games.position(game_id)
                    ptn = rng.choice(position.legal_moves()).ptn()
                    attempt += 1
                    pending = (f"{game_id}:{attempt}", game.ply, ptn)
                key, ply, ptn = pending
                mover = (await services.games.get(game_id)).player_to_move.id
            except BredonError:  # a read refused: the move, if any, is asked for again
                if frozen.is_set():
                    play.refused_while_frozen += 1
                await asyncio.sleep(0.2)
                continue
            try:
                outcome = await services.games.move(game_id, mover, ptn, expected_ply=ply, key=key)
                play.acknowledged.append((key, game_id, outcome.ply, outcome.move))
                pending, unsure = None, False
            except MoveUnconfirmed:
                play.unconfirmed.append(key)
                unsure = True
                await asyncio.sleep(0.2)  # the same request again, once the store answers
            except BredonError as refusal:
                if frozen.is_set():
                    play.refused_while_frozen += 1
                if refusal.__class__.__name__ != "PositionChanged":
                    play.refused.append((key, type(refusal).__name__))
                    pending, unsure = None, False
                await asyncio.sleep(0.2)

    # The bot's watchdog, checking every half second (every 0.2 s once failing).
    monkeypatch.setattr(client, "DATABASE_CHECK_EVERY", timedelta(seconds=0.5))
    monkeypatch.setattr(client, "WATCHDOG_RETRY_FIRST", 0.2)
    monkeypatch.setattr(client, "WATCHDOG_RETRY_MAX", 1.0)
    checks = {"count": 0}
    check_in_place = services.db.check_in_place

    async def counted_check() -> None:
        checks["count"] += 1
        await check_in_place()

    stopped: list[object] = []

    async def close() -> None:
        stopped.append(True)

    bot = SimpleNamespace(
        services=SimpleNamespace(db=SimpleNamespace(check_in_place=counted_check)),
        close=close,
        fatal=None,
    )
    watchdog = asyncio.create_task(client.BredonBot._watch_database(bot))  # type: ignore[arg-type]
    players = [asyncio.create_task(play_game(game_id)) for game_id in games]

    async def terminate_backends() -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'bredon' AND pid <> pg_backend_pid()"
            )
        finally:
            await connection.close()

    async def acknowledged_more(than: int) -> None:
        async with asyncio.timeout(120):  # generous: play resumes by itself
            while len(play.acknowledged) <= than:
                await asyncio.sleep(0.1)

    try:
        await acknowledged_more(5)
        for mode in ("fast", "immediate"):
            await asyncio.to_thread(pg.pg_ctl, "restart", "-m", mode)
            await acknowledged_more(len(play.acknowledged) + 3)
        await asyncio.to_thread(pg.pg_ctl, "stop", "-m", "fast")
        await asyncio.sleep(STOPPED_FOR)
        await asyncio.to_thread(pg.pg_ctl, "restart")  # starts it with its options
        await acknowledged_more(len(play.acknowledged) + 3)
        await terminate_backends()
        await acknowledged_more(len(play.acknowledged) + 3)
        processes = pg.processes()
        for pid in processes:
            os.kill(pid, signal.SIGSTOP)
        frozen.set()
        try:
            await asyncio.sleep(FROZEN_FOR)
        finally:
            frozen.clear()
            for pid in processes:
                os.kill(pid, signal.SIGCONT)
        checked_then = checks["count"]
        await acknowledged_more(len(play.acknowledged) + 5)
        async with asyncio.timeout(60):  # the watchdog still checks after it all
            while checks["count"] <= checked_then + 2 or services.db.availability.problem:
                await asyncio.sleep(0.1)
    finally:
        done.set()
        await asyncio.gather(*players, return_exceptions=True)
    assert not watchdog.done() and not stopped
    watchdog.cancel()

    # A frozen server gave refusals while it was frozen: it did not freeze the bot.
    assert play.refused_while_frozen > 0
    rows = await services.db.fetchall(
        "SELECT r.request_key, m.game_id, m.ply, m.ptn FROM move_requests r "
        "JOIN moves m ON m.game_id = r.game_id AND m.ply = r.ply AND m.undone_at IS NULL"
    )
    saved = {row["request_key"]: (row["game_id"], row["ply"], row["ptn"]) for row in rows}
    for key, game_id, ply, ptn in play.acknowledged:  # every acknowledged move is there
        assert saved[key] == (game_id, ply, ptn)
    assert len({key for key, *_ in play.acknowledged}) == len(play.acknowledged)  # once each
    for key, refusal in play.refused:  # no move refused is there
        assert key not in saved, f"{key} was refused ({refusal}) but saved"
    live = await services.db.fetchone("SELECT COUNT(*) FROM moves WHERE undone_at IS NULL")
    unannounced = set(saved) - {key for key, *_ in play.acknowledged}
    assert live is not None and live[0] == len(play.acknowledged), (unannounced, play.unconfirmed)
    await services.close()

    tracebacks = [r for r in caplog.records if r.exc_info]
    assert not tracebacks, [r.getMessage() for r in tracebacks]
    outages = [r for r in caplog.records if r.name == "bot.store.base"]
    began = [r for r in outages if r.levelno == logging.ERROR]
    ended = [r for r in outages if "answers again, after an outage of" in r.getMessage()]
    assert began and len(began) == len(ended)
