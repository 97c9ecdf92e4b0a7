"""Decoding GIF replays, and long games played out by the engine to replay."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from benchmarks.render import playout
from tak.ptn import Game


def frames(gif: bytes) -> Iterator[Image.Image]:
    """Each frame as a viewer sees it (drawn over the ones before), in RGB, with its duration in
    ``info["duration"]``; one at a time, so a long replay is not all held at once."""
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    for index in range(image.n_frames):
        image.seek(index)
        shot = image.convert("RGB")
        shot.info["duration"] = image.info["duration"]
        yield shot


@pytest.fixture(scope="session")
def long_game() -> Game:
    """1,200 random legal plies on 8x8 that never end the game, spreads favoured."""
    game = playout(8, 1200, seed=8)
    assert len(game.plies) == 1200 and game.final_position().result is None
    return game
