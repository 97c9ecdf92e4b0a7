"""One fixed 256-colour palette per theme, for small PNGs that encode fast and for GIF replays.

The board is drawn in RGB and then mapped to the palette without dithering: the theme's own
colours are in the palette exactly and, being on the palette grid (see
:func:`rendering.colour.on_grid`), come out unchanged (a flat's face keeps its owner's colour to
the unit); the
rest of the palette is what a median cut keeps of a sample image holding everything the renderer
draws, which covers the anti-aliased edges of pieces and text.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from rendering.board import Scene, draw_scene
from rendering.colour import RGB
from rendering.themes import Theme
from tak import Color, Position, Result, ResultKind, parse_move

_SAMPLE_TPS = (
    "2,1,1S,2S,1C,x/1212,2121C,x,21,12,1/2,x,2111111121212S,1,2,12/"
    "x,1,2,x,1212121212121212121212,2/1,2C,x,12,x,1/2,x2,1,2,x 2 40"
)
_SAMPLE_WIDTH = 700


def theme_colours(theme: Theme) -> list[RGB]:
    """Every colour a theme paints as a flat area, without repeats."""
    plain = [
        theme.background, theme.board, *theme.squares, *theme.tinted_squares, theme.text,
        theme.muted, theme.panel, theme.turn, theme.road, theme.road_edge, theme.alert,
        theme.alert_text, theme.layer_line,
    ]  # fmt: skip
    for piece in theme.players:
        plain += [piece.fill, piece.edge]
        for square in theme.squares + theme.tinted_squares:
            plain += [theme.buried(piece.fill, square), theme.buried(piece.edge, square)]
    return list(dict.fromkeys(plain))


@lru_cache(maxsize=16)
def palette(theme: Theme) -> Image.Image:
    """A "P" image whose palette is the theme's 256 colours."""
    position = Position.from_tps(_SAMPLE_TPS, komi=2.5, stones=60, caps=2)
    road = Result(Color.WHITE, ResultKind.ROAD, tuple((file, 2) for file in range(6)))
    sample = draw_scene(
        Scene(
            position,
            parse_move("3e3<111"),
            ("Alice Ångström", "Дмитрий 王小明"),
            theme,
            _SAMPLE_WIDTH,
            True,
            road,
        )
    )
    exact = theme_colours(theme)
    adaptive = sample.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    adaptive_colours = adaptive.getpalette()
    assert adaptive_colours is not None  # a quantized image is a "P" image: it has one
    colours = [c for rgb in exact for c in rgb] + adaptive_colours[: 3 * (256 - len(exact))]
    image = Image.new("P", (1, 1))
    image.putpalette(colours)
    return image


def to_palette(image: Image.Image, theme: Theme) -> Image.Image:
    """`image` mapped to the theme's palette, each pixel to its nearest colour."""
    return image.quantize(palette=palette(theme), dither=Image.Dither.NONE)
