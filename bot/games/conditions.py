"""Conditional moves: lines a player enters while their opponent is to move ("if they play c3,
I answer d4; then if they play c5, I answer d5"), which Bredon plays for them the moment the
opponent makes the move a line foresaw. Owns the ``conditional_moves`` table.

A player's lines in a game are one tree (:mod:`bot.games.condition_tree`), stored as text with
the game's *version* (:mod:`bot.play.service`) at the position they start from. The version
makes them exact: they apply only to the move made from that very position, and any other
change of position (a move nobody foresaw, an undo, however the game got back to the same ply)
leaves them stale, never misapplied. Stale rows are deleted the next time they are looked at.

Lines are entered only while the opponent is to move: they start with the opponent's reply,
then alternate answer and reply, and each ply is checked for legality when entered (on a copy of
the position) and again when played. A line may run up to the end of the game (a road, a full
board) and stops there. At most one conditional answer follows a real move: after it the
opponent is to move again, and their own lines, entered while the other player was to move,
start from a position that has passed.

What Bredon plays is played as any move (:meth:`bot.play.service.GameService.move`): the
clock of the player answering does not run (the answer comes at the moment of the move it
answers), Tak and Tinuë are called as for any move, and in a game played for coins the answer
pays a Tak payment it owes like any move. An answer Bredon cannot play (illegal, or a payment
the player cannot make) drops that player's lines, and only that player is told, by DM
(:class:`~bot.notifications.outbox.ConditionsDropped`). An undo accepted clears both players'
lines (and tells their owners); any end of the game clears them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.errors import InvalidSetting, PositionChanged
from bot.games.condition_tree import ConditionTree, decode, encode
from bot.games.model import GameView
from bot.games.scratch import numbered, played
from bot.games.storage import fetch_game_version
from bot.languages import _, numeral
from bot.notifications.outbox import ConditionsDropped, DropReason, enqueue
from bot.store import Database, Transaction, to_db
from bot.timekeeping.clock import Clock
from tak import Position

MAX_LINES = 20  # a player's lines in one game: a plan, not an opening book
MAX_LINE_PLIES = 20  # plies in one line, the opponent's included
MAX_TEXT = 1000  # characters of lines entered at once (/game conditions add's own cap)
_LINE_SEPARATORS = re.compile(r"[;\n|]")


@dataclass(frozen=True, slots=True)
class Conditions:
    """A player's lines in a game, as they stand, and the game's `ply` then (the plies played:
    each line, the opponent's reply first, is numbered as PTN from there)."""

    game_id: int
    ply: int
    lines: tuple[tuple[str, ...], ...]
    replaced: bool = False  # entering them replaced a branch that answered another way

    def numbered(self) -> list[str]:
        return [numbered(self.ply, list(line)) for line in self.lines]


_MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")


def checked_line(start: Position, text: str) -> list[str]:
    """The line in `text` (PTN, space-separated), each ply played in turn on a copy of `start`,
    in canonical PTN; refused with the first ply that is not legal, or that comes after the end
    of the game."""
    # Move numbers as the lines are shown (`2. c3 d4 3. c4`) may be pasted back.
    words = [word for word in text.replace(",", " ").split() if not _MOVE_NUMBER.fullmatch(word)]
    if not words:
        raise InvalidSetting(_("Write a line, e.g. `c3 d4`: your opponent's move, then yours."))
    if len(words) > MAX_LINE_PLIES:
        raise InvalidSetting(
            _(
                "A line holds at most {most} plies; this one has {count}.",
                most=MAX_LINE_PLIES,
                count=len(words),
            )
        )
    line = [move.ptn() for move in played(start.copy(), words)]
    if len(line) % 2:
        raise InvalidSetting(
            _(
                "The line `{line}` ends with your opponent's move: end it with your answer (a "
                "line alternates their move and yours, theirs first).",
                line=" ".join(words),
            )
        )
    return line


async def _stored(
    tx: Transaction, game_id: int, player_id: int
) -> tuple[ConditionTree, int] | None:
    """The player's tree in the game and the version it starts from, if they have one."""
    row = await tx.fetchone(
        "SELECT lines, version FROM conditional_moves WHERE game_id = ? AND player_id = ?",
        (game_id, player_id),
    )
    return None if row is None else (decode(row["lines"]), int(row["version"]))


async def _current(tx: Transaction, game_id: int, player_id: int, version: int) -> ConditionTree:
    """The player's tree if it starts from the position the game is at (`version`), else an
    empty one: lines the game has moved past apply no more."""
    stored = await _stored(tx, game_id, player_id)
    return stored[0] if stored is not None and stored[1] == version else ConditionTree()


async def _keep(
    tx: Transaction, game_id: int, player_id: int, tree: ConditionTree, version: int, now: datetime
) -> None:
    """Store the tree as the player's lines from `version` on (none: delete them)."""
    if not tree:
        await _delete(tx, game_id, player_id)
        return
    await tx.execute(
        "INSERT INTO conditional_moves (game_id, player_id, lines, version, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO UPDATE SET "
        "lines = excluded.lines, version = excluded.version, updated_at = excluded.updated_at",
        (game_id, player_id, encode(tree), version, to_db(now)),
    )


async def _delete(tx: Transaction, game_id: int, player_id: int) -> int:
    return await tx.execute(
        "DELETE FROM conditional_moves WHERE game_id = ? AND player_id = ?", (game_id, player_id)
    )


async def foreseen_answer(tx: Transaction, game: GameView, version: int, move: str) -> str | None:
    """The answer the opponent of the player to move in `game` (stored at `version`) would give
    to `move` by their lines, if any: read only, to work out its Tak call before the move."""
    stored = await _stored(tx, game.id, game.opponent_of(game.player_to_move.id).id)
    found = None if stored is None else _answer(stored, version, move)
    return None if found is None else found[0]


def _answer(
    stored: tuple[ConditionTree, int], version: int, move: str
) -> tuple[str, ConditionTree] | None:
    """The answer lines kept since `version` give to `move`, and the lines after it."""
    tree, since = stored
    return tree.answer(move) if since == version else None


async def take_answer(tx: Transaction, game: GameView, version: int, now: datetime) -> str | None:
    """The answer the player to move in `game` gave to its last move, if their lines foresaw it
    from the position before it (`game` is stored at `version`); the lines that go on after the
    answer are kept for the position it leads to (version + 1). Lines that did not foresee the
    move, or that start from another position, are deleted."""
    owner = game.player_to_move.id
    stored = await _stored(tx, game.id, owner)
    if stored is None:
        return None
    found = _answer(stored, version - 1, game.last_move or "")
    if found is None:
        await _delete(tx, game.id, owner)
        return None
    answer, then = found
    await _keep(tx, game.id, owner, then, version + 1, now)
    return answer


async def drop_lines(
    tx: Transaction, game_id: int, player_id: int, answer: str, why: str, now: datetime
) -> None:
    """The player's answer could not be played: their lines are dropped, and they alone told."""
    await _delete(tx, game_id, player_id)
    notice = ConditionsDropped(game_id, player_id, DropReason.ILLEGAL.value, answer, why)
    await enqueue(tx, notice, now)


async def clear_lines(
    tx: Transaction, game_id: int, now: datetime, *, undone_at: int | None = None
) -> None:
    """Delete every line in the game: it ended, or a move was taken back when the game was at
    version `undone_at`; then the owners of lines that applied there are told."""
    rows = await tx.fetchall(
        "DELETE FROM conditional_moves WHERE game_id = ? RETURNING player_id, version",
        (game_id,),
    )
    for row in rows:
        if row["version"] == undone_at:
            notice = ConditionsDropped(game_id, row["player_id"], DropReason.UNDO.value)
            await enqueue(tx, notice, now)


class ConditionService:
    """What players do with their lines: enter, look at, clear. Every method refuses with a
    :class:`~bot.errors.BredonError` and then has changed nothing."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def add(
        self, game_id: int, player_id: int, text: str, *, expected_ply: int | None = None
    ) -> Conditions:
        """Merge the lines of `text` (separated by `;`, `|` or new lines) into the player's
        lines in the game, each checked from the current position (the one at `expected_ply`
        only, if given: lines picked on a board)."""
        # The size as sent, before any line is read: each costs a position played through.
        if len(text) > MAX_TEXT:
            raise InvalidSetting(
                _(
                    "Lines entered at once hold at most {most} characters; these have {count}.",
                    most=numeral(MAX_TEXT),
                    count=numeral(len(text)),
                )
            )
        texts = [part for part in _LINE_SEPARATORS.split(text) if part.strip()]
        if not texts:
            raise InvalidSetting(_("Write a line, e.g. `c3 d4`: your opponent's move, then yours."))
        if len(texts) > MAX_LINES:
            raise InvalidSetting(
                _(
                    "You may enter at most {most} lines at once; these are {count}.",
                    most=MAX_LINES,
                    count=len(texts),
                )
            )
        now = self._clock.now()
        async with self._db.transaction() as tx:
            game, version = await self._open_game(tx, game_id, player_id)
            if expected_ply not in (None, game.ply):
                raise PositionChanged(game.id, expected_ply, game.ply)
            start = game.position_from_tps()
            lines = [checked_line(start, part) for part in texts]
            tree = await _current(tx, game_id, player_id, version)
            replaced = False
            for line in lines:
                replaced = tree.add(line) or replaced
            kept = tree.lines()
            if len(kept) > MAX_LINES:
                raise InvalidSetting(
                    _(
                        "You may keep at most {most} lines in a game; these would make "
                        "{count}. Clear some with `/game conditions clear` first.",
                        most=MAX_LINES,
                        count=len(kept),
                    )
                )
            await _keep(tx, game_id, player_id, tree, version, now)
        return Conditions(game.id, game.ply, tuple(map(tuple, kept)), replaced)

    async def ready(self, game_id: int, player_id: int) -> GameView:
        """The game, if the player may enter lines in it now (else the reason, refused)."""
        async with self._db.snapshot() as tx:
            game, _ = await self._open_game(tx, game_id, player_id)
        return game

    async def show(self, game_id: int, player_id: int) -> Conditions:
        """The player's lines that still apply in the game (none once it has moved past them)."""
        async with self._db.snapshot() as tx:
            game, version = await fetch_game_version(tx, game_id)
            game.color_of(player_id)
            tree = await _current(tx, game_id, player_id, version)
        return Conditions(game.id, game.ply, tuple(map(tuple, tree.lines())))

    async def clear(self, game_id: int, player_id: int) -> int:
        """Delete the player's lines in the game; how many of them applied still."""
        async with self._db.transaction() as tx:
            game, version = await fetch_game_version(tx, game_id)
            game.color_of(player_id)
            tree = await _current(tx, game_id, player_id, version)
            await _delete(tx, game_id, player_id)
        return len(tree.lines())

    async def _open_game(
        self, tx: Transaction, game_id: int, player_id: int
    ) -> tuple[GameView, int]:
        """The game, where the player may enter lines now: theirs, going on, the opponent's
        move."""
        game, version = await fetch_game_version(tx, game_id)
        game.color_of(player_id)  # refuses anyone else
        if not game.is_active:
            raise InvalidSetting(
                _("Game #{game} is over: there is nothing left to answer.", game=game.id)
            )
        if game.player_to_move.id == player_id:
            raise InvalidSetting(
                _(
                    "It is your move in game #{game}: play it first, then enter lines that "
                    "start with your opponent's reply.",
                    game=game.id,
                )
            )
        return game, version
