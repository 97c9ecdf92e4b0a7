"""The right game, the right position, and nothing anyone types can hurt: the game-resolution
rule, moves tied to the position they were chosen for, the Move button, input and names that are
long, invisible, reversed or full of mentions, and the limits on what one user can open."""

from __future__ import annotations

import dataclasses

import pytest
import simcord
from simcord.backend.errors import OptionError

from bot.play.challenges import MAX_OPEN_CHALLENGES
from bot.players.model import PlayerRef
from tests.bot.setups import create_challenge
from tests.cogs.commands.test_tournament import WHITE_ROAD, Club
from tests.cogs.conftest import World, allow_command


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


async def finished_games_elsewhere(world: World, count: int) -> None:
    """`count` games between two other members, started and resigned through the services."""
    services = world.env.bot.services
    dan, eve = PlayerRef(901, "dan"), PlayerRef(902, "eve")
    for _ in range(count):
        challenge = await create_challenge(
            services,
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            challenger=dan,
            opponent=eve,
        )
        accepted = await services.challenges.accept(challenge.id, eve)
        await services.games.resign(accepted.game.id, eve.id)


async def test_a_move_goes_to_the_callers_own_game(world: World) -> None:
    bob, carol = world.bob, world.carol
    other = world.guild.create_text_channel("other")
    await world.env.settle()
    theirs = await world.start_game(size=5)  # alice and bob, game 1, in #tak
    made = await carol.slash(other, "tak challenge", opponent=bob, color="white", size=5)
    assert "is up" in made.response.content
    await bob.click(world.last_bot_message(other), label="Accept")
    mine = other.threads[-1]

    played = await world.move(carol, theirs, "a1")  # in alice and bob's thread
    assert "You played **a1** in game #2" in played.response.content
    assert ". a1**" in world.last_bot_message(mine).content
    assert (await world.env.bot.services.games.get(1)).ply == 0
    looked = await carol.slash(theirs, "game tps")  # looking: the thread's own game
    assert looked.response.content.startswith("Game #1, ply 0")


async def test_without_a_game_named_only_a_move_or_a_turn_bound_request_picks_one(
    world: World,
) -> None:
    """Alice has two games in #tak (threads off): #1 awaits her move, in #2 she has just moved.
    What only fits one of them goes there; anything else asks which game instead of guessing."""
    alice, bob, carol = world.alice, world.bob, world.carol
    games = world.env.bot.services.games
    guilds = world.env.bot.services.guilds
    await guilds.save(dataclasses.replace(await guilds.get(world.guild.id), use_threads=False))
    for opponent in (carol, bob):
        challenge = await world.challenge(opponent=opponent, size=5, color="white")
        await opponent.click(challenge, label="Accept")
    await world.move(alice, world.channel, "a1", game=2)

    for command in ("tak abort", "tak draw", "clock pause", "tak resign"):
        asked = await alice.slash(world.channel, command)
        assert asked.response.content == (
            "Which game? Name it with the `game` option: #1 vs carol, #2 vs bob."
        ), command
    assert [(await games.get(n)).status for n in (1, 2)] == ["active", "active"]
    for game in (await games.get(1), await games.get(2)):
        assert (game.draw_offer_by, game.pause_offer_by) == (None, None)

    undo = await alice.slash(world.channel, "tak undo")  # only #2 has a move of hers to undo
    assert "Asked your opponent" in undo.response.content
    assert "(a1)" in world.last_bot_message(world.channel).content
    more = await alice.slash(world.channel, "clock moretime")  # only bob is waiting on her
    assert more.response.content.startswith("You gave bob 1d more")
    played = await world.move(alice, world.channel, "e5")  # only #1 awaits her move
    assert played.response is None  # game #1's board, posted in this channel, says it
    assert [(await games.get(n)).ply for n in (1, 2)] == [1, 1]


