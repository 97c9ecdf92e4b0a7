"""The outbox: what the players must be told because the database changed.

A service that changes what players should see (a move, a game's end, the next game of a match, a
round of a tournament, a reminder, an expired challenge...) calls :func:`enqueue` inside the same
transaction, so the announcement exists exactly when the change does. The Discord layer then posts
it and marks it delivered only after Discord accepted it (:class:`OutboxService`); until then it is
retried, with backoff, after failures and after restarts. Nothing here knows Discord: an item holds
the facts (a :data:`Payload`), and the Discord layer turns them into messages.

Order: items of one *stream* (one game, one tournament, one challenge) are handed out oldest first,
and only once every older item of the stream is settled; an item may also wait for another one
(``after``), as a match's next game waits for the previous game's ending. An item that can never be
delivered is settled as given up (and logged by the Discord layer), so it blocks nothing.

Fairness: while a game has an undelivered announcement its clock cannot run out (see
:mod:`bot.deadlines.service`), and a turn notice or reminder delivered late (Discord refused it,
or it waited for one that was refused) leaves its player the time it was meant to give, counted
from its delivery, so nobody loses on time or has a game aborted because Discord failed (the
rule is the games', handed to :class:`OutboxService` as `told_late`).

Delivery is at least once: a crash after Discord accepted a post and before it is marked delivered
posts it again after the restart. A claim (``claimed_until``) keeps other deliverers, in one
process or several, off an item for :data:`CLAIM_FOR`; settling the item needs the claim to still
hold, so a deliverer that overran it cannot settle an item another one took over. The claim is one
conditional statement that passes over an item another process is claiming right then (``FOR
UPDATE SKIP LOCKED`` on PostgreSQL), so couriers of several processes never wait for each other
nor are refused as busy. Every enqueued item wakes the other processes' couriers
(:data:`OUTBOX_CHANNEL`, on PostgreSQL), when its transaction commits.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, ClassVar

from bot.errors import BredonError, StoreBusy
from bot.store import Database, Transaction, from_db, to_db
from bot.timekeeping.clock import Clock

log = logging.getLogger(__name__)

BACKOFF_FIRST = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=1)
CLAIM_FOR = timedelta(minutes=2)
LATE_AFTER = timedelta(minutes=1)  # a turn notice this late moves the deadline on
OUTBOX_CHANNEL = "bredon_outbox"  # notified when an item is enqueued (Database.listen)


class Outcome(StrEnum):
    POSTED = "posted"  # where it belongs
    FALLBACK = "fallback"  # in the game's channel or by DM, its place being gone
    GIVEN_UP = "given_up"  # nowhere: logged


def game_stream(game_id: int) -> str:
    return f"game:{game_id}"


def challenge_stream(challenge_id: int) -> str:
    return f"challenge:{challenge_id}"


def tournament_stream(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def season_stream(season_id: int) -> str:
    return f"season:{season_id}"


# ----------------------------------------------------------------- what is announced


@dataclass(frozen=True, slots=True)
class _AboutAGame:
    """An announcement in a game's stream."""

    game_id: int

    @property
    def stream(self) -> str:
        return game_stream(self.game_id)


@dataclass(frozen=True, slots=True)
class GameStart(_AboutAGame):
    """A new game: its thread (under the challenge, or under an anchor message in the
    tournament's channel), its first board and the first player's notice."""

    KIND: ClassVar[str] = "game_start"
    anchor_message_id: int | None = None  # the accepted challenge's message
    tournament_id: int | None = None  # a tournament game: an anchor line in its channel first
    league_id: int | None = None  # a league game: an anchor line naming its board first


