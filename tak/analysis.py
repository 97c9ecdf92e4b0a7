"""Post-game analysis: an evaluation of every position and an annotated PTN.

    >>> from tak.ptn import Game
    >>> game = Game.parse('[Size "3"]\\n\\n1. a3 a1 2. b1 b2 3. c2 c1')
    >>> analysis = analyse(game, nodes=200)
    >>> print(analysis.ptn())
    [Size "3"]
    <BLANKLINE>
    {Annotated by Bredon}
    1. a3 a1
    2. b1' b2?? {Allows a road in one: c1.}
    3. c2'?? {Missed a road in one: c1.} c1?? {Allows a road in one: c2-.}
    <BLANKLINE>

Each position gets a bounded search of Bredon's own player (a fixed number of nodes, so the
answer is the same on every machine and takes a known time), read from White's side and clamped:
a forced result counts :data:`WIN_SCORE`, an evaluation less. The marks follow from it and from
facts checked exactly, move by move:

- a **road in one** missed: the mover could have completed a road and did not win;
- a **Tinuë missed**: the mover had a move leaving the opponent no defence and played another;
- a **Tinuë allowed**: after the move the opponent has a road in one or a Tinuë, and the mover was
  not lost already (not in Tinuë, not evaluated lost);
- a **found Tinuë** gets `!`; a swing against the mover of :data:`MISTAKE` gets `?` and of
  :data:`BLUNDER` (or any of the misses above) `??`;
- a miss when the move played **still wins by force** (it is Tinuë itself, or the search finds a
  forced win) costs a few plies, not the game: `?`, with the comment naming what was missed.

The annotator is named in a comment before the first move (:data:`ANNOTATOR_COMMENT`): PTN Ninja
drops tags it does not know, such as `Annotator`.

Other engines' evaluations (a TEI engine's `score cp`) can be given instead of our own search;
the exact checks stay ours.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tak.moves import Color, Move
from tak.position import Position
from tak.ptn import Game, GamePly, move_number
from tak.search import WIN_ZONE, Limits, Player
from tak.tinue import Call
from tak.tinue import call as tak_call

DEFAULT_NODES = 1_000  # per position: about a fifth of a second in pure Python
WIN_SCORE = 1_000  # centi-flats: a forced result, on the graph's edge (10 flats)
MISTAKE = 150  # a swing against the mover of 1.5 flats or more: `?`
BLUNDER = 400  # of 4 flats or more: `??`
SEED = 0  # the player is reproducible under a seed (the strongest level adds no noise anyway)
ANNOTATOR_COMMENT = "Annotated by Bredon"


@dataclass(frozen=True, slots=True)
class Tactics:
    """What the side to move can win with at once: roads in one, and moves giving Tinuë."""

    roads: tuple[Move, ...]
    tinues: tuple[Move, ...]

    @property
    def winning(self) -> bool:
        return bool(self.roads or self.tinues)


def tactics(position: Position) -> Tactics:
    """The side to move's roads in one, and its moves after which the opponent has no defence
    (:func:`tak.tinue.call` is Tinuë). The position is left as it was."""
    if position.result is not None:
        return Tactics((), ())
    mover = position.to_move
    roads = tuple(position.road_threats())
    tinues = []
    for move in position.legal_moves():
        if move in roads:
            continue
        position.push(move)
        try:
            threat = position.result is None and position.has_road_threat(mover)
            if threat and tak_call(position) is Call.TINUE:
                tinues.append(move)
        finally:
            position.pop()
    return Tactics(roads, tuple(tinues))


def white_score(score: int, to_move: Color) -> int:
    """A search score for the side to move, from White's side and clamped to ±WIN_SCORE (a
    forced result) or within it (an evaluation)."""
    if abs(score) > WIN_ZONE:
        clamped = WIN_SCORE if score > 0 else -WIN_SCORE
    else:
        clamped = max(-WIN_SCORE + 1, min(WIN_SCORE - 1, score))
    return clamped if to_move is Color.WHITE else -clamped


def evaluate_position(position: Position, nodes: int = DEFAULT_NODES) -> int:
    """The position from White's side (see :func:`white_score`): its result if it has one,
    else a search of `nodes` nodes."""
    result = position.result
    if result is not None:
        if result.winner is None:
            return 0
        return WIN_SCORE if result.winner is Color.WHITE else -WIN_SCORE
    found = Player(seed=SEED).choose(position, Limits(nodes=nodes))
    return white_score(found.score, position.to_move)


@dataclass(frozen=True, slots=True)
class PlyNote:
    """One ply's verdict: the evaluations around it (White's side), its mark and comments."""

    ply: int  # 0 for the first move of the game
    move: Move
    mover: Color
    before: int
    after: int
    mark: str  # "", "!", "?" or "??"
    comments: tuple[str, ...]
    call: Call  # the Tak or Tinuë the move makes

    @property
    def loss(self) -> int:
        """How much worse the move left it for the mover (negative: better), in centi-flats."""
        sign = 1 if self.mover is Color.WHITE else -1
        return sign * (self.before - self.after)


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's evaluations (one per position, the start included) and one note per ply."""

    game: Game
    evaluations: tuple[int, ...]
    notes: tuple[PlyNote, ...]

    def annotated(self) -> Game:
        """The game with marks (the Tak call first, then `!`/`?`, as PTN Ninja reads them)
        and comments after the plies."""
        plies = [
            GamePly(note.move, note.call.mark + note.mark, [*ply.comments, *note.comments])
            for ply, note in zip(self.game.plies, self.notes, strict=True)
        ]
        comments = [ANNOTATOR_COMMENT, *self.game.comments]
        return replace(self.game, tags=dict(self.game.tags), plies=plies, comments=comments)

    def ptn(self) -> str:
        return self.annotated().ptn()

    def swings(self, count: int = 3) -> list[PlyNote]:
        """The marked plies that cost the mover most (a found Tinuë last), in game order."""
        marked = [n for n in self.notes if n.mark]
        marked.sort(key=lambda n: (n.mark != "??", n.mark != "?", -n.loss, n.ply))
        return sorted(marked[:count], key=lambda n: n.ply)


