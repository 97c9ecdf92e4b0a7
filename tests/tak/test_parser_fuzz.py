"""Nothing anyone types can hurt: every parser gives a value or one of the library's errors, in
well under a second, whatever the text; and nothing it accepts is a position the rules forbid.

Inputs are arbitrary text (Unicode digits, control characters, brackets, huge numbers, very long
strings) and near-valid text built from real moves, TPS and PTN with one part broken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tak import (
    MAX_KOMI,
    Color,
    Piece,
    Position,
    ResultKind,
    TakError,
    parse_move,
    parse_move_with_marks,
    parse_result,
    parse_tps,
    reserve_problem,
)
from tak.lzstring import (
    MAX_DECOMPRESSED_LENGTH,
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)
from tak.ptn import MAX_PLIES, MAX_PTN_LENGTH, Game

FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

T = TypeVar("T")

UNICODE_DIGITS = "²³¹٣١۴߃४৪௫๓𝟙𝟠①Ⅷ〇"
CONTROLS = "\x00\x07\t\n\r\x0b\x0c\x1c\x85\u2028\u2029\ufeff\u200f"
PTN_CHARS = "abcdefghx12345678SCF/,.-+<>*'\"!? []{}\\0|"
tricky = st.text(alphabet=UNICODE_DIGITS + CONTROLS + PTN_CHARS, max_size=60)
# Numbers of every length, past int()'s 4,300-digit limit too.
digits = st.text(alphabet="0123456789", min_size=1, max_size=8) | st.builds(
    lambda unit, times: unit * times,
    st.text(alphabet="0123456789", min_size=1, max_size=3),
    st.integers(1_500, 6_000),
)
# Long strings are built by repetition, so that Hypothesis need not draw every character.
long_text = st.builds(
    lambda unit, times: unit * times,
    st.text(alphabet=UNICODE_DIGITS + CONTROLS + PTN_CHARS, min_size=1, max_size=6),
    st.integers(1_000, 400_000),
)
nested = st.builds(
    lambda opener, closer, depth, inner: opener * depth + inner + closer * depth,
    st.sampled_from(["[", "{", '["', "[Size {"]),
    st.sampled_from(["]", "}", '"]', ""]),
    st.integers(1, 50_000),
    st.text(max_size=10),
)
anything = st.one_of(st.text(), tricky, digits, long_text, nested)


def parsed(call: Callable[[str], T], text: str) -> T | TakError:
    """The parser's value or library error; any other exception fails the test as it is. (How
    long the worst inputs take is measured by benchmarks/parsers.py, not here.)"""
    try:
        return call(text)
    except TakError as error:
        return error


def assert_sound(position: Position) -> None:
    """What every position the engine accepts must satisfy, read back from its stacks."""
    n = position.size
    assert 3 <= n <= 8
    assert abs(position.komi) <= MAX_KOMI and (position.komi * 2).is_integer()
    stones, caps = position.starting_stones, position.starting_caps
    assert reserve_problem(n, stones, caps, position.opening) is None
    for color in Color:
        stacks = [position.stack(f, r) for f in range(n) for r in range(n)]
        caps_on_board = sum(s.top is Piece.CAP and s.owner is color for s in stacks)
        pieces_on_board = sum(s.colors.count(color) for s in stacks)
        reserves = position.reserves(color)
        assert reserves.stones >= 0 and reserves.caps >= 0
        assert reserves.caps + caps_on_board == caps[color]
        assert reserves.stones + pieces_on_board - caps_on_board == stones[color]
    again = Position.from_tps(
        position.tps(), komi=position.komi, stones=stones, caps=caps, opening=position.opening
    )
    assert again.tps() == position.tps() and again.result == position.result


def assert_sound_game(game: Game) -> None:
    """Every ply legal where it stands, the result the board's (or one from the players while
    the board goes on), and the file we write reading back as the same game."""
    position = game.start()
    assert len(game.plies) <= MAX_PLIES
    for ply in game.plies:
        position.play(ply.move)  # raises if any accepted ply is illegal
    assert_sound(position)
    if position.result is not None:
        assert game.result == position.result
    else:
        assert game.result is None or not (game.result.kind.on_board and game.result.winner)
    again = Game.parse(game.ptn())
    assert [p.move for p in again.plies] == [p.move for p in game.plies]
    # An aborted game's `0-0` is not written after the moves (PTN Ninja has none), so it comes
    # back only if a Result tag holds it.
    if game.result is not None and game.result.kind is ResultKind.ABORT:
        assert again.result in (None, game.result)
    else:
        assert again.result == game.result


# ----------------------------------------------------------------- arbitrary text


def assert_short_link(decoded: str | None) -> None:
    assert decoded is None or len(decoded) <= MAX_DECOMPRESSED_LENGTH


# Every public parser, and what must hold of what it accepts.
PARSERS: dict[str, tuple[Callable[[str], object], Callable[..., None] | None]] = {
    "move": (parse_move, None),
    "move with marks": (parse_move_with_marks, None),
    "tps": (parse_tps, None),
    "position from tps": (Position.from_tps, assert_sound),
    "ptn file": (Game.parse, assert_sound_game),
    "result": (parse_result, None),
    "ptn.ninja link": (decompress_from_encoded_uri_component, assert_short_link),
}


def exercise(parser: str, text: str) -> None:
    """Parse; check what was accepted."""
    parse, check = PARSERS[parser]
    value = parsed(parse, text)
    if check is not None and not isinstance(value, TakError):
        check(value)


@pytest.mark.parametrize("parser", list(PARSERS))
@FUZZ
@given(text=anything)
def test_any_text(parser: str, text: str) -> None:
    exercise(parser, text)


# ----------------------------------------------------------------- near-valid text


@st.composite
def near_valid_moves(draw: st.DrawFn) -> str:
    """A move's parts, each sometimes replaced by something that looks like it."""
    count = draw(st.sampled_from(["", "1", "3", "8", "9", "0", "²", "٣", "12"]) | digits)
    piece = draw(st.sampled_from(["", "F", "S", "C", "c", "Ｃ"]))
    square = draw(st.sampled_from("abhiz")) + draw(st.sampled_from(["1", "8", "9", "0", "١"]))
    direction = draw(st.sampled_from(["", "+", "-", "<", ">", "±"]))
    drops = draw(st.sampled_from(["", "1", "111", "0", "12", "³"]) | digits)
    tail = draw(st.sampled_from(["", "*", "'", "''", '"', "!?", " ", "\x00"]))
    return count + piece + square + direction + drops + tail


