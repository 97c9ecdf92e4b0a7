"""The scratch board: moves tried from a game's position without playing them (as PlayTak's
scratch board and PTN Ninja's branches), each with the Tak or Tinuë it would make."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bot.errors import IllegalMove, InvalidSetting
from bot.languages import _
from tak import Move, Position, TakError
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
        raise InvalidSetting(_("Write the moves to try, e.g. `c3 d4 c4`."))
    if len(words) > MAX_SCRATCH_PLIES:
        raise InvalidSetting(_("Try at most {most} plies at a time.", most=MAX_SCRATCH_PLIES))
    position = start.copy()
    written = [f"{move.ptn()}{call(position).mark}" for move in played(position, words)]
    return ScratchLine(position, numbered(start.ply, written))


def played(position: Position, words: list[str]) -> Iterator[Move]:
    """Play the moves `words` on `position` in turn (it changes), each yielded once played;
    the first that is not legal, or comes after the end of the game, is refused with its
    reason."""
    for word in words:
        if position.result is not None:
            raise IllegalMove(
                word, _("the game is over there ({result})", result=position.result.ptn())
            )
        try:
            move = position.play(word)  # marks as typed (c3', c3!) are read and left out
        except TakError as error:
            raise IllegalMove(word, str(error)) from None
        yield move


def numbered(ply: int, plies: list[str]) -> str:
    """Plies from the ply at index `ply` as PTN writes them: "7. a1 b2'", or "7... b2 8. c3"
    for a line that starts with black's ply."""
    return " ".join(
        f"{move_number(at)} {text}" if at % 2 == 0 or at == ply else text
        for at, text in enumerate(plies, start=ply)
    )
