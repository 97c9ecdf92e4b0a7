"""TEI conformance: `python -m tak tei` as a real subprocess, driven through `tak.engine`, and the
client against engines that crash, stall or cheat (tests/tak/fake_tei_engine.py)."""

from __future__ import annotations

import asyncio
import importlib
import io
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tak
from tak import Position, Reserves
from tak.engine import (
    Choice,
    Engine,
    EngineLine,
    EngineProtocolError,
    EngineTerminated,
    EngineTimeout,
    EngineUnsupportedGame,
    FallbackPlayer,
    read_info,
)
from tak.moves import parse_move
from tak.search import LEVELS as SEARCH_LEVELS
from tak.search import WIN, Limits, SearchResult
from tak.tei import LEVELS, Clock, Server

BREDON = [sys.executable, "-m", "tak", "tei", "--seed", "7"]
FAKE = [sys.executable, str(Path(__file__).with_name("fake_tei_engine.py"))]
QUICK = Limits(movetime_ms=5_000, nodes=200)


def tei(lines: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    """Run the server on these input lines to the end of input."""
    return subprocess.run(
        [*BREDON, *extra],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def bestmoves(output: str) -> list[str]:
    return [line.split()[1] for line in output.splitlines() if line.startswith("bestmove")]


async def test_handshake_options_and_isready() -> None:
    async with await Engine.start(BREDON) as engine:
        assert engine.id.name == "Bredon"
        assert engine.id.author
        assert engine.id.options["HalfKomi"].startswith("type spin")
        assert "max 5" in engine.id.options["Level"]
        await engine.ping()
        assert engine.alive


async def test_plays_a_game_to_the_end_from_startpos_and_tps() -> None:
    async with await Engine.start(BREDON) as engine:
        await engine.set_option("Level", 2)
        await engine.new_game(4, half_komi=1)
        position = Position(4, komi=0.5)
        while position.result is None:
            move = await engine.play(position, QUICK)
            position.play(move)  # legal, or this raises
        assert position.result.winner is not None or position.result.is_draw
        # A position set up from a TPS (not from the start) is sent as one.
        middle = Position.from_tps("x4/x,2,1,x/x,1,2,x/x4 1 3", komi=0.5)
        middle.play((await engine.play(middle, QUICK)).ptn())


async def test_clock_depth_and_nodes_limits() -> None:
    async with await Engine.start(BREDON) as engine:
        position = Position(5)
        position.play("a1")
        for limits in (
            Clock(wtime=3_000, btime=2_000, winc=100, binc=100),
            Limits(depth=1),
            Limits(nodes=50),
        ):
            assert position.is_legal(await engine.play(position, limits))


def test_info_lines_and_bestmove_and_same_seed_same_move() -> None:
    lines = ["tei", "setoption name Level value 4", "teinewgame 5"]
    lines += ["position startpos moves a1 e5 c3", "go nodes 400", "quit"]
    first, second = tei(lines), tei(lines)
    assert first.returncode == 0 and first.stderr == ""
    infos = [line for line in first.stdout.splitlines() if line.startswith("info depth")]
    assert infos and " score cp " in infos[0] and " pv " in infos[0]
    assert len(bestmoves(first.stdout)) == 1
    assert bestmoves(first.stdout) == bestmoves(second.stdout)
    after = Position(5)
    for move in ["a1", "e5", "c3"]:
        after.play(move)
    assert after.is_legal(bestmoves(first.stdout)[0])


def test_go_infinite_then_stop() -> None:
    process = subprocess.Popen(
        BREDON, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("teinewgame 6\nposition startpos moves a1 f6\ngo infinite\n")
    process.stdin.flush()
    process.stdin.write("isready\n")  # answered while the search runs
    process.stdin.flush()
    line = process.stdout.readline()
    while line.startswith("info"):  # the search may report a depth first (the compiled one does)
        line = process.stdout.readline()
    assert line.strip() == "readyok"
    process.stdin.write("stop\n")
    process.stdin.flush()
    line = process.stdout.readline()
    while not line.startswith("bestmove"):
        assert line.startswith("info")
        line = process.stdout.readline()
    process.stdin.write("quit\n")
    process.stdin.flush()
    assert process.wait(timeout=30) == 0


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("fly", "Unknown command 'fly'"),
        ("setoption name HalfKomi value 99", "HalfKomi runs from -9 to 9"),
        ("setoption name HalfKomi value two", "must be a whole number"),
        ("setoption name Hash value 64", "Unknown option 'Hash'"),
        ("setoption name Level value 0", "Level runs from 1 to 5"),
        ("teinewgame 9", "sizes run from 3 to 8"),
        ("position startpos moves a1 a1", "a1: a1 is occupied"),
        ("position tps x5/x5 1 1", "The TPS has 2 rows"),
        ("position startpos a1", "Expected 'moves'"),
        ("setoption name Flats value 0", "at least one stone"),
        ("setoption name Caps2 value 201", "from 0 to 200"),
        ("teinewgame halfkomi 4", "Write teinewgame size <size> [halfkomi <half-komi>]"),
    ],
)
def test_bad_input_is_refused_and_the_server_carries_on(line: str, reason: str) -> None:
    done = tei(["teinewgame 5", "position startpos moves a1", line, "go depth 1", "isready"])
    assert done.returncode == 0
    assert reason in done.stderr
    assert f"info string {done.stderr.splitlines()[0]}" in done.stdout
    # The bad line changed nothing: the search is of the position before it.
    move = bestmoves(done.stdout)[0]
    position = Position(5)
    position.play("a1")
    assert position.is_legal(move)
    assert "readyok" in done.stdout.splitlines()


def test_a_finished_game_is_refused_with_no_move() -> None:
    done = tei(["position tps x3/x3/1,1,1 2 3", "go depth 1"])
    assert "The game is over (R-0)" in done.stderr
    assert bestmoves(done.stdout) == ["--"]  # tei.md: a bestmove for every go


def test_options_reach_the_position_and_the_clock_is_shared_sensibly() -> None:
    server = Server(sys.stdout, sys.stderr)
    server.handle("setoption name HalfKomi value 3")
    server.handle("teinewgame 5")
    server.handle("position startpos moves a1")
    assert server.position.komi == 1.5 and server.position.size == 5
    # Black to move with 10 s left and a 1 s increment: a slice, never most of the clock.
    budget = Clock(wtime=60_000, btime=10_000, winc=1_000, binc=1_000).budget_ms(False)
    assert 10_000 // 25 < budget < 10_000 // 3
    assert Clock(wtime=90, btime=90).budget_ms(True) >= 1


def test_the_tei_verb_refuses_a_bad_level() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tak", "tei", "--level", "9"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 1 and "from 1 to 5" in done.stderr


# ----------------------------------------------------------------------------- broken engines


async def test_an_engine_that_never_finishes_the_handshake_times_out() -> None:
    with pytest.raises(EngineTimeout, match=r"did not answer tei within 0\.5 s"):
        await Engine.start([*FAKE, "silent"], handshake_timeout=0.5)


async def test_an_engine_that_cannot_start() -> None:
    with pytest.raises(EngineTerminated, match="Could not start"):
        await Engine.start(["/nonexistent/engine"])


async def test_a_crash_is_detected_and_restart_brings_the_engine_back() -> None:
    engine = await Engine.start([*FAKE, "crash"])
    position = Position(5)
    with pytest.raises(EngineTerminated, match=r"exited \(code 3\): about to crash"):
        await engine.play(position, QUICK)
    assert not engine.alive
    with pytest.raises(EngineTerminated):
        await engine.ping()
    await engine.restart()
    assert engine.alive
    await engine.ping()
    await engine.quit()


async def test_a_stalled_search_times_out_and_the_engine_is_unusable_until_restarted() -> None:
    engine = await Engine.start([*FAKE, "stall"])
    position = Position(5)
    with pytest.raises(EngineTimeout, match=r"did not answer go within 0\.5 s"):
        await engine.play(position, QUICK, timeout=0.5)
    with pytest.raises(EngineTerminated, match="unusable"):
        await engine.play(position, QUICK)
    await engine.restart()
    await engine.ping()
    await engine.quit()


@pytest.mark.parametrize(("mode", "reason"), [("illegal", "'9z9'"), ("garbage", "no move")])
async def test_an_illegal_or_empty_answer_is_a_protocol_error(mode: str, reason: str) -> None:
    async with await Engine.start([*FAKE, mode]) as engine:
        with pytest.raises(EngineProtocolError, match=reason):
            await engine.play(Position(5), QUICK)


async def test_an_engine_that_plays_illegally_in_this_position() -> None:
    # The fake always answers the first legal move of the position it was sent; if it was sent
    # the wrong position the move could be illegal here. Sent correctly, it is legal.
    async with await Engine.start([*FAKE, "ok"]) as engine:
        position = Position.from_tps("x5/x5/x2,1,x2/x5/x4,2 1 3")
        assert position.is_legal(await engine.play(position, QUICK))


@pytest.mark.parametrize("mode", ["crash", "stall", "illegal", "silent"])
async def test_the_fallback_plays_our_own_move_when_the_engine_fails(mode: str) -> None:
    player = FallbackPlayer([*FAKE, mode], level=2, seed=1, handshake_timeout=1)
    position = Position(5)
    position.play("a1")
    choice = await player.choose(position, QUICK, timeout=1)
    assert isinstance(choice, Choice)
    assert choice.chosen_by == "Bredon (built-in)"
    assert choice.engine_failure
    assert position.is_legal(choice.move)
    await player.close()


async def test_the_fallback_restarts_an_engine_that_crashed(tmp_path: Path) -> None:
    player = FallbackPlayer([*FAKE, "crash-once", str(tmp_path / "crashed")], level=1, seed=1)
    position = Position(5)
    first = await player.choose(position, QUICK)
    assert first.chosen_by == "Bredon (built-in)" and "exited" in (first.engine_failure or "")
    position.play(first.move)
    second = await player.choose(position, QUICK)
    assert (second.chosen_by, second.engine_failure) == ("Fake", None)
    assert second.move == position.legal_moves()[0]
    await player.close()


async def test_without_an_engine_the_fallback_is_our_player_in_a_worker_process() -> None:
    with ProcessPoolExecutor(1) as pool:
        player = FallbackPlayer(None, level=3, seed=2, executor=pool)
        position = Position(6)
        choice = await player.choose(position, QUICK)
        assert (choice.chosen_by, choice.engine_failure) == ("Bredon (built-in)", None)
        assert position.is_legal(choice.move)
        await player.close()


async def test_many_requests_at_once_are_served_one_by_one() -> None:
    async with await Engine.start(BREDON) as engine:
        positions = [Position(size) for size in (4, 5, 6, 5)]
        moves = await asyncio.gather(*(engine.play(p, QUICK) for p in positions))
        assert all(p.is_legal(m) for p, m in zip(positions, moves, strict=True))


async def test_a_tei_v1_engine_is_asked_only_for_the_games_it_declared(tmp_path: Path) -> None:
    log = tmp_path / "commands"
    async with await Engine.start([*FAKE, "v1", str(log)]) as engine:
        assert engine.id.tei_version == 1 and engine.id.version == "1.0"
        assert engine.id.games == {5: {0, 4}, 6: {0, 4}}
        position = Position(6, komi=2)
        lines = await engine.analyse(position, QUICK)
        first, second = position.legal_moves()[:2]
        assert lines == [
            EngineLine(1, 2, 39, (600, 300, 100), (first.ptn(),)),
            EngineLine(2, 2, -20, None, (second.ptn(),)),
        ]
        assert await engine.evaluate(position, QUICK) == 39  # the best line's, not the last
        with pytest.raises(EngineUnsupportedGame, match=r"plays 5x5 \(half-komi 0, 4\), 6x6"):
            await engine.play(Position(7), QUICK)
        with pytest.raises(EngineUnsupportedGame, match="not 5x5 with half-komi 3"):
            await engine.new_game(5, 3)
        assert position.is_legal(await engine.play(position, QUICK))  # still usable
    sent = log.read_text().splitlines()
    assert "teinewgame size 6 halfkomi 4" in sent
    assert not any(line.startswith("setoption name HalfKomi") for line in sent)


async def test_an_engine_from_before_tei_v1_gets_the_komi_as_an_option(tmp_path: Path) -> None:
    log = tmp_path / "commands"
    async with await Engine.start([*FAKE, "ok", str(log)]) as engine:
        assert (engine.id.tei_version, engine.id.games) == (0, {})
        assert await engine.evaluate(Position(7, komi=1.5), QUICK) is None  # no info lines
    sent = log.read_text().splitlines()
    assert sent[sent.index("teinewgame 7") - 1] == "setoption name HalfKomi value 3"


async def test_the_fallback_plays_itself_a_game_the_engine_does_not_play(tmp_path: Path) -> None:
    player = FallbackPlayer([*FAKE, "v1", str(tmp_path / "commands")], level=1, seed=1)
    choice = await player.choose(Position(4), QUICK)
    assert choice.chosen_by == "Bredon (built-in)"
    assert "not 4x4 with half-komi 0" in (choice.engine_failure or "")
    engine = player.engine
    assert engine is not None and engine.alive  # kept: it plays its own games
    assert (await player.choose(Position(5), QUICK)).chosen_by == "Fake"
    assert player.engine is engine
    await player.close()


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("info depth 3 score cp 20 nodes 9 pv a1 b2", EngineLine(1, 3, 20, None, ("a1", "b2"))),
        ("info multipv 2 depth 1 score mate 2", EngineLine(2, 1, WIN - 3, None, ())),
        ("info depth 5 score solved win 3 pv a1", EngineLine(1, 5, WIN - 3, None, ("a1",))),
        ("info depth 5 score solved loss 4", EngineLine(1, 5, 4 - WIN, None, ())),
        ("info depth 5 score solved draw 6", EngineLine(1, 5, 0, None, ())),
        ("info depth 4 wdl 500 0 500", EngineLine(1, 4, 0, (500, 0, 500), ())),
        ("info depth 4 wdl 731 0 269", EngineLine(1, 4, 100, (731, 0, 269), ())),
        ("info string depth 9 score cp 1", None),
        ("info depth x", None),
    ],
)
def test_info_lines_are_read_by_their_keys(words: str, expected: EngineLine | None) -> None:
    assert read_info(words.split(), {}) == expected


