"""Results by hand: an organizer's correction of a tournament game, and a tournament game played
elsewhere (on PlayTak, say) reported with its PTN file. Both are written to the tournament's
log (append-only, like the coins ledger) and announced in its channel.

Correcting a finished game's result (white wins, black wins, or a draw):

- The game keeps its moves; its result becomes the board's own when the board agrees (a road
  or flat win for that player, a flat-count draw), else a win "by other means" (PTN ``1-0``)
  or a draw by agreement. A win scores, as ever, the squares plus the winner's unplayed pieces
  in the final position.
- Its match's points are summed again from its games, and a decided pairing takes the new
  leader as winner (a forfeited pairing keeps the winner the organizer gave it). A knockout
  match cannot be left level by a correction.
- Standings are always computed from the pairings, so they follow at once. Pairings already
  made stay (a Swiss round already paired keeps its pairings; later rounds are paired on the
  corrected standings). In a knockout, when the corrected winner is not the one who went
  through and the next match has not begun (none of its games has a move or a result), that
  match is stopped and a new one starts with the corrected winner; once it has begun, the
  correction is refused.
  The knockout of a groups -> knockout event is corrected the same way.
- A group game of a groups -> knockout event: the group tables follow at once. Once the knockout
  is seeded, it is seeded again from the corrected tables when who goes through, or their
  order, changes: its first round's matches that change are stopped and paired again (unchanged
  ones go on). The correction is refused when one of those matches has begun (a game of it
  has a move or a result) or the knockout is past its first round.
- A game counts for the place of whoever played it: a player replaced since then has their
  results credited to the place's holder, as the standings and the next round read them.
- A finished tournament gets its winner again.
- A rated game's ratings are recomputed: every rated game on that board size in the server is
  replayed from scratch in the order they were rated (:func:`bot.games.ratings.rerate_from`),
  and what changed from the corrected game on is rewritten.

Reporting a game played elsewhere, for a tournament game waiting on Bredon (no move yet):

- A player of that game reports it, or an organizer for them. The file must be a whole game
  from the start position (no TPS tag) on the tournament's size, komi, reserves and opening;
  :meth:`tak.ptn.Game.parse` checks every move and that a road or flat result is the board's.
  It must end with a result (an aborted ``0-0`` counts for nothing).
- Players: the file's Player1 had white. The reporter names them (``white_id``); otherwise the
  file's Player1 and Player2 must be the two players' names, in either order. The game takes
  the colours of the file (they may be the reverse of those Bredon gave).
- The moves are stored as if played here, so the game's PTN, replays and exports have them, and
  the game ends with the file's result: scored, rated and counted like any other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from bot.engine_sentences import engine_sentence
from bot.errors import CorrectionRefused, NotOrganizer, ReportRefused
from bot.games.matches import set_match_points
from bot.games.model import GAME_SELECT, GameStatus, GameView, game_from_row
from bot.games.ratings import rerate_from
from bot.games.storage import (
    correct_result,
    fetch_game,
    fetch_match,
    record_reported_move,
    set_colours,
)
from bot.languages import N_, SOURCE_LANGUAGE, _, numeral, speaking
from bot.notifications.outbox import EndingCause, GameEnded, GameStart, Headline, TournamentNews
from bot.notifications.outbox import enqueue as enqueue_news
from bot.players.model import PlayerRef
from bot.players.storage import save_player
from bot.store import Database, Row, Transaction, from_db
from bot.text_safety import strip_unsafe
from bot.timekeeping.clock import Clock
from bot.tournaments import storage
from bot.tournaments.rounds import (
    GameFinisher,
    advance,
    knockout_order,
    next_round,
    pairings_by_place,
    seat_pairing,
    tournament_winner,
)
from bot.tournaments.storage import (
    fetch_entrants,
    fetch_pairings,
    fetch_place_holders,
    fetch_tournament,
    pairing_of_match,
)
from bot.tournaments.tournament import (
    PairingView,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)
from tak import Color, PTNError, Result, ResultKind
from tak.ptn import Game as PTNGame

MAX_REASON_LENGTH = 200
MAX_PTN_BYTES = 200_000  # a real game is a few kilobytes


class LogKind(StrEnum):
    CORRECTION = "correction"
    REPORT = "report"


class NewResult(StrEnum):
    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"


class Said(str):
    """A line of what followed a correction: its English text (what the log held before it
    spoke other languages), which keeps its message and fields to be worded when it is shown,
    in the language spoken then (:meth:`words`)."""

    message: str
    fields: dict[str, str | int]

    def __new__(cls, message: str, /, **fields: str | int) -> Said:
        said = super().__new__(cls, message.format(**fields))
        said.message, said.fields = message, fields
        return said

    def words(self) -> str:
        return _(self.message, **self.fields)


def worded(line: str) -> str:
    """A line of the log in the language spoken (a line stored before there were languages is
    shown as it was written)."""
    return line.words() if isinstance(line, Said) else line


def _stored(said: Said | Sequence[Said]) -> str:
    """A line (a report's reason), or lines, as the log keeps them: messages and fields."""
    if isinstance(said, Said):
        return json.dumps([said.message, said.fields], ensure_ascii=False)
    return json.dumps([[line.message, line.fields] for line in said], ensure_ascii=False)


def _read_lines(text: str) -> tuple[str, ...]:
    """The stored lines: their messages and fields, or (written before) plain lines of text."""
    if text.startswith("["):
        return tuple(Said(message, **fields) for message, fields in json.loads(text))
    return tuple(line for line in text.split("\n") if line)


def _read_reason(kind: LogKind, text: str) -> str:
    """A correction's reason as the organizer gave it; a report's as the bot said it (plain
    text in a report logged before)."""
    if kind is LogKind.REPORT and text.startswith("["):
        message, fields = json.loads(text)
        return Said(message, **fields)
    return text


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a tournament's log."""

    id: int
    tournament_id: int
    kind: LogKind
    actor: PlayerRef
    game_id: int
    result_before: str | None  # PTN; None for a reported game
    result_after: str
    reason: str
    consequences: tuple[str, ...]  # what followed, for people (:class:`Said`, shown `worded`)
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ResultChange:
    """What a correction or a report did: its log entry and the game as it stands after it."""

    entry: LogEntry
    game: GameView
    tournament: TournamentView


_LOG_SELECT = (
    "SELECT l.*, p.name AS actor_name FROM tournament_log l JOIN players p ON p.id = l.actor_id "
)


def _entry_from_row(row: Row) -> LogEntry:
    created = from_db(row["created_at"])
    assert created is not None
    kind = LogKind(row["kind"])
    return LogEntry(
        id=row["id"],
        tournament_id=row["tournament_id"],
        kind=kind,
        actor=PlayerRef(row["actor_id"], row["actor_name"]),
        game_id=row["game_id"],
        result_before=row["result_before"],
        result_after=row["result_after"],
        reason=_read_reason(kind, row["reason"]),
        consequences=_read_lines(row["consequences"]),
        created_at=created,
    )


def _reason(text: str) -> str:
    reason = " ".join(strip_unsafe(text).split())
    if not any(char.isalnum() for char in reason):
        raise CorrectionRefused(_("Give a reason: it is kept in the tournament's log."))
    if len(reason) > MAX_REASON_LENGTH:
        raise CorrectionRefused(
            _("A reason has at most {most} characters.", most=MAX_REASON_LENGTH)
        )
    return reason


def corrected_result(board: Result | None, wanted: NewResult) -> Result:
    """The result to store: the board's own where it agrees, else a win by other means or an
    agreed draw."""
    winner = {NewResult.WHITE: Color.WHITE, NewResult.BLACK: Color.BLACK}.get(wanted)
    if board is not None and board.winner is winner:
        return Result(board.winner, board.kind)
    return Result(winner, ResultKind.AGREEMENT if winner is None else ResultKind.OTHER)


class CorrectionService:
    """Corrections and reported games; every refusal changes nothing."""

    def __init__(self, db: Database, clock: Clock, finish_game: GameFinisher) -> None:
        self._db = db
        self._clock = clock
        self._finish_game = finish_game

    # ----------------------------------------------------------------- reading

    async def log(self, tournament_id: int) -> list[LogEntry]:
        """The tournament's log, oldest first."""
        async with self._db.snapshot() as tx:
            await fetch_tournament(tx, tournament_id)
            rows = await tx.fetchall(
                _LOG_SELECT + "WHERE l.tournament_id = ? ORDER BY l.id", (tournament_id,)
            )
        return [_entry_from_row(row) for row in rows]

    async def entry(self, entry_id: int) -> LogEntry | None:
        row = await self._db.fetchone(_LOG_SELECT + "WHERE l.id = ?", (entry_id,))
        return None if row is None else _entry_from_row(row)

    # ----------------------------------------------------------------- correcting

    async def correct(
        self,
        tournament_id: int,
        game_id: int,
        result: NewResult | str,
        reason: str,
        *,
        actor: PlayerRef,
        is_organizer: bool,
    ) -> ResultChange:
        """Give a finished game of the tournament another result (see the module's rules)."""
        try:
            wanted = NewResult(result)
        except ValueError:
            raise CorrectionRefused(_("The new result is 'white', 'black' or 'draw'.")) from None
        why = _reason(reason)
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            if not is_organizer and actor.id != tournament.organizer.id:
                raise NotOrganizer(_("correct results"))
            if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
                raise CorrectionRefused(
                    _(
                        "{name} is {status}: only the results of a running or finished "
                        "tournament can be corrected.",
                        name=tournament.name,
                        status=tournament.status.word(),
                    )
                )
            game = await fetch_game(tx, game_id)
            pairing = await _pairing_of_game(tx, tournament, game)
            if game.status is not GameStatus.FINISHED or game.result is None:
                raise CorrectionRefused(
                    _(
                        "Game #{game} is still being played: only a finished game's result can "
                        "be corrected.",
                        game=game.id,
                    )
                    if game.is_active
                    else _(
                        "Game #{game} was stopped unplayed: only a finished game's result can be "
                        "corrected.",
                        game=game.id,
                    )
                )
            position = game.position_from_tps()
            new = corrected_result(position.result, wanted)
            before = game.result.ptn()
            if new.ptn() == before:
                raise CorrectionRefused(
                    _("Game #{game} already has the result {result}.", game=game.id, result=before)
                )
            await save_player(tx, actor, now)  # an organizer who never played: in the log
            points = position.points(new)
            await correct_result(tx, game, new, points)
            followed = await _follow(tx, tournament, pairing, now, self._finish_game)
            if game.setup.rated:
                await rerate_from(tx, game.guild_id, game.setup.size, game.id)
                followed.lines.append(Said(N_("Ratings are recomputed from this game on.")))
            entry = await _write_log(
                tx,
                tournament,
                LogKind.CORRECTION,
                actor,
                game.id,
                before,
                new.ptn(),
                why,
                followed.lines,
                now,
            )
            news_id = await enqueue_news(
                tx,
                TournamentNews(
                    tournament.id,
                    headline=Headline.CORRECTED.value,
                    rounds=tuple(followed.rounds),
                    finished=followed.finished,
                    log_id=entry.id,
                ),
                now,
            )
            for started in followed.started:
                await enqueue_news(
                    tx, GameStart(started, tournament_id=tournament.id), now, after=news_id
                )
            return ResultChange(
                entry, await fetch_game(tx, game.id), await fetch_tournament(tx, tournament.id)
            )

    # ----------------------------------------------------------------- reporting

    async def report(
        self,
        tournament_id: int,
        record: PTNGame,
        *,
        reporter: PlayerRef,
        is_organizer: bool,
        white_id: int | None = None,
    ) -> ResultChange:
        """Count a game played elsewhere, its file read by :func:`read_reported_game`, as the
        waiting game of `white_id` (who had white in the file), or of the reporter when the
        file's names say who had white; see the module's rules."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            if tournament.status is not TournamentStatus.RUNNING:
                raise ReportRefused(
                    _(
                        "{name} is {status}: games are reported while it runs.",
                        name=tournament.name,
                        status=tournament.status.word(),
                    )
                )
            whose = reporter.id if white_id is None else white_id
            game = await _waiting_game(tx, tournament, whose)
            if game is None:
                raise ReportRefused(
                    _(
                        "There is no game waiting in {name} for you: a game played elsewhere is "
                        "reported for a tournament game not begun here.",
                        name=tournament.name,
                    )
                    if whose == reporter.id
                    else _(
                        "There is no game waiting in {name} for that player: a game played "
                        "elsewhere is reported for a tournament game not begun here.",
                        name=tournament.name,
                    )
                )
            organizer = is_organizer or reporter.id == tournament.organizer.id
            if reporter.id not in (game.white.id, game.black.id) and not organizer:
                raise NotOrganizer(_("report someone else's game"))
            _check_setup(record, game)
            await save_player(tx, reporter, now)
            white, black = _colours(record, game, white_id)
            assert record.result is not None
            if (white, black) != (game.white.id, game.black.id):
                await set_colours(tx, game.id, white, black)
            game = await _store_moves(tx, game, record, (white, black), now)
            news = GameEnded(game.id, EndingCause.REPORTED, by=reporter.id)
            final = record.final_position()
            await self._finish_game(tx, game, final, record.result, now, news)
            entry = await _write_log(
                tx,
                tournament,
                LogKind.REPORT,
                reporter,
                game.id,
                None,
                record.result.ptn(),
                Said(
                    N_("played elsewhere ({where}), {plies} plies"),
                    where=_where(record),
                    plies=len(record.plies),
                ),
                [],
                now,
            )
            return ResultChange(
                entry, await fetch_game(tx, game.id), await fetch_tournament(tx, tournament.id)
            )


# ----------------------------------------------------------------- correcting: what follows


async def _pairing_of_game(
    tx: Transaction, tournament: TournamentView, game: GameView
) -> PairingView:
    pairing = None if game.match_id is None else await pairing_of_match(tx, game.match_id)
    if pairing is None or pairing.tournament_id != tournament.id:
        raise CorrectionRefused(
            _("Game #{game} is not a game of {name}.", game=game.id, name=tournament.name)
        )
    return pairing


@dataclass(slots=True)
class _Followed:
    """What a correction changed besides the game: lines for people, games it started, rounds it
    began and whether it finished the tournament (all announced with the correction)."""

    lines: list[Said]
    started: list[int]
    rounds: list[int] = field(default_factory=list)
    finished: bool = False


async def _follow(
    tx: Transaction,
    tournament: TournamentView,
    pairing: PairingView,
    now: datetime,
    finish_game: GameFinisher,
) -> _Followed:
    """Sum the match again, settle its pairing, and what follows in the tournament: a knockout's
    next match, a groups -> knockout event's knockout seeds, a finished tournament's winner.
    A game counts for the place of whoever played it, now held by their replacement if any."""
    assert pairing.match_id is not None
    match = await fetch_match(tx, pairing.match_id)
    holders = await fetch_place_holders(tx, tournament.id)

    def place(player_id: int | None) -> int | None:
        return None if player_id is None else holders.get(player_id, player_id)

    rows = await tx.fetchall(
        "SELECT winner_id, points FROM games WHERE match_id = ? AND status = 'finished'",
        (match.id,),
    )
    points1, points2 = (
        sum(row["points"] or 0 for row in rows if place(row["winner_id"]) == place(player.id))
        for player in (match.player1, match.player2)
    )
    await set_match_points(tx, match.id, points1, points2)
    knockout = tournament.is_knockout_round(pairing.round)
    if not pairing.is_decided:
        goes_on = N_("Match score now {points1}-{points2}; the match goes on.")
        return _Followed([Said(goes_on, points1=points1, points2=points2)], [])
    if pairing.forfeit:
        winner_id = None if pairing.winner is None else pairing.winner.id
    elif points1 == points2:
        if knockout:
            raise CorrectionRefused(
                _(
                    "That correction leaves the knockout match level, and a knockout match needs "
                    "a winner: correct another of its games too, or award it with `/organize "
                    "forfeit` before it is decided."
                )
            )
        winner_id = None
    else:
        winner_id = match.player1.id if points1 > points2 else match.player2.id
    await storage.rescore_pairing(tx, pairing.id, (points1, points2), winner_id)
    score = N_("Round {round} match score now {points1}-{points2}.")
    followed = _Followed([Said(score, round=pairing.round, points1=points1, points2=points2)], [])
    old_winner = place(None if pairing.winner is None else pairing.winner.id)
    running = tournament.status is TournamentStatus.RUNNING
    if knockout and place(winner_id) != old_winner:
        assert old_winner is not None and winner_id is not None
        new_winner = place(winner_id)
        assert new_winner is not None
        winners = (old_winner, new_winner)
        await _repair_bracket(tx, tournament, pairing, winners, holders, followed, now, finish_game)
    elif tournament.format is TournamentFormat.GROUPS and not knockout:
        await _reseed_knockout(tx, tournament, holders, followed, now, finish_game)
    elif tournament.format is TournamentFormat.SWISS and running:
        followed.lines.append(
            Said(N_("Pairings already made stay; later rounds are paired on these standings."))
        )
    if tournament.status is TournamentStatus.FINISHED:
        followed.lines.extend(await _crown_again(tx, tournament, holders))
    return followed


async def _repair_bracket(
    tx: Transaction,
    tournament: TournamentView,
    pairing: PairingView,
    winners: tuple[int, int],
    holders: Mapping[int, int],
    followed: _Followed,
    now: datetime,
    finish_game: GameFinisher,
) -> None:
    """Put the corrected winner (`winners`: the old, the new, as the places' holders now) in the
    next match, if it has not begun."""
    old_winner, new_winner = winners
    pairings = await fetch_pairings(tx, tournament.id)
    later = [
        p
        for p in pairings
        if p.round > pairing.round and old_winner in (p.player1.id, p.player2 and p.player2.id)
    ]
    if not later:
        return  # the next round has not begun, or this was the final
    following = later[0]
    unbegun = (
        following.round == pairing.round + 1
        and len(later) == 1
        and not following.is_decided
        and not await _begun(tx, following)
    )
    game = await _game_in_progress(tx, following) if unbegun else None
    if game is None:
        raise CorrectionRefused(
            _(
                "The winner went on to round {round}, whose match has already begun: the "
                "bracket can no longer be changed, so the result stays.",
                round=following.round,
            )
        )
    entrants = await fetch_entrants(tx, tournament.id)
    active = {e.player.id for e in entrants if e.is_active}
    if new_winner not in active:
        raise CorrectionRefused(
            _("The corrected winner has left the tournament, so they cannot go through.")
        )
    upcoming = next_round(
        tournament, entrants, (p for p in pairings if p.round <= pairing.round), holders
    )
    assert upcoming is not None
    seat = next(p for p in upcoming.pairings if new_winner in (p.player1, p.player2))
    players = (seat.player1, seat.player2)
    started = await _reseat(tx, tournament, following, players, active, game, now, finish_game)
    assert started is not None
    followed.started.append(started.id)
    followed.lines.append(
        Said(
            N_(
                "Round {round}: game #{stopped} is stopped; {player1} and {player2} play game "
                "#{game} instead."
            ),
            round=following.round,
            stopped=game.id,
            player1=f"<@{seat.player1}>",
            player2=f"<@{seat.player2}>",
            game=started.id,
        )
    )


async def _reseat(
    tx: Transaction,
    tournament: TournamentView,
    pairing: PairingView,
    players: tuple[int, int | None],
    active: set[int],
    game: GameView | None,
    now: datetime,
    finish_game: GameFinisher,
) -> GameView | None:
    """Stop the pairing's game not begun (if any) and give its place in the round to `players`
    (of whom those not `active` forfeit); the new match's first game, if one starts."""
    if game is not None:
        stop = GameEnded(game.id, EndingCause.STOPPED, tournament_id=tournament.id)
        position = game.position_from_tps()
        await finish_game(tx, game, position, Result(None, ResultKind.ABORT), now, stop)
    return await seat_pairing(
        tx, tournament, pairing.round, players, active, now, row_id=pairing.id
    )


async def _reseed_knockout(
    tx: Transaction,
    tournament: TournamentView,
    holders: Mapping[int, int],
    followed: _Followed,
    now: datetime,
    finish_game: GameFinisher,
) -> None:
    """After a group game's correction: once the knockout is seeded, seed it again from the
    corrected group tables, re-pairing its first round's pairings that change (refused when one
    of their matches has begun, or the knockout has gone past its first round). Players through
    who have left since still hold their seed, as they did (their matches are forfeits)."""
    entrants = await fetch_entrants(tx, tournament.id)
    seeded = sorted((e for e in entrants if e.knockout_seed), key=lambda e: e.knockout_seed or 0)
    if not seeded:
        followed.lines.append(Said(N_("The group tables are recomputed.")))
        return
    pairings = await fetch_pairings(tx, tournament.id)
    still_in = {e.player.id for e in seeded}
    order = knockout_order(tournament, entrants, pairings, holders, still_in=still_in)
    if order == [e.player.id for e in seeded]:
        followed.lines.append(
            Said(
                N_(
                    "Who goes through from the groups, and their knockout seeds, are unchanged: "
                    "the knockout stays as it is."
                )
            )
        )
        return
    if tournament.status is TournamentStatus.FINISHED:
        raise CorrectionRefused(
            _(
                "That correction changes who went through from the groups or their knockout "
                "seeds, and the knockout has been played: the result stays."
            )
        )
    first = tournament.group_stage_rounds + 1
    if tournament.current_round > first:
        raise CorrectionRefused(
            _(
                "That correction changes who goes through from the groups or their knockout "
                "seeds, and the knockout's round {round} has begun: the bracket can no longer "
                "change, so the result stays.",
                round=tournament.current_round - first + 1,
            )
        )
    if len(order) != len(seeded):  # a place left empty at the seeding is held again since
        raise CorrectionRefused(
            _(
                "That correction changes how many players go through from the groups, and the "
                "knockout is seeded already: the bracket can no longer change, so the result "
                "stays."
            )
        )
    # Undone with the rest if refused below.
    await storage.set_knockout_seeds(tx, tournament.id, order)
    reseeded = await fetch_entrants(tx, tournament.id)
    stage = [p for p in pairings if p.round < first]
    bracket = next_round(tournament, reseeded, stage, holders)
    assert bracket is not None
    wanted: list[tuple[int, int | None]] = [(p.player1, p.player2) for p in bracket.pairings]
    wanted += [(bye, None) for bye in bracket.byes]
    seats = []  # the first round's pairings that change, as the places' holders now
    holder_names = {e.player.id: e.player.name for e in entrants}

    def name(player: PlayerRef) -> str:  # a pairing by place keeps a replaced player's name
        return holder_names.get(player.id, player.name)

    for stored in pairings_by_place((p for p in pairings if p.round == first), holders):
        players = (stored.player1.id, stored.player2 and stored.player2.id)
        if players in wanted:
            wanted.remove(players)
        elif await _begun(tx, stored):
            raise CorrectionRefused(
                _(
                    "That correction changes the knockout match {player1} v {player2} (round "
                    "{round}), which has already begun: the bracket can no longer change, so "
                    "the result stays.",
                    player1=name(stored.player1),
                    player2=_("a bye") if stored.player2 is None else name(stored.player2),
                    round=first,
                )
            )
        else:
            seats.append(stored)
    followed.lines.append(
        Said(
            N_("The knockout is seeded again from the corrected group tables: {seeds}."),
            seeds=", ".join(f"{seed}. <@{player}>" for seed, player in enumerate(order, start=1)),
        )
    )
    active = {e.player.id for e in entrants if e.is_active}
    for seat, players in zip(seats, wanted, strict=True):
        waiting = await _game_in_progress(tx, seat)
        started = await _reseat(tx, tournament, seat, players, active, waiting, now, finish_game)
        if started is not None:
            followed.started.append(started.id)
        followed.lines.append(_reseated(first, waiting, players, started))
    progress = await advance(tx, tournament.id, now)  # a round left with only forfeits and byes
    for begun in progress.rounds:
        followed.lines.append(Said(N_("Round {round} begins."), round=begun.number))
        followed.rounds.append(begun.number)
    followed.started.extend(game.id for game in progress.games)
    if progress.finished:
        followed.finished = True
        followed.lines.append(Said(N_("The tournament is over.")))


def _reseated(
    number: int,
    stopped: GameView | None,
    players: tuple[int, int | None],
    started: GameView | None,
) -> Said:
    """A first knockout round's pairing seated again: the game stopped (if one was waiting) and
    who now plays, has a bye or wins by forfeit."""
    first, second = (None if p is None else f"<@{p}>" for p in players)
    assert first is not None
    fields: dict[str, str | int] = {"round": number, "player1": first}
    if stopped is not None:
        fields["stopped"] = stopped.id
    if started is not None:
        assert second is not None
        fields |= {"player2": second, "game": started.id}
        if stopped is None:
            return Said(N_("Round {round}: {player1} and {player2} play game #{game}."), **fields)
        return Said(
            N_(
                "Round {round}: game #{stopped} is stopped; {player1} and {player2} play game "
                "#{game}."
            ),
            **fields,
        )
    if second is None:
        if stopped is None:
            return Said(N_("Round {round}: {player1} has a bye."), **fields)
        return Said(N_("Round {round}: game #{stopped} is stopped; {player1} has a bye."), **fields)
    fields["player2"] = second
    if stopped is None:
        return Said(
            N_("Round {round}: {player1} v {player2} is a forfeit (a player has left)."), **fields
        )
    return Said(
        N_(
            "Round {round}: game #{stopped} is stopped; {player1} v {player2} is a forfeit (a "
            "player has left)."
        ),
        **fields,
    )


async def _begun(tx: Transaction, pairing: PairingView) -> bool:
    """Whether a game of the pairing's match has a move or a result (a thematic event's games
    start at a ply above 0 with none)."""
    if pairing.match_id is None:
        return False
    row = await tx.fetchone(
        "SELECT 1 FROM games g WHERE g.match_id = ? AND (g.status = 'finished' OR EXISTS "
        "(SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.undone_at IS NULL))",
        (pairing.match_id,),
    )
    return row is not None


async def _game_in_progress(tx: Transaction, pairing: PairingView) -> GameView | None:
    """The pairing's match's game in progress, if any."""
    if pairing.match_id is None:
        return None
    row = await tx.fetchone(
        GAME_SELECT + " WHERE g.match_id = ? AND g.status = 'active'", (pairing.match_id,)
    )
    return None if row is None else game_from_row(row)


async def _crown_again(
    tx: Transaction, tournament: TournamentView, holders: Mapping[int, int]
) -> list[Said]:
    """A finished tournament's winner, from the corrected results."""
    entrants = await fetch_entrants(tx, tournament.id)
    pairings = await fetch_pairings(tx, tournament.id)
    winner = tournament_winner(tournament, entrants, pairings, holders)
    before = None if tournament.winner is None else tournament.winner.id
    if winner == before:
        return []
    await storage.set_winner(tx, tournament.id, winner)
    if winner is None:
        return [Said(N_("First place is now shared: the tournament has no sole winner."))]
    return [Said(N_("The tournament's winner is now {winner}."), winner=f"<@{winner}>")]


async def _write_log(
    tx: Transaction,
    tournament: TournamentView,
    kind: LogKind,
    actor: PlayerRef,
    game_id: int,
    before: str | None,
    after: str,
    reason: str,
    consequences: list[Said],
    now: datetime,
) -> LogEntry:
    """Log a correction (`reason` as the organizer gave it) or a report (the bot's own)."""
    entry_id = await storage.write_log(
        tx,
        tournament.id,
        kind=kind.value,
        actor_id=actor.id,
        game_id=game_id,
        before=before,
        after=after,
        reason=_stored(reason) if isinstance(reason, Said) else reason,
        consequences=_stored(consequences),
        now=now,
    )
    row = await tx.fetchone(_LOG_SELECT + "WHERE l.id = ?", (entry_id,))
    assert row is not None
    return _entry_from_row(row)


# ----------------------------------------------------------------- reporting: the checks


def read_reported_game(text: str, language: str = SOURCE_LANGUAGE) -> PTNGame:
    """The game of a reported PTN file, or :class:`ReportRefused` saying why (in `language`:
    the worker process does not share the caller's) it does not count whatever the pairing. Pure
    work on the file: the bot runs it in a worker process
    (:class:`bot.work.attached_files.FileReader`), never on the event loop."""
    with speaking(language):
        return _read_reported_game(text)


def _read_reported_game(text: str) -> PTNGame:
    if len(text.encode()) > MAX_PTN_BYTES:
        raise ReportRefused(
            _("A PTN file of a game is at most {size} kB.", size=MAX_PTN_BYTES // 1000)
        )
    try:
        record = PTNGame.parse(text)
    except PTNError as error:
        raise ReportRefused(
            _("The file is refused: {error}", error=engine_sentence(str(error)))
        ) from None
    tps = record.tag("TPS")
    if tps is not None and tps.strip() not in ("", "?"):
        raise ReportRefused(
            _("The file starts from a set position (a TPS tag): report a whole game.")
        )
    if record.result is None:
        claimed = record.tag("Result")
        if claimed:
            raise ReportRefused(
                _(
                    "The file says {result}, but after its last move the game goes on: no road, "
                    "the board is not full and both players have pieces left.",
                    result=claimed.strip(),
                )
            )
        raise ReportRefused(_("The file does not say how the game ended (no result)."))
    if record.result.kind is ResultKind.ABORT:
        raise ReportRefused(_("The file's result is 0-0 (aborted): there is nothing to count."))
    return record


def _check_setup(record: PTNGame, game: GameView) -> None:
    start = record.start()
    setup = game.setup
    if setup.start_tps is not None:
        raise ReportRefused(
            _(
                "This tournament's games start from its own position (a thematic event): play "
                "them here, where they start there, rather than report one played elsewhere."
            )
        )
    if start.size != setup.size:
        raise ReportRefused(
            _(
                "The file is a {file} game; this tournament plays {size}.",
                file=f"{start.size}x{start.size}",
                size=f"{setup.size}x{setup.size}",
            )
        )
    if start.komi != setup.base_komi:
        raise ReportRefused(
            _(
                "The file's komi is {file}; this tournament plays komi {komi}.",
                file=numeral(start.komi),
                komi=numeral(setup.base_komi),
            )
        )
    pieces = (tuple(start.starting_stones), tuple(start.starting_caps))
    if pieces != (tuple(setup.stones), tuple(setup.caps)):
        raise ReportRefused(
            _("The file's players had other pieces (Flats/Caps tags) than this tournament's.")
        )
    if start.opening is not setup.opening:
        raise ReportRefused(
            _(
                "The file's opening is {file}; this tournament plays {opening}.",
                file=start.opening.value,
                opening=setup.opening.value,
            )
        )
    if start.ties_to_black != setup.antiquity:
        raise ReportRefused(
            _("The file plays the antiquity tie rule; this tournament's game does not.")
            if start.ties_to_black
            else _("The file does not play the antiquity tie rule; this tournament's game does.")
        )


def _names(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def _colours(record: PTNGame, game: GameView, white_id: int | None) -> tuple[int, int]:
    """(white, black): who had Player1's and Player2's pieces in the file."""
    players = (game.white, game.black)
    if white_id is not None:
        if white_id not in (game.white.id, game.black.id):
            raise ReportRefused(
                _(
                    "Game #{game} is between {white} and {black}: the player named as white is "
                    "neither.",
                    game=game.id,
                    white=game.white.name,
                    black=game.black.name,
                )
            )
        other = game.black.id if white_id == game.white.id else game.white.id
        return white_id, other
    first, second = _names(record.tag("Player1")), _names(record.tag("Player2"))
    for white, black in (players, players[::-1]):
        if (first, second) == (_names(white.name), _names(black.name)):
            return white.id, black.id
    raise ReportRefused(
        _(
            "The file's players ({player1} and {player2}) are not {white} and {black} by name: "
            "say who had white (Player 1) with the `white` option.",
            player1=record.tag("Player1") or "?",
            player2=record.tag("Player2") or "?",
            white=game.white.name,
            black=game.black.name,
        )
    )


def _where(record: PTNGame) -> str:
    site = (record.tag("Site") or "").strip()
    names = f"{record.tag('Player1') or '?'} v {record.tag('Player2') or '?'}"
    return f"{site}: {names}" if site else names


async def _waiting_game(
    tx: Transaction, tournament: TournamentView, player_id: int
) -> GameView | None:
    """The player's game of the current round not begun here (no move yet), if any."""
    rows = await tx.fetchall(
        GAME_SELECT + " WHERE g.status = 'active' AND (g.white_id = ? OR g.black_id = ?) "
        "AND g.match_id IN (SELECT match_id FROM tournament_pairings WHERE tournament_id = ? "
        "AND round = ? AND decided_at IS NULL)",
        (player_id, player_id, tournament.id, tournament.current_round),
    )
    games = [game_from_row(row) for row in rows]
    if games and games[0].plies_played > 0:
        raise ReportRefused(
            _(
                "Game #{game} already has moves played here: a game played elsewhere counts only "
                "for a game not begun on Bredon.",
                game=games[0].id,
            )
        )
    return games[0] if games else None


async def _store_moves(
    tx: Transaction,
    game: GameView,
    record: PTNGame,
    colours: tuple[int, int],
    now: datetime,
) -> GameView:
    """Log the file's moves as the game's, one ply at a time (the log's triggers check each)."""
    position = record.start()
    for ply in record.plies:
        mover = colours[position.to_move.value]
        position.play(ply.move)
        if not await record_reported_move(tx, game.id, position, mover, now):
            raise ReportRefused(
                _("Game #{game} changed while the file was read: try again.", game=game.id)
            )
    return replace(await fetch_game(tx, game.id), last_move_at=now)