async def test_a_finished_games_thread_still_names_it(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=3, komi=0)
    for ply, text in enumerate(WHITE_ROAD.split()):
        await world.move((alice, bob)[ply % 2], thread, text)
    await finished_games_elsewhere(world, 30)
    looked = await bob.slash(thread, "game tps")
    assert looked.response.content.startswith("Game #1, ply 5")


async def test_other_servers_games_do_not_exist(world: World) -> None:
    await world.start_game(size=5)
    elsewhere = world.env.create_guild("Elsewhere")
    stranger = elsewhere.add_member(world.env.create_user("stranger"))
    lobby = elsewhere.create_text_channel("lobby")
    await world.env.settle()
    for command in ("tak board", "game tps", "game ptn", "game replay"):
        refused = await stranger.slash(lobby, command, game=1)
        assert refused.ephemeral and refused.response.content == "There is no game #1."


async def test_a_re_sent_winning_move_is_refused_not_played_in_the_next_game(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=3, komi=0, games=2)
    *opening, winning = WHITE_ROAD.split()
    for ply, text in enumerate(opening):
        await world.move((alice, bob)[ply % 2], thread, text)
    [suggested] = await alice.autocomplete(thread, "tak move", "ptn", winning)
    assert suggested["name"] == winning and suggested["value"].startswith(f"{winning}@1.4.")
    won = await world.move(alice, thread, suggested["value"])
    assert won.response is None  # the ending posted in the thread says it
    again = await world.move(alice, thread, suggested["value"])  # the client re-sends it
    assert again.response.content == (
        f"You had already played **{winning}** in game #1: that was the same move sent again, "
        "so nothing more was played."
    )
    assert (await world.env.bot.services.games.get(2)).ply == 0


