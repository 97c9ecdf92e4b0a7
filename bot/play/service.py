"""Playing a game: moves, resignation, draw offers, undo requests and aborts.

Where positions come from: the move log is the record. Each game row also keeps the current TPS,
ply and last move, and a *version* that every change of position (a move or an undo) raises by
one. Advancing the row's ply appends the move and the TPS after it to the log in the same
statement (the ``games_log_move`` trigger), and the triggers refuse a change of ply that does not
raise the version by exactly one (migration 0005), so row, version and log cannot disagree.

Positions are loaded without replaying the game, so a move costs the same at ply 10 and at ply
150. A move needs only the stored TPS (:meth:`GameView.position_from_tps`): the move it plays
becomes the position's last move. Reading the position (to draw the board, which tints the last
move) and undoing need the position with its last move: the TPS the log keeps before that move,
with the move played on it (:func:`logged_position`). Only moves logged before migration 0005
have no TPS; such a game is replayed from its first move.

The service keeps recently played games in memory (:class:`PositionCache`), each position with at
least its last move and with the version it is at, and uses a cached position only while the
stored version is that one. Ply and TPS would not do: moves transpose, so another process can
undo and replay a game into the same ply and TPS along another history. An undo never unwinds a
cached position either: it loads the position before the last move from the log. An entry is
taken out of the cache for the length of a move and put back only once the move is committed,
so a failed move can never leave a position ahead of the database. With PostgreSQL, a game
changed by one process (a move, an undo, its end) is dropped from the other processes' caches
(:data:`GAME_CHANNEL`, :meth:`GameService.follow_other_processes`): the version check alone keeps
them right, the notice spares them the memory of positions they can no longer use.

A move takes one of two paths. The quick one, for a cached game and a move that does not end it:
the turn, the ply the player saw and the move are checked against the cached state, then one
``UPDATE ... WHERE ply = ? AND version = ? AND status = 'active'`` (and no offer pending) applies
it with its log row, only if the database still holds exactly that state, and its announcement
is written in the same transaction (:mod:`bot.notifications.outbox`). Anything else (no cache
entry, a
refusal, a move that ends the game or cancels an offer, a row that changed under the cache, or
a game where a player has conditional moves: the quick update learns it and is rolled back) goes
the checked way: one ``BEGIN IMMEDIATE`` transaction that re-reads the game, re-checks
everything and gives the precise refusal, and also scores a finished game and its match.

Conditional moves (:mod:`bot.games.conditions`): the answer a player's lines give to the move
is played in the move's own transaction, as any move, and announced as played by condition; its
Tak call is worked out with the move's, before the transaction.

How long a game may be: :data:`tak.ptn.MAX_PLIES` plies of its own (2,000; a game set up from a
TPS counts from there), the most a PTN record holds, so every stored game can be exported, viewed,
replayed and analysed. The move that reaches it ends the game by the flat count, komi included, as
a full board would (:func:`ply_limit_result`).

Races: of two moves sent for the same position, the first commits and the second finds the ply
changed and gets :class:`PositionChanged`. The log's unique index on live (game, ply) refuses a
second move for a ply even if a caller skips the check.
"""

from __future__ import annotations

import asyncio
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime

from bot.coins.service import (
    CoinNote,
    coin_fields,
    refuse_undo_with_stakes,
    settle_stakes,
    stakes_after_move,
)
from bot.errors import (
    BredonError,
    CommitUnknown,
    DrawAlreadyOffered,
    GameOver,
    IllegalMove,
    LeagueGameAbort,
    MoveUnconfirmed,
    MustPayOrResign,
    NoDrawOffer,
    NothingToUndo,
    NotYourMoveToTakeBack,
    NotYourTurn,
    NoUndoRequest,
    OwnRequest,
    PositionChanged,
    StoreBusy,
    StoreUnwritable,
    TooLateToAbort,
    TournamentGameAbort,
    UndoAlreadyRequested,
)
from bot.games.conditions import clear_lines, drop_lines, foreseen_answer, take_answer
from bot.games.matches import record_game_in_match
from bot.games.model import (
    GameStatus,
    GameView,
    game_from_row,
)
from bot.games.ratings import rate_game
from bot.games.storage import (
    MoveWrite,
    claim_request,
    end_game,
    extend_deadline_of_turn,
    extend_turn,
    fetch_game,
    fetch_game_version,
    forget_thread,
    move_made_by,
    record_move,
    record_move_as_seen,
    set_draw_offer,
    set_undo_request,
    show_in,
    take_back_move,
)
from bot.games.turns import Turn, turn_after_move, turn_after_undo, turn_for
from bot.leagues.service import in_league, record_game_in_league
from bot.notifications.outbox import (
    TURN_NOTICES,
    EndingCause,
    GameEnded,
    GameStart,
    Item,
    MovePlayed,
    MoveTakenBack,
    ReminderDue,
    RequestMade,
    enqueue,
)
from bot.play.outcomes import GameEnding, MoveOutcome
from bot.store import Database, Transaction, from_db, retried_on_conflict
from bot.timekeeping.clock import Clock
from bot.tournaments.rounds import announce_progress, record_match_in_tournament
from bot.tournaments.storage import in_tournament
from tak import (
    Call,
    Move,
    Position,
    PTNError,
    Result,
    ResultKind,
    TakError,
    parse_move,
    tak_call,
)
from tak.errors import NotASquare
from tak.moves import off_board
from tak.ptn import MAX_PLIES

