"""A tournament as the services hand it out: its settings and status, its entrants, its pairings
and rounds, built from database rows by :mod:`bot.tournaments.storage` and read by the cogs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.games.model import PLAIN_TIEBREAKS, GameSetup, GameView, TiebreakRule
from bot.languages import _
from bot.players.model import PlayerRef
from bot.tournaments import MatchResult, Scoring, Standing, group_rounds, snake_groups


class TournamentFormat(StrEnum):
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    SWISS = "swiss"
    ELIMINATION = "elimination"
    GROUPS = "groups"  # round-robin groups, then a knockout of the top players of each

    def word(self) -> str:
        """The format in the words being spoken ("round robin", "Swiss"...)."""
        return {
            TournamentFormat.ROUND_ROBIN: _("round robin"),
            TournamentFormat.DOUBLE_ROUND_ROBIN: _("double round robin"),
            TournamentFormat.SWISS: _("Swiss"),
            TournamentFormat.ELIMINATION: _("single elimination"),
            TournamentFormat.GROUPS: _("groups -> knockout"),
        }[self]


class RequestedBye(StrEnum):
    """What a bye a Swiss player asked for scores in match points: a drawn match's points, or
    nothing (game points: nothing either way)."""

    HALF = "half"
    ZERO = "zero"


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    def word(self) -> str:
        """The stage in the words being spoken ("signup", "running"...)."""
        return {
            TournamentStatus.SIGNUP: _("signup"),
            TournamentStatus.RUNNING: _("running"),
            TournamentStatus.FINISHED: _("finished"),
            TournamentStatus.CANCELLED: _("cancelled"),
        }[self]


class EntrantStatus(StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class TournamentView:
    id: int
    guild_id: int
    channel_id: int  # where its games start
    name: str
    format: TournamentFormat
    swiss_rounds: int | None  # Swiss only
    setup: GameSetup  # of every game
    games_per_match: int
    scoring: Scoring
    max_players: int
    signup_deadline: datetime | None
    organizer: PlayerRef  # who created it
    status: TournamentStatus
    current_round: int  # 0 before the start
    rounds_total: int | None  # known from the start
    winner: PlayerRef | None
    player_count: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    vacation_allowed: bool = True  # False: its games' clocks run whoever is on vacation
    group_count: int | None = None  # groups -> knockout only
    group_advance: int | None = None  # groups -> knockout: how many of each group go through
    tiebreaks: TiebreakRule = PLAIN_TIEBREAKS  # the games that settle a drawn knockout match
    requested_bye: RequestedBye = RequestedBye.HALF  # Swiss: what a requested bye scores

    @property
    def group_stage_rounds(self) -> int:
        """How many rounds the groups play (0 for other formats, or before the start)."""
        if self.group_count is None or self.started_at is None:
            return 0
        return len(group_rounds(snake_groups(range(self.player_count), self.group_count)))

    def is_knockout_round(self, number: int) -> bool:
        """Whether round `number` is a knockout round (its matches cannot end drawn)."""
        if self.format is TournamentFormat.ELIMINATION:
            return True
        return self.format is TournamentFormat.GROUPS and number > self.group_stage_rounds


@dataclass(frozen=True, slots=True)
class Entrant:
    player: PlayerRef
    seed: int | None  # 1 is the top seed; None until the start
    status: EntrantStatus
    joined_at: datetime
    group: int | None = None  # groups -> knockout: 0 for group A, from the start
    knockout_seed: int | None = None  # groups -> knockout: 1 is the top seed, once through

    @property
    def is_active(self) -> bool:
        return self.status is EntrantStatus.ACTIVE


@dataclass(frozen=True, slots=True)
class PairingView:
    """A match of a round (player 1 has white in its first game), or a bye (no player 2)."""

    id: int
    tournament_id: int
    round: int
    player1: PlayerRef
    player2: PlayerRef | None
    match_id: int | None  # None for a bye or a pairing forfeited before it was played
    points1: int
    points2: int
    winner: PlayerRef | None  # None while undecided, or for a drawn match
    forfeit: bool
    decided_at: datetime | None
    # A player asked to sit the round out: a requested bye (not the odd player's bye), or in a
    # round robin the forfeit it made.
    requested: bool = False

    @property
    def is_bye(self) -> bool:
        return self.player2 is None

    @property
    def is_decided(self) -> bool:
        return self.decided_at is not None

    def result(self) -> MatchResult:
        """The decided match for the pairing and standings logic."""
        assert self.player2 is not None and self.is_decided
        winner = None if self.winner is None else self.winner.id
        return MatchResult(
            self.round, self.player1.id, self.player2.id, self.points1, self.points2, winner
        )


@dataclass(frozen=True, slots=True)
class ByeRequest:
    """A bye asked for a round not yet paired (by the player or an organizer)."""

    player: PlayerRef
    round: int


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    pairings: tuple[PairingView, ...]  # byes included
    # Swiss: who has the odd player's bye again (byes asked for left an odd field of players who
    # had all had one; see bot.tournaments.swiss_round)
    second_byes: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentProgress:
    """What a change did to a tournament, for the Discord layer to announce."""

    tournament: TournamentView  # as it stands after the change
    decided: tuple[PairingView, ...] = ()  # results recorded
    rounds: tuple[RoundView, ...] = ()  # rounds that began (more than one if forfeits filled one)
    games: tuple[GameView, ...] = ()  # the first game of each new match
    stopped: tuple[GameView, ...] = ()  # games ended unplayed by a forfeit or a cancellation

    @property
    def finished(self) -> bool:
        return self.tournament.status is TournamentStatus.FINISHED


# ----------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the table: the computed standing with the player's name and status."""

    standing: Standing
    player: PlayerRef
    status: EntrantStatus
    group: int | None = None  # groups -> knockout: the group whose table this row is in (0: A)
