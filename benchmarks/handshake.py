"""The TEI handshake as a match runner sees it: a fresh engine process is started, `tei` written at
once (Racetrack does so, and times engines from their first line), and the time until `teiok`
measured. Prints, per engine command, the median and worst of N runs, and the 1-minute load
average after them, beside the floor: the same Python starting and exiting (`python -c pass`).

Target (issue 38): `teiok` within 100 ms of `tei` (taktician, a Go binary: about 2 ms).

    python benchmarks/handshake.py [--runs 30] [--tei COMMAND ...]

Where Python writes no bytecode (PYTHONDONTWRITEBYTECODE, as on the project's shared machine),
every start compiles the sources again, which an install does not: the script says which it
measured; `PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=/tmp/pycache python benchmarks/handshake.py`
measures with the bytecode cached (outside the checkout), as installed.

Without `--tei` the engine is this checkout's `python -m tak tei`. `--tei` takes a command line as
one string; to compare two checkouts in one sitting give both, e.g.
`--tei "env PYTHONPATH=OLD_CHECKOUT python -P -m tak tei" --tei "python -m tak tei"` (`-P`: so
that `python -m` does not put the current directory, this checkout, first on the path).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time

THIS_CHECKOUT = f"{sys.executable} -m tak tei"


def handshake_ms(command: list[str]) -> float:
    """Milliseconds from starting the process (with `tei` written at once) to its `teiok`."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("tei\n")
    process.stdin.flush()
    for line in process.stdout:
        if line.strip() == "teiok":
            elapsed = (time.perf_counter() - started) * 1000
            break
    else:
        raise SystemExit(f"{shlex.join(command)} ended without teiok")
    process.stdin.write("quit\n")
    process.stdin.close()
    process.wait(timeout=60)
    return elapsed


def start_and_exit_ms(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return (time.perf_counter() - started) * 1000


def report(label: str, figures: list[float]) -> None:
    print(
        f"{label:<60} median {statistics.median(figures):7.1f} ms   worst {max(figures):7.1f} ms"
        f"   load {os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tei", action="append", help="an engine's command line, as one string")
    args = parser.parse_args()
    floor = [sys.executable, "-c", "pass"]
    # Interleaved, so that a change in the machine's load falls on every command alike.
    commands = [shlex.split(command) for command in args.tei or [THIS_CHECKOUT]]
    figures: list[list[float]] = [[] for _ in commands]
    floors = []
    for _ in range(args.runs):
        floors.append(start_and_exit_ms(floor))
        for command, times in zip(commands, figures, strict=True):
            times.append(handshake_ms(command))
    bytecode = "compiled at every start" if sys.flags.dont_write_bytecode else "cached"
    print(f"tei -> teiok of a fresh process, {args.runs} runs each (bytecode {bytecode}):")
    report("python -c pass (start and exit: the floor)", floors)
    for command, times in zip(commands, figures, strict=True):
        report(shlex.join(command)[-60:], times)


if __name__ == "__main__":
    main()
