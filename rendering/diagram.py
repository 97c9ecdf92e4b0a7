"""Pictures made of boxes and lines of text: the common ground of the standings table, the
bracket, the pairings and the rating chart.

Each picture is laid out first, as plain data (:class:`Picture`: its shapes and its labels, each
label with what it shows, where and on what colour), then painted. Tests read the layout (which
row holds which name, how small the smallest text is) and check the painted pixels against it.

Legible on a phone: Discord shows an image about :data:`PHONE_WIDTH` px wide on a phone, so an
image `width` px wide is shrunk by ``PHONE_WIDTH / width``. Every picture keeps its smallest text
at least :data:`MIN_PHONE_TEXT` px tall once shrunk: text sizes are fixed (:data:`SMALL`,
:data:`BODY`, :data:`TITLE`) and no picture is wider than :data:`MAX_WIDTH`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import floor

from PIL import Image, ImageDraw

from rendering.board import _sprite
from rendering.colour import RGB
from rendering.palette import palette as theme_palette
from rendering.palette import to_palette
from rendering.render import png_bytes
from rendering.text import Line, displayable, draw_line, fit, line_width
from rendering.themes import PieceColours, Theme
from tak import Piece

PHONE_WIDTH = 400
MIN_PHONE_TEXT = 10
SMALL, BODY, TITLE = 22, 26, 34
MAX_WIDTH = floor(SMALL * PHONE_WIDTH / MIN_PHONE_TEXT)
MARGIN = 24

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom exclusive)


@dataclass(frozen=True, slots=True)
class Label:
    """One line of text: `role` names what it shows (e.g. ``"name:3"``, the name in row 3) for
    tests; `on` is the colour behind it, so its contrast can be checked."""

    line: Line
    xy: tuple[float, float]
    anchor: str
    colour: RGB
    on: RGB
    role: str = ""

    @property
    def text(self) -> str:
        return self.line.text()

    def box(self) -> Box:
        """Where the text's ink can be: its advance width, from a capital's top to a
        descender's bottom."""
        width = line_width(self.line)
        size = self.line.size
        x, y = self.xy
        left = x - {"l": 0, "m": width / 2, "r": width}[self.anchor[0]]
        baseline = y + (0.36 * size if self.anchor[1] == "m" else 0)
        return (
            floor(left),
            floor(baseline - 0.78 * size),
            round(left + width) + 1,
            round(baseline + 0.26 * size),
        )


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: RGB | None
    outline: RGB | None = None
    radius: int = 0
    width: int = 2


@dataclass(frozen=True, slots=True)
class Polyline:
    points: tuple[tuple[float, float], ...]
    colour: RGB
    width: int


@dataclass(frozen=True, slots=True)
class Dot:
    centre: tuple[float, float]
    radius: float
    fill: RGB


@dataclass(frozen=True, slots=True)
class Chip:
    """A flat piece seen from above, as on the board: whose colour a player has."""

    xy: tuple[int, int]  # top left
    side: int
    piece: PieceColours


Shape = Rect | Polyline | Dot | Chip


@dataclass
class Picture:
    """A laid-out image: shapes are painted in order, then the labels on top."""

    width: int
    height: int
    theme: Theme
    shapes: list[Shape] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)

    def text(
        self,
        text: str,
        xy: tuple[float, float],
        *,
        size: int = BODY,
        colour: RGB | None = None,
        on: RGB | None = None,
        anchor: str = "ls",
        max_width: float | None = None,
        role: str = "",
    ) -> Label:
        """Add a label; text wider than `max_width` is cut with an ellipsis."""
        line = Line.of(text, size) if max_width is None else fit(text, size, max_width)
        label = Label(
            line,
            xy,
            anchor,
            self.theme.text if colour is None else colour,
            self.theme.background if on is None else on,
            role,
        )
        self.labels.append(label)
        return label

    def headline(self, title: str, subtitle: str = "") -> int:
        """The title, and the subtitle under it in muted text, wrapped between words on up to
        three lines; returns the last baseline."""
        inner = self.width - 2 * MARGIN
        y = MARGIN + TITLE
        self.text(title, (MARGIN, y), size=TITLE, max_width=inner, role="title")
        for index, line in enumerate(wrap(subtitle, SMALL, inner, 3) if subtitle else ()):
            y += round(SMALL * 1.5 if index == 0 else SMALL * 1.3)
            self.text(
                line.text(),
                (MARGIN, y),
                size=SMALL,
                colour=self.theme.muted,
                role="subtitle" + "+" * index,
            )
        return y

    def stripe(self, index: int, box: Box) -> RGB:
        """Row `index`'s background: the panel colour on every other row, to guide the eye."""
        if index % 2:
            return self.theme.background
        self.shapes.append(Rect(box, self.theme.panel, radius=8))
        return self.theme.panel

    def labelled(self, role: str) -> Label:
        """The label with the given role (KeyError when there is none)."""
        for label in self.labels:
            if label.role == role:
                return label
        raise KeyError(role)

    def smallest_text(self) -> int:
        return min(label.line.size for label in self.labels)

    def phone_text(self) -> float:
        """The smallest text's size in px when the image is shown PHONE_WIDTH px wide."""
        return self.smallest_text() * min(1.0, PHONE_WIDTH / self.width)


