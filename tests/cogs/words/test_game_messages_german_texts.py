"""The game texts in German, at their longest, keep Discord's limits (a message holds 2,000
characters), and a board drawn with German words keeps them inside their places."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.conditions import MAX_LINE_PLIES, Conditions
from bot.languages import speaking
from bot.text_safety import MAX_MESSAGE
from cogs.delivery.table import board_words, replay_words
from cogs.words.game_messages import conditions_file, conditions_text, note_text, viewed_game_text
from rendering import DEFAULT_SIZE, THEMES, ReplayImage, layout, render_board
from rendering.board import banner_text, header_line, move_heading
from rendering.text import fit
from tak import Color, Position, Result, ResultKind
from tak.ptn import MAX_TAG_VALUE_LENGTH, Game


def test_the_longest_german_list_of_conditional_moves_fits_a_message() -> None:
    line = tuple(["3c3+12", "3d4-111"] * (MAX_LINE_PLIES // 2))
    conditions = Conditions(game_id=999_999, ply=999, lines=(line,) * 200, replaced=True)
    with speaking("de"):
        german = conditions_text(conditions, added=True)
    english = conditions_text(conditions, added=True)
    assert german.startswith("Gespeichert. Deine bedingten Züge in Partie #999999")
    assert "in der angehängten Datei" in german.splitlines()[-1]
    assert english.startswith("Kept. Your conditional moves in game #999999")
    assert len(german) <= MAX_MESSAGE and len(english) <= MAX_MESSAGE
    attached = conditions_file(conditions, german)  # every line, those not shown too
    assert attached is not None
    assert attached.fp.read().decode().count("\n") == 200
    few = Conditions(game_id=1, ply=3, lines=(("c3", "d4"),), replaced=False)
    assert conditions_file(few, conditions_text(few)) is None


def test_a_long_german_note_is_cut_to_a_message() -> None:
    with speaking("de"):
        text = note_text(999_999, "x\n" * 3000, written=True)
    assert text.startswith("Deine Notiz zu Partie #999999 ist gespeichert (nur du siehst sie):")
    assert len(text) <= MAX_MESSAGE


def test_a_viewed_file_in_german_stays_short() -> None:
    name = "n" * MAX_TAG_VALUE_LENGTH
    record = Game.parse(f'[Size "5"]\n[Player1 "{name}"]\n\n1. a1 e5\n2. e4 1-0\n')
    with speaking("de"):
        text = viewed_game_text(record, "y" * 3000 + ".ptn")
    assert "(Weiß) gegen **Spieler 2** (Schwarz), 5x5, Komi 0." in text
    assert "3 Halbzüge; Weiß gewinnt (1-0)." in text
    assert len(text) < 500


def header_centre(image: Image.Image, width: int) -> Image.Image:
    """The header's centre between the two players' panels, at the height of their stats line
    (where a stats line too long for its panel would run into)."""
    frame = layout(width, 6)
    u, middle = frame.unit, width / 2
    stat_y = frame.pad + round(110 * u)
    box = (round(middle - 80 * u), stat_y - round(30 * u), round(middle + 80 * u), stat_y)
    return image.crop(box)


@pytest.mark.parametrize("width", [400, DEFAULT_SIZE])
def test_a_german_board_keeps_its_words_inside_their_places(width: int) -> None:
    with speaking("de"):
        words = board_words()
    assert words.flats == "Liegende {count}" and words.move == "Zug {number}"
    # Many flats each, both reserves with two digits, komi: the longest stats line.
    position = Position.from_tps("1,2,1,2,1,2/2,1,2,1,2,1/x6/x6/x6/x6 1 7", komi=2.5)
    theme = THEMES["default"]
    png = render_board(position, players=("alice", "bob"), show_tak=False, size=width, words=words)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert {c for _, c in header_centre(image, width).getcolors(1 << 16)} == {theme.background}
    frame = layout(width, 6)
    room = 2 * round(82 * frame.unit)
    heading = header_line(move_heading(position, None, words), round(30 * frame.unit), room)
    assert heading.text() == "Zug 7" and heading.size == round(30 * frame.unit)  # not shrunk
    for result in (Result(Color.BLACK, ResultKind.RESIGNATION), Result(None, ResultKind.FLATS)):
        text = banner_text(result, ("alice", "bob"), words)
        line = fit(text, round(32 * frame.unit), width - 2 * frame.pad - round(24 * frame.unit))
        assert line.text() == text, text  # whole, not cut
    assert banner_text(Result(Color.BLACK, ResultKind.RESIGNATION), ("a", "b"), words) == (
        "b gewinnt durch Aufgabe · 0-1"
    )


def test_a_sampled_replay_is_noted_in_german() -> None:
    with speaking("de"):
        words = replay_words()
    sampled = ReplayImage(b"", 240, 1200, 5, 8, 248, words)
    assert sampled.note == "Ein Halbzug von je 5 der 1.200 gezeigt, dann die letzten 8."
    ends = ReplayImage(b"", 240, 30, 40, 0, 2, words)
    assert ends.note == "Nur Anfang und Ende von 30 Halbzügen gezeigt."
    assert ReplayImage(b"", 240, 1200, 5, 8, 248).note == (
        "One ply in 5 of 1,200 shown, then the last 8."
    )