@dataclass(frozen=True, slots=True)
class MovePlayed(_AboutAGame):
    """A move that did not end the game: the board after it and the next player's notice."""

    KIND: ClassVar[str] = "move"
    ply: int
    move: str
    tps: str
    tak: bool
    lapsed: tuple[str, ...] = ()  # "draw", "undo": the offers this move cancelled
    tinue: bool = False  # the Tak cannot be stopped (rows written before Tinuë lack it)
    # A game played for coins (bot.coins.service); absent from older payloads.
    paid: int = 0  # coins the mover paid with this move for the opponent's Tak
    pot: int | None = None  # the pot after it; None: no stakes
    token_id: int | None = None  # who last called a Tak that cost a payment
    owes_id: int | None = None  # who must pay with their next move
    # Conditional moves (bot.games.conditions); absent from older payloads.
    by_condition: bool = False  # Bredon played it for its player, as their line foresaw
    answered: bool = False  # the next player answered it by condition at once: no turn notice


class EndingCause(StrEnum):
    MOVE = "move"
    RESIGN = "resign"
    ABORT = "abort"
    DRAW = "draw"
    TIME = "time"
    STOPPED = "stopped"  # by a tournament's forfeit or cancellation
    REPORTED = "reported"  # played elsewhere, its PTN file reported (bot.tournaments.corrections)


@dataclass(frozen=True, slots=True)
class GameEnded(_AboutAGame):
    """A game's end with the final board; the match score as it stood right after it."""

    KIND: ClassVar[str] = "ending"
    cause: str  # an EndingCause
    by: int | None = None  # who resigned, aborted or accepted the draw
    move: str | None = None  # the final move, for an ending by a move
    ply: int | None = None
    tak: bool = False
    match_points: tuple[int, int] | None = None
    match_games_played: int | None = None
    match_status: str | None = None
    tournament_id: int | None = None  # for a stopped game
    league_id: int | None = None  # for a game stopped by its league's cancellation
    next_game_id: int | None = None
    by_condition: bool = False  # the final move was played by condition (bot.games.conditions)


@dataclass(frozen=True, slots=True)
class RequestMade(_AboutAGame):
    """A draw offer or an undo request, for the opponent to answer."""

    KIND: ClassVar[str] = "request"
    what: str  # "draw" or "undo"
    asker_id: int
    last_move: str | None


@dataclass(frozen=True, slots=True)
class MoveTakenBack(_AboutAGame):
    KIND: ClassVar[str] = "undo"
    taken_back: str
    ply: int  # the ply the game is back at
    tps: str


@dataclass(frozen=True, slots=True)
class ReminderDue(_AboutAGame):
    KIND: ClassVar[str] = "reminder"
    player_id: int
    deadline: str  # store text
    ply: int | None = None  # the turn it is for


class ClockEvent(StrEnum):
    VACATION = "vacation"  # a player's vacation stopped the clock
    VACATION_END = "vacation_end"
    AUTO_VACATION = "auto_vacation"  # the player's time ran out: a vacation day taken instead
    PAUSE_OFFER = "pause_offer"  # for the opponent to accept, with buttons
    PAUSED = "paused"
    PAUSE_END = "pause_end"
    MORE_TIME = "more_time"


@dataclass(frozen=True, slots=True)
class ClockNews(_AboutAGame):
    """Something that stopped, restarted or lengthened a game's clock."""

    KIND: ClassVar[str] = "clock"
    event: str  # a ClockEvent
    player_id: int  # who took the vacation, proposed, ended or gave
    deadline: str | None = None  # store text: the deadline that holds now (None: stands still)
    until: str | None = None  # store text: a vacation's planned end
    extra: int = 0  # seconds of more time
    days_left: int = 0  # vacation days left this year, after an automatic one
    # An automatic vacation day, in the game whose time-out took it: every game whose clock it
    # stopped (the player's one DM about the day lists them).
    held: tuple[int, ...] = ()


class DropReason(StrEnum):
    ILLEGAL = "illegal"  # the answer a line gave could not be played
    UNDO = "undo"  # a move was taken back: the lines started from a position that is gone


