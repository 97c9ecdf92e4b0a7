"""Three bot processes on one PostgreSQL database, one of them killed (SIGKILL) again and again in
the middle of its work: nothing a player was told is lost, nothing is posted twice but what the
killed process posted and had not yet marked, and the others carry on meanwhile.

Each process (a real subprocess, :func:`run_process`) runs the services, the deadline scheduler
with its duties, a courier and clients. The courier stands in for Discord: it "posts" an item by
appending its id and kind to the process's own file, flushed to disk, *before* marking it delivered,
as the real courier posts before settling. The clients play random legal moves in every active
game, so several processes move in the same games at once; each move a client was told was
accepted goes to the process's own file. Some games are played for coins; a game whose id is a
multiple of :data:`LEFT_ALONE` is left alone after a few plies, so that reminders and time-outs
fire: the test shortens their deadlines in the database (the shortest a time control allows is
an hour) to a reminder due now and a time-out in :data:`SHORTENED_TO`. The processes run on the
real time: a faster shared clock would also shorten the couriers' claims (two minutes) to less
than a post takes, and every process would post every item.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO

import pytest

from bot.deadlines.scheduler import DeadlineScheduler
from bot.errors import BredonError
from bot.notifications.outbox import CLAIM_FOR, OUTBOX_CHANNEL, Outcome
from bot.players.model import PlayerRef
from bot.services import Services
from bot.store import to_db
from bot.work.waking import Waker
from tests.bot.coins.test_service import ledger_consistent
from tests.bot.setups import create_challenge
from tests.databases import create_postgres_database, drop_postgres_database

pytestmark = pytest.mark.postgres_only

REFUSED: Counter[str] = Counter()  # this process's moves refused, by refusal
REPO = Path(__file__).resolve().parents[3]
CHILD = (
    "import asyncio, sys\n"
    "from tests.bot.store.test_postgres_processes import run_process\n"
    "asyncio.run(run_process(*sys.argv[1:]))\n"
)
PROCESSES = ("p0", "p1", "p2")
GUILDS = (910_000_000_000_000_001, 910_000_000_000_000_002, 910_000_000_000_000_003)
STAKED_GUILD = GUILDS[0]
CHANNEL = 920_000_000_000_000_000
GAMES = 30  # active games the clients keep (a finished one is replaced)
STAKED = 6  # of the first games, played for coins
CLIENTS = 4  # per process
LEFT_ALONE = 5  # games whose id is a multiple of it get no move after ply 4: they time out
SHORTENED_TO = timedelta(seconds=2)
RUN_FOR = 24.0  # seconds of play
# (seconds into the run, process, what): each kill is followed by a restart a while later.
TIMELINE = (
    (5.0, "p1", "kill"),
    (8.0, "p1", "start"),
    (11.0, "p2", "kill"),
    (13.5, "p2", "start"),
    (17.0, "p0", "kill"),
    (19.5, "p0", "start"),
)


class SharedClock:
    """The real time plus a jump kept in a file, which every process reads: once the others
    have delivered everything they can, the test moves time on past the claims the killed
    processes left, as the two minutes of a real claim would pass."""

    def __init__(self, path: Path) -> None:
        self._path = path

    @staticmethod
    def move_on(path: Path, jump: timedelta) -> None:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(str(jump.total_seconds()))
        temporary.replace(path)

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=float(self._path.read_text()))


def player(number: int) -> PlayerRef:
    return PlayerRef(930_000_000_000_000_000 + number, f"player{number}")


def record(file: IO[str], line: str) -> None:
    """Append a line and make sure it is on disk before going on."""
    file.write(line + "\n")
    file.flush()
    os.fsync(file.fileno())


# ----------------------------------------------------------------- one bot process


async def run_process(url: str, folder: str, name: str, incarnation: str) -> None:
    """One bot process: services, scheduler, courier and clients, until told to stop."""
    work = Path(folder)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bot.deadlines.scheduler").setLevel(logging.INFO)  # its busy looks
    clock = SharedClock(work / "clock")
    services = await Services.open(url, clock=clock, rng=random.Random())
    posted = open(work / f"posted-{name}-{incarnation}", "a")  # noqa: SIM115
    accepted = open(work / f"accepted-{name}-{incarnation}", "a")  # noqa: SIM115
    courier = Waker()

    async def deliver() -> float:
        while items := await services.outbox.due():
            progressed = False
            for ready in items:
                item = await services.outbox.claim(ready.id)
                if item is None:
                    continue
                record(posted, f"{item.id} {item.payload.KIND}")
                await services.outbox.delivered(item, Outcome.POSTED)
                progressed = True
            if not progressed:
                break
        return 0.5

    async def kick_courier(_: object) -> None:
        courier.kick()

    await services.db.listen(OUTBOX_CHANNEL, lambda _: courier.kick())
    courier.start(deliver, None, failure="The courier failed.", retry_after=0.5, name="courier")
    scheduler = DeadlineScheduler(
        services.deadlines,
        clock,
        kick_courier,
        max_sleep=timedelta(seconds=0.3),
        duties=(services.notifications, services.entry),
        on_duty=courier.kick,
    )
    scheduler.start()
    rng = random.Random()
    clients = [
        asyncio.create_task(play_as_clients(services, accepted, rng, work, GUILDS[index % 3]))
        for index in range(CLIENTS)
    ]
    (work / f"ready-{name}-{incarnation}").touch()
    while not (work / "exit").exists():
        await asyncio.sleep(0.1)
    for client in clients:
        client.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    await scheduler.stop()
    await courier.halt()
    await services.close()
    print(f"refused {json.dumps(REFUSED)}", file=sys.stderr)  # for the figures


async def play_as_clients(
    services: Services, accepted: IO[str], rng: random.Random, work: Path, guild_id: int
) -> None:
    """A client: a random legal move in a random active game, again and again; a new game when
    fewer than :data:`GAMES` are active."""
    while not (work / "stop-moving").exists():
        rows = await services.db.fetchall("SELECT id FROM games WHERE status = 'active'")
        if len(rows) < GAMES:
            await start_game(services, guild_id, rng.randrange(100), stakes=False)
            continue
        for _ in range(20):
            await try_a_move(services, accepted, rng, rng.choice(rows)["id"])
            await asyncio.sleep(rng.uniform(0, 0.01))


async def try_a_move(
    services: Services, accepted: IO[str], rng: random.Random, game_id: int
) -> None:
    try:
        game = await services.games.get(game_id)
        if not game.is_active or (game_id % LEFT_ALONE == 0 and game.ply >= 4):
            return
        moves = game.position_from_tps().legal_moves()
        move = rng.choice(moves).ptn()
        outcome = await services.games.move(
            game_id, game.player_to_move.id, move, expected_ply=game.ply
        )
    except BredonError as error:  # another client moved first, busy, a Tak to pay for...: next one
        REFUSED[type(error).__name__] += 1
        return
    record(accepted, f"{time.time()} {game_id} {outcome.ply} {outcome.move}")


async def start_game(services: Services, guild_id: int, pair: int, *, stakes: bool) -> None:
    white, black = player(2 * pair), player(2 * pair + 1)
    challenge = await create_challenge(
        services,
        guild_id=guild_id,
        channel_id=CHANNEL,
        challenger=white,
        opponent=black,
        colour="random" if stakes else "white",
        size=5,
        days_per_move=1,
        stakes=stakes,
    )
    accepted = await services.challenges.accept(challenge.id, black)
    if stakes:
        assert accepted.stake is not None
        await services.wallets.bid(accepted.stake.id, white.id, 2)
        await services.wallets.bid(accepted.stake.id, black.id, 1)


# ----------------------------------------------------------------- the test


@dataclass
class Run:
    """The processes under way and what happened to them."""

    url: str
    work: Path
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    incarnations: Counter[str] = field(default_factory=Counter)
    killed: list[str] = field(default_factory=list)  # "name-incarnation" of each killed one
    dead_between: list[tuple[str, float, float]] = field(default_factory=list)

    def start(self, name: str) -> None:
        self.incarnations[name] += 1
        self.running[name] = subprocess.Popen(
            [
                sys.executable,
                "-c",
                CHILD,
                self.url,
                str(self.work),
                name,
                str(self.incarnations[name]),
            ],
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stderr=open(self.work / f"stderr-{name}-{self.incarnations[name]}", "w"),  # noqa: SIM115
        )

    def kill(self, name: str) -> None:
        self.running[name].send_signal(signal.SIGKILL)
        self.running[name].wait()
        self.killed.append(f"{name}-{self.incarnations[name]}")

    def ready(self) -> bool:
        return all(
            (self.work / f"ready-{name}-{self.incarnations[name]}").exists()
            for name in self.running
        )

    def lines(self, kind: str) -> dict[str, list[str]]:
        return {
            path.name.removeprefix(f"{kind}-"): path.read_text().splitlines()
            for path in sorted(self.work.glob(f"{kind}-*"))
        }


async def shorten_deadlines(services: Services) -> None:
    """The games left alone: a reminder due now, the time-out soon after."""
    now = services.clock.now()
    await services.db.write_one(
        "UPDATE games SET deadline_at = ?, reminder_at = ? WHERE status = 'active' "
        "AND id % ? = 0 AND ply >= 4 AND deadline_at > ?",
        (to_db(now + SHORTENED_TO), to_db(now), LEFT_ALONE, to_db(now + SHORTENED_TO)),
    )


async def only_claims_left(services: Services) -> bool:
    """Whether no announcement is ready but those claimed (by a killed process, once the others
    had a second to settle theirs) and what waits behind them, and nothing else is due."""
    return not await services.outbox.due() and not await services.deadlines.due()


async def wait_until(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        value = condition() if callable(condition) else condition
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {timeout} s")
        await asyncio.sleep(0.2)


async def test_three_processes_one_killed_again_and_again(tmp_path: Path) -> None:
    server = os.environ["BREDON_TEST_POSTGRES"]
    url = await create_postgres_database(server)
    try:
        await kill_and_check(url, tmp_path)
    finally:
        await drop_postgres_database(url, server)


async def kill_and_check(url: str, work: Path) -> None:
    SharedClock.move_on(work / "clock", timedelta(0))
    services = await Services.open(url, clock=SharedClock(work / "clock"))
    run = Run(url, work)
    try:
        await services.wallets.configure(STAKED_GUILD, enabled=True)
        for pair in range(GAMES):
            staked = pair < STAKED
            guild = STAKED_GUILD if staked else GUILDS[pair % 3]
            await start_game(services, guild, pair, stakes=staked)
        for name in PROCESSES:
            run.start(name)
        await wait_until(run.ready, 30, "the processes started")
        began = time.monotonic()
        for at, name, what in TIMELINE:
            while time.monotonic() < began + at:
                await shorten_deadlines(services)
                await asyncio.sleep(0.5)
            if what == "kill":
                run.kill(name)
                run.dead_between.append((name, time.time(), 0.0))
            else:
                run.start(name)
                dead = run.dead_between[-1]
                run.dead_between[-1] = (dead[0], dead[1], time.time())
        while time.monotonic() < began + RUN_FOR:
            await shorten_deadlines(services)
            await asyncio.sleep(0.5)
        (work / "stop-moving").touch()

        await wait_until(lambda: only_claims_left(services), 20, "all but claims delivered")
        await asyncio.sleep(1)  # a claim of a process alive is settled at once, not in a second
        await wait_until(lambda: only_claims_left(services), 20, "all but claims delivered")
        SharedClock.move_on(work / "clock", CLAIM_FOR)

        async def settled() -> bool:
            return not await services.outbox.pending() and not await services.deadlines.due()

        await wait_until(settled, 20, "every announcement delivered, nothing due")
        await asyncio.sleep(1)  # and nothing more comes
        await wait_until(settled, 20, "every announcement delivered, nothing due")
        (work / "exit").touch()
        for name, process in run.running.items():
            stderr = work / f"stderr-{name}-{run.incarnations[name]}"
            assert process.wait(timeout=20) == 0, stderr.read_text()
        await check_the_outcome(services, run)
    finally:
        for process in run.running.values():
            if process.poll() is None:
                process.kill()
                process.wait()
        await services.close()


async def check_the_outcome(services: Services, run: Run) -> None:
    db = services.db
    # Every move a client was told was accepted is in the log, exactly once.
    told = [line.split()[1:] for lines in run.lines("accepted").values() for line in lines]
    assert len(told) >= 50  # thousands on a quiet machine; a loaded one plays fewer
    assert len({(game, ply) for game, ply, _ in told}) == len(told)
    logged = Counter(
        (str(row["game_id"]), str(row["ply"]), row["ptn"])
        for row in await db.fetchall("SELECT game_id, ply, ptn FROM moves WHERE undone_at IS NULL")
    )
    assert all(logged[tuple(move)] == 1 for move in told)
    # The log agrees with every game's row.
    for row in await db.fetchall("SELECT id, ply, tps FROM games"):
        record_ = await services.lookup.record(row["id"])
        assert len(record_.plies) == row["ply"]
        assert record_.final_position().tps() == row["tps"]
    await ledger_consistent(services, STAKED_GUILD)
    # No process failed a look (a courier's or scheduler's exception is logged with a traceback).
    logs = "".join(path.read_text() for path in sorted(run.work.glob("stderr-*")))
    assert "Traceback" not in logs
    # Every announcement delivered, and posted; twice only by a killed process, last thing.
    rows = await db.fetchall("SELECT id, kind, outcome FROM outbox")
    assert all(row["outcome"] == "posted" for row in rows)
    posts = Counter(line.split()[0] for lines in run.lines("posted").values() for line in lines)
    assert set(posts) == {str(row["id"]) for row in rows}
    twice = {item for item, count in posts.items() if count > 1}
    last_of_killed = {
        lines[-1].split()[0]
        for incarnation, lines in run.lines("posted").items()
        if incarnation in run.killed and lines
    }
    assert all(posts[item] == 2 for item in twice)
    assert twice <= last_of_killed
    kinds = Counter(row["kind"] for row in rows)
    assert kinds["reminder"] and kinds["ending"] and kinds["move"] and kinds["game_start"]
    timed_out = await db.fetchone("SELECT COUNT(*) FROM games WHERE result_kind = 'time'")
    assert timed_out is not None and timed_out[0] > 0
    # The others kept moving while one was dead.
    for name, died, restarted in run.dead_between:
        by_others = [
            float(line.split()[0])
            for incarnation, lines in run.lines("accepted").items()
            if not incarnation.startswith(name)
            for line in lines
        ]
        assert sum(died < moment < restarted for moment in by_others) > 0
    refused: Counter[str] = Counter()  # by the processes that were not killed at the end
    for line in logs.splitlines():
        if line.startswith("refused "):
            refused.update(json.loads(line.removeprefix("refused ")))
    print(  # the figures for the report (pytest -s)
        f"\nmoves told accepted {len(told)}, announcements {len(rows)} {dict(kinds)}, "
        f"games {len(await db.fetchall('SELECT id FROM games'))}, timed out {timed_out[0]}, "
        f"kills {len(run.killed)}, posted twice {len(twice)}, "
        f"scheduler looks refused as busy {logs.count('deadlines were busy')}, "
        f"moves refused by the last processes {dict(refused)}"
    )
