"""A round's pairings as a picture: table number, white and black (with their piece colours),
the result once known, and who has a bye."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.colour import RGB
from rendering.picture import (
    BODY,
    MARGIN,
    MAX_WIDTH,
    SMALL,
    Box,
    Chip,
    Picture,
    encode,
    name_text,
    number_text,
    text_width,
)
from rendering.render import resolve_theme
from rendering.themes import Theme

_GAP = 16
_CHIP = 24
_MAX_NAME = 300
_MIN_WIDTH = 520


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One match: `white` has white in its first game; `score` is (white's, black's) game
    points once the match is over."""

    table: int
    white: str
    black: str
    score: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class RoundPairings:
    title: str
    pairings: tuple[PairingRow, ...]
    byes: tuple[str, ...] = ()
    subtitle: str = ""

    def __post_init__(self) -> None:
        if not self.pairings and not self.byes:
            raise ValueError("A round needs a pairing or a bye.")


@dataclass(frozen=True, slots=True)
class PairingsLayout:
    picture: Picture
    rows: tuple[Box, ...]  # one per pairing, then one per bye


def pairings_layout(round_: RoundPairings, theme: str | Theme = "default") -> PairingsLayout:
    """Where everything goes (see :func:`render_pairings`)."""
    chosen = resolve_theme(theme)
    whites = [name_text(p.white, "White") for p in round_.pairings]
    blacks = [name_text(p.black, "Black") for p in round_.pairings]
    byes = [name_text(b, "?") for b in round_.byes]
    tables = [str(p.table) for p in round_.pairings]
    scores = [
        "" if p.score is None else f"{number_text(p.score[0])}–{number_text(p.score[1])}"
        for p in round_.pairings
    ]
    table_width = max(text_width(t, BODY) for t in [*tables, "#"])
    score_width = max(text_width(s, BODY) for s in [*scores, "bye", "0–0"])
    names = [*whites, *blacks, *byes]
    natural = min(_MAX_NAME, max(text_width(n, BODY) for n in names) + 4)
    fixed = 2 * MARGIN + 16 + table_width + 4 * _GAP + 2 * (_CHIP + 10) + score_width
    name_width = min(natural, (MAX_WIDTH - fixed) / 2)
    width = round(max(_MIN_WIDTH, fixed + 2 * name_width))
    name_width = (width - fixed) / 2

    picture = Picture(width, 0, chosen)
    y = picture.headline(round_.title or "Pairings", round_.subtitle)
    heading_y = y + round(SMALL * 1.9)
    top = heading_y + round(SMALL * 0.6)
    table_right = MARGIN + 8 + table_width
    white_chip = table_right + _GAP
    white_left = white_chip + _CHIP + 10
    score_left = white_left + name_width + _GAP
    black_chip = score_left + score_width + _GAP
    black_left = black_chip + _CHIP + 10
    for text, x, anchor, role in (
        ("#", table_right, "rs", "heading:table"),
        ("White", white_left, "ls", "heading:white"),
        ("Result", score_left + score_width / 2, "ms", "heading:result"),
        ("Black", black_left, "ls", "heading:black"),
    ):
        picture.text(
            text, (x, heading_y), size=SMALL, colour=chosen.muted, anchor=anchor, role=role
        )

    row_height = 46 if len(names) <= 32 else 40
    boxes: list[Box] = []

    def band(index: int) -> tuple[float, RGB]:
        box = (MARGIN, top + index * row_height, width - MARGIN, top + (index + 1) * row_height)
        boxes.append(box)
        fill = picture.stripe(index, box)
        return (box[1] + box[3]) / 2, fill

    for index in range(len(round_.pairings)):
        middle, fill = band(index)
        chip_top = round(middle - _CHIP / 2)
        picture.shapes.append(Chip((round(white_chip), chip_top), _CHIP, chosen.players[0]))
        picture.shapes.append(Chip((round(black_chip), chip_top), _CHIP, chosen.players[1]))
        cells = (
            (tables[index], table_right, "rm", chosen.muted, None, f"table:{index}"),
            (whites[index], white_left, "lm", chosen.text, name_width, f"white:{index}"),
            (
                scores[index],
                score_left + score_width / 2,
                "mm",
                chosen.text,
                None,
                f"score:{index}",
            ),
            (blacks[index], black_left, "lm", chosen.text, name_width, f"black:{index}"),
        )
        for text, x, anchor, colour, room, role in cells:
            if text:
                picture.text(
                    text,
                    (x, middle),
                    colour=colour,
                    on=fill,
                    anchor=anchor,
                    max_width=room,
                    role=role,
                )
    for offset, name in enumerate(byes):
        index = len(round_.pairings) + offset
        middle, fill = band(index)
        picture.text(
            name,
            (white_left, middle),
            on=fill,
            anchor="lm",
            max_width=name_width,
            role=f"bye:{offset}",
        )
        picture.text(
            "bye",
            (score_left + score_width / 2, middle),
            colour=chosen.muted,
            on=fill,
            anchor="mm",
            role=f"bye-mark:{offset}",
        )
    picture.height = top + len(boxes) * row_height + MARGIN
    return PairingsLayout(picture, tuple(boxes))


def render_pairings(round_: RoundPairings, theme: str | Theme = "default") -> bytes:
    """The round's pairings as PNG bytes, at most :data:`rendering.picture.MAX_WIDTH` px wide.
    Raises ValueError for an unknown theme or a round with nobody in it."""
    return encode(pairings_layout(round_, theme).picture)