GAME_CHANNEL = "bredon_game"  # notified with a game's id when its position changes


def _draw_offer_by(game: GameView) -> int | None:
    return game.draw_offer_by


def _undo_request_by(game: GameView) -> int | None:
    return game.undo_request_by


@dataclass(frozen=True, slots=True)
class _Request:
    """Something one player asks and the other answers: a draw offer or an undo request."""

    what: str
    asker: Callable[[GameView], int | None]  # who asked, if anyone
    record: Callable[[Transaction, GameView, int | None], Awaitable[GameView]]
    missing: Callable[[int], BredonError]
    already: Callable[..., BredonError]


DRAW_OFFER = _Request("draw offer", _draw_offer_by, set_draw_offer, NoDrawOffer, DrawAlreadyOffered)
UNDO_REQUEST = _Request(
    "undo request", _undo_request_by, set_undo_request, NoUndoRequest, UndoAlreadyRequested
)


@dataclass(slots=True)
class CachedGame:
    game: GameView  # as last read or written
    version: int  # the stored version of that state
    position: Position  # at game.ply, with at least its last move


class PositionCache:
    """Recently played games and their positions, least recently used first."""

    def __init__(self, capacity: int = 4096) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[int, CachedGame] = OrderedDict()

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._entries

    def take(self, game_id: int) -> CachedGame | None:
        """Remove and return the game's entry, whatever version it is for."""
        return self._entries.pop(game_id, None)

    def take_position(self, game_id: int, version: int) -> Position | None:
        """Remove the game's entry and return its position if it is the one of `version`."""
        entry = self._entries.pop(game_id, None)
        return entry.position if entry is not None and entry.version == version else None

    def put(self, game: GameView, version: int, position: Position) -> None:
        self._entries[game.id] = CachedGame(game, version, position)
        if len(self._entries) > self._capacity:
            self._entries.popitem(last=False)


def _log_mismatch(game: GameView) -> RuntimeError:
    return RuntimeError(f"Game #{game.id}: the move log does not lead to the stored position.")


async def logged_position(tx: Transaction, game: GameView, ply: int) -> Position:
    """The position after the game's first `ply` live moves, with the last of them: that move
    played on the TPS the log keeps before it. Moves logged before the log kept TPS (migration
    0005) are replayed from the start instead."""
    start_ply = game.setup.start_ply
    if ply == start_ply:
        return game.setup.start_position()
    rows = await tx.fetchall(
        "SELECT ptn, tps FROM moves WHERE game_id = ? AND ply BETWEEN ? AND ? "
        "AND undone_at IS NULL ORDER BY ply",
        (game.id, ply - 1, ply),
    )
    if len(rows) != min(ply - start_ply, 2):
        raise _log_mismatch(game)
    *before, last = rows
    if not before:
        position = game.setup.start_position()
    elif before[0]["tps"] is None:
        return await _replayed(tx, game, ply)
    else:
        position = replace(game, tps=before[0]["tps"]).position_from_tps()
    position.play(last["ptn"])
    if last["tps"] not in (None, position.tps()):
        raise _log_mismatch(game)
    return position


async def _replayed(tx: Transaction, game: GameView, ply: int) -> Position:
    """The position after the first `ply` live moves, replayed from the start."""
    rows = await tx.fetchall(
        "SELECT ptn FROM moves WHERE game_id = ? AND ply <= ? AND undone_at IS NULL ORDER BY ply",
        (game.id, ply),
    )
    position = game.setup.start_position()
    for row in rows:
        position.play(row["ptn"])
    return position


async def load_position(tx: Transaction, game: GameView) -> Position:
    """The game's stored position, from its log (see :func:`logged_position`)."""
    position = await logged_position(tx, game, game.ply)
    if position.ply != game.ply or position.tps() != game.tps:
        raise _log_mismatch(game)
    return position


async def changed_here(tx: Transaction, game_id: int) -> None:
    """Tell the other processes, once `tx` commits, that their cached position of the game is
    out of date."""
    await tx.notify(GAME_CHANNEL, str(game_id))