async def test_a_suggestion_for_an_older_position_is_refused(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    [stale] = await bob.autocomplete(thread, "tak move", "ptn", "e5")
    await alice.slash(thread, "tak undo")  # alice takes a1 back...
    await bob.click(world.last_bot_message(thread), label="Allow undo")
    await world.move(alice, thread, "b2")  # ...and plays b2: ply 1 again, another position
    refused = await world.move(bob, thread, stale["value"])
    assert "The position has changed in game #1" in refused.response.content
    assert (await world.env.bot.services.games.get(1)).ply == 1


async def test_no_suggestions_for_someone_outside_the_game(world: World) -> None:
    thread = await world.start_game(size=5)
    assert await world.carol.autocomplete(thread, "tak move", "ptn", "") == []


async def test_the_move_button_opens_a_picker_and_a_form_for_the_board_shown(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    board = world.last_bot_message(thread)
    refused = await bob.click(board, label="Move")  # not bob's turn
    assert refused.response.content == "It is not your turn in game #1."
    picker = (await alice.click(board, label="Move")).response
    shown = await alice.click(picker, label="Type PTN")
    assert shown.modal is not None and "game #1" in shown.modal["title"]
    played = await alice.submit_modal(shown, {"move": "ａ１"})  # full-width, from a phone
    assert "You played **a1** in game #1" in played.response.content
    [first] = [m for m in world.bot_messages(thread) if m.id == board.id]
    assert first.components == []  # a board one ply ago has no Move button left
    current = world.last_bot_message(thread)
    form = await bob.click((await bob.click(current, label="Move")).response, label="Type PTN")
    answered = await bob.submit_modal(form, {"move": " e5’ "})  # curly quote, stray spaces
    assert "You played **e5** in game #1" in answered.response.content


async def test_long_odd_and_reversed_input_gets_a_short_plain_refusal(world: World) -> None:
    alice = world.alice
    thread = await world.start_game(size=5)
    too_big = f"a1@{10**19 - 1}.1.0000abcd"  # a suggestion, its game past SQLite's integers
    for typed in ("a" * 1500, "\u202ezz9\u202c and more", "", "   ", too_big):
        refused = await world.move(alice, thread, typed)
        text = refused.response.content
        assert refused.ephemeral and 0 < len(text) <= 2000
        assert "\u202e" not in text and "something went wrong" not in text
        assert not text.startswith(":")
    [once] = [(await world.move(alice, thread, "q9")).response.content]
    assert once.count("q9") == 1
    await allow_command(world.env, world.guild, "organize", world.alice)
    with pytest.raises(OptionError):
        await world.alice.slash(world.channel, "organize create", name="x" * 1960)


async def test_names_and_titles_never_ping(club: Club) -> None:
    world, env = club.world, club.env
    role = world.guild.create_role("Everyone-ish")
    mallory = world.guild.add_member(
        env.create_user("mallory", global_name=f"<@{world.bob.id}> @everyone")
    )
    created = await club.create(name=f"@everyone <@&{role.id}> cup", komi=0)
    assert created.ephemeral
    for player in (mallory, world.carol):
        await player.slash(club.channel, "tournament join")
    await club.olga.slash(club.channel, "organize start")
    for message in club.channel_posts() + [
        m for thread in club.channel.threads for m in world.bot_messages(thread)
    ]:
        assert not message.mention_everyone, message.content
        assert message.role_mentions == [], message.content
        assert world.bob.id not in {user.id for user in message.mentions}, message.content


async def test_one_user_cannot_flood_a_channel_with_challenges(world: World) -> None:
    for _ in range(MAX_OPEN_CHALLENGES):
        await world.challenge()
    refused = await world.alice.slash(world.channel, "tak challenge")
    assert refused.response.content.startswith(
        f"You already have {MAX_OPEN_CHALLENGES} open challenges"
    )
    assert len(world.bot_messages(world.channel)) == MAX_OPEN_CHALLENGES


async def test_a_lapsed_offer_loses_its_buttons(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5)
    await world.move(alice, thread, "a1")
    await alice.slash(thread, "tak draw")
    offer = world.last_bot_message(thread)
    await world.move(bob, thread, "e5")  # a move cancels the offer, and takes its buttons away
    lapsed = next(m for m in world.bot_messages(thread) if m.id == offer.id)
    assert "This has lapsed" in lapsed.content and lapsed.components == []

    await bob.slash(thread, "tak undo")  # bob asks to take back e5...
    request = world.last_bot_message(thread)
    await world.env.bot.services.games.decline_undo(1, alice.id)  # ...answered elsewhere
    pressed = await alice.click(request, label="Allow undo")  # a press on the stale buttons
    assert "has not asked to undo" in pressed.followups[0].content
    stale = next(m for m in world.bot_messages(thread) if m.id == request.id)
    assert "This has lapsed" in stale.content and stale.components == []


async def test_the_player_to_move_cannot_ask_to_take_back_the_opponents_move(
    world: World,
) -> None:
    thread = await world.start_game(size=5)
    await world.move(world.alice, thread, "a1")
    refused = await world.bob.slash(thread, "tak undo")
    assert refused.response.content == (
        "Only the player who made the last move in game #1 can ask to take it back."
    )


async def scores_in(world: World, place: simcord.ChannelHandle) -> str:
    return (await world.alice.slash(place, "profile scores")).response.content


async def test_scores_in_a_finished_matchs_thread_show_that_match(world: World) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=3, komi=0, games=1)
    for ply, text in enumerate(WHITE_ROAD.split()):
        await world.move((alice, bob)[ply % 2], thread, text)
    assert "Match" not in await scores_in(world, thread)  # a single game has no match
    match_thread = await world.start_game(size=3, komi=0, games=2)
    for game_number in (1, 2):
        first, second = (alice, bob) if game_number == 1 else (bob, alice)
        for ply, text in enumerate(WHITE_ROAD.split()):
            await world.move((first, second)[ply % 2], match_thread, text)
    assert "Match over: alice 1 – 1 bob (points " in await scores_in(world, match_thread)
