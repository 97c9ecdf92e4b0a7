"""TEI conformance: `python -m tak tei` driven, as a real subprocess, with the command sequences the
clients players use send, in their order, and their answers checked as those clients read them.

The sequences are protocol facts read from the clients' sources (no code is copied from them):

- Racetrack, MortenLohne/racetrack at 78fa63ca: `EngineBuilder::init` (src/engine.rs) writes `tei`
  and reads up to `teiok`, parsing every `option` line (a spin needs a whole-number default, min
  and max); `set_options_from_builder` sends `setoption name HalfKomi value 4` (only a value that
  is not the default) and `isready`; `ScheduledGame::play_game` (src/game.rs) sends
  `teinewgame <size>` and `isready` before each game, then for each move `position startpos moves
  <every move so far, each followed by a space>` and `go wtime <ms> btime <ms> winc <ms> binc
  <ms>`, keeping the last `info` line before `bestmove`; `quit` at the end.
- tiltak, MortenLohne/tiltak at fc4f52f0: the driver in src/bin/tei.rs sends `tei`, `setoption name
  HalfKomi value 4`, `isready` (waiting for `readyok`), `teinewgame 6`, then for every white move
  of a Playtak game (Tiltak v Topaz, #722537) `position startpos moves <the plies before it>`
  (`position startpos moves ` with none) and `go nodes 100000`; the README's session is `tei`,
  `teinewgame 5`, `position startpos moves e1 a1`, `go movetime 1000`.
- PTN Ninja, gruppler/PTN-Ninja at 54adbacc, src/bots/tei.js: `connect` sends `tei`; a `size`
  line makes it speak TEI v1; options named Flats, Caps, Flats1, Flats2, Caps1 or Caps2 are taken
  as piece counts; `applyOptions` sends `setoption name <option> value <v>` for the others and
  `isready`; `searchPosition` sends `teinewgame size <size> halfkomi <half-komi>`, then for a game
  with custom piece counts (`applyPieceCountOptions`) `setoption name Flats value <player 1's>`,
  `Caps`, `Flats1`, `Flats2`, `Caps1`, `Caps2` (those declared) and `isready`; on `readyok`,
  `position tps <TPS>` or `position startpos moves ...`, then `go movetime 5000` (its default
  limit) or, analysing as the user moves, `go infinite` ended by `stop`. Its tei.md: "for every
  `go` command, a `bestmove` command is needed! ... Directly before that, the engine must send a
  final `info` command".

Each engine is started as its client would start it (the level on the command line, as a match
runner's engine arguments), at a level that answers fast: the sequences, not the strength, are
under test.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from types import TracebackType

from tak import Position
from tak.standard import STANDARD_RESERVES

WAIT_SECONDS = 120  # generous: the machine may be busy; nothing here is timed


class Client:
    """A TEI client on a real `python -m tak tei` process: writes lines, reads its answers."""

    def __init__(self, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tak", "tei", "--seed", "7", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.received: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WAIT_SECONDS)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, last: Callable[[str], bool]) -> list[str]:
        """The lines answered up to and including the first for which `last` is true."""
        answered = []
        while True:
            try:
                line = self.lines.get(timeout=WAIT_SECONDS)
            except queue.Empty:
                raise AssertionError(f"No answer; after {self.received[-5:]}") from None
            if line is None:
                raise AssertionError(f"The engine exited; after {self.received[-5:]}")
            self.received.append(line)
            answered.append(line)
            if last(line):
                return answered

    def handshake(self) -> list[str]:
        self.send("tei")
        return self.read_until(lambda line: line == "teiok")

    def ready(self) -> None:
        self.send("isready")
        self.read_until(lambda line: line == "readyok")

    def search(self, go: str) -> tuple[list[str], str]:
        """Send `go ...`: the info lines and the move of its bestmove."""
        self.send(go)
        answered = self.read_until(lambda line: line.startswith("bestmove"))
        return answered[:-1], answered[-1].split()[1]

    def quit(self) -> int:
        self.send("quit")
        return self.process.wait(timeout=WAIT_SECONDS)

    def errors(self) -> list[str]:
        return [line for line in self.received if line.startswith("info string")]


def assert_final_info(infos: list[str], move: str) -> None:
    """The last line before bestmove is an info with depth, score and a pv that starts with the
    move played (tei.md; PTN Ninja shows it as the position's evaluation)."""
    assert infos, "no info line before bestmove"
    words = infos[-1].split()
    assert words[0] == "info" and "depth" in words and "score" in words, infos[-1]
    assert words[words.index("pv") + 1] == move, infos[-1]


def spin_option(line: str) -> tuple[str, int, int, int]:
    """An option line as Racetrack's `parse_option` reads a spin: name, default, min, max."""
    words = line.split()
    keys = {"name", "type", "default", "min", "max", "var"}
    values: dict[str, list[str]] = {}
    key = None
    for word in words[1:]:
        if word in keys:
            key = word
            values.setdefault(key, [])
        else:
            assert key is not None, f"{line!r} does not start with name"
            values[key].append(word)
    assert values["type"] == ["spin"], line
    return (
        " ".join(values["name"]),
        int(" ".join(values["default"])),
        int(" ".join(values["min"])),
        int(" ".join(values["max"])),
    )


# ----------------------------------------------------------------------------- Racetrack


def test_racetrack_plays_a_game_on_the_clock() -> None:
    with Client("--level", "2") as engine:
        options = [spin_option(line) for line in engine.handshake() if line.startswith("option")]
        assert "HalfKomi" in {name for name, *_ in options}
        engine.send("setoption name HalfKomi value 4")
        engine.ready()
        engine.send("teinewgame 6")
        engine.ready()
        position = Position(6, komi=2)
        played: list[str] = []
        for _ in range(8):
            engine.send("position startpos moves " + "".join(move + " " for move in played))
            infos, move = engine.search("go wtime 60000 btime 60000 winc 1000 binc 1000")
            assert_final_info(infos, move)
            position.play(move)  # legal on 6x6 with komi 2, or this raises
            played.append(move)
        # A game from an opening given as a position (`position tps <TPS> moves ...`) in which
        # white has a road in one: the road, with its final info.
        engine.send("teinewgame 5")
        engine.ready()
        engine.send("position tps x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5 moves ")
        infos, move = engine.search("go wtime 60000 btime 60000 winc 1000 binc 1000")
        assert move == "e1"
        assert_final_info(infos, move)
        assert engine.errors() == []
        assert engine.quit() == 0


def test_racetrack_clock_limited_searches_end_with_a_final_info() -> None:
    """The strongest level on a short clock stops on the clock, mid-depth."""
    with Client() as engine:
        engine.handshake()
        engine.send("teinewgame 5")
        engine.ready()
        for moves in ("a1 e5 c3 ", "a1 e5 c3 c2 b3 "):
            engine.send(f"position startpos moves {moves}")
            infos, move = engine.search("go wtime 900 btime 900 winc 0 binc 0")
            assert_final_info(infos, move)
        assert engine.errors() == []


# ----------------------------------------------------------------------------- tiltak

# Tiltak v Topaz, Playtak game #722537: the opening plies of the game tiltak's driver replays.
TILTAK_GAME = [
    *("a6", "f1", "d3", "c5", "c3", "e5", "d5", "Cd4", "e3", "c6", "Cc4", "d6", "b6", "b5", "b4"),
    *("d4-", "d4", "e6", "b6>", "e4", "f4", "b6", "a4", "b5-", "d5<", "d2", "c2", "b6>", "Sb6"),
    "2c6-",
]


def test_tiltak_driver_replays_a_game_by_nodes() -> None:
    with Client("--level", "2") as engine:
        engine.handshake()
        engine.send("setoption name HalfKomi value 4")
        engine.ready()
        engine.send("teinewgame 6")
        for ply in range(0, len(TILTAK_GAME), 2):
            engine.send(f"position startpos moves {' '.join(TILTAK_GAME[:ply])}")
            infos, move = engine.search("go nodes 100000")
            assert_final_info(infos, move)
            position = Position(6, komi=2)
            for earlier in TILTAK_GAME[:ply]:
                position.play(earlier)
            assert position.is_legal(move), (ply, move)
        assert engine.errors() == []


def test_tiltak_readme_session_switches_to_5x5() -> None:
    with Client("--level", "3") as engine:
        engine.handshake()
        engine.send("teinewgame 5")
        engine.send("position startpos moves e1 a1")
        infos, move = engine.search("go movetime 1000")
        assert_final_info(infos, move)
        position = Position(5)
        position.play("e1")
        position.play("a1")
        assert position.is_legal(move)
        assert engine.errors() == []


# ----------------------------------------------------------------------------- PTN Ninja

PIECE_COUNTS = ("Flats", "Caps", "Flats1", "Flats2", "Caps1", "Caps2")


def test_ptn_ninja_declares_piece_counts_and_speaks_tei_v1() -> None:
    with Client() as engine:
        answered = engine.handshake()
        assert any(line.startswith("size ") for line in answered)  # TEI v1 for PTN Ninja
        options = {
            name: (default, low, high)
            for name, default, low, high in (
                spin_option(line) for line in answered if line.startswith("option")
            )
        }
        assert set(PIECE_COUNTS) <= set(options)
        stones, caps = STANDARD_RESERVES[6]  # the game before any teinewgame
        assert options["Flats"][0] == options["Flats1"][0] == stones
        assert options["Caps"][0] == options["Caps2"][0] == caps


def test_ptn_ninja_custom_piece_counts_are_searched() -> None:
    """Player 1 has 3 stones, all on the board under player 2's, and 2 capstones: with the custom
    counts honoured, the only legal moves are capstone placements."""
    tps = "x5/x5/x5/x5/12,12,12,x2 1 4"
    with Client() as engine:
        engine.handshake()
        engine.send("setoption name Level value 2")
        engine.ready()
        engine.send("teinewgame size 5 halfkomi 4")
        # applyPieceCountOptions: player 1's counts for the symmetric options, then each player's.
        for name, value in zip(PIECE_COUNTS, (3, 2, 3, 10, 2, 1), strict=True):
            engine.send(f"setoption name {name} value {value}")
        engine.ready()
        engine.send(f"position tps {tps}")
        infos, move = engine.search("go movetime 5000")
        assert_final_info(infos, move)
        custom = Position.from_tps(tps, komi=2, stones=(3, 10), caps=(2, 1))
        assert custom.is_legal(move) and move.startswith("C"), move
        assert engine.errors() == []
        # The next game has standard counts: teinewgame forgets the last game's.
        engine.send("teinewgame size 5 halfkomi 4")
        engine.ready()
        engine.send("position tps x5/x5/x5/x5/12,12,12,x2 1 4")
        infos, move = engine.search("go movetime 5000")
        assert Position.from_tps(tps, komi=2).is_legal(move)
        assert engine.errors() == []


def test_ptn_ninja_refuses_a_bad_piece_count_and_keeps_the_last() -> None:
    with Client() as engine:
        engine.handshake()
        engine.send("teinewgame size 5 halfkomi 0")
        engine.send("setoption name Caps value 0")
        engine.send("setoption name Flats1 value 0")  # player 1 could not open
        engine.send("setoption name Caps2 value many")
        engine.ready()
        reasons = [line for line in engine.received if line.startswith("info string")]
        assert len(reasons) == 2
        assert "stone" in reasons[0] and "whole number" in reasons[1]
        # Caps 0 was taken, the bad values were not: a capstone is never legal.
        engine.send("position startpos moves a1 e5")
        _infos, move = engine.search("go movetime 5000")
        position = Position(5, caps=0)
        position.play("a1")
        position.play("e5")
        assert position.is_legal(move) and not move.startswith("C")


def test_ptn_ninja_interactive_analysis_stops_with_a_final_info() -> None:
    with Client() as engine:
        engine.handshake()
        engine.ready()
        engine.send("teinewgame size 6 halfkomi 4")
        engine.ready()
        engine.send("position startpos moves a1 f6 c3")
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("info depth"))
        engine.send("stop")
        answered = engine.read_until(lambda line: line.startswith("bestmove"))
        move = answered[-1].split()[1]
        assert_final_info(answered[:-1], move)
        # The next position, as PTN Ninja sends it once the bestmove has come.
        engine.send("position startpos moves a1 f6 c3 " + move)
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("info depth"))
        engine.send("stop")
        engine.read_until(lambda line: line.startswith("bestmove"))
        assert engine.errors() == []
        assert engine.quit() == 0
