"""Games started from a TPS: the checks on the start, and PTN files that carry the TPS tag."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tak import Color, Reserves, SetupError, TPSError, start_position
from tak.ptn import Game

REAL_GAMES = Path(__file__).parent / "real_games"  # see its README
GAMES = {path.name: Game.parse(path.read_text()) for path in sorted(REAL_GAMES.glob("*.ptn"))}


@pytest.mark.parametrize(
    ("tps", "options", "error", "words"),
    [
        ("x2/x2 1 1", {}, TPSError, "2 rows, but boards are 3x3 to 8x8"),
        ("x5/x5/x5/x5/x5 3 1", {}, TPSError, "player to move must be 1 or 2"),
        ("x6/x6/x6/x6/x6/x6 1 1", {"size": 5}, SetupError, "6x6 board, but the size asked"),
        ("1,1,1/x3/x3 2 3", {}, SetupError, "already over in that position: White wins by road"),
        ("2C,1C,x/x3/x3 1 2", {}, SetupError, "more than the 10 and 0 white has on 3x3"),
        ("x3/x3/1,1,1S 2 3", {"stones": 2}, SetupError, "more than the 2 and 0 white has"),
    ],
)
def test_a_start_that_does_not_fit_is_refused_with_the_reason(
    tps: str, options: dict[str, int], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        start_position(tps, **options)


def test_a_board_full_or_a_player_out_of_pieces_is_over_on_flats() -> None:
    with pytest.raises(SetupError, match="already over in that position: Black wins on flats"):
        start_position("2,1,2/1,2,1/2,1,2 1 5")
    with pytest.raises(SetupError, match="already over"):  # white has no piece left
        start_position("1,2,x/2,1,x/x3 1 3", stones=2, caps=0)


def test_the_start_says_who_moves_and_what_is_left_in_the_reserves() -> None:
    position = start_position("x5/x5/x,2,1,x2/x,1C,2,x2/x5 2 3", size=5, komi=1.5)
    assert position.to_move is Color.BLACK
    assert position.ply == 5
    assert position.reserves(Color.WHITE) == Reserves(21 - 1, 0)
    assert position.reserves(Color.BLACK) == Reserves(21 - 2, 1)
    assert position.komi == 1.5


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), cut=st.floats(0, 1))
def test_a_real_game_continued_from_its_tps_ends_where_the_whole_game_ends(
    name: str, cut: float
) -> None:
    """Cut a real game anywhere: the rest, played from the TPS there and written as a PTN file
    with the TPS tag, reads back the same and ends in the same position as the whole game."""
    whole = GAMES[name]
    at = int(cut * (len(whole.plies) - 1))
    positions = list(whole.replay())
    tps = positions[at].tps()
    size = positions[at].size
    start = start_position(tps, size=size, komi=positions[at].komi)
    assert start.tps() == tps
    continued = Game(
        tags={"Size": str(size), "TPS": tps, "Komi": f"{start.komi:g}"},
        plies=whole.plies[at:],
    )
    continued.result = whole.result
    text = continued.ptn()
    again = Game.parse(text)
    assert again.ptn() == text
    assert again.final_position().tps() == whole.final_position().tps()
    assert again.result == whole.result
    first_number = f"{at // 2 + 1}."
    body = text.split("\n\n", 1)[1]
    assert body.startswith(first_number + (" --" if at % 2 else " "))
