"""Standings, bracket, pairings and rating chart pictures: the layout says which text goes
where, and the painted pixels are checked against it (each label's box holds exactly that text
drawn alone on the colour behind it)."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from rendering import THEMES
from rendering.bracket import (
    Bracket,
    BracketMatch,
    Entrant,
    bracket_layout,
    bracket_pictures,
    render_bracket,
)
from rendering.chart import (
    RatingHistory,
    RatingPoint,
    chart_layout,
    nice_ticks,
    render_rating_history,
)
from rendering.colour import VISIONS, contrast, distance, simulate
from rendering.diagram import (
    MARGIN,
    MAX_WIDTH,
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    SMALL,
    Box,
    Label,
    Picture,
    Polyline,
    name_text,
    paint,
    wrap,
)
from rendering.evaluation import (
    EvaluationGraph,
    graph_layout,
    mark_colour,
    render_evaluation_graph,
)
from rendering.pairings import PairingRow, RoundPairings, pairings_layout, render_pairings
from rendering.palette import to_palette
from rendering.standings import (
    CrossCell,
    Outcome,
    StandingsRow,
    StandingsTable,
    TieBreakColumn,
    render_standings,
    standings_layout,
)
from rendering.text import ELLIPSIS, draw_line, font_index
from rendering.themes import MIN_GRAPHIC_CONTRAST, MIN_MARK_DISTANCE, MIN_TEXT_CONTRAST

NAMES = (
    "Alice Ångström", "Дмитрий", "王小明", "محمد علي", "Bob 🐢", "Zoë", "שלום",
    "Alexandria Ocasio-Longname the Third", "김민수", "Eve", "Frank", "Grace",
)  # fmt: skip
TIE_BREAKS = (TieBreakColumn("SB", "Sonneborn-Berger"), TieBreakColumn("Bu", "Buchholz"))


def standings(count: int, cross: bool) -> StandingsTable:
    rows = []
    for i in range(count):
        cells = None
        if cross:
            cells = tuple(
                None
                if j == i
                else CrossCell(2, Outcome.WIN)
                if j > i
                else CrossCell(0, Outcome.LOSS)
                for j in range(count)
            )
        name = NAMES[i] if i < len(NAMES) else f"Player {i + 1}"
        rows.append(
            StandingsRow(i + 1, name, count - i - 1, count - i - 1, 0, i, (i / 2, 3), cells)
        )
    return StandingsTable("Cup", tuple(rows), TIE_BREAKS, subtitle="after round 3")


def seeded_bracket(count: int, rounds_played: int) -> tuple[Bracket, list[Entrant]]:
    """The usual seeding (1 meets the lowest seed; byes to the top seeds); the better seed wins
    every match played."""
    size = 1 << (count - 1).bit_length()
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    entrants = [Entrant(NAMES[s - 1] if s <= len(NAMES) else f"Seed {s}", s) for s in order]
    current = [(entrants[2 * i], entrants[2 * i + 1]) for i in range(size // 2)]
    current = [(a if a.seed <= count else None, b if b.seed <= count else None)  # type: ignore[operator]
               for a, b in current]  # fmt: skip
    rounds = []
    for _ in range(rounds_played):
        matches, winners = [], []
        for a, b in current:
            if a is None or b is None:
                matches.append(BracketMatch((a, b)))
                winners.append(a or b)
            else:
                top_wins = a.seed < b.seed  # type: ignore[operator]
                matches.append(
                    BracketMatch((a, b), (2, 0) if top_wins else (0, 2), 0 if top_wins else 1)
                )
                winners.append(a if top_wins else b)
        rounds.append(tuple(matches))
        if len(winners) == 1:
            break
        current = [(winners[2 * i], winners[2 * i + 1]) for i in range(len(winners) // 2)]
    first_only = (tuple(BracketMatch(pair) for pair in current),) if not rounds else ()
    return Bracket("Knockout", tuple(rounds) or first_only), [
        e for e in entrants if e.seed <= count
    ]  # type: ignore[operator]


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def alone(label: Label, picture: Picture) -> Image.Image:
    """The label's box as it looks with only that text drawn, on the colour behind it."""
    image = Image.new("RGB", (picture.width, picture.height), label.on)
    draw_line(image, label.xy, label.line, label.colour, label.anchor)
    image = image.crop(label.box())
    return to_palette(image, picture.theme).convert("RGB")


def assert_drawn(image: Image.Image, picture: Picture, role: str) -> Label:
    label = picture.labelled(role)
    crop = image.crop(label.box())
    reference = alone(label, picture)
    assert crop.tobytes() == reference.tobytes(), role
    assert label.colour in {c for _, c in reference.getcolors(1 << 16)}  # the text has ink
    return label


def shows(label: Label, name: str) -> bool:
    """The label is `name`, or `name` cut with an ellipsis to at least its first three letters."""
    text = label.text
    cut = text.endswith(ELLIPSIS) and len(text) >= 4 and name.startswith(text[:-1].rstrip())
    return text == name or cut


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def check_legible(picture: Picture) -> None:
    assert picture.width <= MAX_WIDTH
    assert picture.phone_text() >= MIN_PHONE_TEXT
    for label in picture.labels:
        assert contrast(label.colour, label.on) >= MIN_TEXT_CONTRAST, (
            label.role,
            picture.theme.name,
        )
        box = label.box()
        assert (
            box[0] >= 0 and box[2] <= picture.width and box[1] >= 0 and box[3] <= picture.height
        ), label.role