@dataclass(frozen=True, slots=True)
class ConditionsDropped:
    """A player's conditional moves in a game were dropped without their asking
    (:mod:`bot.games.conditions`): told to that player alone, by DM. Its own stream, so a
    closed DM never holds the game's posts back."""

    KIND: ClassVar[str] = "conditions_dropped"
    game_id: int
    player_id: int
    reason: str  # a DropReason
    move: str | None = None  # the answer that could not be played
    detail: str | None = None  # why not, as the engine or the wallet said it

    @property
    def stream(self) -> str:
        return f"conditions:{self.game_id}:{self.player_id}"


@dataclass(frozen=True, slots=True)
class ChallengeSettled:
    """A challenge that was accepted, declined, cancelled or expired: its message says so and
    loses its buttons."""

    KIND: ClassVar[str] = "challenge_closed"
    challenge_id: int

    @property
    def stream(self) -> str:
        return challenge_stream(self.challenge_id)


@dataclass(frozen=True, slots=True)
class BiddingNews:
    """A challenge with stakes was accepted: the sealed bids for the first move are open (with
    the Bid button), or they closed (revealed; the game's start follows)."""

    KIND: ClassVar[str] = "bidding"
    challenge_id: int
    stake_id: int
    closed: bool = False

    @property
    def stream(self) -> str:
        return challenge_stream(self.challenge_id)


class Headline(StrEnum):
    CREATED = "created"  # open for sign-up: the embed with its settings
    CHANGED = "changed"  # its settings changed before the start: the sign-up embed again
    STARTED = "started"
    WITHDREW = "withdrew"
    DISQUALIFIED = "disqualified"
    CHECKIN_OPEN = "checkin_open"  # check-in opened (bot.tournaments.entry)
    CHECKIN_REMINDER = "checkin_reminder"  # to those who have not checked in yet
    LATE_ENTRY = "late_entry"  # player_id entered a running Swiss
    REPLACED = "replaced"  # player_id's place was taken over by other_id
    CORRECTED = "corrected"  # an organizer corrected a result: the log entry says how


@dataclass(frozen=True, slots=True)
class TournamentNews:
    """What moved a tournament on: forfeits, rounds that began, the end or a cancellation."""

    KIND: ClassVar[str] = "tournament"
    tournament_id: int
    headline: str | None = None  # a Headline
    player_id: int | None = None  # who withdrew or was disqualified
    decided: tuple[int, ...] = ()  # pairing ids decided
    rounds: tuple[int, ...] = ()  # round numbers that began
    finished: bool = False
    cancelled: bool = False
    dropped: tuple[int, ...] = ()  # entrants who had not checked in, left out at the start
    other_id: int | None = None  # who took player_id's place (a replacement)
    log_id: int | None = None  # the tournament log's entry, for a correction

    @property
    def stream(self) -> str:
        return tournament_stream(self.tournament_id)


class SeasonEvent(StrEnum):
    STARTED = "started"  # its divisions, each a tournament whose round 1 is posted by itself
    ROUND = "round"  # a period ended: the next round is paired in every division, its deadline
    FINISHED = "finished"  # the division winners, who goes up and who goes down
    WAITING = "waiting"  # its start came with fewer than two players: it waits for the organizer


@dataclass(frozen=True, slots=True)
class SeasonNews:
    """What happened to a season of a server's league (:mod:`bot.seasons`)."""

    KIND: ClassVar[str] = "season"
    guild_id: int
    season_id: int
    event: str  # a SeasonEvent

    @property
    def stream(self) -> str:
        return season_stream(self.season_id)


@dataclass(frozen=True, slots=True)
class LeagueNews:
    """What moved a team league on (:mod:`bot.leagues.service`): its start with the schedule, a
    round whose lineups were due (its boards and games), decided matches, the final table; a
    lineup reminder to the captains of `teams` for round `reminder`; its cancellation."""

    KIND: ClassVar[str] = "league"
    league_id: int
    started: bool = False
    round_begun: int | None = None
    decided: tuple[int, ...] = ()  # league match ids decided
    finished: bool = False
    reminder: int | None = None  # the round whose lineups are due soon
    teams: tuple[int, ...] = ()  # the teams reminded: their captains had set no lineup
    cancelled: bool = False

    @property
    def stream(self) -> str:
        return f"league:{self.league_id}"