def test_a_score_and_a_pv_on_separate_lines_make_one_line() -> None:
    lines: dict[int, EngineLine] = {}
    for text in ("info depth 5 score cp -15", "info depth 5 pv c3 d4"):
        line = read_info(text.split(), lines)
        assert line is not None
        lines[line.multipv] = line
    assert lines == {1: EngineLine(1, 5, -15, None, ("c3", "d4"))}


def test_the_server_declares_its_games_and_takes_tei_v1_new_games() -> None:
    done = tei(
        [
            "tei",
            "teinewgame size 5 halfkomi 4",
            "position startpos",
            "go nodes 50",
            "teinewgame size 5 halfkomi 40",
            "teinewgame size 4 komi 4",  # tei.md: unknown words are ignored
            "position startpos",
            "go depth 1",
        ]
    )
    declared = [line for line in done.stdout.splitlines() if line.startswith("size ")]
    assert declared == [f"size 3 4 5 6 7 8 halfkomi {' '.join(map(str, range(-9, 10)))}"]
    assert "id version 1" in done.stdout.splitlines()
    assert len(bestmoves(done.stdout)) == 2
    assert Position(4).is_legal(bestmoves(done.stdout)[1])
    assert "half-komi runs from -9 to 9" in done.stderr
    assert "info string ignored: komi 4 (not a teinewgame parameter)" in done.stdout


