"""Seasons: a server's league (one a server), its sign-ups, its seasons started, their rounds
closed at each period's end, and their end with promotions and relegations.

Rules chosen here (the pure ones in :mod:`bot.seasons.divisions`):

- Each division is a tournament of :mod:`bot.tournaments` (named "<league> S<season> D<division>"),
  seeded in the season's order, so its pairings, standings, withdrawals (`/tournament withdraw`
  or `/season leave`), forfeits, late entries and replacements are any event's. It is *paced*:
  round 1 begins at the season's start, every later round at a period's end.
- Round deadline: at each period's end every match of the round still undecided is adjudicated
  on its finished games (the game in progress is stopped, unrated, as a forfeit stops it): more
  game points wins the match, level is a drawn match. Then the next round is paired.
- The season ends at the period's end after every division's last round: the final tables are
  the tournaments' standings (their tie-breaks, then seeds), and the hall of fame keeps each
  division's first.
- Sign-up: `/season join` signs a player up for the next season (one is opened if none is). When
  a season ends, its players still in (not withdrawn or disqualified) are signed up for the next
  one with the division they earned, and it starts by itself one period later (an organizer may
  start it sooner); started with fewer than two players it waits for an organizer.
- An organizer may close a round before its deadline (`/organize season round`), or end the
  season at once (`/organize season end`): its round closed as at a deadline, no more rounds,
  the final tables and the moves up and down made from the results so far.
- Settings changed apply from the next season's start.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.errors import (
    AlreadyEntered,
    InvalidSetting,
    InvisibleName,
    NotEnoughPlayers,
    NotOrganizer,
    SeasonRefused,
)
from bot.games.model import GameRequest, GameSetup
from bot.languages import _
from bot.notifications.outbox import Headline, SeasonEvent, SeasonNews, enqueue
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.seasons import storage
from bot.seasons.divisions import Candidate, DivisionPlay, divide, season_order, season_outcome
from bot.seasons.league import (
    MAX_NAME_LENGTH,
    DivisionView,
    Honour,
    LeagueRules,
    LeagueView,
    Move,
    SeasonStatus,
    SeasonView,
)
from bot.store import Database, Transaction
from bot.text_safety import strip_unsafe
from bot.timekeeping.clock import Clock
from bot.tournaments import round_robin
from bot.tournaments import storage as tournament_storage
from bot.tournaments.rounds import advance, announce_progress, standings_input
from bot.tournaments.rules import RulesRequest, TournamentRules
from bot.tournaments.service import TournamentService
from bot.tournaments.tournament import (
    EntrantStatus,
    StandingRow,
    TournamentFormat,
    TournamentProgress,
    TournamentStatus,
    TournamentView,
)


@dataclass(frozen=True, slots=True)
class Leaving:
    """What `/season leave` did: a sign-up taken back, a running division left, or both."""

    signup: SeasonView | None
    withdrawn: TournamentProgress | None


@dataclass(frozen=True, slots=True)
class DivisionTable:
    division: DivisionView
    tournament: TournamentView
    rows: list[StandingRow]


class SeasonService:
    def __init__(self, db: Database, clock: Clock, tournaments: TournamentService) -> None:
        self._db = db
        self._clock = clock
        self._tournaments = tournaments

    # ----------------------------------------------------------------- the league

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer: PlayerRef,
        is_organizer: bool,
        name: str,
        rules: LeagueRules,
        setup: GameSetup,
    ) -> LeagueView:
        """The server's league, its games set up as `setup`, its first season open for
        sign-up."""
        if not is_organizer:
            raise NotOrganizer(_("create a season league"))
        name = " ".join(strip_unsafe(name).split())
        if not any(char.isalnum() for char in name):
            raise InvisibleName("league")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidSetting(
                _("A league name has 1 to {most} characters.", most=MAX_NAME_LENGTH)
            )
        _check_setup(setup)
        now = self._clock.now()
        async with self._db.transaction() as tx:
            if await storage.fetch_league(tx, guild_id) is not None:
                raise SeasonRefused(_("This server has a season league already."))
            await save_player(tx, organizer, now)
            league_id = await storage.insert_league(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                organizer_id=organizer.id,
                rules=rules,
                setup=setup,
                now=now,
            )
            await storage.insert_season(tx, league_id, 1, None)
            return await storage.fetch_league_by_id(tx, league_id)

    async def change(
        self,
        guild_id: int,
        *,
        channel_id: int,
        rules: LeagueRules,
        game: GameRequest,
        actor_id: int,
        is_organizer: bool,
    ) -> LeagueView:
        """New settings (and the channel its games go to), from the next season's start; what
        `game` leaves out stays as it was."""
        async with self._db.transaction() as tx:
            league = await self._organized(tx, guild_id, actor_id, is_organizer)
            current = league.setup
            setup = GameSetup.create(
                game,
                size=current.size,
                komi=current.base_komi,
                days_per_move=current.days_per_move,
            )
            _check_setup(setup)
            await storage.update_league(tx, league.id, channel_id, rules, setup)
            return await storage.fetch_league_by_id(tx, league.id)

    async def league(self, guild_id: int) -> LeagueView:
        async with self._db.snapshot() as tx:
            return await _league(tx, guild_id)

    # ----------------------------------------------------------------- signing up

    async def join(self, guild_id: int, player: PlayerRef) -> SeasonView:
        """Sign `player` up for the next season (opened if none is)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, guild_id)
            season = await _next_season(tx, league)
            if await storage.is_signed_up(tx, season.id, player.id):
                raise AlreadyEntered(_season_name(league, season.number))
            await save_player(tx, player, now)
            await storage.add_player(tx, season.id, player.id, None, now)
            return await storage.fetch_season(tx, season.id)

    async def leave(self, guild_id: int, player_id: int) -> Leaving:
        """Take back a sign-up for the next season, and withdraw from the running one's division
        (its later matches forfeited, as a tournament's)."""
        async with self._db.transaction() as tx:
            league = await _league(tx, guild_id)
            seasons = await storage.fetch_seasons(tx, league.id)
            signup = next((s for s in seasons if s.status is SeasonStatus.SIGNUP), None)
            if signup is not None and await storage.is_signed_up(tx, signup.id, player_id):
                await storage.remove_player(tx, signup.id, player_id)
            else:
                signup = None
            division = await _playing_in(tx, seasons, player_id)
            if signup is None and division is None:
                raise SeasonRefused(
                    _("You are not signed up for a season of {league}.", league=league.name)
                )
        withdrawn = None
        if division is not None:
            withdrawn = await self._tournaments.withdraw(division, player_id)
        return Leaving(signup, withdrawn)

    # ----------------------------------------------------------------- running

    async def start(self, guild_id: int, *, actor_id: int, is_organizer: bool) -> SeasonView:
        """Start the season open for sign-up now."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await self._organized(tx, guild_id, actor_id, is_organizer)
            seasons = await storage.fetch_seasons(tx, league.id)
            if any(s.status is SeasonStatus.RUNNING for s in seasons):
                raise SeasonRefused(
                    _("A season of {league} is running already.", league=league.name)
                )
            season = await _next_season(tx, league)
            if season.player_count < 2:
                raise NotEnoughPlayers(_season_name(league, season.number), 2, season.player_count)
            await self._start(tx, league, season, now)
            return await storage.fetch_season(tx, season.id)

    async def close_round(
        self, guild_id: int, *, actor_id: int, is_organizer: bool, last: bool = False
    ) -> SeasonView:
        """The running season's round deadline now (see the module's rules); with `last`, the
        season ends there, on the results so far."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await self._organized(tx, guild_id, actor_id, is_organizer)
            running = [
                s
                for s in await storage.fetch_seasons(tx, league.id)
                if s.status is SeasonStatus.RUNNING
            ]
            if not running:
                raise SeasonRefused(_("No season of {league} is running.", league=league.name))
            await self._close_round(tx, league, running[0], now, last=last)
            return await storage.fetch_season(tx, running[0].id)

    async def next_due_at(self) -> datetime | None:
        """When a season is next to start by itself, or a round's deadline comes."""
        async with self._db.snapshot() as tx:
            return await storage.next_due_at(tx)

    async def run_due(self) -> int:
        """Start the seasons due and close the rounds whose deadline came, each once."""
        now = self._clock.now()
        done = 0
        async with self._db.transaction() as tx:
            for season in await storage.fetch_due(tx, now):
                league = await storage.fetch_league_by_id(tx, season.league_id)
                if season.status is SeasonStatus.RUNNING:
                    await self._close_round(tx, league, season, now)
                elif season.player_count >= 2:
                    await self._start(tx, league, season, now)
                else:
                    await storage.set_due(tx, season.id, None)
                    news = SeasonNews(league.guild_id, season.id, SeasonEvent.WAITING.value)
                    await enqueue(tx, news, now)
                done += 1
        return done

    # ----------------------------------------------------------------- reading

    async def seasons(self, guild_id: int) -> list[SeasonView]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_seasons(tx, (await _league(tx, guild_id)).id)

    async def season(self, season_id: int) -> SeasonView:
        async with self._db.snapshot() as tx:
            return await storage.fetch_season(tx, season_id)

    async def league_of(self, season_id: int) -> LeagueView:
        async with self._db.snapshot() as tx:
            season = await storage.fetch_season(tx, season_id)
            return await storage.fetch_league_by_id(tx, season.league_id)

    async def divisions(self, season_id: int) -> list[DivisionView]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_divisions(tx, await storage.fetch_season(tx, season_id))

    async def standings(
        self, guild_id: int, number: int | None = None, division: int | None = None
    ) -> tuple[SeasonView, list[DivisionTable]]:
        """A season's tables (the running one's, else the latest played, by default), each
        division's or only `division`'s."""
        async with self._db.snapshot() as tx:
            league = await _league(tx, guild_id)
            played = [
                s
                for s in await storage.fetch_seasons(tx, league.id)
                if s.status is not SeasonStatus.SIGNUP
            ]
            if not played:
                raise SeasonRefused(_("No season of {league} has started yet.", league=league.name))
            if number is None:
                season = played[-1]
            else:
                found = [s for s in played if s.number == number]
                if not found:
                    raise SeasonRefused(
                        _(
                            "{league} has played seasons 1 to {last} so far.",
                            league=league.name,
                            last=played[-1].number,
                        )
                    )
                season = found[0]
            divisions = await storage.fetch_divisions(tx, season)
        if division is not None:
            if not 1 <= division <= len(divisions):
                raise SeasonRefused(
                    _(
                        "Season {season} has divisions 1 to {last}.",
                        season=season.number,
                        last=len(divisions),
                    )
                )
            divisions = [divisions[division - 1]]
        tables = [
            DivisionTable(
                d,
                await self._tournaments.get(d.tournament_id),
                await self._tournaments.standings(d.tournament_id),
            )
            for d in divisions
        ]
        return season, tables

    async def moves(self, season_id: int) -> list[Move]:
        """A finished season's players: their final place and where they go next, by division
        and place."""
        async with self._db.snapshot() as tx:
            rows = await storage.fetch_places(tx, season_id)
        return [
            Move(
                PlayerRef(row["player_id"], row["name"]),
                row["division"],
                row["place"],
                row["next_division"],
            )
            for row in rows
        ]

    async def hall_of_fame(self, guild_id: int) -> list[Honour]:
        """Every finished season's division winners, the newest season first."""
        async with self._db.snapshot() as tx:
            league = await _league(tx, guild_id)
            rows = await storage.fetch_winners(tx, league.id)
        return [
            Honour(row["number"], row["division"], PlayerRef(row["player_id"], row["name"]))
            for row in rows
        ]

    # ----------------------------------------------------------------- helpers

    async def _organized(
        self, tx: Transaction, guild_id: int, actor_id: int, is_organizer: bool
    ) -> LeagueView:
        league = await _league(tx, guild_id)
        if not is_organizer and actor_id != league.organizer.id:
            raise NotOrganizer(_("run the season league"))
        return league

    async def _start(
        self, tx: Transaction, league: LeagueView, season: SeasonView, now: datetime
    ) -> None:
        """Cut the field into divisions, each a paced tournament, and begin their round 1."""
        signups = await storage.fetch_signups(tx, season.id)
        ratings = await _ratings(tx, league)
        order = season_order(
            [Candidate(player, earned, ratings.get(player)) for player, earned in signups]
        )
        rules = league.rules
        swiss = rules.format is TournamentFormat.SWISS
        await storage.mark_started(tx, season.id, now, now + rules.period)
        await enqueue(tx, SeasonNews(league.guild_id, season.id, SeasonEvent.STARTED.value), now)
        for number, players in enumerate(divide(order, rules.division_size), start=1):
            # A Swiss has one round fewer than the division has players.
            schedule = len(players) - 1 if swiss else len(round_robin(range(len(players))))
            checked = TournamentRules.create(
                RulesRequest(
                    format=rules.format,
                    swiss_rounds=schedule if swiss else None,
                    games_per_match=rules.games_per_match,
                ),
                days_per_move=league.setup.days_per_move,
            )
            tournament_id = await tournament_storage.insert_tournament(
                tx,
                guild_id=league.guild_id,
                channel_id=league.channel_id,
                name=f"{league.name} S{season.number} D{number}",
                setup=league.setup,
                rules=checked,
                signup_deadline=None,
                checkin_opens_at=None,
                checkin_remind_at=None,
                organizer_id=league.organizer.id,
                now=now,
            )
            await tournament_storage.mark_paced(tx, tournament_id)
            for player in players:
                await tournament_storage.add_entrant(tx, tournament_id, player, now)
            await tournament_storage.set_seeds(tx, tournament_id, players)
            await tournament_storage.mark_started(tx, tournament_id, schedule, now)
            await storage.add_division(tx, season.id, number, tournament_id, players)
            progress = await advance(tx, tournament_id, now)
            await announce_progress(tx, progress, now, headline=Headline.STARTED)

    async def _close_round(
        self,
        tx: Transaction,
        league: LeagueView,
        season: SeasonView,
        now: datetime,
        *,
        last: bool = False,
    ) -> None:
        """Each division's round deadline; the season's end once every division is over (with
        `last`, at once)."""
        over = True
        for division in await storage.fetch_divisions(tx, season):
            tournament = await tournament_storage.fetch_tournament(tx, division.tournament_id)
            if tournament.status is TournamentStatus.RUNNING:
                progress = await self._tournaments.close_round(tx, tournament.id, now, last=last)
                over = over and progress.tournament.status is not TournamentStatus.RUNNING
        if over:
            await self._finish(tx, league, season, now)
        else:
            await storage.set_due(tx, season.id, now + league.rules.period)
            news = SeasonNews(league.guild_id, season.id, SeasonEvent.ROUND.value)
            await enqueue(tx, news, now)

    async def _finish(
        self, tx: Transaction, league: LeagueView, season: SeasonView, now: datetime
    ) -> None:
        """Final places, promotions and relegations, and the next season's sign-ups."""
        divisions = await storage.fetch_divisions(tx, season)
        plays: list[DivisionPlay] = []
        still_in: set[int] = set()
        scoring = None
        for division in divisions:
            tournament = await tournament_storage.fetch_tournament(tx, division.tournament_id)
            scoring = tournament.scoring
            entrants = await tournament_storage.fetch_entrants(tx, tournament.id)
            pairings = await tournament_storage.fetch_pairings(tx, tournament.id)
            holders = await tournament_storage.fetch_place_holders(tx, tournament.id)
            played = standings_input(pairings, holders)
            plays.append(
                DivisionPlay(
                    [e.player.id for e in entrants],
                    played.results,
                    played.byes,
                    played.requested_byes,
                )
            )
            still_in |= {e.player.id for e in entrants if e.status is EntrantStatus.ACTIVE}
        assert scoring is not None
        outcome = season_outcome(plays, scoring, league.rules.movers)
        for number, table in enumerate(outcome.tables, start=1):
            for place, row in enumerate(table, start=1):
                if not await storage.is_signed_up(tx, season.id, row.player):
                    await storage.add_player(tx, season.id, row.player, None, now)  # a late entrant
                going = outcome.next_division[row.player]
                await storage.set_place(tx, season.id, row.player, number, place, going)
        await storage.mark_finished(tx, season.id, now)
        upcoming = await _next_season(tx, league)
        for player, going in outcome.next_division.items():
            if await storage.is_signed_up(tx, upcoming.id, player):
                await storage.set_earned(tx, upcoming.id, player, going)
            elif player in still_in:
                await storage.add_player(tx, upcoming.id, player, going, now)
        await storage.set_due(tx, upcoming.id, now + league.rules.period)
        await enqueue(tx, SeasonNews(league.guild_id, season.id, SeasonEvent.FINISHED.value), now)