@dataclass(frozen=True, slots=True)
class DigestDue:
    """A player's daily digest in one server (:mod:`bot.notifications.service`): the games
    awaiting their move, by DM, as they stand when it is delivered."""

    KIND: ClassVar[str] = "digest"
    player_id: int
    guild_id: int
    due_at: str  # store text: the digest hour it is for

    @property
    def stream(self) -> str:
        return f"digest:{self.guild_id}:{self.player_id}"


@dataclass(frozen=True, slots=True)
class AnalysisReady(_AboutAGame):
    """A finished game's analysis (:mod:`bot.computer.analysis_queue`): the graph, the annotated PTN
    and the biggest swings, posted in the game's thread."""

    KIND: ClassVar[str] = "analysis"


@dataclass(frozen=True, slots=True)
class BoardSuperseded:
    """A game's board that a newer board (or the game's end) replaced: its message loses its
    buttons, so only the latest board can be acted on. Its own stream, so that a failed edit
    never holds the game's posts back (nor its clock)."""

    KIND: ClassVar[str] = "board_superseded"
    game_id: int
    link: str  # the old board's jump link

    @property
    def stream(self) -> str:
        return f"boards:{self.game_id}"


@dataclass(frozen=True, slots=True)
class DailyPuzzlePosted:
    """A server's puzzle of the day (:mod:`bot.puzzles.service`), posted in the channel its
    managers chose, with the day before's solution."""

    KIND: ClassVar[str] = "daily_puzzle"
    guild_id: int
    channel_id: int
    day: str  # YYYY-MM-DD (UTC)

    @property
    def stream(self) -> str:
        return f"puzzles:{self.guild_id}"


Payload = (
    GameStart
    | MovePlayed
    | GameEnded
    | RequestMade
    | MoveTakenBack
    | ReminderDue
    | ChallengeSettled
    | TournamentNews
    | LeagueNews
    | BiddingNews
    | DigestDue
    | ClockNews
    | AnalysisReady
    | BoardSuperseded
    | ConditionsDropped
    | SeasonNews
    | DailyPuzzlePosted
)
PAYLOADS: dict[str, type[Payload]] = {
    kind.KIND: kind
    for kind in (
        GameStart,
        MovePlayed,
        GameEnded,
        RequestMade,
        MoveTakenBack,
        ReminderDue,
        ChallengeSettled,
        TournamentNews,
        LeagueNews,
        BiddingNews,
        DigestDue,
        ClockNews,
        AnalysisReady,
        BoardSuperseded,
        ConditionsDropped,
        SeasonNews,
        DailyPuzzlePosted,
    )
}
TURN_NOTICES = (GameStart, MovePlayed, MoveTakenBack)


def _decode(kind: str, text: str) -> Payload:
    cls = PAYLOADS[kind]
    values = json.loads(text)
    for name, value in values.items():  # JSON has no tuples
        if isinstance(value, list):
            values[name] = tuple(value)
    return cls(**values)


@dataclass(frozen=True, slots=True)
class Item:
    id: int
    payload: Payload
    created_at: datetime
    attempts: int  # failed deliveries so far
    progress: dict[str, Any] = field(default_factory=dict)
    claim: str | None = None  # this deliverer's claim, which settling the item must still hold

    @property
    def stream(self) -> str:
        return self.payload.stream


class Unreadable(Exception):
    """An outbox row this code cannot read (written by another version of Bredon)."""


def _item(row: Any) -> Item:
    created = from_db(row["created_at"])
    assert created is not None
    try:
        payload = _decode(row["kind"], row["payload"])
        progress = json.loads(row["progress"])
    except (KeyError, TypeError, ValueError) as error:
        raise Unreadable(f"outbox row {row['id']} ({row['kind']}): {error}") from None
    return Item(row["id"], payload, created, row["attempts"], progress, row["claimed_until"])


