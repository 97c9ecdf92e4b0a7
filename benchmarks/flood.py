"""One player floods the bot's shared work; how long does another player wait for an answer?

Issue 23. The bot's moves and the post-game analyses share the worker processes
(``BREDON_BOT_WORKERS``, 2). Mallory, the flooder, asks for 100 analyses of her finished games
(and asks again, every second, for those refused) and challenges the bot to 50 games at level 4
(each move about half a second of search; ``--level 5`` for the strongest, which thinks for
``BREDON_BOT_MOVETIME_MS``), answering every move the bot makes at once, so the bot is never
idle. Meanwhile Alice plays the bot at level 3 and asks for one analysis.

Measured, from Alice's side, in real time with the real worker processes, analyst and bot player
(nothing is posted to Discord; the courier's kick is done here):

- reply latency: from Alice's move to the bot's answer stored, over 20 moves: p50, p99, max
  (target: p99 under 2 s at the default settings);
- her analysis: how many are ahead of it when she asks, and the time until it is done (given up
  after 90 s);
- what the flood got: Mallory's analyses and games taken and refused.

Issue 39's flood, one player's strongest games against another's beginner replies::

    PYTHONPATH=. .venv/bin/python benchmarks/flood.py --level 5 --games 3 --alice-level 1

(Mallory's three level-5 games think for ``BREDON_BOT_MOVETIME_MS``, 20 s; target: Alice's
level-1 reply p99 under 2 s).

Only the services' public methods are used, so the same file measures the code before the
limits: run it against a checkout of the old code for the "before" figure::

    PYTHONPATH=. .venv/bin/python benchmarks/flood.py
    git archive <old> | tar -x -C /tmp/old && cd /tmp/old && \\
        PYTHONPATH=/tmp/old <worktree>/.venv/bin/python <worktree>/benchmarks/flood.py
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.computer.analyst import Analyst
from bot.computer.player import BotPlayer, Thinker
from bot.errors import BredonError
from bot.games.model import GameRequest
from bot.guild_settings import GuildSettings
from bot.players.model import PlayerRef
from bot.services import Services
from bot.settings import DEFAULT_BOT_MOVETIME_MS
from bot.timekeeping.clock import SystemClock
from tak import Move, Position
from tak.engine import builtin_choose
from tak.search import Limits

GUILD, CHANNEL = 1, 2
BREDON = PlayerRef(999, "Bredon")
MALLORY, ALICE, CAROL = PlayerRef(1, "mallory"), PlayerRef(2, "alice"), PlayerRef(3, "carol")
SIZE = 5
FLOOD_ANALYSES = 100
PLIES_TO_ANALYSE = 16
POLL = 0.01  # seconds between looks at the database while waiting


def legal_game(rng: random.Random, plies: int) -> list[str]:
    """Random legal moves none of which ends the game."""
    while True:
        position, played = Position(SIZE, komi=2), []
        while len(played) < plies:
            moves = [m for m in position.legal_moves() if _goes_on(position, m)]
            if not moves:
                break
            move = rng.choice(moves)
            position.play(move)
            played.append(move.ptn())
        if len(played) == plies:
            return played


def _goes_on(position: Position, move: Move) -> bool:
    after = position.copy()
    after.play(move)
    return after.result is None


async def finished_game(
    services: Services, white: PlayerRef, black: PlayerRef, rng: random.Random
) -> int:
    challenge = await services.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=white,
        opponent=black,
        setup=GuildSettings(GUILD).game_setup(GameRequest(size=SIZE, komi=2)),
        colour="white",
    )
    game = (await services.challenges.accept(challenge.id, black)).game
    assert game is not None
    for ply, move in enumerate(legal_game(rng, PLIES_TO_ANALYSE)):
        await services.games.move(game.id, (white, black)[ply % 2].id, move)
    await services.games.resign(game.id, black.id)
    return game.id


async def challenge_bot(services: Services, player: PlayerRef, level: int) -> int:
    """`player` challenges the bot, playing White; the challenge's number."""
    challenge = await services.opponent.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        player=player,
        bot=BREDON,
        level=level,
        request=GameRequest(size=SIZE),
        defaults=GuildSettings(GUILD),
        colour="white",
    )
    return challenge.id


