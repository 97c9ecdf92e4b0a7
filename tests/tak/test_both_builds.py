"""What the compiled build (see README) could do differently from pure Python, and must not: its
classes have no `__dict__`, its frozen dataclasses cannot be filled in after construction, and it
checks argument types on entry. CI runs every engine test against both builds."""

from __future__ import annotations

import copy
import pickle

from tak import Color, Position, parse_move


def _played() -> Position:
    position = Position(5, komi=2.5, stones=(12, 11), caps=1, opening="no-swap")
    for move in ["c3", "c4", "Cb3", "d4", "b3>", "Sd3"]:
        position.play(move)
    return position


def test_a_position_pickles_and_deep_copies_with_its_history() -> None:
    position = _played()
    for clone in (pickle.loads(pickle.dumps(position)), copy.deepcopy(position)):
        assert clone.tps() == position.tps()
        assert (clone.komi, clone.opening) == (position.komi, position.opening)
        assert clone.reserves(Color.WHITE) == position.reserves(Color.WHITE)
        assert clone.reserves(Color.BLACK) == position.reserves(Color.BLACK)
        assert clone.moves == position.moves
        assert clone.legal_moves() == position.legal_moves()
        assert clone.road_threats(Color.WHITE) == position.road_threats(Color.WHITE)
        clone.pop()
        clone.pop()
        assert clone.tps() != position.tps()  # independent of the original
        assert position.moves[-1] == parse_move("Sd3")
    assert Position.from_tps(pickle.loads(pickle.dumps(position)).tps()).tps() == position.tps()


def test_a_finished_game_keeps_its_result() -> None:
    position = Position(3, opening="no-swap")
    for move in ["a1", "c3", "a2", "b3", "a3"]:
        position.play(move)
    clone = pickle.loads(pickle.dumps(position))
    assert position.result is not None and clone.result == position.result
    assert clone.result.road == position.result.road and clone.legal_moves() == []


def test_values_pickle_and_copy_to_equal_values() -> None:
    position = _played()
    values = [
        parse_move("3a1>12"),
        parse_move("Ca1"),
        position.stack(1, 2),
        position.board(),
        position.reserves(Color.BLACK),
        position.last_move,
    ]
    finished = Position(3, stones=1, caps=0)
    finished.play("a1")  # Black is out of pieces: the flats decide
    values.append(finished.result)
    for value in values:
        for clone in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert clone == value and hash(clone) == hash(value)


def test_a_player_is_a_color_or_its_number() -> None:
    position = _played()
    for color in Color:
        number = int(color)
        assert position.reserves(number) == position.reserves(color)
        assert position.flat_count(number) == position.flat_count(color)
        assert position.road_threats(number) == position.road_threats(color)
        assert position.has_road_threat(number) == position.has_road_threat(color)
