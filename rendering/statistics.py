"""A player's record as a picture (`/profile stats`): sections of rows, each row a label, a bar
split into games won, lost and drawn, and the three counts; a few facts in words under them, and
a footnote.

Bars are scaled within their section, so the sizes a player plays most stand out at a glance;
the counts beside them give the exact figures. The renderer is given every word (names, labels,
headings) in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.diagram import (
    BODY,
    MARGIN,
    SMALL,
    Box,
    Picture,
    Rect,
    encode,
    name_text,
    text_width,
    wrap,
)
from rendering.render import resolve_theme
from rendering.themes import Theme

WIDTH = 800  # shown 400 px wide on a phone: SMALL text stays 11 px
_ROW = 40
_LABEL_WIDTH = 250
_BAR_LEFT = MARGIN + _LABEL_WIDTH + 16
_COUNTS_WIDTH = 150  # "999 · 999 · 999" at SMALL
_BAR_RIGHT = WIDTH - MARGIN - _COUNTS_WIDTH - 16
_KEY_SIDE = 16


@dataclass(frozen=True, slots=True)
class BarRow:
    """One line: games won, lost and drawn under `label`."""

    label: str
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    rows: tuple[BarRow, ...]


@dataclass(frozen=True, slots=True)
class StatisticsWords:
    """The words the picture draws itself, in English unless the caller gives its language's."""

    player: str = "Player"  # a name with nothing to draw
    won: str = "won"
    lost: str = "lost"
    drawn: str = "drawn"


@dataclass(frozen=True, slots=True)
class StatisticsCard:
    """What the picture shows: `facts` are lines of words under the sections ("Average
    length: 42 plies"), `footnote` says how the figures were counted."""

    player: str
    summary: str
    sections: tuple[Section, ...]
    facts: tuple[str, ...] = ()
    footnote: str = ""
    words: StatisticsWords = StatisticsWords()


@dataclass(frozen=True, slots=True)
class StatisticsLayout:
    picture: Picture
    bars: dict[str, Box]  # each row's whole bar, by its label's role ("row:1:0")


def statistics_layout(card: StatisticsCard, theme: str | Theme = "default") -> StatisticsLayout:
    """Where everything goes (see :func:`render_statistics`)."""
    chosen = resolve_theme(theme)
    colours = (chosen.turn, chosen.road, chosen.muted)  # won, lost, drawn
    picture = Picture(WIDTH, 0, chosen)
    inner = WIDTH - 2 * MARGIN
    y = picture.headline(name_text(card.player, card.words.player), card.summary)
    # The key: a square of each colour and its word.
    y += round(SMALL * 1.7)
    x = float(MARGIN)
    for index, (word, colour) in enumerate(
        zip((card.words.won, card.words.lost, card.words.drawn), colours, strict=True)
    ):
        picture.shapes.append(
            Rect((round(x), y - _KEY_SIDE, round(x) + _KEY_SIDE, y), colour, radius=3)
        )
        picture.text(
            word, (x + _KEY_SIDE + 8, y), size=SMALL, colour=chosen.muted, role=f"key:{index}"
        )
        x += _KEY_SIDE + 8 + text_width(word, SMALL) + 28
    bars: dict[str, Box] = {}
    for number, section in enumerate(card.sections):
        y += round(BODY * 1.9)
        picture.text(
            section.heading, (MARGIN, y), size=BODY, max_width=inner, role=f"section:{number}"
        )
        y += round(SMALL * 0.6)
        most = max((row.games for row in section.rows), default=0) or 1
        for index, row in enumerate(section.rows):
            box = (MARGIN, y, WIDTH - MARGIN, y + _ROW)
            fill = picture.stripe(index + 1, box)
            middle = y + _ROW / 2
            role = f"row:{number}:{index}"
            picture.text(
                row.label,
                (MARGIN + 8, middle),
                size=SMALL,
                on=fill,
                anchor="lm",
                max_width=_LABEL_WIDTH - 8,
                role=role,
            )
            length = (_BAR_RIGHT - _BAR_LEFT) * row.games / most
            left = float(_BAR_LEFT)
            top, bottom = round(middle - 9), round(middle + 9)
            for count, colour in zip((row.wins, row.losses, row.draws), colours, strict=True):
                if count:
                    right = left + length * count / row.games
                    picture.shapes.append(Rect((round(left), top, round(right), bottom), colour))
                    left = right
            bars[role] = (_BAR_LEFT, top, round(_BAR_LEFT + length), bottom)
            picture.text(
                f"{row.wins} · {row.losses} · {row.draws}",
                (WIDTH - MARGIN - 8, middle),
                size=SMALL,
                on=fill,
                anchor="rm",
                role=f"counts:{number}:{index}",
            )
            y += _ROW
    if card.facts:
        y += round(SMALL * 0.8)
    for index, fact in enumerate(card.facts):
        y += round(BODY * 1.4)
        picture.text(fact, (MARGIN, y), size=BODY, max_width=inner, role=f"fact:{index}")
    if card.footnote:
        y += round(SMALL * 0.6)
        for index, line in enumerate(wrap(card.footnote, SMALL, inner, lines=4)):
            y += round(SMALL * 1.4)
            picture.text(
                line.text(), (MARGIN, y), size=SMALL, colour=chosen.muted, role=f"footnote:{index}"
            )
    picture.height = y + MARGIN + round(SMALL * 0.4)
    return StatisticsLayout(picture, bars)


def render_statistics(card: StatisticsCard, theme: str | Theme = "default") -> bytes:
    """The card as PNG bytes, :data:`WIDTH` px wide. Raises ValueError for an unknown theme."""
    return encode(statistics_layout(card, theme).picture)
