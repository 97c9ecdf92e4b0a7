"""Through the real discord.py: a challenge from a TPS played to a result and exported, and
`/game view` on an attached PTN file (a real PlayTak game, and files that are not games)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tak import Position, tak_call
from tak.ptn import Game
from tests.cogs.conftest import ask_challenge, decoded_image

# White has a5 b5 c5 and b1, black a4 b4 c4; black to move (move 4, ply 7).
BLACK_TO_MOVE = "1,1,1,x2/2,2,2,x2/x5/x5/x,1,x3 2 4"
MOVES = ["d4", "d5", "e4"]  # black threatens e4, white threatens e5, black's road
# A game TakticianBot (white) lost to NohatCoder on PlayTak, from nelhage/taktician (MIT).
PLAYTAK_GAME = Path(__file__).parents[2] / "tak" / "real_games" / "53752.ptn"


async def images(message) -> list[Image.Image]:
    decoded = []
    for attachment in message.attachments:
        image = Image.open(io.BytesIO(await attachment.read()))
        image.load()
        decoded.append(image)
    return decoded


async def test_a_game_from_a_tps_is_played_to_a_road_and_exported_with_its_start(world) -> None:
    alice, bob = world.alice, world.bob
    challenge = await world.challenge(opponent=bob, color="white", tps=BLACK_TO_MOVE)
    assert "5x5, from a set position (move 4, black to move)" in challenge.content
    assert "unrated" in challenge.content
    assert (await decoded_image(challenge)).format == "PNG"  # the starting board
    await bob.click(challenge, label="Accept")
    thread = world.channel.threads[-1]
    start = world.last_bot_message(thread)
    assert bob.mention in start.content and "your move" in start.content  # black moves first

    nothing = await bob.slash(thread, "tak undo")
    assert "No move has been played" in nothing.response.content
    expected = Position.from_tps(BLACK_TO_MOVE, komi=2)
    players = [bob, alice]
    for ply, text in enumerate(MOVES):
        expected.play(text)
        await world.move(players[ply % 2], thread, text)
        posted = world.last_bot_message(thread).content
        if ply < len(MOVES) - 1:
            assert ("Tak!" in posted) is bool(tak_call(expected)), posted
    ending = world.last_bot_message(thread)
    assert "wins by road (0-R)" in ending.content and "bob" in ending.content
    assert "rating" not in ending.content.lower()

    ptn = await alice.slash(thread, "game ptn")
    [attachment] = ptn.response.message.attachments
    text = (await attachment.read()).decode()
    assert f'[TPS "{BLACK_TO_MOVE}"]' in text and "4. -- d4'\n5. d5' e4 0-R" in text
    record = Game.parse(text)
    assert record.final_position().tps() == expected.tps()
    replay = await alice.slash(thread, "game replay")
    gif = await decoded_image(replay.response.message)
    assert gif.format == "GIF" and gif.n_frames == len(MOVES) + 1


async def test_a_tps_that_cannot_start_a_game_is_refused_and_nothing_is_posted(world) -> None:
    before = len(world.bot_messages(world.channel))
    for tps, words in [
        ("x5/x5/x5 1 1", "That TPS cannot start a game: Rank 3"),
        ("1,1,1/x3/x3 2 3", "already over in that position"),
        (BLACK_TO_MOVE + "", "never rated"),
    ]:
        options = {"rated": True} if words == "never rated" else {}
        refused = await ask_challenge(world.alice, world.channel, tps=tps, **options)
        assert refused.ephemeral and words in refused.response.content, refused.response.content
    refused = await ask_challenge(world.alice, world.channel, tps=BLACK_TO_MOVE, size=6)
    assert "5x5 board, but the size asked for is 6" in refused.response.content
    assert len(world.bot_messages(world.channel)) == before


async def test_view_shows_a_real_playtak_game_and_its_replay(world) -> None:
    data = PLAYTAK_GAME.read_bytes()
    record = Game.parse(data.decode())
    shown = await world.carol.slash(world.channel, "game view", file=("53752.ptn", data))
    assert shown.ephemeral
    content = shown.response.content
    assert "**TakticianBot** (white) vs **NohatCoder** (black), 5x5" in content
    assert f"{len(record.plies)} plies; Black wins by road (0-R)." in content
    [board] = await images(shown.response.message)
    assert board.format == "PNG"

    replayed = await world.carol.slash(
        world.channel, "game view", file=("53752.ptn", data), replay=True
    )
    board, gif = await images(replayed.response.message)
    assert board.format == "PNG" and gif.format == "GIF"
    assert gif.n_frames == len(record.plies) + 1


async def test_view_refuses_files_that_are_not_games_with_the_reason(world) -> None:
    cases = [
        ("game.ptn", b"\xff\xfe\x00binary", "not text in UTF-8"),
        ("game.ptn", b'[Size "5"]\n\n1. a1 e5\n2. a1 b2\n', "Move 2 (white) a1"),
        ("notes.txt", b"hello", "neither a Size nor a TPS tag"),
        ("big.ptn", b" " * (256 * 1024 + 1), "at most 256 KiB"),
    ]
    for name, data, words in cases:
        refused = await world.carol.slash(world.channel, "game view", file=(name, data))
        assert refused.ephemeral and words in refused.response.content, refused.response.content
        assert refused.response.message.attachments == []


async def test_view_of_a_puzzle_shows_its_set_position_and_says_there_is_nothing_to_replay(
    world,
) -> None:
    puzzle = f'[Size "5"]\n[TPS "{BLACK_TO_MOVE}"]\n'.encode()
    shown = await world.carol.slash(
        world.channel, "game view", file=("puzzle.ptn", puzzle), replay=True
    )
    content = shown.response.content
    assert "**Player 1** (white) vs **Player 2** (black), 5x5, komi 0" in content
    assert "from a set position (move 4, black to move)" in content
    assert "0 plies; no result" in content and "no moves to replay" in content
    [board] = await images(shown.response.message)
    assert board.format == "PNG"
