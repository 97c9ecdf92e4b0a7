"""PTN that opens in PTN Ninja: what we write reads back as the same game, whatever the names and
comments hold and however the game ended, and keeps to what PTN Ninja and PlayTak accept; a result
that contradicts the board is refused when read."""

from __future__ import annotations

import re

import pytest

from tak import Color, Position, PTNError, Result, ResultKind, parse_move
from tak.ptn import (
    MAX_COMMENTS,
    MAX_PLIES,
    MAX_TAG_VALUE_LENGTH,
    TIE_RULE_COMMENT,
    Game,
    GamePly,
)

# What PTN Ninja reads (docs: the project's tak-formats notes): the tags it knows, and the values
# it accepts in them. Anything else it drops or refuses to load.
NINJA_TAGS = {
    "player1": r"[^\"{}]+",
    "player2": r"[^\"{}]+",
    "event": r"[^\"]+",
    "site": r"[^\"]+",
    "date": r"\d{4}\.\d\d?\.\d\d?",
    "time": r"\d\d(:\d\d){1,2}",
    "size": r"[3-8]",
    "komi": r"-?\d*(\.5)?",
    "flats": r"\d+",
    "caps": r"\d+",
    "flats1": r"\d+",
    "flats2": r"\d+",
    "caps1": r"\d+",
    "caps2": r"\d+",
    "round": r"\d+",
    "opening": r"swap|no-swap",
    "result": r"R-0|0-R|F-0|0-F|1-0|0-1|1/2-1/2",
    "tps": r"[1-8xSC/,]+\s+[12]\s+\d+",
    "clock": r"[^\"]+",
    "rating1": r"\d+",
    "rating2": r"\d+",
    "points": r"\d+",
}
NINJA_PLY = re.compile(r"[1-8]?[FSC]?[a-h][1-8]([<>+-][1-8]*)?\*?['\"!?]*")
NINJA_RESULTS = {"R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"}


def assert_ninja_reads(text: str) -> None:
    """The file keeps to PTN Ninja's tags, values, comments, plies and results."""
    head, _, body = text.partition("\n\n")
    for line in head.splitlines():
        match = re.fullmatch(r'\[(\w+) "([^"]*)"\]', line)
        assert match, line
        name, value = match[1].lower(), match[2]
        assert name in NINJA_TAGS, line
        assert re.fullmatch(NINJA_TAGS[name], value), line
        if name == "komi":
            assert abs(float(value)) <= 4.5
    comments = re.findall(r"\{[^}]*\}", body)
    rest = re.sub(r"\{[^}]*\}", " ", body)
    assert "{" not in rest and "}" not in rest, body
    for token in rest.split():
        assert (
            re.fullmatch(r"\d+\.", token)
            or token == "--"
            or token in NINJA_RESULTS
            or NINJA_PLY.fullmatch(token)
        ), token
    assert all("}" not in c[1:-1] for c in comments)


NAMES = [
    ('bob "the" builder', "bob ''the'' builder"),
    ("back\\slash\\", "back\\slash\\"),  # a trailing backslash escapes nothing
    ("{curly}", "(curly)"),
    ("🐢 tortuga 🐢", "🐢 tortuga 🐢"),
    ("שָׁלוֹם עוֹלָם", "שָׁלוֹם עוֹלָם"),  # right to left
    ("مرحبا\u200f", "مرحبا\u200f"),  # with a right-to-left mark
    ('"}{\\"', "'')(\\''"),
    ("two\nlines\ttabbed", "two lines tabbed"),
]
COMMENTS = [
    ("a {nested} comment}", "a (nested) comment)"),
    ("}", ")"),
    ("plain, with 'quotes\" and \\", "plain, with 'quotes\" and \\"),
    ("🐢\nnext line", "🐢\nnext line"),
]
ROAD_3X3 = "a3 a1 b1 b3 c1"  # White's road along rank 1
FULL_3X3 = "b2 a2 b1 c3 a3 b3 c1 a1 c2"  # the board fills with no road: 5 flats to 4


def _game(
    moves: str, result: Result | None, komi: float = 0
) -> tuple[list[GamePly], Result | None]:
    position = Position(3, komi=komi)
    plies = []
    for index, text in enumerate(moves.split()):
        move = position.play(text)
        comment, _ = COMMENTS[index % len(COMMENTS)]
        plies.append(GamePly(move, "", [comment] if index % 2 else []))
    return plies, result if result is not None else position.result


