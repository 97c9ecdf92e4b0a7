"""Games in conversations Bredon is not a member of (Bredon installed to the players' accounts):
a DM between two players, a group DM, a server that did not install Bredon. Bredon can only
answer there: each board is the answer to the command or button that caused it, the other
player is told by DM with a link back, and whatever happens with nobody asking (a loss on time)
goes by DM; a restart in the middle changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import discord
import pytest
import simcord

from cogs.interactions import OnlyInServers
from tests.cogs.conftest import World, advance
from tests.cogs.conversations import conversation, elsewhere
from tests.cogs.discord_locale import discord_in

ROAD = ["a3", "a1", "b1", "b3", "c1"]  # on 3x3 white's road along the first rank


def said(world: World, place: simcord.ChannelHandle) -> list[discord.Message]:
    """What Bredon posted in `place` for everyone (answers and follow-ups that are not private)."""
    bot_id = world.env.bot.user.id
    return [m for m in place.history() if m.author.id == bot_id and not m.flags.ephemeral]


def dms(actor: simcord.MemberActor) -> list[str]:
    return [m.content for m in actor.user.dm_channel.history()]


async def challenge_and_accept(
    world: World, place: simcord.ChannelHandle, **options
) -> discord.Message:
    """Alice (white) challenges Bob on 3x3 in `place`; Bob accepts. The start's board."""
    alice, bob = world.alice, world.bob
    made = await alice.slash(place, "tak challenge", opponent=bob, color="white", size=3, **options)
    assert made.ephemeral and "is up" in made.followups[-1].content, made.followups
    assert made.response.content == "Shown below, to everyone here."  # the private answer
    challenge = said(world, place)[-1]
    assert "Rated in the anywhere pool" in challenge.content  # the pool it counts in
    assert "challenges you" in dms(bob)[-1] and "discord.com/channels/" in dms(bob)[-1]
    assert "Accept" in [c.label for row in challenge.components for c in row.children]
    accepted = await bob.click(challenge, label="Accept")
    assert accepted.response is None or accepted.response.components == []
    start = said(world, place)[-1]
    assert "Game #1" in start.content and start.attachments, start.content
    return start


async def play_to_the_end(
    world: World, place: simcord.ChannelHandle, new_bot=None, restart_at: int | None = None
) -> None:
    """The road game, each move answered in the conversation and told to the other by DM."""
    env, players = world.env, [world.alice, world.bob]
    for ply, text in enumerate(ROAD):
        if ply == restart_at:
            await env.restart_bot(new_bot())
        mover, waiting = players[ply % 2], players[(ply + 1) % 2]
        told_before = len(dms(waiting))
        await mover.slash(place, "tak move", ptn=text)
        board = said(world, place)[-1]
        assert f" {text}**" in board.content and board.attachments, board.content
        assert len(dms(waiting)) == told_before + 1
        assert f" {text}**" in dms(waiting)[-1] and "discord.com/channels/" in dms(waiting)[-1]
    assert "wins by road" in said(world, place)[-1].content


@pytest.mark.parametrize("restart_at", [None, 2], ids=["straight", "restarted"])
async def test_a_whole_game_in_a_dm_between_two_players(world: World, new_bot, restart_at) -> None:
    dm = conversation(world)
    with elsewhere(world.env, dm, "dm", [world.alice, world.bob]):
        await challenge_and_accept(world, dm)
        assert "Game #1" in dms(world.alice)[-1]  # white, to move, is told by DM
        await play_to_the_end(world, dm, new_bot, restart_at)
    game = await world.env.bot.services.games.get(1)
    assert (game.place.value, game.guild_id, game.channel_id) == ("dm", 0, dm.id)
    assert not [m for m in world.channel.history() if m.author.id == world.env.bot.user.id]


async def test_a_game_in_a_group_dm_names_its_opponent(world: World, new_bot) -> None:
    group = conversation(world, "group")
    members = [world.alice, world.bob, world.carol]
    with elsewhere(world.env, group, "group_dm", members):
        open_challenge = await world.alice.slash(group, "tak challenge", size=3)
        assert "name your opponent" in open_challenge.response.content
        await challenge_and_accept(world, group)
        await play_to_the_end(world, group, new_bot, restart_at=3)
    game = await world.env.bot.services.games.get(1)
    assert game.place.value == "group_dm"


