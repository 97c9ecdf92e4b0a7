"""Text on the image: the bundled fonts, per-character fallback between them, and fitting a line
into a width with an ellipsis.

Names come from Discord and may be in any script. Each character is drawn with the first bundled
font that has it (DejaVu Sans Bold for Latin, Greek, Cyrillic, Hebrew, Arabic...; Noto Sans CJK
Bold for Chinese, Japanese and Korean). A character neither font has is drawn as its
compatibility form where the fonts have that (Unicode's NFKC: "Ⓒ" as "C", "𝐁" as "B", "ﬁ" as
"fi"); else a symbol (emoji, mostly) is left out, and any other character is shown as "?", so
nothing comes out as an empty box.
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from math import ceil

from PIL import Image, ImageDraw, ImageFont

from rendering.colour import RGB

_FONT_FILES = ("DejaVuSans-Bold-subset.ttf", "NotoSansCJK-Bold-subset.otf")
_PROBE_SIZE = 24
_NO_GLYPH = "\U0010fffd"  # a private-use code point no font maps: draws the font's .notdef
ELLIPSIS = "…"
REPLACEMENT = "?"
# More characters than any line of any picture holds: a longer text is cut to this before it is
# looked at, so a name of any length costs what one of this length does.
LONGEST_LINE = 400

# FreeType faces are not safe to use from two threads at once; Pillow holds the GIL through
# most, but not all, of a text call. One lock keeps concurrent renders correct.
_FREETYPE = threading.Lock()


@cache
def _font_bytes(name: str) -> bytes:
    return resources.files("rendering").joinpath("fonts", name).read_bytes()


@lru_cache(maxsize=64)
def fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
    """The bundled fonts at a pixel size, in fallback order."""
    from io import BytesIO

    return tuple(ImageFont.truetype(BytesIO(_font_bytes(n)), size) for n in _FONT_FILES)


def _mask_key(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


@cache
def _missing_keys() -> tuple[tuple[tuple[int, int], bytes], ...]:
    return tuple(_mask_key(font, _NO_GLYPH) for font in fonts(_PROBE_SIZE))


@lru_cache(maxsize=8192)
def font_index(char: str) -> int | None:
    """Which bundled font draws `char` (0 is the main one), or None when none has it."""
    if char.isspace():
        return 0
    with _FREETYPE:
        missing = _missing_keys()
        for index, font in enumerate(fonts(_PROBE_SIZE)):
            if _mask_key(font, char) != missing[index]:
                return index
    return None


def displayable(text: str) -> str:
    """`text` with what no bundled font can draw dropped (symbols, controls) or shown as "?";
    runs of spaces collapse to one. Only its first :data:`LONGEST_LINE` characters are kept, and
    an ellipsis for the rest."""
    out: list[str] = []
    rest = ELLIPSIS if len(text) > LONGEST_LINE else ""
    for char in unicodedata.normalize("NFC", text[:LONGEST_LINE]):
        category = unicodedata.category(char)
        if char.isspace():
            out.append(" ")
        elif category[0] == "C":
            continue
        elif font_index(char) is not None:
            out.append(char)
        elif (plain := _plain_form(char)) is not None:
            out.append(plain)
        elif category[0] not in "SM":
            out.append(REPLACEMENT)
    shown = " ".join("".join(out).split())
    return shown + rest if shown else ""


@lru_cache(maxsize=1024)
def _plain_form(char: str) -> str | None:
    """`char`'s compatibility form (NFKC) when it differs and the fonts draw all of it."""
    plain = unicodedata.normalize("NFKC", char)
    if plain == char or not all(font_index(c) is not None for c in plain):
        return None
    return plain


@dataclass(frozen=True, slots=True)
class Line:
    """A line of text split into runs that each use one font, ready to measure and draw."""

    runs: tuple[tuple[int, str], ...]
    size: int

    @classmethod
    def of(cls, text: str, size: int) -> Line:
        runs: list[tuple[int, str]] = []
        for char in text:
            index = font_index(char) or 0
            if runs and runs[-1][0] == index:
                runs[-1] = (index, runs[-1][1] + char)
            else:
                runs.append((index, char))
        return cls(tuple(runs), size)

    def width(self) -> float:
        faces = fonts(self.size)
        with _FREETYPE:
            return sum(faces[index].getlength(run) for index, run in self.runs)

    def text(self) -> str:
        return "".join(run for _, run in self.runs)


def fit(text: str, size: int, max_width: float) -> Line:
    """`text` as a line at `size` px, cut with an ellipsis if it is wider than `max_width`.

    The cut is found by bisection on its length, after doubling a first guess until it is too
    long: a few lines are measured, none much longer than the part that fits, so a name of any
    length costs about what one that just fits does (trimming a character at a time made a
    name of 8,000 characters take most of a minute)."""
    length = max(1, ceil(4 * max_width / size))  # more characters than fit, unless very narrow
    fitting = 0  # the longest cut known to fit (0: the bare ellipsis, the last resort)
    while length < len(text) and _cut(text, length, size).width() <= max_width:
        fitting, length = length, 2 * length
    if length >= len(text):
        whole = Line.of(text, size)
        if whole.width() <= max_width:
            return whole
        length = len(text)
    while length - fitting > 1:  # _cut(fitting) fits, _cut(length) does not
        middle = (fitting + length) // 2
        if _cut(text, middle, size).width() <= max_width:
            fitting = middle
        else:
            length = middle
    return _cut(text, fitting, size)


def _cut(text: str, length: int, size: int) -> Line:
    """The first `length` characters of `text` (less trailing spaces) and an ellipsis."""
    return Line.of(text[:length].rstrip() + ELLIPSIS, size)


@dataclass(frozen=True, slots=True)
class _Stamp:
    """A line drawn once as an 8-bit mask, for pasting in any colour: `ascent` px above the
    baseline, and `cap_middle`, the height of the middle of a capital above the baseline."""

    mask: Image.Image
    width: float
    ascent: int
    cap_middle: float


@lru_cache(maxsize=4096)
def _stamp(line: Line) -> _Stamp:
    faces = fonts(line.size)
    with _FREETYPE:
        ascent = max(face.getmetrics()[0] for face in faces)
        descent = max(face.getmetrics()[1] for face in faces)
        top, bottom = faces[0].getbbox("H", anchor="ls")[1::2]
        widths = [faces[index].getlength(run) for index, run in line.runs]
        # Room either side for glyphs that reach past their advance.
        slack = line.size // 4
        mask = Image.new("L", (ceil(sum(widths)) + 2 * slack, ascent + descent), 0)
        draw = ImageDraw.Draw(mask)
        x = float(slack)
        for (index, run), width in zip(line.runs, widths, strict=True):
            draw.text((x, ascent), run, font=faces[index], fill=255, anchor="ls")
            x += width
    return _Stamp(mask, sum(widths), ascent, -(top + bottom) / 2)


def line_width(line: Line) -> float:
    return _stamp(line).width


def draw_line(
    image: Image.Image, xy: tuple[float, float], line: Line, fill: RGB, anchor: str = "ls"
) -> None:
    """Draw `line` on `image`. `anchor` is "l", "m" or "r" (where `xy` is on the line
    horizontally), then "s" (`xy` is on the baseline) or "m" (on the middle of a capital)."""
    stamp = _stamp(line)
    x, y = xy
    x -= {"l": 0, "m": stamp.width / 2, "r": stamp.width}[anchor[0]]
    baseline = y + (stamp.cap_middle if anchor[1] == "m" else 0)
    slack = line.size // 4
    image.paste(fill, (round(x) - slack, round(baseline) - stamp.ascent), stamp.mask)