async def enqueue(
    tx: Transaction, payload: Payload, now: datetime, *, after: int | None = None
) -> int:
    """Add an announcement in the caller's transaction; returns its id (for ``after``)."""
    new_id = await tx.insert(
        "INSERT INTO outbox (stream, kind, payload, after_id, created_at, next_attempt_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            payload.stream,
            payload.KIND,
            json.dumps(asdict(payload)),
            after,
            to_db(now),
            to_db(now),
        ),
    )
    await tx.notify(OUTBOX_CHANNEL)
    return new_id


# Pending, its turn in its stream, and what it waits for settled.
_READY = (
    "o.delivered_at IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.stream = o.stream AND b.id < o.id "
    "AND b.delivered_at IS NULL) "
    "AND (o.after_id IS NULL OR EXISTS (SELECT 1 FROM outbox c WHERE c.id = o.after_id "
    "AND c.delivered_at IS NOT NULL))"
)

# SQL for "this game has an announcement still to deliver" (games aliased g).
GAME_HAS_PENDING_NEWS = (
    "EXISTS (SELECT 1 FROM outbox o WHERE o.stream = 'game:' || g.id AND o.delivered_at IS NULL)"
)


def backoff(attempts: int) -> timedelta:
    """30 s after the first failure, doubling, at most an hour."""
    doublings = min(max(attempts - 1, 0), 20)  # 2**20 * 30 s is far past the cap already
    return min(BACKOFF_FIRST * (1 << doublings), BACKOFF_MAX)


# What a late delivery does to the game it tells of, in the transaction given: the rule lives
# where turns are decided (:func:`bot.play.service.give_time_back`), the outbox only calls it.
ToldLate = Callable[[Transaction, Item, datetime], Awaitable[None]]


