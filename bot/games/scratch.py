"""The scratch board: moves tried from a game's position without playing them (as PlayTak's
scratch board and PTN Ninja's branches), each with the Tak or Tinuë it would make."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import IllegalMove, InvalidSetting
from tak import Position, TakError
from tak.ptn import move_number
from tak.tinue import call

MAX_SCRATCH_PLIES = 30  # a line to look at, not a game to play out; calls are judged each ply


@dataclass(frozen=True, slots=True)
class ScratchLine:
    """The position after the line, and the line as PTN writes it (numbered, marked)."""

    position: Position
    text: str


def try_line(start: Position, text: str) -> ScratchLine:
    """Play the moves of `text` (PTN, space-separated) on a copy of `start`; the first that is
    not legal there is refused with its reason and nothing is shown. `start` is unchanged."""
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidSetting("Write the moves to try, e.g. `c3 d4 c4`.")
    if len(words) > MAX_SCRATCH_PLIES:
        raise InvalidSetting(f"Try at most {MAX_SCRATCH_PLIES} plies at a time.")
    position = start.copy()
    written: list[str] = []
    for word in words:
        if position.result is not None:
            raise IllegalMove(word, f"the game is over there ({position.result.ptn()})")
        ply = position.ply
        try:
            move = position.play(word)  # marks as typed (c3', c3!) are read and left out
        except TakError as error:
            raise IllegalMove(word, str(error)) from None
        # "7. a1 b2'" as PTN writes it; a line that starts with black's ply, "7... b2".
        number = f"{move_number(ply)} " if ply % 2 == 0 or not written else ""
        written.append(f"{number}{move.ptn()}{call(position).mark}")
    return ScratchLine(position, " ".join(written))
