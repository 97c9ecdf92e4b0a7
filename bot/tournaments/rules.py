"""The rules a tournament is created with, checked once when built (:meth:`TournamentRules.create`)
and passed whole; the game setup of its games is a :class:`~bot.games.model.GameSetup`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

from bot.errors import InvalidSetting
from bot.games.model import MAX_MATCH_GAMES, PLAIN_TIEBREAKS, TiebreakRule, check_days
from bot.languages import _
from bot.timekeeping.control import PER_MOVE, TimeControl
from bot.tournaments import DEFAULT_SCORING, DEFAULT_TIE_BREAKS, Scoring, ScoringSystem, TieBreak
from bot.tournaments.groups import MAX_GROUPS
from bot.tournaments.tournament import RequestedBye, TournamentFormat, TournamentView

MAX_PLAYERS = 64
MAX_SWISS_ROUNDS = 20
MAX_ROUNDS = 2 * (MAX_PLAYERS - 1)  # a double round robin of the most players
MAX_ADVANCE = 8  # players through from each group
MAX_TIEBREAK_GAMES = 9
DEFAULT_TIEBREAK_GAMES = 3
KNOCKOUTS = (TournamentFormat.ELIMINATION, TournamentFormat.GROUPS)

_Choice = TypeVar("_Choice", TournamentFormat, ScoringSystem, TieBreak, RequestedBye)


def _choice(kind: type[_Choice], value: _Choice | str, what: str) -> _Choice:
    try:
        return kind(value)
    except ValueError:
        options = ", ".join(repr(member.value) for member in kind)
        raise InvalidSetting(f"The {what} must be one of {options}.") from None


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """How a tournament is played: its format (and a Swiss one's rounds, a groups -> knockout
    one's groups and how many `advance` from each), the games of a match, the scoring (with what
    a Swiss requested bye scores), the tiebreak games of a knockout, the most players, and
    whether vacations stop its clocks."""

    format: TournamentFormat
    swiss_rounds: int | None = None
    games_per_match: int = 2
    scoring: Scoring = DEFAULT_SCORING
    max_players: int = MAX_PLAYERS
    vacation_allowed: bool = True
    groups: int | None = None
    advance: int | None = None
    tiebreaks: TiebreakRule = PLAIN_TIEBREAKS
    requested_bye: RequestedBye = RequestedBye.HALF

    @classmethod
    def create(cls, request: RulesRequest, *, days_per_move: int) -> TournamentRules:
        """The checked rules `request` asks for, for games of `days_per_move`; raises
        :class:`InvalidSetting` with the reason."""
        chosen = _choice(TournamentFormat, request.format, "format")
        tiebreak_days = request.tiebreak_days
        tiebreak_clock = TimeControl.create(
            days_per_move if tiebreak_days is None else tiebreak_days,
            bank=request.tiebreak_bank,
            increment=request.tiebreak_increment,
            cap=request.tiebreak_cap,
        )
        swiss_rounds, requested_bye = request.swiss_rounds, request.requested_bye
        if chosen is TournamentFormat.SWISS:
            if swiss_rounds is None or not 1 <= swiss_rounds <= MAX_SWISS_ROUNDS:
                raise InvalidSetting(
                    _("A Swiss tournament has 1 to {most} rounds.", most=MAX_SWISS_ROUNDS)
                )
        elif swiss_rounds is not None:
            raise InvalidSetting(_("Only a Swiss tournament takes a number of rounds."))
        elif requested_bye is not None:
            raise InvalidSetting(
                _(
                    "Only a Swiss tournament takes a requested_bye score: a round robin's byes "
                    "asked for are forfeits."
                )
            )
        bye = _choice(RequestedBye, requested_bye or RequestedBye.HALF, "requested bye")
        _check_groups(chosen, request.groups, request.advance)
        games_per_match, max_players = request.games_per_match, request.max_players
        if not 1 <= games_per_match <= MAX_MATCH_GAMES:
            raise InvalidSetting(_("A match has 1 to {most} games.", most=MAX_MATCH_GAMES))
        if not 2 <= max_players <= MAX_PLAYERS:
            raise InvalidSetting(_("A tournament takes 2 to {most} players.", most=MAX_PLAYERS))
        return cls(
            format=chosen,
            swiss_rounds=swiss_rounds,
            games_per_match=games_per_match,
            scoring=_scoring(request.scoring, request.match_points, request.tie_breaks, bye),
            max_players=max_players,
            vacation_allowed=request.vacation_allowed,
            groups=request.groups,
            advance=request.advance,
            tiebreaks=_tiebreaks(
                chosen, days_per_move, tiebreak_days, tiebreak_clock, request.tiebreak_games
            ),
            requested_bye=bye,
        )


@dataclass(frozen=True, slots=True)
class RulesRequest:
    """The rules an organizer gives for a tournament, as given (built once from the commands'
    options), checked whole by :meth:`TournamentRules.create`.

    `match_points` are for a match won, drawn and lost (a bye scores a win); `tie_breaks`
    apply in the order given. The knockout formats take their tiebreak games' time control
    (`tiebreak_days`, by default the tournament's days per move, and a bank or an increment up
    to a cap, checked for those days) and their most, `tiebreak_games`. A Swiss tournament takes
    what a `requested_bye` scores (half, the default: a drawn match's match points; or zero).
    """

    format: TournamentFormat | str
    swiss_rounds: int | None = None
    games_per_match: int = 2
    scoring: ScoringSystem | str = ScoringSystem.MATCH_POINTS
    match_points: tuple[float, float, float] = (3.0, 1.0, 0.0)
    tie_breaks: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS
    max_players: int = MAX_PLAYERS
    vacation_allowed: bool = True
    groups: int | None = None
    advance: int | None = None
    tiebreak_days: int | None = None
    tiebreak_bank: timedelta | None = None
    tiebreak_increment: timedelta | None = None
    tiebreak_cap: timedelta | None = None
    tiebreak_games: int | None = None
    requested_bye: RequestedBye | str | None = None

    @classmethod
    def of(cls, tournament: TournamentView) -> RulesRequest:
        """The request that gives `tournament`'s rules again, to change some of them."""
        scoring, tiebreaks = tournament.scoring, tournament.tiebreaks
        clock = tiebreaks.clock
        return cls(
            format=tournament.format,
            swiss_rounds=tournament.swiss_rounds,
            games_per_match=tournament.games_per_match,
            scoring=scoring.system,
            match_points=(scoring.match_win, scoring.match_draw, scoring.match_loss),
            tie_breaks=scoring.tie_breaks,
            max_players=tournament.max_players,
            vacation_allowed=tournament.vacation_allowed,
            groups=tournament.group_count,
            advance=tournament.group_advance,
            tiebreak_days=tiebreaks.days_per_move,
            tiebreak_bank=clock.bank or None,
            tiebreak_increment=clock.increment or None,
            tiebreak_cap=clock.cap or None,
            tiebreak_games=tiebreaks.games,
            requested_bye=(
                tournament.requested_bye if tournament.format is TournamentFormat.SWISS else None
            ),
        )


def _scoring(
    system: ScoringSystem | str,
    match_points: tuple[float, float, float],
    tie_breaks: Sequence[TieBreak | str],
    requested_bye: RequestedBye,
) -> Scoring:
    win, draw, loss = match_points
    if not win >= draw >= loss >= 0 or win == loss:
        raise InvalidSetting(
            _("Match points must run win ≥ draw ≥ loss ≥ 0, with a win worth more than a loss.")
        )
    breaks = tuple(_choice(TieBreak, name, "tie-break") for name in tie_breaks)
    if len(set(breaks)) != len(breaks):
        raise InvalidSetting(_("Each tie-break can be listed once."))
    return Scoring(
        system=_choice(ScoringSystem, system, "scoring"),
        match_win=win,
        match_draw=draw,
        match_loss=loss,
        bye_match_points=win,
        requested_bye_match_points=requested_bye_points(requested_bye, draw),
        tie_breaks=breaks,
    )


def requested_bye_points(rule: RequestedBye, draw: float) -> float:
    """The match points of a requested bye: a drawn match's (``draw``), or none."""
    return draw if rule is RequestedBye.HALF else 0.0


def _check_groups(chosen: TournamentFormat, groups: int | None, advance: int | None) -> None:
    if chosen is not TournamentFormat.GROUPS:
        if groups is not None or advance is not None:
            raise InvalidSetting(
                _("Only a groups -> knockout tournament takes groups and advance.")
            )
        return
    if groups is None or not 2 <= groups <= MAX_GROUPS:
        raise InvalidSetting(
            _("A groups -> knockout tournament has 2 to {most} groups.", most=MAX_GROUPS)
        )
    if advance is None or not 1 <= advance <= MAX_ADVANCE:
        raise InvalidSetting(
            _("From 1 to {most} players of each group go through.", most=MAX_ADVANCE)
        )


def _tiebreaks(
    chosen: TournamentFormat,
    days_per_move: int,
    tiebreak_days: int | None,
    clock: TimeControl,
    games: int | None,
) -> TiebreakRule:
    """The knockout's tiebreak games: their time control (the tournament's unless one is given)
    and their most (checked)."""
    timed = clock != PER_MOVE
    if chosen not in KNOCKOUTS:
        if tiebreak_days is not None or timed or games is not None:
            raise InvalidSetting(_("Only knockout tournaments have tiebreak games."))
        return TiebreakRule()
    if games is not None and not 1 <= games <= MAX_TIEBREAK_GAMES:
        raise InvalidSetting(
            _("A drawn match gets 1 to {most} tiebreak games.", most=MAX_TIEBREAK_GAMES)
        )
    most = DEFAULT_TIEBREAK_GAMES if games is None else games
    if tiebreak_days is None and not timed:
        return TiebreakRule(games=most)
    days = days_per_move if tiebreak_days is None else tiebreak_days
    check_days(days)
    return TiebreakRule(days, clock, most)
