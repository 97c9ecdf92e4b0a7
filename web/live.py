"""Pages that update themselves: Server-Sent Events.

One loop a process reads :meth:`bot.published.PublishedService.stamp` (the outbox's highest id:
every move, ending and result is announced there, by whichever process made it) every
`poll_every` seconds, or at once when PostgreSQL's ``NOTIFY`` says the outbox grew, and wakes
the open streams when it did; each stream then reads its own
page's stamp (a game's ply and status) and tells its reader only when that changed. The same
holds inside the bot and in `bredon web` on another machine: the database is the one place all
processes share.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.errors import BredonError
from bot.published import PublishedService
from bot.store import StoreError
from bot.work.waking import store_outage
from web.safety import SECURITY_HEADERS, client_address

log = logging.getLogger(__name__)

MAX_STREAMS = 500  # open at once; more get 503 and the page still works by reload
STREAMS_PER_ADDRESS = 12  # a reader's tabs; one address cannot take all the others' streams
KEEP_ALIVE = 20.0  # seconds between comments that keep proxies from closing a quiet stream


class Live:
    def __init__(self, published: PublishedService, poll_every: float) -> None:
        self._published = published
        self._poll_every = poll_every
        self._changed = asyncio.Condition()
        self._generation = 0
        self._streams: Counter[str] = Counter()
        self._task: asyncio.Task[None] | None = None
        self._nudged = asyncio.Event()
        self._closing = False  # the server stops: every stream ends, so that it can

    async def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="bredon-pages-live")
        await self._published.follow(self._nudged.set)

    async def stop(self) -> None:
        """End the watch and every open stream (the readers' browsers reconnect elsewhere)."""
        self._closing = True
        async with self._changed:
            self._changed.notify_all()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        seen: int | None = None
        while True:
            stamp: int | None
            try:
                stamp = await self._published.stamp()
            except (StoreError, BredonError) as error:  # an outage: the streams wait it out
                log.warning("The pages cannot read the database: %s", error)
                stamp = seen
            if stamp != seen:
                seen = stamp
                async with self._changed:
                    self._generation += 1
                    self._changed.notify_all()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudged.wait(), self._poll_every)
            self._nudged.clear()

    async def _next(self, generation: int) -> int:
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self._generation != generation or self._closing),
                KEEP_ALIVE,
            )
            return self._generation

    async def stream(
        self, request: web.Request, stamp: Callable[[], Awaitable[object]]
    ) -> web.StreamResponse:
        """An event stream telling the reader ``change`` whenever `stamp` (what the page shows)
        changes, until they leave."""
        address = client_address(request)
        if self._streams.total() >= MAX_STREAMS or self._streams[address] >= STREAMS_PER_ADDRESS:
            return web.Response(status=503, text="Too many live pages open: reload instead.\n")
        shown = await stamp()  # before the headers: an outage here is still a plain 503
        response = web.StreamResponse(
            headers={
                **SECURITY_HEADERS,
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        await response.prepare(request)
        if request.method == "HEAD":  # the headers are the answer
            return response
        self._streams[address] += 1
        try:
            generation = self._generation
            await response.write(b"retry: 3000\n\n")
            while not self._closing:
                try:
                    generation = await self._next(generation)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if self._closing:
                    break
                try:
                    now = await stamp()
                except Exception as error:  # headers are sent: an outage is waited out here
                    if not store_outage(error):
                        raise
                    continue
                if now != shown:
                    shown = now
                    data = json.dumps({"stamp": repr(now)})
                    await response.write(f"event: change\ndata: {data}\n\n".encode())
        except ConnectionResetError:  # the reader left
            pass
        finally:
            self._streams[address] -= 1
            if not self._streams[address]:
                del self._streams[address]
        return response
