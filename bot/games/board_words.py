"""The words drawn on Bredon's pictures of a game (a board, a replay), in the language being
spoken: the Discord layer and the web pages draw the same."""

from __future__ import annotations

from bot.languages import _, thousands_separator
from rendering import BoardWords, ReplayWords


def board_words() -> BoardWords:
    """The words drawn on a board, in the language spoken (of whoever sees the picture)."""
    return BoardWords(
        move=_("Move {number}"),
        player=_("Player {number}"),
        komi=_("Komi {komi}"),
        flats=_("Flats {count}"),
        road=_("{name} wins by road"),
        on_flats=_("{name} wins on flats"),
        resignation=_("{name} wins by resignation"),
        time=_("{name} wins on time"),
        win=_("{name} wins"),
        agreement=_("Draw by agreement"),
        tied=_("Draw: the flat count is tied"),
        aborted=_("The game was aborted"),
    )


def replay_words() -> ReplayWords:
    """The words of a replay, in the language spoken."""
    return ReplayWords(
        board=board_words(),
        start_and_end=_("Only the start and the end of {plies} plies shown."),
        start_and_last=_("Only the start and the last {closing} of {plies} plies shown."),
        every=_("One ply in {stride} of {plies} shown."),
        every_then_last=_("One ply in {stride} of {plies} shown, then the last {closing}."),
        ply=_("ply {ply} of {plies}"),
        skipped=_("{count} skipped"),
        thousands=thousands_separator(),
    )
