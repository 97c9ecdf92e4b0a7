"""TEI (Tak Engine Interface) server: `python -m tak tei` serves Bredon's player on stdin/stdout.

TEI is UCI for Tak, as tiltak and the racetrack match runner speak it, with TEI v1's additions
(PTN Ninja's): the engine declares the games it plays, and the new game names its komi::

    > tei                                    < id name Bredon / id version ... / option ... /
                                               size 3 4 5 6 7 8 halfkomi -9 ... 9 / teiok
    > setoption name Level value 3           (1 beginner .. 5 strongest)
    > isready                                < readyok
    > teinewgame size 6 halfkomi 4           (TEI v1; komi in half flats, for player 2)
    > teinewgame 6                           (older GUIs, after setoption name HalfKomi value 4)
    > position startpos moves a1 f6          (or: position tps <TPS> [moves ...])
    > go movetime 500                        < info depth 1 score cp 35 nodes 80 ... / bestmove c3
    > go wtime 60000 btime 60000 winc 1000 binc 1000
    > go nodes 2000 | go depth 3 | go infinite, then stop
    > quit

The search runs in a thread, so `stop`, `isready` and `quit` are answered while it thinks (a new
`position`, `go` or `teinewgame` waits for its bestmove). A line
that cannot be understood gets a reason on stderr and as `info string error: ...`, and the
server carries on.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import TextIO

from tak.errors import TakError
from tak.moves import MAX_SIZE, MIN_SIZE
from tak.position import MAX_KOMI, Position
from tak.search import (
    MAX_DEPTH,
    MAX_LEVEL,
    MIN_LEVEL,
    WIN_ZONE,
    Limits,
    Player,
    SearchResult,
    forget,
)

NAME = "Bredon"
AUTHOR = "the Bredon contributors"
MAX_HALF_KOMI = int(MAX_KOMI * 2)
SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))
VERSION = "1"  # of this TEI server; the bot's own version is the package's
# Never plan to use more than this share of the clock on one move, and keep this much in hand for
# the pipe and the process.
SAFETY_MS = 50


class TEIError(ValueError):
    """A command the server does not understand or cannot carry out."""


@dataclass(frozen=True, slots=True)
class Clock:
    """`go wtime/btime/winc/binc`: time left and increment for each player, in milliseconds."""

    wtime: int
    btime: int
    winc: int = 0
    binc: int = 0

    def budget_ms(self, white_to_move: bool) -> int:
        """How long to think: a slice of the time left plus most of the increment, never more
        than a third of what is left (less a safety margin)."""
        left, inc = (self.wtime, self.winc) if white_to_move else (self.btime, self.binc)
        budget = left // 25 + inc * 3 // 4
        return max(1, min(budget, left // 3 - SAFETY_MS))


class Server:
    """One TEI session: reads commands, writes answers. `run` returns at `quit` or end of input."""

    def __init__(
        self, output: TextIO, errors: TextIO, level: int = MAX_LEVEL, seed: int | None = None
    ) -> None:
        self.output = output
        self.errors = errors
        self.seed = seed
        self.level = level
        self.half_komi = 0
        self.size = 6
        self.position = Position(self.size)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thinker: threading.Thread | None = None

    # ----------------------------------------------------------------- I/O

    def send(self, line: str) -> None:
        with self._lock:
            self.output.write(line + "\n")
            self.output.flush()

    def complain(self, message: str) -> None:
        with self._lock:
            self.errors.write(message + "\n")
            self.errors.flush()
        self.send(f"info string error: {message}")

    def run(self, lines: TextIO) -> None:
        for line in lines:
            if not self.handle(line):
                break
        self.wait()

    def handle(self, line: str) -> bool:
        """Carry out one command; False after `quit`."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        if command == "quit":
            self._stop.set()
            return False
        handler = _COMMANDS.get(command)
        try:
            if handler is None:
                raise TEIError(f"Unknown command {command!r}.")
            handler(self, arguments)
        except (TEIError, TakError, ValueError) as error:
            self.complain(str(error))
        return True

    # ----------------------------------------------------------------- commands

    def _tei(self, _arguments: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(f"id version {VERSION}")
        self.send(
            f"option name HalfKomi type spin default 0 min {-MAX_HALF_KOMI} max {MAX_HALF_KOMI}"
        )
        self.send(
            f"option name Level type spin default {MAX_LEVEL} min {MIN_LEVEL} max {MAX_LEVEL}"
        )
        sizes = " ".join(map(str, SIZES))
        half_komis = " ".join(map(str, range(-MAX_HALF_KOMI, MAX_HALF_KOMI + 1)))
        self.send(f"size {sizes} halfkomi {half_komis}")
        self.send("teiok")

    def _isready(self, _arguments: list[str]) -> None:
        self.send("readyok")

    def _setoption(self, arguments: list[str]) -> None:
        if len(arguments) != 4 or arguments[0] != "name" or arguments[2] != "value":
            raise TEIError("Write setoption name <HalfKomi|Level> value <number>.")
        name, text = arguments[1], arguments[3]
        try:
            value = int(text)
        except ValueError:
            raise TEIError(f"The value of {name} must be a whole number, not {text!r}.") from None
        if name.lower() == "halfkomi":
            if not -MAX_HALF_KOMI <= value <= MAX_HALF_KOMI:
                raise TEIError(f"HalfKomi runs from {-MAX_HALF_KOMI} to {MAX_HALF_KOMI}.")
            self.half_komi = value
        elif name.lower() == "level":
            if not MIN_LEVEL <= value <= MAX_LEVEL:
                raise TEIError(f"Level runs from {MIN_LEVEL} to {MAX_LEVEL}.")
            self.level = value
        else:
            raise TEIError(f"Unknown option {name!r}: the options are HalfKomi and Level.")

    def _teinewgame(self, arguments: list[str]) -> None:
        self.wait()  # a new position or search waits for the bestmove
        usage = (
            "Write teinewgame size <size> halfkomi <half-komi>, e.g. teinewgame size 6 halfkomi 4."
        )
        if len(arguments) == 1 and arguments[0].isdigit():  # before TEI v1: the size alone
            size, half_komi = int(arguments[0]), self.half_komi
        elif len(arguments) == 4 and arguments[0] == "size" and arguments[2] == "halfkomi":
            try:
                size, half_komi = int(arguments[1]), int(arguments[3])
            except ValueError:
                raise TEIError(usage) from None
        else:
            raise TEIError(usage)
        if not -MAX_HALF_KOMI <= half_komi <= MAX_HALF_KOMI:
            raise TEIError(f"The half-komi runs from {-MAX_HALF_KOMI} to {MAX_HALF_KOMI}.")
        self.position = Position(size, komi=half_komi / 2)  # refuses a size Bredon does not play
        self.half_komi, self.size = half_komi, size
        forget()  # the strongest level's table of the last game is of no more use

    def _position(self, arguments: list[str]) -> None:
        self.wait()  # a new position or search waits for the bestmove
        if not arguments:
            raise TEIError("Write position startpos [moves ...] or position tps <TPS> [moves ...].")
        komi = self.half_komi / 2
        if arguments[0] == "startpos":
            position, rest = Position(self.size, komi=komi), arguments[1:]
        elif arguments[0] == "tps" and len(arguments) >= 4:
            position = Position.from_tps(" ".join(arguments[1:4]), komi=komi)
            rest = arguments[4:]
        else:
            raise TEIError("Write position startpos [moves ...] or position tps <TPS> [moves ...].")
        if rest and rest[0] == "moves":
            rest = rest[1:]
        elif rest:
            raise TEIError(f"Expected 'moves' after the position, not {rest[0]!r}.")
        for text in rest:
            try:
                position.play(text)
            except TakError as error:
                raise TEIError(f"{text}: {error}") from None
        self.position = position

    def _go(self, arguments: list[str]) -> None:
        self.wait()  # a new position or search waits for the bestmove
        limits = self._limits(arguments)
        if self.position.result is not None:
            raise TEIError(f"The game is over ({self.position.result.ptn()}): no move to search.")
        position = self.position.copy()
        player = Player(self.level, self.seed)
        self._stop.clear()
        self._thinker = threading.Thread(
            target=self._think, args=(player, position, limits), daemon=True
        )
        self._thinker.start()

    def _limits(self, arguments: list[str]) -> Limits:
        if len(arguments) == 1 and arguments[0] == "infinite":
            return Limits(depth=MAX_DEPTH)  # until `stop` (or the level's node cap)
        if len(arguments) % 2:
            raise TEIError(
                "Write go movetime <ms>, go wtime <ms> btime <ms> [winc <ms> binc <ms>], "
                "go nodes <n>, go depth <n> or go infinite."
            )
        values: dict[str, int] = {}
        for key, text in zip(arguments[::2], arguments[1::2], strict=True):
            if key not in ("movetime", "wtime", "btime", "winc", "binc", "nodes", "depth"):
                raise TEIError(f"Unknown go parameter {key!r}.")
            if not text.isdigit():
                raise TEIError(f"go {key} takes a whole number of milliseconds or nodes.")
            values[key] = int(text)
        movetime = values.get("movetime")
        if "wtime" in values or "btime" in values:
            if "wtime" not in values or "btime" not in values:
                raise TEIError("go needs both wtime and btime.")
            clock = Clock(
                values["wtime"], values["btime"], values.get("winc", 0), values.get("binc", 0)
            )
            budget = clock.budget_ms(self.position.ply % 2 == 0)
            movetime = min(movetime, budget) if movetime else budget
        return Limits(
            movetime_ms=max(1, movetime) if movetime is not None else None,
            nodes=values.get("nodes"),
            depth=values.get("depth"),
        )

    def _stop_command(self, _arguments: list[str]) -> None:
        self._stop.set()

    # ----------------------------------------------------------------- searching

    def _think(self, player: Player, position: Position, limits: Limits) -> None:
        try:
            result = player.choose(position, limits, info=self._info, stop=self._stop.is_set)
        except Exception as error:  # the thread must answer, whatever happens
            self.complain(f"The search failed: {error}")
            return
        self.send(f"bestmove {result.move.ptn()}")

    def _info(self, result: SearchResult) -> None:
        if result.mate_in is not None:
            moves = (abs(result.mate_in) + 1) // 2
            score = f"mate {moves if result.mate_in > 0 else -moves}"
        else:
            score = f"cp {max(-WIN_ZONE, min(WIN_ZONE, result.score))}"
        nps = result.nodes * 1000 // max(1, result.time_ms)
        pv = " ".join(move.ptn() for move in result.pv)
        self.send(
            f"info depth {result.depth} score {score} nodes {result.nodes} "
            f"time {result.time_ms} nps {nps} pv {pv}"
        )

    def wait(self) -> None:
        if self._thinker is not None:
            self._thinker.join()


_COMMANDS = {
    "tei": Server._tei,
    "isready": Server._isready,
    "setoption": Server._setoption,
    "teinewgame": Server._teinewgame,
    "position": Server._position,
    "go": Server._go,
    "stop": Server._stop_command,
}


def main(level: int = MAX_LEVEL, seed: int | None = None) -> int:
    """Serve on stdin/stdout until `quit` or the end of input."""
    Server(sys.stdout, sys.stderr, level, seed).run(sys.stdin)
    return 0
