"""Team leagues: teams, rosters, lineups, the games made at each round's deadline, results and
standings.

- An organizer creates a league in a channel (boards per match N, board size, komi, days per
  move, days between rounds) and adds teams, each with a captain (the first on its roster).
  Captains add and remove players; a player is on one team per league; a team's roster has N or
  more players (the extras are substitutes), never fewer once it is to play.
- The start pairs the teams in a round robin (:func:`bot.tournaments.round_robin`, a bye for an
  odd number of teams; a double one, ``legs`` 2, meets each pair again with home and away
  swapped) and sets each round's lineup deadline: round r's lineups are due r x ``round_days``
  after the start. Until then a captain may set (and reset) their team's lineup for the round:
  which roster players on which boards, board 1 first. The captains who have set none are
  reminded once (in the league's channel) a day before the deadline, or halfway through the
  round when rounds are shorter than two days (:func:`lineup_reminder_at`).
- Organizers may remove a team before the start, make another player of a team's roster its
  captain at any time, and cancel the league: its games in progress are stopped (aborted, not
  rated or scored) and it is over.
- At the deadline (a database-backed duty of the deadline scheduler: :meth:`LeagueService.run_due`
  finds what is due after a restart as well) each match's N games are made: a team without a
  lineup plays its roster's N best by rating on this board size, best on board 1; the home team
  has white on board 1, black on board 2, and so on. A board whose player is missing (a lineup
  shorter than N, or a player no longer on the roster) is forfeited to the other side.
- A game's end (:func:`record_game_in_league`, called where every game ends) scores its board:
  1 game point a win, ½ a draw; a match whose boards are all decided is won by more game
  points (match points 2/1/0, :mod:`bot.leagues.scoring`); the league is over when every match
  is. League games cannot be aborted (a team could dodge a board): white loses on time like
  anyone who does not move.

Each change writes its announcement (:class:`~bot.notifications.outbox.LeagueNews`) to the
outbox in its own transaction: the start with the schedule, each round's lineups with its games
(each :class:`~bot.notifications.outbox.GameStart` after it), results and the final table.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.errors import LeagueRefused, NotOrganizer
from bot.games.model import GAME_SELECT, GameRequest, GameSetup, GameView, game_from_row
from bot.games.ratings import ratings_on
from bot.games.storage import insert_game
from bot.languages import _
from bot.leagues import storage
from bot.leagues.model import (
    MAX_BOARDS,
    BoardView,
    LeagueStatus,
    LeagueView,
    MatchView,
    RoundView,
    TeamView,
)
from bot.leagues.scoring import (
    MatchScore,
    TeamStanding,
    board_halves,
    default_lineup,
    home_plays_white,
    seat,
    standings,
)
from bot.notifications.outbox import EndingCause, GameEnded, GameStart, LeagueNews, enqueue
from bot.players.glicko2 import DEFAULT_RATING
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Transaction, from_db
from bot.timekeeping.clock import Clock
from bot.tournaments import round_robin
from bot.tournaments.rounds import GameFinisher
from tak import Result, ResultKind

MAX_NAME = 60
REMIND_BEFORE = timedelta(hours=24)  # a lineup reminder, before the deadline


def lineup_reminder_at(deadline: datetime, round_days: int) -> datetime:
    """When the captains who have set no lineup are reminded: a day before the deadline, or
    halfway through a shorter round."""
    return deadline - min(REMIND_BEFORE, timedelta(days=round_days) / 2)


async def _league(tx: Transaction, league_id: int) -> LeagueView:
    league = await storage.fetch_league(tx, league_id)
    if league is None:
        raise LeagueRefused(_("There is no such league here."))
    return league


def _name(text: str, too_long: str) -> str:
    """The name with its spaces tidied; `too_long` the refusal when it is empty or too long."""
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME:
        raise LeagueRefused(too_long)
    return name


def _team_of(teams: Sequence[TeamView], player_id: int) -> TeamView | None:
    return next((t for t in teams if any(p.id == player_id for p in t.roster)), None)


def _team_named(teams: Sequence[TeamView], name: str, league: LeagueView) -> TeamView:
    team = next((t for t in teams if t.name.casefold() == " ".join(name.split()).casefold()), None)
    if team is None:
        raise LeagueRefused(
            _("{league} has no team called {team}.", league=league.name, team=repr(name))
        )
    return team


def _captained(teams: Sequence[TeamView], actor_id: int, league: LeagueView) -> TeamView:
    team = next((t for t in teams if t.captain.id == actor_id), None)
    if team is None:
        raise LeagueRefused(_("Only a team's captain can do that in {league}.", league=league.name))
    return team


class LeagueService:
    def __init__(self, db: Database, clock: Clock, finish_game: GameFinisher) -> None:
        self._db = db
        self._clock = clock
        self._finish_game = finish_game

    # ----------------------------------------------------------------- reading

    async def get(self, league_id: int) -> LeagueView:
        async with self._db.snapshot() as tx:
            return await _league(tx, league_id)

    async def named(self, guild_id: int, name: str | None) -> LeagueView:
        """The league of that name here, or with no name the server's only one still going (with
        none going, the newest)."""
        async with self._db.snapshot() as tx:
            if name:
                found = await storage.league_named(tx, guild_id, name.strip())
                if found is None:
                    raise LeagueRefused(
                        _("There is no league called {name} here.", name=repr(name))
                    )
                return found
            every = await storage.guild_leagues(tx, guild_id)
        going = [league for league in every if league.status is not LeagueStatus.FINISHED]
        if len(going) == 1:
            return going[0]
        if not going and every:
            return every[0]  # the newest, finished
        raise LeagueRefused(_("Name the league: this server has none or several going."))

    async def leagues(self, guild_id: int) -> list[LeagueView]:
        async with self._db.snapshot() as tx:
            return await storage.guild_leagues(tx, guild_id)

    async def teams(self, league_id: int) -> list[TeamView]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_teams(tx, league_id)

    async def rounds(self, league_id: int) -> list[RoundView]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_rounds(tx, league_id)

    async def matches(
        self, league_id: int, number: int | None = None, *, ids: Sequence[int] = ()
    ) -> list[MatchView]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_matches(tx, league_id, number, ids=ids)

    async def current_round(self, league_id: int) -> int:
        """The last round whose games are made (1 before any)."""
        begun = [r.number for r in await self.rounds(league_id) if r.begun]
        return max(begun, default=1)

    async def board_of_game(self, game_id: int) -> tuple[LeagueView, MatchView, BoardView] | None:
        """The league, match and board a game is played on; None for a game of no league."""
        async with self._db.snapshot() as tx:
            match_id = await storage.match_of_game(tx, game_id)
            if match_id is None:
                return None
            match = await _match(tx, match_id)
            board = next(b for b in match.boards if b.game_id == game_id)
            return await _league(tx, match.league_id), match, board

    async def standings(self, league_id: int) -> list[tuple[TeamStanding, TeamView]]:
        async with self._db.snapshot() as tx:
            return await _standings(tx, league_id)

    # ----------------------------------------------------------------- organizing

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        organizer: PlayerRef,
        is_organizer: bool,
        boards: int,
        size: int,
        komi: float,
        days_per_move: int,
        round_days: int,
        legs: int = 1,
    ) -> LeagueView:
        """A league in its signup; `legs` 2 for a double round robin."""
        if not is_organizer:
            raise NotOrganizer(_("create a league"))
        name = _name(name, _("A league's name needs 1 to {most} characters.", most=MAX_NAME))
        if not 1 <= boards <= MAX_BOARDS:
            raise LeagueRefused(_("A league has 1 to {most} boards a match.", most=MAX_BOARDS))
        if round_days < 1:
            raise LeagueRefused(_("Rounds need at least a day between them."))
        if legs not in (1, 2):
            raise LeagueRefused(_("Teams meet once or twice in a league."))
        # The games' settings, checked before anything is kept.
        GameSetup.create(GameRequest(), size=size, komi=komi, days_per_move=days_per_move)
        now = self._clock.now()
        async with self._db.transaction() as tx:
            if await storage.league_named(tx, guild_id, name) is not None:
                raise LeagueRefused(
                    _("A league called {name} exists here: pick another name.", name=repr(name))
                )
            await save_player(tx, organizer, now)
            league_id = await storage.insert_league(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                organizer_id=organizer.id,
                boards=boards,
                size=size,
                komi=komi,
                days_per_move=days_per_move,
                round_days=round_days,
                legs=legs,
                now=now,
            )
            return await _league(tx, league_id)

    async def add_team(
        self, league_id: int, name: str, captain: PlayerRef, *, is_organizer: bool
    ) -> TeamView:
        """A new team whose captain is the first on its roster (before the start)."""
        if not is_organizer:
            raise NotOrganizer(_("add a team"))
        name = _name(name, _("A team's name needs 1 to {most} characters.", most=MAX_NAME))
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            if league.status is not LeagueStatus.SIGNUP:
                raise LeagueRefused(_("{league} has started: no new teams.", league=league.name))
            teams = await storage.fetch_teams(tx, league_id)
            taken = next((t for t in teams if t.name.casefold() == name.casefold()), None)
            if taken is not None:
                raise LeagueRefused(
                    _("{league} has a team called {team}.", league=league.name, team=taken.name)
                )
            _not_on_a_team(teams, captain)
            await save_player(tx, captain, now)
            team_id = await storage.insert_team(tx, league_id, name, captain.id, now)
            await storage.add_player(tx, league_id, team_id, captain.id, now)
            return next(t for t in await storage.fetch_teams(tx, league_id) if t.id == team_id)

    async def start(self, league_id: int, *, is_organizer: bool) -> LeagueView:
        """Pair the teams in a round robin and set each round's lineup deadline."""
        if not is_organizer:
            raise NotOrganizer(_("start a league"))
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            if league.status is not LeagueStatus.SIGNUP:
                raise LeagueRefused(_("{league} has already started.", league=league.name))
            teams = await storage.fetch_teams(tx, league_id)
            if len(teams) < 2:
                raise LeagueRefused(_("A league needs at least two teams."))
            for team in teams:
                if len(team.roster) < league.boards:
                    raise _too_few(team, league.boards)
            await storage.mark_started(tx, league_id, now)
            schedule = round_robin([t.id for t in teams], double=league.legs == 2)
            for number, paired in enumerate(schedule, start=1):
                deadline = now + timedelta(days=number * league.round_days)
                await storage.insert_round(tx, league_id, number, deadline)
                for pairing in paired.pairings:
                    await storage.insert_match(
                        tx, league_id, number, pairing.player1, pairing.player2
                    )
                for bye in paired.byes:
                    await storage.insert_match(tx, league_id, number, bye, None)
            await enqueue(tx, LeagueNews(league_id, started=True), now)
            return await _league(tx, league_id)

    async def remove_team(self, league_id: int, name: str, *, is_organizer: bool) -> TeamView:
        """Take a team and its roster out of the league before the start."""
        if not is_organizer:
            raise NotOrganizer(_("remove a team"))
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            if league.status is not LeagueStatus.SIGNUP:
                raise LeagueRefused(_("{league} has started: its teams stay.", league=league.name))
            team = _team_named(await storage.fetch_teams(tx, league_id), name, league)
            await storage.delete_team(tx, league_id, team.id)
            return team

    async def set_captain(
        self, league_id: int, name: str, player: PlayerRef, *, is_organizer: bool
    ) -> TeamView:
        """Make a player of the team's roster its captain (who sets its lineups from now on)."""
        if not is_organizer:
            raise NotOrganizer(_("change a team's captain"))
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            _not_over(league)
            team = _team_named(await storage.fetch_teams(tx, league_id), name, league)
            if all(p.id != player.id for p in team.roster):
                raise LeagueRefused(
                    _("That player is not on the roster of {team}.", team=team.name)
                )
            if player.id == team.captain.id:
                raise LeagueRefused(
                    _(
                        "{player} is already the captain of {team}.",
                        player=player.name,
                        team=team.name,
                    )
                )
            await storage.set_captain(tx, team.id, player.id)
            return next(t for t in await storage.fetch_teams(tx, league_id) if t.id == team.id)

    async def cancel(self, league_id: int, *, is_organizer: bool) -> tuple[LeagueView, int]:
        """Call the league off: its games in progress are stopped (aborted: not rated, no board
        scored), announced. The league and how many games were stopped."""
        if not is_organizer:
            raise NotOrganizer(_("cancel a league"))
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            _not_over(league)
            rows = await tx.fetchall(
                GAME_SELECT + " WHERE g.status = 'active' AND g.id IN (SELECT b.game_id FROM "
                "league_boards b JOIN league_matches m ON m.id = b.match_id "
                "WHERE m.league_id = ?) ORDER BY g.id",
                (league_id,),
            )
            await storage.mark_cancelled(tx, league_id, now)
            abort = Result(None, ResultKind.ABORT)
            for game in map(game_from_row, rows):
                news = GameEnded(game.id, EndingCause.STOPPED, league_id=league_id)
                await self._finish_game(tx, game, game.position_from_tps(), abort, now, news)
            await enqueue(tx, LeagueNews(league_id, cancelled=True), now)
            return await _league(tx, league_id), len(rows)

    # ----------------------------------------------------------------- captains

    async def add_to_roster(self, league_id: int, actor_id: int, player: PlayerRef) -> TeamView:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            _not_over(league)
            teams = await storage.fetch_teams(tx, league_id)
            team = _captained(teams, actor_id, league)
            _not_on_a_team(teams, player)
            await save_player(tx, player, now)
            await storage.add_player(tx, league_id, team.id, player.id, now)
            return next(t for t in await storage.fetch_teams(tx, league_id) if t.id == team.id)

    async def remove_from_roster(self, league_id: int, actor_id: int, player_id: int) -> TeamView:
        """Take a player off the captain's roster; a lineup naming them loses that board unless
        the captain sets it again before the deadline."""
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            _not_over(league)
            teams = await storage.fetch_teams(tx, league_id)
            team = _captained(teams, actor_id, league)
            if all(p.id != player_id for p in team.roster):
                raise LeagueRefused(
                    _("That player is not on the roster of {team}.", team=team.name)
                )
            if player_id == team.captain.id:
                raise LeagueRefused(_("The captain stays on the team's roster."))
            if len(team.roster) <= league.boards:
                raise _too_few(team, league.boards)
            await storage.remove_player(tx, league_id, player_id)
            return next(t for t in await storage.fetch_teams(tx, league_id) if t.id == team.id)

    async def set_lineup(
        self, league_id: int, actor_id: int, players: Sequence[int], number: int | None = None
    ) -> tuple[MatchView, RoundView]:
        """The captain's lineup for round `number` (default: the next round whose games are not
        made), board 1 first; before the round's deadline only."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            league = await _league(tx, league_id)
            if league.status is not LeagueStatus.RUNNING:
                raise LeagueRefused(_("{league} is not running.", league=league.name))
            teams = await storage.fetch_teams(tx, league_id)
            team = _captained(teams, actor_id, league)
            rounds = await storage.fetch_rounds(tx, league_id)
            if number is None:
                number = next((r.number for r in rounds if not r.begun), rounds[-1].number)
            chosen = next((r for r in rounds if r.number == number), None)
            if chosen is None:
                raise LeagueRefused(
                    _("{league} has rounds 1 to {last}.", league=league.name, last=len(rounds))
                )
            if chosen.begun or now >= chosen.lineup_deadline:
                raise LeagueRefused(
                    _(
                        "The deadline for the lineups of round {round} has passed.",
                        round=number,
                    )
                )
            if not players or len(players) > league.boards:
                raise LeagueRefused(
                    _("A lineup names 1 to {boards} players.", boards=league.boards)
                )
            if len(set(players)) != len(players):
                raise LeagueRefused(_("A player can play on one board only."))
            on_roster = {p.id for p in team.roster}
            if any(p not in on_roster for p in players):
                raise LeagueRefused(
                    _("That player is not on the roster of {team}.", team=team.name)
                )
            match = next(
                m
                for m in await storage.fetch_matches(tx, league_id, number)
                if team.id in (m.home_id, m.away_id)
            )
            if match.is_bye:
                raise LeagueRefused(
                    _("{team} has a bye in round {round}.", team=team.name, round=number)
                )
            await storage.set_lineup(tx, match.id, team.id, players, now)
            return match, chosen

    async def lineup(self, match_id: int, team_id: int) -> list[int] | None:
        async with self._db.snapshot() as tx:
            return await storage.fetch_lineup(tx, match_id, team_id)

    # ----------------------------------------------------------------- the deadlines (a duty)

    async def next_due_at(self) -> datetime | None:
        """When the next round's lineups are due (its games then made), or the next lineup
        reminder."""
        row = await self._db.fetchone(storage.NEXT_LINEUP_DUE)
        lineups_due = None if row is None else from_db(row[0])
        async with self._db.snapshot() as tx:
            reminders = [
                lineup_reminder_at(deadline, days)
                for _league_id, _number, deadline, days in await storage.unreminded_rounds(tx)
            ]
        return min([*reminders, *([lineups_due] if lineups_due else [])], default=None)

    async def run_due(self) -> int:
        """Send the lineup reminders that are due, then make the games of every round whose
        lineups are due; each once."""
        now = self._clock.now()
        async with self._db.snapshot() as tx:
            reminders = [
                (league_id, number, deadline)
                for league_id, number, deadline, days in await storage.unreminded_rounds(tx)
                if lineup_reminder_at(deadline, days) <= now
            ]
            due = await storage.due_rounds(tx, now)
        done = 0
        for league_id, number, deadline in reminders:
            async with self._db.transaction() as tx:
                if await storage.claim_reminder(tx, league_id, number) and now < deadline:
                    done += await _remind(tx, league_id, number, now)
        for league_id, number in due:
            async with self._db.transaction() as tx:
                if await storage.claim_round(tx, league_id, number, now):
                    await _begin_round(tx, await _league(tx, league_id), number, now)
                    done += 1
        return done


async def _remind(tx: Transaction, league_id: int, number: int, now: datetime) -> int:
    """Remind the captains of the round's teams that have set no lineup (1 when any)."""
    ready = await storage.teams_with_lineup(tx, league_id, number)
    playing = [
        team
        for match in await storage.fetch_matches(tx, league_id, number)
        if match.away_id is not None
        for team in (match.home_id, match.away_id)
    ]
    missing = tuple(team for team in playing if team not in ready)
    if not missing:
        return 0
    await enqueue(tx, LeagueNews(league_id, reminder=number, teams=missing), now)
    return 1


