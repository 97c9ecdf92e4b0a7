"""What `/game view` says of a file is built from the file's own tags and name: anyone's text."""

from __future__ import annotations

from cogs.words.game_messages import viewed_game_text
from tak.ptn import MAX_TAG_VALUE_LENGTH, Game


def test_long_or_pinging_tags_and_file_names_stay_short_and_silent() -> None:
    name = "@everyone " + "x" * (MAX_TAG_VALUE_LENGTH - 10)  # the longest a file may hold
    record = Game.parse(f'[Size "5"]\n[Player1 "{name}"]\n[Player2 "<@123>"]\n\n1. a1 e5\n')
    text = viewed_game_text(record, "y" * 3000 + ".ptn")
    assert len(text) < 500
    assert "@everyone" not in text and "@\u200beveryone" in text  # escaped, as every name is
    assert "x" * 40 in text and "(white)" in text and "(black)" in text
