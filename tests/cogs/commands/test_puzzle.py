"""`/puzzle` and the daily puzzle as players use them: the daily post, answers by the picker and
by PTN (one wrong first), the solution kept back until the next day's post, the streak kept
across two days and the rating moved; in German too."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import discord
import simcord

from cogs.actions.move_picker import move_steps
from tak import Position
from tests.cogs.conftest import IDLE_LOOK, World, advance, decoded_image
from tests.cogs.discord_locale import discord_in
from tests.cogs.presenters.test_digests import jump_to


def select_of(message: Any) -> dict[str, Any]:
    [select] = [
        part for row in message.components for part in row["components"] if part["type"] == 3
    ]
    return select


async def solution_of(world: World, puzzle_id: int) -> str:
    row = await world.env.bot.services.db.fetchone(
        "SELECT solution FROM puzzles WHERE id = ?", (puzzle_id,)
    )
    return str(row["solution"])


async def today_puzzle(world: World) -> tuple[int, str]:
    daily = await world.env.bot.services.puzzles.daily(world.guild.id)
    return daily.puzzle.id, daily.puzzle.tps


async def pick(actor: simcord.MemberActor, picker: Any, tps: str, move: str) -> Any:
    """Choose `move` in a puzzle picker step by step, then press Answer; the final message."""
    wanted = move_steps(Position.from_tps(tps).play(move))
    while not str(picker.content).startswith("Answer **"):
        values = [option["value"] for option in select_of(picker)["options"]]
        [step] = [v for v in values if wanted.startswith(v)]
        await actor.select(picker, [step])
    answered = await actor.click(picker, label=f"Answer {move}")
    assert answered.followups == []
    return picker


async def manager(world: World) -> simcord.MemberActor:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[role])


def next_midnight(moment: datetime) -> datetime:
    return datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), moment.tzinfo)


async def test_the_daily_puzzle_posted_solved_and_the_streak_kept(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    refused = await alice.slash(world.channel, "puzzle daily")
    assert refused.ephemeral and "no daily puzzle" in refused.response.content
    boss = await manager(world)
    chosen = await boss.slash(world.channel, "bredon puzzles", channel=world.channel)
    assert f"<#{world.channel.id}>" in chosen.response.content
    [post] = world.bot_messages(world.channel)
    assert post.content.startswith(f"**Daily puzzle of {env.now().date().isoformat()}**")
    assert "Yesterday" not in post.content
    assert (await decoded_image(post)).width > 0  # the board
    first_id, first_tps = await today_puzzle(world)
    first = await solution_of(world, first_id)
    assert first not in post.content

    # Bob answers wrong first: told so, the solution kept back, no streak.
    wrong = next(m.ptn() for m in Position.from_tps(first_tps).legal_moves() if m.ptn() != first)
    answered = await bob.slash(world.channel, "puzzle answer", puzzle=first_id, move=wrong)
    text = answered.response.content
    assert answered.ephemeral and f"**{wrong}** does not win." in text
    assert first not in text and "posted with tomorrow's puzzle" in text
    assert "Daily streak: 0 days." in text
    again = await bob.slash(world.channel, "puzzle answer", puzzle=first_id, move=first)
    assert "Only your first answer to a puzzle counts." in again.response.content
    illegal = await bob.slash(world.channel, "puzzle answer", puzzle=first_id, move="z9")
    assert illegal.ephemeral and "z9" in illegal.response.content

    # Alice picks it with the picker.
    shown = await alice.slash(world.channel, "puzzle daily")
    assert shown.ephemeral and "to move. One move wins by force" in shown.response.content
    assert len(shown.response.attachments) == 1
    picker = await pick(alice, shown.response, first_tps, first)
    assert f"Right: **{first}** wins." in picker.content
    assert "Daily streak: 1 day." in picker.content
    assert world.bot_messages(world.channel) == [post]  # nothing public

    # The next day: a new puzzle, yesterday's solution shown; the streak goes on.
    await advance(env, next_midnight(env.now()) - env.now() + timedelta(minutes=1))
    second_post = world.last_bot_message(world.channel)
    assert second_post.id != post.id
    assert f"Yesterday's puzzle: the winning move was **{first}**." in second_post.content
    second_id, _tps = await today_puzzle(world)
    assert second_id != first_id
    second = await solution_of(world, second_id)
    solved = await alice.slash(world.channel, "puzzle answer", puzzle=second_id, move=second)
    assert "Daily streak: 2 days." in solved.response.content
    stats = await alice.slash(world.channel, "puzzle stats")
    assert "Daily streak: 2 days. Best: 2." in stats.response.content
    rating = int(stats.response.content.split("puzzle rating: ")[1].split(" ")[0])
    assert rating > 1500
    bob_stats = await alice.slash(world.channel, "puzzle stats", user=bob)
    assert int(bob_stats.response.content.split("puzzle rating: ")[1].split(" ")[0]) < 1500
    assert len(world.bot_messages(world.channel)) == 2  # once a day


async def test_a_private_puzzle_and_its_words_in_german(world: World) -> None:
    env, carol = world.env, world.carol
    with discord_in(env, carol, "de"):
        shown = await carol.slash(world.channel, "puzzle solve")
        assert shown.ephemeral and "Finde ihn unten" in shown.response.content, (
            shown.response.content
        )
        puzzle_id = int(shown.response.content.split("#")[1].split(" ")[0])
        row = await env.bot.services.db.fetchone(
            "SELECT tps, solution FROM puzzles WHERE id = ?", (puzzle_id,)
        )
        tps, solution = row["tps"], row["solution"]
        wrong = next(m.ptn() for m in Position.from_tps(tps).legal_moves() if m.ptn() != solution)
        answered = await carol.slash(world.channel, "puzzle answer", puzzle=puzzle_id, move=wrong)
        text = answered.response.content
        assert f"**{wrong}** gewinnt nicht." in text
        assert f"Der Gewinnzug war **{solution}**." in text  # a private puzzle: shown at once
        stats = await carol.slash(world.channel, "puzzle stats")
        assert "Rätselwertung von carol" in stats.response.content


async def test_the_daily_post_in_a_german_server(world: World) -> None:
    """The post speaks the server's language; the manager is answered in theirs."""
    boss = await manager(world)
    await boss.slash(world.channel, "bredon config", language="de")
    chosen = await boss.slash(world.channel, "bredon puzzles", channel=world.channel)
    assert "The daily puzzle is posted in" in chosen.response.content  # the boss's English
    [post] = world.bot_messages(world.channel)
    assert post.content.startswith(f"**Tagesrätsel vom {world.env.now().date().isoformat()}**")
    assert "am Zug gewinnt mit einem Zug" in post.content and "`/rätsel täglich`" in post.content
    stopped = await boss.slash(world.channel, "bredon puzzles", stop=True)
    assert stopped.response.content == "No daily puzzle is posted in this server."


async def test_a_daily_post_that_missed_its_day_is_dropped(world: World) -> None:
    """Bredon wrote the day's post but could not deliver it that day: the next day only the new
    puzzle is posted, with the missed one's solution."""
    env = world.env
    services = env.bot.services
    await services.puzzles.set_channel(world.guild.id, world.channel.id)
    assert await services.puzzles.run_due() == 1  # written, the courier not woken
    missed_id, _tps = await today_puzzle(world)
    missed = await solution_of(world, missed_id)
    jump_to(env, next_midnight(env.now()) + timedelta(minutes=1))
    await advance(env, IDLE_LOOK)  # the courier's and the scheduler's next looks
    [post] = world.bot_messages(world.channel)
    assert post.content.startswith(f"**Daily puzzle of {env.now().date().isoformat()}**")
    assert f"the winning move was **{missed}**" in post.content