async def finish_game(
    tx: Transaction,
    game: GameView,
    position: Position,
    result: Result,
    now: datetime,
    news: GameEnded,
) -> GameEnding:
    """End an active game with `result`: score it, stop its clock, count it in its match, rate
    it, count a match it finished in its tournament (which may begin the next round), and its
    board in its league match (:func:`bot.leagues.service.record_game_in_league`).
    `news` says how it ended, for the announcement written here with the match's next game and
    the tournament's progress after it.

    `position` is the final one; a winner scores its squares plus their unplayed pieces
    (see :mod:`bot.games.matches` for the rules).
    """
    await changed_here(tx, game.id)
    await clear_lines(tx, game.id, now)
    aborted = result.kind is ResultKind.ABORT
    points = 0 if aborted or result.winner is None else position.points(result)
    status = GameStatus.ABORTED if aborted else GameStatus.FINISHED
    finished = await end_game(tx, game, status, result, points, now)
    await settle_stakes(tx, game, position, result, now)
    match, next_game = await record_game_in_match(tx, finished, now)
    ratings = await rate_game(tx, finished, now)
    tournament = None if match is None else await record_match_in_tournament(tx, match, now)
    if match is not None:
        news = replace(
            news,
            match_points=(match.points1, match.points2),
            match_games_played=match.games_played,
            match_status=match.status.value,
            next_game_id=None if next_game is None else next_game.id,
        )
    ending_id = await enqueue(tx, news, now)
    await record_game_in_league(tx, finished, now, after=ending_id)
    if next_game is not None:
        await enqueue(tx, GameStart(next_game.id), now, after=ending_id)
    if tournament is not None:
        await announce_progress(tx, tournament, now, after=ending_id)
    return GameEnding(finished, result, points, match, next_game, ratings, tournament)


async def give_time_back(tx: Transaction, item: Item, now: datetime) -> None:
    """Whoever is told late keeps the time they were meant to have: a turn notice leaves its
    player a whole period from now, a reminder the time it was meant to leave. Applied at every
    late attempt (the outbox calls it when it hands out an item delivered late:
    :class:`~bot.notifications.outbox.OutboxService`), it can only lengthen a deadline, never
    twice for the same wait."""
    payload = item.payload
    if isinstance(payload, ReminderDue):
        warned = from_db(payload.deadline)
        assert warned is not None
        # Reminders written before they carried their ply match by the deadline they named.
        await extend_deadline_of_turn(
            tx, payload.game_id, payload.ply, payload.deadline, now + (warned - item.created_at)
        )
        return
    if not isinstance(payload, TURN_NOTICES):
        return
    row = await tx.fetchone(
        "SELECT id FROM games WHERE id = ? AND ply = ? AND status = 'active' "
        "AND deadline_at IS NOT NULL",
        (payload.game_id, getattr(payload, "ply", 0)),
    )
    if row is None:
        return  # the game moved on, or is over
    game = await fetch_game(tx, payload.game_id)
    turn = await turn_for(tx, game, game.to_move, game.clock_left, now)
    await extend_turn(tx, payload.game_id, turn)


async def call_after(position: Position) -> Call:
    """ "Tak" (the player who just moved can complete a road with their next move), "Tinuë" (and
    no reply stops it) or nothing: worked out once per move, in a worker thread (the Tinuë
    search may take a good part of a second on a big board), never inside a write transaction
    but for the rare race in :meth:`GameService._checked_move`. `position` must be the caller's
    alone while it runs."""
    return await asyncio.to_thread(tak_call, position)


async def _call_at(position: Position, foreseen: dict[str, Call]) -> Call:
    """The call after `position`'s last move: the one foreseen for its TPS before the write
    transaction, else (the game changed in between: a race) worked out here, once."""
    known = foreseen.get(position.tps())
    return known if known is not None else await call_after(position.copy())


def _flags(call: Call) -> tuple[bool, bool]:
    """Tak and Tinuë as the outbox and the outcomes store them (a Tinuë is also a Tak)."""
    return call is not Call.NONE, call is Call.TINUE


def at_ply_limit(game: GameView, position: Position) -> bool:
    """Whether `position`, where the board has not ended `game`, is :data:`MAX_PLIES` plies of
    the game's own: the limit ends it."""
    if position.result is not None or position.ply < MAX_PLIES:  # most moves: no TPS read
        return False
    return position.ply - game.setup.start_ply >= MAX_PLIES


