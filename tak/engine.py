"""Talk to Tak engines over TEI (like `chess.engine`), with Bredon's own player as the fall-back.

    engine = await Engine.start(["tiltak", "tei"])      # or [sys.executable, "-m", "tak", "tei"]
    await engine.new_game(6, half_komi=4)
    move = await engine.play(position, Limits(movetime_ms=1000))
    await engine.quit()

Everything the engine does is bounded by a timeout: the handshake, `isready`, every search
(its movetime plus a grace period). An engine that exits, stalls, writes nonsense or answers an
illegal move raises an :class:`EngineError` subclass and is then unusable until :meth:`restart`.

:class:`FallbackPlayer` is what a game should use: the configured external engine first, and
Bredon's own player whenever the engine cannot be started or fails, so that a broken engine never
loses or stalls a game.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

from tak.errors import TakError
from tak.moves import Move, parse_move
from tak.position import Position
from tak.search import WIN, Limits, Player, SearchResult
from tak.tei import Clock

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT = 10.0
READY_TIMEOUT = 10.0
# A search may overrun its movetime by this much (pipes, process start-up, a slow machine)
# before the engine is taken for stalled.
GRACE_SECONDS = 2.0
# A search bounded only by nodes or depth gets this long.
UNTIMED_SEARCH_TIMEOUT = 60.0
BUILTIN = "Bredon (built-in)"  # Choice.chosen_by when our own player chose


class EngineError(Exception):
    """The engine could not answer as TEI asks."""


class EngineTimeout(EngineError):
    """The engine did not answer in time (a stalled engine)."""


class EngineTerminated(EngineError):
    """The engine process is not running (it exited, crashed or was never started)."""


class EngineProtocolError(EngineError):
    """The engine answered something TEI does not allow, e.g. an illegal move."""


@dataclass(slots=True)
class EngineId:
    """What the engine said about itself in the handshake."""

    name: str = "unknown engine"
    author: str = ""
    options: dict[str, str] = field(default_factory=dict)


class Engine:
    """One TEI engine process, driven with asyncio. Requests are served one at a time."""

    def __init__(self, command: Sequence[str], handshake_timeout: float) -> None:
        self.command = list(command)
        self.handshake_timeout = handshake_timeout
        self.id = EngineId()
        self._process: asyncio.subprocess.Process | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._lock = asyncio.Lock()
        self._broken: str | None = None
        self._game: tuple[int, int] | None = None

    @classmethod
    async def start(
        cls, command: Sequence[str], *, handshake_timeout: float = HANDSHAKE_TIMEOUT
    ) -> Engine:
        """Start the engine and do the `tei`/`teiok` handshake; EngineError if it fails."""
        engine = cls(command, handshake_timeout)
        await engine._launch()
        return engine

    # ----------------------------------------------------------------- process

    async def _launch(self) -> None:
        self._broken = None
        self._game = None
        self._stderr.clear()
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        except OSError as error:
            raise EngineTerminated(f"Could not start {' '.join(self.command)}: {error}") from error
        self._stderr_task = asyncio.create_task(self._drain_stderr(self._process))
        try:
            await self._send("tei")
            engine_id = EngineId()
            while True:
                words = (await self._read_line(self.handshake_timeout, "tei")).split()
                if words[:1] == ["teiok"]:
                    break
                if words[:2] == ["id", "name"]:
                    engine_id.name = " ".join(words[2:])
                elif words[:2] == ["id", "author"]:
                    engine_id.author = " ".join(words[2:])
                elif words[:2] == ["option", "name"] and len(words) > 2:
                    engine_id.options[words[2]] = " ".join(words[3:])
            self.id = engine_id
        except EngineError:
            await self.close()
            raise

    async def _drain_stderr(self, process: asyncio.subprocess.Process) -> None:
        """Keep the last lines the engine wrote on stderr, for error messages."""
        assert process.stderr is not None
        while line := await process.stderr.readline():
            self._stderr.append(line.decode(errors="replace").rstrip())

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None and not self._broken

    async def restart(self) -> None:
        """Stop the process, whatever state it is in, and start it again with a handshake."""
        async with self._lock:
            await self.close()
            await self._launch()

    async def quit(self, timeout: float = 2.0) -> None:
        """Ask the engine to quit; kill it if it does not within `timeout`."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(EngineError):
                await self._send("quit")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), timeout)
        await self.close()

    async def close(self) -> None:
        """Kill the process (if running) and release its pipes."""
        process, self._process = self._process, None
        if process is not None:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            await process.wait()
            if process.stdin is not None:
                process.stdin.close()
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._stderr_task
            self._stderr_task = None

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.quit()

    # ----------------------------------------------------------------- lines

    def _fail(self, error: EngineError) -> EngineError:
        """Mark the engine unusable (its output is out of step now) and return the error."""
        self._broken = str(error)
        return error

    def _why_dead(self) -> str:
        tail = " | ".join(self._stderr)
        code = self._process.returncode if self._process is not None else None
        return f"{self.id.name} exited (code {code})" + (f": {tail}" if tail else ".")

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.returncode is not None:
            raise self._fail(EngineTerminated(self._why_dead()))
        assert process.stdin is not None
        try:
            process.stdin.write((line + "\n").encode())
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as error:
            raise self._fail(EngineTerminated(self._why_dead())) from error

    async def _read_line(
        self, timeout: float, waiting_for: str, allowed: float | None = None
    ) -> str:
        """The next line, within `timeout` seconds (what is left of `allowed`, if given)."""
        process = self._process
        assert process is not None and process.stdout is not None
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), timeout)
        except TimeoutError:
            raise self._fail(
                EngineTimeout(
                    f"{self.id.name} did not answer {waiting_for} within "
                    f"{allowed if allowed is not None else timeout:g} s."
                )
            ) from None
        if not raw:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 1.0)
            raise self._fail(EngineTerminated(self._why_dead()))
        return raw.decode(errors="replace").strip()

    def _check_usable(self) -> None:
        if self._broken:
            raise EngineTerminated(f"{self.id.name} is unusable ({self._broken}); restart it.")
        if self._process is None or self._process.returncode is not None:
            raise self._fail(EngineTerminated(self._why_dead()))

    # ----------------------------------------------------------------- TEI requests

    async def ping(self, timeout: float = READY_TIMEOUT) -> None:
        """`isready`/`readyok`: EngineTimeout if the engine does not answer in time."""
        async with self._lock:
            self._check_usable()
            await self._ready(timeout)

    async def _ready(self, timeout: float) -> None:
        await self._send("isready")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (
            await self._read_line(max(0.0, deadline - loop.time()), "isready", timeout) != "readyok"
        ):
            pass

    async def set_option(self, name: str, value: int | str) -> None:
        async with self._lock:
            self._check_usable()
            await self._send(f"setoption name {name} value {value}")

    async def new_game(self, size: int, half_komi: int = 0) -> None:
        """`setoption name HalfKomi` and `teinewgame <size>`, then wait for `readyok`."""
        async with self._lock:
            self._check_usable()
            await self._new_game(size, half_komi)

    async def _new_game(self, size: int, half_komi: int) -> None:
        await self._send(f"setoption name HalfKomi value {half_komi}")
        await self._send(f"teinewgame {size}")
        await self._ready(READY_TIMEOUT)
        self._game = (size, half_komi)

    async def play(
        self,
        position: Position,
        limits: Limits | Clock,
        *,
        timeout: float | None = None,
    ) -> Move:
        """The engine's move in `position`, checked legal there.

        A new game (size, komi) is announced first when the position is not of the current one.
        `timeout` defaults to the movetime (or the clock's time left) plus a grace period.
        """
        move, _score = await self._search(position, limits, timeout)
        return move

    async def evaluate(
        self, position: Position, limits: Limits, *, timeout: float | None = None
    ) -> int | None:
        """The last score the engine reported while searching `position`, in centi-flats for
        the side to move (`score mate N` as ±(WIN - plies)), or None if it reported none."""
        _move, score = await self._search(position, limits, timeout)
        return score

    async def _search(
        self, position: Position, limits: Limits | Clock, timeout: float | None
    ) -> tuple[Move, int | None]:
        if position.result is not None:
            raise TakError(f"The game is over ({position.result.ptn()}): there is no move to ask.")
        async with self._lock:
            self._check_usable()
            game = (position.size, round(position.equivalent_komi * 2))
            if self._game != game:
                await self._new_game(*game)
            await self._send(_position_command(position))
            await self._send(_go_command(limits))
            waited = timeout if timeout is not None else _timeout(limits, position)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + waited
            score = None
            while True:
                left = max(0.0, deadline - loop.time())
                words = (await self._read_line(left, "go", waited)).split()
                if words[:1] == ["bestmove"]:
                    break
                if words[:1] == ["info"]:
                    score = _reported_score(words, score)
            if len(words) < 2:
                raise self._fail(EngineProtocolError(f"{self.id.name} sent bestmove and no move."))
            try:
                move = parse_move(words[1])
                position.check(move)
            except TakError as error:
                raise self._fail(
                    EngineProtocolError(f"{self.id.name} played {words[1]!r}: {error}")
                ) from None
            return move, score


