"""Crafted files attached to `/game view` and `/tournament report`: each is refused or shown while
the event loop keeps turning (a ticker measures the longest gap between its ticks), and one
player's pictures never hold more than one render slot."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import AsyncIterator
from typing import Any, cast

import discord
import pytest
from PIL import Image

from benchmarks.parsers import LONG_NAME, Attached, filled, timed_with_ticker
from bot.errors import BredonError, StoreClosed
from bot.tournaments.corrections import MAX_PTN_BYTES
from bot.work.attached_files import FileReader, FileTooSlow, ReaderNotStarted, read_game
from bot.work.fair_slots import FairSlots
from cogs.commands.game import MAX_PTN_FILE_BYTES, read_attached_game
from cogs.commands.tournament import read_reported_file
from cogs.delivery.table import MAX_RENDERS, GameTable
from tak.ptn import MAX_TAG_VALUE_LENGTH
from tests.cogs.commands.test_game_view import PLAYTAK_GAME

# Only a loop held by one piece of work goes this long between ticks; a busy machine does not.
BLOCKED = 1.0


def attached(filename: str, data: bytes) -> discord.Attachment:
    return cast(discord.Attachment, Attached(data, filename))


@pytest.fixture
async def reader() -> AsyncIterator[FileReader]:
    made = GameTable(None, None).files  # type: ignore[arg-type]  # the bot's own
    yield made
    await made.close()


@pytest.mark.parametrize(
    ("read", "cap", "refusal"),
    [
        (read_attached_game, MAX_PTN_FILE_BYTES, "That file is not a game I can read:"),
        (read_reported_file, MAX_PTN_BYTES, "The file is refused:"),
    ],
)
async def test_a_file_of_open_comments_is_refused_while_the_loop_turns(
    reader: FileReader, read: Any, cap: int, refusal: str
) -> None:
    hostile = filled(cap, '[Size "6"]\n', "{")
    refused, _, stall = await timed_with_ticker(read(attached("a.ptn", hostile), reader, 1))
    assert stall < BLOCKED
    assert isinstance(refused, BredonError)
    # Refused by the reader, or stopped if the reader is slow on it (as before issue 23).
    unread = refused.message.startswith(refusal)
    assert unread or isinstance(refused, FileTooSlow), refused.message


async def test_a_real_game_reads_the_same_in_the_worker(reader: FileReader) -> None:
    data = PLAYTAK_GAME.read_bytes()
    read, _, stall = await timed_with_ticker(
        read_attached_game(attached("53752.ptn", data), reader, 1)
    )
    assert stall < BLOCKED and not isinstance(read, BredonError)
    record, final = read
    assert record.ptn() == read_game(data.decode())[0].ptn()
    assert final.tps() == read_game(data.decode())[1].tps()
    reported, _, _ = await timed_with_ticker(
        read_reported_file(attached("53752.ptn", data), reader, 1)
    )
    assert not isinstance(reported, BredonError) and reported.ptn() == record.ptn()


async def test_a_board_of_the_longest_names_is_drawn_while_the_loop_turns(
    reader: FileReader,
) -> None:
    """The longest name a file may carry (a tag's value at its cap), and names of 8,000
    characters drawn without a file (no name is measured past its useful prefix)."""
    name = LONG_NAME[:MAX_TAG_VALUE_LENGTH]
    data = f'[Size "6"]\n[Player1 "{name}"]\n[Player2 "{name}"]\n1. a1 f6 2. c3 d4\n'.encode()
    table = GameTable(None, None)  # type: ignore[arg-type]

    async def view() -> bytes:
        record, final = await read_attached_game(attached("long.ptn", data), reader, 1)
        players = (record.tag("Player1") or "", record.tag("Player2") or "")
        file = await table.position_file(final, players, viewer_id=None, name="long.png")
        return file.fp.read()

    async def drawn_without_a_file() -> bytes:
        final = read_game(data.decode())[1]
        players = (LONG_NAME, LONG_NAME)
        file = await table.position_file(final, players, viewer_id=None, name="long.png")
        return file.fp.read()

    for draw in (view, drawn_without_a_file):
        png, _, stall = await timed_with_ticker(draw())
        assert stall < BLOCKED
        assert isinstance(png, bytes)
        assert Image.open(io.BytesIO(png)).format == "PNG"


async def test_work_that_takes_too_long_is_ended_and_the_next_file_is_read() -> None:
    reader = FileReader(timeout=2.0)  # 2 s a file, after the time the worker takes to start
    try:
        slow = asyncio.create_task(reader.run(time.sleep, 600, player_id=1))
        await asyncio.sleep(0.2)
        waiting = asyncio.create_task(reader.run(read_game, '[Size "4"]\n1. a1 d4', player_id=2))
        with pytest.raises(FileTooSlow, match="over 2 s"):
            await slow
        record, final = await waiting  # by the new worker
        assert final.ply == 2 and len(record.plies) == 2
    finally:
        await reader.close()


async def test_a_players_files_are_read_in_turn_with_the_others() -> None:
    """Player 1 sends two files that take a while, then player 2 one: player 2's is read
    second, before player 1's second."""
    reader = FileReader()
    read: list[str] = []

    async def send(player: int, label: str, seconds: float) -> None:
        await reader.run(time.sleep, seconds, player_id=player)
        read.append(label)

    try:
        first = [asyncio.create_task(send(1, f"1.{n}", 0.3)) for n in range(2)]
        await asyncio.sleep(0.05)
        await asyncio.gather(*first, send(2, "2.0", 0.0))
        assert read == ["1.0", "2.0", "1.1"]
    finally:
        await reader.close()


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGKILL])
async def test_a_signal_to_the_worker_mid_file(sent: signal.Signals) -> None:
    """Ctrl-C in a terminal reaches every process of the group: the file is read and the worker
    kept (the bot stops its workers itself). A worker killed mid-file (the out-of-memory killer)
    has its file refused at once, not after the timeout, and the next file gets a new one."""
    reader = FileReader(timeout=30.0)
    try:
        worker = await reader.run(os.getpid)
        reading = asyncio.create_task(reader.run(time.sleep, 1.0))
        await asyncio.sleep(0.3)
        os.kill(worker, sent)
        if sent == signal.SIGINT:
            assert await asyncio.wait_for(reading, 10) is None
            assert await reader.run(os.getpid) == worker
        else:
            with pytest.raises(FileTooSlow):
                await asyncio.wait_for(reading, 10)
            assert await reader.run(os.getpid) != worker
    finally:
        await reader.close()


