"""The engine's errors. Every message is a sentence a player can read as is."""


class TakError(ValueError):
    """Base class: anything the engine refuses."""


class PTNError(TakError):
    """Text that is not valid PTN (a move, a result or a game file)."""


class TPSError(TakError):
    """Text that is not a valid TPS position."""


class NotASquare(PTNError):
    """A move naming a square no board has (``z9``); ``square`` is its name, so that a caller who
    knows the board can say which squares it has (:func:`tak.moves.off_board`)."""

    def __init__(self, message: str, square: str) -> None:
        super().__init__(message)
        self.square = square


class IllegalMoveError(TakError):
    """A well-formed move that the rules do not allow in this position."""


class SetupError(TakError):
    """A board size, komi, reserve or opening that no game can be played with."""


def quoted(text: str, limit: int = 40) -> str:
    """`repr` of what someone typed, cut short so that an error message stays readable (and fits
    a chat message) whatever they typed."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"
