"""Look at what the bot will post.

python -m rendering "x6/x6/x6/x6/x6/x6 1 1" -o board.png [--last-move a1] [--theme paper]
python -m rendering game.ptn -o game.gif      # the whole game, animated
python -m rendering game.ptn -o final.png     # the final position, last move tinted
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rendering.board import DEFAULT_SIZE
from rendering.render import render_board
from rendering.replay import REPLAY_SIZE, render_replay
from rendering.themes import THEMES
from tak import Position, TakError, parse_move
from tak.ptn import Game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rendering", description=__doc__.split("\n")[0])
    parser.add_argument("source", help="a TPS string, or a .ptn game file")
    parser.add_argument("-o", "--output", required=True, type=Path, help="a .png or .gif file")
    parser.add_argument("--last-move", help="PTN of the move that led to the TPS position")
    parser.add_argument("--theme", default="default", choices=sorted(THEMES))
    parser.add_argument("--size", type=int, help="image width in px")
    parser.add_argument("--komi", type=float, default=0.0, help="komi for a TPS position")
    parser.add_argument("--players", nargs=2, metavar=("PLAYER1", "PLAYER2"))
    args = parser.parse_args(argv)
    try:
        data = _render(args)
    except (TakError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes)")
    return 0


def _render(args: argparse.Namespace) -> bytes:
    players = tuple(args.players) if args.players else None
    gif = args.output.suffix.lower() == ".gif"
    if args.source.lower().endswith(".ptn"):
        game = Game.parse(Path(args.source).read_text(encoding="utf-8"))
        if gif:
            return render_replay(
                game, players=players, theme=args.theme, size=args.size or REPLAY_SIZE
            )
        position = game.final_position()
        names = players or (game.tag("Player1") or "Player 1", game.tag("Player2") or "Player 2")
        return render_board(
            position,
            last_move=position.last_move,
            players=names,
            theme=args.theme,
            size=args.size or DEFAULT_SIZE,
            result=game.result,
        )
    if gif:
        raise ValueError("A GIF replays a game: give a .ptn file, not a TPS position.")
    position = Position.from_tps(args.source, komi=args.komi)
    return render_board(
        position,
        last_move=parse_move(args.last_move) if args.last_move else None,
        players=players or ("Player 1", "Player 2"),
        theme=args.theme,
        size=args.size or DEFAULT_SIZE,
    )


if __name__ == "__main__":
    sys.exit(main())