async def test_the_client_and_the_server_speak_tei_v1_together() -> None:
    async with await Engine.start(BREDON) as engine:
        assert engine.id.tei_version == 1 and engine.id.plays(8, -9)
        position = Position(5, komi=2)
        assert position.is_legal(await engine.play(position, QUICK))


# ----------------------------------------------------------------------------- issue 38


def final_info(output: str) -> str:
    """The line just before the (only) bestmove."""
    lines = output.splitlines()
    return lines[[line.startswith("bestmove") for line in lines].index(True) - 1]


def test_teinewgame_size_without_halfkomi_starts_that_game() -> None:
    done = tei(
        [
            "teinewgame size 6 halfkomi 4",
            "teinewgame size 5",  # TEI v1: the half-komi is optional, 0 when left out
            "position startpos moves a1 f6",  # no f6 on 5x5
            "position startpos moves a1 e5",
            "go depth 1",
        ]
    )
    assert "f6" in done.stderr and len(done.stderr.splitlines()) == 1
    position = Position(5)
    position.play("a1")
    position.play("e5")
    assert position.is_legal(bestmoves(done.stdout)[0])
    server = Server(io.StringIO(), io.StringIO())
    for line in (
        "setoption name HalfKomi value 3",
        "teinewgame size 6 halfkomi 4",
        "teinewgame size 5",
    ):
        server.handle(line)
    assert (server.size, server.half_komi) == (5, 0)  # not the last game's, nor the option's


