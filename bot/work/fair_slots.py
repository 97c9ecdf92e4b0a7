"""Work shared fairly between players: a few jobs at once, and one at a time for any player."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator


class FairSlots:
    """At most `size` jobs at once (pictures drawn, files read), and at most one for any player:
    a player's next job waits for their last, so what one player sends (a crafted file, a burst
    of commands) delays someone else's job by one job at most. Jobs for no one in particular (a
    game's posts) only wait for a slot."""

    def __init__(self, size: int) -> None:
        self._free = asyncio.Semaphore(size)
        self._turns: dict[int, asyncio.Lock] = {}  # a player's jobs, one at a time
        self._asked: Counter[int] = Counter()  # each player's jobs running or waiting

    @contextlib.asynccontextmanager
    async def slot(self, player_id: int | None = None) -> AsyncIterator[None]:
        if player_id is None:
            async with self._free:
                yield
            return
        turn = self._turns.setdefault(player_id, asyncio.Lock())
        self._asked[player_id] += 1
        try:
            async with turn, self._free:
                yield
        finally:
            self._asked[player_id] -= 1
            if not self._asked[player_id]:
                del self._asked[player_id], self._turns[player_id]


class WorkerShares:
    """`size` worker processes shared between short jobs (the bot's moves below the strongest
    level: a fraction of a second) and long ones (the strongest level's search, an analysis:
    many seconds). Long jobs hold at most `size - 1` workers at once (all of them when there is
    only one), so a short job waits for another short job at most, never for a long one: a
    flood of long searches delays a beginner's reply by no more than a short search. Each kind
    is served in the order it asked."""

    def __init__(self, size: int) -> None:
        self._workers = asyncio.Semaphore(size)
        self._long = asyncio.Semaphore(max(1, size - 1))

    @contextlib.asynccontextmanager
    async def share(self, *, long: bool) -> AsyncIterator[None]:
        if not long:
            async with self._workers:
                yield
            return
        async with self._long, self._workers:
            yield