# A 60-ply game: White ahead, a blunder at ply 40, Black's road at the end.
EVALUATIONS = EvaluationGraph(
    "Alice vs Bob",
    tuple([0.3 + i / 20 for i in range(40)] + [-4.0 - i / 4 for i in range(20)] + [-10.0]),
    tuple("??" if i == 39 else "?" if i == 20 else "" for i in range(60)),
    "Game #7 · 6x6 · 0-R",
    white="Alice",
    black="Bob",
)


def pictures(theme: str) -> list[Picture]:
    bracket, _ = seeded_bracket(32, 5)
    history = RatingHistory("Alice", tuple(RatingPoint(1500 + (i * 37) % 200) for i in range(300)))
    return [
        standings_layout(standings(6, True), theme).picture,
        standings_layout(standings(32, False), theme).picture,
        bracket_layout(bracket, theme).picture,
        bracket_layout(seeded_bracket(5, 1)[0], theme).picture,
        pairings_layout(
            RoundPairings("Round 2", (PairingRow(1, "Alice", "Bob"),), ("Carol",)), theme
        ).picture,
        chart_layout(history, theme).picture,
        chart_layout(RatingHistory("Alice", ()), theme).picture,
        graph_layout(EVALUATIONS, theme).picture,
    ]


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_picture_is_legible_at_phone_width_in_every_theme(theme: str) -> None:
    for picture in pictures(theme):
        check_legible(picture)
        image = paint(picture)
        # The theme's own text colour is on the image exactly.
        assert picture.theme.text in {c for _, c in image.getcolors(1 << 20)}


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_theme_renders_pngs_of_the_laid_out_size(theme: str) -> None:
    table = standings(12, False)
    image = decoded(render_standings(table, theme))
    assert image.size == (lambda p: (p.width, p.height))(standings_layout(table, theme).picture)
    bracket, _ = seeded_bracket(8, 2)
    assert (
        decoded(render_bracket(bracket, theme)).size[0]
        == bracket_layout(bracket, theme).picture.width
    )
    round_ = RoundPairings("R1", (PairingRow(1, "A", "B", (1, 1)),))
    assert (
        decoded(render_pairings(round_, theme)).size[1]
        == pairings_layout(round_, theme).picture.height
    )
    assert decoded(render_rating_history(RatingHistory("A", ()), theme)).size == (800, 520)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_standings_names_points_and_cross_results_are_in_their_rows(theme: str) -> None:
    table = standings(6, True)
    layout = standings_layout(table, theme)
    assert layout.cross
    image = decoded(render_standings(table, theme))
    for i in range(len(table.rows)):
        for role in (f"name:{i}", f"points:{i}", f"place:{i}"):
            label = assert_drawn(image, layout.picture, role)
            assert inside(label.box(), layout.rows[i]), role
        assert layout.picture.labelled(f"points:{i}").text == str(5 - i)
        for j in range(6):
            if j != i:
                cell = assert_drawn(image, layout.picture, f"cross:{i}:{j}")
                assert cell.text == ("2" if j > i else "0")
    names = [layout.picture.labelled(f"name:{i}").text for i in range(6)]
    assert names[:4] == ["Alice Ångström", "Дмитрий", "王小明", "محمد علي"]
    assert names[4] == "Bob"  # the emoji is left out


def test_thirty_two_rows_fall_back_to_won_drawn_lost_and_keep_every_row() -> None:
    table = standings(32, False)
    layout = standings_layout(table)
    assert not layout.cross and len(layout.rows) == 32
    image = decoded(render_standings(table))
    tops = [box[1] for box in layout.rows]
    assert tops == sorted(tops) and len(set(tops)) == 32
    for i in (0, 17, 31):
        assert inside(assert_drawn(image, layout.picture, f"name:{i}").box(), layout.rows[i])
        assert layout.picture.labelled(f"won:{i}").text == str(31 - i)
        assert layout.picture.labelled(f"lost:{i}").text == str(i)
    long = layout.picture.labelled("name:7").text
    assert long.endswith(ELLIPSIS) and long.startswith("Alexandria")


def test_a_cross_table_too_wide_for_a_phone_falls_back_to_counts() -> None:
    assert standings_layout(standings(8, True)).cross
    assert not standings_layout(standings(13, True)).cross


def test_shared_places_and_tie_break_columns_are_named() -> None:
    rows = (StandingsRow(1, "A", 3, tie_breaks=(1, 2)), StandingsRow(1, "B", 3, tie_breaks=(1, 2)))
    picture = standings_layout(StandingsTable("T", rows, TIE_BREAKS)).picture
    assert [picture.labelled(f"place:{i}").text for i in (0, 1)] == ["1=", "1="]
    headings = {label.text for label in picture.labels if label.role.startswith("heading")}
    assert {"SB", "Bu", "Pts", "Player"} <= headings
    legend = {label.text for label in picture.labels if label.role == "legend"}
    assert {"SB: Sonneborn-Berger", "Bu: Buchholz"} <= legend