def test_teinewgame_restores_the_standard_piece_counts() -> None:
    """A game with PTN Ninja's piece counts, then a new game: it has its size's standard ones (the
    subprocess test in test_tei_clients.py cannot tell, as its move is legal either way)."""
    server = Server(io.StringIO(), io.StringIO())
    lines = ["teinewgame size 5", "setoption name Flats value 3", "setoption name Caps2 value 0"]
    for line in [*lines, "position startpos"]:
        server.handle(line)
    assert server.position is not None
    assert [server.position.reserves(c) for c in (0, 1)] == [Reserves(3, 1), Reserves(3, 0)]
    for line in ("teinewgame size 5", "position startpos"):
        server.handle(line)
    assert [server.position.reserves(c) for c in (0, 1)] == [Reserves(21, 1), Reserves(21, 1)]


def test_every_go_parameter_of_the_protocol_is_taken_and_an_unknown_one_reported() -> None:
    lines = ["teinewgame 5", "position startpos moves a1"]
    lines += [
        "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 20 depth 1",
        "go movetime 200 mate 3 nodes 300",
        "go depth 1 ponder",
        "go searchmoves a2 depth 1",
        "go depth 1 wtime soon",
        "go nodes depth 1",
    ]
    done = tei(lines, "--level", "3")
    assert len(bestmoves(done.stdout)) == 6  # every go answered
    position = Position(5)
    position.play("a1")
    assert all(position.is_legal(move) for move in bestmoves(done.stdout))
    reported = [line for line in done.stdout.splitlines() if line.startswith("info string")]
    assert reported == [
        "info string ignored: ponder (not a go parameter of TEI)",
        "info string ignored: searchmoves a2 (not a go parameter of TEI)",
        "info string ignored: wtime soon (wtime takes a whole number from 0)",
        "info string ignored: nodes (nodes takes a whole number from 1)",
    ]


