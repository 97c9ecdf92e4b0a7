"""The engine's errors. Every message is a sentence a player can read as is."""


class TakError(ValueError):
    """Base class: anything the engine refuses."""


class PTNError(TakError):
    """Text that is not valid PTN (a move, a result or a game file)."""


class TPSError(TakError):
    """Text that is not a valid TPS position."""


class IllegalMoveError(TakError):
    """A well-formed move that the rules do not allow in this position."""