def wrap(text: str, size: int, max_width: float, lines: int = 2) -> list[Line]:
    """`text` on at most `lines` lines no wider than `max_width`, broken between words (at a
    space, or after a hyphen), never inside one: a word too long for a line is cut with an
    ellipsis ("Hannelo…", not "Hannel" and "ore"), and so is what does not fit on the last
    line."""
    out: list[Line] = []
    rest = text
    while len(out) < lines - 1 and Line.of(rest, size).width() > max_width:
        ends = [i for i, char in enumerate(rest) if char == " "]
        ends += [i + 1 for i, char in enumerate(rest[:-1]) if char == "-"]
        fitting = [i for i in ends if Line.of(rest[:i].rstrip(), size).width() <= max_width]
        if fitting:
            cut = max(fitting)
            out.append(Line.of(rest[:cut].rstrip(), size))
        else:  # the first word alone is too long: cut it and go on with the next
            cut = min(ends, default=len(rest))
            out.append(fit(rest[:cut].rstrip(), size, max_width))
        rest = rest[cut:].lstrip()
        if not rest:
            return out
    out.append(fit(rest, size, max_width))
    return out


def name_text(name: str, fallback: str) -> str:
    """A player's name as it can be drawn (see :func:`rendering.text.displayable`)."""
    return displayable(name) or fallback


def text_width(text: str, size: int) -> float:
    """How wide `text` would be drawn (measured, not drawn: a long name's full width is wanted
    only to size its column, which cuts it)."""
    return Line.of(text, size).width()


@dataclass(frozen=True, slots=True)
class NumberSymbols:
    """How the reader's language writes numbers (the caller's Babel gives them: "," and "."
    in German)."""

    decimal: str = "."
    group: str = ","


def number_text(value: float, symbols: NumberSymbols = NumberSymbols()) -> str:
    """A score or tie-break as the reader writes numbers: 12 -> "12", 2.5 -> "2½", 0.5 -> "½",
    -1.5 -> "−1½"; 3.3 -> "3.30" in English, "3,30" in German; 1200 -> "1,200" in English,
    "1.200" in German."""
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(round(value * 4), 4)
    written = f"{whole:,}" if rest in (0, 2) else f"{value:,.2f}"
    if rest == 2:
        written = f"{written if whole else ''}½"
    return sign + written.translate({ord(","): symbols.group, ord("."): symbols.decimal})


def paint(picture: Picture) -> Image.Image:
    """The RGB image of a picture."""
    image = Image.new("RGB", (picture.width, picture.height), picture.theme.background)
    draw = ImageDraw.Draw(image)
    for shape in picture.shapes:
        if isinstance(shape, Rect):
            left, top, right, bottom = shape.box
            draw.rounded_rectangle(
                (left, top, right - 1, bottom - 1),
                shape.radius,
                fill=shape.fill,
                outline=shape.outline,
                width=shape.width if shape.outline else 0,
            )
        elif isinstance(shape, Polyline):
            draw.line(shape.points, fill=shape.colour, width=shape.width, joint="curve")
        elif isinstance(shape, Chip):
            sprite = _sprite(Piece.FLAT, shape.piece.fill, shape.piece.edge, shape.side)
            image.paste(sprite, shape.xy, sprite)
        else:
            x, y = shape.centre
            r = shape.radius
            draw.ellipse((x - r, y - r, x + r, y + r), fill=shape.fill)
    for label in picture.labels:
        draw_line(image, label.xy, label.line, label.colour, label.anchor)
    return image


def encode(picture: Picture) -> bytes:
    """The picture as PNG bytes, mapped to its theme's palette (small files, exact colours);
    a shape's colour the theme lacks (a graph's marks) takes one of the palette's last places."""
    image = paint(picture)
    palette = theme_palette(picture.theme)
    colours = palette.getpalette()
    assert colours is not None  # a palette image has one
    known = {tuple(colours[i : i + 3]) for i in range(0, len(colours), 3)}
    extra = [c for c in dict.fromkeys(_shape_colours(picture)) if c not in known]
    if not extra:
        return png_bytes(to_palette(image, picture.theme))
    own = Image.new("P", (1, 1))
    own.putpalette(colours[: 3 * (256 - len(extra))] + [v for c in extra for v in c])
    return png_bytes(image.quantize(palette=own, dither=Image.Dither.NONE))


def _shape_colours(picture: Picture) -> list[RGB]:
    colours: list[RGB] = []
    for shape in picture.shapes:
        if isinstance(shape, Rect):
            colours += [c for c in (shape.fill, shape.outline) if c is not None]
        elif isinstance(shape, Polyline):
            colours.append(shape.colour)
        elif isinstance(shape, Dot):
            colours.append(shape.fill)
    return colours
