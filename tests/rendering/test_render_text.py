"""Names in any script: bundled fonts, fallback, ellipsis."""

from __future__ import annotations

import io

from PIL import Image

from rendering import layout, render_board
from rendering.text import ELLIPSIS, Line, displayable, fit, font_index
from tak import Position


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
