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
