"""Replays stay under a byte budget however long the game: long games are sampled, and the
frames still show the true start, the true end and the closing plies."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from benchmarks.render import playout
from rendering import (
    CLOSING_PLIES,
    MAX_REPLAY_BYTES,
    THEMES,
    layout,
    render_board,
    render_replay_within,
)
from rendering.board import draw_scene, move_heading
from rendering.palette import to_palette
from rendering.render import scene
from tak.ptn import Game
from tests.rendering.conftest import frames

PLAYERS = ("Alice", "Bob")  # the playouts' tags


def board(game: Game, ply: int, width: int) -> Image.Image:
    """What the replay frame after `ply` plies must show above its caption: render_board of
    that position with that ply's move tinted."""
    position = next(itertools.islice(game.replay(), ply, None))
    move = game.plies[ply - 1].move if ply else None
    png = render_board(position, last_move=move, players=PLAYERS, size=width)
    return Image.open(io.BytesIO(png)).convert("RGB")


def above_caption(image: Image.Image, n: int) -> bytes:
    return image.crop((0, 0, image.width, layout(image.width, n).banner_y)).tobytes()


def caption_ink(image: Image.Image, n: int) -> tuple[int, int, int, int] | None:
    """The box around whatever is drawn in the strip under the board."""
    strip = image.crop((0, layout(image.width, n, banner=True).banner_y, *image.size))
    plain = Image.new("RGB", strip.size, THEMES["default"].background)
    return ImageChops.difference(strip, plain).getbbox()


def test_a_1200_ply_game_fits_its_budget_and_keeps_both_ends(long_game: Game) -> None:
    budget = 400_000
    replay = render_replay_within(long_game, size=300, max_bytes=budget)
    assert len(replay.data) <= budget
    # Every 4th ply at 300 px would not fit: a narrower image, a longer stride.
    assert replay.width < 300 and replay.stride > 4 and replay.closing == CLOSING_PLIES
    cut = 1200 - CLOSING_PLIES
    shown = [*range(0, cut, replay.stride), *range(cut, 1201)]
    assert (replay.plies, replay.frames, replay.plies_shown) == (1200, len(shown), len(shown) - 1)
    assert replay.note == f"One ply in {replay.stride} of 1,200 shown, then the last 8."

    shots = list(frames(replay.data))
    assert len(shots) == len(shown)
    assert [s.info["duration"] for s in shots] == [2500] + [900] * (len(shown) - 2) + [4000]
    for index in (0, 1, len(shown) - CLOSING_PLIES - 1, len(shown) - 1):
        expected = board(long_game, shown[index], replay.width)
        assert above_caption(shots[index], 8) == above_caption(expected, 8), shown[index]
    # Under the board, a skipping frame says so ("ply 16 of 1,200 · 7 skipped"), which takes more
    # room than a closing frame's "ply 1,199 of 1,200" (the move is in the heading only).
    skipping, closing = caption_ink(shots[2], 8), caption_ink(shots[-2], 8)
    assert skipping is not None and closing is not None
    assert skipping[2] - skipping[0] > closing[2] - closing[0]


@pytest.mark.slow
def test_the_1200_ply_game_at_the_defaults_fits_discord(long_game: Game) -> None:
    replay = render_replay_within(long_game)
    assert len(replay.data) <= MAX_REPLAY_BYTES < 10 * 2**20
    assert (replay.width, replay.stride) == (600, 2)
    shots = frames(replay.data)
    assert above_caption(next(shots), 8) == above_caption(board(long_game, 0, 600), 8)
    last = next(itertools.islice(shots, replay.frames - 2, None))
    assert above_caption(last, 8) == above_caption(board(long_game, 1200, 600), 8)


def captioned(game: Game, ply: int, width: int, caption: str) -> Image.Image:
    """The frame after `ply` plies drawn on its own: that board, `caption` under it."""
    position = next(itertools.islice(game.replay(), ply, None))
    move = game.plies[ply - 1].move if ply else None
    view = scene(
        position,
        last_move=move,
        players=PLAYERS,
        theme="default",
        size=width,
        show_tak=None,
        result=None,
    )
    image = draw_scene(replace(view, banner_room=True, caption=caption))
    return to_palette(image, THEMES["default"]).convert("RGB")


def test_a_short_game_has_every_ply_each_with_its_move_in_ptn_once() -> None:
    """Each frame is the posted board of its position, headed by its move as the PTN numbers it
    ("30... c4"); nothing is written under the board, so the move is not said twice."""
    game = playout(6, 60, seed=6)
    replay = render_replay_within(game, size=300)
    assert (replay.width, replay.stride, replay.frames, replay.plies_shown) == (300, 1, 61, 60)
    assert replay.note == ""
    for (ply, shot), position in zip(enumerate(frames(replay.data)), game.replay(), strict=True):
        assert shot.size == (300, layout(300, 6, banner=True).height)
        assert above_caption(shot, 6) == above_caption(board(game, ply, 300), 6), ply
        assert caption_ink(shot, 6) is None, f"ply {ply}: words under the board"
        assert shot.tobytes() == captioned(game, ply, 300, "").tobytes(), ply
        assert shot.info["duration"] == (4000 if ply == 60 else 900)
        number, black = divmod(ply - 1, 2)
        move = f"{number + 1}{'...' if black else '.'} {game.plies[ply - 1].move.ptn()}"
        if ply:
            assert move_heading(position, game.plies[ply - 1].move) == move
    assert move.startswith("30... ")  # the last frame shows Black's 30th move


def test_a_tiny_budget_still_gives_the_start_and_the_end() -> None:
    game = playout(6, 200, seed=3)
    budget = 60_000
    replay = render_replay_within(game, size=240, max_bytes=budget)
    assert len(replay.data) <= budget
    assert 2 < replay.frames < 60 and replay.stride > 4
    shots = list(frames(replay.data))
    assert len(shots) == replay.frames
    assert above_caption(shots[0], 6) == above_caption(board(game, 0, 240), 6)
    assert above_caption(shots[-1], 6) == above_caption(board(game, 200, 240), 6)


def test_below_two_frames_of_budget_it_says_so() -> None:
    game = playout(6, 200, seed=3)
    replay = render_replay_within(game, size=240, max_bytes=20_000)
    assert replay.frames == 2 and len(replay.data) <= 20_000
    assert replay.note == "Only the start and the end of 200 plies shown."
    with pytest.raises(ValueError, match="Not even the start and the end"):
        render_replay_within(game, size=240, max_bytes=5_000)
