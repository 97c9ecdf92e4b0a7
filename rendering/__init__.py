"""Board images for Tak: a position in, PNG bytes out; a game in, an animated GIF out (under a
byte budget: long games are sampled, see :func:`render_replay_within`).

The renderer knows nothing of Discord or the database::

    >>> from tak import Position
    >>> from rendering import render_board
    >>> png = render_board(Position(6), players=("alice", "bob"))
"""

from rendering.board import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, BoardWords, komi_text, layout
from rendering.render import render_board
from rendering.replay import (
    CLOSING_PLIES,
    MAX_REPLAY_BYTES,
    REPLAY_SIZE,
    ReplayImage,
    ReplayWords,
    render_replay,
    render_replay_within,
)
from rendering.themes import THEMES, PieceColours, Theme, theme_problems

__all__ = [
    "CLOSING_PLIES",
    "DEFAULT_SIZE",
    "MAX_REPLAY_BYTES",
    "MAX_SIZE",
    "MIN_SIZE",
    "REPLAY_SIZE",
    "THEMES",
    "BoardWords",
    "PieceColours",
    "ReplayImage",
    "ReplayWords",
    "Theme",
    "komi_text",
    "layout",
    "render_board",
    "render_replay",
    "render_replay_within",
    "theme_problems",
]
