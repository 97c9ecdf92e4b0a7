"""A round's pairings as a picture: table number, white and black (with their piece colours),
the result once known, and who has a bye ("bye (requested)" for a player who asked to sit the
round out, not the odd player's bye). A round of groups played side by side (a groups ->
knockout event's group stage) shows each group under its own heading ("Group A"), its byes
with it."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.colour import RGB
from rendering.diagram import (
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
class PairingsWords:
    """The words of the picture, in English unless the caller gives its language's."""

    title: str = "Pairings"  # without a title of the round's own
    table: str = "#"
    white: str = "White"  # the heading, and a name with nothing to draw
    black: str = "Black"
    result: str = "Result"
    bye: str = "bye"
    requested: str = "bye (requested)"  # the bye of a player who asked to sit out


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One match: `white` has white in its first game; `score` is (white's, black's) game
    points once the match is over."""

    table: int
    white: str
    black: str
    score: tuple[float, float] | None = None
    group: str = ""  # the heading it is shown under, e.g. "Group A"; "" for none


@dataclass(frozen=True, slots=True)
class RoundPairings:
    title: str
    pairings: tuple[PairingRow, ...]
    byes: tuple[str, ...] = ()
    subtitle: str = ""
    bye_groups: tuple[str, ...] = ()  # the group of each bye, when the pairings have groups
    requested: tuple[bool, ...] = ()  # whether each bye was asked for; () when none was
    words: PairingsWords = PairingsWords()

    def __post_init__(self) -> None:
        if not self.pairings and not self.byes:
            raise ValueError("A round needs a pairing or a bye.")
        if self.bye_groups and len(self.bye_groups) != len(self.byes):
            raise ValueError("Give every bye its group, or none.")
        if self.requested and len(self.requested) != len(self.byes):
            raise ValueError("Say of every bye whether it was requested, or of none.")

    def bye_mark(self, index: int) -> str:
        """What the result column shows for bye `index`."""
        asked = self.requested and self.requested[index]
        return self.words.requested if asked else self.words.bye

    def sections(self) -> list[tuple[str, list[int], list[int]]]:
        """(heading, indices of its pairings, indices of its byes) in the order they are shown:
        groups in order of first appearance; one section without a heading when no group is
        named."""
        groups = self.bye_groups or ("",) * len(self.byes)
        order = list(dict.fromkeys([*(p.group for p in self.pairings), *groups]))
        return [
            (
                name,
                [i for i, p in enumerate(self.pairings) if p.group == name],
                [i for i, g in enumerate(groups) if g == name],
            )
            for name in order
        ]


@dataclass(frozen=True, slots=True)
class PairingsLayout:
    picture: Picture
    rows: tuple[Box, ...]  # one per pairing, then one per bye
    headings: tuple[Box, ...] = ()  # one per group heading, in order


def pairings_layout(round_: RoundPairings, theme: str | Theme = "default") -> PairingsLayout:
    """Where everything goes (see :func:`render_pairings`)."""
    chosen = resolve_theme(theme)
    words = round_.words
    whites = [name_text(p.white, words.white) for p in round_.pairings]
    blacks = [name_text(p.black, words.black) for p in round_.pairings]
    byes = [name_text(b, "?") for b in round_.byes]
    tables = [str(p.table) for p in round_.pairings]
    scores = [
        "" if p.score is None else f"{number_text(p.score[0])}–{number_text(p.score[1])}"
        for p in round_.pairings
    ]
    table_width = max(text_width(t, BODY) for t in [*tables, words.table])
    marks = [round_.bye_mark(i) for i in range(len(round_.byes))]
    score_width = max(
        text_width(words.result, SMALL),
        *(text_width(s, BODY) for s in [*scores, *marks, words.bye, "0–0"]),
    )
    names = [*whites, *blacks, *byes]
    natural = min(_MAX_NAME, max(text_width(n, BODY) for n in names) + 4)
    fixed = 2 * MARGIN + 16 + table_width + 4 * _GAP + 2 * (_CHIP + 10) + score_width
    name_width = min(natural, (MAX_WIDTH - fixed) / 2)
    width = round(max(_MIN_WIDTH, fixed + 2 * name_width))
    name_width = (width - fixed) / 2

    picture = Picture(width, 0, chosen)
    y = picture.headline(round_.title or words.title, round_.subtitle)
    heading_y = y + round(SMALL * 1.9)
    top = heading_y + round(SMALL * 0.6)
    table_right = MARGIN + 8 + table_width
    white_chip = table_right + _GAP
    white_left = white_chip + _CHIP + 10
    score_left = white_left + name_width + _GAP
    black_chip = score_left + score_width + _GAP
    black_left = black_chip + _CHIP + 10
    for text, x, anchor, role in (
        (words.table, table_right, "rs", "heading:table"),
        (words.white, white_left, "ls", "heading:white"),
        (words.result, score_left + score_width / 2, "ms", "heading:result"),
        (words.black, black_left, "ls", "heading:black"),
    ):
        picture.text(
            text, (x, heading_y), size=SMALL, colour=chosen.muted, anchor=anchor, role=role
        )
    columns = _Columns(
        table_right,
        white_chip,
        white_left,
        score_left + score_width / 2,
        black_chip,
        black_left,
        name_width,
    )

    row_height = 46 if len(names) <= 32 else 40
    heading_height = round(BODY * 1.7)
    boxes: dict[int, Box] = {}  # by row: pairings first, then byes
    headings: list[Box] = []
    y = top

    def band(row: int, index: int) -> tuple[float, RGB]:
        nonlocal y
        box = (MARGIN, y, width - MARGIN, y + row_height)
        y += row_height
        boxes[row] = box
        fill = picture.stripe(index, box)
        return (box[1] + box[3]) / 2, fill

    def heading(name: str) -> None:
        nonlocal y
        headings.append((MARGIN, y, width - MARGIN, y + heading_height))
        picture.text(
            name,
            (MARGIN + 8, y + heading_height - round(BODY * 0.45)),
            size=BODY,
            anchor="ls",
            max_width=width - 2 * MARGIN - 16,
            role=f"group:{len(headings) - 1}",
        )
        y += heading_height

    stripe = 0
    for name, pairing_rows, bye_rows in round_.sections():
        if name:
            heading(name)
        for index in pairing_rows:
            middle, fill = band(index, stripe)
            stripe += 1
            _pairing_row(picture, index, middle, fill, (tables, whites, scores, blacks), columns)
        for offset in bye_rows:
            middle, fill = band(len(round_.pairings) + offset, stripe)
            stripe += 1
            picture.text(
                byes[offset],
                (white_left, middle),
                on=fill,
                anchor="lm",
                max_width=name_width,
                role=f"bye:{offset}",
            )
            picture.text(
                marks[offset],
                (score_left + score_width / 2, middle),
                colour=chosen.muted,
                on=fill,
                anchor="mm",
                role=f"bye-mark:{offset}",
            )
    picture.height = y + MARGIN
    rows = tuple(boxes[row] for row in range(len(boxes)))
    return PairingsLayout(picture, rows, tuple(headings))


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where a pairing row's cells go (x positions and the room for a name)."""

    table_right: float
    white_chip: float
    white_left: float
    score_middle: float
    black_chip: float
    black_left: float
    name_width: float


