"""`/tak games` pages (bot.games.lookup): over random histories of games started, moved,
ended and listed, the pages of a listing, read at any later time, hold exactly the games that
were in progress (or over) at the listing's moment, each once, in order, as a brute-force
replay of the history says; and they are the same pages whenever they are read."""

from __future__ import annotations

import asyncio
import random
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.lookup import Listing, games_page
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.setups import create_challenge

OTHER_GUILD = 7
PAGE = 2  # small pages, so that a few games fill several
PAIRS = [(ALICE, BOB), (BOB, ALICE), (CAROL, ALICE), (BOB, CAROL)]  # white, black


@dataclass
class Model:
    """What happened, as the test saw it: each game's start and end, and the listings made."""

    started: dict[int, datetime] = field(default_factory=dict)
    ended: dict[int, datetime] = field(default_factory=dict)
    alices: set[int] = field(default_factory=set)  # in the server listed, with alice
    listings: list[datetime] = field(default_factory=list)

    def expected(self, listing: Listing, moment: datetime) -> list[int]:
        """Alice's games as they stood at `moment`, in the listing's order, by brute force."""
        if listing is Listing.ACTIVE:
            held = [
                g
                for g in self.alices
                if self.started[g] <= moment and (g not in self.ended or self.ended[g] > moment)
            ]
            return sorted(held)
        over = [g for g in self.alices if g in self.ended and self.ended[g] <= moment]
        return sorted(over, key=lambda g: (self.ended[g], g), reverse=True)


async def read_all(services: Services, listing: Listing, moment: datetime) -> list[list[int]]:
    pages = []
    number = 0
    while True:
        page = await games_page(
            services.db,
            player_id=ALICE.id,
            guild_id=GUILD,
            listing=listing,
            as_of=moment,
            number=number,
            page_size=PAGE,
        )
        assert page.number == number and page.as_of == moment
        pages.append([g.id for g in page.games])
        assert page.has_previous == (number > 0)
        if not page.has_next:
            assert page.pages == number + 1
            assert page.total == sum(map(len, pages))
            return pages
        assert len(page.games) == PAGE
        number += 1


async def run(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        path = Path(folder) / "bredon.sqlite3"
        services = await Services.open(path, clock=clock, rng=random.Random(3))
        model = Model()
        try:
            for _ in range(data.draw(st.integers(1, 30), label="steps")):
                action = data.draw(st.sampled_from(["start", "move", "end", "list"]))
                active = sorted(set(model.started) - set(model.ended))
                if action == "start":
                    white, black = data.draw(st.sampled_from(PAIRS))
                    guild = data.draw(st.sampled_from([GUILD, OTHER_GUILD]))
                    challenge = await create_challenge(
                        services,
                        guild_id=guild,
                        channel_id=CHANNEL,
                        challenger=white,
                        opponent=black,
                        size=3,
                        colour="white",
                    )
                    game = (await services.challenges.accept(challenge.id, black)).game
                    model.started[game.id] = clock.now()
                    if guild == GUILD and ALICE.id in (white.id, black.id):
                        model.alices.add(game.id)
                elif action == "move" and active:
                    game = await services.games.get(data.draw(st.sampled_from(active)))
                    legal = await services.games.legal_moves(game.id)
                    played = await services.games.move(
                        game.id, game.player_to_move.id, data.draw(st.sampled_from(legal))
                    )
                    if played.ending is not None:
                        model.ended[game.id] = clock.now()
                elif action == "end" and active:
                    game = await services.games.get(data.draw(st.sampled_from(active)))
                    if game.ply < 2 and data.draw(st.booleans()):
                        await services.games.abort(game.id, game.white.id)
                    else:
                        await services.games.resign(game.id, game.white.id)
                    model.ended[game.id] = clock.now()
                elif action == "list":
                    model.listings.append(clock.now())
                clock.advance(seconds=data.draw(st.integers(0, 2)))
            model.listings.append(clock.now())
            for moment in model.listings:
                for listing in Listing:
                    pages = await read_all(services, listing, moment)
                    assert [g for page in pages for g in page] == model.expected(listing, moment)
                    assert await read_all(services, listing, moment) == pages
        finally:
            await services.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_pages_hold_each_game_of_the_listing_moment_once_in_order(data: st.DataObject) -> None:
    asyncio.run(run(data))
