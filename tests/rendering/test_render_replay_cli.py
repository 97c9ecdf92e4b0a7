"""GIF replays of whole games, and the command line."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from rendering import THEMES, layout, render_replay
from rendering.__main__ import main
from tak.ptn import Game
from tests.rendering.conftest import frames

# White builds a road along rank 1 while Black plays elsewhere: 13 plies, ends R-0.
ROAD_GAME = """[Player1 "Alice"]
[Player2 "Дмитрий"]
[Size "5"]
[Komi "2"]

1. e5 a1
2. b1 e4
3. c1 d4
4. b2 Sd2
5. b2- c5
6. d1 e3
7. e1 R-0
"""


def test_a_replay_has_a_frame_per_ply_and_the_start() -> None:
    game = Game.parse(ROAD_GAME)
    shots = list(frames(render_replay(game, size=400, frame_ms=500, final_ms=3000)))
    assert len(shots) == len(game.plies) + 1
    assert [s.info["duration"] for s in shots] == [500] * len(game.plies) + [3000]
    assert {s.size for s in shots} == {(400, layout(400, 5, banner=True).height)}


def test_the_last_frame_shows_the_road_and_the_result() -> None:
    theme = THEMES["default"]
    game = Game.parse(ROAD_GAME)
    shots = list(frames(render_replay(game, size=400)))
    frame = layout(400, 5, banner=True)
    banner = (frame.pad + 5, frame.banner_y + frame.banner_height // 2)
    assert shots[-1].getpixel(banner) == theme.alert
    assert shots[-2].getpixel(banner) == theme.background
    left, top, _, bottom = frame.square_box(1, 0)
    on_road = (left + 2, (top + bottom) // 2)
    assert shots[-1].getpixel(on_road) == theme.road
    assert shots[-2].getpixel(on_road) != theme.road


def test_each_frame_tints_its_own_move() -> None:
    theme = THEMES["default"]
    game = Game.parse(ROAD_GAME)
    shots = list(frames(render_replay(game, size=400)))
    frame = layout(400, 5, banner=True)
    for index, ply in enumerate(game.plies, 1):
        left, top, _, _ = frame.square_box(ply.move.file, ply.move.rank)
        corner = (left + 3, top + 3)
        assert shots[index].getpixel(corner) in theme.tinted_squares, ply.move.ptn()
    assert not any(
        shots[0].getpixel(frame.square_box(f, r)[:2]) in theme.tinted_squares
        for f in range(5)
        for r in range(5)
    )


def test_cli_draws_a_tps_position(tmp_path: Path, capsys) -> None:
    out = tmp_path / "board.png"
    code = main(["x5/x5/x2,2,x2/x5/x5 2 1", "-o", str(out), "--last-move", "c3", "--size", "500"])
    assert code == 0
    image = Image.open(out)
    assert image.format == "PNG" and image.width == 500
    assert "wrote" in capsys.readouterr().out


def test_cli_replays_a_ptn_file_and_draws_its_final_position(tmp_path: Path) -> None:
    ptn = tmp_path / "game.ptn"
    ptn.write_text(ROAD_GAME, encoding="utf-8")
    assert main([str(ptn), "-o", str(tmp_path / "game.gif"), "--theme", "paper"]) == 0
    assert Image.open(tmp_path / "game.gif").n_frames == 14
    assert main([str(ptn), "-o", str(tmp_path / "final.png")]) == 0
    assert Image.open(tmp_path / "final.png").format == "PNG"


def test_cli_explains_bad_input_and_writes_nothing(tmp_path: Path, capsys) -> None:
    out = tmp_path / "board.png"
    assert main(["x5/x5 1 1", "-o", str(out)]) == 2
    assert "error: The TPS has 2 rows" in capsys.readouterr().err
    assert main(["x3/x3/x3 1 1", "-o", str(out), "--last-move", "d4"]) == 2
    assert "leaves the 3x3 board" in capsys.readouterr().err
    assert main(["x3/x3/x3 1 1", "-o", str(tmp_path / "a.gif")]) == 2
    assert "give a .ptn file" in capsys.readouterr().err
    assert not out.exists()