class OutboxService:
    def __init__(self, db: Database, clock: Clock, told_late: ToldLate) -> None:
        self._db = db
        self._clock = clock
        self._told_late = told_late

    async def due(self, *, stream: str | None = None, limit: int = 50) -> list[Item]:
        """Items ready to deliver now, oldest first (only `stream`'s, if given). A row this
        code cannot read is settled as given up (and logged), so it blocks nothing."""
        now = to_db(self._clock.now())
        rows = await self._db.fetchall(
            "SELECT o.* FROM outbox o WHERE " + _READY + " AND o.next_attempt_at <= ? "
            "AND (o.claimed_until IS NULL OR o.claimed_until <= ?) "
            "AND (? IS NULL OR o.stream = ?) ORDER BY o.id LIMIT ?",
            (now, now, stream, stream, limit),
        )
        items = []
        for row in rows:
            try:
                items.append(_item(row))
            except Unreadable as error:
                log.error("%s; given up.", error)
                await self._db.write_one(
                    "UPDATE outbox SET delivered_at = ?, outcome = 'given_up', last_error = ? "
                    "WHERE id = ?",
                    (now, str(error)[:500], row["id"]),
                )
        return items

    async def claim(self, item_id: int) -> Item | None:
        """Take the item for delivery, if it is still ready and nobody else has it (None if
        not, or if the store is busy with its game: it is tried again at the next look). A late
        turn notice or reminder gives its player the time back here, before it is shown, so the
        post tells the deadline that holds."""
        now = self._clock.now()
        claim = to_db(now + CLAIM_FOR)
        rows = await self._db.write_one(
            "UPDATE outbox SET claimed_until = ? WHERE id = (SELECT o.id FROM outbox o "
            "WHERE o.id = ? AND " + _READY + " "
            "AND (o.claimed_until IS NULL OR o.claimed_until <= ?)" + self._db.skip_locked + ") "
            "RETURNING *",
            (claim, item_id, to_db(now)),
        )
        if not rows:
            return None
        item = _item(rows[0])
        if now - item.created_at > LATE_AFTER:
            try:
                async with self._db.transaction() as tx:
                    await self._told_late(tx, item, now)
            except StoreBusy:
                await self.release(item)
                return None
            except BaseException:  # not held for CLAIM_FOR by a failure: ready at the next look
                await self.release(item)
                raise
        return item

    async def release(self, item: Item) -> None:
        """Give the claim back, no attempt counted (on a path already failing: if the store
        cannot do even that, the claim runs out by itself, CLAIM_FOR)."""
        with contextlib.suppress(BredonError):
            await self._release(item)

    async def _release(self, item: Item) -> None:
        """Give up a claim without an attempt counted: the item is ready again at once."""
        await self._db.write_one(
            "UPDATE outbox SET claimed_until = NULL WHERE id = ? AND claimed_until = ?",
            (item.id, item.claim),
        )

    async def announce(self, payload: Payload) -> int:
        """Enqueue an announcement on its own, outside any other change (e.g. a board to strip
        of its buttons, found while presenting a newer one); returns its id."""
        async with self._db.transaction() as tx:
            return await enqueue(tx, payload, self._clock.now())

    async def save_progress(self, item: Item, **steps: Any) -> None:
        """Record steps done (e.g. an anchor message posted) so a retry does not redo them."""
        item.progress.update(steps)
        await self._db.write_one(
            "UPDATE outbox SET progress = ? WHERE id = ?", (json.dumps(item.progress), item.id)
        )

    async def delivered(self, item: Item, outcome: Outcome, error: str | None = None) -> bool:
        """Settle the item, if this deliverer's claim still holds (False: it ran out and
        another deliverer took the item over)."""
        rows = await self._db.write_one(
            "UPDATE outbox SET delivered_at = ?, outcome = ?, claimed_until = NULL, "
            "last_error = COALESCE(?, last_error) WHERE id = ? "
            "AND claimed_until IS NOT DISTINCT FROM ? AND delivered_at IS NULL RETURNING id",
            (to_db(self._clock.now()), outcome.value, error, item.id, item.claim),
        )
        return bool(rows)

    async def failed(self, item: Item, error: str) -> datetime:
        """Try again later, with backoff; returns when."""
        now = self._clock.now()
        attempts = item.attempts + 1
        retry_at = now + backoff(attempts)
        await self._db.write_one(
            "UPDATE outbox SET attempts = ?, next_attempt_at = ?, claimed_until = NULL, "
            "last_error = ? WHERE id = ? AND claimed_until IS NOT DISTINCT FROM ?",
            (attempts, to_db(retry_at), error[:500], item.id, item.claim),
        )
        return retry_at

    async def next_due_at(self) -> datetime | None:
        """When the earliest item that is next in its stream may be tried."""
        row = await self._db.fetchone(
            "SELECT MIN(MAX(o.next_attempt_at, COALESCE(o.claimed_until, ''))) FROM outbox o "
            "WHERE " + _READY
        )
        return None if row is None else from_db(row[0])

    async def delivered_items(self, stream: str, *kinds: str, limit: int = 20) -> list[Item]:
        """The stream's latest delivered announcements of these kinds, newest first (e.g. to
        find the message of the last draw offer, or the last board posted)."""
        marks = ", ".join("?" * len(kinds))
        rows = await self._db.fetchall(
            f"SELECT * FROM outbox WHERE stream = ? AND kind IN ({marks}) "
            "AND delivered_at IS NOT NULL ORDER BY id DESC LIMIT ?",
            (stream, *kinds, limit),
        )
        return [_item(row) for row in rows]

    async def pending(self, stream: str | None = None) -> int:
        """How many announcements are still to deliver (of `stream`, if given)."""
        row = await self._db.fetchone(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND (? IS NULL OR stream = ?)",
            (stream, stream),
        )
        assert row is not None
        return int(row[0])
