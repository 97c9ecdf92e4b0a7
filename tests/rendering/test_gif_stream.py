"""The streaming GIF writer: what a decoder shows is exactly the frames that went in."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from rendering.gif import GifStream
from tests.rendering.conftest import frames

SIZE = (64, 48)


def paletted(pixels: bytes) -> Image.Image:
    image = Image.frombytes("P", SIZE, pixels)
    rng = random.Random(1)
    image.putpalette([rng.randrange(256) for _ in range(3 * 256)])
    return image


def test_decoded_frames_are_the_frames_written() -> None:
    rng = random.Random(7)
    first = paletted(bytes(rng.randrange(40) for _ in range(SIZE[0] * SIZE[1])))
    moved = first.copy()
    ImageDraw.Draw(moved).rectangle((10, 5, 30, 20), fill=41)  # a colour new to the image
    # Every index in use: no spare one to mark unchanged pixels with, so the box is stored whole.
    every_colour = paletted(bytes(i % 256 for i in range(SIZE[0] * SIZE[1])))
    sequence = [first, moved, moved, every_colour, first]
    stream = GifStream()
    for index, frame in enumerate(sequence):
        stream.add(frame, 100 * (index + 1))
    data = stream.getvalue()
    assert stream.size == len(data)
    shots = list(frames(data))
    assert [shot.tobytes() for shot in shots] == [f.convert("RGB").tobytes() for f in sequence]
    assert [shot.info["duration"] for shot in shots] == [100, 200, 300, 400, 500]


def test_a_small_change_costs_little() -> None:
    board = Image.new("P", (600, 700), 3)
    board.putpalette(list(range(256)) * 3)
    ImageDraw.Draw(board).rectangle((50, 50, 550, 650), fill=9)
    stream = GifStream()
    stream.add(board, 900)
    before = stream.size
    moved = board.copy()
    ImageDraw.Draw(moved).ellipse((100, 100, 160, 160), fill=200)
    ImageDraw.Draw(moved).ellipse((400, 500, 460, 560), fill=201)
    stream.add(moved, 900)
    assert stream.size - before < 1500
