"""Entries: check-in before the start, seeds set by hand, late entry into a Swiss, replacements,
requested byes and pairs kept apart.

What an organizer used to do by hand, with the same guarantees as the rest of the tournament
service: every refusal changes nothing, and the players learn of every change through the outbox,
written in the same transaction. The rules chosen here:

- Check-in: a window before the planned start (the sign-up deadline), or opened by the organizer
  at any time during sign-up. Its opening is announced in the tournament's channel, and halfway
  to the planned start (12 hours after an opening without one) a reminder names whoever has not
  checked in. At the start, if check-in is open, those who have not checked in are left out (the
  start post names them). Starting before the window opens leaves nobody out. All of it is
  stored, so a restart during check-in changes nothing; :meth:`EntryService.run_due` (a duty of
  the deadline scheduler) sends the opening and the reminder once each.
- Seeds: without an organizer, Bredon seeds at the start (:func:`bot.tournaments.automatic_order`:
  rating on the board size, then join order). The first seed set by hand fixes the whole order
  as it stands then; players who join later go to the end in join order. Seeds feed pairing as
  before: round-robin order, the Swiss first round, the elimination bracket.
- Late entry: a Swiss tournament may take entrants until a given round. A late entrant starts
  with 0 points and no byes for the rounds missed, is seeded last, and is paired from the next
  round; like anyone without a bye, they can get the bye of an odd round.
- Replacing: the new player takes over the old one's entry: their seed, their undecided match
  (its game in progress included, moves kept) and every later pairing. Decided pairings stay as
  they were played, under the old player's name, and count for the place: the standings show
  the new player with the place's results, and Swiss pairing and the bracket treat them as the
  same place. A player who is in the tournament, or was replaced out of it, cannot come in as a
  replacement.
- Requested byes (Swiss and round robin; a bracket's meetings follow from its seeds): a player,
  or an organizer for them, asks to sit out a round not yet paired, during sign-up or while it
  runs, and can withdraw the request until that round is paired. In a Swiss the requester gets a
  requested bye (the tournament's `requested_bye`: a drawn match's match points, or none), which
  is not the odd player's bye: they can still get that one in another round. A round robin's
  schedule is fixed, so there the request is a forfeit announced in advance: when the round
  begins, the requester's match of it is a forfeit win for the opponent (a meeting of two
  requesters is skipped, as one of two players who have left). A request of a player who has
  left or been replaced no longer counts.
- Pairs kept apart (Swiss only: a round robin pairs everyone with everyone, a bracket follows its
  seeds): an organizer declares two entrants who must not meet (team-mates), at most
  ``MAX_FORBIDDEN_PAIRS`` of them, and can lift it; Swiss pairing never pairs them while some
  pairing avoids it (:func:`bot.tournaments.swiss_round`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.errors import (
    AlreadyEntered,
    EntryRefused,
    NotEntered,
    NotOrganizer,
    TournamentFull,
    WrongTournamentStage,
)
from bot.games.conditions import clear_lines
from bot.games.matches import replace_match_player
from bot.games.storage import hand_over_active_games
from bot.languages import _
from bot.notifications.outbox import Headline, TournamentNews, enqueue
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Transaction, from_db, to_db
from bot.timekeeping.clock import Clock
from bot.tournaments import TournamentError, round_robin, storage
from bot.tournaments.seeding import move_by, move_to, seed_order
from bot.tournaments.storage import fetch_entrants, fetch_pairings, fetch_tournament
from bot.tournaments.tournament import (
    ByeRequest,
    Entrant,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)

MIN_CHECKIN = timedelta(hours=1)
MAX_CHECKIN = timedelta(days=7)
REMIND_WITHOUT_START = timedelta(hours=12)  # after an opening with no planned start
MAX_FORBIDDEN_PAIRS = 64
ROUND_ROBINS = (TournamentFormat.ROUND_ROBIN, TournamentFormat.DOUBLE_ROUND_ROBIN)
BYE_FORMATS = (TournamentFormat.SWISS, *ROUND_ROBINS)


@dataclass(frozen=True, slots=True)
class CheckIn:
    """A tournament's check-in: when it opens and when its reminder is due (None: no check-in)."""

    opens_at: datetime | None
    remind_at: datetime | None

    def is_open(self, now: datetime) -> bool:
        return self.opens_at is not None and self.opens_at <= now


