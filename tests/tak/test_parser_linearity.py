"""Every parser takes time linear in its input, on the worst shapes known (the hostile families
of benchmarks/parsers.py): doubling the input at most about doubles the time.

This is a complexity property, not a speed target. A quadratic parser takes four times as long on
twice the text, so the bound of 2.5 leaves room for noise: each time is the best of several
rounds, each round repeats the parse until it lasts long enough to measure, and a family gets
five tries before it fails (a quadratic one never passes). The time is the CPU time of the
test's own thread, not the wall clock: on a busy machine the wall clock also counts the time the
other processes had the CPU, which is no work of the parser's (with two busy loops beside it,
wall-clock ratios reached 3.6-6.7).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from benchmarks.parsers import FAMILIES, Family, answer

MAX_RATIO = 2.5
ROUNDS = 5
TRIES = 5
MIN_ROUND_SECONDS = 0.02
# Texts of a quarter and half the parser's cap: long enough that a quadratic parser would spend
# seconds (a 262 KB PTN file of `{` took a minute), short enough to keep the test quick.
SMALL_SHARE = 4


def round_time(parse: Callable[[str], object], text: str, repeat: int) -> float:
    """CPU seconds of this thread for `repeat` parses of `text`."""
    start = time.thread_time()
    for _ in range(repeat):
        answer(parse, text)
    return time.thread_time() - start


def best_time(parse: Callable[[str], object], text: str, repeat: int) -> float:
    """The shortest of ROUNDS rounds of `repeat` parses."""
    return min(round_time(parse, text, repeat) for _ in range(ROUNDS))


def repeats_for(parse: Callable[[str], object], text: str) -> int:
    """How many parses of `text` make a round of at least MIN_ROUND_SECONDS."""
    repeat = 1
    while repeat < 100_000 and round_time(parse, text, repeat) < MIN_ROUND_SECONDS:
        repeat *= 4
    return repeat


def growth(family: Family, make: Callable[[int], str]) -> float:
    """Time for twice the text over time for the text, the lower of TRIES measurements."""
    small = make(family.largest // SMALL_SHARE)
    large = make(2 * (family.largest // SMALL_SHARE))
    repeat = repeats_for(family.parse, small)
    ratios = []
    for _ in range(TRIES):
        ratio = best_time(family.parse, large, repeat) / best_time(family.parse, small, repeat)
        ratios.append(ratio)
        if ratio <= MAX_RATIO:
            break
    return min(ratios)


@pytest.mark.parametrize(
    ("family", "variant"),
    [(family, name) for family in FAMILIES for name in family.variants],
    ids=[f"{family.label}: {name}" for family in FAMILIES for name in family.variants],
)
def test_doubling_the_input_at_most_about_doubles_the_time(family: Family, variant: str) -> None:
    assert growth(family, family.variants[variant]) <= MAX_RATIO