def test_standings_refuse_rows_that_do_not_match_the_columns() -> None:
    with pytest.raises(ValueError, match="tie-break"):
        StandingsTable("T", (StandingsRow(1, "A", 0, tie_breaks=(1,)),), TIE_BREAKS)
    with pytest.raises(ValueError, match="cross"):
        StandingsTable("T", (StandingsRow(1, "A", 0, cross=(None, None)),))
    with pytest.raises(ValueError, match="theme"):
        render_standings(standings(2, False), "neon")


def written(picture: Picture, role: str) -> str:
    """A text drawn on one or more lines (`role`, then `role+`, `role++`...), joined again."""
    lines = []
    while True:
        try:
            lines.append(picture.labelled(role + "+" * len(lines)).text)
        except KeyError:
            return " ".join(lines)


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16, 32])
def test_the_bracket_winner_is_at_the_end(count: int) -> None:
    bracket, _ = seeded_bracket(count, 6)
    layout = bracket_layout(bracket)
    image = decoded(render_bracket(bracket))
    champion = assert_drawn(image, layout.picture, "champion")
    assert written(layout.picture, "champion") == "Alice Ångström"  # seed 1, whole
    final = layout.matches[-1][0]
    assert final is not None
    main_rounds = len(layout.matches) - layout.play_in
    # After the final: to its right, level with it, or (big brackets) above the last two rounds.
    box = layout.champion
    if box[0] >= final[2]:
        assert box[1] < (final[1] + final[3]) / 2 < box[3]
        assert main_rounds <= 3
    else:
        semis = [b for b in layout.matches[-2] if b]
        assert box[2] == final[2] and box[0] == min(b[0] for b in semis) < final[0]
        assert all(box[3] < b[1] for r in layout.matches[layout.play_in :] for b in r if b)
    assert inside(champion.box(), box)
    # The box is outlined in the alert colour.
    assert layout.picture.theme.alert in {c for _, c in image.crop(box).getcolors(1 << 16)}
    check_legible(layout.picture)


def test_byes_make_a_play_in_whose_winner_joins_the_bracket() -> None:
    bracket, _ = seeded_bracket(5, 1)
    layout = bracket_layout(bracket)
    picture = layout.picture
    image = decoded(render_bracket(bracket))
    assert layout.play_in
    assert not [label for label in picture.labels if label.text == "bye"]
    # The play-in: only 4 v 5 is drawn, above the bracket, with its seeds and score.
    assert [box is not None for box in layout.matches[0]] == [False, True, False, False]
    play_in = layout.matches[0][1]
    assert play_in is not None and all(play_in[3] < b[1] for b in layout.matches[1] if b)
    assert written(picture, "slot:0:1:0") == "محمد علي"
    assert [picture.labelled(f"seed:0:1:{side}").text for side in (0, 1)] == ["4", "5"]
    assert [picture.labelled(f"score:0:1:{side}").text for side in (0, 1)] == ["2", "0"]
    # Semis: seed 1 meets the play-in's winner, seed 2 meets seed 3.
    assert assert_drawn(image, picture, "slot:1:0:0").text == "Alice Ångström"
    assert written(picture, "slot:1:0:1") == "محمد علي"
    assert written(picture, "slot:1:1:0") == "Дмитрий"
    assert written(picture, "slot:1:1:1") == "王小明"
    assert picture.labelled("heading:1").text == "Semis"
    for side in (0, 1):
        assert inside(picture.labelled(f"slot:1:0:{side}").box(), layout.matches[1][0])  # type: ignore[arg-type]


def test_an_undecided_play_in_names_the_slot_its_winner_takes() -> None:
    bracket, _ = seeded_bracket(33, 0)
    layout = bracket_layout(bracket)
    picture = layout.picture
    assert layout.play_in and picture.labelled("tag:P1").text == "P1"
    assert sum(box is not None for box in layout.matches[0]) == 1
    assert [len(r) for r in layout.matches[1:]] == [16, 8, 4, 2, 1]  # a bracket of 32
    assert written(picture, "slot:1:0:1") == "winner of P1"  # seed 1's opponent
    check_legible(picture)


def test_a_bracket_in_progress_shows_empty_slots_and_no_winner() -> None:
    bracket, _ = seeded_bracket(8, 1)
    layout = bracket_layout(bracket)
    with pytest.raises(KeyError):
        layout.picture.labelled("champion")
    with pytest.raises(KeyError):
        layout.picture.labelled("slot:2:0:0")  # the final's entrants are not known yet
    assert len(layout.matches[2]) == 1  # but the final is drawn
    image = decoded(render_bracket(bracket))
    assert layout.picture.theme.alert not in {c for _, c in image.getcolors(1 << 20)}


