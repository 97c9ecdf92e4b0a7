"""Board images for Tak: a position in, PNG bytes out; a game in, an animated GIF out.

The renderer knows nothing of Discord or the database::

    >>> from tak import Position
    >>> from rendering import render_board
    >>> png = render_board(Position(6), players=("alice", "bob"))
"""

from rendering.board import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, komi_text, layout
from rendering.render import REPLAY_SIZE, render_board, render_replay
from rendering.themes import THEMES, PieceColours, Theme, theme_problems

__all__ = [
    "DEFAULT_SIZE",
    "MAX_SIZE",
    "MIN_SIZE",
    "REPLAY_SIZE",
    "THEMES",
    "PieceColours",
    "Theme",
    "komi_text",
    "layout",
    "render_board",
    "render_replay",
    "theme_problems",
]