async def test_a_game_in_a_server_without_bredon(world: World, new_bot) -> None:
    foreign = conversation(world, "their-server")
    with elsewhere(world.env, foreign, "server_without_bredon", [world.alice, world.bob]):
        await challenge_and_accept(world, foreign)
        await play_to_the_end(world, foreign, new_bot, restart_at=1)
    game = await world.env.bot.services.games.get(1)
    assert (game.place.value, game.guild_id) == ("elsewhere", 0)


async def test_a_loss_on_time_with_a_closed_dm_is_told_at_the_next_command(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    dm = conversation(world)
    with elsewhere(env, dm, "dm", [alice, bob]):
        await challenge_and_accept(world, dm, days=1)
        await alice.slash(dm, "tak move", ptn="a3")
        await bob.slash(dm, "tak move", ptn="a1")  # alice has a day from now
        env.inject_error(
            "POST",
            f"/channels/{alice.user.dm_channel.id}/messages",
            status=403,
            code=50007,
            times=None,
        )  # alice's DMs are closed from now on
        alice_dms, public, bob_dms = len(dms(alice)), len(said(world, dm)), len(dms(bob))
        await advance(env, timedelta(hours=20))  # the reminder: for alice only
        assert len(dms(bob)) == bob_dms
        await advance(env, timedelta(hours=4, minutes=1))
        assert "wins on time" in dms(bob)[-1] and "discord.com/channels/" in dms(bob)[-1]
        assert len(dms(alice)) == alice_dms
        assert len(said(world, dm)) == public  # nobody asked there: nothing to answer
        game = await env.bot.services.games.get(1)
        assert game.result is not None and game.result.ptn() == "0-1"

        asked = await alice.slash(dm, "tak games")
        missed = asked.followups[-1]
        assert missed.ephemeral and "could not send you a direct message" in missed.content
        assert "#1" in missed.content and "0-1" in missed.content
        again = await alice.slash(dm, "tak games")
        assert not any("could not send you" in f.content for f in again.followups)  # once


async def test_a_stranger_cannot_press_a_game_s_buttons(world: World) -> None:
    group = conversation(world, "group")
    carol = world.carol
    with elsewhere(world.env, group, "group_dm", [world.alice, world.bob, carol]):
        start = await challenge_and_accept(world, group)
        pressed = await carol.click(start, label="Move")
        refusal = pressed.followups[-1] if pressed.followups else pressed.response
        assert refusal.ephemeral and "not" in refusal.content.lower(), refusal.content
        await carol.slash(group, "tak move", ptn="a1", game=1)
    game = await world.env.bot.services.games.get(1)
    assert game.ply == 0


async def test_a_dm_game_counts_apart_and_shows_nowhere_else(world: World) -> None:
    alice, bob, carol, server = world.alice, world.bob, world.carol, world.channel
    dm = conversation(world)
    with elsewhere(world.env, dm, "dm", [alice, bob]):
        await challenge_and_accept(world, dm)
        await play_to_the_end(world, dm)
        leaderboard = await alice.slash(dm, "profile leaderboard", size=3)
        assert "only in a server that installed Bredon" in leaderboard.response.content
        others = await alice.slash(dm, "profile stats", user=bob)
        assert "only your own" in others.response.content
        their_games = await alice.slash(dm, "tak games", user=bob)
        assert "only your own" in their_games.response.content
    group = conversation(world, "group")
    with elsewhere(world.env, group, "group_dm", [alice, bob, carol]):
        elsewhere_named = await alice.slash(group, "tak board", game=1, public=True)
        assert "#1" in elsewhere_named.response.content
        assert not elsewhere_named.response.attachments  # unknown here: no board
        nothing_here = await alice.slash(group, "tak board")
        assert "no game" in nothing_here.response.content

    own = await alice.slash(server, "profile scores")
    assert "Anywhere" in own.response.content and "3x3" in own.response.content
    seen_by_another = await bob.slash(server, "profile scores", user=alice)
    assert "Anywhere" not in seen_by_another.response.content
    assert "no rating yet" in seen_by_another.response.content
    board = await carol.slash(server, "profile leaderboard", size=3)
    assert "alice" not in str(board.response.embeds[0].description)
    named = await carol.slash(server, "game ptn", game=1)
    assert "1. a3" not in named.response.content and "#1" in named.response.content


async def test_where_only_private_answers_are_allowed_the_game_goes_on_by_dm(
    world: World,
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    foreign = conversation(world, "their-server")
    with elsewhere(env, foreign, "server_without_bredon", [alice, bob]):
        await challenge_and_accept(world, foreign)
    with elsewhere(env, foreign, "server_without_bredon", [alice, bob], external_apps=False):
        public = len(said(world, foreign))
        refused = await alice.slash(foreign, "tak challenge", opponent=bob, size=3)
        assert "doesn't allow external apps" in refused.response.content
        bob_dms = len(dms(bob))
        played = await alice.slash(foreign, "tak move", ptn="a3")
        assert len(said(world, foreign)) == public  # nothing for everyone
        assert " a3**" in dms(bob)[-1] and len(dms(bob)) == bob_dms + 1
        assert " a3**" in dms(alice)[-1]  # the mover too: nowhere else to show it
        assert any("goes on by DM" in f.content for f in played.followups)
        assert "told to both players by DM" in played.response.content, played.response.content


async def test_a_game_against_bredon_in_its_dms(world: World) -> None:
    alice, services = world.alice, world.env.bot.services
    started = await alice.user.slash("tak play", level=1, size=3, color="white")
    assert "against me" in started.followups[-1].content, started.followups
    game = await services.games.get(1)
    assert (game.place.value, game.guild_id) == ("dm", 0)
    rng = random.Random(5)
    while (game := await services.games.get(1)).is_active:
        assert game.player_to_move.id == alice.id, "the bot did not answer"
        position = await services.games.position(1)
        move = rng.choice(position.legal_moves()).ptn()
        await alice.user.slash("tak move", ptn=move)
        assert f" {move}**" in "\n".join(dms(alice))
    assert game.result is not None and game.result.ptn() in dms(alice)[-1]


async def test_a_draw_offered_and_accepted_in_a_dm(world: World) -> None:
    alice, bob = world.alice, world.bob
    dm = conversation(world)
    with elsewhere(world.env, dm, "dm", [alice, bob]):
        await challenge_and_accept(world, dm)
        await alice.slash(dm, "tak move", ptn="a3")
        await alice.slash(dm, "tak draw")
        offer = said(world, dm)[-1]
        assert "draw" in offer.content and "draw" in dms(bob)[-1]
        await bob.click(offer, label="Accept draw")
        assert "accepted the draw" in said(world, dm)[-2].content + said(world, dm)[-1].content
    game = await world.env.bot.services.games.get(1)
    assert game.result is not None and game.result.ptn() == "1/2-1/2"


async def test_the_move_button_plays_in_a_group_dm(world: World) -> None:
    alice, bob = world.alice, world.bob
    group = conversation(world, "group")
    with elsewhere(world.env, group, "group_dm", [alice, bob, world.carol]):
        start = await challenge_and_accept(world, group)
        picker = (await alice.click(start, label="Move")).response
        assert picker.ephemeral
        await alice.select(picker, ["a3F"])
        await alice.click(picker, label="Confirm a3")
        assert " a3**" in said(world, group)[-1].content and " a3**" in dms(bob)[-1]


async def test_a_conversation_is_spoken_to_in_its_players_language(world: World) -> None:
    alice, bob = world.alice, world.bob
    dm = conversation(world)
    with elsewhere(world.env, dm, "dm", [alice, bob]), discord_in(world.env, alice, "de"):
        await alice.slash(dm, "profile settings")  # Bredon has heard her Discord's language
        made = await alice.slash(dm, "tak challenge", opponent=bob, color="white", size=3)
        assert made.response.content == "Unten für alle hier gezeigt."
        challenge = said(world, dm)[-1]
        assert "fordert" in challenge.content, challenge.content  # the challenger's language
        await bob.click(challenge, label="Annehmen")
        start = said(world, dm)[-1]
        assert "am Zug" in start.content, start.content  # alice, to move, reads German


async def test_a_game_goes_on_when_its_server_installs_bredon(world: World) -> None:
    alice, bob = world.alice, world.bob
    channel = conversation(world, "their-server")
    with elsewhere(world.env, channel, "server_without_bredon", [alice, bob]):
        await challenge_and_accept(world, channel)
    # The server now has Bredon: its interactions come from a server Bredon is in.
    await alice.slash(channel, "tak move", ptn="a3")
    assert " a3**" in said(world, channel)[-1].content and " a3**" in dms(bob)[-1]
    await bob.slash(channel, "tak move", ptn="a1", game=1)
    assert " a1**" in said(world, channel)[-1].content


async def test_a_player_s_anywhere_ratings_are_never_shown_to_a_server(world: World) -> None:
    alice, server = world.alice, world.channel
    dm = conversation(world)
    with elsewhere(world.env, dm, "dm", [alice, world.bob]):
        await challenge_and_accept(world, dm)
        await play_to_the_end(world, dm)
    await alice.slash(server, "profile scores", public=True)
    shown = said(world, server)[-1].content
    assert "Anywhere" not in shown and "no rating yet" in shown  # their DMs' games gave them


SERVER_ONLY = [
    ("bredon config", {"size": 4}),
    ("season join", {}),
    ("season standings", {}),
    ("league teams", {}),
    ("puzzle daily", {}),
    ("puzzle solve", {}),
    ("coins wallet", {}),
    ("tournament info", {}),
]


@pytest.mark.parametrize("kind", ["dm", "server_without_bredon"])
async def test_server_only_commands_are_refused_elsewhere(world: World, kind) -> None:
    """Discord shows them only where Bredon is installed to the server; one still asked for
    elsewhere (an old list of commands, a server that removed Bredon) is refused, changing
    nothing: not the settings of games outside servers, nor a server's that never had Bredon."""
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    alice = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    place = conversation(world)
    before = await world.env.bot.services.guilds.get(0)
    with elsewhere(world.env, place, kind, [alice, world.bob]):
        for command, options in SERVER_ONLY:
            asked = await alice.slash(place, command, **options)
            assert asked.ephemeral, command
            refusal = asked.response.content
            assert "only in a server that installed Bredon" in refusal, (command, refusal)
    assert await world.env.bot.services.guilds.get(0) == before
    assert not said(world, place)
    # Refused by a check, before the command runs: SimCord notes each as the tree's error.
    assert {type(error) for error in world.env.errors} == {OnlyInServers}


async def test_a_move_whose_answer_discord_refuses_is_told_by_dm_at_once(world: World) -> None:
    """The conversation's answer refused for good (the token no longer valid, the channel
    closed to apps since): both players hear of the move by DM now, not after 15 minutes."""
    env, alice, bob = world.env, world.alice, world.bob
    dm = conversation(world)
    with elsewhere(env, dm, "dm", [alice, bob]):
        await challenge_and_accept(world, dm)
        shown, alice_told, bob_told = len(said(world, dm)), len(dms(alice)), len(dms(bob))
        env.inject_error("POST", "/webhooks/*", status=403, code=50001, times=1)
        await alice.slash(dm, "tak move", ptn="a3")
        assert len(said(world, dm)) == shown  # refused: nothing there
        assert len(dms(bob)) == bob_told + 1 and " a3**" in dms(bob)[-1]
        assert len(dms(alice)) == alice_told + 1 and " a3**" in dms(alice)[-1]
        await bob.slash(dm, "tak move", ptn="a1")  # answered there again
        assert " a1**" in said(world, dm)[-1].content


async def test_a_public_answer_in_a_server_without_bredon_comes_privately(world: World) -> None:
    """Bredon may not post in a server it is not a member of: what a player asks to show
    there comes to them alone, instead of failing."""
    alice, place = world.alice, conversation(world)
    with elsewhere(world.env, place, "server_without_bredon", [alice, world.bob]):
        await challenge_and_accept(world, place)
        for command, options in (
            ("tak board", {}),
            ("tak games", {}),
            ("profile stats", {}),
            ("profile scores", {}),
        ):
            shown = len(said(world, place))
            asked = await alice.slash(place, command, public=True, **options)
            assert asked.ephemeral and "Sorry" not in asked.response.content, command
            assert len(said(world, place)) == shown, command
