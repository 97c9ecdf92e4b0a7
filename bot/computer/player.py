"""Bredon at the board: chooses the bot's moves in worker processes and plays them.

The search never runs on the event loop: :class:`Thinker` runs it on a process pool of a few
workers, and :class:`BotPlayer` thinks about one game of each player waiting, the searches
taking the workers in turn. The games are kept in the database, not in memory: every look (when
kicked after a change, and at least every `poll_seconds`) accepts the challenges addressed to
the bot and finds the games where it is to move, so a restart, another process or a crash
mid-search loses nothing; a move computed twice is refused by the ply check
(:meth:`bot.computer.opponent.OpponentService.play`).

Fair use: the bot thinks about one game of a player at a time and takes the players in turn (the
one it last thought for longest ago first, not the game waiting longest), so another player's
reply never waits behind one player's many games. Long work (the strongest level's searches,
analyses) holds at most all workers but one (:class:`bot.work.fair_slots.WorkerShares`), so a
reply at a lower level waits for a short search at most, never for a long one.

A store that cannot answer (:func:`bot.work.waking.store_outage`) is waited out: a move it
failed is tried again after a short pause that doubles while the outage lasts (not at the next
poll, minutes away), and nothing is logged as a bug.

The strongest level asks the server's TEI engine (``BREDON_ENGINE``) through
:class:`tak.engine.FallbackPlayer`, which falls back to Bredon's own player when the engine is
missing, crashes, stalls or answers nonsense, so a broken engine never loses or stalls a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import BrokenExecutor
from typing import Any, TypeVar

from bot.computer.opponent import BotTurn, OpponentService
from bot.players.model import PlayerRef
from bot.settings import DEFAULT_BOT_MOVETIME_MS
from bot.work.fair_slots import WorkerShares
from bot.work.fair_use import DEFAULT_FAIR_USE, FairUse
from bot.work.processes import WorkerPool
from bot.work.waking import Outage, Waker, store_outage
from tak import Opening
from tak.engine import BUILTIN, Choice, FallbackPlayer, builtin_choose
from tak.search import MAX_LEVEL, Limits

log = logging.getLogger(__name__)

DEFAULT_WORKERS = 2
T = TypeVar("T")
POLL_SECONDS = 600.0  # look at the database at least this often (other processes, retries)
MAX_PLAYERS_LOOKED_AT = 1_000  # players with a game waiting, taken in turn, at each look
LOOP_NAME = "bredon-opponent"  # the loop's task, and its name in the outage log lines


class Thinker:
    """Chooses moves off the event loop: our own player on a process pool, the strongest level
    through the configured engine first. A worker that dies (the out-of-memory killer, a crash)
    breaks the whole pool: a new one is started and the work tried once more, so one dead worker
    never stops the bot's games or the analyses for good. Work that breaks the new pool too
    fails (an analysis is marked failed; a bot move is tried again at the next look). A
    level-5 move that waited on the engine may have been given to a pool replaced meanwhile:
    its retry then fails, and the next move heals the pool."""

    def __init__(
        self,
        *,
        workers: int = DEFAULT_WORKERS,
        engine: Sequence[str] | None = None,
        movetime_ms: int = DEFAULT_BOT_MOVETIME_MS,
    ) -> None:
        self._workers = workers
        self._executor = WorkerPool(workers)
        self._shares = WorkerShares(workers)
        self._closed = False
        self.limits = Limits(movetime_ms=movetime_ms)
        self._strongest = FallbackPlayer(engine, level=MAX_LEVEL, executor=self._executor)

    async def _on_workers(self, work: Callable[[], Awaitable[T]]) -> T:
        """`work` on the pool; once more on a new pool if a dead worker broke this one. The
        broken pool's other processes are ended: left running, a search would hold up the exit
        of the bot's process."""
        broken = self._executor
        try:
            return await work()
        except BrokenExecutor:
            if self._closed:
                raise
            if self._executor is broken:  # not replaced yet by another task that saw it
                log.warning("A worker process died: starting new ones.")
                self._executor = WorkerPool(self._workers)
                self._strongest.executor = self._executor
                await asyncio.to_thread(broken.end)
            return await work()

    async def choose(self, turn: BotTurn) -> Choice:
        setup = turn.game.setup
        long = turn.level == MAX_LEVEL  # searches for the whole movetime
        # TEI cannot tell an engine of custom reserves or the no-swap opening: our own player
        # plays those games (at the same level).
        if long and setup.standard_reserves and setup.opening is Opening.SWAP:
            position = turn.position
            async with self._shares.share(long=True):
                return await self._on_workers(
                    lambda: self._strongest.choose(position.copy(), self.limits)
                )
        # Seeded by the game and ply: the same position asked again gets the same move.
        seed = turn.game.id * 1_000 + turn.game.ply
        position = turn.position.copy()
        result = await self.run(builtin_choose, turn.level, seed, position, self.limits, long=long)
        return Choice(result.move, BUILTIN)

    async def run(self, work: Callable[..., T], *args: Any, long: bool = False) -> T:
        """Other work for the worker processes (a game's analysis: `long`), within the same
        bound."""
        loop = asyncio.get_running_loop()
        async with self._shares.share(long=long):
            return await self._on_workers(lambda: loop.run_in_executor(self._executor, work, *args))

    async def close(self) -> None:
        """End the engine and the worker processes, also in the middle of a search."""
        self._closed = True
        await self._strongest.close()
        await asyncio.to_thread(self._executor.end)


