"""A league as the services hand it out: its settings, teams, rounds, matches and boards."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.games.model import GameRequest, GameSetup
from bot.players.model import PlayerRef

MAX_BOARDS = 6  # a lineup is given in one command, a player an option


class LeagueStatus(StrEnum):
    SIGNUP = "signup"  # teams are being added
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class LeagueView:
    id: int
    guild_id: int
    channel_id: int
    name: str
    organizer: PlayerRef
    boards: int
    size: int
    komi: float
    days_per_move: int
    round_days: int  # round r's lineups are due r * round_days after the start
    status: LeagueStatus
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    cancelled_at: datetime | None = None  # called off by its organizers (then FINISHED)
    legs: int = 1  # 2: a double round robin, each pair of teams meeting twice

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def setup(self) -> GameSetup:
        """Every game of the league is played with these settings."""
        return GameSetup.create(
            GameRequest(), size=self.size, komi=self.komi, days_per_move=self.days_per_move
        )


@dataclass(frozen=True, slots=True)
class TeamView:
    id: int
    league_id: int
    name: str
    captain: PlayerRef
    roster: tuple[PlayerRef, ...]  # in the order they were added; the captain first


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    lineup_deadline: datetime
    begun: bool  # its games are made


@dataclass(frozen=True, slots=True)
class BoardView:
    board: int
    home: PlayerRef | None  # None: nobody, the board forfeited
    away: PlayerRef | None
    game_id: int | None
    home_halves: int  # game points in halves
    away_halves: int
    decided: bool

    @property
    def home_white(self) -> bool:
        return self.board % 2 == 1


@dataclass(frozen=True, slots=True)
class MatchView:
    """A team match of a round; `away_id` None: the home team's bye."""

    id: int
    league_id: int
    round: int
    home_id: int
    home_name: str
    away_id: int | None
    away_name: str | None
    decided: bool
    boards: tuple[BoardView, ...]

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def halves(self) -> tuple[int, int]:
        return (
            sum(b.home_halves for b in self.boards),
            sum(b.away_halves for b in self.boards),
        )
