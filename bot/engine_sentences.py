"""The rules engine's refusals of a move, of a game's setup or of a PTN file in the language
being spoken.

``tak/`` speaks English only (it imports nothing of the bot), and its refusals are whole
sentences naming the squares and counts involved. Each sentence it can say to a player about a
move, the reserves, a start position (TPS) or a PTN file is a message here, its fields where the
engine fills in a square, a count or a move; a refusal is matched against the English templates
and said again from the translated one with the same fields. A sentence not listed here (a new
one in the engine) is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from functools import cache

from bot.languages import SOURCE_LANGUAGE, _, numeral, speaking, spoken

_FIELD = re.compile(r"\{(\w+)\}")


def _templates() -> tuple[str, ...]:
    """The engine's sentences, as messages (``_`` without fields gives the template unfilled),
    in the language spoken: the same order in every language, the first that matches used (a
    narrower sentence before a wider one)."""
    return (
        _("The game is over ({result})."),
        _(
            "{square} is not a square on this {size}x{size} board, which has files a to {last} "
            "and ranks 1 to {size}."
        ),
        _(
            "{square} is not a square on any board (at most 8x8), which has files a to h and "
            "ranks 1 to 8."
        ),
        _("{square} is occupied, and pieces can only be placed on empty squares."),
        _(
            "No walls in the first two plies, where each player places a flat of the opponent's "
            "colour."
        ),
        _(
            "No capstones in the first two plies, where each player places a flat of the "
            "opponent's colour."
        ),
        _("Your opponent has no stones left for the opening placement of their flat."),
        _("White has no capstones in this game."),
        _("Black has no capstones in this game."),
        _("You have no capstone left to place."),
        _("You have no stones left, only your capstone to place."),
        _(
            "No stack can move in the first two plies, where each player places a flat of the "
            "opponent's colour."
        ),
        _("{square} is empty, so there is no stack to move."),
        _(
            "{square} is topped by white's piece, and you can only move stacks with your own "
            "piece on top."
        ),
        _(
            "{square} is topped by black's piece, and you can only move stacks with your own "
            "piece on top."
        ),
        _("You can carry at most {size} pieces on {size}x{size}, not {count}."),
        _("{square} holds only 1 piece, so you can't pick up {count}."),
        _("{square} holds only {height} pieces, so you can't pick up {count}."),
        _(
            "{move} walks off the board, dropping on {drops} squares where only {room} lie that "
            "way from {square}."
        ),
        _("{square} holds a capstone, and nothing can move onto it."),
        _("{square} holds a wall, and only a capstone moving alone can flatten it."),
        _(
            "{square} holds a wall, and a capstone flattens a wall only with its last drop, "
            "which ends the move."
        ),
        _(
            "{square} holds a wall, and only a capstone moving alone can flatten it, so the "
            "last drop must be the capstone by itself (1)."
        ),
        _("A spread must drop at least one piece."),
        _("{move} drops 0 pieces on a square, but every square walked needs at least one."),
        _("{count} pieces is more than any board's carry limit (at most 8)."),
        _(
            "Type a move: a placement like a1, Sa1 (wall) or Ca1 (capstone), or a spread like "
            "a1> or 3a1>12."
        ),
        _(
            "{text} is too long for a move (at most {most} characters). Write a placement like "
            "a1, Sa1 (wall) or Ca1 (capstone), or a spread like a1> or 3a1>12."
        ),
        _(
            "{text} is not a move in PTN. Write a placement like a1, Sa1 (wall) or Ca1 "
            "(capstone), or a spread like a1> or 3a1>12."
        ),
        _(
            "{move} picks up pieces but gives no direction: add +, -, < or > (for example "
            "{example})."
        ),
        _("A spread moves a stack, so it takes no piece letter: write {spread} instead of {move}."),
        _("{move} picks up 0 pieces: a spread moves at least one."),
        _(
            "The drops {drops} add up to {sum}, but {move} picks up 1 piece (did you mean "
            "{spread}?)."
        ),
        _(
            "The drops {drops} add up to {sum}, but {move} picks up {count} pieces (did you "
            "mean {spread}?)."
        ),
        # a game's setup: the reserves, a start position (TPS) and why a game cannot start there
        _("Each player needs at least one piece: a stone or a capstone."),
        _(
            "Each player needs at least one stone for the opening: each player's first move "
            "places a flat of the opponent's."
        ),
        _("A TPS position is at most {most} characters long; this one has {count}."),
        _(
            "A TPS position has three parts separated by spaces: the rows, the player to move "
            "and the move number, like x6/x6/x6/x6/x6/x6 1 1."
        ),
        _("The TPS has {count} rows, but boards are 3x3 to 8x8."),
        _("Rank {rank} ({row}) has more than {size} squares, but the board is {size}x{size}."),
        _("Rank {rank} ({row}) has {count} squares, but the board is {size}x{size}."),
        _("The player to move must be 1 or 2, not {text}."),
        _("The move number must be a whole number from 1 to {most}, not {text}."),
        _("Rank {rank}: {token} is not a run of empty squares: write x, or x2 to x{size}."),
        _(
            "Rank {rank}: {token} is not a square. Write x (or x3 for three empty squares) or a "
            "stack's colours bottom to top, like 12 or 121S or 2C."
        ),
        _(
            "The TPS is a {board}x{board} board, but the size asked for is {size}: leave the "
            "size out, or give the TPS of a board that size."
        ),
        _(
            "The board holds {stones} stones and {caps} capstones of white's, more than the "
            "{most_stones} and {most_caps} white has on {size}x{size}."
        ),
        _(
            "The board holds {stones} stones and {caps} capstones of black's, more than the "
            "{most_stones} and {most_caps} black has on {size}x{size}."
        ),
        _("{reason} Give more stones or capstones, or another position."),
        _(
            "The game is already over in that position: {result} A new game needs a position "
            "with moves left to play."
        ),
        _("White wins by road."),
        _("Black wins by road."),
        _("White wins on flats."),
        _("Black wins on flats."),
        _("Draw: the flat count is tied."),
        # a PTN file (tags, comments, move numbers, results) and why it cannot be read
        _("The game's tags don't describe a start position: {error}"),
        _("Size {size} is not a board size: sizes run from 3 to 8."),
        _("The Size tag says {size}, but the TPS is {board}x{board}."),
        _("The game has neither a Size nor a TPS tag."),
        _("Komi {komi} is not a number of flats like 2 or 2.5."),
        _("A PTN file is at most {most} characters long; this one has {count}."),
        _("A PTN file has at most {most} tags."),
        _(
            '{text} is not a tag: write tags as [Name "value"], the name in letters, digits '
            "and _, one tag a line."
        ),
        _("Tag {name}: a tag's name is at most {most} characters."),
        _("Tag {name}: a tag's value is at most {most} characters; this one has {count}."),
        _("A comment opened with { is never closed with }."),
        _("A PTN file has at most {most} comments."),
        _(
            "The antiquity tie rule's comment comes after the first move number: write it "
            "before, where it sets up the game."
        ),
        _("{token} comes after the result {result}."),
        _("Move number {token} follows another with no ply between."),
        _("-- stands only for White's ply before a game that starts with Black to move."),
        _("The game has more than {most} plies, longer than any real game: it is not read."),
        _("Move {number} (white) {move}: {error}"),
        _("Move {number} (black) {move}: {error}"),
        _("The moves end with {written}, but the Result tag says {tagged}."),
        _(
            "The result {result} contradicts the board, where the moves end the game: {board} "
            "({ptn})"
        ),
        _(
            "{result} says the game ended on the board, but after the last move it goes on: no "
            "road, the board is not full and both players have pieces left."
        ),
        _("{text} is not a PTN result: use R-0, 0-R, F-0, 0-F, 1-0, 0-1, 1/2-1/2 or 0-0."),
        _("{name} {text} is not a number of pieces."),
        # a game's setup from a PTN file's tags, which the engine checks when it sets it up
        _("Komi must be a multiple of 0.5 from -{most} to {most} (e.g. 2 or 2.5)."),
        _("Stones must be a whole number from 0 to {most} per player."),
        _("Capstones must be a whole number from 0 to {most} per player."),
        _("The opening must be 'swap' or 'no-swap', not {text}."),
        # an analysis's notes on a ply (tak.analysis), in its summary of the biggest swings
        _("Missed a road in one: {moves}."),
        _("Missed Tinuë: {moves}."),
        _("Allows a road in one: {moves}."),
        _("Allows Tinuë: {moves}."),
        _("Tinuë: the only move here that gives one."),
        _("{moves} and {count} more"),
    )


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Each English template as a pattern whose groups are its fields (a field named twice
    must read the same both times)."""
    with speaking(SOURCE_LANGUAGE):
        templates = _templates()
    return tuple(_pattern(template) for template in templates)


