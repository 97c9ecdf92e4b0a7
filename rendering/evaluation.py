"""A game's evaluation graph: who was ahead (up: White, down: Black) after each ply, in flats.

Drawn with the rating chart's painting (:mod:`rendering.chart`): the same grid, ticks and line,
with the marked plies as dots and a line across at zero. Each mark's dot stands out from the
background (3:1, as WCAG asks of graphics) and from the line (the theme's road colour, magenta
or amber): a blunder in red, a mistake in the text colour, a Tinuë found in green, each made
lighter or darker until it reaches 3:1, and ringed in the background colour on the line.
The scale is fixed, ±:data:`EDGE` flats, where a forced result is drawn, so graphs compare. The
line above the plot names the players and the unit (ticks read ▲ for White ahead, ▼ for
Black); a legend under it says what each mark's dot means.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.chart import HEIGHT, WIDTH, y_axis
from rendering.colour import RGB, blend, contrast, luminance, on_grid
from rendering.diagram import (
    MARGIN,
    SMALL,
    Box,
    Dot,
    Picture,
    Polyline,
    encode,
    name_text,
    text_width,
)
from rendering.render import resolve_theme
from rendering.themes import MIN_GRAPHIC_CONTRAST, Theme

EDGE = 10.0  # flats: a forced win or loss sits on the edge
_TICKS = [-EDGE, -EDGE / 2, 0.0, EDGE / 2, EDGE]
# Apart from every theme's line (magenta, amber) for every colour vision (rendering.colour).
_BLUNDER = (230, 70, 50)  # red
_FOUND = (46, 194, 126)  # green
_DOT, _RING = 7, 10  # a mark's radius, and its ring's in the background colour


@dataclass(frozen=True, slots=True)
class GraphWords:
    """The words drawn on the graph, English unless its caller gives them in another language
    (the legend's meanings in the order it lists the marks)."""

    axis: str = "Flats ahead: ▲ {white} (White) · ▼ {black} (Black)"
    ply: str = "Ply"
    white: str = "White"  # a player whose name cannot be drawn
    black: str = "Black"
    marks: tuple[tuple[str, str], ...] = (("??", "blunder"), ("?", "mistake"), ("!", "Tinuë found"))


@dataclass(frozen=True, slots=True)
class EvaluationGraph:
    """Evaluations in flats from White's side, one per position (the start first), and the
    marks of the plies (`marks[i]` is the mark of the move from position i to i + 1)."""

    title: str
    scores: tuple[float, ...]
    marks: tuple[str, ...] = ()
    subtitle: str = ""
    white: str = "White"
    black: str = "Black"
    words: GraphWords = GraphWords()


@dataclass(frozen=True, slots=True)
class GraphLayout:
    picture: Picture
    plot: Box
    points: tuple[tuple[float, float], ...]  # each position's point, in order


def _side_text(value: float) -> str:
    if value == 0:
        return "0"
    return f"{'▲' if value > 0 else '▼'}{abs(value):g}"


def mark_colour(mark: str, theme: Theme) -> RGB:
    """The dot of a mark ("??", "?", "!"), at least 3:1 against the background."""
    wanted = _BLUNDER if mark == "??" else theme.text if mark == "?" else _FOUND
    return standing_out(wanted, theme.background)


def standing_out(colour: RGB, background: RGB) -> RGB:
    """`colour`, made lighter (on a dark background) or darker (on a light one) just enough to
    reach 3:1 against `background`."""
    toward = (255, 255, 255) if luminance(background) < 0.18 else (0, 0, 0)
    shifted, amount = on_grid(colour), 0.0
    while contrast(shifted, background) < MIN_GRAPHIC_CONTRAST and amount < 1:
        amount += 0.05
        shifted = on_grid(blend(colour, toward, amount))
    return shifted


def graph_layout(graph: EvaluationGraph, theme: str | Theme = "default") -> GraphLayout:
    """Where everything goes (see :func:`render_evaluation_graph`)."""
    if not graph.scores:
        raise ValueError("An evaluation graph needs at least the start position's score.")
    if len(graph.marks) not in (0, len(graph.scores) - 1):
        raise ValueError("Give one mark per ply (one fewer than the scores), or none.")
    chosen = resolve_theme(theme)
    picture = Picture(WIDTH, HEIGHT, chosen)
    y = picture.headline(graph.title, graph.subtitle)
    label_width = max(text_width(_side_text(t), SMALL) for t in _TICKS)
    words = graph.words
    white = name_text(graph.white, words.white)
    black = name_text(graph.black, words.black)
    y += round(SMALL * 1.5)
    picture.text(
        words.axis.format(white=white, black=black),
        (MARGIN, y),
        size=SMALL,
        colour=chosen.muted,
        max_width=WIDTH - 2 * MARGIN,
        role="y-axis",
    )
    plot = (
        round(MARGIN + label_width + 12),
        y + round(SMALL * 1.6),
        WIDTH - MARGIN - 8,
        HEIGHT - MARGIN - round(SMALL * 2.6),
    )
    left, _top, right, bottom = plot
    to_y = y_axis(picture, plot, _TICKS, _side_text)
    zero = to_y(0)
    picture.shapes.append(Polyline(((left, zero), (right, zero)), chosen.muted, 2))
    span = max(1, len(graph.scores) - 1)
    points = tuple(
        (left + (right - left) * i / span, to_y(max(-EDGE, min(EDGE, score))))
        for i, score in enumerate(graph.scores)
    )
    plies = len(graph.scores) - 1
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if plies / s <= 10)
    for ply in range(0, plies + 1, step):
        picture.text(
            str(ply),
            (points[ply][0], bottom + SMALL * 1.2),
            size=SMALL,
            colour=chosen.muted,
            anchor="ms",
            role=f"x-tick:{ply}",
        )
    picture.text(
        words.ply,
        (right, HEIGHT - MARGIN),
        size=SMALL,
        colour=chosen.muted,
        anchor="rs",
        role="x-axis",
    )
    if len(points) > 1:
        picture.shapes.append(Polyline(points, chosen.road, 4))
    for ply, mark in enumerate(graph.marks):
        if mark:
            picture.shapes.append(Dot(points[ply + 1], _RING, chosen.background))
            picture.shapes.append(Dot(points[ply + 1], _DOT, mark_colour(mark, chosen)))
    x = float(left)
    for mark, meaning in words.marks:
        if mark not in graph.marks:
            continue
        picture.shapes.append(
            Dot((x + _DOT, HEIGHT - MARGIN - 0.36 * SMALL), _DOT, mark_colour(mark, chosen))
        )
        label = picture.text(
            f"{mark} {meaning}",
            (x + 20, HEIGHT - MARGIN),
            size=SMALL,
            colour=chosen.muted,
            role=f"legend:{mark}",
        )
        x = label.box()[2] + 24
    return GraphLayout(picture, plot, points)


def render_evaluation_graph(graph: EvaluationGraph, theme: str | Theme = "default") -> bytes:
    """The graph as PNG bytes (:data:`rendering.chart.WIDTH` x :data:`~rendering.chart.HEIGHT`
    px, legible at phone width). ValueError for an unknown theme or mismatched marks."""
    return encode(graph_layout(graph, theme).picture)