def _not_on_a_team(teams: Sequence[TeamView], player: PlayerRef) -> None:
    team = _team_of(teams, player.id)
    if team is not None:
        raise LeagueRefused(
            _(
                "{player} is already on {team}: a player is on one team per league.",
                player=player.name,
                team=team.name,
            )
        )


def _not_over(league: LeagueView) -> None:
    if league.status is LeagueStatus.FINISHED:
        raise LeagueRefused(_("{league} is over.", league=league.name))


def _too_few(team: TeamView, boards: int) -> LeagueRefused:
    return LeagueRefused(
        _(
            "{team} needs at least {boards} players on its roster.",
            team=team.name,
            boards=boards,
        )
    )


async def _lineup_of(
    tx: Transaction, league: LeagueView, match_id: int, team: TeamView
) -> list[int | None]:
    """Who plays for the team, board 1 first: the captain's lineup (a player no longer on the
    roster missing from it), else the roster's best by rating."""
    on_roster = [p.id for p in team.roster]
    chosen = await storage.fetch_lineup(tx, match_id, team.id)
    if chosen is not None:
        return [p if p in on_roster else None for p in chosen]
    known = await ratings_on(tx, league.guild_id, league.size)
    rated = [(player, known.get(player, DEFAULT_RATING)) for player in on_roster]
    return list(default_lineup(rated, league.boards))


