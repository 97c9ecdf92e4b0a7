"""A game for coins through Discord: a manager turns gambling on, a challenge for stakes, sealed
bids through the Bid button (one of them after a restart), Tak calls with a payment, one that
costs nothing and one answered by resigning, and the pot and reserve bonus paid to the winner."""

from __future__ import annotations

import discord

from tests.cogs.conftest import World

# As in tests/bot/coins/test_service.py: alice (white) calls Tak at ply 7, bob pays with ply 8;
# alice calls again at ply 9 (free); bob calls back at ply 10.
MOVES = ["e5", "a1", "b1", "d5", "c1", "c5", "d1", "e1", "d2", "b5"]


def labels(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def manager(world: World):  # type: ignore[no-untyped-def]
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[role])


async def test_a_game_for_coins_from_the_challenge_to_the_pot(world: World, new_bot) -> None:
    env, alice, bob, carol = world.env, world.alice, world.bob, world.carol
    off = await alice.slash(world.channel, "tak challenge", opponent=bob, stakes=True)
    assert "Playing for coins is off in this server" in off.response.content
    boss = await manager(world)
    done = await boss.slash(world.channel, "bredon gambling", enabled=True, starting=100)
    assert "Playing for coins: **on**" in done.response.content

    message = await world.challenge(opponent=bob, stakes=True, size=5)
    assert "for coins: an ante of **10** each" in message.content
    await bob.click(message, label="Accept")
    assert "bidding for the first move" in world.bot_messages(world.channel)[0].content
    bidding = world.last_bot_message(world.channel)
    assert labels(bidding) == ["Bid"] and bob.mention in bidding.content
    assert "The pot holds **20** coins" in bidding.content

    outsider = await carol.click(bidding, label="Bid")
    assert outsider.response.content == "Only the two players of this game bid for its first move."
    form = await alice.click(bidding, label="Bid")
    assert form.modal is not None and "Coins, 0 to 90" in str(form.modal)
    words = await alice.submit_modal(form, {"bid": "five"})
    assert words.response.content == "A bid is a whole number of coins, e.g. 5 (or 0)."
    form = await alice.click(bidding, label="Bid")
    too_much = await alice.submit_modal(form, {"bid": "500"})
    assert "You have 90 coins: not enough for that bid (500)." in too_much.response.content
    public = [m.content for m in world.bot_messages(world.channel)]
    form = await alice.click(bidding, label="Bid")
    sealed = await alice.submit_modal(form, {"bid": "5"})
    assert sealed.ephemeral and "Your sealed bid of **5** coins is in" in sealed.response.content
    assert [m.content for m in world.bot_messages(world.channel)] == public  # nothing shown

    await env.restart_bot(new_bot())  # nothing is lost: bob answers on the old button
    form = await bob.click(bidding, label="Bid")
    started = await bob.submit_modal(form, {"bid": "3"})
    assert "Both bids are in: game #1 starts" in started.response.content
    revealed = world.bot_messages(world.channel)[1]
    assert "Bids revealed: alice bid 5, bob bid 3. **alice** goes first" in revealed.content
    assert labels(revealed) == []
    thread = world.channel.threads[-1]
    start = world.bot_messages(thread)[0].content
    assert "**alice** (white) vs **bob** (black)" in start and "it holds **25** coins" in start

    for ply, move in enumerate(MOVES, start=1):
        player = alice if ply % 2 else bob
        played = await world.move(player, thread, move)
        assert played.response is None  # the post where they moved says it
        shown = world.last_bot_message(thread).content
        if ply == 7:
            assert "**Tak!**" in shown
            assert f"{bob.mention} owes **2** coins to the pot" in shown
            assert "Pot: **25** coins. Tak token: alice." in shown
        if ply == 8:
            assert "bob paid **2** coins for the Tak. Pot: **27** coins" in shown
        if ply == 9:
            assert "No payment for this Tak: bob paid for alice's last one." in shown
        if ply == 10:
            assert f"{alice.mention} owes **2** coins" in shown and "Tak token: bob." in shown

    # Alice will not pay: she resigns instead.
    asked = await alice.slash(thread, "tak resign")
    await alice.click(asked.response.message, label="Resign")
    ending = world.last_bot_message(thread).content
    # The pot: two antes, alice's bid and bob's payment; the bonus: bob's 16 stones and 1
    # capstone left (21 + 1, less e5 placed by alice, d5, c5, e1 and b5).
    assert "bob takes the pot of **27** coins and a bonus of **17** coins from alice" in ending

    wallet = await bob.slash(world.channel, "coins wallet")
    text = wallet.response.content
    assert "**bob** has **132** coins" in text  # 100 - 10 - 2 + 27 + 17
    assert "+17 reserve bonus, game #1" in text and "-10 ante, game #1" in text
    theirs = await bob.slash(world.channel, "coins wallet", user=alice)
    assert "**alice** has **68** coins" in theirs.response.content  # 100 - 10 - 5 - 17
    board = await carol.slash(world.channel, "coins leaderboard")
    [embed] = board.response.embeds
    assert embed.description.splitlines() == ["1. **bob** 132", "2. **alice** 68"]


async def test_grants_are_for_managers_and_never_overdraw(world: World) -> None:
    boss = await manager(world)
    await boss.slash(world.channel, "bredon gambling", enabled=True, starting=10)
    given = await boss.slash(world.channel, "bredon grant", user=world.alice, amount=40)
    assert f"Granted **40** coins to {world.alice.mention}: they now have **50** coins" in (
        given.response.content
    )
    refused = await boss.slash(world.channel, "bredon grant", user=world.alice, amount=-51)
    assert "alice has 50 coins: not enough for taking back (51)." in refused.response.content
    mine = await world.alice.slash(world.channel, "coins wallet")
    assert "+40 granted by the server" in mine.response.content
    assert "+10 starting coins" in mine.response.content