def _reported_score(words: list[str], last: int | None) -> int | None:
    """The score of an `info` line (`score cp 35`, `score mate -3`), else the last one."""
    try:
        at = words.index("score")
        kind, value = words[at + 1], int(words[at + 2])
    except (ValueError, IndexError):
        return last
    if kind == "cp":
        return value
    if kind == "mate" and value != 0:
        return WIN - 2 * value + 1 if value > 0 else -WIN - 2 * value
    return last


def _position_command(position: Position) -> str:
    """`position startpos moves ...` for a game played from the empty board, else `position tps`."""
    history = position.moves
    start = position.copy()
    for _ in history:
        start.pop()
    empty_board = "/".join([f"x{position.size}"] * position.size)
    if start.ply == 0 and start.tps().split()[0] == empty_board:
        moves = " moves " + " ".join(move.ptn() for move in history) if history else ""
        return "position startpos" + moves
    return f"position tps {position.tps()}"


def _go_command(limits: Limits | Clock) -> str:
    if isinstance(limits, Clock):
        return f"go wtime {limits.wtime} btime {limits.btime} winc {limits.winc} binc {limits.binc}"
    parts = ["go"]
    if limits.movetime_ms is not None:
        parts += ["movetime", str(limits.movetime_ms)]
    if limits.nodes is not None:
        parts += ["nodes", str(limits.nodes)]
    if limits.depth is not None:
        parts += ["depth", str(limits.depth)]
    if len(parts) == 1:
        raise ValueError("Give the engine a limit: a movetime, nodes or a depth.")
    return " ".join(parts)