@dataclass(frozen=True, slots=True)
class EntryState:
    """What the entry rules say of a tournament now."""

    tournament: TournamentView
    checkin: CheckIn
    late_entry_until: int | None  # Swiss: the last round a late entrant can start in
    entrants: tuple[Entrant, ...]  # in seed order (the order it would start in, during sign-up)
    checked_in: frozenset[int]

    @property
    def missing(self) -> tuple[PlayerRef, ...]:
        """Who has not checked in (everyone, before check-in opens)."""
        return tuple(e.player for e in self.entrants if e.player.id not in self.checked_in)


@dataclass(frozen=True, slots=True)
class StartEntries:
    """The field the start pairs: the seed order, and who was left out for not checking in."""

    order: tuple[int, ...]
    dropped: tuple[int, ...]


def checkin_times(now: datetime, start: datetime | None, window: timedelta | None) -> CheckIn:
    """Check-in `window` before the planned `start`: it opens then (now, if that is past), and
    the reminder is due halfway to the start; refused without a start or out of bounds."""
    if window is None:
        return CheckIn(None, None)
    if start is None:
        raise EntryRefused(
            _(
                "A check-in window needs a planned start: set `signup_days` too (check-in opens "
                "that long before sign-up closes), or open check-in later with `/organize "
                "checkin`."
            )
        )
    if not MIN_CHECKIN <= window <= MAX_CHECKIN:
        raise EntryRefused(_("A check-in window lasts from 1 hour to 7 days."))
    opens = max(now, start - window)
    return CheckIn(opens, opens + (start - opens) / 2)


async def _ratings(tx: Transaction, tournament: TournamentView) -> dict[int, float]:
    rows = await tx.fetchall(
        "SELECT player_id, rating FROM ratings WHERE guild_id = ? AND size = ?",
        (tournament.guild_id, tournament.setup.size),
    )
    return {row["player_id"]: row["rating"] for row in rows}


async def _signup_order(tx: Transaction, tournament: TournamentView) -> tuple[int, ...]:
    """The order the players would be seeded in if the tournament started now."""
    rows = await tx.fetchall(
        "SELECT player_id, seed FROM tournament_players WHERE tournament_id = ? "
        "ORDER BY joined_at, rowid",
        (tournament.id,),
    )
    joined = [row["player_id"] for row in rows]
    manual = {row["player_id"]: row["seed"] for row in rows if row["seed"] is not None}
    return seed_order(joined, manual, await _ratings(tx, tournament))


async def _checked_in(tx: Transaction, tournament_id: int) -> frozenset[int]:
    rows = await tx.fetchall(
        "SELECT player_id FROM tournament_players WHERE tournament_id = ? "
        "AND checked_in_at IS NOT NULL",
        (tournament_id,),
    )
    return frozenset(row["player_id"] for row in rows)


async def _checkin(tx: Transaction, tournament_id: int) -> CheckIn:
    row = await tx.fetchone(
        "SELECT checkin_opens_at, checkin_remind_at FROM tournaments WHERE id = ?",
        (tournament_id,),
    )
    assert row is not None
    return CheckIn(from_db(row["checkin_opens_at"]), from_db(row["checkin_remind_at"]))


async def entries_at_start(
    tx: Transaction, tournament: TournamentView, now: datetime
) -> StartEntries:
    """The start's field (:meth:`bot.tournaments.service.TournamentService.start` calls it in
    its transaction): with check-in open, whoever has not checked in is taken off the list; the
    rest keep their order (set by hand, or the automatic one)."""
    order = await _signup_order(tx, tournament)
    if not (await _checkin(tx, tournament.id)).is_open(now):
        return StartEntries(order, ())
    present = await _checked_in(tx, tournament.id)
    dropped = tuple(p for p in order if p not in present)
    for player_id in dropped:
        await storage.remove_entrant(tx, tournament.id, player_id)
    return StartEntries(tuple(p for p in order if p in present), dropped)


