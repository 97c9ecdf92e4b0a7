"""The bot's worker processes end when asked, even in the middle of a search, and those of a
pool a dead worker broke are ended when it is replaced: left running, they would hold up the
exit of the bot's process (the pool's own thread waits for them, and Python's exit for it)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from multiprocessing.process import BaseProcess

from bot.computer.player import Thinker
from bot.work.processes import SPAWN, WorkerPool
from tests.bot import niceness_probe


def stubborn_search(seconds: float) -> None:
    """Work in a worker that does not end on SIGTERM (a search in native code may not)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(seconds)


async def busy(thinker: Thinker, count: int) -> tuple[list[asyncio.Task[None]], set[BaseProcess]]:
    """`count` tasks of a minute on the workers, once they have begun; and the workers."""
    before = set(multiprocessing.active_children())
    tasks = [asyncio.create_task(thinker.run(stubborn_search, 60)) for _ in range(count)]
    while len(set(multiprocessing.active_children()) - before) < count:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # the work has begun
    return tasks, set(multiprocessing.active_children()) - before


async def stopped(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_closing_ends_the_workers_mid_task() -> None:
    thinker = Thinker(workers=2)
    tasks, workers = await busy(thinker, 2)
    assert len(workers) == 2
    started = time.monotonic()
    await thinker.close()
    # Not the minute the work would take (half of it, so that a busy machine cannot fail it).
    assert time.monotonic() - started < 30
    assert not any(worker.is_alive() for worker in workers)
    await stopped(tasks)


async def test_a_broken_pool_is_replaced_and_its_other_workers_ended() -> None:
    thinker = Thinker(workers=2)
    try:
        tasks, workers = await busy(thinker, 2)
        killed, other = sorted(workers, key=lambda worker: worker.pid or 0)
        os.kill(killed.pid or 0, signal.SIGKILL)  # as the out-of-memory killer does
        deadline = time.monotonic() + 45  # generous: waiting is the point
        while other.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not other.is_alive()
        # Both tasks are tried again, on a new pool.
        while len(set(multiprocessing.active_children()) - workers) < 2:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        replacements = set(multiprocessing.active_children()) - workers
    finally:
        await thinker.close()
    await stopped(tasks)
    assert not any(worker.is_alive() for worker in replacements)


def test_ending_a_pool_leaves_a_process_started_beside_it_alone(monkeypatch) -> None:
    """Another pool's process (the file reader's) started while this pool starts its own is
    not this pool's to end."""
    start = SPAWN.Process.start
    others: list[BaseProcess] = []

    def start_another_beside(process: BaseProcess) -> None:
        if not others:
            others.append(SPAWN.Process(target=time.sleep, args=(60,)))
            start(others[0])
        start(process)

    monkeypatch.setattr(SPAWN.Process, "start", start_another_beside)
    pool = WorkerPool(1)
    try:
        assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
        pool.end()
        [other] = others
        assert other.is_alive()
    finally:
        for other in others:
            other.kill()
            other.join()


def test_a_worker_ignores_an_interrupt_and_finishes_its_work() -> None:
    """Ctrl-C in a terminal reaches every process of the group: the bot stops its workers."""
    pool = WorkerPool(1)
    try:
        [worker] = [pool.submit(os.getpid).result(timeout=60)]
        working = pool.submit(time.sleep, 1.0)
        time.sleep(0.3)
        os.kill(worker, signal.SIGINT)
        assert working.result(timeout=10) is None
        assert pool.submit(os.getpid).result(timeout=10) == worker
    finally:
        pool.end()


async def test_a_worker_starts_at_the_bots_priority_and_works_below_it() -> None:
    """Its imports at the bot's priority (lowered first, a worker took over 15 s to start on a
    busy machine), its work below the bot's."""
    pool = WorkerPool(1, niceness=5, preload=("tests.bot.niceness_probe",))
    try:
        loop = asyncio.get_running_loop()
        at_import, working = await loop.run_in_executor(pool, niceness_probe.priorities)
    finally:
        await asyncio.to_thread(pool.end)
    assert at_import == os.nice(0)
    assert working == min(os.nice(0) + 5, 19)
