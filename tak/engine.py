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
import math
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


class EngineUnsupportedGame(EngineError):
    """The engine declared (TEI v1) that it does not play this size or komi. The engine is
    still usable for the games it does play."""


@dataclass(slots=True)
class EngineId:
    """What the engine said about itself in the handshake. A TEI v1 engine declares the games
    it plays (``size 5 6 halfkomi 0 4``: those sizes, each with those half-komis); an older
    engine declares none, and is asked for any game as before."""

    name: str = "unknown engine"
    author: str = ""
    version: str = ""
    options: dict[str, str] = field(default_factory=dict)
    games: dict[int, frozenset[int]] = field(default_factory=dict)  # size -> half-komis

    @property
    def tei_version(self) -> int:
        return 1 if self.games else 0

    def plays(self, size: int, half_komi: int) -> bool:
        return not self.games or half_komi in self.games.get(size, frozenset())

    def declare(self, words: list[str]) -> None:
        """Read a TEI v1 declaration line: ``size <sizes...> halfkomi <half-komis...>``."""
        sizes: list[int] = []
        half_komis: list[int] = []
        target = sizes
        for word in words:
            if word == "size":
                target = sizes
            elif word == "halfkomi":
                target = half_komis
            else:
                try:
                    target.append(int(word))
                except ValueError:
                    raise EngineProtocolError(
                        f"{self.name} declared {' '.join(words)!r}: {word!r} is not a number."
                    ) from None
        for size in sizes:
            self.games[size] = self.games.get(size, frozenset()) | frozenset(half_komis)

    def unsupported(self, size: int, half_komi: int) -> str:
        """Why the engine does not play this game, in a sentence."""
        declared = ", ".join(
            f"{size}x{size} (half-komi {', '.join(map(str, sorted(komis)))})"
            for size, komis in sorted(self.games.items())
        )
        return f"{self.name} plays {declared}; not {size}x{size} with half-komi {half_komi}."


@dataclass(frozen=True, slots=True)
class EngineLine:
    """One line the engine reported while searching (``info``): its number among the lines it
    reports at once (``multipv``, 1 for the best), its score in centi-flats for the side to
    move, its win/draw/loss chances in thousandths when given (``wdl``), and its moves."""

    multipv: int = 1
    depth: int | None = None
    score: int | None = None
    wdl: tuple[int, int, int] | None = None
    pv: tuple[str, ...] = ()


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
                elif words[:2] == ["id", "version"]:
                    engine_id.version = " ".join(words[2:])
                elif words[:1] == ["size"]:
                    engine_id.declare(words)
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
        """`teinewgame size <size> halfkomi <half-komi>` to a TEI v1 engine (which must have
        declared that game, else :class:`EngineUnsupportedGame`); to an older one
        `setoption name HalfKomi` and `teinewgame <size>`. Then wait for `readyok`."""
        async with self._lock:
            self._check_usable()
            await self._new_game(size, half_komi)

    async def _new_game(self, size: int, half_komi: int) -> None:
        if not self.id.plays(size, half_komi):
            raise EngineUnsupportedGame(self.id.unsupported(size, half_komi))
        if self.id.tei_version >= 1:
            await self._send(f"teinewgame size {size} halfkomi {half_komi}")
        else:
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
        move, _lines = await self._search(position, limits, timeout)
        return move

    async def evaluate(
        self, position: Position, limits: Limits, *, timeout: float | None = None
    ) -> int | None:
        """The last score the engine reported for its best line while searching `position`, in
        centi-flats for the side to move (a forced result as ±(WIN - plies); from `wdl` alone
        when it gave no score), or None if it reported none."""
        _move, lines = await self._search(position, limits, timeout)
        return lines[0].score if lines else None

    async def analyse(
        self, position: Position, limits: Limits, *, timeout: float | None = None
    ) -> list[EngineLine]:
        """The lines the engine last reported for `position`, best first (several when its
        MultiPV option asks for several), each with what it said of it."""
        _move, lines = await self._search(position, limits, timeout)
        return lines

    async def _search(
        self, position: Position, limits: Limits | Clock, timeout: float | None
    ) -> tuple[Move, list[EngineLine]]:
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
            lines: dict[int, EngineLine] = {}
            while True:
                left = max(0.0, deadline - loop.time())
                words = (await self._read_line(left, "go", waited)).split()
                if words[:1] == ["bestmove"]:
                    break
                if words[:1] == ["info"]:
                    reported = read_info(words, lines)
                    if reported is not None:
                        lines[reported.multipv] = reported
            if len(words) < 2:
                raise self._fail(EngineProtocolError(f"{self.id.name} sent bestmove and no move."))
            try:
                move = parse_move(words[1])
                position.check(move)
            except TakError as error:
                raise self._fail(
                    EngineProtocolError(f"{self.id.name} played {words[1]!r}: {error}")
                ) from None
            return move, [lines[number] for number in sorted(lines)]


_INFO_KEYS = frozenset(
    ("depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "time", "hashfull", "pv")
)


def read_info(words: list[str], lines: dict[int, EngineLine]) -> EngineLine | None:
    """What an `info` line says of one line of play, merged with what was said of it before
    (an engine may give its score and its pv on separate lines), or None if it says nothing
    of a line (`info string ...`). Scores: `score cp 35`, `score solved win 5` (plies, TEI),
    `score mate -3` (moves, UCI); `wdl 520 310 170` (thousandths) alone gives a score by the
    logistic curve, 100 centi-flats per factor e of the odds."""
    fields: dict[str, list[str]] = {}
    key = ""
    for word in words[1:]:
        if word == "string":
            break
        if word in _INFO_KEYS and key != "pv":
            key = word
            fields[key] = []
        elif key:
            fields[key].append(word)
    try:
        multipv = int(fields["multipv"][0]) if "multipv" in fields else 1
        depth = int(fields["depth"][0]) if "depth" in fields else None
        score = _score(fields.get("score", []))
        wdl_words = fields.get("wdl", [])
        wdl = (int(wdl_words[0]), int(wdl_words[1]), int(wdl_words[2])) if wdl_words else None
    except (ValueError, IndexError):
        return None
    if depth is None and score is None and wdl is None and "pv" not in fields:
        return None
    before = lines.get(multipv, EngineLine(multipv))
    if score is None and wdl is not None:
        score = _score_of_chances(wdl)
    return EngineLine(
        multipv,
        depth if depth is not None else before.depth,
        score if score is not None else before.score,
        wdl if wdl is not None else before.wdl,
        tuple(fields["pv"]) if "pv" in fields else before.pv,
    )


def _score(words: list[str]) -> int | None:
    """`cp <centi-flats>`, TEI's `solved win|loss|draw <plies>`, or UCI's `mate <moves>`."""
    if words[:1] == ["solved"] and len(words) >= 3:
        outcome, plies = words[1], int(words[2])
        return {"win": WIN - plies, "loss": plies - WIN, "draw": 0}.get(outcome)
    if len(words) < 2:
        return None
    kind, value = words[0], int(words[1])
    if kind == "cp":
        return value
    if kind == "mate" and value != 0:
        return WIN - 2 * value + 1 if value > 0 else -WIN - 2 * value
    return None


def _score_of_chances(wdl: tuple[int, int, int]) -> int:
    wins, draws, losses = wdl
    total = wins + draws + losses
    if total <= 0:
        return 0
    expected = min(max((wins + draws / 2) / total, 0.001), 0.999)
    return round(100 * math.log(expected / (1 - expected)))


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
            except EngineUnsupportedGame as error:  # the engine is fine: not its game
                failure = str(error)
                log.info("Bredon plays this move itself: %s", failure)
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
