"""`python -m tak`: moves, perft and play, with the reason on stderr and exit 1 for bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tak.__main__ import main

START_5 = "x5/x5/x5/x5/x5 1 1"


def test_moves_prints_sorted_canonical_ptn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "x3/x3/x,1,x 2 2"]) == 0
    lines = capsys.readouterr().out.split()
    assert lines == sorted(lines)
    assert "Sa1" in lines and "a1" in lines
    # Black to move: eight empty squares, flat or wall (no capstones on 3x3); b1 is White's.
    assert len(lines) == 8 * 2


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", START_5, "3"]) == 0
    assert capsys.readouterr().out.strip() == "43320"


def test_play_prints_tps_then_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", START_5, "a1", "e5", "Cc3"]) == 0
    assert capsys.readouterr().out.splitlines() == ["x4,1/x5/x2,1C,x2/x5/2,x4 2 2", "ongoing"]
    assert main(["play", "x3/2,2,x/1,1,x 1 3", "c1"]) == 0
    assert capsys.readouterr().out.splitlines() == ["x3/2,2,x/1,1,1 2 3", "R-0"]


def test_position_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--komi", "1.5", "1,2,1/2,1,2/1,2,x 1 5", "c1"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "0-F"


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["play", START_5, "a1", "a1"], "a1: a1 is occupied"),
        (["play", START_5, "a1", "zz"], "zz: 'zz' is not a move in PTN"),
        (["moves", "x5/x5 1 1"], "boards are 3x3 to 8x8"),
        (["perft", START_5, "-1"], "The depth must be 0 or more."),
    ],
)
def test_bad_input_gives_the_reason_and_exit_1(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert reason in captured.err
    assert captured.out == ""


def test_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tak", "play", START_5, "a1", "a1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "occupied" in done.stderr


def _tinue(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tak", "tinue", *argv], capture_output=True, text=True, check=False
    )


def test_tinue_judges_the_side_not_to_move_in_a_real_process() -> None:
    # White (not to move) holds a1 b1 a2 and threatens c1 and a3: Black cannot block both.
    fork = _tinue("x3/1,x2/1,1,x 2 3")
    assert (fork.returncode, fork.stderr) == (0, "")
    assert fork.stdout == "tinue: white threatens a3 c1 and no reply stops it\n"
    single = _tinue("x3/x3/1,1,x 2 3")
    assert single.returncode == 0 and single.stdout.startswith("no: white threatens c1 (Tak)")
    quiet = _tinue("x3/x3/1,x2 2 2")
    assert quiet.returncode == 0 and quiet.stdout == "no: white threatens no road\n"


def test_tinue_takes_the_position_options() -> None:
    # Black has one stone left: placing it ends the game on flats, which komi 4.5 makes Black's.
    walls = "x,2S,2S/1,2S,x/1,1,x 2 4"
    assert _tinue("--stones", "4", walls).stdout.startswith("tinue")
    assert _tinue("--stones", "4", "--komi", "4.5", walls).stdout.startswith("no:")


def test_tinue_refuses_bad_tps_with_exit_1() -> None:
    bad = _tinue("x3/x3 1 1")
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr == "The TPS has 2 rows, but boards are 3x3 to 8x8.\n"
