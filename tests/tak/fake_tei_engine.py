"""A misbehaving TEI engine for the client's tests, run as a real subprocess.

    python fake_tei_engine.py <mode> [<marker file>]

Modes: `ok` plays the first legal move; `silent` never finishes the handshake; `crash` exits
when asked to search; `stall` never answers a search; `illegal` answers a move that is not
legal; `garbage` answers bestmove with no move; `crash-once` crashes on its first search (it
leaves the marker file behind) and plays like `ok` once restarted. `v1` speaks TEI v1: it
declares 5x5 and 6x6 with half-komi 0 or 4, accepts only `teinewgame size N halfkomi K`
(anything else ends it with exit code 4), and reports two lines (multipv), the first with its
win/draw/loss chances. In every mode the commands received are appended to the marker file,
when one is given (for `crash-once` it is also the marker).
"""

from __future__ import annotations

import os
import sys
import time

from tak import Position


def main() -> None:
    mode = sys.argv[1]
    marker = sys.argv[2] if len(sys.argv) > 2 else None
    position = Position(6)
    size = 6
    half_komi = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if marker and mode != "crash-once":
            with open(marker, "a") as log:
                log.write(line)
        command = words[0]
        if command == "tei":
            if mode == "silent":
                continue
            print("id name Fake", flush=True)
            if mode == "v1":
                print("id version 1.0", flush=True)
                print("size 5 halfkomi 0 4", flush=True)
                print("size 6 halfkomi 0 4", flush=True)
            print("teiok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "teinewgame":
            if mode == "v1":
                if words[1:2] != ["size"] or words[3:4] != ["halfkomi"]:
                    sys.exit(4)
                size, half_komi = int(words[2]), int(words[4])
            else:
                size = int(words[1])
        elif command == "position":
            if words[1] == "startpos":
                position, moves = Position(size), words[3:]
            else:
                position, moves = Position.from_tps(" ".join(words[2:5])), words[6:]
            for move in moves:
                position.play(move)
        elif command == "go":
            if mode == "crash" or (mode == "crash-once" and not os.path.exists(marker or "")):
                if marker:
                    open(marker, "w").close()
                print("about to crash", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode == "stall":
                time.sleep(3600)
            if mode == "v1":
                first, second = position.legal_moves()[:2]
                print(
                    f"info depth 2 multipv 1 score cp {35 + half_komi} wdl 600 300 100", flush=True
                )
                print(f"info depth 2 multipv 1 pv {first.ptn()}", flush=True)
                print(f"info depth 2 multipv 2 score cp -20 pv {second.ptn()}", flush=True)
                print("info string thinking about multipv 3 score cp 99", flush=True)
            if mode == "garbage":
                print("bestmove", flush=True)
            elif mode == "illegal":
                print("bestmove 9z9", flush=True)
            else:
                print(f"bestmove {position.legal_moves()[0].ptn()}", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