def children() -> set[multiprocessing.process.BaseProcess]:
    return set(multiprocessing.active_children())


async def test_closing_while_the_worker_starts_leaves_no_worker() -> None:
    before = children()
    reader = FileReader()
    reading = asyncio.create_task(reader.run(read_game, '[Size "4"]\n1. a1 d4'))
    while not children() - before:  # the worker is starting: its process is there
        await asyncio.sleep(0)
    await reader.close()
    with pytest.raises(StoreClosed):
        await reading
    await asyncio.sleep(1.0)  # what a start cut short might still do
    assert not children() - before


async def test_a_file_waiting_for_its_turn_at_the_stop_is_refused_and_starts_no_worker() -> None:
    before = children()
    reader = FileReader(timeout=10.0)
    reading = asyncio.create_task(reader.run(time.sleep, 5.0, player_id=1))
    waiting = asyncio.create_task(reader.run(read_game, '[Size "4"]\n1. a1 d4', player_id=2))
    while not children() - before:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    await reader.close()
    for refused in (reading, waiting):
        with pytest.raises(StoreClosed) as error:
            await refused
        assert error.value.message == "Bredon is restarting; please try again in a minute."
    await asyncio.sleep(1.0)
    assert not children() - before


async def test_a_worker_that_cannot_start_is_reported_as_such() -> None:
    reader = FileReader(preload=("tests.cogs.no_such_module",))
    try:
        with pytest.raises(ReaderNotStarted) as error:
            await reader.run(read_game, '[Size "4"]\n1. a1 d4')
        assert error.value.message == (
            "I could not start reading files just now; please try again in a minute."
        )
    finally:
        await reader.close()