ENDINGS = {
    "road": (ROAD_3X3, None, 0, "R-0"),
    "flats": (FULL_3X3, None, 0, "F-0"),
    "flat draw": (FULL_3X3, None, 1, "1/2-1/2"),
    "resignation": ("a3 a1 b1", Result(Color.BLACK, ResultKind.RESIGNATION), 0, "0-1"),
    "time": ("a3 a1", Result(Color.WHITE, ResultKind.TIME), 0, "1-0"),
    "agreed draw": ("a3 a1 b2 c2", Result(None, ResultKind.AGREEMENT), 0, "1/2-1/2"),
    "abort": ("a3", Result(None, ResultKind.ABORT), 0, None),
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
@pytest.mark.parametrize(("name", "written_name"), NAMES)
def test_written_files_open_in_ptn_ninja_and_read_back(
    ending: str, name: str, written_name: str
) -> None:
    moves, declared, komi, token = ENDINGS[ending]
    plies, result = _game(moves, declared, komi)
    tags = {"Player1": name, "Player2": "Ann", "Size": "3", "Komi": f"{komi:g}", "Round": "2"}
    if token:
        tags["Result"] = token
    first_comment, written_comment = COMMENTS[0]
    record = Game(tags=tags, plies=plies, result=result, comments=[first_comment])
    text = record.ptn()
    assert_ninja_reads(text)

    again = Game.parse(text)
    assert again.tags == {**tags, "Player1": written_name}
    assert again.comments == [written_comment]
    assert [p.move for p in again.plies] == [p.move for p in plies]
    assert [p.comments for p in again.plies] == [
        [dict(COMMENTS)[c] for c in p.comments] for p in plies
    ]
    if token is None:  # PTN Ninja has no result for an abort: the file leaves it out
        assert again.result is None and "0-0" not in text
    else:
        assert again.result is not None and again.result.ptn() == token
        assert again.result.winner == result.winner  # type: ignore[union-attr]
        assert text.rstrip().endswith(token)
    assert Game.parse(again.ptn()).ptn() == again.ptn()


def test_board_results_keep_their_road_and_others_their_kind() -> None:
    road = Game.parse(f'[Size "3"]\n\n{ROAD_3X3} R-0')
    assert road.result == Result(Color.WHITE, ResultKind.ROAD, ((0, 0), (1, 0), (2, 0)))
    agreed = Game.parse('[Size "3"]\n\n1. a3 a1 1/2-1/2')
    assert agreed.result == Result(None, ResultKind.AGREEMENT)
    drawn = Game.parse(f'[Size "3"]\n[Komi "1"]\n\n{FULL_3X3} 1/2-1/2')
    assert drawn.result == Result(None, ResultKind.FLATS)
    resigned = Game.parse('[Size "3"]\n[Result "0-1"]\n\n1. a3 a1')
    assert resigned.result == Result(Color.BLACK, ResultKind.OTHER)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[Size "3"]\n\n1. a3 a1 R-0', "R-0 says the game ended on the board, but"),
        ('[Size "3"]\n\n1. a3 a1 0-F', "0-F says the game ended on the board"),
        (f'[Size "3"]\n\n{ROAD_3X3} 0-R', "The result 0-R contradicts the board"),
        (f'[Size "3"]\n\n{ROAD_3X3} 0-1', "0-1 contradicts the board, where the moves end"),
        (f'[Size "3"]\n[Result "0-1"]\n\n{ROAD_3X3} 1-0', "The moves end with 1-0, but the"),
        (f'[Size "3"]\n[Result "1-0"]\n\n{ROAD_3X3} 0-R', "The moves end with 0-R, but the"),
        (f'[Size "3"]\n[Komi "1"]\n\n{FULL_3X3} 1-0', "1-0 contradicts the board"),
        ('[Size "3"]\n[Result "R-0"]\n\n1. a3 a1 1-0', "R-0 says the game ended on the board"),
        (f'[Size "3"]\n\n{ROAD_3X3} 1/2-1/2', "1/2-1/2 contradicts the board"),
        (f'[Size "3"]\n\n{FULL_3X3} 1/2-1/2', "White wins on flats. (F-0)"),
        (f'[Size "3"]\n[Result "0-1"]\n\n{ROAD_3X3}', "The result 0-1 contradicts the board"),
        (f'[Size "3"]\n[Result "F-0"]\n\n{ROAD_3X3} 1-0', "The result F-0 contradicts the"),
        ('[Size "3"]\n[Result "1-0"]\n\n1. a3 a1 0-1', "the Result tag says 1-0"),
        (f'[Size "3"]\n\n{ROAD_3X3} R-0 c2', "'c2' comes after the result R-0"),
        (f'[Size "3"]\n\n{ROAD_3X3} c2', "The game is over (R-0)"),
    ],
)
def test_results_that_contradict_the_board_are_refused(text: str, reason: str) -> None:
    with pytest.raises(PTNError, match=re.escape(reason)):
        Game.parse(text)