def test_only_the_other_sides_clock_is_reported_and_the_search_runs() -> None:
    done = tei(["teinewgame 4", "position startpos moves a1", "go wtime 1000 depth 1"])
    assert "ignored: wtime 1000 (no btime: the clock of the side to move)" in done.stderr
    assert len(bestmoves(done.stdout)) == 1


def test_the_handshake_declares_the_levels_of_the_search() -> None:
    assert [level.number for level in SEARCH_LEVELS] == list(LEVELS)


def test_a_road_in_one_ends_with_a_final_info() -> None:
    done = tei(["position tps x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5", "go movetime 500"])
    assert bestmoves(done.stdout) == ["e1"]
    words = final_info(done.stdout).split()
    # tei.md's forced result, in plies, as PTN Ninja reads it ("W1"); not UCI's `mate` in moves
    assert words[:2] == ["info", "depth"] and "score solved win 1" in " ".join(words)
    assert words[words.index("pv") + 1] == "e1"


def test_a_forced_loss_is_reported_in_plies() -> None:
    """Two road threats of player 2's: player 1 blocks one, the other is a road two plies on."""
    done = tei(["position tps x5/2,2,2,2,x/1,x4/2,2,2,2,x/1,x,1,x,1 1 6", "go movetime 500"])
    assert "score solved loss 2" in final_info(done.stdout)


