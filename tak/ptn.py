"""PTN game files: tags, numbered moves with marks and comments, and the result.

Reads what PTN Ninja and PlayTak write and writes it back in the same layout::

    [Player1 "alice"]
    [Player2 "bob"]
    [Size "6"]
    [Komi "2"]

    1. a1 f6
    2. d4 {a comment} Cc3'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tak.errors import PTNError, TakError, quoted
from tak.lzstring import compress_to_encoded_uri_component
from tak.moves import Color, Move, Spread, parse_move_with_marks
from tak.position import Position
from tak.results import Result, ResultKind, parse_result
from tak.standard import STANDARD_RESERVES
from tak.tps import parse_tps

NINJA_URL = "https://ptn.ninja/"
# PTN has no tag for the antiquity tie rule (PTN Ninja warns about a tag it does not know and
# drops it), so a game played with it says so in this comment before the first move; the Komi
# tag stays the real komi.
TIE_RULE_COMMENT = "Antiquity tie rule: a tied flat count goes to Black."
# Real games run to a few hundred plies and a few kilobytes; these caps keep any file, however
# built, to a fraction of a second.
MAX_PTN_LENGTH = 1_000_000  # characters
MAX_PLIES = 2_000
MAX_TAGS = 100  # PTN Ninja knows 22 tag names
MAX_COMMENTS = 10_000  # an analysis writes one or two a ply
# Names run to 32 characters on Discord and PlayTak, tournament names to 60; a TPS tag has its own
# cap (tak.tps.MAX_TPS_LENGTH).
MAX_TAG_NAME_LENGTH = 32
MAX_TAG_VALUE_LENGTH = 256
# As PTN Ninja reads a tag: no escapes, so a value runs to the next `"` whatever comes before it.
# Every part is anchored and unambiguous, so a failed match costs one scan, not one per start.
_TAG_RE = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s*"([^"]*)"\s*\]')
# A comment, or anything else up to a space or `{`. A comment never closed runs to the end of the
# text (it ends with `}` only when closed): one scan, where `\{[^}]*\}|\{` would rescan the rest
# of the text for every `{`, which made a file of 262 KB of `{` take over a minute.
_TOKEN_RE = re.compile(r"\{[^}]*\}?|[^\s{]+")
_MOVE_NUMBER_RE = re.compile(r"[0-9]{1,6}\.")
_RESULT_TOKENS = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0"}
_SIZE_RE = re.compile(r"[3-8]")
_COUNT_RE = re.compile(r"[0-9]{1,3}")
_KOMI_RE = re.compile(r"[+-]?(?:[0-9]{1,3}(?:\.[0-9]{1,3})?|\.[0-9]{1,3})")
# Written in place of what PTN Ninja cannot read in a tag value or a comment.
_TAG_SUBSTITUTES = str.maketrans({'"': "''", "{": "(", "}": ")"})
_COMMENT_SUBSTITUTES = str.maketrans({"{": "(", "}": ")"})


def move_number(ply: int) -> str:
    """How PTN numbers the ply at index `ply` of a game (0: White's first): "12." for White's
    ply of move 12, "12..." for Black's."""
    return f"{ply // 2 + 1}." + ("" if ply % 2 == 0 else "..")


@dataclass
class GamePly:
    """One ply as written in the file: the move, its marks (`'`, `''`, `!`, `?`...) and the
    comments that follow it."""

    move: Move
    marks: str = ""
    comments: list[str] = field(default_factory=list)


@dataclass
class Game:
    """A game record. Tags keep their order and spelling; look them up with :meth:`tag`."""

    tags: dict[str, str] = field(default_factory=dict)
    plies: list[GamePly] = field(default_factory=list)
    result: Result | None = None
    comments: list[str] = field(default_factory=list)  # before the first move

    # ----------------------------------------------------------------- tags and positions

    def tag(self, name: str) -> str | None:
        """A tag's value, with the name matched case-insensitively as PTN asks."""
        wanted = name.lower()
        return next((v for k, v in self.tags.items() if k.lower() == wanted), None)

    def set_tag(self, name: str, value: str) -> None:
        existing = next((k for k in self.tags if k.lower() == name.lower()), name)
        self.tags[existing] = value

    @property
    def ties_to_black(self) -> bool:
        """Whether the antiquity tie rule's comment (:data:`TIE_RULE_COMMENT`) comes before the
        first move."""
        return any(_is_tie_rule(comment) for comment in self.comments)

    def _value(self, name: str) -> str | None:
        """A tag's value, None when missing or left blank ("" or "?", as PTN Ninja reads them)."""
        value = self.tag(name)
        return None if value is None or value.strip() in ("", "?") else value.strip()

    def start(self) -> Position:
        """The position before the first move, from the Size, TPS, Komi, Flats, Caps and Opening
        tags and the tie rule's comment."""
        try:
            return self._start()
        except TakError as error:
            raise PTNError(f"The game's tags don't describe a start position: {error}") from error

    def _start(self) -> Position:
        size_text = self._value("Size")
        size = None
        if size_text is not None:
            if not _SIZE_RE.fullmatch(size_text):
                raise PTNError(
                    f"Size {quoted(size_text)} is not a board size: sizes run from 3 to 8."
                )
            size = int(size_text)
        tps = self._value("TPS")
        if tps is not None:
            board_size = parse_tps(tps).size
            if size is not None and size != board_size:
                raise PTNError(
                    f"The Size tag says {size}, but the TPS is {board_size}x{board_size}."
                )
            size = board_size
        if size is None:
            raise PTNError("The game has neither a Size nor a TPS tag.")
        komi_text = self._value("Komi") or "0"
        if not _KOMI_RE.fullmatch(komi_text):
            raise PTNError(f"Komi {quoted(komi_text)} is not a number of flats like 2 or 2.5.")
        stones, caps = STANDARD_RESERVES[size]
        komi = float(komi_text)
        stone_pair = self._pair("Flats", stones)
        cap_pair = self._pair("Caps", caps)
        opening = (self._value("Opening") or "swap").lower()
        setup = {
            "komi": komi,
            "stones": stone_pair,
            "caps": cap_pair,
            "opening": opening,
            "ties_to_black": self.ties_to_black,
        }
        if tps is not None:
            return Position.from_tps(tps, **setup)
        return Position(size, **setup)

    def _pair(self, name: str, default: int) -> tuple[int, int]:
        """Flats or Caps for both players, overridden per player by Flats1/Flats2..."""
        base = self._count(name, default)
        return self._count(f"{name}1", base), self._count(f"{name}2", base)

    def _count(self, name: str, default: int) -> int:
        text = self._value(name)
        if text is None:
            return default
        if not _COUNT_RE.fullmatch(text):
            raise PTNError(f"{name} {quoted(text)} is not a number of pieces.")
        return int(text)

    def replay(self) -> Iterator[Position]:
        """The position before the first move and after every ply (each a separate copy)."""
        position = self.start()
        yield position.copy()
        for ply in self.plies:
            position.push(ply.move)
            yield position.copy()

    def final_position(self) -> Position:
        position = self.start()
        for ply in self.plies:
            position.push(ply.move)
        return position

    def ninja_url(self) -> str:
        """A link that opens this game on ptn.ninja."""
        return NINJA_URL + compress_to_encoded_uri_component(self.ptn())

    # ----------------------------------------------------------------- reading

    @classmethod
    def parse(cls, text: str) -> Game:
        """Read a PTN file; every move is checked, and errors name the move number.

        A result written after the moves or in the Result tag must agree with the board: a road
        or flat win only where the moves end the game so, anything else only where they don't.
        """
        if len(text) > MAX_PTN_LENGTH:
            raise PTNError(
                f"A PTN file is at most {MAX_PTN_LENGTH:,} characters long; this one has "
                f"{len(text):,}."
            )
        game = cls()
        text = text.removeprefix("\ufeff")
        body_start = 0
        while match := _TAG_RE.match(text, body_start):
            if len(game.tags) == MAX_TAGS:
                raise PTNError(f"A PTN file has at most {MAX_TAGS} tags.")
            _check_tag(match[1], match[2])
            game.set_tag(match[1], match[2])
            body_start = match.end()
        rest = text[body_start:].lstrip()
        if rest.startswith("["):
            raise PTNError(
                f"{quoted(rest.partition(chr(10))[0])} is not a tag: write tags as "
                '[Name "value"], the name in letters, digits and _, one tag a line.'
            )
        position, result_token = game._read_moves(text, body_start)
        game.result = _settled_result(position.result, result_token, game._value("Result"))
        return game

    def _read_moves(self, text: str, body_start: int) -> tuple[Position, str | None]:
        """Play the plies from `body_start` on from the start position (set up once the
        comments before the first move, which may hold the tie rule, are read); return the
        final position and the result token after the plies, if any."""
        position = None
        result_token = None
        numbered_at = -1  # how many plies were read when the last move number came
        skipped = False  # whether `--` stood for White's ply
        comments = 0
        for found in _TOKEN_RE.finditer(text, body_start):
            token = found[0]
            if token[0] == "{":
                if len(token) == 1 or token[-1] != "}":
                    raise PTNError("A comment opened with { is never closed with }.")
                comments += 1
                if comments > MAX_COMMENTS:
                    raise PTNError(f"A PTN file has at most {MAX_COMMENTS:,} comments.")
                if not self.plies and position is not None and _is_tie_rule(token[1:-1]):
                    raise PTNError(
                        "The antiquity tie rule's comment comes after the first move number: "
                        "write it before, where it sets up the game."
                    )
                target = self.plies[-1].comments if self.plies else self.comments
                target.append(token[1:-1])
                continue
            if position is None:
                position = self.start()
            if result_token is not None:
                raise PTNError(f"{quoted(token)} comes after the result {result_token}.")
            if token.upper() in _RESULT_TOKENS:
                result_token = token
                continue
            if _MOVE_NUMBER_RE.fullmatch(token):
                # Numbers are not checked (PTN Ninja takes a lone "1." after a TPS of move 2),
                # but one between two plies is enough.
                if numbered_at == len(self.plies):
                    raise PTNError(f"Move number {token} follows another with no ply between.")
                numbered_at = len(self.plies)
            elif token == "--":
                if self.plies or skipped or position.to_move is Color.WHITE:
                    raise PTNError(
                        "-- stands only for White's ply before a game that starts with Black "
                        "to move."
                    )
                skipped = True
            elif len(self.plies) == MAX_PLIES:
                raise PTNError(
                    f"The game has more than {MAX_PLIES:,} plies, longer than any real game: "
                    "it is not read."
                )
            else:
                self._read_ply(token, position)
        return position or self.start(), result_token

    def _read_ply(self, token: str, position: Position) -> None:
        number = position.ply // 2 + 1
        who = str(position.to_move)
        try:
            move, marks = parse_move_with_marks(token)
            position.play(move)
        except TakError as error:
            shown = token if len(token) <= 40 else quoted(token)
            raise PTNError(f"Move {number} ({who}) {shown}: {error}") from error
        self.plies.append(GamePly(move, marks))

    # ----------------------------------------------------------------- writing

    def ptn(self) -> str:
        """The file text: tags, then one numbered line a move, then the result.

        Written for PTN Ninja: tag values lose `"` (written `''`) and braces, comments lose
        braces, and an aborted game gets no result (PTN Ninja has no `0-0`).
        """
        lines = [f'[{name} "{_tag_text(value)}"]' for name, value in self.tags.items()]
        if lines:
            lines.append("")
        body = [_comment_text(c) for c in self.comments]
        position = self.start()
        line: list[str] = []
        for ply in self.plies:
            if position.to_move is Color.WHITE or not line:
                if line:
                    body.append(" ".join(line))
                line = [f"{position.ply // 2 + 1}."]
                if position.to_move is Color.BLACK:
                    line.append("--")
            line.append(_move_text(ply.move, position) + ply.marks)
            line.extend(_comment_text(c) for c in ply.comments)
            position.push(ply.move)
        if self.result is not None and self.result.kind is not ResultKind.ABORT:
            line.append(self.result.ptn())
        if line:
            body.append(" ".join(line))
        return "\n".join(lines + body) + "\n"


def _check_tag(name: str, value: str) -> None:
    """Refuse a tag longer than any real one (a TPS tag is capped by :func:`parse_tps`)."""
    if len(name) > MAX_TAG_NAME_LENGTH:
        raise PTNError(
            f"Tag {quoted(name)}: a tag's name is at most {MAX_TAG_NAME_LENGTH} characters."
        )
    if len(value) > MAX_TAG_VALUE_LENGTH and name.lower() != "tps":
        raise PTNError(
            f"Tag {name}: a tag's value is at most {MAX_TAG_VALUE_LENGTH} characters; this one "
            f"has {len(value):,}."
        )


def _tag_text(value: str) -> str:
    """A tag value as PTN Ninja reads it: no `"` (no escapes either), no braces, one line."""
    return "".join(" " if char.isspace() else char for char in value.translate(_TAG_SUBSTITUTES))


def _comment_text(comment: str) -> str:
    """`{comment}`, its braces turned into parentheses so that it ends where it should."""
    return "{" + comment.translate(_COMMENT_SUBSTITUTES) + "}"


def _is_tie_rule(comment: str) -> bool:
    return comment.strip().casefold() == TIE_RULE_COMMENT.casefold()


def _settled_result(board: Result | None, token: str | None, tag: str | None) -> Result | None:
    """The game's result: the board's, checked against the result written after the moves and in
    the Result tag; a result from the players (resignation, time, agreement) where the board
    has none.

    PlayTak and engine matches often write `1-0` or `0-1` for a game the board ended by a road
    or on flats: a result that names the board's winner without saying how agrees with it.
    """
    written = parse_result(token) if token else None
    tagged = parse_result(tag) if tag else None
    if written and tagged and not _agree(written, tagged):
        raise PTNError(
            f"The moves end with {written.ptn()}, but the Result tag says {tagged.ptn()}."
        )
    claim = written or tagged
    if board is not None:
        for said in (written, tagged):
            if said is not None and not _agree(said, board):
                raise PTNError(
                    f"The result {said.ptn()} contradicts the board, where the moves end the "
                    f"game: {board.describe()} ({board.ptn()})"
                )
        return board
    if written and tagged and written.kind is ResultKind.OTHER:
        claim = tagged  # the more precise: a road or flat win the board must then show
    if claim is None:
        return None
    if claim.kind.on_board and claim.winner is not None:
        if written is None:
            return None  # a Result tag on moves that stop short of the end: a puzzle, say
        raise PTNError(
            f"{claim.ptn()} says the game ended on the board, but after the last move it goes "
            "on: no road, the board is not full and both players have pieces left."
        )
    if claim.winner is None and claim.kind is ResultKind.FLATS:
        return Result(None, ResultKind.AGREEMENT)  # 1/2-1/2 on a board that is not over
    return claim


def _agree(one: Result, other: Result) -> bool:
    """Whether two results can be the same game's: equal, or the same winner where one of them
    (`1-0`, `0-1`) does not say how."""
    if one.ptn() == other.ptn():
        return True
    vague = ResultKind.OTHER in (one.kind, other.kind)
    return vague and one.winner is not None and one.winner is other.winner


def _move_text(move: Move, position: Position) -> str:
    """Canonical PTN, with `*` on a spread that flattens a wall, as PTN Ninja writes it."""
    text = move.ptn()
    if isinstance(move, Spread):
        file, rank = move.path()[-1]
        if position.stack(file, rank).top.name == "WALL":
            text += "*"
    return text