class EntryService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def state(self, tournament_id: int) -> EntryState:
        async with self._db.snapshot() as tx:
            return await self._state(tx, tournament_id)

    async def _state(self, tx: Transaction, tournament_id: int) -> EntryState:
        tournament = await fetch_tournament(tx, tournament_id)
        entrants = await fetch_entrants(tx, tournament.id)
        if tournament.status is TournamentStatus.SIGNUP:
            by_id = {e.player.id: e for e in entrants}
            entrants = [by_id[p] for p in await _signup_order(tx, tournament)]
        row = await tx.fetchone(
            "SELECT late_entry_until FROM tournaments WHERE id = ?", (tournament.id,)
        )
        assert row is not None
        return EntryState(
            tournament,
            await _checkin(tx, tournament.id),
            row["late_entry_until"],
            tuple(entrants),
            await _checked_in(tx, tournament.id),
        )

    # ----------------------------------------------------------------- check-in

    async def open_checkin(
        self, tournament_id: int, *, actor_id: int, is_organizer: bool
    ) -> EntryState:
        """Open check-in now (announced at once); its reminder is due halfway to the planned
        start, or 12 hours from now without one."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await _organized(
                tx, tournament_id, actor_id, is_organizer, _("open check-in")
            )
            _signing_up(tournament, _("open check-in"))
            if (await _checkin(tx, tournament.id)).is_open(now):
                raise EntryRefused(_("Check-in for {name} is already open.", name=tournament.name))
            start = tournament.signup_deadline
            remind = now + (start - now) / 2 if start is not None else now + REMIND_WITHOUT_START
            await storage.schedule_checkin(tx, tournament.id, now, remind)
            await self._announce_opening(tx, tournament.id, now)
            return await self._state(tx, tournament.id)

    async def check_in(self, tournament_id: int, player_id: int) -> EntryState:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            _signing_up(tournament, _("check in"))
            checkin = await _checkin(tx, tournament.id)
            if not checkin.is_open(now):
                raise EntryRefused(
                    _("Check-in for {name} is not open yet.", name=tournament.name)
                    if checkin.opens_at is None
                    else _(
                        "Check-in for {name} is not open yet (it opens {when} UTC).",
                        name=tournament.name,
                        when=f"{checkin.opens_at:%Y-%m-%d %H:%M}",
                    )
                )
            row = await tx.fetchone(
                "SELECT checked_in_at FROM tournament_players WHERE tournament_id = ? "
                "AND player_id = ?",
                (tournament.id, player_id),
            )
            if row is None:
                raise NotEntered(tournament.name)
            if row["checked_in_at"] is not None:
                raise EntryRefused(
                    _("You have already checked in for {name}.", name=tournament.name)
                )
            await storage.mark_checked_in(tx, tournament.id, player_id, now)
            return await self._state(tx, tournament.id)

    async def next_due_at(self) -> datetime | None:
        """When a check-in is next to be announced as open, or reminded of."""
        row = await self._db.fetchone(
            "SELECT MIN(due) FROM (SELECT checkin_opens_at AS due FROM tournaments "
            "WHERE status = 'signup' AND checkin_announced = 0 AND checkin_opens_at IS NOT NULL "
            "UNION ALL SELECT checkin_remind_at FROM tournaments WHERE status = 'signup' "
            "AND checkin_reminded = 0 AND checkin_remind_at IS NOT NULL) AS due"
        )
        return None if row is None else from_db(row[0])

    async def run_due(self) -> int:
        """Announce the check-ins that opened and send the reminders that are due, once each."""
        now = to_db(self._clock.now())
        done = 0
        async with self._db.transaction() as tx:
            opened = await tx.fetchall(
                "SELECT id FROM tournaments WHERE status = 'signup' AND checkin_announced = 0 "
                "AND checkin_opens_at <= ?",
                (now,),
            )
            for row in opened:
                await self._announce_opening(tx, row["id"], self._clock.now())
                done += 1
            reminders = await tx.fetchall(
                "SELECT id FROM tournaments WHERE status = 'signup' AND checkin_reminded = 0 "
                "AND checkin_remind_at <= ?",
                (now,),
            )
            for row in reminders:
                await storage.mark_checkin_reminded(tx, row["id"])
                if (await self._state(tx, row["id"])).missing:
                    news = TournamentNews(row["id"], headline=Headline.CHECKIN_REMINDER.value)
                    await enqueue(tx, news, self._clock.now())
                    done += 1
        return done

    async def _announce_opening(self, tx: Transaction, tournament_id: int, now: datetime) -> None:
        await storage.mark_checkin_announced(tx, tournament_id)
        await enqueue(tx, TournamentNews(tournament_id, Headline.CHECKIN_OPEN.value), now)

    # ----------------------------------------------------------------- seeds

    async def seed(
        self,
        tournament_id: int,
        player_id: int,
        *,
        seed: int | None = None,
        places: int | None = None,
        actor_id: int,
        is_organizer: bool,
    ) -> EntryState:
        """Put the player at `seed`, or `places` seeds lower (negative: higher), during
        sign-up; the whole order is fixed by hand from then on."""
        if (seed is None) == (places is None):
            raise EntryRefused(
                _("Give either the seed to put the player at, or a move up or down.")
            )
        async with self._db.transaction() as tx:
            tournament = await _organized(tx, tournament_id, actor_id, is_organizer, _("set seeds"))
            _signing_up(tournament, _("change the seeds (they are fixed once it runs)"))
            order = await _signup_order(tx, tournament)
            if player_id not in order:
                raise NotEntered(tournament.name, you=False)
            try:
                if seed is not None:
                    order = move_to(order, player_id, seed)
                else:
                    assert places is not None
                    order = move_by(order, player_id, places)
            except TournamentError as error:
                raise EntryRefused(str(error)) from None
            await storage.set_seeds(tx, tournament.id, order)
            return await self._state(tx, tournament.id)

    # ----------------------------------------------------------------- late entry

    async def allow_late_entry(
        self, tournament_id: int, until_round: int, *, actor_id: int, is_organizer: bool
    ) -> EntryState:
        """Let players join a Swiss tournament while its next round is at most `until_round`;
        0 stops late entries."""
        async with self._db.transaction() as tx:
            tournament = await _organized(
                tx, tournament_id, actor_id, is_organizer, _("allow late entries")
            )
            if tournament.format is not TournamentFormat.SWISS:
                raise EntryRefused(_("Only a Swiss tournament takes late entries."))
            if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                raise EntryRefused(
                    _("{name} is over: it takes no more entries.", name=tournament.name)
                )
            rounds = tournament.swiss_rounds
            assert rounds is not None
            if until_round != 0:
                if not 2 <= until_round <= rounds:
                    raise EntryRefused(
                        _(
                            "Late entrants can start in round 2 to {rounds} of {name}.",
                            rounds=rounds,
                            name=tournament.name,
                        )
                    )
                if until_round <= tournament.current_round:
                    raise EntryRefused(
                        _(
                            "Round {round} of {name} has already begun; a late entrant now "
                            "starts in round {next}.",
                            round=until_round,
                            name=tournament.name,
                            next=tournament.current_round + 1,
                        )
                    )
            await storage.set_late_entry(tx, tournament.id, until_round or None)
            return await self._state(tx, tournament.id)

    async def join_late(self, tournament_id: int, player: PlayerRef) -> EntryState:
        """Enter a running Swiss tournament: 0 points, seeded last, paired from the next round."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            if tournament.status is not TournamentStatus.RUNNING:
                raise EntryRefused(_("{name} is not running.", name=tournament.name))
            await _refuse_present(tx, tournament, player.id, you=True)
            row = await tx.fetchone(
                "SELECT late_entry_until FROM tournaments WHERE id = ?", (tournament.id,)
            )
            assert row is not None
            until = row["late_entry_until"]
            upcoming = tournament.current_round + 1
            if until is None:
                raise EntryRefused(
                    _("{name} has started and takes no late entries.", name=tournament.name)
                )
            if upcoming > until:
                raise EntryRefused(
                    _(
                        "{name} took late entries until round {until}; it is in round {round}.",
                        name=tournament.name,
                        until=until,
                        round=tournament.current_round,
                    )
                )
            if tournament.player_count >= tournament.max_players:
                raise TournamentFull(tournament.name, tournament.max_players)
            await save_player(tx, player, now)
            await storage.add_late_entrant(tx, tournament.id, player.id, upcoming, now)
            news = TournamentNews(tournament.id, Headline.LATE_ENTRY.value, player_id=player.id)
            await enqueue(tx, news, now)
            return await self._state(tx, tournament.id)

    async def first_round(self, tournament_id: int, player_id: int) -> int | None:
        """The round a late entrant is first paired in (None: entered before the start)."""
        row = await self._db.fetchone(
            "SELECT first_round FROM tournament_players WHERE tournament_id = ? AND player_id = ?",
            (tournament_id, player_id),
        )
        return None if row is None else row["first_round"]

    # ----------------------------------------------------------------- replacing

    async def replace(
        self,
        tournament_id: int,
        old_id: int,
        new: PlayerRef,
        *,
        actor_id: int,
        is_organizer: bool,
    ) -> tuple[int, ...]:
        """`new` takes over `old_id`'s place (see the module's rules); returns the ids of the
        games in progress they took over."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await _organized(
                tx, tournament_id, actor_id, is_organizer, _("replace players")
            )
            if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                raise EntryRefused(
                    _("{name} is over: its players cannot change.", name=tournament.name)
                )
            if old_id == new.id:
                raise EntryRefused(_("A player cannot replace themselves."))
            if old_id not in {e.player.id for e in await fetch_entrants(tx, tournament.id)}:
                raise NotEntered(tournament.name, you=False)
            await _refuse_present(tx, tournament, new.id, you=False)
            await save_player(tx, new, now)
            await storage.replace_entrant(tx, tournament.id, old_id, new.id)
            games: tuple[int, ...] = ()
            if tournament.status is TournamentStatus.RUNNING:
                await storage.log_replacement(
                    tx, tournament.id, old_id, new.id, tournament.current_round, now
                )
                games = await _take_over_matches(tx, tournament, old_id, new.id, now)
                news = TournamentNews(
                    tournament.id, Headline.REPLACED.value, player_id=old_id, other_id=new.id
                )
                await enqueue(tx, news, now)
            return games

    async def replaced(self, tournament_id: int) -> list[tuple[PlayerRef, PlayerRef, int]]:
        """Each replacement: the old player, the new one and the round current at the change."""
        rows = await self._db.fetchall(
            "SELECT r.old_id, o.name AS old_name, r.new_id, n.name AS new_name, r.round "
            "FROM tournament_replacements r JOIN players o ON o.id = r.old_id "
            "JOIN players n ON n.id = r.new_id WHERE r.tournament_id = ? "
            "ORDER BY r.replaced_at, r.rowid",
            (tournament_id,),
        )
        return [
            (
                PlayerRef(row["old_id"], row["old_name"]),
                PlayerRef(row["new_id"], row["new_name"]),
                row["round"],
            )
            for row in rows
        ]

    # ----------------------------------------------------------------- requested byes

    async def request_bye(
        self,
        tournament_id: int,
        player_id: int,
        round_number: int,
        *,
        actor_id: int,
        is_organizer: bool,
        withdraw: bool = False,
    ) -> list[ByeRequest]:
        """Ask for a bye for `player_id` in a Swiss round not yet paired, or `withdraw` that
        request; an organizer may do it for any entrant. Returns the player's requests now."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            you = actor_id == player_id
            if not you and not is_organizer and actor_id != tournament.organizer.id:
                raise NotOrganizer(_("ask for a bye for another player"))
            _in_play(
                tournament,
                BYE_FORMATS,
                _(
                    "Only a Swiss or round-robin tournament takes byes asked for: a bracket's "
                    "meetings follow from its seeds."
                ),
                _("{name} is over: it takes no more byes asked for.", name=tournament.name),
            )
            if not withdraw:  # a request of a player who has left can still be withdrawn
                await _check_bye_request(tx, tournament, player_id, round_number, you=you)
            if round_number <= tournament.current_round:
                raise EntryRefused(
                    _(
                        "Round {round} of {name} is already paired: a bye can be asked for (or "
                        "withdrawn) until a round is paired.",
                        round=round_number,
                        name=tournament.name,
                    )
                )
            asked = await storage.fetch_bye_requests(tx, tournament.id, round_number)
            already = any(r.player.id == player_id for r in asked)
            if withdraw:
                if not already:
                    raise EntryRefused(
                        _("You have not asked for a bye in round {round}.", round=round_number)
                        if you
                        else _(
                            "That player has not asked for a bye in round {round}.",
                            round=round_number,
                        )
                    )
                await storage.remove_bye_request(tx, tournament.id, player_id, round_number)
            else:
                if already:
                    raise EntryRefused(
                        _("You have already asked for a bye in round {round}.", round=round_number)
                        if you
                        else _(
                            "That player has already asked for a bye in round {round}.",
                            round=round_number,
                        )
                    )
                await storage.add_bye_request(
                    tx, tournament.id, player_id, round_number, actor_id, now
                )
            pending = await _pending_requests(tx, tournament)
            return [r for r in pending if r.player.id == player_id]

    async def bye_requests(self, tournament_id: int) -> list[ByeRequest]:
        """The byes still to come (asked by players still in, for rounds not yet paired), by
        round."""
        async with self._db.snapshot() as tx:
            return await _pending_requests(tx, await fetch_tournament(tx, tournament_id))

    # ----------------------------------------------------------------- pairs kept apart

    async def keep_apart(
        self,
        tournament_id: int,
        pair: tuple[int, int],
        *,
        actor_id: int,
        is_organizer: bool,
        allow: bool = False,
    ) -> list[tuple[PlayerRef, PlayerRef]]:
        """Keep two entrants of a Swiss tournament from being paired, or `allow` them to meet
        again; returns the pairs kept apart now."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await _organized(
                tx, tournament_id, actor_id, is_organizer, _("keep players apart")
            )
            _in_play(
                tournament,
                (TournamentFormat.SWISS,),
                _(
                    "Only a Swiss tournament keeps players apart: a round robin pairs everyone "
                    "with everyone and a bracket follows its seeds."
                ),
                _("{name} is over: it takes no more pairs kept apart.", name=tournament.name),
            )
            first, second = pair
            if first == second:
                raise EntryRefused(_("A player cannot be kept apart from themselves."))
            entrants = {e.player.id for e in await fetch_entrants(tx, tournament.id)}
            if not set(pair) <= entrants:
                raise NotEntered(tournament.name, you=False)
            kept = await storage.fetch_forbidden_pairs(tx, tournament.id)
            already = any({a.id, b.id} == set(pair) for a, b in kept)
            if allow:
                if not already:
                    raise EntryRefused(_("Those two players are not kept apart."))
                await storage.remove_forbidden_pair(tx, tournament.id, pair)
            else:
                if already:
                    raise EntryRefused(_("Those two players are already kept apart."))
                if len(kept) >= MAX_FORBIDDEN_PAIRS:
                    raise EntryRefused(
                        _(
                            "{name} keeps {count} pairs apart already, the most it can.",
                            name=tournament.name,
                            count=MAX_FORBIDDEN_PAIRS,
                        )
                    )
                await storage.add_forbidden_pair(tx, tournament.id, pair, now)
            return await storage.fetch_forbidden_pairs(tx, tournament.id)

    async def kept_apart(self, tournament_id: int) -> list[tuple[PlayerRef, PlayerRef]]:
        async with self._db.snapshot() as tx:
            return await storage.fetch_forbidden_pairs(tx, tournament_id)


async def _pending_requests(tx: Transaction, tournament: TournamentView) -> list[ByeRequest]:
    """The byes still to come: asked by players still in for rounds not yet paired that the
    tournament has (those of paired rounds are kept as asked); none once it is over."""
    if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
        return []
    asked = await storage.fetch_bye_requests(tx, tournament.id, of_players_in=True)
    last = _last_round(tournament)
    return [
        r for r in asked if r.round > tournament.current_round and (last is None or r.round <= last)
    ]


def _last_round(tournament: TournamentView) -> int | None:
    """The tournament's last round; None for a round robin signing up, whose length depends on
    who joins."""
    return tournament.rounds_total or tournament.swiss_rounds


async def _check_bye_request(
    tx: Transaction, tournament: TournamentView, player_id: int, round_number: int, *, you: bool
) -> None:
    """Refuse a bye asked for a player not playing, for a round the tournament lacks, or for a
    round-robin round that is already the player's bye (an odd field: nothing to sit out)."""
    entrants = await fetch_entrants(tx, tournament.id)
    if not any(e.player.id == player_id and e.is_active for e in entrants):
        raise NotEntered(tournament.name, you=you)
    rounds = _last_round(tournament)
    if round_number < 1 or (rounds is not None and round_number > rounds):
        raise EntryRefused(
            _("{name} has rounds 1 to {rounds}.", name=tournament.name, rounds=rounds)
        )
    if tournament.status is TournamentStatus.RUNNING and tournament.format in ROUND_ROBINS:
        double = tournament.format is TournamentFormat.DOUBLE_ROUND_ROBIN
        schedule = round_robin([e.player.id for e in entrants], double=double)
        if player_id in schedule[round_number - 1].byes:
            text = (
                _(
                    "Round {round} of {name} is already a bye for you: there is no match to "
                    "sit out.",
                    round=round_number,
                    name=tournament.name,
                )
                if you
                else _(
                    "Round {round} of {name} is already a bye for that player: there is no "
                    "match to sit out.",
                    round=round_number,
                    name=tournament.name,
                )
            )
            raise EntryRefused(text)