async def test_one_player_holds_one_render_slot_however_many_pictures_they_ask_for() -> None:
    """Player 1 asks for three pictures that take long, then player 2 for one: player 2's is
    drawn beside player 1's first, not after all three."""
    table = GameTable(None, None)  # type: ignore[arg-type]
    release = threading.Event()
    started: list[str] = []

    def render(label: str) -> bytes:
        started.append(label)
        release.wait(10)
        return label.encode()

    first = [asyncio.create_task(table.draw(render, f"1.{n}", player_id=1)) for n in range(3)]
    await asyncio.sleep(0.05)
    second = asyncio.create_task(table.draw(render, "2.0", player_id=2))
    for _ in range(200):
        if len(started) == MAX_RENDERS:
            break
        await asyncio.sleep(0.01)
    assert started == ["1.0", "2.0"]
    release.set()
    assert await asyncio.gather(*first, second) == [b"1.0", b"1.1", b"1.2", b"2.0"]
    assert started == ["1.0", "2.0", "1.1", "1.2"]


async def test_fair_slots_take_one_job_per_player_at_a_time() -> None:
    slots = FairSlots(2)
    order: list[Any] = []

    async def job(player: int | None, label: str, hold: asyncio.Event) -> None:
        async with slots.slot(player):
            order.append(label)
            await hold.wait()

    hold = asyncio.Event()
    jobs = [
        asyncio.create_task(job(1, "a1", hold)),
        asyncio.create_task(job(1, "a2", hold)),
        asyncio.create_task(job(None, "post", hold)),
        asyncio.create_task(job(2, "b1", hold)),
    ]
    await asyncio.sleep(0.01)
    assert order == ["a1", "post"]  # player 1's second waits for their first
    hold.set()
    await asyncio.gather(*jobs)
    assert sorted(order) == ["a1", "a2", "b1", "post"]


async def test_a_broken_file_is_refused_in_the_viewers_language(world) -> None:
    """The engine's reason, a move's refusal inside it, in German for a German-speaking player;
    in English, as the engine wrote it, for an English-speaking one."""
    await world.carol.slash(world.channel, "profile settings", language="de")
    broken = ("broken.ptn", b'[Size "5"]\n1. a1 e5 2. c3 c3\n')
    german = await world.carol.slash(world.channel, "game view", file=broken)
    english = await world.bob.slash(world.channel, "game view", file=broken)
    assert german.ephemeral and german.response.content == (
        "Diese Datei ist keine Partie, die ich lesen kann: Zug 2 (Schwarz) c3: c3 ist besetzt, "
        "und Steine können nur auf leere Felder gesetzt werden."
    )
    assert english.response.content == (
        "That file is not a game I can read: Move 2 (black) c3: c3 is occupied, and pieces can "
        "only be placed on empty squares."
    )


async def test_view_of_a_file_with_the_longest_names_shows_its_board(world) -> None:
    def record(name: str) -> bytes:
        return f'[Size "5"]\n[Player1 "{name}"]\n[Player2 "Bob"]\n1. a1 e5 2. c3 d4\n'.encode()

    refused = await world.carol.slash(
        world.channel, "game view", file=("long.ptn", record(LONG_NAME))
    )
    assert refused.response.content == (
        "That file is not a game I can read: Tag Player1: a tag's value is at most 256 "
        "characters; this one has 8,016."
    )
    data = record(LONG_NAME[:MAX_TAG_VALUE_LENGTH])
    shown = await world.carol.slash(world.channel, "game view", file=("long.ptn", data))
    assert shown.ephemeral
    cut = "Alexandria the Longname Alexandria the Longname Alexandria…"
    assert f"**{cut}** (white) vs **Bob**" in shown.response.content
    [attachment] = shown.response.message.attachments
    board = Image.open(io.BytesIO(await attachment.read()))
    assert board.format == "PNG" and board.width >= 400