def test_brackets_refuse_impossible_shapes() -> None:
    with pytest.raises(ValueError, match="power of two"):
        Bracket("B", ((BracketMatch(), BracketMatch(), BracketMatch()),))
    with pytest.raises(ValueError, match="Round 2"):
        Bracket("B", ((BracketMatch(), BracketMatch()), (BracketMatch(), BracketMatch())))
    with pytest.raises(ValueError, match="winner"):
        bracket_layout(
            Bracket(
                "B",
                (
                    (BracketMatch((Entrant("A"), Entrant("B"))), BracketMatch()),
                    (BracketMatch(winner=0),),
                ),
            )
        )


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_pairings_put_white_black_and_byes_in_their_rows(theme: str) -> None:
    round_ = RoundPairings(
        "Round 3",
        (PairingRow(1, "Alice", "王小明", (2, 0)), PairingRow(2, "Дмитрий", "Bob", None)),
        ("Zoë",),
    )
    layout = pairings_layout(round_, theme)
    image = decoded(render_pairings(round_, theme))
    expected = {"white:0": "Alice", "black:0": "王小明", "white:1": "Дмитрий", "black:1": "Bob"}
    for role, text in expected.items():
        label = assert_drawn(image, layout.picture, role)
        assert label.text == text and inside(label.box(), layout.rows[int(role[-1])])
    assert assert_drawn(image, layout.picture, "score:0").text == "2–0"
    with pytest.raises(KeyError):
        layout.picture.labelled("score:1")  # not played yet
    assert inside(assert_drawn(image, layout.picture, "bye:0").box(), layout.rows[2])
    white = layout.picture.labelled("white:0").box()
    black = layout.picture.labelled("black:0").box()
    assert white[2] < black[0]
    check_legible(layout.picture)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_group_stage_round_shows_each_group_under_its_heading(theme: str) -> None:
    """Two groups of three: each group's heading, then its pairing, then its bye."""
    round_ = RoundPairings(
        "Round 1",
        (
            PairingRow(1, "Alice", "Bob", (16, 0), "Group A"),
            PairingRow(2, "Carol", "Dave", None, "Group B"),
        ),
        ("Eve", "Finn"),
        bye_groups=("Group A", "Group B"),
    )
    layout = pairings_layout(round_, theme)
    image = decoded(render_pairings(round_, theme))
    assert image.size == (layout.picture.width, layout.picture.height)
    first, second = layout.headings
    for index, name in enumerate(("Group A", "Group B")):
        label = assert_drawn(image, layout.picture, f"group:{index}")
        assert label.text == name and inside(label.box(), layout.headings[index])
    # Top to bottom: A's heading, A's pairing, A's bye, B's heading, B's pairing, B's bye.
    bands = [first, layout.rows[0], layout.rows[2], second, layout.rows[1], layout.rows[3]]
    assert all(upper[3] <= lower[1] for upper, lower in itertools.pairwise(bands))
    assert inside(assert_drawn(image, layout.picture, "bye:1").box(), layout.rows[3])
    assert inside(layout.picture.labelled("white:1").box(), layout.rows[1])
    check_legible(layout.picture)
    ungrouped = tuple(replace(p, group="") for p in round_.pairings)
    plain = pairings_layout(RoundPairings("Round 1", ungrouped, round_.byes), theme)
    assert plain.headings == () and plain.picture.height < layout.picture.height
    with pytest.raises(ValueError, match="every bye its group"):
        RoundPairings("Round 1", round_.pairings, ("Eve",), bye_groups=("Group A", "Group B"))


def test_the_chart_plots_each_rating_where_it_belongs() -> None:
    ratings = [1500, 1520, 1480, 1610, 1550]
    layout = chart_layout(RatingHistory("Alice", tuple(RatingPoint(r) for r in ratings)))
    xs = [x for x, _ in layout.marks]
    assert xs == sorted(xs) and xs[0] == layout.plot[0] and xs[-1] == layout.plot[2]
    ys = {r: y for r, (_, y) in zip(ratings, layout.marks, strict=True)}
    assert ys[1610] < ys[1550] < ys[1520] < ys[1500] < ys[1480]
    assert all(layout.plot[1] <= y <= layout.plot[3] for y in ys.values())
    picture = layout.picture
    assert picture.labelled("title").text == "Alice: 1550"
    image = decoded(
        render_rating_history(RatingHistory("Alice", tuple(RatingPoint(r) for r in ratings)))
    )
    x, y = layout.marks[3]
    assert image.getpixel((round(x), round(y))) == picture.theme.road
    for tick in ("1500", "1600"):
        assert_drawn(image, picture, f"y-tick:{tick}")
    assert assert_drawn(image, picture, "x-axis").text == "Rated games"


def test_a_chart_of_one_game_and_of_none() -> None:
    one = chart_layout(RatingHistory("Bob", (RatingPoint(1500),)))
    assert len(one.marks) == 1 and one.plot[0] < one.marks[0][0] < one.plot[2]
    none = chart_layout(RatingHistory("Bob", ()))
    assert none.marks == () and none.picture.labelled("empty").text == "No rated games yet"
    image = decoded(render_rating_history(RatingHistory("Bob", ())))
    assert_drawn(image, none.picture, "empty")


@example(-5e-324, 4.985)  # -5e-324 / 2 underflows to -0.0: the first tick was 0, above low
@given(
    st.floats(-5000, 5000, allow_nan=False),
    st.floats(0, 3000, allow_nan=False),
)
def test_ticks_cover_the_range_evenly_with_round_steps(low: float, spread: float) -> None:
    high = low + spread
    ticks = nice_ticks(low, high)
    assert 2 <= len(ticks) <= 6
    assert ticks[0] <= low and ticks[-1] >= high
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1


