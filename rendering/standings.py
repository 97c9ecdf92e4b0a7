"""The standings table as a picture: places, names, match results, points and tie-breaks.

A round robin of up to :data:`MAX_CROSS_PLAYERS` players shows a cross table (each row player's
game points against each opponent, columns numbered by row); any other table, or one whose cross
table would leave too little room for names, shows won / drawn / lost counts instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rendering.diagram import (
    BODY,
    MARGIN,
    MAX_WIDTH,
    SMALL,
    Box,
    NumberSymbols,
    Picture,
    Rect,
    encode,
    name_text,
    number_text,
    text_width,
    wrap,
)
from rendering.render import resolve_theme
from rendering.themes import Theme

MAX_CROSS_PLAYERS = 12
MIN_WIDTH = 520
_GAP = 14  # between columns
_MIN_NAME = 140  # the narrowest name column a cross table may leave
_MAX_NAME = 330
_DIAGONAL = "–"  # a player's cell against themselves, on a shaded square


class Outcome(Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class CrossCell:
    """How a row's player did against one opponent: game points scored, and the match outcome."""

    points: float
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class TieBreakColumn:
    """A tie-break column: its heading and, for the legend, its full name."""

    short: str
    name: str


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One player's line. `tie_breaks` lines up with the table's columns; `cross`, when given,
    has one cell per row of the table, in the table's order (None for no match yet, and for the
    player's own column)."""

    place: int
    name: str
    points: float
    won: int = 0
    drawn: int = 0
    lost: int = 0
    tie_breaks: tuple[float, ...] = ()
    cross: tuple[CrossCell | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class StandingsWords:
    """The words of the picture, in English unless the caller gives its language's."""

    title: str = "Standings"  # without a title of the table's own
    place: str = "#"
    player: str = "Player"
    unnamed: str = "Player {number}"  # a name with nothing to draw
    won: str = "W"
    drawn: str = "D"
    lost: str = "L"
    cross_legend: str = "Points scored against each opponent (columns: row numbers)"
    counts_legend: str = "Matches won, drawn, lost"
    numbers: NumberSymbols = field(default_factory=NumberSymbols)  # how numbers are written


@dataclass(frozen=True, slots=True)
class StandingsTable:
    title: str
    rows: tuple[StandingsRow, ...]
    tie_breaks: tuple[TieBreakColumn, ...] = ()
    subtitle: str = ""
    points_heading: str = "Pts"
    words: StandingsWords = StandingsWords()

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("A standings table needs at least one row.")
        for row in self.rows:
            if len(row.tie_breaks) != len(self.tie_breaks):
                raise ValueError(
                    f"{row.name!r} has {len(row.tie_breaks)} tie-break values for "
                    f"{len(self.tie_breaks)} columns."
                )
            if row.cross is not None and len(row.cross) != len(self.rows):
                raise ValueError(f"{row.name!r} has a cross table row of the wrong length.")


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    picture: Picture
    rows: tuple[Box, ...]  # each row's band, in the table's order
    cross: bool  # whether match results show as a cross table (else won / drawn / lost)


@dataclass(frozen=True, slots=True)
class _Column:
    heading: str
    width: float
    align: str  # "l", "m" or "r"
    size: int = BODY


def _place_texts(rows: tuple[StandingsRow, ...]) -> list[str]:
    """ "3=" for a place two or more players share."""
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.place] = counts.get(row.place, 0) + 1
    return [f"{row.place}{'=' if counts[row.place] > 1 else ''}" for row in rows]


def _cross_text(cell: CrossCell | None, numbers: NumberSymbols) -> str:
    return "" if cell is None else number_text(cell.points, numbers)


def _width_of(heading: str, values: list[str], size: int = BODY) -> float:
    return max([text_width(heading, SMALL), *(text_width(v, size) for v in values)])