def ply_limit_result(game: GameView, position: Position) -> Result | None:
    """The result of a move that brings the game to :data:`MAX_PLIES` plies of its own without
    ending it on the board: the flat count decides, komi included, as on a full board. A win is
    written ``1-0`` / ``0-1`` (PTN readers take ``F-0`` only from a board that is over); a tie is
    a draw, or Black's under the antiquity tie rule."""
    if not at_ply_limit(game, position):
        return None
    winner = position.flat_winner()
    return Result(None, ResultKind.FLATS) if winner is None else Result(winner, ResultKind.OTHER)


def position_mark(tps: str) -> str:
    """A short mark of a position, so that a move chosen for it (a suggestion, a board's Move
    button) is refused in any other, even one reached again at the same ply after an undo."""
    return f"{zlib.crc32(tps.encode()):08x}"


@dataclass(frozen=True, slots=True)
class _Seen:
    """The position a player chose their move for, as far as the caller knows it."""

    ply: int | None
    mark: str | None

    def matches(self, game: GameView) -> bool:
        return self.ply in (None, game.ply) and self.mark in (None, position_mark(game.tps))


def _lapsed(game: GameView) -> tuple[str, ...]:
    """The offers a move in `game` cancels: a pending draw offer, a pending undo request."""
    offers = (("draw", game.draw_offer_by), ("undo", game.undo_request_by))
    return tuple(what for what, by in offers if by is not None)


def advanced(game: GameView, position: Position, tps: str, now: datetime, turn: Turn) -> GameView:
    """`game` as a move that led to `position` (TPS `tps`) at `now` leaves it, with `turn` next:
    as the row the move wrote reads."""
    assert position.last_move is not None
    return replace(
        game,
        ply=position.ply,
        tps=tps,
        last_move=position.last_move.ptn(),
        last_move_at=now,
        deadline_at=turn.deadline,
        reminder_at=turn.reminder,
        clock_left=turn.left,
        draw_offer_by=None,
        undo_request_by=None,
    )


class _HasLines(Exception):
    """A player has conditional moves in the game: the quick path steps aside."""


class _AlreadyMade(Exception):
    """The move's request made a move already: its transaction rolls back."""


class _Unclaimed(Exception):
    """No move was made by a request: the look's claim of its key rolls back."""


# After a commit whose answer was lost: how often the move is looked for while the store comes
# back, and the seconds between two looks.
LOST_COMMIT_LOOKS = 3
LOOK_AGAIN_AFTER = 0.5


def request_key(player_id: int, game_id: int, ply: int, mark: str, move: str) -> str:
    """The request key of a move chosen in a position the player saw (a suggestion, the Move
    button's Confirm): the same choice made again is the same request, whatever carried it."""
    return f"seen:{player_id}:{game_id}:{ply}:{mark[:16]}:{move[:40]}"  # short: a PTN move


def require_active(game: GameView) -> None:
    if not game.is_active:
        raise GameOver(game.id, game.result.ptn() if game.result else game.status.value)


def _parsed(text: str) -> Move:
    """The move in `text`. Spaces within it (a phone's "3c3+ 12") are read as if left out when
    the text does not parse as typed; a refusal still quotes it as typed."""
    try:
        return parse_move(text)
    except PTNError as error:
        if " " not in text:
            raise
        try:
            return parse_move(text.replace(" ", ""))
        except PTNError:
            raise error from None


