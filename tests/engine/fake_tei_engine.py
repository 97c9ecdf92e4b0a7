"""A misbehaving TEI engine for the client's tests, run as a real subprocess.

    python fake_tei_engine.py <mode> [<marker file>]

Modes: `ok` plays the first legal move; `silent` never finishes the handshake; `crash` exits
when asked to search; `stall` never answers a search; `illegal` answers a move that is not
legal; `garbage` answers bestmove with no move; `crash-once` crashes on its first search (it
leaves the marker file behind) and plays like `ok` once restarted.
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
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "tei":
            if mode == "silent":
                continue
            print("id name Fake", flush=True)
            print("teiok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "teinewgame":
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
