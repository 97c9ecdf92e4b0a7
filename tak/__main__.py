"""Command line: `python -m tak moves|perft|play|tinue "<TPS>" ...`, `python -m tak tei`,
`python -m tak analyse GAME.ptn` (the game annotated: `?`/`!` marks and comments), and
`python -m tak build` (which build of the engine runs: compiled or pure Python, and why).

Options for the position (komi, opening, reserves) come before the TPS. Illegal input prints the
reason on stderr and exits with code 1. Each command imports the parts of the engine it uses, so
that `tei` answers its handshake before the rules and the search are loaded.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tak.compiled import BUILD
from tak.errors import TakError
from tak.tei import LEVELS

if TYPE_CHECKING:
    from tak.position import Position


def _position(args: argparse.Namespace) -> Position:
    from tak.position import Position

    return Position.from_tps(
        args.tps,
        komi=args.komi,
        opening=args.opening,
        stones=args.stones,
        caps=args.caps,
    )


def _moves(args: argparse.Namespace) -> None:
    for text in sorted(move.ptn() for move in _position(args).legal_moves()):
        print(text)


def _perft(args: argparse.Namespace) -> None:
    from tak.position import perft

    if args.depth < 0:
        raise TakError("The depth must be 0 or more.")
    print(perft(_position(args), args.depth))


def _play(args: argparse.Namespace) -> None:
    position = _position(args)
    for text in args.moves:
        try:
            position.play(text)
        except TakError as error:
            raise TakError(f"{text.strip()}: {error}") from error
    print(position.tps())
    print(position.result.ptn() if position.result else "ongoing")


def _tinue(args: argparse.Namespace) -> None:
    """Judge the player who has just moved: the side not to move in the TPS."""
    from tak.tinue import judge

    position = _position(args)
    verdict = judge(position)
    mover = position.to_move.other
    threats = " ".join(sorted(move.ptn() for move in verdict.threats))
    if verdict.defence is None and verdict.threats:
        print(f"tinue: {mover} threatens {threats} and no reply stops it")
    elif verdict.defence is not None:
        print(f"no: {mover} threatens {threats} (Tak), but {verdict.defence.ptn()} stops it")
    elif position.result is not None:
        print(f"no: the game is over ({position.result.ptn()})")
    else:
        print(f"no: {mover} threatens no road")


def _tei(args: argparse.Namespace) -> None:
    """The search is imported after the handshake, by the server (`teiok` comes at once)."""
    from tak.tei import main as serve

    serve(args.level, args.seed)  # a bad level is refused before serving


def _analyse(args: argparse.Namespace) -> None:
    from tak.analysis import DEFAULT_NODES, analyse
    from tak.ptn import Game

    nodes = DEFAULT_NODES if args.nodes is None else args.nodes
    if nodes < 1:
        raise TakError("The nodes per position must be 1 or more.")
    try:
        with open(args.file, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise TakError(f"Cannot read {args.file}: {error}") from error
    print(analyse(Game.parse(text), nodes=nodes).ptn(), end="")


def _build(args: argparse.Namespace) -> None:
    print(BUILD.describe())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tak", description=__doc__)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--komi", type=float, default=0, help="flats added to player 2 (x.5 ok)")
    common.add_argument("--opening", choices=["swap", "no-swap"], default="swap")
    common.add_argument("--stones", type=int, default=None, help="stones per player")
    common.add_argument("--caps", type=int, default=None, help="capstones per player")
    common.add_argument("tps", help='a TPS position, e.g. "x6/x6/x6/x6/x6/x6 1 1"')
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", parents=[common], help="list the legal moves, sorted")
    moves.set_defaults(run=_moves)
    count = commands.add_parser("perft", parents=[common], help="count move sequences")
    count.add_argument("depth", type=int)
    count.set_defaults(run=_perft)
    play = commands.add_parser("play", parents=[common], help="play moves, print TPS and result")
    play.add_argument("moves", nargs="*", help="moves in PTN")
    play.set_defaults(run=_play)
    tinue = commands.add_parser(
        "tinue", parents=[common], help="whether the side not to move has Tinue (or only Tak)"
    )
    tinue.set_defaults(run=_tinue)
    tei = commands.add_parser("tei", help="serve Bredon's player over TEI on stdin/stdout")
    tei.add_argument(
        "--level", type=int, default=LEVELS[-1], help=f"1 (beginner) to {LEVELS[-1]} (strongest)"
    )
    tei.add_argument("--seed", type=int, default=None, help="for reproducible play")
    tei.set_defaults(run=_tei)
    study = commands.add_parser(
        "analyse", help="print a PTN game annotated: ?/?? for swings, ! for Tinue, comments"
    )
    study.add_argument("file", help="a PTN file")
    study.add_argument(
        "--nodes", type=int, default=None, help="searched per position (default: as the bot's)"
    )
    study.set_defaults(run=_analyse)
    build = commands.add_parser("build", help="say whether the engine runs compiled, and why not")
    build.set_defaults(run=_build)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (TakError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
