"""What a move or the end of a game did, as the services report it to their callers.

Kept apart from :mod:`bot.games.model` because an ending reports tournament progress, and the
tournament module builds on the views: this module sits above both, so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.model import GameView, MatchView, RatingChange
from bot.tournaments.tournament import TournamentProgress
from tak import Position, Result


@dataclass(frozen=True, slots=True)
class GameEnding:
    """How a game ended, what it scored, and what it did to its match."""

    game: GameView
    result: Result
    points: int  # the winner's score; 0 for draws and aborts
    match: MatchView | None
    next_game: GameView | None  # the match's next game, created with colours swapped
    ratings: tuple[RatingChange, RatingChange] | None = None  # white's, black's; rated games only
    tournament: TournamentProgress | None = None  # what the match's end did to its tournament


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """A move that was applied: the new position, the result if it ended the game, whether the
    mover now threatens to complete a road (the bot's cue to call "Tak") and whether no reply
    can stop it ("Tinuë", which is also a Tak); and the answer the opponent's conditional moves
    gave to it (:mod:`bot.games.conditions`). `repeated`: the request had already made this
    move (a command or button sent again), so nothing new was played."""

    game: GameView
    move: str  # canonical PTN
    ply: int  # the ply number of this move, 1 for the first
    position: Position  # a copy the caller may keep
    tak: bool
    ending: GameEnding | None
    tinue: bool = False
    answer: MoveOutcome | None = None  # the opponent's answer, played by condition at once
    repeated: bool = False

    @property
    def result(self) -> Result | None:
        return self.ending.result if self.ending else None