NAME = st.text(st.sampled_from("abcXYZ ÅéДж王小明김민محمدשל🐢🔥\u200d-'"), min_size=0, max_size=40)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(NAME, min_size=1, max_size=40),
    st.integers(0, 3),
    st.booleans(),
    st.integers(0, 10**4),
)
def test_any_table_lays_out_legibly(names: list[str], breaks: int, cross: bool, seed: int) -> None:
    count = len(names)
    rows = tuple(
        StandingsRow(
            i + 1,
            name,
            (seed * (i + 1)) % 97 / 2,
            i,
            seed % 3,
            count - i,
            tuple(float((seed + k) % 50) for k in range(breaks)),
            tuple(None if j == i else CrossCell(j % 3, Outcome.DRAW) for j in range(count))
            if cross
            else None,
        )
        for i, name in enumerate(names)
    )
    columns = tuple(TieBreakColumn(f"T{k}", f"tie-break {k}") for k in range(breaks))
    layout = standings_layout(StandingsTable("Any", rows, columns))
    check_legible(layout.picture)
    assert len(layout.rows) == count
    for i in range(count):
        assert inside(layout.picture.labelled(f"name:{i}").box(), layout.rows[i])


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 64), st.integers(0, 7))
def test_any_bracket_lays_out_legibly(count: int, played: int) -> None:
    bracket, _ = seeded_bracket(count, played)
    layout = bracket_layout(bracket)
    check_legible(layout.picture)
    rounds = (count - 1).bit_length()
    assert [len(r) for r in layout.matches] == [1 << (rounds - 1 - k) for k in range(rounds)]
    # Seeds and scores always shown; byes drawn only when round 1 is mostly played.
    seeds = {label.text for label in layout.picture.labels if label.role.startswith("seed:0:")}
    if not layout.play_in:
        assert seeds == {str(seed) for seed in range(1, count + 1)}
    byes = sum(1 for label in layout.picture.labels if label.text == "bye")
    assert byes == (0 if layout.play_in else (1 << rounds) - count)
    scores = [s for r in bracket.rounds for m in r if m.scores for s in m.scores]
    assert len(scores) == sum(label.role.startswith("score:") for label in layout.picture.labels)
    assert ("champion" in {label.role for label in layout.picture.labels}) == (played >= rounds)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_evaluation_graph_plots_each_position_and_marks_the_blunder(theme: str) -> None:
    layout = graph_layout(EVALUATIONS, theme)
    left, top, right, bottom = layout.plot
    xs = [x for x, _ in layout.points]
    assert len(xs) == 61 and xs == sorted(xs) and xs[0] == left and xs[-1] == right
    ys = [y for _, y in layout.points]
    assert ys[-1] == bottom  # Black's forced win on the bottom edge
    assert ys[0] < (top + bottom) / 2 < ys[45]  # White ahead first, Black after the blunder
    picture = layout.picture
    image = decoded(render_evaluation_graph(EVALUATIONS, theme))
    assert image.size == (picture.width, picture.height)
    x, y = layout.points[40]
    assert image.getpixel((round(x), round(y))) == mark_colour("??", picture.theme)
    x, y = layout.points[10]
    assert image.getpixel((round(x), round(y))) == picture.theme.road  # the line
    for role in ("title", "subtitle", "y-tick:10", "y-tick:-10", "y-tick:0", "x-tick:60"):
        assert_drawn(image, picture, role)
    assert picture.labelled("y-tick:10").text == "▲10"
    assert picture.labelled("y-tick:-5").text == "▼5"
    # The players and the unit, above the plot; a legend for the marks in the game, under it.
    axis = assert_drawn(image, picture, "y-axis")
    assert axis.text == "Flats ahead: ▲ Alice (White) · ▼ Bob (Black)"
    assert axis.box()[3] <= top
    for mark, meaning in (("??", "blunder"), ("?", "mistake")):
        entry = assert_drawn(image, picture, f"legend:{mark}")
        assert entry.text == f"{mark} {meaning}" and entry.box()[1] > bottom
        x0, y0, _, y1 = entry.box()
        dot = image.crop((x0 - 20, y0, x0, y1)).getcolors(1 << 16)
        assert mark_colour(mark, picture.theme) in {c for _, c in dot}
    assert "legend:!" not in {label.role for label in picture.labels}  # no Tinuë found here
    check_legible(picture)


def test_an_evaluation_graph_refuses_marks_that_do_not_match() -> None:
    with pytest.raises(ValueError, match="one mark per ply"):
        graph_layout(EvaluationGraph("x", (0.0, 1.0), ("?", "?")))
    with pytest.raises(ValueError, match="at least the start"):
        graph_layout(EvaluationGraph("x", ()))
    assert graph_layout(EvaluationGraph("x", (0.5,))).points[0][0] > 0  # a game of no moves


