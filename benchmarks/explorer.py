"""How long the opening explorer takes to answer with 2,000 finished 6x6 games. Prints figures.

    BREDON_COMPILE=0 .venv/bin/python benchmarks/explorer.py

The games are random legal games whose first plies come from a few common openings (so that
positions recur, as on a real server) and that end within 80 plies. Figures: building the index
(the first question after a start: every game replayed), a question once it is built (a game
that finished since is replayed at the next question, nothing else), and the memory it holds.
"""

from __future__ import annotations

import random
import time
import tracemalloc

from bot.games.explorer import FinishedGame, OpeningIndex, standard_position
from tak import Color, Result, ResultKind

GAMES = 2_000
SIZE = 6
MAX_PLIES = 80
OPENINGS = ("a1 f6", "a6 f1", "a1 f1", "f6 a1")


def random_game(rng: random.Random, game_id: int) -> FinishedGame:
    position = standard_position(SIZE)
    moves = rng.choice(OPENINGS).split()
    for move in moves:
        position.play(move)
    length = rng.randint(10, MAX_PLIES)
    while position.result is None and len(moves) < length:
        move = rng.choice(position.legal_moves())
        position.play(move)
        moves.append(move.ptn())
    result = position.result or Result(
        rng.choice((Color.WHITE, Color.BLACK, None)), ResultKind.RESIGNATION
    )
    return FinishedGame(game_id, tuple(moves), result)


def main() -> None:
    rng = random.Random(43)
    games = [random_game(rng, game_id) for game_id in range(GAMES)]
    plies = sum(len(game.moves) for game in games)
    started = time.perf_counter()
    index = OpeningIndex(SIZE)
    index.add(games)
    built = time.perf_counter() - started
    tracemalloc.start()  # a second index, measured apart: tracing slows the building down
    traced = OpeningIndex(SIZE)
    traced.add(games)
    memory, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    position = standard_position(SIZE)
    questions = []
    for move in ("a1", "f6", "c3"):
        started = time.perf_counter()
        index.explore(position)
        questions.append(time.perf_counter() - started)
        position.play(move)
    print(f"{GAMES} games, {plies} plies")
    print(f"index built in {built:.2f} s ({built / plies * 1e6:.0f} µs a ply)")
    print(f"a question on the built index: {max(questions) * 1000:.2f} ms at most")
    print(f"the index holds {memory / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
