"""The tournament and rating pictures in German: their words come from the catalogue (through
:mod:`bot.tournaments.pictures`), and the longer German words are drawn whole, inside the
picture, each painted as laid out and none over another (the pixel checks of the English
pictures, tests/rendering/test_render_pictures.py)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest

from bot.languages import _, speaking
from bot.tournaments import TieBreak
from bot.tournaments.pictures import (
    bracket_words,
    chart_words,
    pairings_words,
    standings_words,
    tie_break_name,
    tie_break_short,
)
from rendering import THEMES
from rendering.bracket import bracket_layout, render_bracket
from rendering.chart import RatingHistory, RatingPoint, chart_layout, render_rating_history
from rendering.diagram import Picture
from rendering.pairings import PairingRow, RoundPairings, pairings_layout, render_pairings
from rendering.standings import (
    StandingsTable,
    TieBreakColumn,
    render_standings,
    standings_layout,
)
from rendering.text import ELLIPSIS
from tests.rendering.test_render_pictures import (
    assert_drawn,
    check_legible,
    decoded,
    inside,
    seeded_bracket,
    standings,
)


def german_tie_breaks() -> tuple[TieBreakColumn, ...]:
    kinds = (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ)
    return tuple(TieBreakColumn(tie_break_short(k), tie_break_name(k)) for k in kinds)


def apart(picture: Picture, prefix: str) -> None:
    """The labels whose role starts with `prefix` (a row of headings) do not overlap."""
    boxes = [label.box() for label in picture.labels if label.role.startswith(prefix)]
    assert len(boxes) > 1
    for a, b in combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0], (a, b)


def whole(picture: Picture, role: str, text: str) -> None:
    label = picture.labelled(role)
    assert label.text == text and ELLIPSIS not in label.text, (role, label.text)


@pytest.mark.parametrize(("count", "cross"), [(6, True), (32, False)])
def test_german_standings_are_drawn_whole(count: int, cross: bool) -> None:
    with speaking("de"):
        words = standings_words()
        breaks = german_tie_breaks()
    assert words.player == "Spieler" and words.won == "S"
    rows = tuple(replace(row, tie_breaks=(1.5, 2, 3)) for row in standings(count, cross).rows)
    table = StandingsTable("", rows, breaks, points_heading="Pkt", words=words)
    layout = standings_layout(table)
    picture = layout.picture
    assert layout.cross is cross
    check_legible(picture)
    image = decoded(render_standings(table))
    whole(picture, "title", "Tabelle")
    headings = {label.text for label in picture.labels if label.role.startswith("heading")}
    assert {"#", "Spieler", "Pkt", "DV", "SB", "BH"} <= headings
    if not cross:
        assert {"S", "R", "N"} <= headings
    apart(picture, "heading")
    for label in picture.labels:
        if label.role.startswith("heading"):
            assert_drawn(image, picture, label.role)
    legend = " ".join(label.text for label in picture.labels if label.role == "legend")
    first = words.cross_legend if cross else words.counts_legend
    assert ELLIPSIS not in legend
    assert legend == f"{first} DV: direkter Vergleich SB: Sonneborn-Berger BH: Buchholz"
    assert all(
        inside(label.box(), (0, 0, picture.width, picture.height))
        for label in picture.labels
        if label.role == "legend"
    )


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_german_bracket_names_its_rounds_and_play_in_whole(theme: str) -> None:
    with speaking("de"):
        words = bracket_words()
    bracket = replace(seeded_bracket(8, 3)[0], words=words)
    layout = bracket_layout(bracket, theme)
    picture = layout.picture
    check_legible(picture)
    image = decoded(render_bracket(bracket, theme))
    shown = [picture.labelled(f"heading:{n}").text for n in range(3)]
    assert shown[2] == "Finale"
    assert shown[0] in ("Viertelfinale", "VF") and shown[1] in ("Halbfinale", "HF")
    whole(picture, "heading:3", "Sieger")
    for role in ("heading:0", "heading:1", "heading:2", "heading:3"):
        assert_drawn(image, picture, role)

    play_in = replace(seeded_bracket(33, 0)[0], words=words)
    layout = bracket_layout(play_in, theme)
    picture = layout.picture
    check_legible(picture)
    image = decoded(render_bracket(play_in, theme))
    whole(picture, "heading:play-in", "Vorrunde (Runde 1): die Sieger kommen in den Turnierbaum")
    waiting = " ".join(
        label.text for label in picture.labels if label.role.startswith("slot:1:0:1")
    )
    assert waiting == "Sieger von P1"
    assert inside(assert_drawn(image, picture, "slot:1:0:1").box(), layout.matches[1][0])  # type: ignore[arg-type]
    assert {picture.labelled(f"heading:{n}").text for n in range(1, 6)} <= {
        "Runde 2", "R2", "Runde 3", "R3", "Viertelfinale", "VF", "Halbfinale", "HF", "Finale",
    }  # fmt: skip


def test_a_german_knockout_with_byes_says_freilos() -> None:
    with speaking("de"):
        words = bracket_words()
    bracket = replace(seeded_bracket(7, 1)[0], words=words)
    picture = bracket_layout(bracket).picture
    byes = [label for label in picture.labels if label.text == "Freilos"]
    assert byes and not [label for label in picture.labels if label.text == "bye"]
    check_legible(picture)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_german_pairings_keep_their_headings_and_bye_marks_whole(theme: str) -> None:
    with speaking("de"):
        words = pairings_words()
    round_ = RoundPairings(
        "",
        (PairingRow(1, "Al", "Bo", (1, 1)), PairingRow(2, "Cy", "Di")),
        ("Zoë", "Ed"),
        requested=(False, True),
        words=words,
    )
    layout = pairings_layout(round_, theme)
    picture = layout.picture
    check_legible(picture)
    image = decoded(render_pairings(round_, theme))
    whole(picture, "title", "Paarungen")
    for role, text in (
        ("heading:white", "Weiß"),
        ("heading:result", "Ergebnis"),
        ("heading:black", "Schwarz"),
    ):
        whole(picture, role, text)
        assert_drawn(image, picture, role)
    apart(picture, "heading")
    marks = [assert_drawn(image, picture, f"bye-mark:{i}") for i in (0, 1)]
    assert [mark.text for mark in marks] == ["Freilos", "Freilos (erbeten)"]
    assert inside(marks[1].box(), layout.rows[3])
    # The widest mark stays between the names of a pairing row.
    result = marks[1].box()
    assert picture.labelled("white:0").box()[2] < result[0]
    assert result[2] < picture.labelled("black:0").box()[0]


@pytest.mark.parametrize("count", [0, 1, 40])
def test_a_german_rating_chart_is_worded_whole(count: int) -> None:
    with speaking("de"):
        words = chart_words(count)
    history = RatingHistory(
        "Alice", tuple(RatingPoint(1500 + i) for i in range(count)), "6x6", words
    )
    layout = chart_layout(history)
    picture = layout.picture
    check_legible(picture)
    image = decoded(render_rating_history(history))
    if not count:
        whole(picture, "empty", "Noch keine gewerteten Partien")
        assert_drawn(image, picture, "empty")
        return
    peak = f"{1500 + count - 1}"
    games = "gewertete Partie" if count == 1 else "gewertete Partien"
    whole(picture, "subtitle", f"6x6 · Höchstwert {peak} · {count} {games}")
    whole(picture, "x-axis", "Gewertete Partien")
    whole(picture, "y-axis", "Wertung")
    for role in ("subtitle", "x-axis", "y-axis"):
        assert_drawn(image, picture, role)


def test_the_pictures_words_are_english_outside_a_language() -> None:
    assert standings_words().player == "Player"
    assert bracket_words().winner_of == "winner of {tag}"
    assert pairings_words().requested == "bye (requested)"
    assert chart_words(2).summary[0] == "peak {peak} · 2 rated games"


@pytest.mark.parametrize(
    ("language", "points", "tie_break"), [("en", "12", "13.30"), ("de", "12", "13,30")]
)
def test_standings_numbers_are_written_in_the_readers_language(
    language: str, points: str, tie_break: str
) -> None:
    """Issue 38: a German table wrote "13.30" (and 1,200 as "1200")."""
    with speaking(language):
        words = standings_words()
        breaks = german_tie_breaks()
    rows = tuple(
        replace(row, points=12, tie_breaks=(13.3, 1200, 2.5)) for row in standings(4, True).rows
    )
    table = StandingsTable("Cup", rows, breaks, words=words)
    picture = standings_layout(table).picture
    image = decoded(render_standings(table))
    assert picture.labelled("points:0").text == points
    assert assert_drawn(image, picture, "tiebreak:0:0").text == tie_break
    assert picture.labelled("tiebreak:0:1").text == ("1.200" if language == "de" else "1,200")
    assert picture.labelled("tiebreak:0:2").text == "2½"


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_long_subtitle_is_wrapped_whole(language: str, theme: str) -> None:
    """Issue 38: the subtitle was cut at 520 px ("ranked by m…", "gewertet n…")."""
    with speaking(language):
        words = standings_words()
        subtitle = _(
            "Standings, {stage} · {size} · ranked by match points",
            stage=_("round {round}", round=7),
            size="6x6",
        )
    table = replace(standings(4, True), subtitle=subtitle, words=words)
    picture = standings_layout(table, theme).picture
    check_legible(picture)
    image = decoded(render_standings(table, theme))
    lines = [label for label in picture.labels if label.role.startswith("subtitle")]
    assert len(lines) > 1
    assert " ".join(label.text for label in lines) == subtitle
    for label in lines:
        assert_drawn(image, picture, label.role)
        assert label.box()[3] < picture.labelled("heading:0").box()[1]