def test_a_name_of_100000_characters_is_cut_like_its_first_few_in_every_picture() -> None:
    """Names are fitted from their first characters only: each picture with a name of 100,000
    characters is the picture with the name's first 500 (both cut with an ellipsis)."""
    huge = ("Alexandria Ocasio-Longname the Third " * 3_000)[:100_000]
    first = huge[:500]

    def made(name: str) -> list[Picture]:
        table = standings(4, True)
        rows = (replace(table.rows[0], name=name), *table.rows[1:])
        bracket = Bracket("Cup", ((BracketMatch((Entrant(name, 1), Entrant("Bob", 2))),),))
        pairings = RoundPairings("Round 1", (PairingRow(1, name, name),), (name,))
        chart = RatingHistory(name, (RatingPoint(1500), RatingPoint(1520)))
        return [
            standings_layout(replace(table, rows=rows)).picture,
            bracket_layout(bracket).picture,
            pairings_layout(pairings).picture,
            chart_layout(chart).picture,
        ]

    pictures = made(huge)
    for long, short in zip(pictures, made(first), strict=True):
        check_legible(long)
        assert long.labels == short.labels
        cut = [label for label in long.labels if label.text.startswith("Alexandria")]
        assert cut and all(ELLIPSIS in written(long, label.role) for label in cut)
    title = pictures[-1].labelled("title").text
    assert title.startswith("Alexandria") and title.endswith(f"{ELLIPSIS}: 1520")  # the rating


@pytest.fixture(scope="module")
def picture_folder() -> Path:
    """Where the pictures below are written, to be looked at: out/pictures (git ignores out/)."""
    folder = Path(__file__).resolve().parents[2] / "out" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize(("count", "played"), [(8, 3), (16, 2), (33, 1), (64, 2)])
def test_knockout_pictures_show_every_seed_score_and_whole_short_names(
    count: int, played: int, picture_folder: Path
) -> None:
    bracket, entrants = seeded_bracket(count, played)
    layout = bracket_layout(bracket)
    picture = layout.picture
    (picture_folder / f"bracket-{count}.png").write_bytes(render_bracket(bracket))
    check_legible(picture)
    assert layout.play_in == (count == 33)
    seeds = [label.text for label in picture.labels if label.role.startswith("seed:")]
    assert {str(e.seed) for e in entrants} <= set(seeds)
    scores = [s for r in bracket.rounds for m in r if m.scores for s in m.scores]
    shown = [label for label in picture.labels if label.role.startswith("score:")]
    assert len(shown) == len(scores)
    for label in shown:  # each score beside its own slot, inside its match's box
        row, index, _side = label.role.split(":")[1:]
        box = layout.matches[int(row)][int(index)]
        assert box is not None and inside(label.box(), box)
    # Names of up to 8 letters, and "Alice Ångström", are whole (on one line
    # or two); only the longest names are cut.
    slots = {label.role.rstrip("+") for label in picture.labels if label.role.startswith("slot:")}
    names = {written(picture, role).replace(" ", "") for role in slots}
    for entrant in entrants:
        if len(entrant.name) <= 8 or entrant.name == "Alice Ångström":
            shown = name_text(entrant.name, "?").replace(" ", "")
            assert shown in names, (entrant.name, names)
    # No two boxes overlap (later rounds sit in the gaps between earlier ones).
    boxes = [b for r in layout.matches for b in r if b] + [layout.champion]
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize(("count", "cross"), [(4, True), (8, True), (32, False)])
def test_standings_pictures_keep_the_whole_legend_and_mark_the_diagonal(
    count: int, cross: bool, picture_folder: Path
) -> None:
    table = standings(count, cross)
    layout = standings_layout(table)
    picture = layout.picture
    png = render_standings(table)
    (picture_folder / f"standings-{count}.png").write_bytes(png)
    check_legible(picture)
    legend = [label for label in picture.labels if label.role == "legend"]
    text = " ".join(label.text for label in legend)
    assert ELLIPSIS not in text
    first = "Points scored against each opponent (columns: row numbers)"
    assert text.startswith(first if cross else "Matches won, drawn, lost")
    assert text.endswith("SB: Sonneborn-Berger Bu: Buchholz")
    assert all(inside(label.box(), (0, 0, picture.width, picture.height)) for label in legend)
    image = decoded(png)
    if cross:
        for i in range(count):
            dash = assert_drawn(image, picture, f"diagonal:{i}")
            assert dash.text == "–" and dash.on != picture.theme.panel
            assert inside(dash.box(), layout.rows[i])
            # The square behind the dash is shaded, not the row's own colour.
            x = round(dash.xy[0])
            assert image.getpixel((x, layout.rows[i][1] + 6)) == dash.on
    else:
        assert not [label for label in picture.labels if label.role.startswith("diagonal")]


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_requested_bye_is_marked_apart_from_the_odd_players_bye(theme: str) -> None:
    round_ = RoundPairings(
        "Round 2",
        (PairingRow(1, "Alice", "Bob"),),
        ("Zoë", "Дмитрий"),
        requested=(False, True),
    )
    layout = pairings_layout(round_, theme)
    image = decoded(render_pairings(round_, theme))
    assert assert_drawn(image, layout.picture, "bye-mark:0").text == "bye"
    mark = assert_drawn(image, layout.picture, "bye-mark:1")
    assert mark.text == "bye (requested)" and inside(mark.box(), layout.rows[2])
    assert inside(assert_drawn(image, layout.picture, "bye:1").box(), layout.rows[2])
    # The wider mark fits between the names, which do not overlap it.
    white = layout.picture.labelled("white:0").box()
    assert white[2] < mark.box()[0] and mark.box()[2] < layout.picture.labelled("black:0").box()[0]
    check_legible(layout.picture)
    with pytest.raises(ValueError, match="whether it was requested"):
        RoundPairings("Round 2", round_.pairings, ("Zoë",), requested=(False, True))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_mark_on_the_evaluation_graph_stands_out_from_the_background_and_the_line(
    theme: str,
) -> None:
    """Issue 38: the "!" dot had the line's colour, the "??" dot 1.88:1 on the default
    background. Each mark's dot, as painted in the PNG, is at least 3:1 against the background
    and a clearly different colour from the line, for every colour vision."""
    marks = tuple({10: "??", 20: "?", 30: "!"}.get(i, "") for i in range(40))
    graph = EvaluationGraph("Alice vs Bob", tuple(i / 8 for i in range(41)), marks)
    layout = graph_layout(graph, theme)
    chosen = layout.picture.theme
    image = decoded(render_evaluation_graph(graph, theme))
    for ply, mark in enumerate(marks):
        if not mark:
            continue
        x, y = layout.points[ply + 1]
        dot = image.getpixel((round(x), round(y)))
        assert contrast(dot, chosen.background) >= MIN_GRAPHIC_CONTRAST, (mark, dot)
        for vision in VISIONS:
            seen = distance(simulate(dot, vision), simulate(chosen.road, vision))
            assert seen >= MIN_MARK_DISTANCE, (mark, vision, dot)
        # A ring in the background colour parts the dot from the line running through it.
        assert image.getpixel((round(x) + 8, round(y))) == chosen.background
        entry = layout.picture.labelled(f"legend:{mark}").box()
        legend_dot = image.crop((entry[0] - 20, entry[1], entry[0], entry[3])).getcolors(1 << 16)
        assert dot in {c for _, c in legend_dot}  # the legend shows the same colour


