"""benchmarks/tune.py's teacher fit: it reproduces a teacher that is linear in the features, it
gives the evaluation's weights from the committed scores, and it asks a real TEI engine (Bredon's
own, as a subprocess) for each position once."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from benchmarks.tune import (
    TEACHER_GAMES,
    TEACHER_SCORES,
    explained,
    ladder_games,
    least_squares,
    scored,
    teacher_fit,
    teacher_positions,
    teacher_samples,
    teacher_scores,
)
from tak import Position
from tak.evaluation import FEATURES, UNFITTED, Board, Scan, weights_for


def _positions(size: int, count: int) -> list[Position]:
    found = []
    for record in ladder_games(TEACHER_GAMES):
        if record.start.size == size:
            found.extend(teacher_positions(record))
        if len(found) >= count:
            return found[:count]
    return found


def test_the_fit_reproduces_a_linear_teacher() -> None:
    teacher = [0 if i in UNFITTED else w for i, w in enumerate(weights_for(6)[:FEATURES])]
    data = []
    for position in _positions(6, 400):
        counts = [float(v) for v in Scan(position, Board(position)).counts(position)[0]]
        data.append((counts, float(sum(w * v for w, v in zip(teacher, counts, strict=True)))))
    assert len(data) == 400
    fitted = least_squares(data, ridge=0.0)
    assert explained(data, fitted) > 0.999_999
    assert all(fitted[i] == 0 for i in UNFITTED if i < FEATURES)


@pytest.mark.parametrize("size", [5, 6])
def test_the_weights_are_the_fit_of_the_committed_scores(size: int) -> None:
    """tak/evaluation.py's weights are what `tune.py --teacher /tmp/taktician/tei-bin` prints
    from benchmarks/teacher-scores.jsonl: the fit is reproducible without taktician."""
    scores = scored("/tmp/taktician/tei-bin", 25, TEACHER_SCORES)
    assert len(scores) > 16_000
    fit = teacher_fit(teacher_samples(scores)[size], size, ridge=100.0)
    assert [round(w) for w in fit.weights] == list(weights_for(size))
    assert fit.after > 0.8


def test_the_teacher_is_asked_once_per_position(tmp_path: Path) -> None:
    cache = tmp_path / "teacher.jsonl"
    command = f"{sys.executable} -m tak tei --level 2"
    positions = _positions(5, 3)
    first = asyncio.run(teacher_scores(command, 50, positions, cache, jobs=2))
    assert sorted(first) == sorted(p.tps() for p in positions)
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert len(rows) == 3 and {row["teacher"] for row in rows} == {command}
    again = asyncio.run(teacher_scores(command, 50, positions, cache, jobs=2))
    assert again == first
    assert len(cache.read_text().splitlines()) == 3
