"""A season league as the services hand it out: its settings, checked once
(:meth:`LeagueRules.create`), and its seasons, divisions and hall of fame."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.errors import InvalidSetting
from bot.games.model import MAX_MATCH_GAMES, GameSetup
from bot.languages import _
from bot.players.model import PlayerRef
from bot.tournaments.tournament import TournamentFormat

MAX_DIVISION_SIZE = 16
MAX_PERIOD_DAYS = 28
MAX_NAME_LENGTH = 40


class SeasonStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class LeagueRules:
    """How each season is played: divisions of about `division_size` players, one round every
    `period_days` with that deadline, paired as a round robin or a Swiss (one round fewer than
    the division has players), `movers` up from and down from each division,
    `games_per_match` a pairing."""

    format: TournamentFormat = TournamentFormat.ROUND_ROBIN
    division_size: int = 8
    period_days: int = 7
    movers: int = 1
    games_per_match: int = 2

    @classmethod
    def create(
        cls,
        *,
        format: str = TournamentFormat.ROUND_ROBIN,
        division_size: int = 8,
        period_days: int = 7,
        movers: int = 1,
        games_per_match: int = 2,
    ) -> LeagueRules:
        """The checked rules; raises :class:`InvalidSetting` with the reason."""
        if format not in (TournamentFormat.ROUND_ROBIN, TournamentFormat.SWISS):
            raise InvalidSetting(_("A season's divisions play a round robin or a Swiss."))
        if not 3 <= division_size <= MAX_DIVISION_SIZE:
            raise InvalidSetting(_("A division has 3 to {most} players.", most=MAX_DIVISION_SIZE))
        if not 1 <= period_days <= MAX_PERIOD_DAYS:
            raise InvalidSetting(_("A round lasts 1 to {most} days.", most=MAX_PERIOD_DAYS))
        if not 0 <= movers <= division_size // 2:
            raise InvalidSetting(
                _(
                    "Up to {most} players can go up and down from a division of {size}.",
                    most=division_size // 2,
                    size=division_size,
                )
            )
        if not 1 <= games_per_match <= MAX_MATCH_GAMES:
            raise InvalidSetting(_("A match has 1 to {most} games.", most=MAX_MATCH_GAMES))
        return cls(TournamentFormat(format), division_size, period_days, movers, games_per_match)

    @property
    def period(self) -> timedelta:
        return timedelta(days=self.period_days)


@dataclass(frozen=True, slots=True)
class LeagueView:
    id: int
    guild_id: int
    channel_id: int
    name: str
    organizer: PlayerRef
    rules: LeagueRules
    setup: GameSetup
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeasonView:
    id: int
    league_id: int
    number: int
    status: SeasonStatus
    due_at: datetime | None  # sign-up: when it starts by itself; running: its round's deadline
    started_at: datetime | None
    finished_at: datetime | None
    player_count: int


@dataclass(frozen=True, slots=True)
class DivisionView:
    """A season's division: its tournament (pairings, standings and the rest as any event's)."""

    season: int
    number: int  # 1 the top
    tournament_id: int


@dataclass(frozen=True, slots=True)
class Move:
    """Where a player of a finished season goes next."""

    player: PlayerRef
    division: int  # played in
    place: int  # in its final table
    next_division: int


@dataclass(frozen=True, slots=True)
class Honour:
    """A line of the hall of fame: a division's winner in a finished season."""

    season: int
    division: int
    player: PlayerRef
