"""Stack profiles, measured in the posted image: every layer of every stack readable on a phone.

For stacks of 1 to 40 on every board size in every theme, at a phone's 400 px and at the default
width, the test reads the picture alone (each square shows at least the carry limit's worth of
the top layers): going up through a square, every run of a player's colour is one layer; going
right along a tall stack's strip below the board, the same. The layers must come out in the
stack's order (``1,1,2,2,1,1,2`` reads as that, not as an even zebra), each at least
MIN_PHONE_LAYER px thick once the image is shrunk to 400 px wide, neighbours of different colours
at 3:1 and the line between neighbours of one colour visible against both.
"""

from __future__ import annotations

import io
from itertools import pairwise

import pytest
from PIL import Image

from rendering import DEFAULT_SIZE, THEMES, layout, render_board
from rendering.board import MIN_PHONE_LAYER, MIN_TOP_SHARE, PHONE_WIDTH, Layout, stack_strips
from rendering.colour import RGB, contrast
from rendering.themes import Theme
from tak import Color, Position

# A stack's pieces, bottom first, in the order the issue found unreadable, repeated.
ORDER = "1122112"
# Where two neighbouring layers of different colours meet: WCAG's 3:1 for graphics.
MIN_NEIGHBOUR_CONTRAST = 3.0
# The line between two layers of one colour, against either layer.
MIN_LINE_CONTRAST = 1.5
# A stack height tag on a phone, px (the issue: 8 px was too small to read).
MIN_TAG = 11


def tall_position(n: int, colours: str, top: str = "") -> tuple[Position, tuple[int, int]]:
    """A position with one stack of `colours` (bottom first) on c3, its top piece a flat, or a
    wall or capstone for `top` "S" or "C"."""
    row = ["x"] * n
    row[2] = colours + top
    rows = [f"x{n}"] * n
    rows[n - 3] = ",".join(row)
    tps = "/".join(rows) + " 1 30"
    return Position.from_tps(tps, stones=60, caps=1), (2, 2)


def image_of(position: Position, theme: str, width: int) -> Image.Image:
    png = render_board(position, theme=theme, size=width)
    return Image.open(io.BytesIO(png)).convert("RGB")


def owners(theme: Theme, under: tuple[RGB, ...]) -> dict[RGB, Color]:
    """Each colour a layer can have (a face, or a face faded below the carry limit), by owner."""
    found: dict[RGB, Color] = {}
    for color in Color:
        fill = theme.players[color].fill
        found[fill] = color
        for square in under:
            found[theme.buried(fill, square)] = color
    return found


def runs(
    pixels: list[RGB], layer_colours: dict[RGB, Color], ground: set[RGB], gap: int = 0
) -> list:
    """The layers met along `pixels`: (colour, length, the pixels just before it). Layers are
    plain rectangles in exact colours; the walk stops at the top piece, the first pixel in
    neither a layer's colour nor a `ground` colour (the square, the lines, the overflow dots):
    its anti-aliased rim (a run of a layer's colour that does not end on `ground` is part of
    it); and, once a layer is found, at more than `gap` px of `pixels[0]` (the
    square: a walk that left the stack beside its top piece)."""
    found: list = []
    index = 0
    before: list[RGB] = []
    while index < len(pixels):
        colour = pixels[index]
        if colour not in layer_colours:
            if colour not in ground:
                break
            before.append(colour)
            if gap and found and before[-gap - 1 :] == [pixels[0]] * (gap + 1):
                break
            index += 1
            continue
        end = index
        while end < len(pixels) and pixels[end] == colour:
            end += 1
        if end == len(pixels) or pixels[end] not in ground:
            break  # a layer ends on a line: this is the top piece's rim
        found.append((colour, end - index, before))
        before = []
        index = end
    return found


def square_layers(
    image: Image.Image,
    frame: Layout,
    square: tuple[int, int],
    owner: dict[RGB, Color],
    under: RGB,
    ground: set[RGB],
) -> list:
    """The layers read going up through the square, in the column through the left 70% of it
    that shows the most (the picture alone says where the stack stands)."""
    left, top, _, bottom = frame.square_box(*square)
    pixels = image.load()
    best: list = []
    for x in range(left, left + round(0.7 * frame.square)):
        column = [pixels[x, y] for y in range(bottom - 1, top - 1, -1)]
        if under not in column:
            continue
        # The square shows below the stack: from its own colour up, past the line between squares.
        gap = 4 * max(1, round(frame.width / PHONE_WIDTH))  # two lines and the carry break
        found = runs(column[column.index(under) :], owner, ground, gap)
        best = max(best, found, key=len)
    return best