def test_a_letter_the_fonts_lack_is_drawn_as_its_plain_form() -> None:
    """Issue 38: "Ⓒapstone" was drawn as "apstone" (no bundled font has Ⓒ): a character the
    fonts lack is drawn as its compatibility form (NFKC: Ⓒ is C, 𝐁 is B, ﬁ is fi)."""
    assert font_index("Ⓒ") is None
    for name, shown in (("Ⓒapstone", "Capstone"), ("𝐁𝐨𝐛", "Bob"), ("ﬁsh", "fish")):
        assert name_text(name, "?") == shown
    table = standings(4, True)
    table = replace(table, rows=(replace(table.rows[0], name="Ⓒapstone"), *table.rows[1:]))
    picture = standings_layout(table).picture
    image = decoded(render_standings(table))
    assert assert_drawn(image, picture, "name:0").text == "Capstone"
    for label in picture.labels:  # every character of every label has a glyph
        assert all(font_index(char) is not None for char in label.text), label.text


GERMAN_NAMES = ("Hannelore Grünwald", "GrünwaldSchäfer", "Karl-Heinz Oberhauser", "Ute", "Spieler")


def bracket_of(count: int, played: int) -> Bracket:
    """`count` entrants (long German names, and "Spieler n") in the usual seeding (byes to the
    top seeds), the better seed winning the first `played` rounds."""
    size = 1 << (count - 1).bit_length()
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    seeded = [
        Entrant(GERMAN_NAMES[s % 5] if s % 5 < 4 else f"Spieler {s}", s) if s <= count else None
        for s in order
    ]
    pairs = [(seeded[i], seeded[i + 1]) for i in range(0, size, 2)]
    rounds = []
    for _ in range(played):
        matches = [
            BracketMatch(pair, (2, 1), 0) if None not in pair else BracketMatch(pair)
            for pair in pairs
        ]
        rounds.append(tuple(matches))
        winners = [a for a, _ in pairs]
        if len(winners) == 1:
            break
        pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
    return Bracket("Herbstturnier", tuple(rounds) or (tuple(BracketMatch(p) for p in pairs),))


def word_runs(name: str) -> set[str]:
    """Every run of `name`'s whole words: from one break to another (a space, or after a
    hyphen)."""
    ends = [0, len(name)] + [i for i, c in enumerate(name) if c == " "]
    ends += [i + 1 for i, c in enumerate(name) if c == "-"]
    return {name[a:b].strip() for a in ends for b in ends if a < b}


def broken_mid_word(lines: list[str], names: set[str]) -> list[str]:
    """The lines that end inside a word without an ellipsis to say so."""
    runs = set().union(*(word_runs(name) for name in names))
    return [line for line in lines if not line.endswith(ELLIPSIS) and line not in runs]