@FUZZ
@given(near_valid_moves())
def test_near_valid_moves(text: str) -> None:
    exercise("move with marks", text)


@st.composite
def near_valid_tps(draw: st.DrawFn) -> str:
    """Rows of x, xN and stacks, then the player and move number, any part sometimes wrong."""
    size = draw(st.integers(2, 9))
    square = st.sampled_from(["x", "1", "2", "12S", "21C", "1C", "2S", "1112", "x0"]) | st.builds(
        lambda n: f"x{n}", st.sampled_from(["2", "3", "8", "9", "²", "999999999"]) | digits
    )
    rows = [",".join(draw(st.lists(square, min_size=1, max_size=size))) for _ in range(size)]
    player = draw(st.sampled_from(["1", "2", "3", "١", "²", ""]))
    number = draw(st.sampled_from(["1", "2", "40", "0", "²", "٣", "-1"]) | digits)
    return f"{'/'.join(rows)} {player} {number}"


@FUZZ
@given(near_valid_tps(), st.sampled_from([(None, None), (1, 0), (0, 1), (3, 1), (21, 2)]))
def test_near_valid_tps(text: str, reserves: tuple[int | None, int | None]) -> None:
    stones, caps = reserves
    position = parsed(lambda t: Position.from_tps(t, stones=stones, caps=caps), text)
    if not isinstance(position, TakError):
        assert_sound(position)


