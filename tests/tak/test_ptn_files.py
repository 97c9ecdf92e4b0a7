"""PTN game files as PTN Ninja and PlayTak write them: read, replayed, written back the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tak import Color, PTNError, ResultKind
from tak.lzstring import decompress_from_encoded_uri_component
from tak.ptn import Game

# Layout of a PlayTak export: tags, a blank line, one numbered line a move, the result last.
PLAYTAK = """\
[Site "PlayTak.com"]
[Event "Online Play"]
[Date "2024.03.09"]
[Time "18:42:07"]
[Player1 "alice"]
[Player2 "bob"]
[Clock "15:0 +20"]
[Result "R-0"]
[Size "5"]
[Komi "0"]
[Flats "21"]
[Caps "1"]

1. e1 a5
2. a1 b1
3. a2 c1
4. a3 d1
5. a4 R-0
"""

# PTN Ninja writes comments, Tak marks and a flattening `*`, and an opening TPS for a
# position set up by hand.
NINJA = """\
[Player1 "Zoë"]
[Player2 "名人"]
[Date "2025.01.02"]
[Size "5"]
[Komi "1.5"]
[TPS "x5/x5/x,221C,x,2S,x/x5/x5 1 5"]

{set up to show a flattening}
5. 3b3>21*' {the capstone flattens d3} d4
6. d3< 0-1
"""


def test_playtak_file_round_trips_and_replays() -> None:
    game = Game.parse(PLAYTAK)
    assert game.ptn() == PLAYTAK
    assert game.tag("player1") == "alice"  # tag names are case-insensitive
    final = game.final_position()
    assert game.result is not None
    assert game.result.kind is ResultKind.ROAD and game.result.winner is Color.WHITE
    assert game.result.road == ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))
    assert final.result == game.result
    assert len(list(game.replay())) == len(game.plies) + 1


def test_ninja_file_with_comments_marks_flattening_and_tps() -> None:
    game = Game.parse(NINJA)
    assert game.ptn() == NINJA
    assert game.comments == ["set up to show a flattening"]
    assert game.plies[0].marks == "'"
    assert game.plies[0].comments == ["the capstone flattens d3"]
    assert game.result is not None and game.result.kind is ResultKind.OTHER
    assert game.final_position().komi == 1.5


def test_black_to_move_first_gets_a_placeholder() -> None:
    game = Game.parse('[Size "3"]\n[TPS "x3/x3/x,1,x 2 2"]\n\n2. -- a1\n3. c3\n')
    assert [p.move.ptn() for p in game.plies] == ["a1", "c3"]
    assert game.ptn().endswith("2. -- a1\n3. c3\n")


def test_ninja_link_carries_the_game() -> None:
    game = Game.parse(PLAYTAK)
    url = game.ninja_url()
    assert url.startswith("https://ptn.ninja/")
    assert decompress_from_encoded_uri_component(url.removeprefix("https://ptn.ninja/")) == PLAYTAK


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[Size "5"]\n\n1. a1 a1', "Move 1 (black) a1: a1 is occupied"),
        ('[Size "5"]\n\n1. a1 e5 2. Sb2 3c3>', "Move 2 (black) 3c3>: c3 is empty"),
        ('[Size "5"]\n\n1. a1 q9', "Move 1 (black) q9: q9 is not a square"),
        ('[Size "5"]\n\n1. a1 R-0 e5', "comes after the result R-0"),
        ("1. a1", "neither a Size nor a TPS tag"),
        ('[Size "12"]\n\n1. a1', "sizes run from 3 to 8"),
    ],
)
def test_bad_files_name_the_move(text: str, reason: str) -> None:
    with pytest.raises(PTNError) as caught:
        Game.parse(text)
    assert reason in str(caught.value)


def test_no_swap_opening_places_your_own_pieces() -> None:
    game = Game.parse('[Size "5"]\n[Opening "no-swap"]\n\n1. Sa1 e5\n')
    final = game.final_position()
    assert final.stack(0, 0).owner is Color.WHITE
    assert final.stack(0, 0).top.name == "WALL"
    assert final.stack(4, 4).owner is Color.BLACK


REAL_GAMES = Path(__file__).parent / "real_games"  # see its README
WHO_WON = {"R-0": "1-0", "F-0": "1-0", "0-R": "0-1", "0-F": "0-1"}


@pytest.mark.parametrize("path", sorted(REAL_GAMES.glob("*.ptn")), ids=lambda p: p.name)
def test_real_games_that_say_only_who_won_read_as_the_board_ended_them(path: Path) -> None:
    # PlayTak's games database and engine matches write 1-0/0-1 for a road or flat win.
    game = Game.parse(path.read_text())
    assert game.result is not None and game.result.ptn() in WHO_WON
    board = game.result.ptn()
    vague = re.sub(r"\b(R-0|F-0|0-R|0-F)\b", lambda m: WHO_WON[m[0]], path.read_text())
    assert board not in vague
    again = Game.parse(vague)
    assert again.result == game.result and board in again.ptn()
    loser = "0-1" if WHO_WON[board] == "1-0" else "1-0"
    with pytest.raises(PTNError, match="contradicts the board"):
        Game.parse(vague.replace(WHO_WON[board], loser))