@pytest.mark.parametrize(
    ("text", "board"),
    [
        (f'[Size "3"]\n\n{ROAD_3X3} 1-0', "R-0"),
        (f'[Size "3"]\n[Result "1-0"]\n\n{ROAD_3X3}', "R-0"),
        (f'[Size "3"]\n[Result "1-0"]\n\n{ROAD_3X3} R-0', "R-0"),
        (f'[Size "3"]\n[Result "R-0"]\n\n{ROAD_3X3} 1-0', "R-0"),
        (f'[Size "3"]\n\n{FULL_3X3} 1-0', "F-0"),
    ],
)
def test_a_result_that_names_the_boards_winner_without_saying_how_agrees(
    text: str, board: str
) -> None:
    # PlayTak and engine matches write 1-0 for a road or flat win: the board says how.
    game = Game.parse(text)
    assert game.result is not None and game.result.ptn() == board
    assert game.ptn().rstrip().endswith(board)  # written back out as the board ended it
    assert Game.parse(game.ptn()).result == game.result


def test_a_result_tag_on_moves_that_stop_short_is_not_taken_as_the_boards() -> None:
    # Puzzle files (taktician's testdata, MIT) keep the real game's result while the moves stop
    # at the puzzle: the record is read, with no result of its own.
    game = Game.parse('[Result "R-0"]\n[Size "5"]\n\n1. a1 e5\n2. d3 b2\n3.')
    assert game.result is None and game.tag("Result") == "R-0"
    assert len(game.plies) == 4


@pytest.mark.parametrize(
    ("tags", "reason"),
    [
        ('[Size "5"]\n[Komi "5"]', "Komi must be a multiple of 0.5 from -4.5 to 4.5"),
        ('[Size "5"]\n[Komi "-4.6"]', "Komi must be a multiple of 0.5 from -4.5 to 4.5"),
        ('[Size "5"]\n[Komi "inf"]', "Komi 'inf' is not a number of flats like 2 or 2.5"),
        ('[Size "5"]\n[Komi "1e400"]', "is not a number of flats"),
        ('[Size "5"]\n[Komi "٣"]', "is not a number of flats"),
        ('[Size "²"]', "Size '²' is not a board size"),
        ('[TPS " "]', "neither a Size nor a TPS tag"),
        ('[TPS "x5/x5/x5/x5/x5 1 ²"]', "The move number must be a whole number"),
        ('[Size "6"]\n[TPS "x5/x5/x5/x5/x5 1 1"]', "The Size tag says 6, but the TPS is 5x5"),
        ('[Size "5"]\n[Flats "' + "9" * 200 + '"]', "is not a number of pieces"),
        ('[Size "5"]\n[Flats "201"]', "Stones must be a whole number from 0 to 200"),
        ('[Size "5"]\n[Flats "0"]\n[Caps "1"]', "at least one stone for the opening"),
        ('[Size "5"]\n[Opening "swapped"]', "The opening must be 'swap' or 'no-swap'"),
    ],
)
def test_tags_that_describe_no_game_are_refused(tags: str, reason: str) -> None:
    with pytest.raises(PTNError, match=re.escape(reason)):
        Game.parse(tags + "\n\n1. a1\n")


def test_komi_at_the_cap_reads_and_writes() -> None:
    game = Game.parse('[Size "6"]\n[Komi "-4.5"]\n\n1. a1 f6\n')
    assert game.final_position().komi == -4.5
    assert_ninja_reads(game.ptn())


def test_the_writer_never_writes_komi_beyond_the_cap() -> None:
    record = Game(tags={"Size": "6", "Komi": "6"}, plies=[GamePly(parse_move("a1"))])
    with pytest.raises(PTNError, match=r"from -4\.5 to 4\.5"):
        record.ptn()


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("1. a1 {never closed", "A comment opened with { is never closed"),
        ("1. a1 {closed} {{{", "A comment opened with { is never closed"),
        ("{x}" * (MAX_COMMENTS + 1), f"at most {MAX_COMMENTS:,} comments"),
        ("1. 1. a1", "Move number 1. follows another with no ply between"),
        ("1. -- a1", "-- stands only for White's ply"),
    ],
)
def test_bodies_ptn_ninja_would_not_read_are_refused(body: str, reason: str) -> None:
    with pytest.raises(PTNError, match=re.escape(reason)):
        Game.parse('[Size "6"]\n\n' + body)


