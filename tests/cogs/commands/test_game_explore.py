"""`/game explore` as players use it: from moves or from a game's position, the server's finished
games counted by next move (checked against each game in the database replayed on its own), the
published real games beside them (checked against the shipped file read on its own), an illegal
move or a game with custom rules refused with the reason, nothing yet, and shared with `public`."""

from __future__ import annotations

import json

from bot.games.explorer import (
    PUBLISHED_GAMES,
    FinishedGame,
    Tally,
    explored_position,
    standard_position,
)
from tak import Result, parse_result
from tests.bot.games.test_explorer import brute_force
from tests.cogs.conftest import World
from tests.cogs.discord_locale import discord_in


async def played(world: World, line: str):
    """A 5x5 game between Alice (white) and Bob with the moves of `line` played; its thread."""
    thread = await world.start_game(size=5)
    for ply, move in enumerate(line.split()):
        await world.move((world.alice, world.bob)[ply % 2], thread, move)
    return thread


async def finished_game(world: World, line: str, loser) -> None:
    thread = await played(world, line)
    asked = await loser.slash(thread, "tak resign")
    await loser.click(asked.response.message, label="Resign")


def table(description: str, heading: str = "**This server**") -> list[list[str]]:
    """The rows of the embed's table of next moves under `heading` (the code block after it),
    cell by cell."""
    block = description.split(heading, 1)[1].split("```")[1]
    return [line.split() for line in block.strip().splitlines()]


def published_count(size: int, line: str) -> dict[str | None, Tally]:
    """The independent count of the published games: the shipped file read line by line, each
    game replayed on its own."""
    games = []
    for number, text in enumerate(PUBLISHED_GAMES.read_text(encoding="utf-8").splitlines()):
        row = json.loads(text)
        if row["size"] == size:
            moves = tuple(row["moves"].split())
            games.append(FinishedGame(number, moves, parse_result(row["result"])))
    return brute_force(games, size, explored_position(standard_position(size), line))


def as_rows(counted: dict[str | None, Tally]) -> dict[str, tuple[int, int, int]]:
    return {move or "ended": (t.white, t.draws, t.black) for move, t in counted.items()}


def table_rows(rows: list[list[str]]) -> dict[str, tuple[int, int, int]]:
    """A table's rows (less its header) as move → (white wins, draws, black wins)."""
    return {row[0]: (int(row[2]), int(row[4]), int(row[6])) for row in rows[1:]}


async def database_count(world: World, line: str) -> dict[str | None, Tally]:
    """The independent count: every finished game in the database, replayed on its own."""
    services = world.env.bot.services
    games = []
    for view in await services.lookup.finished_games(limit=100):
        record = await services.lookup.record(view.id)
        assert isinstance(view.result, Result)
        games.append(
            FinishedGame(view.id, tuple(ply.move.ptn() for ply in record.plies), view.result)
        )
    return brute_force(games, 5, explored_position(standard_position(5), line))