async def random_move(
    services: Services, game_id: int, player: PlayerRef, rng: random.Random
) -> bool:
    """A random legal move for `player` if it is their turn; whether one was played."""
    game = await services.games.get(game_id)
    if not game.is_active or game.player_to_move.id != player.id:
        return False
    position = await services.games.position(game_id)
    try:
        await services.games.move(game_id, player.id, rng.choice(position.legal_moves()).ptn())
    except BredonError:
        return False  # the bot moved meanwhile in a race: the next look sees it
    return True


async def active_games(services: Services, player: PlayerRef) -> list[int]:
    rows = await services.db.fetchall(
        "SELECT id FROM games WHERE status = 'active' AND (white_id = ? OR black_id = ?)",
        (player.id, player.id),
    )
    return [row["id"] for row in rows]


class Flood:
    """Mallory: her analyses asked for (again and again), her games answered at once."""

    def __init__(
        self, services: Services, player: BotPlayer, analyst: Analyst, level: int, games: int
    ) -> None:
        self.services, self.player, self.analyst = services, player, analyst
        self.level, self.games = level, games
        self.rng = random.Random(1)
        self.to_analyse: list[int] = []
        self.analyses_taken = self.analyses_refused = 0
        self.games_taken = self.games_refused = 0
        self.moves = 0
        self.refusals: set[str] = set()

    async def ask_analyses(self) -> None:
        waiting = []
        for game_id in self.to_analyse:
            try:
                queued = await self.services.analysis.request(game_id, GUILD, MALLORY.id)
            except BredonError as refused:
                self.analyses_refused += 1
                self.refusals.add(refused.message.split(" (")[0])
                waiting.append(game_id)
                continue
            self.analyses_taken += queued.new
        self.to_analyse = waiting
        self.analyst.kick()

    async def challenge(self, count: int) -> None:
        for _ in range(count):
            try:
                await challenge_bot(self.services, MALLORY, self.level)
                self.games_taken += 1
            except BredonError as refused:
                self.games_refused += 1
                self.refusals.add(refused.message.split(" (")[0])
        self.player.kick()

    async def run(self, stop: asyncio.Event) -> None:
        last_ask = time.monotonic()
        while not stop.is_set():
            games = await active_games(self.services, MALLORY)
            for game_id in games:
                if await random_move(self.services, game_id, MALLORY, self.rng):
                    self.moves += 1
                    self.player.kick()
            if time.monotonic() - last_ask > 1.0:  # ask again for what was refused or ended
                await self.ask_analyses()
                await self.challenge(self.games - len(games))
                last_ask = time.monotonic()
            await asyncio.sleep(POLL)


async def alice_replies(
    services: Services, player: BotPlayer, moves: int, level: int, rng: random.Random
) -> list[float]:
    """Alice plays the bot: the seconds from each of her moves to the bot's answer."""
    latencies: list[float] = []
    game_id = None
    while len(latencies) < moves:
        if game_id is None or not (await services.games.get(game_id)).is_active:
            challenge_id = await challenge_bot(services, ALICE, level)
            player.kick()
            while (game_id := (await services.challenges.get(challenge_id)).game_id) is None:
                await asyncio.sleep(POLL)
        game = await services.games.get(game_id)
        if not await random_move(services, game_id, ALICE, rng):
            await asyncio.sleep(POLL)
            continue
        started = time.perf_counter()
        player.kick()
        while True:
            now = await services.games.get(game_id)
            if now.ply > game.ply + 1 or not now.is_active:
                break
            await asyncio.sleep(POLL)
        if now.is_active or now.ply > game.ply + 1:
            latencies.append(time.perf_counter() - started)
    return latencies