def _check_setup(setup: GameSetup) -> None:
    """What a league keeps of its games' setup: size, komi and days a move."""
    if setup.antiquity or not setup.standard_reserves or setup.start_tps is not None:
        raise InvalidSetting(_("A season's games are played with the standard pieces."))


def _season_name(league: LeagueView, number: int) -> str:
    return _("season {number} of {league}", number=number, league=league.name)


async def _league(tx: Transaction, guild_id: int) -> LeagueView:
    league = await storage.fetch_league(tx, guild_id)
    if league is None:
        raise SeasonRefused(
            _(
                "This server has no season league yet: an organizer makes one with "
                "/organize season create."
            )
        )
    return league


async def _next_season(tx: Transaction, league: LeagueView) -> SeasonView:
    """The season open for sign-up, opened (with no start time) if there is none."""
    seasons = await storage.fetch_seasons(tx, league.id)
    waiting = [s for s in seasons if s.status is SeasonStatus.SIGNUP]
    if waiting:
        return waiting[0]
    number = seasons[-1].number + 1 if seasons else 1
    return await storage.fetch_season(tx, await storage.insert_season(tx, league.id, number, None))


async def _playing_in(tx: Transaction, seasons: list[SeasonView], player_id: int) -> int | None:
    """The tournament of the running season's division the player is still in, if it is still
    playing."""
    for season in seasons:
        if season.status is not SeasonStatus.RUNNING:
            continue
        for division in await storage.fetch_divisions(tx, season):
            tournament = await tournament_storage.fetch_tournament(tx, division.tournament_id)
            if tournament.status is not TournamentStatus.RUNNING:
                continue  # its last round is over: the season's end decides
            entrants = await tournament_storage.fetch_entrants(tx, division.tournament_id)
            if any(e.player.id == player_id and e.is_active for e in entrants):
                return division.tournament_id
    return None


async def _ratings(tx: Transaction, league: LeagueView) -> dict[int, float]:
    rows = await tx.fetchall(
        "SELECT player_id, rating FROM ratings WHERE guild_id = ? AND size = ?",
        (league.guild_id, league.setup.size),
    )
    return {row["player_id"]: row["rating"] for row in rows}
