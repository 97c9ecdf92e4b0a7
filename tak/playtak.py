"""PlayTak's server notation, as its game history stores moves ("P A1 C", "M A2 A5 2 1"), read
as PTN ("Ca1", "3a2+21"): the conversion PlayTak's own PTN service makes (playtak-api,
``games-history/services/ptn.service.ts``)."""

from __future__ import annotations

from tak.errors import TakError

_PIECES = {"": "", "W": "S", "C": "C"}  # a placement's piece: flat, wall ("W"), capstone


def server_move_ptn(text: str) -> str:
    """One move in the server's notation as PTN: a placement ``P <square> [W|C]``, or a move
    ``M <from> <to> <drops>...`` (the pieces dropped on each square, nearest first)."""
    parts = text.split()
    try:
        if parts[0] == "P" and len(parts) in (2, 3):
            return _PIECES[parts[2] if len(parts) == 3 else ""] + _square(parts[1])
        if parts[0] == "M" and len(parts) >= 4:
            origin, goal = _square(parts[1]), _square(parts[2])
            drops = [int(drop) for drop in parts[3:]]
            if origin[0] != goal[0] and origin[1] == goal[1]:
                direction = ">" if goal[0] > origin[0] else "<"
                distance = abs(ord(goal[0]) - ord(origin[0]))
            elif origin[0] == goal[0] and origin[1] != goal[1]:
                direction = "+" if goal[1] > origin[1] else "-"
                distance = abs(int(goal[1]) - int(origin[1]))
            else:
                raise ValueError
            if distance != len(drops) or min(drops) < 1:
                raise ValueError
            return f"{sum(drops)}{origin}{direction}{''.join(map(str, drops))}"
    except (KeyError, IndexError, ValueError):
        pass
    raise TakError(f"Not a move in PlayTak's server notation: {text!r}.")


def _square(text: str) -> str:
    square = text.lower()
    if len(square) != 2 or not "a" <= square[0] <= "h" or not "1" <= square[1] <= "8":
        raise ValueError
    return square
