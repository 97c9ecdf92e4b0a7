"""Coins (the University Gambling Rules): wallets, antes, sealed bids, Tak payments and the end
reward, on a real SQLite file, with the ledger checked against the balances after each step."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot import errors
from bot.coins.service import BID_WINDOW, Phase
from bot.games.model import ChallengeStatus
from bot.notifications.outbox import BiddingNews, MovePlayed, _decode
from bot.players.model import PlayerRef
from bot.services import Services
from tak import Color, Position
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, deliver_everything
from tests.bot.setups import create_challenge, open_challenges
from tests.databases import REFUSED_BY_SCHEMA

# A on white calls Tak (ply 7), B pays with a blocking move (8); A calls again (9), so B owes
# nothing; B calls back (10) and A pays with the winning road (11). Checked by the engine below.
TOKEN_GAME = "e5 a1 b1 d5 c1 c5 d1 e1 d2 b5 e2"


async def ledger_consistent(services: Services, guild_id: int = GUILD) -> int:
    """Every balance and pot equals the sum of its ledger rows, none is negative; returns the
    server's total (wallets plus pots)."""
    db = services.db
    for row in await db.fetchall("SELECT * FROM wallets WHERE guild_id = ?", (guild_id,)):
        summed = await db.fetchone(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? AND player_id = ?",
            (guild_id, row["player_id"]),
        )
        assert summed is not None and row["balance"] == summed[0] >= 0
    for row in await db.fetchall("SELECT * FROM stakes WHERE guild_id = ?", (guild_id,)):
        summed = await db.fetchone(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE stake_id = ? AND player_id IS NULL",
            (row["id"],),
        )
        assert summed is not None and row["pot"] == summed[0] >= 0
    total = await db.fetchone(
        "SELECT (SELECT COALESCE(SUM(balance), 0) FROM wallets WHERE guild_id = ?) "
        "+ (SELECT COALESCE(SUM(pot), 0) FROM stakes WHERE guild_id = ?)",
        (guild_id, guild_id),
    )
    grants = await db.fetchone(
        "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? "
        "AND reason IN ('start', 'grant')",
        (guild_id,),
    )
    assert total is not None and grants is not None and total[0] == grants[0]
    return int(total[0])


async def balance(services: Services, player: PlayerRef) -> int:
    return (await services.wallets.wallet(GUILD, player, own=False)).balance


async def staked_game(services: Services, *, alice_bid: int = 5, bob_bid: int = 3, **options):
    """Gambling on, Alice challenges Bob for stakes (5x5), Bob accepts, both bid."""
    await services.wallets.configure(GUILD, enabled=True)
    options.setdefault("size", 5)
    challenge = await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        stakes=True,
        **options,
    )
    accepted = await services.challenges.accept(challenge.id, BOB)
    assert accepted.game is None and accepted.stake is not None
    await services.wallets.bid(accepted.stake.id, ALICE.id, alice_bid)
    done = await services.wallets.bid(accepted.stake.id, BOB.id, bob_bid)
    assert done.game is not None
    return done.game, done.stake


async def play(services: Services, game_id: int, moves: str) -> list:
    outcomes = []
    for text in moves.split():
        game = await services.games.get(game_id)
        outcomes.append(await services.games.move(game_id, game.player_to_move.id, text))
    return outcomes


async def test_gambling_is_off_until_a_server_turns_it_on(services: Services) -> None:
    with pytest.raises(errors.GamblingOff):
        await create_challenge(
            services,
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            stakes=True,
        )
    wallet = await services.wallets.wallet(GUILD, ALICE, own=True)
    assert (wallet.balance, wallet.recent) == (0, [])  # no starting coins while it is off
    await services.wallets.configure(GUILD, enabled=True, starting_balance=50)
    wallet = await services.wallets.wallet(GUILD, ALICE, own=True)
    assert wallet.balance == 50 and [r.reason for r in wallet.recent] == ["start"]
    again = await services.wallets.wallet(GUILD, ALICE, own=True)
    assert again.balance == 50  # given once
    other = await services.wallets.wallet(GUILD, CAROL, own=False)
    assert not other.exists and other.balance == 0  # looking at someone opens nothing
    assert await ledger_consistent(services) == 50


async def test_a_challenge_for_stakes_is_refused_for_what_the_rules_do_not_allow(
    services: Services,
) -> None:
    await services.wallets.configure(GUILD, enabled=True, starting_balance=8)
    base = dict(guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, stakes=True)
    with pytest.raises(errors.InvalidSetting, match="leave the colour out"):
        await create_challenge(services, **base, colour="white")
    with pytest.raises(errors.InvalidSetting, match="single game"):
        await create_challenge(services, **base, games=3)
    with pytest.raises(errors.NotEnoughCoins, match="You have 8 coins: not enough for the ante"):
        await create_challenge(services, **base)  # the default ante is 10
    made = await create_challenge(services, **base, ante=8)
    assert made.ante == 8
    assert await open_challenges(services, guild_id=GUILD) == [made]