TAG_VALUES = {
    "Size": ["3", "5", "8", "2", "9", "²", "12", " 6 ", "?", ""],
    "Komi": ["0", "2", "2.5", "-4.5", "4.5", "5", "-5", "0.3", "inf", "nan", "1e400", "٣", "+1"],
    "Flats": ["0", "1", "10", "200", "201", "²", "-1"],
    "Caps": ["0", "1", "2", "201", "³"],
    "Flats1": ["0", "1", "30"],
    "Caps2": ["0", "1"],
    "Opening": ["swap", "no-swap", "No-Swap", "none", ""],
    "Result": ["R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "2-0", "R-R"],
    "TPS": [" ", "x5/x5/x5/x5/x5 1 1", "x3/x3/x,2,x 2 1", "x999999999// 1 1", "x5/x5/x5/x5/x5 1 ²"],
    "Player1": ["a\\", "{b}", "}", "\\", "🐢"],
}
JUNK_TOKENS = [
    "{",
    "}",
    "{a}",
    "{a {b} c}",
    "R-0",
    "0-R",
    "F-0",
    "1-0",
    "1/2-1/2",
    "0-0",
    "--",
    "1.",
    "99.",
    "².",
    "a1",
    "Ca1",
    "Sa1",
    "a9",
    "a1>",
    "9a1>",
    "a٣",
    "\x00",
    "[Size",
    '"',
]


@st.composite
def near_valid_ptn(draw: st.DrawFn) -> str:
    """Tags from real and broken values, a legal game (to its end, sometimes), and junk tokens
    dropped in among its moves."""
    size = draw(st.integers(3, 8))
    tags = {"Size": str(size)}
    for name in draw(st.lists(st.sampled_from(sorted(TAG_VALUES)), max_size=4)):
        tags[name] = draw(st.sampled_from(TAG_VALUES[name]))
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    position = Position(size)
    tokens: list[str] = []
    for _ in range(draw(st.integers(0, 60))):
        moves = position.legal_moves()
        if not moves:
            break
        if position.to_move is Color.WHITE:
            tokens.append(f"{position.ply // 2 + 1}.")
        move = moves[draw(st.integers(0, len(moves) - 1))]
        tokens.append(move.ptn())
        position.push(move)
    if position.result is not None and draw(st.booleans()):
        tokens.append(position.result.ptn())
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, len(tokens)))
        tokens.insert(index, draw(st.sampled_from(JUNK_TOKENS)))
    return header + "\n" + " ".join(tokens) + "\n"


@FUZZ
@given(near_valid_ptn())
def test_near_valid_ptn_files(text: str) -> None:
    exercise("ptn file", text)


@FUZZ
@given(
    st.text(max_size=200),
    st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from("AZaz09+-$ é🐢")), max_size=5),
)
def test_near_valid_links(text: str, edits: list[tuple[int, str]]) -> None:
    """Real links with characters changed, which LZW may read as huge phrases."""
    link = list(compress_to_encoded_uri_component(text))
    for index, char in edits:
        link[index % len(link)] = char
    exercise("ptn.ninja link", "".join(link))


# ----------------------------------------------------------------- at the caps


@pytest.mark.parametrize("filler", ["{" + "x" * 198 + "}", " "])
@pytest.mark.parametrize("over", [0, 1])
def test_ptn_files_at_the_length_cap(filler: str, over: int) -> None:
    head = '[Size "6"]\n\n1. a1 f6\n'
    body = filler * ((MAX_PTN_LENGTH - len(head)) // len(filler))
    text = (head + body).ljust(MAX_PTN_LENGTH + over)
    game = parsed(Game.parse, text)
    assert isinstance(game, Game) == (not over)