class GameService:
    """Everything players do in a game. Every method refuses with a :class:`BredonError`
    subclass and then has changed nothing."""

    def __init__(self, db: Database, clock: Clock, cache: PositionCache | None = None) -> None:
        self._db = db
        self._clock = clock
        self._cache = cache if cache is not None else PositionCache()

    async def follow_other_processes(self) -> None:
        """Drop a cached game when another process changes it (PostgreSQL; nothing on SQLite)."""
        await self._db.listen(GAME_CHANNEL, self._changed_elsewhere)

    def _changed_elsewhere(self, payload: str) -> None:
        if payload.isdigit():
            self._cache.take(int(payload))

    def is_cached(self, game_id: int) -> bool:
        """Whether a position of the game is in this process's cache."""
        return game_id in self._cache

    # ----------------------------------------------------------------- reading

    async def get(self, game_id: int) -> GameView:
        async with self._db.snapshot() as tx:
            return await fetch_game(tx, game_id)

    async def position(self, game_id: int) -> Position:
        """The current position (a copy), e.g. to draw the board. It holds the moves played on
        it since it was loaded, the last move at least; the whole record is the log."""
        async with self._db.snapshot() as tx:
            game, version = await fetch_game_version(tx, game_id)
            position = self._cache.take_position(game.id, version)
            if position is None:
                position = await load_position(tx, game)
        self._cache.put(game, version, position)
        return position.copy()

    async def legal_moves(self, game_id: int) -> list[str]:
        """The legal moves in PTN, for autocompletion; empty once the game is over."""
        position = await self.position(game_id)
        if position.result is not None:
            return []
        return [move.ptn() for move in position.legal_moves()]

    # ----------------------------------------------------------------- moves

    async def move(
        self,
        game_id: int,
        player_id: int,
        text: str,
        *,
        expected_ply: int | None = None,
        expected_mark: str | None = None,
        key: str | None = None,
    ) -> MoveOutcome:
        """Play `text` (PTN) for `player_id`.

        `expected_ply` and `expected_mark` (:func:`position_mark`) say which position the player
        saw when they chose the move (the Discord layer passes them); if the game stands
        elsewhere now, even at the same ply after an undo, :class:`PositionChanged` is raised.

        `key` names the request (a Discord interaction, or :func:`request_key`) and is stored
        with the move: the same request made again is answered with the move it made, never
        played twice nor refused; after a commit whose answer was lost, the move is looked up
        and the player told the truth (played, not saved, or :class:`MoveUnconfirmed`).
        """
        try:
            move = _parsed(text.strip())
        except NotASquare as error:  # said with the squares of this game's board
            size = (await self.get(game_id)).setup.size
            raise IllegalMove(text.strip(), off_board(error.square, size)) from None
        except PTNError as error:
            raise IllegalMove(text.strip(), str(error)) from None
        seen = _Seen(expected_ply, expected_mark)

        async def attempt() -> MoveOutcome:
            known: dict[str, Call] = {}  # calls the quick path worked out, by TPS
            outcome = await self._quick_move(game_id, player_id, move, seen, known, key)
            if outcome is None:
                outcome = await self._checked_move(game_id, player_id, move, text, seen, known, key)
            return outcome

        # Tried again after a conflict, it is checked afresh: a move another process made in
        # the meantime makes it PositionChanged, not a second move.
        try:
            return await retried_on_conflict(attempt)
        except _AlreadyMade:
            assert key is not None
            made = await self._made_by(key, player_id)
        except CommitUnknown as error:
            if key is None:
                raise
            # The first answer the player gets about this move: not a repeat.
            return await self._after_lost_commit(key, game_id, player_id, text, error)
        except (GameOver, NotYourTurn, PositionChanged, IllegalMove):
            # Refused in the game as it stands: because this very request made its move?
            made = None if key is None else await self._made_by(key, player_id)
            if made is None:
                raise
        assert made is not None
        return replace(made, repeated=True)

    async def _made_by(self, key: str, player_id: int) -> MoveOutcome | None:
        """The move request `key` of `player_id` made, in the game as it stands now, or None."""
        async with self._db.snapshot() as tx:
            row = await move_made_by(tx, key)
            if row is None or row["player_id"] != player_id:
                return None
            game = await fetch_game(tx, row["game_id"])
            position = await logged_position(tx, game, row["ply"])
        move = position.last_move
        assert move is not None
        tak, tinue = _flags(await call_after(position.copy()))
        return MoveOutcome(game, move.ptn(), position.ply, position, tak, None, tinue)

    async def _after_lost_commit(
        self, key: str, game_id: int, player_id: int, text: str, error: CommitUnknown
    ) -> MoveOutcome:
        """A move whose commit got no answer, looked for (again, while the store comes back)
        and reported as it is: played, not saved (`error`, the store's refusal), or, when the
        store cannot say, :class:`MoveUnconfirmed`."""
        for look in range(LOST_COMMIT_LOOKS):
            if look:
                await asyncio.sleep(LOOK_AGAIN_AFTER)
            try:
                was_made = await self._was_made(key, game_id, player_id)
                made = await self._made_by(key, player_id) if was_made else None
            except (StoreBusy, StoreUnwritable):  # not answering yet: look again
                continue
            if not was_made:
                raise StoreUnwritable(error.problem) from error
            if made is not None:
                return made
        raise MoveUnconfirmed(game_id, text) from error

    async def _was_made(self, key: str, game_id: int, player_id: int) -> bool:
        """Whether request `key` made a move, for certain: claiming the key waits for a
        transaction that may still hold it (a server that has not yet seen its connection
        end), and the claim is rolled back either way."""
        try:
            async with self._db.transaction() as tx:
                if await claim_request(tx, key, game_id, 1, player_id, self._clock.now()):
                    raise _Unclaimed
        except _Unclaimed:
            return False
        return True

    async def _quick_move(
        self,
        game_id: int,
        player_id: int,
        move: Move,
        seen: _Seen,
        known: dict[str, Call],
        key: str | None,
    ) -> MoveOutcome | None:
        """The move applied by one conditional update (with its announcement), or None to take
        the checked path (the call it worked out then put in `known`, not to search it again)."""
        entry = self._cache.take(game_id)
        if entry is None:
            return None
        game, version, position = entry.game, entry.version, entry.position
        if (
            not game.is_active
            or not seen.matches(game)
            or game.player_to_move.id != player_id
            or not position.is_legal(move)
        ):
            self._cache.put(game, version, position)
            return None
        position.push(move)
        if position.result is not None or ply_limit_result(game, position) is not None:
            position.pop()
            self._cache.put(game, version, position)
            return None
        call = await call_after(position)
        now = self._clock.now()
        try:
            return await self._quick_write(game, version, position, player_id, call, now, key)
        except _HasLines:  # rolled back: the checked path foresees the answer's call
            known[position.tps()] = call
            position.pop()
            self._cache.put(game, version, position)
            return None

    async def _quick_write(
        self,
        game: GameView,
        version: int,
        position: Position,
        player_id: int,
        call: Call,
        now: datetime,
        key: str | None,
    ) -> MoveOutcome | None:
        """The quick path's transaction: the move (already on `position`) written as seen, or
        None if the stored game is not the cached one any more; :class:`_HasLines` rolls it
        back when a player has conditional moves in the game."""
        move = position.last_move
        assert move is not None
        tps = position.tps()
        async with self._db.transaction() as tx:
            turn = await turn_after_move(tx, game, now)
            move_write = MoveWrite(game, version, position, tps, player_id, now, turn)
            row = await record_move_as_seen(tx, move_write)
            if row is None:  # the stored game is not the cached one any more
                return None
            if row["has_lines"]:
                raise _HasLines
            await self._claim(tx, key, game.id, position.ply, player_id, now)
            await changed_here(tx, game.id)
            ptn = move.ptn()
            tak, tinue = _flags(call)
            coins = None
            if row["staked"]:  # played for coins: the Tak token and payments
                coins = await stakes_after_move(tx, game, player_id, tak, now)
            played = MovePlayed(
                game.id, position.ply, ptn, tps, tak, tinue=tinue, **coin_fields(coins)
            )
            await enqueue(tx, played, now)
        moved = game_from_row(row, (game.white.name, game.black.name))
        self._cache.put(moved, row["version"], position)
        return MoveOutcome(moved, ptn, position.ply, position.copy(), tak, None, tinue)

    async def _foreseen_calls(
        self, game_id: int, move: Move, known: dict[str, Call]
    ) -> dict[str, Call]:
        """The calls after `move` in the game as stored now, and after the answer the
        opponent's conditional moves give to it, by TPS (those `known` already not searched
        again): worked out before the write transaction of the checked path, which uses one
        if it reaches that very position."""
        try:
            async with self._db.snapshot() as tx:
                game, version = await fetch_game_version(tx, game_id)
                answer = await foreseen_answer(tx, game, version, move.ptn())
            position = game.position_from_tps()
            position.play(move)
        except (BredonError, TakError):
            return {}  # the transaction refuses the move with the reason
        tps = position.tps()
        calls = {tps: known[tps] if tps in known else await call_after(position.copy())}
        if answer is not None and position.result is None and position.is_legal(answer):
            position.play(answer)
            calls[position.tps()] = await call_after(position)
        return calls

    async def _checked_move(
        self,
        game_id: int,
        player_id: int,
        move: Move,
        text: str,
        seen: _Seen,
        known: dict[str, Call],
        key: str | None,
    ) -> MoveOutcome:
        foreseen = await self._foreseen_calls(game_id, move, known)
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game, version = await fetch_game_version(tx, game_id)
            require_active(game)
            mover = game.color_of(player_id)
            if not seen.matches(game):
                raise PositionChanged(game.id, game.ply if seen.ply is None else seen.ply, game.ply)
            if mover is not game.to_move:
                raise NotYourTurn(game.id)
            cached = self._cache.take_position(game.id, version)
            position = game.position_from_tps() if cached is None else cached
            try:
                position.play(move)
            except TakError as error:
                if cached is not None:  # one from the row does not know its last move
                    self._cache.put(game, version, cached)
                raise IllegalMove(text.strip(), str(error)) from None
            tps = position.tps()
            turn = await turn_after_move(tx, game, now)
            if not await record_move(
                tx, MoveWrite(game, version, position, tps, player_id, now, turn)
            ):
                raise PositionChanged(game.id, game.ply, position.ply)
            await self._claim(tx, key, game.id, position.ply, player_id, now)
            await changed_here(tx, game.id)
            moved = advanced(game, position, tps, now, turn)
            ending = answer = None
            call = await _call_at(position, foreseen)
            tak, tinue = _flags(call)  # a Tinuë is a Tak call for the stakes too
            coins = await stakes_after_move(tx, game, player_id, tak, now)
            result = position.result or ply_limit_result(game, position)
            if result is not None:
                news = GameEnded(game.id, EndingCause.MOVE, move=move.ptn(), ply=position.ply)
                ending = await finish_game(tx, moved, position, result, now, news)
                moved = ending.game
            else:
                lapsed = _lapsed(game)
                played = MovePlayed(
                    game.id,
                    position.ply,
                    move.ptn(),
                    tps,
                    tak,
                    lapsed,
                    tinue=tinue,
                    **coin_fields(coins),
                )
                answer = await self._announce(
                    tx, played, moved, version + 1, position, now, foreseen
                )
        outcome = MoveOutcome(moved, move.ptn(), position.ply, position.copy(), tak, ending, tinue)
        return self._cached(outcome, version + 1, position, answer)

    @staticmethod
    async def _claim(
        tx: Transaction, key: str | None, game_id: int, ply: int, player_id: int, now: datetime
    ) -> None:
        """Store the move's request key with it; :class:`_AlreadyMade` if it made one."""
        if key is not None and not await claim_request(tx, key, game_id, ply, player_id, now):
            raise _AlreadyMade

    def _cached(
        self,
        outcome: MoveOutcome,
        version: int,
        position: Position,
        answer: tuple[MoveOutcome, Position] | None,
    ) -> MoveOutcome:
        """`outcome` with the answer by condition that followed it, if any; the game's latest
        position, after both, kept in the cache."""
        if answer is None:
            self._cache.put(outcome.game, version, position)
            return outcome
        answered, after = answer
        self._cache.put(answered.game, version + 1, after)
        return replace(outcome, answer=answered)

    async def _announce(
        self,
        tx: Transaction,
        played: MovePlayed,
        game: GameView,
        version: int,
        position: Position,
        now: datetime,
        foreseen: dict[str, Call],
    ) -> tuple[MoveOutcome, Position] | None:
        """Announce `played`, the move that left `game` (stored at `version`) at `position`,
        and play the answer the opponent's conditional moves gave to it, if any, as any move
        (:mod:`bot.games.conditions`): what it did and the position after it. The answer is
        played at the moment of the move it answers, so its player's clock does not run. Its
        Tak call is the one `foreseen` before the transaction, unless a race changed it."""
        owner = game.player_to_move.id
        answer = await take_answer(tx, game, version, now)
        playable = None
        if answer is not None:
            playable = await self._playable(tx, game, position, answer, now, foreseen)
        await enqueue(tx, replace(played, answered=playable is not None), now)
        if playable is None:
            return None
        after, call, coins = playable
        tps = after.tps()
        turn = await turn_after_move(tx, game, now)
        recorded = await record_move(tx, MoveWrite(game, version, after, tps, owner, now, turn))
        assert recorded, "the game was read and moved in this very transaction"
        answered = advanced(game, after, tps, now, turn)
        assert after.last_move is not None
        ptn = after.last_move.ptn()
        tak, tinue = _flags(call)
        ending = None
        result = after.result or ply_limit_result(game, after)
        if result is not None:
            news = GameEnded(game.id, EndingCause.MOVE, move=ptn, ply=after.ply, by_condition=True)
            ending = await finish_game(tx, answered, after, result, now, news)
            answered = ending.game
        else:
            by_condition = MovePlayed(
                game.id,
                after.ply,
                ptn,
                tps,
                tak,
                tinue=tinue,
                by_condition=True,
                **coin_fields(coins),
            )
            await enqueue(tx, by_condition, now)
        return MoveOutcome(answered, ptn, after.ply, after.copy(), tak, ending, tinue), after

    async def _playable(
        self,
        tx: Transaction,
        game: GameView,
        position: Position,
        answer: str,
        now: datetime,
        foreseen: dict[str, Call],
    ) -> tuple[Position, Call, CoinNote | None] | None:
        """The position after the conditional `answer` of the player to move in `game`, its
        call and what it paid; None if it cannot be played (illegal, or a Tak payment owed that
        the player cannot make): then the player's lines are dropped and they are told."""
        owner = game.player_to_move.id
        after = position.copy()
        try:
            after.play(answer)
            call = await _call_at(after, foreseen)
            coins = await stakes_after_move(tx, game, owner, _flags(call)[0], now)
        except TakError as error:
            await drop_lines(tx, game.id, owner, answer, str(error), now)
            return None
        except MustPayOrResign as error:
            await drop_lines(tx, game.id, owner, answer, error.message, now)
            return None
        return after, call, coins

    # ----------------------------------------------------------------- ending by the players

    async def resign(self, game_id: int, player_id: int) -> GameEnding:
        """`player_id` resigns; the opponent wins and scores as for a board win."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            loser = game.color_of(player_id)
            result = Result(loser.other, ResultKind.RESIGNATION)
            news = GameEnded(game.id, EndingCause.RESIGN, by=player_id)
            return await finish_game(tx, game, game.position_from_tps(), result, now, news)

    async def abort(self, game_id: int, player_id: int) -> GameEnding:
        """Either player may abort until both have moved (ply 2); the game counts for nothing.
        Tournament and league games cannot be aborted: a player could dodge a pairing."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            game.color_of(player_id)
            if game.plies_played >= 2:
                raise TooLateToAbort(game.id)
            if await in_tournament(tx, game):
                raise TournamentGameAbort(game.id)
            if await in_league(tx, game):
                raise LeagueGameAbort(game.id)
            result = Result(None, ResultKind.ABORT)
            news = GameEnded(game.id, EndingCause.ABORT, by=player_id)
            return await finish_game(tx, game, game.position_from_tps(), result, now, news)

    # ----------------------------------------------------------------- draws and undo

    async def offer_draw(self, game_id: int, player_id: int) -> GameView:
        """Offer a draw; it stands until the opponent answers or a move is made."""
        return await self._ask(game_id, player_id, DRAW_OFFER)

    async def accept_draw(self, game_id: int, player_id: int) -> GameEnding:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await self._pending(tx, game_id, player_id, DRAW_OFFER)
            result = Result(None, ResultKind.AGREEMENT)
            news = GameEnded(game.id, EndingCause.DRAW, by=player_id)
            return await finish_game(tx, game, game.position_from_tps(), result, now, news)

    async def decline_draw(self, game_id: int, player_id: int) -> GameView:
        return await self._decline(game_id, player_id, DRAW_OFFER)

    async def request_undo(self, game_id: int, player_id: int) -> GameView:
        """Ask to take back the last ply; the opponent must accept. A move cancels the request."""
        return await self._ask(game_id, player_id, UNDO_REQUEST)

    async def accept_undo(self, game_id: int, player_id: int) -> GameView:
        """Rewind one ply: the last move is marked undone in the log (never deleted), and the
        player who made it is to move again with a fresh deadline. The position before it comes
        from the log, not from unwinding a cached one (see the module's docstring)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await self._pending(tx, game_id, player_id, UNDO_REQUEST)
            position = await logged_position(tx, game, game.ply - 1)
            turn = await turn_after_undo(tx, game, now)
            rewound, version = await take_back_move(tx, game, position, turn, now)
            await changed_here(tx, game.id)
            await clear_lines(tx, game.id, now, undone_at=version - 1)
            assert game.last_move is not None
            await enqueue(
                tx, MoveTakenBack(game.id, game.last_move, position.ply, rewound.tps), now
            )
        self._cache.put(rewound, version, position)
        return rewound

    async def decline_undo(self, game_id: int, player_id: int) -> GameView:
        return await self._decline(game_id, player_id, UNDO_REQUEST)

    async def _ask(self, game_id: int, player_id: int, request: _Request) -> GameView:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            require_active(game)
            game.color_of(player_id)
            if request is UNDO_REQUEST and game.plies_played == 0:
                raise NothingToUndo(game.id)
            if request is UNDO_REQUEST:
                await refuse_undo_with_stakes(tx, game)
            asker = request.asker(game)
            if asker is not None:
                raise request.already(game.id, by_opponent=asker != player_id)
            if request is UNDO_REQUEST and game.player_to_move.id == player_id:
                raise NotYourMoveToTakeBack(game.id)
            asked = await request.record(tx, game, player_id)
            what = "draw" if request is DRAW_OFFER else "undo"
            await enqueue(tx, RequestMade(game.id, what, player_id, game.last_move), now)
            return asked

    async def _decline(self, game_id: int, player_id: int, request: _Request) -> GameView:
        async with self._db.transaction() as tx:
            game = await self._pending(tx, game_id, player_id, request)
            return await request.record(tx, game, None)

    async def _pending(
        self, tx: Transaction, game_id: int, player_id: int, request: _Request
    ) -> GameView:
        """The game, if the opponent of `player_id` has made `request` in it."""
        game = await fetch_game(tx, game_id)
        require_active(game)
        game.color_of(player_id)
        asker = request.asker(game)
        if asker is None:
            raise request.missing(game.id)
        if asker == player_id:
            raise OwnRequest(request.what)
        return game

    # ----------------------------------------------------------------- Discord bookkeeping

    async def forget_thread(self, game_id: int) -> None:
        """The game's thread is gone: show the game in its channel from now on."""
        async with self._db.transaction() as tx:
            await forget_thread(tx, game_id)

    async def attach(
        self, game_id: int, *, thread_id: int | None = None, message_id: int | None = None
    ) -> GameView:
        """Record where the game is shown: its thread and/or its board message."""
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            await show_in(tx, game.id, thread_id=thread_id, message_id=message_id)
            return await fetch_game(tx, game_id)