async def test_acceptance_needs_both_antes_and_puts_them_in_the_pot(services: Services) -> None:
    await services.wallets.configure(GUILD, enabled=True, starting_balance=30)
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, stakes=True, ante=20
    )
    await services.wallets.grant(GUILD, ALICE, -15)  # Alice is down to 15
    with pytest.raises(errors.NotEnoughCoins, match="alice has 15 coins"):
        await services.challenges.accept(challenge.id, BOB)
    assert (await services.challenges.get(challenge.id)).is_open  # nothing changed
    await services.wallets.grant(GUILD, ALICE, 5)
    accepted = await services.challenges.accept(challenge.id, BOB)
    assert accepted.challenge.status is ChallengeStatus.ACCEPTED
    assert accepted.challenge.game_id is None
    stake = accepted.stake
    assert stake is not None and stake.pot == 40 and stake.phase is Phase.BIDDING
    assert (await balance(services, ALICE), await balance(services, BOB)) == (0, 10)
    assert await ledger_consistent(services) == 30 + 30 - 15 + 5


async def test_the_high_bidder_goes_first_and_pays_the_bid(services: Services) -> None:
    game, stake = await staked_game(services, alice_bid=4, bob_bid=7)
    assert game.white == BOB and game.black == ALICE
    assert stake.pot == 27 and stake.first_id == BOB.id and stake.first_paid == 7
    assert (await balance(services, ALICE), await balance(services, BOB)) == (90, 83)
    challenge = await services.challenges.get(stake.challenge_id)
    assert challenge.game_id == game.id
    kinds = await deliver_everything(services, services.clock)  # type: ignore[arg-type]
    assert kinds[-3:] == [
        f"bidding:challenge:{challenge.id}",
        f"bidding:challenge:{challenge.id}",
        f"game_start:game:{game.id}",
    ]
    await ledger_consistent(services)


async def test_a_bid_above_the_balance_or_out_of_time_is_refused(services: Services, clock):
    await services.wallets.configure(GUILD, enabled=True)
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, stakes=True
    )
    stake = (await services.challenges.accept(challenge.id, BOB)).stake
    assert stake is not None
    with pytest.raises(errors.NotEnoughCoins, match="You have 90 coins: not enough for that bid"):
        await services.wallets.bid(stake.id, ALICE.id, 91)
    with pytest.raises(errors.NotYourBidding):
        await services.wallets.bid(stake.id, CAROL.id, 1)
    first = await services.wallets.bid(stake.id, ALICE.id, 90)
    assert first.game is None and first.stake.challenger_bid == 90
    changed = await services.wallets.bid(stake.id, ALICE.id, 2)  # a sealed bid may change
    assert changed.stake.challenger_bid == 2
    clock.advance(BID_WINDOW)
    with pytest.raises(errors.NotBidding, match="deadline has passed"):
        await services.wallets.bid(stake.id, BOB.id, 1)


async def test_equal_bids_go_to_the_coin_flipped_at_acceptance(services: Services) -> None:
    game, stake = await staked_game(services, alice_bid=6, bob_bid=6)
    assert stake.first_id == stake.tie_to == game.white.id
    assert stake.pot == 26 and stake.first_paid == 6


async def test_a_bid_over_a_balance_that_fell_counts_as_the_balance_and_shows_so(
    services: Services,
) -> None:
    """Alice bids 20, then loses coins (taken back) before Bob's bid of 10 closes the bidding:
    her bid counts as the 10 she has, equal to Bob's, so the coin flipped at acceptance decides,
    and the stored (revealed) bids say 10 and 10."""
    await services.wallets.configure(GUILD, enabled=True)
    challenge = await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        stakes=True,
        size=5,
    )
    stake = (await services.challenges.accept(challenge.id, BOB)).stake
    assert stake is not None
    await services.wallets.bid(stake.id, ALICE.id, 20)
    await services.wallets.grant(GUILD, ALICE, -(await balance(services, ALICE) - 10))
    done = await services.wallets.bid(stake.id, BOB.id, 10)
    assert done.game is not None
    assert (done.stake.challenger_bid, done.stake.acceptor_bid) == (10, 10)
    assert done.stake.first_id == done.stake.tie_to and done.stake.first_paid == 10
    await ledger_consistent(services)


