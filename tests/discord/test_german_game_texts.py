"""The game texts in German, at their longest, keep Discord's limits (a message holds 2,000
characters) and the texts each player reads keep the German terms of the rules."""

from __future__ import annotations

from bot.games.conditions import MAX_LINE_PLIES, Conditions
from bot.languages import speaking
from bot.text_safety import MAX_MESSAGE
from cogs.game_messages import conditions_text, note_text, viewed_game_text
from tak.ptn import MAX_TAG_VALUE_LENGTH, Game


def test_the_longest_german_list_of_conditional_moves_fits_a_message() -> None:
    line = tuple(["3c3+12", "3d4-111"] * (MAX_LINE_PLIES // 2))
    conditions = Conditions(game_id=999_999, ply=999, lines=(line,) * 200, replaced=True)
    with speaking("de"):
        german = conditions_text(conditions, added=True)
    english = conditions_text(conditions, added=True)
    assert german.startswith("Gespeichert. Deine bedingten Züge in Partie #999999")
    assert "`/partie bedingt löschen`" in german.splitlines()[-1]
    assert english.startswith("Kept. Your conditional moves in game #999999")
    assert len(german) <= MAX_MESSAGE and len(english) <= MAX_MESSAGE


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
