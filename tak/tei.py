"""TEI (Tak Engine Interface) server: `python -m tak tei` serves Bredon's player on stdin/stdout.

TEI is UCI for Tak, as tiltak and the racetrack match runner speak it, with TEI v1's additions
(PTN Ninja's tei.md): the engine declares the games it plays, and the new game names its komi::

    > tei                                    < id name Bredon / id version ... / option ... /
                                               size 3 4 5 6 7 8 halfkomi -9 ... 9 / teiok
    > setoption name Level value 3           (1 beginner .. 5 strongest)
    > isready                                < readyok (the search is loaded here, not before)
    > teinewgame size 6 halfkomi 4           (TEI v1; komi in half flats, for player 2; without
                                              halfkomi, 0)
    > teinewgame 6                           (older GUIs, after setoption name HalfKomi value 4)
    > setoption name Flats value 20          (after teinewgame, for a game with other reserves:
                                              Flats and Caps for both players, Flats1, Flats2,
                                              Caps1 and Caps2 for one; teinewgame sets the size's
                                              standard ones again)
    > position startpos moves a1 f6          (or: position tps <TPS> [moves ...])
    > go movetime 500                        < info depth 1 score cp 35 nodes 80 ... / ... /
                                               info (the final one) / bestmove c3; a forced
                                               result: score solved win|loss <plies>
    > go wtime 60000 btime 60000 winc 1000 binc 1000 [movestogo 20]
    > go nodes 2000 | go depth 3 | go infinite (or a bare go), then stop
    > quit

The handshake is answered from constants (tak/standard.py): `teiok` comes before the rules are
imported, and the search loads at the first `isready` (or whatever needs it first), as tei.md
asks; `benchmarks/handshake.py` times it. The search runs in a thread, so `stop`, `isready` and
`quit` are answered while it thinks (a new `position`, `go` or `teinewgame` waits for its
bestmove). Every `go` gets a bestmove (`bestmove --` when there is no move to search), just after
a final `info` line. A line that cannot be understood gets a reason on stderr and as
`info string error: ...`, and changes nothing; in a `go` or a `teinewgame`, words that cannot be
used are reported as `info string ignored: ...` and the rest is carried out.
"""

from __future__ import annotations

import importlib
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from tak.errors import TakError
from tak.standard import MAX_KOMI, MAX_RESERVE, STANDARD_RESERVES

if TYPE_CHECKING:
    from tak.position import Position
    from tak.search import Limits, Player, SearchResult

NAME = "Bredon"
AUTHOR = "the Bredon contributors"
MAX_HALF_KOMI = int(MAX_KOMI * 2)
SIZES = tuple(sorted(STANDARD_RESERVES))
# The numbers of tak.search's levels, written here so that the handshake can declare them without
# importing the search (tests/tak/test_tei.py checks that the two agree).
LEVELS = range(1, 6)
VERSION = "1"  # of this TEI server; the bot's own version is the package's
# Never plan to use more than this share of the clock on one move, and keep this much in hand for
# the pipe and the process.
SAFETY_MS = 50
# The parameters of `go` that take a number (TEI's and UCI's `mate`), with the smallest allowed;
# movestogo and mate are read and not used. TEI's flags: `infinite`, and `solved` (searched as
# any other go).
GO_NUMBERS = {
    "wtime": 0,
    "btime": 0,
    "winc": 0,
    "binc": 0,
    "movestogo": 1,
    "movetime": 1,
    "depth": 1,
    "nodes": 1,
    "mate": 1,
}
GO_FLAGS = frozenset(("infinite", "solved"))
# The piece counts PTN Ninja sends for a game with other reserves: (stones or capstones, players).
PIECE_COUNTS = {
    "Flats": ("stones", (0, 1)),
    "Caps": ("caps", (0, 1)),
    "Flats1": ("stones", (0,)),
    "Flats2": ("stones", (1,)),
    "Caps1": ("caps", (0,)),
    "Caps2": ("caps", (1,)),
}


class TEIError(ValueError):
    """A command the server does not understand or cannot carry out."""


