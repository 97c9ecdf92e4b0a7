"""`public:True` on the commands that show things (posted in the channel, under the caller's name,
after checking the bot's permissions there), and `/tak games` a page at a time: jump links,
Previous/Next across a restart, pages that stay put while games change, only the caller paging."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta

import discord
import pytest

from tests.cogs.commands.test_tournament import Club
from tests.cogs.conftest import World, advance

SHOWN = re.compile(r"Shown in the channel: (\S+)$")


def looks(message) -> tuple[str, list[str], list[str | None]]:
    """What an answer shows, whoever it is shown to: its text (without the 'Shown by' line), its
    files and its embeds' titles."""
    text = re.sub(r"\n?-# Shown by .*$", "", message.content)
    return text, [a.filename for a in message.attachments], [e.title for e in message.embeds]


async def shown_both_ways(world: World, who, place, command: str, **options) -> discord.Message:
    """The command privately (nothing posted), then publicly: the same answer, posted in the
    channel under the caller's name, the caller getting its link. Returns the post."""
    before = world.bot_messages(place)
    private = await who.slash(place, command, **options)
    assert private.ephemeral, command
    assert world.bot_messages(place) == before, command
    public = await who.slash(place, command, public=True, **options)
    assert public.ephemeral, command
    link = SHOWN.fullmatch(public.response.content)
    assert link is not None, (command, public.response.content)
    post = world.last_bot_message(place)
    assert len(world.bot_messages(place)) == len(before) + 1, command
    assert link[1] == post.jump_url, command
    assert post.content.endswith(f"-# Shown by {who.name}"), command
    assert looks(post) == looks(private.response.message), command
    assert post.flags.ephemeral is False
    return post


async def test_each_showing_command_answers_privately_or_to_the_channel(world: World) -> None:
    """Carol plays in no game: a server's games are public, she may show them too."""
    alice, bob, carol = world.alice, world.bob, world.carol
    thread = await world.start_game(size=4)
    await world.move(alice, thread, "a1")
    await world.move(bob, thread, "d4")
    for command in ("tak board", "game tps", "game ptn", "game replay"):
        await shown_both_ways(world, carol, world.channel, command, game=1)
    board = await shown_both_ways(world, carol, thread, "tak board")  # in the game's thread
    assert "**bob** (black), ply 2: alice to move" in board.content  # no "your move"
    assert [a.filename.endswith(".png") for a in board.attachments] == [True]
    scores = await shown_both_ways(world, carol, world.channel, "profile scores", user=alice)
    assert "alice" in scores.content
    for command in ("profile leaderboard", "coins leaderboard", "tak games"):
        await shown_both_ways(world, carol, world.channel, command)
    games = await shown_both_ways(world, alice, world.channel, "tak games")
    [embed] = games.embeds
    assert f"<@{alice.id}>'s games in this server." in embed.description  # not "your"
    assert ": alice to move" in embed.description


async def test_tournament_standings_and_pairings_shown_to_the_channel(world: World) -> None:
    club = Club(world)
    await club.sign_up_and_start()
    standings = await shown_both_ways(world, world.carol, club.channel, "tournament standings")
    assert [e.title for e in standings.embeds] and standings.attachments
    pairings = await shown_both_ways(world, club.olga, club.channel, "tournament pairings")
    assert [a.filename for a in pairings.attachments] == ["pairings.png"]


def answer_shown(message: discord.Message, command: str) -> bool:
    """Whether a private answer holds what `command` shows."""
    if command == "tak board":
        return [a.filename[-4:] for a in message.attachments] == [".png"]
    if command == "game tps":
        return "Game #1, ply 0:" in message.content
    return [e.title for e in message.embeds] == ["Leaderboard, 6x6"]


@pytest.mark.parametrize(
    ("denied", "named", "command"),
    [
        ("attach_files", "Attach Files", "tak board"),
        ("send_messages", "Send Messages", "game tps"),
        ("embed_links", "Embed Links", "profile leaderboard"),
    ],
)
async def test_without_the_permission_the_caller_is_told_and_gets_it_privately(
    world: World, denied: str, named: str, command: str
) -> None:
    me = world.guild.me
    assert me is not None
    closed = world.guild.create_text_channel(
        "closed", overwrites={me: discord.PermissionOverwrite(**{denied: False})}
    )
    await world.start_game(size=4)
    await world.env.settle()
    options = {} if command == "profile leaderboard" else {"game": 1}
    result = await world.carol.slash(closed, command, public=True, **options)
    assert result.ephemeral
    assert result.response.content.startswith(
        f"I can't show this in <#{closed.id}>: I'm missing the {named} permission there. "
        "Here it is for you only."
    )
    assert answer_shown(result.response.message, command)
    assert world.bot_messages(closed) == []


async def test_names_in_public_answers_never_ping_and_other_servers_games_stay_hidden(
    world: World,
) -> None:
    env = world.env
    mallory = world.guild.add_member(
        env.create_user("mallory", global_name="@here **loud** @everyone")
    )
    await world.start_game(opponent=mallory, size=4)
    for command, options in (("tak board", {"game": 1}), ("tak games", {"user": mallory})):
        await world.alice.slash(world.channel, command, public=True, **options)
        post = world.last_bot_message(world.channel)
        assert not post.mention_everyone and post.mentions == [], post.content
        text = post.content + "".join(e.description or "" for e in post.embeds)
        assert "**loud**" not in text and "\\*\\*loud\\*\\*" in text, text

    elsewhere = env.create_guild("Elsewhere")
    stranger = elsewhere.add_member(env.create_user("stranger"))
    lobby = elsewhere.create_text_channel("lobby")
    await env.settle()
    for command in ("tak board", "game tps", "game ptn", "game replay"):
        refused = await stranger.slash(lobby, command, game=1, public=True)
        assert refused.ephemeral and refused.response.content == "There is no game #1."
        assert world.bot_messages(lobby) == []


