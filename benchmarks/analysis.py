"""Post-game analysis (`/game analysis`): what a worker process spends on one game, and the graph.

Runs `bot.computer.analyst.analyse_ptn` (every position searched to a fixed number of positions,
the exact
road-in-one and Tinuë checks, the annotated PTN) on the real games in tests/tak/real_games, then
draws each game's evaluation graph as the bot posts it. Prints CPU seconds per ply and per game
(the queue's waiting time is the games ahead times that), the graph's time and size.

Target (issue 12): a game's analysis is posted "when ready"; with the default 1,000 positions a
ply, a 60-ply game should take well under a minute of one worker.

    python benchmarks/analysis.py [--nodes N] [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bot.computer.analyst import analyse_ptn
from rendering.evaluation import EvaluationGraph, render_evaluation_graph
from tak.analysis import DEFAULT_NODES
from tak.engine import BUILTIN
from tak.ptn import Game

REAL_GAMES = Path(__file__).parent.parent / "tests" / "tak" / "real_games"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="positions a ply")
    parser.add_argument("--games", type=int, default=None, help="only the first N games")
    args = parser.parse_args()
    files = sorted(REAL_GAMES.glob("*.ptn"))[: args.games]
    per_ply: list[float] = []
    graph_ms: list[float] = []
    graph_bytes: list[int] = []
    total_plies = 0
    render_evaluation_graph(EvaluationGraph("warm-up", (0.0, 1.0)))  # fonts load once a process
    for path in files:
        ptn = path.read_text()
        game = Game.parse(ptn)
        plies = len(game.plies)
        start = time.process_time()
        findings = analyse_ptn(ptn, args.nodes, None, BUILTIN)
        seconds = time.process_time() - start
        graph = EvaluationGraph(
            f"{game.tag('Player1')} vs {game.tag('Player2')}",
            tuple(score / 100 for score in findings.evaluations),
            findings.marks,
            f"{path.name} · {game.start().size}x{game.start().size}",
        )
        start = time.perf_counter()
        png = render_evaluation_graph(graph)
        graph_ms.append((time.perf_counter() - start) * 1000)
        graph_bytes.append(len(png))
        per_ply.append(seconds / max(1, plies))
        total_plies += plies
        marks = " ".join(f"{findings.marks.count(m)}{m}" for m in ("??", "?", "!"))
        print(f"{path.name:<28} {plies:>3} plies  {seconds:6.1f} s CPU  {marks}", flush=True)
    print(
        f"{len(files)} games, {total_plies} plies at {args.nodes} positions a ply: "
        f"median {statistics.median(per_ply):.2f} s a ply, worst {max(per_ply):.2f} s a ply "
        f"(a 60-ply game: about {60 * statistics.median(per_ply):.0f} s of one worker)"
    )
    print(
        f"evaluation graph: median {statistics.median(graph_ms):.0f} ms, "
        f"worst {max(graph_ms):.0f} ms, largest {max(graph_bytes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
