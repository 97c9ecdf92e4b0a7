"""PlayTak's server notation read as PTN (tak.playtak): each kind of move, refusals, and the
PlayTak games of the shipped published games replayed to the result PlayTak recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tak import Position, TakError, parse_result
from tak.playtak import server_move_ptn

PUBLISHED = Path(__file__).parents[2] / "bot" / "games" / "real_games" / "games.jsonl"


@pytest.mark.parametrize(
    ("server", "ptn"),
    [
        ("P A1", "a1"),
        ("P D4 W", "Sd4"),
        ("P G7 C", "Cg7"),
        ("M C4 D4 1", "1c4>1"),
        ("M E6 C6 1 2", "3e6<12"),
        ("M A2 A5 2 1 1", "4a2+211"),
        ("M B5 B3 1 1", "2b5-11"),
    ],
)
def test_each_kind_of_move(server: str, ptn: str) -> None:
    assert server_move_ptn(server) == ptn


@pytest.mark.parametrize(
    "server", ["", "X A1", "P", "P A9", "P A1 F", "M A1 B2 1", "M A1 A3 1", "M A1 A2 0", "M A1 A2"]
)
def test_what_is_not_a_move_is_refused(server: str) -> None:
    with pytest.raises(TakError, match="server notation"):
        server_move_ptn(server)


def test_the_published_playtak_games_replay_to_their_recorded_results() -> None:
    rows = [json.loads(line) for line in PUBLISHED.read_text(encoding="utf-8").splitlines()]
    playtak = [row for row in rows if row["source"].startswith("PlayTak game")]
    assert len(playtak) == 49
    for row in playtak:
        position = Position(row["size"], komi=row["komi"])
        for move in row["moves"].split():
            position.play(move)
        recorded = parse_result(row["result"])
        if position.result is not None:  # a road or a full board: the board's own result
            assert position.result.winner == recorded.winner, row["source"]