@pytest.mark.parametrize(
    ("tags", "reason"),
    [
        (
            '[Player1 "' + "x" * 8_000 + '"]',
            "a tag's value is at most 256 characters; this one has 8,000",
        ),
        ("[" + "x" * 33 + ' "1"]', "a tag's name is at most 32 characters"),
        ('[Player1 "' + "x" * 8_000, 'is not a tag: write tags as [Name "value"]'),
        ("[" * 8_000, "is not a tag"),
        ('[Player-1 "alice"]', "'[Player-1 \"alice\"]' is not a tag"),
    ],
)
def test_tags_longer_than_any_real_one_are_refused(tags: str, reason: str) -> None:
    with pytest.raises(PTNError, match=re.escape(reason)):
        Game.parse('[Size "6"]\n' + tags + "\n\n1. a1 f6\n")


def test_tags_as_long_as_real_ones_are_read() -> None:
    name = "x" * MAX_TAG_VALUE_LENGTH
    tps = "1" * 150 + ",x7/x8/x8/x8/x8/x8/x8/x8 1 2"
    game = Game.parse(f'[Size "8"]\n[Flats "200"]\n[Player1 "{name}"]\n[TPS "{tps}"]\n\n2. a1\n')
    assert game.tag("player1") == name and game.tag("TPS") == tps


def _walking_game(plies: int) -> str:
    """A legal 6x6 game of any length: each player walks a two-piece stack back and forth."""
    cycle = ["2a1>", "2f6<", "2b1<", "2e6>"]
    moves = ["a1", "f6", "b1", "e6", "b1<", "e6>"] + cycle * (plies // 4)
    return '[Size "6"]\n\n' + " ".join(moves[:plies])


def test_games_are_read_up_to_the_ply_cap() -> None:
    assert len(Game.parse(_walking_game(MAX_PLIES)).plies) == MAX_PLIES
    with pytest.raises(PTNError, match="more than 2,000 plies, longer than any real game"):
        Game.parse(_walking_game(MAX_PLIES + 1))


def test_real_files_read_as_ptn_ninja_reads_them() -> None:
    # From taktician's testdata (MIT): a lone "1." after the TPS of move 2, and a tag PTN Ninja
    # does not know, which we keep.
    game = Game.parse(
        '[Size "5"]\n[TPS "2,x2,121C,1/x2,2,12,1/x2,2,12S,2/x3,1,1/x4,1 1 2"]\n'
        '[Move "1 white"]\n[GoodMove "2d5-11"]\n\n1.'
    )
    assert game.plies == [] and game.tag("GoodMove") == "2d5-11"
    assert game.final_position().tps() == "2,x2,121C,1/x2,2,12,1/x2,2,12S,2/x3,1,1/x4,1 1 2"


@pytest.mark.parametrize(("komi", "result"), [("2.5", "F-0"), ("3", "0-F"), ("-1.5", "F-0")])
def test_the_antiquity_tie_rule_is_written_and_read_as_a_comment(komi: str, result: str) -> None:
    tps = "1,2,1,1/1,1,2,1/2,1,1,2/1,2,2,x 1 9"  # 9 White flats to 6 once d1 fills the board
    text = f'[TPS "{tps}"]\n[Komi "{komi}"]\n\n{{{TIE_RULE_COMMENT}}}\n9. Sd1 {result}\n'
    game = Game.parse(text)
    assert game.ties_to_black and game.start().ties_to_black
    assert game.result is not None and game.result.ptn() == result
    written = game.ptn()
    assert written == text  # the Komi tag stays the real komi
    assert_ninja_reads(written)
    assert Game.parse(written).result == game.result
    if komi == "3":  # without the rule the same tie is a draw, and 0-F contradicts the board
        with pytest.raises(PTNError, match="contradicts the board"):
            Game.parse(text.replace(f"{{{TIE_RULE_COMMENT}}}\n", ""))


def test_the_tie_rule_counts_only_before_the_first_move_number() -> None:
    """Where the board is set up, so the result read and the final board always agree."""
    tps = "1,2,1,1/1,1,2,1/2,1,1,2/1,2,2,x 1 9"
    late = f'[TPS "{tps}"]\n[Komi "3"]\n\n9. {{{TIE_RULE_COMMENT}}} Sd1 1/2-1/2\n'
    with pytest.raises(PTNError, match="tie rule's comment comes after the first move number"):
        Game.parse(late)