def checked_level(level: int) -> int:
    """The level, or TEIError naming the range."""
    if level not in LEVELS:
        raise TEIError(f"Level runs from {LEVELS[0]} to {LEVELS[-1]}.")
    return level


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


@dataclass(frozen=True, slots=True)
class GoCommand:
    """The words of a `go`: the numbers it gives, its flags, and what cannot be used (each with
    the reason), in the order written."""

    numbers: dict[str, int]
    flags: frozenset[str]
    ignored: tuple[str, ...]

    @classmethod
    def read(cls, words: list[str]) -> GoCommand:
        numbers: dict[str, int] = {}
        flags: set[str] = set()
        ignored: list[str] = []
        known = GO_NUMBERS.keys() | GO_FLAGS
        index = 0
        while index < len(words):
            word = words[index]
            if word in GO_FLAGS:
                flags.add(word)
                index += 1
            elif word in GO_NUMBERS:
                following = words[index + 1] if index + 1 < len(words) else ""
                text = "" if following in known else following  # its number, if it has one
                smallest = GO_NUMBERS[word]
                if text.isascii() and text.isdigit() and int(text) >= smallest:
                    numbers[word] = int(text)
                else:
                    ignored.append(
                        f"{word} {text}".rstrip() + f" ({word} takes a whole number from "
                        f"{smallest})"
                    )
                index += 2 if text else 1
            else:  # an unknown word, with the words after it up to the next known parameter
                end = index + 1
                while end < len(words) and words[end] not in known:
                    end += 1
                ignored.append(f"{' '.join(words[index:end])} (not a go parameter of TEI)")
                index = end
        return cls(numbers, frozenset(flags), tuple(ignored))