async def _begin_round(tx: Transaction, league: LeagueView, number: int, now: datetime) -> None:
    """Make the round's games (its boards forfeited where a player is missing), announce the
    lineups, then start the games."""
    teams = {t.id: t for t in await storage.fetch_teams(tx, league.id)}
    games: list[GameView] = []
    decided: list[int] = []
    for match in await storage.fetch_matches(tx, league.id, number):
        if match.away_id is None:
            await storage.decide_match(tx, match.id, now)
            continue
        home = await _lineup_of(tx, league, match.id, teams[match.home_id])
        away = await _lineup_of(tx, league, match.id, teams[match.away_id])
        seats = seat(league.boards, home, away)
        for place in seats:
            forfeit = place.forfeit_halves
            game = None
            if forfeit is None:
                assert place.home is not None and place.away is not None
                white, black = place.home, place.away
                if not home_plays_white(place.board):
                    white, black = black, white
                game = await insert_game(
                    tx,
                    guild_id=league.guild_id,
                    channel_id=league.channel_id,
                    thread_id=None,
                    white_id=white,
                    black_id=black,
                    setup=league.setup,
                    now=now,
                )
                games.append(game)
            await storage.insert_board(
                tx,
                match.id,
                place.board,
                (place.home, place.away),
                game_id=None if game is None else game.id,
                halves=forfeit,
                now=now,
            )
        if all(place.forfeit_halves is not None for place in seats):  # nobody played
            await storage.decide_match(tx, match.id, now)
            decided.append(match.id)
    finished = await _finish_if_over(tx, league.id, now)
    news = LeagueNews(league.id, round_begun=number, decided=tuple(decided), finished=finished)
    news_id = await enqueue(tx, news, now)
    for game in games:
        await enqueue(tx, GameStart(game.id, league_id=league.id), now, after=news_id)