def test_the_handshake_does_not_load_the_search() -> None:
    """teiok comes before the rules, the search and the evaluation are imported (the search loads
    at isready)."""
    heavy = "{'tak.position', 'tak.tinue', 'tak.analysis', 'tak.search', 'tak.evaluation'}"
    script = (
        "import io, sys\n"
        "from tak.__main__ import main\n"
        "sys.stdin = io.StringIO('tei\\n')\n"
        "main(['tei'])\n"
        f"print('loaded', *sorted({heavy} & set(sys.modules)))\n"
        "sys.stdin = io.StringIO('isready\\n')\n"
        "main(['tei'])\n"
        f"print('loaded', *sorted({heavy} & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    lines = done.stdout.splitlines()
    assert lines[lines.index("teiok") + 1] == "loaded"
    assert lines[-2:] == ["readyok", "loaded tak.evaluation tak.position tak.search"]


def test_every_name_of_the_package_is_its_modules() -> None:
    """`import tak` loads each name when first used: every name of its API resolves, to the
    object its module defines."""
    for name in tak.__all__:
        value = getattr(tak, name)
        assert value is not None and not isinstance(value, ModuleType), name
    assert tak.Position is importlib.import_module("tak.position").Position
    assert tak.tak_call is importlib.import_module("tak.tinue").call
    assert tak.search is importlib.import_module("tak.search")  # a submodule, on first use
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = tak.nothing


def test_a_best_move_found_in_an_unfinished_depth_gets_its_own_final_info(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's case: depth 1 reported Cc3, the clock stopped depth 2 after c3 beat it; the
    bestmove c3 must come with an info whose pv starts with c3."""

    class Interrupted:
        def __init__(self, level: int, seed: int | None) -> None:
            pass

        def choose(self, position: Position, limits: Limits, **callbacks: Any) -> SearchResult:
            first = SearchResult(parse_move("Cc3"), 30, 1, 40, (parse_move("Cc3"),), 5)
            callbacks["info"](first)
            return SearchResult(parse_move("c3"), 45, 1, 90, (parse_move("c3"),), 9)

    monkeypatch.setattr("tak.search.Player", Interrupted)
    output = io.StringIO()
    server = Server(output, io.StringIO())
    for line in ("teinewgame 5", "position startpos moves a1 e5", "go wtime 900 btime 900"):
        server.handle(line)
    server.wait()
    lines = output.getvalue().splitlines()
    assert lines[-3].endswith("pv Cc3")
    assert lines[-2] == "info depth 1 score cp 45 nodes 90 time 9 nps 10000 pv c3"
    assert lines[-1] == "bestmove c3"