class BotPlayer:
    """Plays the bot's side of every game against it, one game of a player at a time."""

    def __init__(
        self,
        service: OpponentService,
        thinker: Thinker,
        me: PlayerRef,
        on_change: Callable[[], None],
        *,
        poll_seconds: float = POLL_SECONDS,
        fair_use: FairUse = DEFAULT_FAIR_USE,
    ) -> None:
        self._service = service
        self._thinker = thinker
        self.me = me
        self._on_change = on_change  # something was written for the players to see
        self._poll_seconds = poll_seconds
        self._fair_use = fair_use
        self._waker = Waker()
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._thinking_for: set[int] = set()  # the players of those games
        self._served: dict[int, int] = {}  # player -> when the bot last began thinking for them
        self._turns = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None  # a move the store failed, tried again
        # The moves' own outage: a look (reads only) that succeeds meanwhile does not end it,
        # so a store refusing only writes (a full disk) is one outage whose pauses keep growing.
        self._moves_outage = Outage()

    def start(self, before: Callable[[], Awaitable[object]] | None = None) -> None:
        run = self._waker.run(
            self._look,
            before,
            failure="The bot's look at its games failed; looking again later.",
            retry_after=self._poll_seconds,
            name=LOOP_NAME,
        )
        self._task = asyncio.create_task(run, name=LOOP_NAME)

    async def stop(self) -> None:
        self._waker.stop()
        if self._retry is not None:
            self._retry.cancel()
        tasks = [*self._thinking.values(), *([self._task] if self._task else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = None

    def kick(self) -> None:
        """Something changed (a move, a challenge): look now (the loop's nap is cut short)."""
        self._waker.kick()

    async def accept_challenges(self) -> None:
        if await self._service.accept_waiting(self.me, self._fair_use):
            self._on_change()

    async def look(self) -> list[asyncio.Task[None]]:
        """Accept the challenges waiting, and start thinking in a game of each player waiting
        whose game is not thought about already, the players in turn (their searches take the
        workers in that order); returns the moves started."""
        await self.accept_challenges()
        waiting = await self._service.games_to_move(self.me.id, MAX_PLAYERS_LOOKED_AT)
        waiting = [game for game in waiting if game.player_id not in self._thinking_for]
        waiting.sort(key=lambda game: self._served.get(game.player_id, -1))  # stable: by wait
        started = []
        for game_id, player_id in waiting:
            self._served[player_id] = next(self._turns)
            self._thinking_for.add(player_id)
            task = asyncio.create_task(
                self._move(game_id, player_id), name=f"bredon-thinks-{game_id}"
            )
            self._thinking[game_id] = task
            started.append(task)
        return started

    async def _move(self, game_id: int, player_id: int) -> None:
        played = False
        try:
            turn = await self._service.turn(game_id, self.me.id)
            if turn is not None:
                choice = await self._thinker.choose(turn)
                played = await self._service.play(turn, self.me.id, choice.move.ptn()) is not None
        except Exception as error:
            if store_outage(error):
                self._try_again_soon(error)
            else:  # the next poll tries again; never a tight loop on a bug
                log.exception("The bot could not move in game %s.", game_id)
        else:
            self._moves_outage.ended(LOOP_NAME)
        finally:
            del self._thinking[game_id]
            self._thinking_for.discard(player_id)
        if played:
            self._on_change()
            self.kick()  # a free worker, and maybe a game waiting for it

    def _try_again_soon(self, error: BaseException) -> None:
        """The store failed a move: look again after the outage's next pause."""
        pause = self._moves_outage.failed(LOOP_NAME, error)
        if self._retry is None or self._retry.when() <= asyncio.get_running_loop().time():
            self._retry = asyncio.get_running_loop().call_later(pause, self.kick)

    async def _look(self) -> float:
        await self.look()
        return self._poll_seconds