async def _take_over_matches(
    tx: Transaction, tournament: TournamentView, old_id: int, new_id: int, now: datetime
) -> tuple[int, ...]:
    """The old player's undecided pairings (the current round's) pass to the new one, with their
    match and its unfinished game; a version change makes cached copies of the game stale. The
    games' conditional moves go: the old player's are not the new one's, and the opponent's
    answered someone else."""
    games: list[int] = []
    for pairing in await fetch_pairings(tx, tournament.id, tournament.current_round):
        if pairing.is_decided:
            continue
        await storage.replace_pairing_player(tx, pairing.id, old_id, new_id)
        if pairing.match_id is None:
            continue
        await replace_match_player(tx, pairing.match_id, old_id, new_id)
        handed = await hand_over_active_games(tx, pairing.match_id, old_id, new_id)
        for game_id in handed:
            await clear_lines(tx, game_id, now)
        games.extend(handed)
    return tuple(games)


async def _refuse_present(
    tx: Transaction, tournament: TournamentView, player_id: int, *, you: bool
) -> None:
    """Refuse a player who is in the tournament, or was replaced out of it."""
    row = await tx.fetchone(
        "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND player_id = ?",
        (tournament.id, player_id),
    )
    if row is not None:
        if you:
            raise AlreadyEntered(tournament.name)
        raise EntryRefused(_("That player is already in {name}.", name=tournament.name))
    row = await tx.fetchone(
        "SELECT 1 FROM tournament_replacements WHERE tournament_id = ? AND old_id = ?",
        (tournament.id, player_id),
    )
    if row is not None:
        raise EntryRefused(
            _("You were replaced in {name} and cannot come back in.", name=tournament.name)
            if you
            else _(
                "That player was replaced in {name} and cannot come back in.", name=tournament.name
            )
        )


async def _organized(
    tx: Transaction, tournament_id: int, actor_id: int, is_organizer: bool, action: str
) -> TournamentView:
    tournament = await fetch_tournament(tx, tournament_id)
    if not is_organizer and actor_id != tournament.organizer.id:
        raise NotOrganizer(action)
    return tournament


def _in_play(
    tournament: TournamentView, formats: Sequence[TournamentFormat], refusal: str, over: str
) -> None:
    """Refuse a tournament not of `formats` (with `refusal`), or one that is over (`over`)."""
    if tournament.format not in formats:
        raise EntryRefused(refusal)
    if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
        raise EntryRefused(over)


def _signing_up(tournament: TournamentView, action: str) -> None:
    if tournament.status is not TournamentStatus.SIGNUP:
        raise WrongTournamentStage(tournament.name, tournament.status.value, action)
