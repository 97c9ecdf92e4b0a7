"""The pictures the pages show, drawn by ``rendering`` in a worker thread, a few at a time, and
kept: a board at a ply is the same picture until the game changes, so a page read again (or by
a thousand readers of one link) draws it once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from functools import partial

from bot.games.board_words import board_words
from bot.games.model import GameView
from rendering import render_board
from tak import Position
from web.kept import Kept

DRAWN_AT_ONCE = 2  # the machine's other work (the bot) keeps the rest
KEPT = 512  # pictures, some 20 to 60 kB each
THEME = "default"  # players choose themes; a page's reader is no player


class PictureCache:
    """Bytes by key, the least recently used forgotten past :data:`KEPT`; a picture asked for
    while it is drawn is drawn once."""

    def __init__(self, kept: int = KEPT) -> None:
        self._done: Kept[bytes] = Kept(kept)
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        self._slots = asyncio.Semaphore(DRAWN_AT_ONCE)

    async def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        if (done := self._done.get(key)) is not None:
            return done
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            async with self._slots:
                data = await asyncio.to_thread(draw)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no warning when no one else waited
            raise
        finally:
            del self._drawing[key]
        future.set_result(data)
        return self._done.put(key, data)


def board_drawing(game: GameView, position: Position, final: bool) -> Callable[[], bytes]:
    """How to draw `position` of `game` (its result on the last one once over), with the board's
    words in the language spoken now."""
    result = None
    if final and game.result is not None:
        result = position.result or game.result  # the board's own result carries the road
    return partial(
        render_board,
        position,
        last_move=position.last_move,
        players=(game.white.name, game.black.name),
        theme=THEME,
        result=result,
        words=board_words(),
    )