def describe(note: PlyNote, start: Position) -> str:
    """One line for a summary: `12... c4?? (Allows a road in one: d3.) 2.3 -> -10.0`."""
    text = f"{move_number(start.ply + note.ply)} {note.move.ptn()}{note.call.mark}{note.mark}"
    if note.comments:
        text += " (" + " ".join(note.comments) + ")"
    return f"{text} {note.before / 100:+.1f} → {note.after / 100:+.1f}"


def _names(moves: Sequence[Move]) -> str:
    shown = sorted(m.ptn() for m in moves)
    return ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")


def _note(
    ply: int,
    move: Move,
    before: Position,
    after: Position,
    scores: tuple[int, int],
    mine: Tactics,
    theirs: Tactics,
) -> PlyNote:
    mover = before.to_move
    sign = 1 if mover is Color.WHITE else -1
    loss = sign * (scores[0] - scores[1])
    won = after.result is not None and after.result.winner is mover
    called = tak_call(after)
    comments: list[str] = []
    mark = ""
    if not won:
        if mine.roads:
            comments.append(f"Missed a road in one: {_names(mine.roads)}.")
        elif mine.tinues and move not in mine.tinues:
            comments.append(f"Missed Tinuë: {_names(mine.tinues)}.")
        was_lost = sign * scores[0] <= -WIN_SCORE or tak_call(before) is Call.TINUE
        if not was_lost and after.result is None:
            if theirs.roads:
                comments.append(f"Allows a road in one: {_names(theirs.roads)}.")
            elif theirs.tinues:
                comments.append(f"Allows Tinuë: {_names(theirs.tinues)}.")
        # A slower win is no blunder, but a win in one missed is still a mistake.
        still_won = called is Call.TINUE or sign * scores[1] >= WIN_SCORE
        if (comments and not still_won) or loss >= BLUNDER:
            mark = "??"
        elif comments or loss >= MISTAKE:
            mark = "?"
    if not mark and move in mine.tinues and not mine.roads:
        mark = "!"
        if len(mine.tinues) == 1:
            comments.append("Tinuë: the only move here that gives one.")
    return PlyNote(ply, move, mover, scores[0], scores[1], mark, tuple(comments), called)


def analyse(
    game: Game,
    *,
    nodes: int = DEFAULT_NODES,
    evaluations: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Evaluate every position of `game` (or take `evaluations`, White's side, one per position
    with the start first) and annotate every ply. `progress(done, total)` after each position."""
    positions = list(game.replay())
    if evaluations is None:
        scores = []
        for index, position in enumerate(positions):
            scores.append(evaluate_position(position, nodes))
            if progress is not None:
                progress(index + 1, len(positions))
    else:
        if len(evaluations) != len(positions):
            raise ValueError(
                f"{len(evaluations)} evaluations for {len(positions)} positions: give one for "
                "the start and one after every ply."
            )
        scores = [max(-WIN_SCORE, min(WIN_SCORE, int(s))) for s in evaluations]
    found = [tactics(p) for p in positions]
    notes = tuple(
        _note(
            index,
            ply.move,
            positions[index],
            positions[index + 1],
            (scores[index], scores[index + 1]),
            found[index],
            found[index + 1],
        )
        for index, ply in enumerate(game.plies)
    )
    return Analysis(game, tuple(scores), notes)


__all__ = [
    "ANNOTATOR_COMMENT",
    "BLUNDER",
    "DEFAULT_NODES",
    "MISTAKE",
    "WIN_SCORE",
    "Analysis",
    "PlyNote",
    "Tactics",
    "analyse",
    "describe",
    "evaluate_position",
    "tactics",
    "white_score",
]
