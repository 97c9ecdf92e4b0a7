"""Build `bot/games/real_games/games.jsonl`, the published real games the opening explorer counts
beside a server's own, from a folder of public game records (the project's developer machines
have them in ../shared/real_games; its README names each source, commit and licence):

    python scripts/real_games.py ../shared/real_games

Kept: finished games from the empty board with the standard pieces of their size and the swap
opening (the games the explorer compares), each once (the same moves in two files are one
game). Written in a stable order, so a rebuild from the same records changes nothing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from tak import STANDARD_RESERVES, Position
from tak.playtak import server_move_ptn
from tak.ptn import Game

OUT = Path(__file__).parents[1] / "bot" / "games" / "real_games" / "games.jsonl"


def ptn_files(root: Path) -> Iterator[dict[str, object]]:
    """The finished standard games of the PTN files (taktician's test data)."""
    for path in sorted(root.glob("taktician/**/*.ptn")):
        game = Game.parse(path.read_text(encoding="utf-8"))
        start = game.start()
        if game.result is None or game.tag("TPS") is not None or not standard(start):
            continue
        yield {
            "source": f"taktician/{path.relative_to(root / 'taktician').as_posix()}",
            "size": start.size,
            "komi": start.komi,
            "result": game.result.ptn(),
            "moves": " ".join(ply.move.ptn() for ply in game.plies),
        }


def playtak_rows(root: Path) -> Iterator[dict[str, object]]:
    """The finished standard games of PlayTak's game history (its server notation)."""
    for path in sorted(root.glob("*/*.json")):
        for row in json.loads(path.read_text(encoding="utf-8"))["items"]:
            if row["result"] in ("", "0-0"):  # unfinished, or aborted
                continue
            start = Position(row["size"], komi=row["komi"] / 2)  # komi in half-flats
            reserves = (row["pieces"], row["capstones"])
            if reserves not in ((-1, -1), STANDARD_RESERVES[row["size"]]) or not standard(start):
                continue
            moves = [server_move_ptn(text) for text in row["notation"].split(",") if text.strip()]
            yield {
                "source": f"PlayTak game {row['id']} ({path.parent.name}/{path.name})",
                "size": start.size,
                "komi": start.komi,
                "result": row["result"],
                "moves": " ".join(moves),
            }


def standard(start: Position) -> bool:
    return start.ply == 0 and start.tps() == Position(start.size).tps()


def main(root: Path) -> None:
    seen: set[tuple[object, object]] = set()
    lines = []
    for game in (*ptn_files(root), *playtak_rows(root)):
        key = (game["size"], game["moves"])
        if key not in seen:
            seen.add(key)
            lines.append(json.dumps(game, ensure_ascii=False))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} games written to {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