def _timeout(limits: Limits | Clock, position: Position) -> float:
    if isinstance(limits, Clock):
        left = limits.wtime if position.ply % 2 == 0 else limits.btime
        return left / 1000 + GRACE_SECONDS
    if limits.movetime_ms is not None:
        return limits.movetime_ms / 1000 * 1.5 + GRACE_SECONDS
    return UNTIMED_SEARCH_TIMEOUT


# ----------------------------------------------------------------------------- fall-back


@dataclass(frozen=True, slots=True)
class Choice:
    """A move for a game: who chose it, and why the engine was passed over (if it was)."""

    move: Move
    chosen_by: str
    engine_failure: str | None = None


def builtin_choose(
    level: int, seed: int | None, position: Position, limits: Limits
) -> SearchResult:
    """Bredon's player, as a plain function that a process pool can run."""
    return Player(level, seed).choose(position, limits)


class FallbackPlayer:
    """The configured TEI engine if any, else (or whenever it fails) Bredon's own player.

    The engine is started on first use and restarted on the next move after it failed, so one
    crash costs one move of the engine's, never the game. Our own search runs on `executor`
    (default: a thread; the bot passes a process pool to keep the event loop free).
    """

    def __init__(
        self,
        command: Sequence[str] | None,
        *,
        level: int,
        seed: int | None = None,
        executor: Executor | None = None,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
    ) -> None:
        self.command = list(command) if command else None
        self.level = level
        self.seed = seed
        self.executor = executor
        self.handshake_timeout = handshake_timeout
        self.engine: Engine | None = None
        self._starting = asyncio.Lock()

    async def choose(
        self, position: Position, limits: Limits, *, timeout: float | None = None
    ) -> Choice:
        failure = None
        if self.command is not None:
            try:
                engine = await self._engine()
                move = await engine.play(position, limits, timeout=timeout)
                return Choice(move, engine.id.name)
            except EngineError as error:
                failure = str(error)
                log.warning("Engine failed, Bredon plays this move itself: %s", failure)
                await self._drop_engine()
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            self.executor, builtin_choose, self.level, self.seed, position.copy(), limits
        )
        return Choice(result.move, BUILTIN, failure)

    async def _engine(self) -> Engine:
        assert self.command is not None
        async with self._starting:
            if self.engine is None or not self.engine.alive:
                await self._drop_engine()
                self.engine = await Engine.start(
                    self.command, handshake_timeout=self.handshake_timeout
                )
            return self.engine

    async def _drop_engine(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            await engine.close()

    async def close(self) -> None:
        if self.engine is not None:
            await self.engine.quit()
            self.engine = None