def standings_layout(table: StandingsTable, theme: str | Theme = "default") -> StandingsLayout:
    """Where everything in the table goes (see :func:`render_standings`)."""
    chosen = resolve_theme(theme)
    rows = table.rows
    count = len(rows)
    places = _place_texts(rows)
    words = table.words
    names = [
        name_text(row.name, words.unnamed.format(number=index)) for index, row in enumerate(rows, 1)
    ]
    place_width = _width_of(words.place, places)
    name_natural = min(_MAX_NAME, max(text_width(n, BODY) for n in names) + 20)
    name_natural = max(name_natural, text_width(words.player, SMALL))
    tail = [
        _Column(
            table.points_heading,
            _width_of(table.points_heading, [number_text(r.points, words.numbers) for r in rows]),
            "r",
        )
    ]
    for index, tie_break in enumerate(table.tie_breaks):
        texts = [number_text(r.tie_breaks[index], words.numbers) for r in rows]
        tail.append(_Column(tie_break.short, _width_of(tie_break.short, texts, SMALL), "r", SMALL))
    fixed = 2 * MARGIN + place_width + _GAP + sum(c.width + _GAP for c in tail)

    cross_cells = [[_cross_text(c, words.numbers) for c in (r.cross or ())] for r in rows]
    cell_width = 10 + max(
        text_width(t, SMALL)
        for t in [str(count), _DIAGONAL, *(t for cells in cross_cells for t in cells)]
    )
    cross = (
        count <= MAX_CROSS_PLAYERS
        and all(r.cross is not None for r in rows)
        and fixed + count * cell_width + _GAP + _MIN_NAME <= MAX_WIDTH
    )
    if cross:
        middle = [_Column(str(i), cell_width, "m", SMALL) for i in range(1, count + 1)]
        middle_width = count * cell_width + _GAP
    else:
        middle = [
            _Column(heading, _width_of(heading, [str(getattr(r, attr)) for r in rows]), "m")
            for heading, attr in ((words.won, "won"), (words.drawn, "drawn"), (words.lost, "lost"))
        ]
        middle_width = sum(c.width + _GAP for c in middle)
    name_width = min(name_natural, MAX_WIDTH - fixed - middle_width)
    width = round(max(MIN_WIDTH, fixed + middle_width + name_width))
    name_width = width - fixed - middle_width  # a narrow table gives names the spare room

    picture = Picture(width, 0, chosen)
    y = picture.headline(table.title or words.title, table.subtitle)
    row_height = 46 if count <= 16 else 40
    heading_y = y + round(SMALL * 1.9)
    top = heading_y + round(SMALL * 0.6)

    # Column x positions: (left edge, width) for place, name, then the rest.
    spans: list[tuple[float, _Column]] = []
    x = float(MARGIN) + 8
    spans.append((x, _Column(words.place, place_width, "r")))
    x += place_width + _GAP
    spans.append((x, _Column(words.player, name_width - 16, "l")))
    x += name_width - 16 + _GAP
    for column in middle:
        spans.append((x, column))
        x += column.width + (0 if cross else _GAP)
    if cross:
        x += _GAP
    for column in tail:
        spans.append((x, column))
        x += column.width + _GAP

    def anchor_x(left: float, column: _Column) -> float:
        return {"l": left, "m": left + column.width / 2, "r": left + column.width}[column.align]

    for index, (left, column) in enumerate(spans):
        picture.text(
            column.heading,
            (anchor_x(left, column), heading_y),
            size=SMALL,
            colour=chosen.muted,
            anchor=column.align + "s",
            role=f"heading:{index}",
        )

    boxes: list[Box] = []
    cross_left = spans[2][0]
    for index, row in enumerate(rows):
        box = (MARGIN, top + index * row_height, width - MARGIN, top + (index + 1) * row_height)
        boxes.append(box)
        fill = picture.stripe(index, box)
        shade = chosen.board
        middle_y = (box[1] + box[3]) / 2
        values: list[tuple[str, str]] = [
            (places[index], f"place:{index}"),
            (names[index], f"name:{index}"),
        ]
        if cross:
            cells = cross_cells[index]
            values += [(text, f"cross:{index}:{j}") for j, text in enumerate(cells)]
            diagonal = cross_left + index * cell_width
            picture.shapes.append(
                Rect((round(diagonal), box[1] + 5, round(diagonal + cell_width), box[3] - 5), shade)
            )
            picture.text(
                _DIAGONAL,
                (diagonal + cell_width / 2, middle_y),
                size=SMALL,
                colour=chosen.text,
                on=shade,
                anchor="mm",
                role=f"diagonal:{index}",
            )
        else:
            values += [
                (str(row.won), f"won:{index}"),
                (str(row.drawn), f"drawn:{index}"),
                (str(row.lost), f"lost:{index}"),
            ]
        values.append((number_text(row.points, words.numbers), f"points:{index}"))
        values += [
            (number_text(v, words.numbers), f"tiebreak:{index}:{k}")
            for k, v in enumerate(row.tie_breaks)
        ]
        for (left, column), (text, role) in zip(spans, values, strict=True):
            if not text:
                continue
            colour = chosen.text
            if role.startswith(("tiebreak", "place")):
                colour = chosen.muted
            elif role.startswith("cross"):
                cell = row.cross[int(role.rsplit(":", 1)[1])]  # type: ignore[index]
                colour = (
                    chosen.muted if cell is not None and cell.outcome is Outcome.LOSS else colour
                )
            picture.text(
                text,
                (anchor_x(left, column), middle_y),
                size=column.size,
                colour=colour,
                on=fill,
                anchor=column.align + "m",
                max_width=column.width if role.startswith("name") else None,
                role=role,
            )
    y = top + count * row_height + round(SMALL * 1.6)
    legend = [f"{c.short}: {c.name}" for c in table.tie_breaks if c.short != c.name]
    if cross:
        legend.insert(0, words.cross_legend)
    else:
        legend.insert(0, words.counts_legend)
    for entry in legend:
        for line in wrap(entry, SMALL, width - 2 * MARGIN, lines=3):
            picture.text(line.text(), (MARGIN, y), size=SMALL, colour=chosen.muted, role="legend")
            y += round(SMALL * 1.4)
    picture.height = y - round(SMALL * 1.4) + MARGIN + round(SMALL * 0.4)
    return StandingsLayout(picture, tuple(boxes), cross)


def render_standings(table: StandingsTable, theme: str | Theme = "default") -> bytes:
    """The standings table as PNG bytes, at most :data:`rendering.diagram.MAX_WIDTH` px wide.

    Names in any script; long names are cut with an ellipsis. Raises ValueError for an unknown
    theme or rows that do not match the table's columns.
    """
    return encode(standings_layout(table, theme).picture)