@pytest.mark.parametrize("count", [16, 64])
def test_no_bracket_name_is_broken_inside_a_word(count: int) -> None:
    """Issue 38: "Hannel/ore" and "Grünwa/ldSchäfer" in the 64-player bracket. A name too long
    for its lines breaks between words, and a word too long for a line is cut with an
    ellipsis."""
    bracket = bracket_of(count, 2)
    names = {e.name for m in bracket.rounds[0] for e in m.entrants if e is not None}
    picture = bracket_layout(bracket).picture
    shown = [label.text for label in picture.labels if label.role.startswith("slot:")]
    assert len(shown) >= count
    assert broken_mid_word(shown, names) == []
    for width in (40, 60, 90, 140, 200):  # the wrapping itself, in every room
        for name in names:
            lines = [line.text() for line in wrap(name, SMALL, width)]
            assert broken_mid_word(lines, {name}) == [], (name, width, lines)


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize(("count", "played"), [(64, 2), (64, 6), (32, 5), (40, 1)])
def test_a_big_bracket_comes_in_sections_a_phone_can_follow(
    count: int, played: int, theme: str
) -> None:
    """Issue 38: 64 players made one picture 880x5251 (400x2387 on a phone), with "Spieler 64"
    on two lines. Beyond 16 players each section of 16 is a picture of its own, then one of the
    last rounds: each a screen or two on a phone, every name short enough on one line."""
    bracket = bracket_of(count, played)
    parts = bracket_pictures(bracket)
    sections = max(2, 1 << ((count - 1).bit_length() - 4)) if count != 40 else 2
    assert len(parts) == sections + 1
    seeds: set[str] = set()
    for number, part in enumerate(parts, 1):
        layout = bracket_layout(part, theme)
        picture = layout.picture
        check_legible(picture)
        # On a phone 400 px wide, at most 900 px tall (with a play-in above), not 2,387.
        assert picture.height * PHONE_WIDTH / picture.width <= 900
        assert layout.play_in or picture.height * PHONE_WIDTH / picture.width <= 700
        subtitle = " ".join(
            label.text for label in picture.labels if label.role.startswith("subtitle")
        )
        if number <= sections:
            assert subtitle == f"Section {number} of {sections}"
            seeds |= {label.text for label in picture.labels if label.role.startswith("seed:")}
        else:
            assert subtitle == "The last rounds: the winners of the sections"
        names = [label.text for label in picture.labels if label.text.startswith("Spieler")]
        assert all(len(text.split()) == 2 for text in names)  # "Spieler 64" on one line
        shown = [label.text for label in picture.labels if label.role.startswith("slot:")]
        waiting = {f"winner of {tag}" for tag in (*part.feeders, *(f"P{n}" for n in range(9)))}
        allowed = {e.name for e in entrants(bracket)} | {"bye"} | waiting
        assert broken_mid_word(shown, allowed) == []
    # Every entrant in one section; the last rounds as the whole bracket has them.
    assert seeds == {str(seed) for seed in range(1, count + 1)}
    whole = bracket_layout(bracket, theme).picture
    final = bracket_layout(parts[-1], theme).picture
    champion = " ".join(label.text for label in whole.labels if label.role.startswith("champion"))
    last = " ".join(label.text for label in final.labels if label.role.startswith("champion"))
    assert last == champion or champion.startswith(last.removesuffix(ELLIPSIS))
    assert (played >= (count - 1).bit_length()) == bool(champion)
    if played < 5:  # the last rounds wait for the sections' winners
        waiting = [label.text for label in final.labels if label.role.startswith("slot:0:0:0")]
        assert " ".join(waiting) == "winner of section 1"
    assert final.labelled("heading:0").text in ("Semis", "Final", "SF")


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("played", [2, 4])
def test_a_sections_next_round_box_follows_its_last_match(theme: str, played: int) -> None:
    """The box of the player a section sends on sits just below the section's last match, its
    heading between the two, clear of every line (it was at the top right, detached from it)."""
    for part in bracket_pictures(bracket_of(64, played))[:-1]:
        layout = bracket_layout(part, theme)
        picture = layout.picture
        last, box = layout.matches[-1][0], layout.champion
        assert last is not None
        assert box[0] < last[2] and last[0] < box[2]  # under it
        assert 0 < box[1] - last[3] <= 4 * SMALL  # room for a heading on two lines
        heading = [label for label in picture.labels if label.role.startswith("winner-heading")]
        assert " ".join(label.text for label in heading) == "Next round: Semis"  # whole
        assert all(last[3] <= label.box()[1] and label.box()[3] <= box[1] for label in heading)
        assert box[2] <= picture.width - MARGIN and box[3] <= picture.height - MARGIN
        clear = [box, *(label.box() for label in heading)]
        clear += [b for r in layout.matches for b in r if b]  # no overlap with a match
        lines = [shape.points for shape in picture.shapes if isinstance(shape, Polyline)]
        for area in clear[: 1 + len(heading)]:
            for points in lines:
                for (x1, y1), (x2, y2) in itertools.pairwise(points):
                    left, right, top, bottom = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
                    hits = left < area[2] and area[0] < right  # a line across it
                    assert not (hits and top < area[3] and area[1] < bottom), (area, points)
        for other in clear[1 + len(heading) :]:
            assert (
                other[2] <= box[0] or box[2] <= other[0] or other[3] <= box[1] or box[3] <= other[1]
            )


def entrants(bracket: Bracket) -> list[Entrant]:
    return [e for m in bracket.rounds[0] for e in m.entrants if e is not None]


def test_a_bracket_of_sixteen_or_fewer_stays_one_picture() -> None:
    for count in (2, 5, 8, 16):
        bracket = bracket_of(count, 1)
        assert bracket_pictures(bracket) == (bracket,)