async def test_a_missing_bid_counts_as_zero_when_the_deadline_closes_bidding(
    services: Services, clock, db_path: Path
) -> None:
    await services.wallets.configure(GUILD, enabled=True)
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, stakes=True
    )
    stake = (await services.challenges.accept(challenge.id, BOB)).stake
    assert stake is not None
    await services.wallets.bid(stake.id, BOB.id, 1)
    assert await services.deadlines.next_due_at() == stake.bids_due_at
    clock.advance(BID_WINDOW - timedelta(seconds=1))
    assert (await services.deadlines.run_due()).started_games == []
    clock.advance(seconds=1)
    report = await services.deadlines.run_due()
    [game] = report.started_games
    assert game.white == BOB  # 1 beats a missing bid
    closed = await services.wallets.stake(stake.id)
    assert (closed.phase, closed.challenger_bid, closed.pot) == (Phase.PLAYING, None, 21)
    assert (await services.deadlines.run_due()).started_games == []  # closed once


async def test_tak_token_sequences_and_the_end_reward(services: Services) -> None:
    """The rulebook's token: A calls, B pays; A calls again, B does not pay; B calls, A pays.
    A then wins by road: the pot plus the pieces left in A's reserve, paid by B."""
    game, stake = await staked_game(services, alice_bid=5, bob_bid=3)
    a, b = ALICE.id, BOB.id
    assert game.white.id == a
    before = {a: await balance(services, ALICE), b: await balance(services, BOB)}
    outcomes = await play(services, game.id, TOKEN_GAME)
    tak_by_ply = [o.tak for o in outcomes]
    engine = Position(5)
    for ply, text in enumerate(TOKEN_GAME.split()):
        engine.play(text)
        expected = engine.result is None and engine.has_road_threat(engine.to_move.other)
        assert tak_by_ply[ply] == expected
    assert [i + 1 for i, tak in enumerate(tak_by_ply) if tak] == [7, 9, 10]
    played = await announced_moves(services, game.id)
    assert (played[7].owes_id, played[7].token_id, played[7].paid) == (b, a, 0)
    assert (played[8].paid, played[8].owes_id, played[8].pot) == (2, None, 27)  # B pays
    assert (played[9].owes_id, played[9].token_id) == (None, a)  # A again: B owes nothing
    assert (played[10].paid, played[10].owes_id, played[10].token_id) == (0, a, b)  # B calls
    ending = outcomes[-1].ending
    assert ending is not None and ending.game.winner == ALICE
    reserve = engine.reserves(Color.WHITE).total
    assert reserve == 16  # 21 stones and a capstone, less a1 (placed by B), b1, c1, d1, d2, e2
    pot = 10 + 10 + 5 + 2 + 2  # antes, A's bid, B's payment, A's payment with the road
    after = {a: await balance(services, ALICE), b: await balance(services, BOB)}
    assert after[a] == before[a] - 2 + pot + reserve
    assert after[b] == before[b] - 2 - reserve
    settled = await services.wallets.stake(stake.id)
    assert (settled.pot, settled.phase) == (0, Phase.SETTLED)
    rows = await services.wallets.game_rows(stake.id, ("pot", "bonus"))
    assert [(r.player_id, r.amount, r.reason) for r in rows] == [
        (a, pot, "pot"),
        (a, reserve, "bonus"),
    ]
    assert await ledger_consistent(services) == 200


async def test_a_player_who_cannot_pay_must_resign(services: Services) -> None:
    game, stake = await staked_game(services, alice_bid=5, bob_bid=3)
    await services.wallets.grant(GUILD, BOB, -89)  # Bob keeps 1 coin after his ante
    await play(services, game.id, " ".join(TOKEN_GAME.split()[:7]))  # A calls Tak
    with pytest.raises(errors.MustPayOrResign, match="you have 1: you cannot move"):
        await services.games.move(game.id, BOB.id, "e1")
    assert (await services.games.get(game.id)).ply == 7  # refused: nothing changed
    ending = await services.games.resign(game.id, BOB.id)
    assert ending.game.winner == ALICE
    # The bonus would be the 18 pieces A has left, but Bob has only 1 coin left.
    rows = await services.wallets.game_rows(stake.id, ("pot", "bonus"))
    assert [(r.amount, r.reason) for r in rows] == [(25, "pot"), (1, "bonus")]
    assert await balance(services, BOB) == 0
    await ledger_consistent(services)


