"""A board as PNG bytes: the renderer's entry point for one position."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from rendering.board import DEFAULT_SIZE, ENGLISH, BoardWords, Scene, draw_scene
from rendering.palette import to_palette
from rendering.themes import THEMES, Theme
from tak import Call, Move, Position, Result, tak_call

# On palette images zlib level 3 is as fast as level 1 and a fifth smaller; level 9 saves another
# third at six times the time.
_PNG_LEVEL = 3


def resolve_theme(theme: str | Theme) -> Theme:
    """A theme by name (one of :data:`rendering.THEMES`), or the given one."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        names = ", ".join(THEMES)
        raise ValueError(f"There is no theme {theme!r}; the themes are {names}.") from None


def scene(
    position: Position,
    *,
    last_move: Move | None,
    players: tuple[str, str],
    theme: str | Theme,
    size: int,
    show_tak: bool | None,
    result: Result | None,
    tinue: bool = False,
    words: BoardWords = ENGLISH,
) -> Scene:
    """What to draw, with every default decided (see :func:`render_board`)."""
    if len(players) != 2:
        raise ValueError(f"Give two player names, not {len(players)}.")
    result = result if result is not None else position.result
    if show_tak is None:
        call = Call.NONE if result is not None else tak_call(position)
        show_tak, tinue = call is not Call.NONE, call is Call.TINUE
    names = (str(players[0]), str(players[1]))
    theme_chosen = resolve_theme(theme)
    return Scene(
        position,
        last_move,
        names,
        theme_chosen,
        size,
        show_tak,
        result,
        show_tak and tinue,
        words=words,
    )


def render_board(
    position: Position,
    *,
    last_move: Move | None = None,
    players: tuple[str, str] = ("Player 1", "Player 2"),
    theme: str | Theme = "default",
    size: int = DEFAULT_SIZE,
    show_tak: bool | None = None,
    result: Result | None = None,
    tinue: bool = False,
    words: BoardWords = ENGLISH,
) -> bytes:
    """The position as PNG bytes, `size` px wide.

    - `last_move`: tinted on the board (its square, or a spread's origin and every square it
      dropped on); usually `position.last_move`.
    - `players`: the names of player 1 (white) and player 2 (black), in any script; long names
      are cut with an ellipsis.
    - `theme`: a name from :data:`rendering.THEMES` or a :class:`Theme`.
    - `show_tak`: whether to show the "Tak" marker, meaning that the player who just moved
      threatens to finish a road with their next move; with `tinue` it reads "Tinuë" (no reply
      stops the threat). The caller that already knows (the bot works it out once per move)
      passes both. None (the default) works them out with :func:`tak.tak_call`, which then
      decides `tinue` too.
    - `result`: shown in a banner below the board; by default the board's own result (a road,
      drawn across its squares, or a flat win) when the game ended on the board. Pass a result
      for games ended otherwise (resignation, time, agreement).
    - `words`: the words drawn (:class:`rendering.board.BoardWords`), English by default.

    A stack too tall for its square to show every piece readably on a phone also gets a strip
    below the board with its full order (see :func:`rendering.board.stack_strips`), which makes the
    image taller.

    The same arguments always give the same bytes (the PNG holds no time stamp).
    Raises ValueError for an unknown theme, a width out of range or a last move off the board.
    """
    chosen = scene(
        position,
        last_move=last_move,
        players=players,
        theme=theme,
        size=size,
        show_tak=show_tak,
        result=result,
        tinue=tinue,
        words=words,
    )
    return png_bytes(to_palette(draw_scene(replace(chosen, strips=True)), chosen.theme))


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=_PNG_LEVEL)
    return buffer.getvalue()