# ----------------------------------------------------------------- paging /tak games


def page_of(message: discord.Message) -> tuple[list[int], str]:
    """The game numbers a page lists, and its footer."""
    [embed] = message.embeds
    numbers = [int(n) for n in re.findall(r"^\[#(\d+)\]", embed.description or "", re.M)]
    return numbers, embed.footer.text or ""


def enabled(message: discord.Message) -> dict[str, bool]:
    return {c.label: not c.disabled for row in message.components for c in row.children}


async def start_games(world: World, count: int) -> None:
    """`count` games of alice (white, to move) against bob, without a thread each (the channel
    holds them)."""
    guilds = world.env.bot.services.guilds
    await guilds.save(dataclasses.replace(await guilds.get(world.guild.id), use_threads=False))
    for _ in range(count):
        message = await world.challenge(opponent=world.bob, size=3, color="white")
        await world.bob.click(message, label="Accept")


async def test_paging_33_games_across_a_restart_while_games_change(world: World, new_bot) -> None:
    env, alice = world.env, world.alice
    await start_games(world, 33)
    listing = await alice.slash(world.channel, "tak games")
    first = listing.response.message
    assert page_of(first) == (list(range(1, 9)), "Page 1 of 5 · 33 games · listed")
    assert enabled(first) == {"Previous": False, "Next": True}
    [embed] = first.embeds
    line = next(x for x in embed.description.splitlines() if x.startswith("[#1]"))
    game = await env.bot.services.games.get(1)
    url = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{game.message_id}"
    assert line.startswith(f"[#1]({url})") and "**your move** (time runs out <t:" in line

    await advance(env, timedelta(hours=1))
    await alice.click(first, label="Next")
    second = listing.response.message
    assert page_of(second) == (list(range(9, 17)), "Page 2 of 5 · 33 games · listed")
    # Between two presses: game 2 (page 1) and game 10 (this page) end, a 34th game starts.
    await alice.slash(world.channel, "tak abort", game=2)
    await alice.slash(world.channel, "tak abort", game=10)
    await start_games(world, 1)
    await env.restart_bot(new_bot())
    await advance(env, timedelta(hours=1))

    await alice.click(second, label="Next")
    assert page_of(listing.response.message)[0] == list(range(17, 25))
    await alice.click(listing.response.message, label="Previous")
    again = listing.response.message
    assert page_of(again) == (list(range(9, 17)), "Page 2 of 5 · 33 games · listed")
    [embed] = again.embeds
    assert next(x for x in embed.description.splitlines() if x.startswith("[#10]")).endswith(
        ": 0-0"
    )
    assert "[#9]" in embed.description and "**your move**" in embed.description  # still hers
    for _ in range(3):
        await alice.click(listing.response.message, label="Next")
    last = listing.response.message
    assert page_of(last) == ([33], "Page 5 of 5 · 33 games · listed")  # not the 34th
    assert enabled(last) == {"Previous": True, "Next": False}

    fresh = await alice.slash(world.channel, "tak games")
    assert page_of(fresh.response.message)[1] == "Page 1 of 4 · 32 games · listed"
    assert 2 not in page_of(fresh.response.message)[0]


async def test_only_the_caller_turns_the_pages_of_a_public_list(world: World) -> None:
    await start_games(world, 9)
    shown = await world.alice.slash(world.channel, "tak games", public=True)
    assert shown.ephemeral
    post = world.last_bot_message(world.channel)
    assert page_of(post) == (list(range(1, 9)), "Page 1 of 2 · 9 games · listed")
    refused = await world.bob.click(post, label="Next")
    assert refused.ephemeral
    assert refused.response.content == (
        f"Only <@{world.alice.id}> can turn these pages: `/tak games` lists games for you."
    )
    assert page_of(world.last_bot_message(world.channel))[0] == list(range(1, 9))
    await world.alice.click(post, label="Next")
    turned = world.bot_messages(world.channel)[-1]
    assert page_of(turned) == ([9], "Page 2 of 2 · 9 games · listed")
    [embed] = turned.embeds
    assert ": alice to move" in embed.description and "your move" not in embed.description


async def test_a_page_of_long_names_and_stopped_clocks_fits_discord(world: World) -> None:
    env = world.env
    loud = "*_`~|>" * 6  # 36 characters, each escaped
    long_a = world.guild.add_member(env.create_user("longa", global_name=loud[:32]))
    long_b = world.guild.add_member(env.create_user("longb", global_name=loud[1:33]))
    guilds = env.bot.services.guilds
    await guilds.save(dataclasses.replace(await guilds.get(world.guild.id), vacation_days=30))
    for _ in range(9):
        message = await world.challenge(
            challenger=long_a, opponent=long_b, size=3, bank="30d", color="black"
        )
        await long_b.click(message, label="Accept")
    await long_a.slash(world.channel, "clock vacation start", days=30)
    shown = await long_a.slash(world.channel, "tak games")
    [embed] = shown.response.embeds
    assert "the clock stands still" in embed.description
    assert len(page_of(shown.response.message)[0]) == 8
    assert len(embed.description) <= 4096 and len(embed) <= 6000