async def test_a_draw_or_an_abort_gives_back_what_each_put_in(services: Services) -> None:
    game, _ = await staked_game(services, alice_bid=5, bob_bid=3)
    await services.games.abort(game.id, BOB.id)
    assert (await balance(services, ALICE), await balance(services, BOB)) == (100, 100)
    game, _ = await staked_game(services, alice_bid=0, bob_bid=4)  # Bob first (white)
    await play(services, game.id, "e1 a5 b5 a1 c5 b1 d5")  # Bob calls Tak: Alice owes
    await play(services, game.id, "c1")  # Alice pays
    await services.games.offer_draw(game.id, BOB.id)
    await services.games.accept_draw(game.id, ALICE.id)
    assert (await balance(services, ALICE), await balance(services, BOB)) == (100, 100)
    assert await ledger_consistent(services) == 200


async def test_staked_games_take_no_moves_back(services: Services) -> None:
    game, _ = await staked_game(services)
    await play(services, game.id, "a1")
    with pytest.raises(errors.NoUndoWithStakes):
        await services.games.request_undo(game.id, ALICE.id)


async def test_a_rematch_is_for_the_same_ante_while_gambling_is_on(services: Services) -> None:
    game, _ = await staked_game(services, ante=7)
    await services.games.resign(game.id, BOB.id)
    rematch = await services.challenges.rematch(game.id, BOB)
    assert (rematch.ante, rematch.colour.value) == (7, "random")
    await services.challenges.cancel(rematch.id, BOB.id)
    await services.wallets.configure(GUILD, enabled=False)
    plain = await services.challenges.rematch(game.id, BOB)
    assert (plain.ante, plain.colour.value) == (None, "white")  # colours swapped, no coins


async def test_the_database_refuses_an_overdraft_and_edits_of_the_ledger(
    services: Services,
) -> None:
    await services.wallets.configure(GUILD, enabled=True, starting_balance=5)
    await services.wallets.wallet(GUILD, ALICE, own=True)
    with pytest.raises(REFUSED_BY_SCHEMA, match=r"(?i)check"):
        async with services.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO ledger (guild_id, player_id, amount, reason, created_at) "
                "VALUES (?, ?, -6, 'grant', '2024')",
                (GUILD, ALICE.id),
            )
    for sql in (
        "UPDATE ledger SET amount = 500",
        "DELETE FROM ledger",
        "UPDATE wallets SET balance = 500",
    ):
        with pytest.raises(REFUSED_BY_SCHEMA):
            await services.db.write_one(sql)
    with pytest.raises(errors.NotEnoughCoins):
        await services.wallets.grant(GUILD, ALICE, -6)
    assert await ledger_consistent(services) == 5


async def test_a_restart_in_the_middle_loses_nothing(db_path: Path, clock) -> None:
    """Bidding, then a restart; the game, then a restart with a Tak payment owed: the reopened
    store goes on exactly where the first left off."""
    first = await Services.open(db_path, clock=clock, rng=random.Random(3))
    await first.wallets.configure(GUILD, enabled=True)
    challenge = await create_challenge(
        first,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        stakes=True,
        size=5,
    )
    stake = (await first.challenges.accept(challenge.id, BOB)).stake
    assert stake is not None
    await first.wallets.bid(stake.id, ALICE.id, 5)
    await first.close()

    second = await Services.open(db_path, clock=clock)
    game = (await second.wallets.bid(stake.id, BOB.id, 3)).game
    assert game is not None and game.white == ALICE
    await play(second, game.id, " ".join(TOKEN_GAME.split()[:7]))
    await second.close()

    third = await Services.open(db_path, clock=clock)
    owing = await third.wallets.stake_of_game(game.id)
    assert owing is not None and (owing.owes_id, owing.token_id, owing.pot) == (
        BOB.id,
        ALICE.id,
        25,
    )
    await play(third, game.id, " ".join(TOKEN_GAME.split()[7:]))
    alice_after = 100 - 10 - 5 - 2 + 29 + 16  # ante, bid, a Tak payment; the pot and bonus
    assert (await balance(third, ALICE), await balance(third, BOB)) == (
        alice_after,
        200 - alice_after,
    )
    assert await ledger_consistent(third) == 200
    await third.close()


async def announced_moves(services: Services, game_id: int) -> dict[int, MovePlayed]:
    """The move announcements written for the game, by ply, decoded as the courier does."""
    rows = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE stream = ? AND kind = 'move' ORDER BY id",
        (f"game:{game_id}",),
    )
    decoded = [_decode("move", row["payload"]) for row in rows]
    return {p.ply: p for p in decoded if isinstance(p, MovePlayed)}


def test_an_old_move_payload_without_coins_still_loads() -> None:
    old = '{"game_id": 3, "ply": 4, "move": "a1", "tps": "x", "tak": false, "lapsed": []}'
    played = _decode("move", old)
    assert isinstance(played, MovePlayed) and played.pot is None and played.paid == 0
    news = _decode("bidding", '{"challenge_id": 1, "stake_id": 2}')
    assert news == BiddingNews(1, 2)