async def _finish_if_over(tx: Transaction, league_id: int, now: datetime) -> bool:
    """Finish the league when every round has begun and every match is decided."""
    rounds = await storage.fetch_rounds(tx, league_id)
    if not all(r.begun for r in rounds):
        return False
    if not all(m.decided for m in await storage.fetch_matches(tx, league_id)):
        return False
    await storage.mark_finished(tx, league_id, now)
    return True


async def _standings(tx: Transaction, league_id: int) -> list[tuple[TeamStanding, TeamView]]:
    teams = await storage.fetch_teams(tx, league_id)
    scores = [
        MatchScore(m.home_id, m.away_id, *m.halves)
        for m in await storage.fetch_matches(tx, league_id)
        if m.decided and m.away_id is not None
    ]
    by_id = {t.id: t for t in teams}
    return [(row, by_id[row.team]) for row in standings([t.id for t in teams], scores)]


async def in_league(tx: Transaction, game: GameView) -> bool:
    """Whether the game is a board of a league match."""
    return await storage.match_of_game(tx, game.id) is not None


async def record_game_in_league(
    tx: Transaction, game: GameView, now: datetime, *, after: int | None = None
) -> None:
    """Score a league game that just ended on its board; a match whose boards are all decided
    is decided (and the league finished after its last one), announced after `after`."""
    found = await storage.board_of_game(tx, game.id)
    if found is None or game.result is None or game.result.kind is ResultKind.ABORT:
        return  # an abort: the league's cancellation stopped it
    match_id, board, home_player = found
    winner = game.result.winner
    winner_is_home = None
    if winner is not None:
        winner_is_home = game.player(winner).id == home_player
    await storage.decide_board(tx, match_id, board, board_halves(winner_is_home), now)
    match = await _match(tx, match_id)
    if not all(b.decided for b in match.boards):
        return
    await storage.decide_match(tx, match_id, now)
    finished = await _finish_if_over(tx, match.league_id, now)
    news = LeagueNews(match.league_id, decided=(match_id,), finished=finished)
    await enqueue(tx, news, now, after=after)


async def _match(tx: Transaction, match_id: int) -> MatchView:
    league_id = await storage.league_of_match(tx, match_id)
    [match] = await storage.fetch_matches(tx, league_id, ids=(match_id,))
    return match
