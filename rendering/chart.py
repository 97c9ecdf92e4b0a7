"""A player's rating history as a line chart: rating (up) after each rated game (across).

With no rated games the picture says so instead of drawing empty axes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from math import ceil, floor, log10

from rendering.diagram import (
    MARGIN,
    SMALL,
    TITLE,
    Box,
    Dot,
    Picture,
    Polyline,
    encode,
    name_text,
    text_width,
)
from rendering.render import resolve_theme
from rendering.text import fit
from rendering.themes import Theme

WIDTH, HEIGHT = 800, 520
_MAX_DOTS = 60  # beyond, the line alone: dots would merge


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The rating after one rated game (the first point may be the starting rating)."""

    rating: float
    when: datetime | None = None


@dataclass(frozen=True, slots=True)
class ChartWords:
    """The words of the picture, in English unless the caller gives its language's. `summary`
    has a form for one rated game and one for more ({peak}, {count}); a caller whose language
    counts otherwise gives the form for its history's count as both."""

    player: str = "Player"  # a name with nothing to draw
    summary: tuple[str, str] = (
        "peak {peak} · {count} rated game",
        "peak {peak} · {count} rated games",
    )
    empty: str = "No rated games yet"
    games: str = "Rated games"  # the x axis
    rating: str = "Rating"  # the y axis


@dataclass(frozen=True, slots=True)
class RatingHistory:
    player: str
    points: tuple[RatingPoint, ...]
    subtitle: str = ""  # e.g. the board size
    words: ChartWords = ChartWords()


@dataclass(frozen=True, slots=True)
class ChartLayout:
    picture: Picture
    plot: Box  # the plotting area; empty when there is nothing to plot
    marks: tuple[tuple[float, float], ...]  # each point's position, in order


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Evenly spaced round values (steps of 1, 2, 2.5 or 5 times a power of ten) from at or
    below `low` to at or above `high`: two to `most` of them."""
    if high - low < 1:  # a flat line: show it with some room
        low, high = low - 50, high + 50
    raw = (high - low) / (most - 1)
    power = 10 ** floor(log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first, last = _outer_multiples(low, high, step)
    while (last - first) / step + 1 > most:
        step *= 2
        first, last = _outer_multiples(low, high, step)
    count = round((last - first) / step)
    return [first + i * step for i in range(count + 1)]


def _outer_multiples(low: float, high: float, step: float) -> tuple[float, float]:
    """The multiples of `step` at or below `low` and at or above `high`, even where the division
    underflows or rounds (-5e-324 / 2 is -0.0)."""
    first, last = floor(low / step) * step, ceil(high / step) * step
    return (first - step if first > low else first), (last + step if last < high else last)


def _tick_text(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:g}"


def y_axis(
    picture: Picture, plot: Box, ticks: list[float], text: Callable[[float], str] | None = None
) -> Callable[[float], float]:
    """Grid lines across `plot` at the ticks, labelled on the left (by `text`); returns the
    value-to-y mapping, from the first tick at the bottom to the last at the top."""
    left, top, right, bottom = plot
    show = text or _tick_text

    def to_y(value: float) -> float:
        return bottom - (value - ticks[0]) / (ticks[-1] - ticks[0]) * (bottom - top)

    for tick in ticks:
        ty = to_y(tick)
        picture.shapes.append(Polyline(((left, ty), (right, ty)), picture.theme.panel, 2))
        picture.text(
            show(tick),
            (left - 10, ty),
            size=SMALL,
            colour=picture.theme.muted,
            anchor="rm",
            role=f"y-tick:{_tick_text(tick)}",
        )
    return to_y


def chart_layout(history: RatingHistory, theme: str | Theme = "default") -> ChartLayout:
    """Where everything goes (see :func:`render_rating_history`)."""
    chosen = resolve_theme(theme)
    picture = Picture(WIDTH, HEIGHT, chosen)
    words = history.words
    name = name_text(history.player, words.player)
    points = history.points
    heading = name
    if points:
        latest = points[-1].rating
        peak = max(p.rating for p in points)
        rating = f": {latest:.0f}"
        # A long name is cut, not the rating after it.
        room = WIDTH - 2 * MARGIN - text_width(rating, TITLE) - 1
        heading = fit(name, TITLE, room).text() + rating
        form = words.summary[0 if len(points) == 1 else 1]
        summary = form.format(peak=f"{peak:.0f}", count=len(points))
        if history.subtitle:
            summary = f"{history.subtitle} · {summary}"
    else:
        summary = history.subtitle
    y = picture.headline(heading, summary)
    if not points:
        picture.text(
            words.empty,
            (WIDTH / 2, (y + HEIGHT) / 2),
            size=TITLE,
            colour=chosen.muted,
            anchor="mm",
            role="empty",
        )
        return ChartLayout(picture, (0, 0, 0, 0), ())

    ratings = [p.rating for p in points]
    ticks = nice_ticks(min(ratings), max(ratings))
    label_width = max(text_width(_tick_text(t), SMALL) for t in ticks)
    plot = (
        round(MARGIN + SMALL * 1.4 + label_width + 12),
        y + round(SMALL * 3),
        WIDTH - MARGIN - 8,
        HEIGHT - MARGIN - round(SMALL * 2.6),
    )
    left, top, right, bottom = plot
    to_y = y_axis(picture, plot, ticks)
    count = len(points)
    span = max(1, count - 1)
    marks = tuple(
        (left + (right - left) * (i / span if count > 1 else 0.5), to_y(r))
        for i, r in enumerate(ratings)
    )
    games = {1.0, *(nice_ticks(1, count, 6) if count > 1 else ())}
    for game in sorted(games):
        if float(game).is_integer() and 1 <= game <= count and (game == 1 or game >= count / 12):
            x = marks[int(game) - 1][0]
            picture.text(
                f"{game:.0f}",
                (x, bottom + SMALL * 1.2),
                size=SMALL,
                colour=chosen.muted,
                anchor="ms",
                role=f"x-tick:{game:.0f}",
            )
    picture.text(
        words.games,
        ((left + right) / 2, HEIGHT - MARGIN),
        size=SMALL,
        colour=chosen.muted,
        anchor="ms",
        role="x-axis",
    )
    picture.text(
        words.rating,
        (MARGIN, top - round(SMALL * 1.1)),
        size=SMALL,
        colour=chosen.muted,
        role="y-axis",
    )
    if count > 1:
        picture.shapes.append(Polyline(marks, chosen.road, 4))
    if count <= _MAX_DOTS:
        radius = 7 if count == 1 else 5
        picture.shapes += [Dot(mark, radius, chosen.road) for mark in marks]
    return ChartLayout(picture, plot, marks)


def render_rating_history(history: RatingHistory, theme: str | Theme = "default") -> bytes:
    """The chart as PNG bytes, :data:`WIDTH` x :data:`HEIGHT` px; "No rated games yet" when
    there are no points. Raises ValueError for an unknown theme."""
    return encode(chart_layout(history, theme).picture)
