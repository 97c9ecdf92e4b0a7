"""Fixtures for the service tests: real SQLite files in a temporary folder and a fake clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.model import GameView
from bot.notifications.outbox import Outcome
from bot.play.outcomes import MoveOutcome
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.setups import create_challenge
from tests.databases import forget_test_database, fresh_database

ALICE = PlayerRef(101, "alice")
BOB = PlayerRef(202, "bob")
CAROL = PlayerRef(303, "carol")
GUILD = 1_000_000_000_000_000_001
CHANNEL = 2_000_000_000_000_000_002


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Iterator[Path | str]:
    """The test's database: a SQLite file, or a PostgreSQL database (tests/databases.py)."""
    location = fresh_database(tmp_path)
    yield location
    forget_test_database(location)


async def deliver_everything(services: Services, clock: FakeClock) -> list[str]:
    """What the Discord layer does when Discord works: every announcement is delivered, in
    order, as it was made (the clock set back for the moment); returns "kind:stream" of each."""
    delivered = []
    now = clock.now()
    while items := await services.outbox.due():
        for item in items:
            clock.set(item.created_at)
            try:
                claimed = await services.outbox.claim(item.id)
                assert claimed is not None
                assert await services.outbox.delivered(claimed, Outcome.POSTED)
            finally:
                clock.set(now)
            delivered.append(f"{item.payload.KIND}:{item.stream}")
    return delivered


def with_announcements_delivered(services: Services) -> Services:
    """The services as the bot runs them with Discord working: before the deadline service
    looks at what is due, everything announced so far has been delivered, at once (a game with
    an undelivered announcement cannot lose on time: see bot.notifications.outbox)."""
    clock = services.clock
    assert isinstance(clock, FakeClock)
    deadlines = services.deadlines
    for name in ("due", "run_due", "next_due_at", "time_out"):
        method = getattr(deadlines, name)

        async def delivering_first(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            await deliver_everything(services, clock)
            return await _method(*args, **kwargs)

        setattr(deadlines, name, delivering_first)
    return services


@pytest.fixture
async def services(db_path: Path, clock: FakeClock) -> AsyncIterator[Services]:
    opened = await Services.open(db_path, clock=clock, rng=random.Random(7))
    yield with_announcements_delivered(opened)
    await opened.close()


async def start_game(services: Services, **settings: Any) -> GameView:
    """Alice (white unless `colour` says otherwise) against Bob, accepted at once."""
    settings.setdefault("colour", "white")
    settings.setdefault("size", 5)
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, **settings
    )
    acceptance = await services.challenges.accept(challenge.id, BOB)
    return acceptance.game


async def play(services: Services, game_id: int, moves: str) -> list[MoveOutcome]:
    """Play space-separated moves, each by the player to move."""
    outcomes = []
    for text in moves.split():
        game = await services.games.get(game_id)
        outcome = await services.games.move(
            game_id, game.player_to_move.id, text, expected_ply=game.ply
        )
        outcomes.append(outcome)
    return outcomes


Starter = Callable[..., Awaitable[GameView]]
Player = Callable[[int, str], Awaitable[list[MoveOutcome]]]


@pytest.fixture
def new_game(services: Services) -> Starter:
    """`await new_game(size=3, ...)`: a game between Alice (white) and Bob."""

    async def make(**settings: Any) -> GameView:
        return await start_game(services, **settings)

    return make


@pytest.fixture
def moves(services: Services) -> Player:
    """`await moves(game_id, "a1 e5 ...")`: each move by the player to move."""

    async def run(game_id: int, text: str) -> list[MoveOutcome]:
        return await play(services, game_id, text)

    return run


@pytest.fixture
def alice() -> PlayerRef:
    return ALICE


@pytest.fixture
def bob() -> PlayerRef:
    return BOB


@pytest.fixture
def carol() -> PlayerRef:
    return CAROL
