"""Which process runs which Discord shards, so that two processes on one database never run the
same shard (each would answer every command of its servers, and settle each deadline twice).

At start a process claims its shards (``BREDON_SHARD_IDS``; without it, all of them: shard
:data:`ALL_SHARDS`) in ``shard_leases``, and raises its rows' heartbeat counter every
:data:`BEAT_EVERY` seconds while it runs; a clean stop gives them back. A claim that meets
another holder's row takes it over only when that holder is gone: on this machine, its process
no longer runs; on another, its heartbeat has not moved for :data:`TAKEOVER_AFTER` seconds. No
clock is compared between machines: only whether a counter moved.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from bot.errors import StoreBusy, StoreUnwritable
from bot.store.base import (
    Database,
    Row,
    StoreError,
    Transaction,
    retried_on_conflict,
    to_db,
)

ALL_SHARDS = -1  # the row of a process that runs every shard (no BREDON_SHARD_IDS)
BEAT_EVERY = 20.0  # seconds between two heartbeats
TAKEOVER_AFTER = 2.5 * BEAT_EVERY  # a heartbeat still for this long: its holder is gone

log = logging.getLogger(__name__)


class ShardClaimed(StoreError):
    """Another live process runs a shard this one was to run."""


def _process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        return True
    return True


def _holder(shard: int, row: Row) -> str:
    """Who holds `shard` (its row: `row`), for the refusal and for the wait."""
    what = "Every shard is" if shard == ALL_SHARDS else f"Shard {shard} is"
    if row["shard"] == ALL_SHARDS and shard == ALL_SHARDS:
        what = "This database is"
    return (
        f"{what} already run by another Bredon process on this database (process {row['pid']} "
        f"on {row['host']}, since {row['claimed_at'][:19].replace('T', ' ')} UTC)"
    )


def _claimed(shard: int, row: Row) -> str:
    return (
        f"{_holder(shard, row)}: two processes must not run the same shard. Stop that one "
        "first, or give each process shards of its own with BREDON_SHARDS and BREDON_SHARD_IDS "
        "(docs/scaling.md)."
    )


class ShardLease:
    """This process's claim on its shards (see the module's docstring)."""

    def __init__(self, db: Database, shards: Sequence[int] | None) -> None:
        self._db = db
        self.shards = tuple(shards) if shards is not None else (ALL_SHARDS,)
        self.holder = secrets.token_hex(8)
        self.host = socket.gethostname()
        self.pid = os.getpid()

    @classmethod
    async def claim(
        cls,
        db: Database,
        shards: Sequence[int] | None,
        *,
        wait: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> ShardLease:
        """Claim `shards` (None: all) for this process, or raise :class:`ShardClaimed`. Waits
        up to :data:`TAKEOVER_AFTER` seconds when another machine's process held one of them,
        to see whether it still runs. Two processes claiming at the same moment on PostgreSQL
        conflict: the claim is made again, and then sees the other's row."""
        lease = cls(db, shards)
        return await retried_on_conflict(lambda: lease._claim(wait))

    async def _claim(self, wait: Callable[[float], Awaitable[object]]) -> ShardLease:
        lease, db = self, self._db
        rivals = await lease._rivals()
        remote = [row for row in rivals if row["host"] != lease.host]
        for row in rivals:
            if row["host"] == lease.host and row["pid"] != lease.pid and _process_runs(row["pid"]):
                raise ShardClaimed(_claimed(lease._first_overlap(row), row))
        if remote:
            log.warning(
                "%s: waiting %g s to see whether its heartbeat moves (a process stopped cleanly "
                "gives its shards back; one that crashed leaves them to be taken over).",
                _holder(lease._first_overlap(remote[0]), remote[0]),
                TAKEOVER_AFTER,
            )
            await wait(TAKEOVER_AFTER)
        seen = {(row["shard"], row["holder"], row["beat"]) for row in rivals}
        async with db.transaction() as tx:
            for row in await lease._rivals(tx):
                if (row["shard"], row["holder"], row["beat"]) not in seen:  # it beat: it runs
                    raise ShardClaimed(_claimed(lease._first_overlap(row), row))
                await tx.execute("DELETE FROM shard_leases WHERE shard = ?", (row["shard"],))
            now = to_db(datetime.now(UTC))
            for shard in lease.shards:
                # A row another claim committed meanwhile (PostgreSQL): DO NOTHING makes that a
                # serialization conflict, which claim() answers by claiming again, rather than a
                # unique-key error.
                await tx.execute(
                    "INSERT INTO shard_leases (shard, holder, host, pid, beat, claimed_at) "
                    "VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (shard) DO NOTHING",
                    (shard, lease.holder, lease.host, lease.pid, now),
                )
        return lease

    def _first_overlap(self, row: Row) -> int:
        return self.shards[0] if row["shard"] == ALL_SHARDS else int(row["shard"])

    async def _rivals(self, tx: Transaction | None = None) -> list[Row]:
        """Other holders' rows for any of this process's shards."""
        params: list[object] = [self.holder]
        if self.shards == (ALL_SHARDS,):
            sql = "SELECT * FROM shard_leases WHERE holder <> ?"
        else:
            marks = ", ".join("?" * len(self.shards))
            sql = (
                "SELECT * FROM shard_leases WHERE holder <> ? "
                f"AND (shard = {ALL_SHARDS} OR shard IN ({marks})) ORDER BY shard"
            )
            params.extend(self.shards)
        source: Transaction | Database = self._db if tx is None else tx
        return await source.fetchall(sql, params)

    async def beat(self) -> None:
        """Raise the heartbeat; :class:`ShardClaimed` if another process took a shard over
        (this one was still for longer than :data:`TAKEOVER_AFTER`)."""
        changed = await self._db.write_one(
            "UPDATE shard_leases SET beat = beat + 1 WHERE holder = ? RETURNING shard",
            (self.holder,),
        )
        if len(changed) < len(self.shards):
            raise ShardClaimed(
                "Another Bredon process took over this process's shards (this one did not "
                f"answer for {TAKEOVER_AFTER:g} s): stopping, so that no shard runs twice."
            )

    async def keep(self) -> None:
        """Beat every :data:`BEAT_EVERY` seconds until cancelled or taken over. A beat the
        store refuses for a moment (busy, a full disk) is tried again at the next: stopping to
        beat would let another machine's process take these shards while this one runs them."""
        while True:
            await asyncio.sleep(BEAT_EVERY)
            try:
                await self.beat()
            except (StoreBusy, StoreUnwritable) as error:
                log.warning(
                    "The shards' heartbeat could not be written (%s); trying again in %g s.",
                    getattr(error, "problem", error),
                    BEAT_EVERY,
                )

    async def release(self) -> None:
        """Give the shards back (a clean stop), for the next process to claim at once."""
        await self._db.write_one("DELETE FROM shard_leases WHERE holder = ?", (self.holder,))
