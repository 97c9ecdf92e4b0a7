"""Property tests of the ledger: over random staked games (random antes, bids, moves with their
Tak calls, endings of every kind) and random grants, every balance and pot equals the sum of its
ledger rows, none is ever negative, and a server's coins change only by what was granted."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot import errors
from bot.coins.service import BID_WINDOW
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.coins.test_service import ledger_consistent
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, deliver_everything
from tests.bot.setups import create_challenge

PLAYERS = (ALICE, BOB, CAROL)
ENDINGS = ("resign", "draw", "abort", "timeout")


async def started_wallets(services: Services) -> int:
    row = await services.db.fetchone(
        "SELECT COUNT(*) FROM wallets WHERE guild_id = ? AND started = 1", (GUILD,)
    )
    assert row is not None
    return int(row[0])


class Scenario:
    """Random actions on one server, each followed by the ledger's checks."""

    def __init__(self, services: Services, clock: FakeClock, data: st.DataObject) -> None:
        self.services = services
        self.clock = clock
        self.data = data
        self.starting = 0

    def draw(self, strategy: st.SearchStrategy, label: str):  # type: ignore[no-untyped-def]
        return self.data.draw(strategy, label=label)

    async def step(self) -> None:
        """One action; the server's total must move by exactly what it granted."""
        total = await ledger_consistent(self.services)
        started = await started_wallets(self.services)
        granted = 0
        kind = self.draw(st.sampled_from(("grant", "wallet", "game", "game")), "action")
        try:
            if kind == "grant":
                player = self.draw(st.sampled_from(PLAYERS), "grantee")
                amount = self.draw(st.integers(-30, 30).filter(bool), "amount")
                await self.services.wallets.grant(GUILD, player, amount)
                granted = amount
            elif kind == "wallet":
                player = self.draw(st.sampled_from(PLAYERS), "viewer")
                await self.services.wallets.wallet(GUILD, player, own=True)
            else:
                await self.game()
        except errors.NotEnoughCoins:
            pass  # refused: nothing changed (checked below)
        newly_started = await started_wallets(self.services) - started
        expected = total + granted + newly_started * self.starting
        assert await ledger_consistent(self.services) == expected

    async def game(self) -> None:
        services = self.services
        challenger, acceptor = self.draw(st.permutations(PLAYERS), "pair")[:2]
        ante = self.draw(st.integers(1, 15), "ante")
        challenge = await create_challenge(
            services,
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=challenger,
            opponent=acceptor,
            stakes=True,
            ante=ante,
            size=3,
        )
        stake = (await services.challenges.accept(challenge.id, acceptor)).stake
        assert stake is not None
        game = None
        for player in (challenger, acceptor):
            bid = self.draw(st.none() | st.integers(0, 40), "bid")
            if bid is None:
                continue
            with contextlib.suppress(errors.NotEnoughCoins):  # refused: a missing bid
                game = (await services.wallets.bid(stake.id, player.id, bid)).game
            await ledger_consistent(services)
        if game is None:
            self.clock.advance(BID_WINDOW)
            [game] = (await services.deadlines.run_due()).started_games
        chooser = random.Random(self.draw(st.integers(0, 2**32), "moves"))
        for _ in range(self.draw(st.integers(0, 14), "plies")):
            position = await services.games.position(game.id)
            current = await services.games.get(game.id)
            if not current.is_active:
                return
            move = chooser.choice(position.legal_moves()).ptn()
            try:
                await services.games.move(game.id, current.player_to_move.id, move)
            except errors.MustPayOrResign:
                await services.games.resign(game.id, current.player_to_move.id)
                return
            await ledger_consistent(services)
        await self.end(game.id)

    async def end(self, game_id: int) -> None:
        services = self.services
        game = await services.games.get(game_id)
        if not game.is_active:
            return
        ending = self.draw(st.sampled_from(ENDINGS), "ending")
        player = self.draw(st.sampled_from((game.white, game.black)), "ender")
        if ending == "abort" and game.ply < 2:
            await services.games.abort(game.id, player.id)
        elif ending == "draw":
            await services.games.offer_draw(game.id, player.id)
            await services.games.accept_draw(game.id, game.opponent_of(player.id).id)
        elif ending == "timeout":
            await deliver_everything(services, self.clock)
            self.clock.advance(days=game.setup.days_per_move + 1)
            assert await services.deadlines.time_out(game.id) is not None
        else:
            await services.games.resign(game.id, player.id)


async def run_scenario(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        services = await Services.open(
            Path(folder) / "bredon.sqlite3", clock=clock, rng=random.Random(1)
        )
        try:
            scenario = Scenario(services, clock, data)
            scenario.starting = data.draw(st.integers(0, 40), label="starting balance")
            await services.wallets.configure(
                GUILD, enabled=True, starting_balance=scenario.starting
            )
            for _ in range(data.draw(st.integers(1, 6), label="steps")):
                await scenario.step()
            rows = await services.db.fetchall("SELECT DISTINCT reason FROM ledger")
            for row in rows:  # what the examples covered: --hypothesis-show-statistics
                event(f"ledger has {row['reason']} rows")
        finally:
            await services.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_staked_games_keep_every_balance_equal_to_its_ledger(data: st.DataObject) -> None:
    asyncio.run(run_scenario(data))
