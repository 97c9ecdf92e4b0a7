"""Names in any script: bundled fonts, fallback, ellipsis."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rendering import layout, render_board
from rendering.text import ELLIPSIS, LONGEST_LINE, Line, displayable, fit, font_index
from tak import Position

LONG_NAME = "Alexandria Ocasio-Longname the Third, 王小明 of Дмитрий "


def test_latin_greek_cyrillic_arabic_use_the_main_font() -> None:
    for name in ("Zoë", "Αλέξανδρος", "Дмитрий", "محمد", "שלום"):
        assert {font_index(c) for c in name} == {0}, name


def test_chinese_japanese_korean_fall_back_to_the_cjk_font() -> None:
    for name in ("王小明", "さくら", "김민수"):
        assert {font_index(c) for c in name} == {1}, name
    assert Line.of("Ann 王", 30).runs == ((0, "Ann "), (1, "王"))


def test_what_no_font_has_is_dropped_or_replaced_never_boxed() -> None:
    assert displayable("Bob 🐢🔥") == "Bob"
    assert displayable("ไทย") == "???"
    assert displayable("a\u200db\tc") == "ab c"
    assert displayable("  many   spaces ") == "many spaces"


def test_long_names_are_cut_with_an_ellipsis_to_fit() -> None:
    line = fit("Alexandria Ocasio-Longname the Third", 40, 300)
    assert line.text().endswith(ELLIPSIS)
    assert line.width() <= 300
    assert fit("Bo", 40, 300).text() == "Bo"
    cjk = fit("王" * 40, 40, 200)
    assert cjk.text().endswith(ELLIPSIS) and cjk.width() <= 200


def test_a_name_of_only_emoji_falls_back_to_the_player_number() -> None:
    position = Position(4)
    emoji = render_board(position, players=("🐢🐢", "Bob"), size=600)
    numbered = render_board(position, players=("Player 1", "Bob"), size=600)
    assert emoji == numbered


def test_names_change_only_the_header() -> None:
    position = Position(4)
    a = Image.open(io.BytesIO(render_board(position, players=("王小明", "김민수"), size=600)))
    b = Image.open(io.BytesIO(render_board(position, players=("Alice", "Bob"), size=600)))
    frame = layout(600, 4)
    header = (0, 0, 600, frame.board_y)
    assert a.convert("RGB").crop(header).tobytes() != b.convert("RGB").crop(header).tobytes()
    board = (0, frame.board_y, 600, frame.height)
    assert a.convert("RGB").crop(board).tobytes() == b.convert("RGB").crop(board).tobytes()


def fit_a_character_at_a_time(text: str, size: int, max_width: float) -> Line:
    """How names used to be fitted (a measurement per character trimmed): what the bisection
    must agree with."""
    line = Line.of(text, size)
    if line.width() <= max_width:
        return line
    chars = text
    while chars:
        chars = chars[:-1].rstrip()
        line = Line.of(chars + ELLIPSIS, size)
        if line.width() <= max_width:
            return line
    return Line.of(ELLIPSIS, size)


@settings(max_examples=300, deadline=None)
@given(
    st.text(st.sampled_from("aWil.  ÅéДж王小김محمدשל-'"), max_size=60),
    st.sampled_from([10, 22, 42]),
    st.integers(0, 500),
)
def test_fitting_by_bisection_cuts_where_trimming_a_character_at_a_time_did(
    text: str, size: int, max_width: int
) -> None:
    assert fit(text, size, max_width) == fit_a_character_at_a_time(text, size, max_width)


def measured_characters(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """How many characters fitting `text` into 300 px measures (each measurement's length)."""
    measured = 0
    width = Line.width

    def counted(line: Line) -> float:
        nonlocal measured
        measured += len(line.text())
        return width(line)

    with monkeypatch.context() as patch:
        patch.setattr(Line, "width", counted)
        fit(text, 22, 300)
    return measured


def test_fitting_a_name_twice_as_long_measures_at_most_two_and_a_half_times_as_much(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for length in (250, 500, 1_000, 2_000, 4_000):
        name = (LONG_NAME * (2 * length // len(LONG_NAME) + 1))[: 2 * length]
        once = measured_characters(monkeypatch, name[:length])
        twice = measured_characters(monkeypatch, name)
        assert twice <= 2.5 * once, (length, once, twice)


def test_a_name_of_100000_characters_fits_as_its_first_few_do() -> None:
    name = (LONG_NAME * 2_000)[:100_000]
    line = fit(name, 42, 400)
    assert line.text().endswith(ELLIPSIS) and line.width() <= 400
    useful = name[: 2 * len(line.text())]
    assert fit(useful, 42, 400) == line
    assert displayable(name) == displayable(name[: LONGEST_LINE + 1])
    board = render_board(Position(5), players=(name, name), size=600)
    assert board == render_board(Position(5), players=(useful, useful), size=600)


def test_only_a_long_texts_first_characters_are_looked_at() -> None:
    assert displayable("x" * LONGEST_LINE) == "x" * LONGEST_LINE
    assert displayable("x" * (LONGEST_LINE + 1)) == "x" * LONGEST_LINE + ELLIPSIS
    assert displayable("🐢" * (LONGEST_LINE + 1) + "Bob") == ""  # so the fallback name shows