def _pairing_row(
    picture: Picture,
    index: int,
    middle: float,
    fill: RGB,
    texts: tuple[list[str], list[str], list[str], list[str]],
    at: _Columns,
) -> None:
    """Pairing `index`'s chips, table number, names and score, centred on `middle`."""
    theme = picture.theme
    tables, whites, scores, blacks = texts
    chip_top = round(middle - _CHIP / 2)
    picture.shapes.append(Chip((round(at.white_chip), chip_top), _CHIP, theme.players[0]))
    picture.shapes.append(Chip((round(at.black_chip), chip_top), _CHIP, theme.players[1]))
    cells = (
        (tables[index], at.table_right, "rm", theme.muted, None, f"table:{index}"),
        (whites[index], at.white_left, "lm", theme.text, at.name_width, f"white:{index}"),
        (scores[index], at.score_middle, "mm", theme.text, None, f"score:{index}"),
        (blacks[index], at.black_left, "lm", theme.text, at.name_width, f"black:{index}"),
    )
    for text, x, anchor, colour, room, role in cells:
        if text:
            picture.text(
                text, (x, middle), colour=colour, on=fill, anchor=anchor, max_width=room, role=role
            )


def render_pairings(round_: RoundPairings, theme: str | Theme = "default") -> bytes:
    """The round's pairings as PNG bytes, at most :data:`rendering.diagram.MAX_WIDTH` px wide.
    Raises ValueError for an unknown theme or a round with nobody in it."""
    return encode(pairings_layout(round_, theme).picture)
