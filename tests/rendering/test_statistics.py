"""A player's statistics as a picture: the layout first (which row holds what, bars to scale,
nothing past the edge at phone width), then the painted pixels."""

from __future__ import annotations

import pytest

from rendering import THEMES
from rendering.statistics import (
    WIDTH,
    BarRow,
    Section,
    StatisticsCard,
    StatisticsWords,
    render_statistics,
    statistics_layout,
)
from tests.rendering.test_render_pictures import assert_drawn, check_legible, decoded, inside

CARD = StatisticsCard(
    player="Hannelore Ångström-Wittgenstein the Third of Lower Saxony",
    summary="14 games in this server · 8 won, 5 lost, 1 drawn",
    sections=(
        Section("By board size", (BarRow("5x5", 3, 2, 0), BarRow("6x6", 5, 3, 1))),
        Section("Head-to-head", (BarRow("bob", 6, 3, 1), BarRow("王小明" * 20, 2, 2, 0))),
        Section("Against Bredon", (BarRow("Bredon", 0, 4, 0),)),
    ),
    facts=("Average length: 42 plies", "Time per move (median): 3 h 12 min"),
    footnote="Time per move: from the move before to the player's move, a vacation included. " * 2,
    words=StatisticsWords(won="gewonnen", lost="verloren", drawn="remis"),
)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_row_its_label_bar_and_counts_legible_at_phone_width(theme: str) -> None:
    layout = statistics_layout(CARD, theme)
    picture = layout.picture
    check_legible(picture)
    assert picture.labelled("row:0:1").text == "6x6"
    assert picture.labelled("counts:0:1").text == "5 · 3 · 1"
    assert picture.labelled("row:1:1").text.endswith("…")  # a long name is cut
    assert [picture.labelled(f"key:{i}").text for i in range(3)] == [
        "gewonnen",
        "verloren",
        "remis",
    ]
    # Bars to scale within their section: 6x6's 9 games the longest, 5x5's 5 in proportion.
    five, six = layout.bars["row:0:0"], layout.bars["row:0:1"]
    assert five[0] == six[0]
    assert (five[2] - five[0]) / (six[2] - six[0]) == pytest.approx(5 / 9, abs=0.01)
    whole = (0, 0, picture.width, picture.height)
    for bar in layout.bars.values():
        assert inside(bar, whole)
        for label in picture.labels:
            box = label.box()
            assert box[2] <= bar[0] or box[0] >= bar[2] or box[3] <= bar[1] or box[1] >= bar[3]
    image = decoded(render_statistics(CARD, theme))
    for role in ("title", "row:0:1", "counts:1:0", "fact:1", "footnote:0"):
        assert_drawn(image, picture, role)
    # The won part of 6x6's bar is painted in the won colour, the lost part in the lost one.
    middle = (six[1] + six[3]) // 2
    assert image.getpixel((six[0] + 2, middle)) == picture.theme.turn
    assert image.getpixel((six[2] - 2, middle)) == picture.theme.muted  # the drawn game, last


def test_the_png_is_the_laid_out_size() -> None:
    image = decoded(render_statistics(CARD, "paper"))
    assert image.size == (WIDTH, statistics_layout(CARD, "paper").picture.height)
