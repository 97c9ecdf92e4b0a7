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

from tak.errors import PTNError, TakError
from tak.lzstring import compress_to_encoded_uri_component
from tak.moves import Color, Move, Spread, parse_move_with_marks
from tak.position import STANDARD_RESERVES, Opening, Position
from tak.results import Result, parse_result

NINJA_URL = "https://ptn.ninja/"
_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN_RE = re.compile(r"\{[^}]*\}|\S+")
_RESULT_TOKENS = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0"}


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

    def start(self) -> Position:
        """The position before the first move, from the Size, TPS, Komi, Flats, Caps and Opening
        tags."""
        tps = self.tag("TPS")
        size_text = self.tag("Size")
        try:
            komi = float(self.tag("Komi") or 0)
            opening = Opening(self.tag("Opening") or "swap")
            size = int(size_text) if size_text else None
            if tps:
                size = len(tps.split()[0].split("/"))
            if size is None:
                raise PTNError("The game has neither a Size nor a TPS tag.")
            stones, caps = STANDARD_RESERVES.get(size, (0, 0))
            stones_pair = self._pair("Flats", stones)
            caps_pair = self._pair("Caps", caps)
            if tps:
                return Position.from_tps(
                    tps, komi=komi, stones=stones_pair, caps=caps_pair, opening=opening
                )
            return Position(size, komi=komi, stones=stones_pair, caps=caps_pair, opening=opening)
        except (ValueError, TakError) as error:
            raise PTNError(f"The game's tags don't describe a start position: {error}") from error

    def _pair(self, name: str, default: int) -> tuple[int, int]:
        both = self.tag(name)
        base = int(both) if both else default
        first, second = (int(self.tag(f"{name}{i}") or base) for i in (1, 2))
        return first, second

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
        """Read a PTN file; every move is checked, and errors name the move number."""
        game = cls()
        body_start = 0
        for match in _TAG_RE.finditer(text):
            if text[body_start : match.start()].strip():
                break
            game.tags[match[1]] = match[2].replace('\\"', '"')
            body_start = match.end()
        position = game.start()
        result_token = None
        for token in _TOKEN_RE.findall(text[body_start:]):
            if token.startswith("{"):
                target = game.plies[-1].comments if game.plies else game.comments
                target.append(token[1:-1])
                continue
            if result_token is not None:
                raise PTNError(f"{token!r} comes after the result {result_token}.")
            if token.upper() in _RESULT_TOKENS:
                result_token = token
                continue
            if re.fullmatch(r"\d+\.", token) or token == "--":
                continue
            game._read_ply(token, position)
        result_text = result_token or game.tag("Result")
        if result_text:
            board = position.result
            parsed = parse_result(result_text)
            keep_road = board is not None and board.ptn() == parsed.ptn()
            game.result = board if keep_road else parsed
        else:
            game.result = position.result
        return game

    def _read_ply(self, token: str, position: Position) -> None:
        number = position.ply // 2 + 1
        who = str(position.to_move)
        try:
            move, marks = parse_move_with_marks(token)
            position.play(move)
        except TakError as error:
            raise PTNError(f"Move {number} ({who}) {token}: {error}") from error
        self.plies.append(GamePly(move, marks))

    # ----------------------------------------------------------------- writing

    def ptn(self) -> str:
        """The file text: tags, then one numbered line a move, then the result."""
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.tags.items()]
        if lines:
            lines.append("")
        body = [f"{{{c}}}" for c in self.comments]
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
            line.extend(f"{{{c}}}" for c in ply.comments)
            position.push(ply.move)
        if self.result is not None:
            line.append(self.result.ptn())
        if line:
            body.append(" ".join(line))
        return "\n".join(lines + body) + "\n"


def _move_text(move: Move, position: Position) -> str:
    """Canonical PTN, with `*` on a spread that flattens a wall, as PTN Ninja writes it."""
    text = move.ptn()
    if isinstance(move, Spread):
        file, rank = move.path()[-1]
        if position.stack(file, rank).top.name == "WALL":
            text += "*"
    return text


def _escape(value: str) -> str:
    return value.replace('"', '\\"')
