"""How long the parsers take on the worst text anyone can send. Prints figures.

    .venv/bin/python benchmarks/parsers.py

Target (issue 10): every parser answers (a value or a library error) within 1 second on any input,
however long or crafted. The inputs are the shapes the fuzz tests draw (tests/engine/
test_parser_fuzz.py, tests/bot/test_settings_env.py) at their largest, and the ones that were slow
before the caps: a 1 MB PTN file took 17.8 s before it was refused at 1 MB.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bot.settings import MAX_ENV_LENGTH, SettingsError, parse_env_file
from tak import Position, Spread, TakError, parse_move, parse_result, parse_tps
from tak.lzstring import (
    MAX_DECOMPRESSED_LENGTH,
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)
from tak.ptn import MAX_PLIES, MAX_PTN_LENGTH, Game

TARGET_SECONDS = 1.0
MOVES_6X6 = " ".join(f"{n}. a{1 + n % 6} f{1 + n % 6}" for n in range(1, 400))


def longest_game(plies: int, seed: int = 7) -> str:
    """A legal 8x8 game of `plies` plies that has not ended: the most work a file may ask for."""
    rng = random.Random(seed)
    position = Position(8)
    texts = []
    while len(texts) < plies:
        moves = position.legal_moves()
        rng.shuffle(moves)
        spreads_first = sorted(moves, key=lambda m: not isinstance(m, Spread))
        for move in spreads_first if position.ply > 40 else moves:
            position.push(move)
            if position.result is None:
                texts.append(move.ptn())
                break
            position.pop()
    return '[Size "8"]\n' + " ".join(texts)




def settings_at_cap() -> str:
    """As many settings as fit under the cap, each expanding one above it."""
    text, i = "K0=x\n", 1
    while len(line := f"K{i}=${{K{i // 2}}}x\n") + len(text) <= MAX_ENV_LENGTH:
        text, i = text + line, i + 1
    return text


LINK_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
Parser = Callable[[str], object]
INPUTS: list[tuple[str, Parser, str]] = [
    ("ptn: over 1 MB", Game.parse, '[Size "6"]\n' + MOVES_6X6 * (MAX_PTN_LENGTH // 4_000)),
    (f"ptn: a legal game of {MAX_PLIES:,} plies", Game.parse, longest_game(MAX_PLIES)),
    ("ptn: 50,000 nested tags", Game.parse, "[" * 50_000 + "x" + "]" * 50_000),
    ("ptn: 50,000 nested comments", Game.parse, "{" * 50_000 + "x" + "}" * 50_000),
    ("ptn: 400,000 digits", Game.parse, "1" * 400_000),
    ("tps: 400,000 characters", parse_tps, "x6/" * 133_333),
    ("tps: a huge stack", Position.from_tps, "1" * 400_000 + ",x5/x6/x6/x6/x6/x6 1 2"),
    ("move: 400,000 characters", parse_move, "a1" + "1" * 400_000),
    ("result: 400,000 characters", parse_result, "R-0" * 133_333),
    (
        "ptn.ninja link: a bomb over the cap",
        decompress_from_encoded_uri_component,
        compress_to_encoded_uri_component("a" * (MAX_DECOMPRESSED_LENGTH + 1)),
    ),
    ("ptn.ninja link: 400,000 characters", decompress_from_encoded_uri_component, "Q" * 400_000),
    (
        "ptn.ninja link: random text at the cap",
        decompress_from_encoded_uri_component,
        compress_to_encoded_uri_component(
            "".join(random.Random(3).choices("abcdef123456 +-<>'\"", k=MAX_DECOMPRESSED_LENGTH))
        ),
    ),
    (
        "ptn.ninja link: random link characters",
        decompress_from_encoded_uri_component,
        "".join(random.Random(4).choices(LINK_ALPHABET, k=20_000)),
    ),
    (".env: settings up to the cap", parse_env_file, settings_at_cap()),
    (".env: open quotes up to the cap", parse_env_file, 'A="' * (MAX_ENV_LENGTH // 3)),
    (".env: one line up to the cap", parse_env_file, "A=" + "x" * (MAX_ENV_LENGTH - 3)),
]


def answer(parse: Parser, text: str) -> str:
    try:
        parse(text)
    except (TakError, SettingsError) as error:
        return type(error).__name__
    return "accepted"


def main() -> None:
    print(f"Every parser within {TARGET_SECONDS:.0f} s on any input; median of 3 runs:")
    worst = 0.0
    for label, parse, text in INPUTS:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            outcome = answer(parse, text)
            times.append(time.perf_counter() - start)
        seconds = statistics.median(times)
        worst = max(worst, seconds)
        print(f"  {label:<40} {len(text):>9,} chars  {seconds * 1000:8.1f} ms  {outcome}")
    verdict = "ok" if worst <= TARGET_SECONDS else "OVER TARGET"
    print(f"worst: {worst * 1000:.1f} ms (target {TARGET_SECONDS * 1000:.0f} ms): {verdict}")


if __name__ == "__main__":
    main()
