"""Looking at games (board, TPS, PTN, replay, lists, scores), personal and server settings, help,
and what a user sees when something unexpected breaks."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands
from simcord import assert_error
from simcord.backend.errors import OptionError, SetupError

from cogs.commands.tree import MOVED
from tak import Position
from tak.ptn import Game
from tests.cogs.conftest import allow_command, ask_challenge, decoded_image

RULE_2 = "komi 2 with the antiquity tie rule (a tied flat count goes to black)"
RULE_1 = "komi 1 with the antiquity tie rule (a tied flat count goes to black)"

# A 5x5 game in which white builds the a-file (a threat after a4) and black walls it off.
MOVES = ["e5", "a1", "a2", "e4", "a3", "e3", "a4", "Sa5", "b1"]


async def play_moves(world, thread, moves: list[str]) -> None:
    players = [world.alice, world.bob]
    for ply, text in enumerate(moves):
        result = await world.move(players[ply % 2], thread, text)
        assert result.response is None  # the post where they moved says it


async def test_board_tps_ptn_and_replay(world) -> None:
    alice, bob = world.alice, world.bob
    thread = await world.start_game(size=5, komi=1.5)
    await play_moves(world, thread, MOVES)
    position = Position(5, komi=1.5)
    for text in MOVES:
        position.play(text)

    board = await bob.slash(thread, "tak board")
    assert board.ephemeral and "#1" in board.response.content
    image = await decoded_image(board.response.message)
    assert image.format == "PNG"

    tps = await alice.slash(world.channel, "game tps", game=1)
    assert position.tps() in tps.response.content

    ptn = await alice.slash(thread, "game ptn")
    assert ptn.ephemeral
    [embed] = ptn.response.embeds
    assert "https://ptn.ninja/" in embed.description
    [attachment] = ptn.response.message.attachments
    record = Game.parse((await attachment.read()).decode())
    assert [ply.move.ptn() for ply in record.plies] == MOVES
    assert record.tag("Komi") == "1.5" and record.tag("Player1") == "alice"
    replayed = Position(5, komi=1.5)
    for ply in record.plies:
        replayed.play(ply.move)
        threat = replayed.has_road_threat(replayed.to_move.other)
        assert ("'" in ply.marks) is threat, ply.move.ptn()
    assert any("'" in ply.marks for ply in record.plies)

    replay = await bob.slash(thread, "game replay")
    gif = await decoded_image(replay.response.message)
    assert gif.format == "GIF" and gif.n_frames == len(MOVES) + 1


def listed(result) -> list[str]:
    """The game lines of a `/tak games` answer."""
    [embed] = result.response.embeds
    return [line for line in embed.description.splitlines() if line.startswith("[#")]


async def test_games_list_links_each_game_says_whose_move_and_scores_count_finished_games(
    world,
) -> None:
    alice, bob = world.alice, world.bob
    first = await world.start_game(size=4)
    second = await world.start_game(size=4)
    await world.move(alice, first, "a1")  # game 1 now waits for bob, game 2 for alice
    listing = await alice.slash(world.channel, "tak games")
    [embed] = listing.response.embeds
    assert listing.ephemeral and "Awaiting your move: #2." in embed.description
    lines = listed(listing)
    server = f"https://discord.com/channels/{world.guild.id}"
    assert lines[0].startswith(f"[#1]({server}/{first.id})") and ": bob to move" in lines[0]
    assert lines[1].startswith(f"[#2]({server}/{second.id})") and "**your move**" in lines[1]
    assert "time runs out <t:" in lines[1]
    bobs = await alice.slash(world.channel, "tak games", user=bob)
    assert f"Awaiting <@{bob.id}>'s move: #1." in bobs.response.embeds[0].description
    assert "**your move**" in listed(bobs)[1]  # alice looks at bob's list: game 2 awaits her

    await bob.slash(first, "tak resign")
    confirm = [m for m in first.history(viewer=bob) if m.components][-1]
    await bob.click(confirm, label="Resign")
    finished = listed(await alice.slash(world.channel, "tak games", show="finished"))
    assert len(finished) == 1 and finished[0].startswith("[#1]") and "1-0" in finished[0]
    choices = await alice.autocomplete(world.channel, "tak board", "game", "")
    assert [c["value"] for c in choices] == [2]

    scores = await alice.slash(world.channel, "profile scores")
    assert "**alice**" in scores.response.content and "1 won" in scores.response.content
    none = await world.carol.slash(world.channel, "profile scores")
    assert "no finished games" in none.response.content


async def test_personal_settings_change_the_board_images(world) -> None:
    alice = world.alice
    thread = await world.start_game(size=4)
    default = await decoded_image((await alice.slash(thread, "tak board")).response.message)
    shown = await alice.slash(world.channel, "profile settings", theme="high-contrast")
    assert "high-contrast" in shown.response.content and "mention" in shown.response.content
    contrast = await decoded_image((await alice.slash(thread, "tak board")).response.message)
    assert default.size == contrast.size
    assert default.convert("RGB").tobytes() != contrast.convert("RGB").tobytes()


async def test_server_config_is_for_managers_only(world) -> None:
    carol = world.carol
    with pytest.raises(SetupError, match="default-member-permissions"):  # Discord hides it
        await carol.slash(world.channel, "bredon config", size=5)
    await allow_command(world.env, world.guild, "bredon", carol)  # a manager shows it to her
    refused = await carol.slash(world.channel, "bredon config", size=5)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    with pytest.raises(OptionError, match="Option 'days' of 'bredon config' must be ≥ 1"):
        await boss.slash(world.channel, "bredon config", days=0)
    done = await boss.slash(world.channel, "bredon config", size=5, komi=0.5, threads=False)
    assert (
        "5x5, komi 0.5" in done.response.content
        and "Threads per game: off" in done.response.content
    )

    challenge = await world.challenge(opponent=world.bob)
    assert "5x5, komi 0.5" in challenge.content
    await world.bob.click(challenge, label="Accept")
    assert world.channel.threads == []  # the game is played in the channel itself
    assert "Game #1" in world.last_bot_message(world.channel).content


async def test_the_antiquity_tie_rule_as_a_challenge_option_and_a_server_default(world) -> None:
    alice, bob = world.alice, world.bob
    challenge = await world.challenge(opponent=bob, komi=2, antiquity=True)
    assert RULE_2 in challenge.content
    most = await ask_challenge(alice, world.channel, komi=4.5, antiquity=True)
    assert "Challenge #2 is up" in most.response.content  # any komi goes with the rule

    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    done = await boss.slash(world.channel, "bredon config", komi=1, antiquity=True)
    assert RULE_1 in done.response.content
    default = await world.challenge(opponent=bob)
    assert RULE_1 in default.content
    await bob.click(default, label="Accept")
    thread = world.channel.threads[-1]
    ptn = await bob.slash(thread, "game ptn")
    [attachment] = ptn.response.message.attachments
    text = (await attachment.read()).decode()
    assert '[Komi "1"]' in text and "{Antiquity tie rule: a tied flat count goes to Black.}" in text


async def test_help_is_a_short_primer_naming_every_players_command(world) -> None:
    shown = await world.carol.slash(world.channel, "tak help")
    assert shown.ephemeral
    [embed] = shown.response.embeds
    names = [field.name for field in embed.fields]
    assert names == ["Play", "Moves in PTN", "Time", "Records and you"]
    assert "**road**" in embed.description and "](https://" in embed.description  # the rules
    # One phone screen: about 1,000 characters (the help was seven long fields, 3,000).
    size = len(embed.description) + sum(len(f.name) + len(f.value) for f in embed.fields)
    assert size <= 1100, size
    # Every player's command is named in it by its name (a subgroup's by the subgroup's), and
    # no name from before the regrouping is.
    text = " ".join(f"{field.name} {field.value}" for field in embed.fields)
    players = {"tak", "game", "clock", "profile", "coins"}
    named = {
        (command.parent if command.parent.parent is not None else command).qualified_name
        for command in world.env.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command)
        and command.qualified_name.split()[0] in players
        and command.qualified_name != "tak help"
    }
    assert sorted(name for name in named if f"/{name}`" not in text) == []
    # The other groups a player uses, by the group's name alone.
    assert all(f"`/{group}`" in text for group in ("puzzle", "season", "league", "tournament"))
    assert sorted(old for old in MOVED if f"/{old}`" in text) == []


@pytest.mark.error_logs
async def test_an_unexpected_failure_is_logged_and_the_user_gets_an_apology(
    world, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    thread = await world.start_game(size=4)

    async def broken(game_id: int) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.env.bot.services.lookup, "record", broken)
    with caplog.at_level(logging.ERROR, logger="cogs.interactions"):
        result = await world.alice.slash(thread, "game ptn", game=1)
    assert result.ephemeral and result.response.content.startswith("Sorry, something went wrong")
    assert "/game ptn failed (game 1" in caplog.text
    assert_error(world.env, RuntimeError, contains="disk on fire")

    await world.move(world.alice, thread, "a1")
    await world.move(world.bob, thread, "d4")
    await world.alice.slash(thread, "tak draw")
    offer = world.last_bot_message(thread)
    monkeypatch.setattr(world.env.bot.services.games, "accept_draw", broken)
    with caplog.at_level(logging.ERROR, logger="cogs.interactions"):
        pressed = await world.bob.click(offer, label="Accept draw")
    assert pressed.followups[0].content.startswith("Sorry, something went wrong")
    assert "the draw-yes button failed (game 1" in caplog.text