async def alice_analysis(
    services: Services, analyst: Analyst, game_id: int, give_up: float
) -> tuple[int, float | None]:
    """Alice asks for her game's analysis: how many were ahead of it, and the seconds until it
    is done (None: given up)."""
    queued = await services.analysis.request(game_id, GUILD, ALICE.id)
    analyst.kick()
    started = time.perf_counter()
    while time.perf_counter() - started < give_up:
        stored = await services.analysis.get(game_id)
        if stored is not None and stored.status.value != "queued":
            return queued.ahead, time.perf_counter() - started
        await asyncio.sleep(0.1)
    return queued.ahead, None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        services = await Services.open(Path(folder) / "flood.sqlite3", clock=SystemClock())
        rng = random.Random(7)
        print(f"Setting up {FLOOD_ANALYSES + 1} finished games of {PLIES_TO_ANALYSE} plies...")
        mallorys = [
            await finished_game(services, MALLORY, CAROL, rng) for _ in range(FLOOD_ANALYSES)
        ]
        alices = await finished_game(services, ALICE, CAROL, rng)
        thinker = Thinker(workers=args.workers, movetime_ms=args.movetime_ms)
        # Start every worker process (spawned on first use) before the clock does: at once, so
        # that each takes one.
        warm_up = Limits(movetime_ms=300)
        await asyncio.gather(
            *(
                thinker.run(builtin_choose, 5, n, Position(SIZE), warm_up)
                for n in range(args.workers)
            )
        )
        player = BotPlayer(services.opponent, thinker, BREDON, lambda: None)
        analyst = Analyst(services.analysis, thinker, lambda: None)
        player.start()
        analyst.start()
        flood = Flood(services, player, analyst, args.level, args.games)
        flood.to_analyse = list(mallorys)
        await flood.ask_analyses()
        await flood.challenge(args.games)
        stop = asyncio.Event()
        flooding = asyncio.create_task(flood.run(stop))
        await asyncio.sleep(args.warm_up)  # the flood under way
        analysis = asyncio.create_task(alice_analysis(services, analyst, alices, args.give_up))
        latencies = await alice_replies(
            services, player, args.moves, args.alice_level, random.Random(3)
        )
        ahead, analysed = await analysis
        stop.set()
        await flooding
        await player.stop()
        await analyst.stop()
        await thinker.close()
        await services.close()
    print(
        f"Flood: Mallory's analyses {flood.analyses_taken} queued, {flood.analyses_refused} "
        f"refusals; her games against the bot {flood.games_taken} taken, "
        f"{flood.games_refused} refused; {flood.moves} of her moves answered."
    )
    for refusal in sorted(flood.refusals):
        print(f"  refused: {refusal}...")
    print(
        f"Alice's replies from the bot ({len(latencies)} moves, level {args.alice_level}; "
        f"Mallory's {args.games} games at level {args.level}): "
        f"p50 {statistics.median(latencies):.2f} s, p99 {percentile(latencies, 0.99):.2f} s, "
        f"max {max(latencies):.2f} s "
        "(target: p99 < 2 s)."
    )
    print("  each, in s: " + " ".join(f"{latency:.2f}" for latency in latencies))
    done = "not done" if analysed is None else f"done in {analysed:.1f} s"
    print(
        f"Alice's analysis ({PLIES_TO_ANALYSE} plies): {ahead} ahead of it when asked, {done}"
        + (f" (given up after {args.give_up:.0f} s)." if analysed is None else ".")
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=20, help="Alice's moves measured")
    parser.add_argument("--level", type=int, default=4, help="of the flooder's games")
    parser.add_argument("--games", type=int, default=50, help="the flooder's games at once")
    parser.add_argument("--alice-level", type=int, default=3, help="of Alice's game")
    parser.add_argument(
        "--movetime-ms", type=int, default=DEFAULT_BOT_MOVETIME_MS, help="BREDON_BOT_MOVETIME_MS"
    )
    parser.add_argument("--workers", type=int, default=2, help="BREDON_BOT_WORKERS")
    parser.add_argument("--warm-up", type=float, default=5.0, help="seconds of flood first")
    parser.add_argument("--give-up", type=float, default=90.0, help="on Alice's analysis")
    asyncio.run(main(parser.parse_args()))