def _pattern(template: str) -> re.Pattern[str]:
    parts, seen, at = [], set(), 0
    for field in _FIELD.finditer(template):
        parts.append(re.escape(template[at : field.start()]))
        name = field[1]
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = field.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


_SCORE = r"[+-]\d+\.\d"
_SWING = re.compile(
    rf"(?P<ply>.*?)(?: \((?P<notes>.*)\))? (?P<before>{_SCORE}) → (?P<after>{_SCORE})"
)
_SENTENCE_END = re.compile(r"(?<=\.) ")


def swing_line(line: str) -> str:
    """A line of an analysis's summary (`12... c4?? (Allows a road in one: d3.) +2.3 → -10.0`)
    with its notes and scores in the language spoken (German `+2,3 → -10,0`)."""
    match = _SWING.fullmatch(line)
    if match is None:
        return line
    scores = " → ".join(_score(match[side]) for side in ("before", "after"))
    if match["notes"] is None:
        return f"{match['ply']} {scores}"
    notes = " ".join(engine_sentence(note) for note in _SENTENCE_END.split(match["notes"]))
    return f"{match['ply']} ({notes}) {scores}"


def _score(score: str) -> str:
    """An engine score as :func:`tak.analysis.describe` writes it (`+2.3`), in the language
    spoken."""
    return numeral(float(score), digits=1, sign=True, grouped=False)


def engine_sentence(text: str) -> str:
    """The engine's refusal `text` in the language spoken (as it is where it is not known)."""
    if spoken() == SOURCE_LANGUAGE:
        return text
    for pattern, template in zip(_patterns(), _templates(), strict=True):
        match = pattern.fullmatch(text)
        if match is not None:
            fields = {name: engine_sentence(value) for name, value in match.groupdict().items()}
            # a field may be a sentence of the engine's too; a sentence without fields may
            # name a brace ("A comment opened with { ...")
            return template.format(**fields) if fields else template
    return text
