"""Stack profiles, measured in the posted image: every layer of every stack readable on a phone.

For stacks of 1 to 40 in every theme, at a phone's 400 px and at the default width, the test reads
the picture alone: going up through a square, every run of a player's colour is one layer; going
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
from rendering.board import MIN_PHONE_LAYER, PHONE_WIDTH, stack_strips
from rendering.colour import RGB, contrast
from rendering.themes import Theme
from tak import Color, Position

# A stack's pieces, bottom first, in the order the issue found unreadable, repeated.
ORDER = "1122112"
# Where two neighbouring layers of different colours meet: WCAG's 3:1 for graphics.
MIN_NEIGHBOUR_CONTRAST = 3.0
# The line between two layers of one colour, against either layer.
MIN_LINE_CONTRAST = 1.5


def tall_position(n: int, colours: str) -> tuple[Position, tuple[int, int]]:
    """A position with one stack of `colours` (bottom first) on c3."""
    row = ["x"] * n
    row[2] = colours
    rows = [f"x{n}"] * n
    rows[n - 3] = ",".join(row)
    tps = "/".join(rows) + " 1 30"
    return Position.from_tps(tps, stones=60, caps=0), (2, 2)


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


def runs(pixels: list[RGB], layer_colours: dict[RGB, Color], ground: set[RGB]) -> list:
    """The layers met along `pixels`: (colour, length, the pixels just before it). Layers are
    plain rectangles in exact colours; the walk stops at the top piece, the first pixel in
    neither a layer's colour nor a `ground` colour (the square, the lines, the overflow dots):
    its anti-aliased rim."""
    found: list = []
    index = 0
    before: list[RGB] = []
    while index < len(pixels):
        colour = pixels[index]
        if colour not in layer_colours:
            if colour not in ground:
                break
            before.append(colour)
            index += 1
            continue
        end = index
        while end < len(pixels) and pixels[end] == colour:
            end += 1
        found.append((colour, end - index, before))
        before = []
        index = end
    return found


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
@pytest.mark.parametrize("n", [6, 8])
def test_every_layer_of_stacks_1_to_40_reads_in_order(theme: str, width: int, n: int) -> None:
    chosen = THEMES[theme]
    for height in range(1, 41):
        colours = (ORDER * 6)[:height]
        position, (file, rank) = tall_position(n, colours)
        image = image_of(position, theme, width)
        tall = stack_strips(position, width)
        frame = layout(width, n, False, len(tall))
        left, top, _, bottom = frame.square_box(file, rank)
        x = left + round(0.4 * frame.square)
        column = [image.getpixel((x, y)) for y in range(bottom - 1, top - 1, -1)]
        under = chosen.squares[(file + rank) % 2]
        # The column stands inside its square: the square shows above and below it.
        assert under in column[:5] and under in column[-5:], f"{height} overflows its square"
        owner = owners(chosen, (under,))
        ground = {under, chosen.layer_line, chosen.muted}
        # From the square's own colour up, past the line between squares.
        layers = runs(column[column.index(under) :], owner, ground)
        shown = colours[len(colours) - 1 - len(layers) : -1] if layers else ""
        check_layers(layers, shown, chosen, owner, width)
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
def test_the_top_piece_is_never_smaller_than_a_lone_flat(theme: str) -> None:
    chosen = THEMES[theme]
    fill = chosen.players[0].fill

    def top_width(height: int) -> int:
        position, (file, rank) = tall_position(8, (ORDER * 6)[: height - 1] + "1")
        image = image_of(position, theme, PHONE_WIDTH)
        frame = layout(PHONE_WIDTH, 8, False, len(stack_strips(position, PHONE_WIDTH)))
        left, top, right, bottom = frame.square_box(file, rank)
        return max(
            sum(1 for x in range(left, right) if image.getpixel((x, y)) == fill)
            for y in range(top, bottom)
        )

    lone = top_width(1)
    assert lone > 0
    for height in (2, 10, 31, 40):
        assert top_width(height) >= lone


def test_only_stacks_too_tall_for_their_square_get_a_strip() -> None:
    short, _ = tall_position(6, ORDER[:4])
    assert stack_strips(short, PHONE_WIDTH) == []
    tall, square = tall_position(8, (ORDER * 6)[:31])
    assert stack_strips(tall, PHONE_WIDTH) == [square]
    plain = layout(PHONE_WIDTH, 8)
    assert image_of(tall, "default", PHONE_WIDTH).height == layout(PHONE_WIDTH, 8, False, 1).height
    assert image_of(short, "default", PHONE_WIDTH).height == layout(PHONE_WIDTH, 6).height
    assert layout(PHONE_WIDTH, 8, False, 1).height > plain.height