class Server:
    """One TEI session: reads commands, writes answers. `run` returns at `quit` or end of input."""

    def __init__(
        self, output: TextIO, errors: TextIO, level: int = LEVELS[-1], seed: int | None = None
    ) -> None:
        self.output = output
        self.errors = errors
        self.seed = seed
        self.level = checked_level(level)
        self.half_komi = 0
        self.size = 6
        # Per player: the reserves of the game, the size's standard unless set since teinewgame.
        self.stones, self.caps = _standard_reserves(self.size)
        self.position: Position | None = None  # the game's start until `position` says
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thinker: threading.Thread | None = None

    # ----------------------------------------------------------------- I/O

    def send(self, line: str) -> None:
        with self._lock:
            self.output.write(line + "\n")
            self.output.flush()

    def tell(self, message: str) -> None:
        """Something the person behind the GUI should know: on stderr and as `info string`."""
        with self._lock:
            self.errors.write(message + "\n")
            self.errors.flush()
        self.send(f"info string {message}")

    def complain(self, message: str) -> None:
        self.tell(f"error: {message}")

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
        """Answered from constants: nothing is imported before teiok."""
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(f"id version {VERSION}")
        self.send(
            f"option name HalfKomi type spin default 0 min {-MAX_HALF_KOMI} max {MAX_HALF_KOMI}"
        )
        self.send(
            f"option name Level type spin default {self.level} min {LEVELS[0]} max {LEVELS[-1]}"
        )
        for name, (kind, players) in PIECE_COUNTS.items():
            default = getattr(self, kind)[players[0]]
            smallest = 1 if kind == "stones" else 0  # the swap opening places a stone
            self.send(
                f"option name {name} type spin default {default} min {smallest} max {MAX_RESERVE}"
            )
        sizes = " ".join(map(str, SIZES))
        half_komis = " ".join(map(str, range(-MAX_HALF_KOMI, MAX_HALF_KOMI + 1)))
        self.send(f"size {sizes} halfkomi {half_komis}")
        self.send("teiok")

    def _isready(self, _arguments: list[str]) -> None:
        importlib.import_module("tak.search")  # tei.md: anything slow waits for the first isready
        self.send("readyok")

    def _setoption(self, arguments: list[str]) -> None:
        """`setoption name <name> value <value>`; names in any case (tei.md)."""
        lowered = [word.lower() for word in arguments]
        if lowered[:1] != ["name"] or "value" not in lowered[2:]:
            raise TEIError("Write setoption name <option> value <number>.")
        split = lowered.index("value", 2)
        name, text = " ".join(arguments[1:split]), " ".join(arguments[split + 1 :])
        try:
            value = int(text)
        except ValueError:
            raise TEIError(f"The value of {name} must be a whole number, not {text!r}.") from None
        key = name.lower()
        if key == "halfkomi":
            if not -MAX_HALF_KOMI <= value <= MAX_HALF_KOMI:
                raise TEIError(f"HalfKomi runs from {-MAX_HALF_KOMI} to {MAX_HALF_KOMI}.")
            self.half_komi = value
        elif key == "level":
            self.level = checked_level(value)
        elif piece_count := next((n for n in PIECE_COUNTS if n.lower() == key), None):
            self._set_piece_count(piece_count, value)
        else:
            known = ", ".join(["HalfKomi", "Level", *PIECE_COUNTS])
            raise TEIError(f"Unknown option {name!r}: the options are {known}.")

    def _set_piece_count(self, name: str, value: int) -> None:
        kind, players = PIECE_COUNTS[name]
        counts = list(getattr(self, kind))
        for player in players:
            counts[player] = value
        stones, caps = self.stones, self.caps
        if kind == "stones":
            stones = (counts[0], counts[1])
        else:
            caps = (counts[0], counts[1])
        from tak.position import reserve_problem

        problem = reserve_problem(self.size, stones, caps)
        if problem is not None:
            raise TEIError(f"{name} {value}: {problem}")
        self.stones, self.caps = stones, caps

    def _teinewgame(self, arguments: list[str]) -> None:
        """`teinewgame size N [halfkomi K]` (TEI v1; K is 0 when left out), or `teinewgame N`
        (before TEI v1: the komi is the HalfKomi option's). Unknown words are ignored, and said
        so (tei.md: ignore them, read the rest)."""
        self.wait()  # a new position or search waits for the bestmove
        if len(arguments) == 1:
            size_text, half_komi = arguments[0], self.half_komi
        else:
            words, ignored = _teinewgame_words(arguments)
            if "size" not in words:
                raise TEIError(
                    "Write teinewgame size <size> [halfkomi <half-komi>], "
                    "e.g. teinewgame size 6 halfkomi 4."
                )
            size_text = words["size"]
            half_komi = _whole(words.get("halfkomi", "0"), "The half-komi")
            if ignored:
                self.tell(f"ignored: {' '.join(ignored)} (not a teinewgame parameter)")
        if not -MAX_HALF_KOMI <= half_komi <= MAX_HALF_KOMI:
            raise TEIError(f"The half-komi runs from {-MAX_HALF_KOMI} to {MAX_HALF_KOMI}.")
        size = _whole(size_text, "The size")
        if size not in SIZES:
            raise TEIError(
                f"Bredon plays no {size}x{size}: sizes run from {SIZES[0]} to {SIZES[-1]}."
            )
        self.position = None
        self.half_komi, self.size = half_komi, size
        self.stones, self.caps = _standard_reserves(size)
        from tak.search import forget

        forget()  # the strongest level's table of the last game is of no more use

    def _position(self, arguments: list[str]) -> None:
        self.wait()  # a new position or search waits for the bestmove
        from tak.position import Position
        from tak.tps import parse_tps

        usage = "Write position startpos [moves ...] or position tps <TPS> [moves ...]."
        if not arguments:
            raise TEIError(usage)
        komi = self.half_komi / 2
        if arguments[0] == "startpos":
            position, rest = self._start(), arguments[1:]
        elif arguments[0] == "tps" and len(arguments) >= 4:
            tps = " ".join(arguments[1:4])
            # The game's reserves are for its size; a TPS of another size has that size's own.
            reserves = (self.stones, self.caps) if parse_tps(tps).size == self.size else (None,) * 2
            position = Position.from_tps(tps, komi=komi, stones=reserves[0], caps=reserves[1])
            rest = arguments[4:]
        else:
            raise TEIError(usage)
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

    def _start(self) -> Position:
        """The start of the game: its size, komi and reserves."""
        from tak.position import Position

        return Position(self.size, komi=self.half_komi / 2, stones=self.stones, caps=self.caps)

    def _go(self, arguments: list[str]) -> None:
        """Always answered with a bestmove, whatever the parameters (tei.md)."""
        self.wait()  # a new position or search waits for the bestmove
        from tak.search import Player

        if self.position is None:
            self.position = self._start()
        go = GoCommand.read(arguments)
        limits, notes = self._limits(go, self.position.ply % 2 == 0, bare=not arguments)
        for note in (*go.ignored, *notes):
            self.tell(f"ignored: {note}")
        if self.position.result is not None:
            self.complain(f"The game is over ({self.position.result.ptn()}): no move to search.")
            self.send("bestmove --")
            return
        position = self.position.copy()
        player = Player(self.level, self.seed)
        self._stop.clear()
        self._thinker = threading.Thread(
            target=self._think, args=(player, position, limits), daemon=True
        )
        self._thinker.start()

    def _limits(self, go: GoCommand, white: bool, bare: bool) -> tuple[Limits, list[str]]:
        """The search's limits, and the clock's numbers that could not be used (with why).

        `go infinite`, or a bare `go` (tei.md), searches until `stop` (or the level's cap); a `go`
        with no usable limit searches for the level's own time."""
        from tak.search import MAX_DEPTH, Limits

        if bare or "infinite" in go.flags:
            return Limits(depth=MAX_DEPTH), []
        numbers = go.numbers
        movetime = numbers.get("movetime")
        mine, theirs = ("wtime", "btime") if white else ("btime", "wtime")
        notes = []
        if mine in numbers:
            clock = Clock(
                numbers.get("wtime", 0),
                numbers.get("btime", 0),
                numbers.get("winc", 0),
                numbers.get("binc", 0),
            )
            budget = clock.budget_ms(white)
            movetime = min(movetime, budget) if movetime else budget
        elif theirs in numbers:
            notes.append(f"{theirs} {numbers[theirs]} (no {mine}: the clock of the side to move)")
        nodes, depth = numbers.get("nodes"), numbers.get("depth")
        return Limits(movetime_ms=movetime, nodes=nodes, depth=depth), notes

    def _stop_command(self, _arguments: list[str]) -> None:
        self._stop.set()

    # ----------------------------------------------------------------- searching

    def _think(self, player: Player, position: Position, limits: Limits) -> None:
        try:
            result = player.choose(position, limits, info=self._info, stop=self._stop.is_set)
        except Exception as error:  # the thread must answer, whatever happens
            self.complain(f"The search failed: {error}")
            self.send("bestmove --")
            return
        self._info(result)  # the final info, for the move played (tei.md)
        self.send(f"bestmove {result.move.ptn()}")

    def _info(self, result: SearchResult) -> None:
        from tak.search import WIN_ZONE

        if result.mate_in is not None:  # tei.md's forced result, in plies (not UCI's mate)
            outcome = "win" if result.mate_in > 0 else "loss"
            score = f"solved {outcome} {abs(result.mate_in)}"
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


def _standard_reserves(size: int) -> tuple[tuple[int, int], tuple[int, int]]:
    stones, caps = STANDARD_RESERVES[size]
    return (stones, stones), (caps, caps)


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TEIError(f"{what} must be a whole number, not {text!r}.") from None


def _teinewgame_words(words: list[str]) -> tuple[dict[str, str], list[str]]:
    """The size and the half-komi of a TEI v1 teinewgame, by their names, and the words left."""
    values: dict[str, str] = {}
    ignored: list[str] = []
    index = 0
    while index < len(words):
        if words[index] in ("size", "halfkomi") and index + 1 < len(words):
            values[words[index]] = words[index + 1]
            index += 2
        else:
            ignored.append(words[index])
            index += 1
    return values, ignored


_COMMANDS = {
    "tei": Server._tei,
    "isready": Server._isready,
    "setoption": Server._setoption,
    "teinewgame": Server._teinewgame,
    "position": Server._position,
    "go": Server._go,
    "stop": Server._stop_command,
}


def main(level: int = LEVELS[-1], seed: int | None = None) -> int:
    """Serve on stdin/stdout until `quit` or the end of input."""
    Server(sys.stdout, sys.stderr, level, seed).run(sys.stdin)
    return 0