def check_layers(
    layers: list, expected: str, theme: Theme, owner: dict[RGB, Color], width: int
) -> None:
    readers = {Color.WHITE: "1", Color.BLACK: "2"}
    assert "".join(readers[owner[c]] for c, _, _ in layers) == expected
    if not layers:
        return
    thinnest = min(length for _, length, _ in layers) * PHONE_WIDTH / width
    assert thinnest >= MIN_PHONE_LAYER, f"a layer {thinnest:.1f} px thick on a phone"
    for (below, _, _), (above, _, between) in pairwise(layers):
        if owner[below] != owner[above]:
            assert contrast(below, above) >= MIN_NEIGHBOUR_CONTRAST
        else:
            assert between, "two layers of one colour run together"
            line = max(between, key=lambda c: min(contrast(c, below), contrast(c, above)))
            assert min(contrast(line, below), contrast(line, above)) >= MIN_LINE_CONTRAST


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("width", [PHONE_WIDTH, DEFAULT_SIZE])
@pytest.mark.parametrize("n", range(3, 9))
def test_every_layer_of_stacks_1_to_40_reads_in_order(theme: str, width: int, n: int) -> None:
    """In its square, each stack shows at least the carry limit's worth of its top layers (or
    all of them), under a flat, a wall or a capstone; a strip shows the rest of a taller one."""
    chosen = THEMES[theme]
    for height in range(1, 41):
        colours = (ORDER * 6)[:height]
        top = ("", "S", "C")[height % 3]
        position, (file, rank) = tall_position(n, colours, top)
        image = image_of(position, theme, width)
        tall = stack_strips(position, width)
        frame = layout(width, n, False, len(tall))
        under = chosen.squares[(file + rank) % 2]
        owner = owners(chosen, (under,))
        ground = {under, chosen.layer_line, chosen.muted}
        layers = square_layers(image, frame, (file, rank), owner, under, ground)
        shown = colours[len(colours) - 1 - len(layers) : -1] if layers else ""
        check_layers(layers, shown, chosen, owner, width)
        assert len(layers) >= min(height, n) - 1, f"{height} high on {n}x{n}: {len(layers)} shown"
        if (file, rank) in tall:
            assert len(layers) < height - 1
            row_left, row_top, _, row_bottom = frame.strip_box(tall.index((file, rank)))
            y = (row_top + row_bottom) // 2
            row = [image.getpixel((x, y)) for x in range(row_left, frame.width)]
            strip_owner = owners(chosen, (chosen.squares[0],))
            ground = {chosen.background, chosen.squares[0], chosen.layer_line}
            strip = runs(row[row.index(chosen.squares[0]) :], strip_owner, ground)
            check_layers(strip, colours[:-1], chosen, strip_owner, width)
        else:
            assert len(layers) == height - 1, f"{height}: {len(layers)} layers shown"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_top_piece_shrinks_only_for_the_layers_that_can_move(theme: str) -> None:
    """Full size while the buried pieces fit under it; on 8x8 at a phone's width, smaller to
    make room for the carry limit's layers, but never below MIN_TOP_SHARE of a lone flat."""
    chosen = THEMES[theme]
    fill = chosen.players[0].fill

    def top_width(height: int) -> int:
        position, (file, rank) = tall_position(8, "2" * (height - 1) + "1")
        image = image_of(position, theme, PHONE_WIDTH)
        frame = layout(PHONE_WIDTH, 8, False, len(stack_strips(position, PHONE_WIDTH)))
        left, top, right, bottom = frame.square_box(file, rank)
        # The longest run of the face's colour in a row (the height tag's digits are shorter).
        return max(
            len(run)
            for y in range(top, bottom)
            for run in "".join(
                "o" if image.getpixel((x, y)) == fill else " " for x in range(left, right)
            ).split()
        )

    lone = top_width(1)
    assert lone > 0
    for height in (2, 3, 4, 5):
        assert top_width(height) >= lone
    for height in (8, 10, 31, 40):
        assert lone > top_width(height) >= MIN_TOP_SHARE * lone - 2  # less its outline


def test_only_stacks_too_tall_for_their_square_get_a_strip() -> None:
    short, _ = tall_position(6, ORDER[:4])
    assert stack_strips(short, PHONE_WIDTH) == []
    tall, square = tall_position(8, (ORDER * 6)[:31])
    assert stack_strips(tall, PHONE_WIDTH) == [square]
    plain = layout(PHONE_WIDTH, 8)
    assert image_of(tall, "default", PHONE_WIDTH).height == layout(PHONE_WIDTH, 8, False, 1).height
    assert image_of(short, "default", PHONE_WIDTH).height == layout(PHONE_WIDTH, 6).height
    assert layout(PHONE_WIDTH, 8, False, 1).height > plain.height


@pytest.mark.parametrize("theme", ["default", "paper"])
@pytest.mark.parametrize("n", range(3, 9))
def test_height_tags_are_tall_enough_and_never_touch_a_piece(theme: str, n: int) -> None:
    """At a phone's width, the tag (the background's colour, which no piece has in these themes)
    is at least MIN_TAG px tall, and the square shows plain all round it: no piece, wall or
    capstone touches it, however tall the stack."""
    chosen = THEMES[theme]
    for height in (2, 5, 8, 9, 10, 24, 31, 40):
        for top in ("", "S", "C"):
            position, (file, rank) = tall_position(n, (ORDER * 6)[:height], top)
            image = image_of(position, theme, PHONE_WIDTH)
            frame = layout(PHONE_WIDTH, n, False, len(stack_strips(position, PHONE_WIDTH)))
            left, top_edge, right, bottom = frame.square_box(file, rank)
            pixels = image.load()
            tag = [
                (x, y)
                for x in range(left, right)
                for y in range(top_edge, bottom)
                if pixels[x, y] == chosen.background
            ]
            x0, x1 = min(x for x, _ in tag), max(x for x, _ in tag)
            y0, y1 = min(y for _, y in tag), max(y for _, y in tag)
            assert y1 - y0 + 1 >= MIN_TAG, f"a tag {y1 - y0 + 1} px tall"
            under = chosen.squares[(file + rank) % 2]
            ring = [
                pixels[x, y]
                for x in range(x0 - 1, x1 + 2)
                for y in range(y0 - 1, y1 + 2)
                if not (x0 <= x <= x1 and y0 <= y <= y1)
            ]
            assert set(ring) == {under}, f"{height}{top} on {n}x{n}: a piece touches the tag"
