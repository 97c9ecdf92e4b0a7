"""Tournaments: sign-up, start, withdrawals, organizer decisions, standings and exports.

Rounds then run by themselves: the game that finishes a round's last match begins the next round
in its own transaction (:mod:`bot.tournaments.rounds` has those rules). Every method
takes ids, refuses with a :class:`bot.errors.BredonError` subclass having changed nothing, and
returns frozen views.

Rules chosen here:

- Organizers are told apart by the Discord layer (Manage Server or the guild's organizer role),
  which passes ``is_organizer``; the member who created a tournament may always run it.
- Seeds, fixed at the start: players rated on the tournament's board size in the guild come
  first, best rating first; unrated players follow in the order they joined. Ties keep join order.
  An organizer may set them by hand during sign-up (:mod:`bot.tournaments.entry`).
- A Swiss tournament has at most one round fewer than it has players.
- Groups -> knockout: 2 to 8 groups, filled by seed in a snake at the start; every group must end
  up with more players than go through from it. Its standings are one table per group (group
  matches only); the knockout shows in the bracket.
- Knockout matches (single elimination, and the knockout of groups -> knockout) left level get
  tiebreak games with their own time control (by default the tournament's), at most
  ``tiebreak_games`` of them (3 by default); a match still level after the last one sends the
  better seed through.
- Withdrawing (a player, once it runs) or being disqualified (by an organizer) forfeits the
  player's match of the current round to the opponent and every later pairing too; their results
  so far stay in the standings. A forfeit (by an organizer) awards an undecided match of the
  current round to one player. A forfeited match keeps the game points already scored in it, and
  its game in progress is stopped (aborted: unrated, uncounted, its moves kept).
- Cancelling stops every game in progress the same way; results so far are kept.
- Exports: standings as CSV; the finished games as one PTN text, each game tagged with the
  tournament (Event) and its round (Round, "round.game" for matches of several games).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.errors import (
    AlreadyEntered,
    InvalidSetting,
    InvisibleName,
    NoLongerPlaying,
    NoMatchToForfeit,
    NotEnoughPlayers,
    NotEntered,
    NotOrganizer,
    SignupClosed,
    TooManyTournaments,
    TournamentFull,
    TournamentNameTaken,
    WrongTournamentStage,
)
from bot.games.lookup import LookupService
from bot.games.model import (
    GAME_SELECT,
    GameRequest,
    GameSetup,
    GameView,
    game_from_row,
)
from bot.games.storage import fetch_match
from bot.languages import _
from bot.notifications.outbox import EndingCause, GameEnded, Headline, TournamentNews, enqueue
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Transaction
from bot.text_safety import strip_unsafe
from bot.timekeeping.clock import Clock
from bot.tournaments import (
    compute_standings,
    elimination_round_count,
    group_name,
    group_rounds,
    group_tables,
    round_robin,
    snake_groups,
    standings_csv,
    storage,
)
from bot.tournaments.entry import checkin_times, entries_at_start
from bot.tournaments.rounds import (
    GameFinisher,
    advance,
    announce_progress,
    decide,
    fetch_round,
    finish_early,
    standings_input,
)
from bot.tournaments.rules import RulesRequest, TournamentRules
from bot.tournaments.storage import (
    TOURNAMENT_SELECT,
    fetch_entrants,
    fetch_pairings,
    fetch_place_holders,
    fetch_tournament,
    pairing_of_match,
    tournament_from_row,
)
from bot.tournaments.tournament import (
    Entrant,
    EntrantStatus,
    PairingView,
    RoundView,
    StandingRow,
    TournamentFormat,
    TournamentProgress,
    TournamentStatus,
    TournamentView,
)
from tak import Result, ResultKind

MAX_NAME_LENGTH = 60
MAX_LIVE_TOURNAMENTS = 10  # per server, signing up or running


class TournamentService:
    def __init__(self, db: Database, clock: Clock, finish_game: GameFinisher) -> None:
        self._db = db
        self._clock = clock
        self._finish_game = finish_game
        self._lookup = LookupService(db)

    # ----------------------------------------------------------------- creating and signing up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer: PlayerRef,
        is_organizer: bool,
        name: str,
        setup: GameSetup,
        rules: TournamentRules,
        signup_deadline: datetime | None = None,
        checkin: timedelta | None = None,
    ) -> TournamentView:
        """A tournament open for sign-up, its games set up as `setup` and played by `rules`.
        With `checkin`, check-in opens that long before the sign-up deadline (see
        :mod:`bot.tournaments.entry`)."""
        if not is_organizer:
            raise NotOrganizer(_("create a tournament"))
        _check_tournament_setup(setup)
        name = " ".join(strip_unsafe(name).split())
        if not any(char.isalnum() for char in name):
            raise InvisibleName("tournament")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidSetting(
                _("A tournament name has 1 to {most} characters.", most=MAX_NAME_LENGTH)
            )
        now = self._clock.now()
        if signup_deadline is not None and signup_deadline <= now:
            raise InvalidSetting(_("The sign-up deadline must be in the future."))
        check_in = checkin_times(now, signup_deadline, checkin)
        async with self._db.transaction() as tx:
            taken = await tx.fetchone(
                "SELECT 1 FROM tournaments WHERE guild_id = ? AND lower(name) = lower(?) "
                "AND status IN ('signup', 'running')",
                (guild_id, name),
            )
            if taken is not None:
                raise TournamentNameTaken(name)
            live = await tx.fetchone(
                "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? "
                "AND status IN ('signup', 'running')",
                (guild_id,),
            )
            if live is not None and live[0] >= MAX_LIVE_TOURNAMENTS:
                raise TooManyTournaments(MAX_LIVE_TOURNAMENTS)
            await save_player(tx, organizer, now)
            tournament_id = await storage.insert_tournament(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                setup=setup,
                rules=rules,
                signup_deadline=signup_deadline,
                checkin_opens_at=check_in.opens_at,
                checkin_remind_at=check_in.remind_at,
                organizer_id=organizer.id,
                now=now,
            )
            await enqueue(tx, TournamentNews(tournament_id, headline=Headline.CREATED.value), now)
            return await fetch_tournament(tx, tournament_id)

    async def change(
        self,
        tournament_id: int,
        game: GameRequest,
        rules: RulesRequest,
        *,
        checkin: timedelta | None = None,
        actor_id: int,
        is_organizer: bool,
    ) -> TournamentView:
        """The tournament with its games set up as `game` asks and played by `rules` (each
        checked as when it was created), until it starts; more players than `rules` allow are
        refused. With `checkin`, check-in opens that long before the sign-up deadline (again,
        if it was open). The players are told (the sign-up call again, with the new settings)."""
        async with self._db.transaction() as tx:
            tournament = await self._organized(
                tx, tournament_id, actor_id, is_organizer, _("change a tournament")
            )
            _require(tournament, TournamentStatus.SIGNUP, _("change it"))
            current = tournament.setup
            setup = GameSetup.create(
                game, size=current.size, komi=current.base_komi, days_per_move=current.days_per_move
            )
            _check_tournament_setup(setup)
            checked = TournamentRules.create(rules, days_per_move=setup.days_per_move)
            if tournament.player_count > checked.max_players:
                raise InvalidSetting(
                    _(
                        "{count} players have joined already: the most must be at least that.",
                        count=tournament.player_count,
                    )
                )
            await storage.update_rules(tx, tournament.id, setup, checked)
            if checkin is not None:
                now = self._clock.now()
                times = checkin_times(now, tournament.signup_deadline, checkin)
                await storage.schedule_checkin(tx, tournament.id, times.opens_at, times.remind_at)
            news = TournamentNews(tournament.id, headline=Headline.CHANGED.value)
            await enqueue(tx, news, self._clock.now())
            return await fetch_tournament(tx, tournament.id)

    async def join(self, tournament_id: int, player: PlayerRef) -> Entrant:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            _require(tournament, TournamentStatus.SIGNUP, _("join"))
            if tournament.signup_deadline is not None and tournament.signup_deadline <= now:
                raise SignupClosed(tournament.name)
            if await _entrant(tx, tournament, player.id) is not None:
                raise AlreadyEntered(tournament.name)
            if tournament.player_count >= tournament.max_players:
                raise TournamentFull(tournament.name, tournament.max_players)
            await save_player(tx, player, now)
            await storage.add_entrant(tx, tournament.id, player.id, now)
            entrant = await _entrant(tx, tournament, player.id)
            assert entrant is not None
            return entrant

    async def leave(self, tournament_id: int, player_id: int) -> TournamentView:
        """Take back a sign-up (once the tournament runs, :meth:`withdraw` instead)."""
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            _require(tournament, TournamentStatus.SIGNUP, _("leave it (withdraw instead)"))
            if await _entrant(tx, tournament, player_id) is None:
                raise NotEntered(tournament.name)
            await storage.remove_entrant(tx, tournament.id, player_id)
            return await fetch_tournament(tx, tournament.id)

    async def start(
        self, tournament_id: int, *, actor_id: int, is_organizer: bool
    ) -> TournamentProgress:
        """Seed the players and begin round 1 (see the module's rules for seeding); with
        check-in open, those who have not checked in are left out first
        (:func:`bot.tournaments.entry.entries_at_start`)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await self._organized(
                tx, tournament_id, actor_id, is_organizer, _("start")
            )
            _require(tournament, TournamentStatus.SIGNUP, _("start it"))
            field = await entries_at_start(tx, tournament, now)
            count = len(field.order)
            if count < 2:
                raise NotEnoughPlayers(tournament.name, 2, count)
            swiss = tournament.swiss_rounds
            if swiss is not None and swiss > count - 1:
                raise NotEnoughPlayers(tournament.name, swiss + 1, count)
            if tournament.group_count is not None:
                assert tournament.group_advance is not None
                # Every group has more players than go through from it.
                needed = tournament.group_count * (tournament.group_advance + 1)
                if count < needed:
                    raise NotEnoughPlayers(tournament.name, needed, count)
            await storage.set_seeds(tx, tournament.id, field.order)
            if tournament.group_count is not None:
                ids = list(field.order)
                for number, members in enumerate(snake_groups(ids, tournament.group_count)):
                    for player in members:
                        await storage.set_group(tx, tournament.id, player, number)
            await storage.mark_started(tx, tournament.id, _rounds_total(tournament, count), now)
            progress = await advance(tx, tournament.id, now)
            await announce_progress(
                tx, progress, now, headline=Headline.STARTED, dropped=field.dropped
            )
            return progress

    # ----------------------------------------------------------------- reading

    async def get(self, tournament_id: int) -> TournamentView:
        async with self._db.snapshot() as tx:
            return await fetch_tournament(tx, tournament_id)

    async def in_guild(self, guild_id: int, *, live_only: bool = True) -> list[TournamentView]:
        """The guild's tournaments, newest first: by default only those signing up or running."""
        rows = await self._db.fetchall(
            TOURNAMENT_SELECT + " WHERE t.guild_id = ? "
            "AND (? = 0 OR t.status IN ('signup', 'running')) ORDER BY t.id DESC",
            (guild_id, int(live_only)),
        )
        return [tournament_from_row(row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The players in seed order (join order during sign-up)."""
        async with self._db.snapshot() as tx:
            await fetch_tournament(tx, tournament_id)
            return await fetch_entrants(tx, tournament_id)

    async def pairings(self, tournament_id: int, round_number: int | None = None) -> RoundView:
        """A round's pairings with their results so far; the current round by default."""
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            number = tournament.current_round if round_number is None else round_number
            if not 1 <= number <= tournament.current_round:
                if tournament.current_round == 0:
                    raise InvalidSetting(_("{name} has not started yet.", name=tournament.name))
                raise InvalidSetting(
                    _(
                        "{name} has rounds 1 to {rounds} so far.",
                        name=tournament.name,
                        rounds=tournament.current_round,
                    )
                )
            return await fetch_round(tx, tournament, number)

    async def pairings_with_ids(
        self, tournament_id: int, ids: tuple[int, ...]
    ) -> list[PairingView]:
        """The tournament's pairings among `ids`, in round order (e.g. those a change decided)."""
        async with self._db.snapshot() as tx:
            every = await fetch_pairings(tx, tournament_id)
        return [pairing for pairing in every if pairing.id in ids]

    async def pairing_of_match(self, match_id: int) -> PairingView | None:
        async with self._db.snapshot() as tx:
            return await pairing_of_match(tx, match_id)

    async def standings(self, tournament_id: int) -> list[StandingRow]:
        """The table, best first; empty before two players have joined. A groups -> knockout
        event that has started has one table per group (its group matches only), group A's
        first, each row carrying its group."""
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            entrants = await fetch_entrants(tx, tournament.id)
            pairings = await fetch_pairings(tx, tournament.id)
            holders = await fetch_place_holders(tx, tournament.id)
        if len(entrants) < 2:
            return []
        by_id = {e.player.id: e for e in entrants}
        if any(e.group is not None for e in entrants):
            stage = standings_input(
                (p for p in pairings if p.round <= tournament.group_stage_rounds), holders
            )
            groups = [
                [e.player.id for e in entrants if e.group == number]
                for number in range(tournament.group_count or 0)
            ]
            return [
                StandingRow(row, by_id[row.player].player, by_id[row.player].status, number)
                for number, table in enumerate(
                    group_tables(groups, stage.results, stage.byes, tournament.scoring)
                )
                for row in table
            ]
        results, byes, requested_byes = standings_input(pairings, holders)
        table = compute_standings(list(by_id), results, byes, tournament.scoring, requested_byes)
        return [
            StandingRow(row, by_id[row.player].player, by_id[row.player].status) for row in table
        ]

    # ----------------------------------------------------------------- leaving and decisions

    async def withdraw(self, tournament_id: int, player_id: int) -> TournamentProgress:
        """The player leaves a running tournament: their matches from now on are forfeited."""
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            return await self._remove(tx, tournament, player_id, EntrantStatus.WITHDRAWN)

    async def disqualify(
        self, tournament_id: int, player_id: int, *, actor_id: int, is_organizer: bool
    ) -> TournamentProgress:
        """An organizer removes a player, with the same effect as a withdrawal."""
        async with self._db.transaction() as tx:
            tournament = await self._organized(
                tx, tournament_id, actor_id, is_organizer, _("disqualify players")
            )
            return await self._remove(tx, tournament, player_id, EntrantStatus.DISQUALIFIED)

    async def forfeit(
        self, tournament_id: int, *, winner_id: int, actor_id: int, is_organizer: bool
    ) -> TournamentProgress:
        """An organizer awards `winner_id` their undecided match of the current round."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await self._organized(
                tx, tournament_id, actor_id, is_organizer, _("award a forfeit")
            )
            _require(tournament, TournamentStatus.RUNNING, _("award a forfeit"))
            if await _entrant(tx, tournament, winner_id) is None:
                raise NotEntered(tournament.name, you=False)
            pairing = await _open_pairing(tx, tournament, winner_id)
            if pairing is None:
                raise NoMatchToForfeit(tournament.name, tournament.current_round)
            decided, stopped = await self._forfeit_pairing(tx, pairing, winner_id, now)
            progress = await advance(tx, tournament.id, now, decided=(decided,), stopped=stopped)
            await announce_progress(tx, progress, now)
            return progress

    async def cancel(
        self, tournament_id: int, *, actor_id: int, is_organizer: bool
    ) -> TournamentProgress:
        """An organizer calls the tournament off; games in progress are stopped."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await self._organized(
                tx, tournament_id, actor_id, is_organizer, _("cancel")
            )
            if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                raise WrongTournamentStage(tournament.name, tournament.status.value, _("cancel it"))
            stopped: list[GameView] = []
            for pairing in await fetch_pairings(tx, tournament.id, tournament.current_round):
                if not pairing.is_decided and pairing.match_id is not None:
                    stopped.extend(await self._stop_match(tx, tournament.id, pairing.match_id, now))
            await storage.mark_cancelled(tx, tournament.id, now)
            progress = TournamentProgress(
                await fetch_tournament(tx, tournament.id), stopped=tuple(stopped)
            )
            await announce_progress(tx, progress, now)
            return progress

    async def close_round(
        self, tx: Transaction, tournament_id: int, now: datetime, *, last: bool = False
    ) -> TournamentProgress:
        """A paced tournament's round deadline (:mod:`bot.seasons`), in the caller's transaction:
        each match of the round still undecided is adjudicated on its finished games (its game
        in progress stopped, as a forfeit stops it): more game points wins, level is a drawn
        match. Then the next round begins, or the tournament finishes; with `last` it finishes
        on the results so far."""
        tournament = await fetch_tournament(tx, tournament_id)
        decided: list[PairingView] = []
        stopped: list[GameView] = []
        for pairing in await fetch_pairings(tx, tournament.id, tournament.current_round):
            if pairing.is_decided or pairing.match_id is None or pairing.player2 is None:
                continue
            stopped.extend(await self._stop_match(tx, tournament.id, pairing.match_id, now))
            match = await fetch_match(tx, pairing.match_id)
            points = (match.points1, match.points2)
            leader = pairing.player1 if points[0] > points[1] else pairing.player2
            winner = None if points[0] == points[1] else leader.id
            decided.append(
                await decide(tx, pairing, points=points, winner_id=winner, forfeit=False, now=now)
            )
        if last:
            await finish_early(tx, tournament.id, now)
        progress = await advance(
            tx, tournament.id, now, decided=tuple(decided), stopped=tuple(stopped), release=True
        )
        await announce_progress(tx, progress, now)
        return progress

    # ----------------------------------------------------------------- exports

    async def standings_csv(self, tournament_id: int) -> str:
        """The table as CSV, with the players' names; a groups -> knockout event's tables one
        after the other, each row starting with its group's letter."""
        rows = await self.standings(tournament_id)
        tournament = await self.get(tournament_id)
        names = {row.player.id: row.player.name for row in rows}
        if not any(row.group is not None for row in rows):
            return standings_csv([row.standing for row in rows], tournament.scoring, names)
        lines = standings_csv([row.standing for row in rows], tournament.scoring, names)
        header, *body = lines.splitlines(keepends=True)
        letters = [group_name(row.group or 0) for row in rows]
        return (
            "Group,"
            + header
            + "".join(f"{letter},{line}" for letter, line in zip(letters, body, strict=True))
        )

    async def games_ptn(self, tournament_id: int) -> str:
        """Every finished game of the tournament as one PTN text, by round and match."""
        async with self._db.snapshot() as tx:
            await fetch_tournament(tx, tournament_id)
            rows = await tx.fetchall(
                "SELECT g.id FROM games g JOIN tournament_pairings tp ON tp.match_id = g.match_id "
                "WHERE tp.tournament_id = ? AND g.status = 'finished' "
                "ORDER BY tp.round, tp.id, g.match_game",
                (tournament_id,),
            )
        return "\n".join([await self._lookup.ptn(row["id"]) for row in rows])

    # ----------------------------------------------------------------- helpers

    async def _organized(
        self,
        tx: Transaction,
        tournament_id: int,
        actor_id: int,
        is_organizer: bool,
        action: str,
    ) -> TournamentView:
        tournament = await fetch_tournament(tx, tournament_id)
        if not is_organizer and actor_id != tournament.organizer.id:
            raise NotOrganizer(action)
        return tournament

    async def _remove(
        self,
        tx: Transaction,
        tournament: TournamentView,
        player_id: int,
        status: EntrantStatus,
    ) -> TournamentProgress:
        now = self._clock.now()
        you = status is EntrantStatus.WITHDRAWN
        _require(tournament, TournamentStatus.RUNNING, _("withdraw") if you else _("disqualify"))
        entrant = await _entrant(tx, tournament, player_id)
        if entrant is None:
            raise NotEntered(tournament.name, you=you)
        if not entrant.is_active:
            raise NoLongerPlaying(tournament.name, entrant.status.value)
        await storage.mark_left(tx, tournament.id, player_id, status, now)
        pairing = await _open_pairing(tx, tournament, player_id)
        if pairing is None:
            progress = await advance(tx, tournament.id, now)
        else:
            assert pairing.player2 is not None
            opponent = pairing.player2.id if pairing.player1.id == player_id else pairing.player1.id
            decided, stopped = await self._forfeit_pairing(tx, pairing, opponent, now)
            progress = await advance(tx, tournament.id, now, decided=(decided,), stopped=stopped)
        headline = Headline.WITHDREW if you else Headline.DISQUALIFIED
        await announce_progress(tx, progress, now, headline=headline, player_id=player_id)
        return progress

    async def _forfeit_pairing(
        self, tx: Transaction, pairing: PairingView, winner_id: int, now: datetime
    ) -> tuple[PairingView, tuple[GameView, ...]]:
        """Decide the pairing for `winner_id`, keeping the points scored, stopping its game."""
        stopped: list[GameView] = []
        points = (0, 0)
        if pairing.match_id is not None:
            stopped = await self._stop_match(tx, pairing.tournament_id, pairing.match_id, now)
            match = await fetch_match(tx, pairing.match_id)
            points = (match.points1, match.points2)
        decided = await decide(
            tx, pairing, points=points, winner_id=winner_id, forfeit=True, now=now
        )
        return decided, tuple(stopped)

    async def _stop_match(
        self, tx: Transaction, tournament_id: int, match_id: int, now: datetime
    ) -> list[GameView]:
        """Abort the match's game in progress (which ends the match as aborted)."""
        rows = await tx.fetchall(
            GAME_SELECT + " WHERE g.match_id = ? AND g.status = 'active'", (match_id,)
        )
        abort = Result(None, ResultKind.ABORT)
        stopped = []
        for game in map(game_from_row, rows):
            news = GameEnded(game.id, EndingCause.STOPPED, tournament_id=tournament_id)
            ending = await self._finish_game(tx, game, game.position_from_tps(), abort, now, news)
            stopped.append(ending.game)
        return stopped


def _check_tournament_setup(setup: GameSetup) -> None:
    """What a tournament keeps of its games' setup: size, komi, opening, days, rated, clock and
    the start position (a thematic event); anything else is refused."""
    if setup.antiquity or not setup.standard_reserves:
        raise InvalidSetting(
            _("A tournament's games are played with the standard pieces and no tie rule.")
        )


def _require(tournament: TournamentView, status: TournamentStatus, action: str) -> None:
    if tournament.status is not status:
        raise WrongTournamentStage(tournament.name, tournament.status.value, action)


def _rounds_total(tournament: TournamentView, count: int) -> int:
    if tournament.format is TournamentFormat.GROUPS:
        assert tournament.group_count is not None and tournament.group_advance is not None
        stage = group_rounds(snake_groups(range(count), tournament.group_count))
        return len(stage) + elimination_round_count(
            tournament.group_count * tournament.group_advance
        )
    if tournament.format is TournamentFormat.SWISS:
        assert tournament.swiss_rounds is not None
        return tournament.swiss_rounds
    if tournament.format is TournamentFormat.ELIMINATION:
        return elimination_round_count(count)
    double = tournament.format is TournamentFormat.DOUBLE_ROUND_ROBIN
    return len(round_robin(range(count), double=double))


async def _entrant(tx: Transaction, tournament: TournamentView, player_id: int) -> Entrant | None:
    entrants = await fetch_entrants(tx, tournament.id)
    return next((e for e in entrants if e.player.id == player_id), None)


async def _open_pairing(
    tx: Transaction, tournament: TournamentView, player_id: int
) -> PairingView | None:
    """The player's undecided match of the current round, if any."""
    pairings = await fetch_pairings(tx, tournament.id, tournament.current_round)
    return next(
        (
            p
            for p in pairings
            if not p.is_decided and player_id in (p.player1.id, p.player2 and p.player2.id)
        ),
        None,
    )
