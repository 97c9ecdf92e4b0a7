"""What speaking each person's language costs a command (issue 28): every slash command and
button press first looks up whom it answers (``PlayerService.speaks``: one read of the player's
row, and a write only when their Discord language changed), and every text for people is looked
up in the catalogue (``_()``).

Measured on a real SQLite file (or ``--database postgresql://...``) with ``--players`` players:
the lookup per command (p50, p99), the write when a player's Discord language changes, and
``_()`` per call in English (the source) and German, beside a plain ``str.format``.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/languages.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.languages import _, catalogue, speaking
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import SystemClock

MESSAGE = "Your board theme: **{theme}**."


def percentile(samples: list[float], share: float) -> float:
    return sorted(samples)[min(len(samples) - 1, int(share * len(samples)))]


async def measure(location: str, players: int, calls: int) -> None:
    services = await Services.open(location, clock=SystemClock())
    try:
        for number in range(1, players + 1):
            await services.players.register(PlayerRef(number, f"player{number}"))
        await services.players.speaks(1, "en-US")
        ids = [1 + (i * 7919) % players for i in range(calls)]
        for player_id in ids:  # every player's Discord language known once
            await services.players.speaks(player_id, "en-US")
        lookups = []
        for player_id in ids:
            start = time.perf_counter()
            await services.players.speaks(player_id, "en-US")
            lookups.append(time.perf_counter() - start)
        changes = []
        for index, player_id in enumerate(ids[:200]):
            start = time.perf_counter()
            await services.players.speaks(player_id, "de" if index % 2 == 0 else "en-GB")
            changes.append(time.perf_counter() - start)
    finally:
        await services.close()
    print(f"players: {players:,}; lookups: {calls:,}")
    print(
        f"PlayerService.speaks, language known: p50 {statistics.median(lookups) * 1e6:.0f} µs, "
        f"p99 {percentile(lookups, 0.99) * 1e6:.0f} µs"
    )
    print(
        "PlayerService.speaks, Discord language changed (a write): "
        f"p50 {statistics.median(changes) * 1e3:.2f} ms, "
        f"p99 {percentile(changes, 0.99) * 1e3:.2f} ms"
    )


def texts(rounds: int) -> None:
    catalogue()
    for language in ("en", "de"):
        with speaking(language):
            start = time.perf_counter()
            for _round in range(rounds):
                _(MESSAGE, theme="paper")
            took = (time.perf_counter() - start) / rounds
        print(f"_() in {language}: {took * 1e6:.2f} µs a call")
    start = time.perf_counter()
    for _round in range(rounds):
        MESSAGE.format(theme="paper")
    print(f"str.format alone: {(time.perf_counter() - start) / rounds * 1e6:.2f} µs a call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        location = args.database or str(Path(folder) / "bredon.sqlite3")
        asyncio.run(measure(location, args.players, args.calls))
    texts(100_000)


if __name__ == "__main__":
    main()
