"""Mine the published puzzle set, bot/puzzles/published.json, from freely licensed real games.

Reads the PTN files of nelhage/taktician's testdata (MIT) and the PlayTak games-history rows of
USTakAssociation/playtak-api (MIT) and devp/project-tak-tourney-adhoc (ISC), as copied under
/work/shared/real_games (see its README for the commits), mines every position of every game with
:func:`bot.puzzles.mining.mine` and writes the puzzles found, each naming its game and licence.
Files that start from a set-up position (TPS) are left out: they are others' puzzles already.

    python scripts/mine_puzzles.py [--real-games /work/shared/real_games]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

from bot.puzzles.mining import MinedPuzzle, mine
from bot.puzzles.service import PUBLISHED
from tak import Position
from tak.playtak import server_move_ptn
from tak.ptn import Game

LICENCES = {
    "taktician": "nelhage/taktician, MIT",
    "playtak-api": "USTakAssociation/playtak-api, MIT",
    "playtak-tournament-sample": "devp/project-tak-tourney-adhoc (PlayTak games), ISC",
}


def games(root: Path) -> Iterator[tuple[Position, list[str], str]]:
    """Each published game: its start, its moves (PTN) and its source (the game, the licence)."""
    for path in sorted(root.glob("taktician/**/*.ptn")):
        game = Game.parse(path.read_text())
        if game.tag("TPS") is not None:
            continue
        source = f"{path.name} ({LICENCES['taktician']})"
        yield game.start(), [ply.move.ptn() for ply in game.plies], source
    for path in sorted(root.glob("*/*.json")):
        for row in json.loads(path.read_text())["items"]:
            standard = row["pieces"] < 0  # -1: the size's standard reserves
            start = Position(
                row["size"],
                komi=row["komi"] / 2,
                stones=None if standard else row["pieces"],
                caps=None if standard else row["capstones"],
            )
            moves = [server_move_ptn(text) for text in row["notation"].split(",") if text.strip()]
            name = f"PlayTak game {row['id']}" if row["id"] else "a PlayTak game"
            yield start, moves, f"{name} ({LICENCES[path.parent.name]})"


def puzzles(root: Path) -> Iterator[tuple[MinedPuzzle, str]]:
    for start, moves, source in games(root):
        for found in mine(start, moves):
            yield found, source


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real-games", type=Path, default=Path("/work/shared/real_games"))
    args = parser.parse_args()
    seen: set[tuple[str, float]] = set()
    rows = []
    for found, source in puzzles(args.real_games):
        if (found.tps, found.komi) in seen:
            continue
        seen.add((found.tps, found.komi))
        rows.append(
            {
                "tps": found.tps,
                "komi": found.komi,
                "stones": found.stones,
                "caps": found.caps,
                "solution": found.solution,
                "kind": found.kind.value,
                "ply": found.ply,
                "source": source,
            }
        )
    document = {
        "about": "Puzzles mined by scripts/mine_puzzles.py from published games; each names "
        "its game and the licence it was published under (MIT or ISC).",
        "puzzles": rows,
    }
    PUBLISHED.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    kinds = [row["kind"] for row in rows]
    print(f"{len(rows)} puzzles: {kinds.count('road')} roads, {kinds.count('tinue')} Tinuës")


if __name__ == "__main__":
    main()