async def test_the_explorer_counts_the_games_from_moves_or_a_game(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    await finished_game(world, "a1 e5 c3 d4 c4 d3 b3", bob)  # white wins
    await finished_game(world, "a1 e5 c4 d3 c3 d4 b2", alice)  # the same position, black wins
    await played(world, "a1 e5 c3 d4")  # game 3, going on

    line = "a1 e5 c3 d4 c4 d3"
    explored = await carol.slash(world.channel, "game explore", moves=line, size=5)
    assert explored.ephemeral
    [embed] = explored.response.embeds
    assert embed.title == "Opening explorer, 5x5"
    description = embed.description or ""
    assert description.startswith("After 1. a1 e5 2. c3 d4 3. c4 d3:")
    assert "2 finished games reached this position:" in description
    assert "https://ptn.ninja/" in description
    assert table(description) == [
        ["Moves", "Games", "White", "Draw", "Black"],
        ["b2", "1", "0", "0%", "0", "0%", "1", "100%"],
        ["b3", "1", "1", "100%", "0", "0%", "0", "0%"],
    ]
    independent = await database_count(world, line)
    assert independent == {"b2": Tally(black=1), "b3": Tally(white=1)}
    assert "games against Bredon are left out" in (embed.footer.text or "")
    assert published_count(5, line) == {}
    assert "No published game reached it." in description

    from_game = await carol.slash(world.channel, "game explore", game=3)
    description = from_game.response.embeds[0].description or ""
    assert description.startswith("Game #3 at ply 4:")
    assert table(description)[1:] == [["c4", "1", "1", "100%", "0", "0%", "0", "0%"]]
    assert await database_count(world, "a1 e5 c3 d4") == {"c4": Tally(white=1)}
    then = await carol.slash(world.channel, "game explore", game=3, moves="c4 d3")
    assert (then.response.embeds[0].description or "").startswith(
        "Game #3 at ply 4, then 3. c4 d3:"
    )
    other_size = await carol.slash(world.channel, "game explore", game=3, size=6)
    assert other_size.ephemeral and other_size.response.content == (
        "Game #3 is played on 5x5: leave out the size, or the game."
    )

    with discord_in(world.env, carol, "de"):
        german = await carol.slash(world.channel, "game explore", moves=line, size=5)
    [embed] = german.response.embeds
    assert embed.title == "Eröffnungsbuch, 5x5"
    description = embed.description or ""
    assert "2 beendete Partien haben diese Stellung erreicht:" in description
    assert table(description, "**Dieser Server**")[0] == [
        "Züge",
        "Partien",
        "Weiß",
        "Remis",
        "Schwarz",
    ]
    assert max(len(row) for row in description.split("```")[-2].splitlines()) <= 38  # a phone


async def test_the_published_games_are_counted_beside_the_servers(world: World) -> None:
    explored = await world.alice.slash(world.channel, "game explore", size=6)
    description = explored.response.embeds[0].description or ""
    independent = published_count(6, "")
    games = sum(tally.games for tally in independent.values())
    assert games == 57  # 48 PlayTak tournament games and 9 from taktician's collection
    assert f"**Published games**: {games} reached this position:" in description
    shown = table(description, "**Published games**")
    assert table_rows(shown) == as_rows(independent)  # every first move: fewer than ten
    asked = await world.alice.slash(world.channel, "game explore", moves="a1 f6", size=6)
    description = asked.response.embeds[0].description or ""
    counted = published_count(6, "a1 f6")
    assert 1 < len(counted) <= 10  # the replies to the corners, all shown
    assert table_rows(table(description, "**Published games**")) == as_rows(counted)
    assert "No finished game of this server has reached this position yet." in description
    for block in description.split("```")[1::2]:
        assert max(map(len, block.splitlines())) <= 38  # a phone


async def test_a_game_with_custom_rules_is_refused(world: World) -> None:
    thread = await world.start_game(size=5, opening="no-swap")
    await world.move(world.alice, thread, "a1")
    refused = await world.carol.slash(world.channel, "game explore", game=1)
    assert refused.ephemeral and not refused.response.embeds
    assert refused.response.content == (
        "Game #1 is not played with the standard rules (the empty board, the standard pieces, "
        "the swap opening), so the server's games cannot be compared with it."
    )


async def test_an_illegal_move_is_refused_with_the_reason(world: World) -> None:
    refused = await world.alice.slash(world.channel, "game explore", moves="a1 e9", size=5)
    assert refused.ephemeral and refused.response.content.startswith("e9")
    assert not refused.response.embeds


async def test_with_no_games_yet_it_says_so_and_shares_with_public(world: World) -> None:
    alone = await world.alice.slash(world.channel, "game explore")
    [embed] = alone.response.embeds
    assert embed.title == "Opening explorer, 6x6"  # the server's size
    assert (embed.description or "").startswith("The start of the game:")
    assert "No finished game of this server has reached this position yet." in (
        embed.description or ""
    )
    before = len(world.bot_messages(world.channel))
    await world.alice.slash(world.channel, "game explore", moves="a1", public=True)
    assert len(world.bot_messages(world.channel)) == before + 1
    shared = world.last_bot_message(world.channel).embeds[0]
    assert (shared.description or "").startswith("After 1. a1:")
