"""Draws, undo, resignation, aborts and rematches through the real buttons."""

from __future__ import annotations

from tests.cogs.conftest import decoded_image


def labels(message) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def opened(world, size: int = 5):
    """A game after `a1` by Alice and `e5` by Bob (Alice is white and to move)."""
    thread = await world.start_game(size=size)
    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "e5")
    return thread


async def test_a_draw_offer_accepted_by_the_opponent_ends_the_game(world) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    thread = await opened(world)
    asked = await alice.slash(thread, "tak draw")
    assert asked.ephemeral
    offer = world.last_bot_message(thread)
    assert bob.mention in offer.content and labels(offer) == ["Accept draw", "Decline draw"]

    outsider = await carol.click(offer, label="Accept draw")
    assert outsider.followups[0].content == "You are not playing in game #1."
    own = await alice.click(offer, label="Accept draw")
    assert (
        own.followups[0].content == "You cannot answer your own draw offer: your opponent has to."
    )
    again = await alice.slash(thread, "tak draw")
    assert again.response.content == "You have already offered a draw in game #1."

    await bob.click(offer, label="Accept draw")
    assert labels(world.bot_messages(thread)[-2]) == []  # the offer's buttons are gone
    ending = world.last_bot_message(thread)
    assert "Draw by agreement. (1/2-1/2)" in ending.content
    assert "scores" not in ending.content
    assert labels(ending) == ["Rematch"]
    late = await world.move(alice, thread, "b2")
    assert late.response.content == "Game #1 is over (1/2-1/2)."


async def test_undo_declined_then_accepted(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await opened(world)
    await world.move(alice, thread, "b2")
    await alice.slash(thread, "tak undo")
    request = world.last_bot_message(thread)
    assert "(b2)" in request.content and labels(request) == ["Allow undo", "Refuse undo"]
    await bob.click(request, label="Refuse undo")
    assert "refused the undo" in world.bot_messages(thread)[-1].content
    unchanged = await alice.slash(thread, "game tps")
    assert "ply 3" in unchanged.response.content

    await alice.slash(thread, "tak undo")
    request = world.last_bot_message(thread)
    await bob.click(request, label="Allow undo")
    board = world.last_bot_message(thread)
    assert "**b2** was taken back" in board.content and alice.mention in board.content
    assert (await decoded_image(board)).format == "PNG"
    rewound = await alice.slash(thread, "game tps")
    assert "ply 2" in rewound.response.content
    again = await world.move(alice, thread, "c3")
    assert again.response is None  # the post where they moved says it


async def test_resign_asks_for_confirmation_then_the_opponent_wins(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await opened(world)
    public = len(world.bot_messages(thread))
    asked = await bob.slash(thread, "tak resign")
    assert asked.ephemeral and labels(asked.response.message) == ["Resign"]
    assert len(world.bot_messages(thread)) == public  # nothing public until confirmed
    confirmed = await bob.click(asked.response.message, label="Resign")
    assert confirmed.response.content == "You resigned game #1."
    ending = world.last_bot_message(thread)
    assert "**alice** (white) wins by resignation (1-0)" in ending.content
    assert "alice scores **" in ending.content
    refused = await alice.slash(thread, "tak resign")
    assert refused.response.content == "Game #1 is over (1-0)."


async def test_abort_only_before_both_players_moved(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    aborted = await bob.slash(thread, "tak abort")
    assert aborted.response.content.startswith("Game #1 is aborted: https://discord.com/")
    assert "The game was aborted. (0-0)" in world.last_bot_message(thread).content

    second = await world.start_game(size=5)
    await world.move(alice, second, "a1")
    await world.move(bob, second, "e5")
    late = await alice.slash(second, "tak abort")
    assert late.ephemeral and late.response.content.startswith("Game #2 can no longer be aborted")


async def test_rematch_swaps_colours_and_starts_a_new_thread(world) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    thread = await opened(world)
    await bob.slash(thread, "tak resign")
    confirm = [m for m in thread.history(viewer=bob) if labels(m) == ["Resign"]][-1]
    await bob.click(confirm, label="Resign")
    ending = world.last_bot_message(thread)

    outsider = await carol.click(ending, label="Rematch")
    assert outsider.followups[0].content == "You are not playing in game #1."
    offered = await bob.click(ending, label="Rematch")
    assert "Rematch offered" in offered.followups[0].content
    twice = await alice.click(ending, label="Rematch")
    assert "already waiting for an answer" in twice.followups[0].content

    challenge = world.last_bot_message(world.channel)
    assert challenge.content.startswith("Rematch of game #1!") and "as white" in challenge.content
    await alice.click(challenge, label="Accept")
    new_thread = world.channel.threads[-1]
    assert new_thread.id != thread.id
    start = world.last_bot_message(new_thread)
    assert "Game #2" in start.content and bob.mention in start.content  # bob is white now


async def test_a_two_game_match_goes_on_in_the_same_thread_with_colours_swapped(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=4, games=2)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "d4")
    await bob.slash(thread, "tak resign")
    confirm = [m for m in thread.history(viewer=bob) if labels(m) == ["Resign"]][-1]
    await bob.click(confirm, label="Resign")

    first_ending, second_start = world.bot_messages(thread)[-2:]
    assert "Match score: alice 1 – 0 bob (game 1 of 2; points " in first_ending.content
    assert labels(first_ending) == []  # no rematch while the match goes on
    assert "Match game 2 of 2 (game #2) starts" in second_start.content
    assert bob.mention in second_start.content  # bob has white in game 2
    scores = await alice.slash(thread, "profile scores")
    assert "Match score: alice 1 – 0 bob (game 1 of 2; points " in scores.response.content
