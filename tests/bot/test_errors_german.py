"""The services' refusals in German: built where they are raised, in the language being spoken
(the person's, set by the command), the engine's move refusals included; English unchanged."""

from __future__ import annotations

import re

import pytest

from bot import errors
from bot.engine_sentences import engine_sentence, swing_line
from bot.games.model import check_komi
from bot.languages import speaking
from bot.tournaments.corrections import read_reported_game
from tak import Position, PTNError, TakError, playable_reserve_problem, start_position
from tak.analysis import analyse, describe
from tak.moves import Direction, Spread
from tak.ptn import TIE_RULE_COMMENT
from tak.ptn import Game as PTNGame
from tests.bot.setups import create_challenge

GUILD, CHANNEL = 11, 22
DISCORD_MESSAGE = 2000

# Every refusal the engine gives about a move that a player can cause, each from a real
# position: (the position, the moves played on it in turn, the last one refused).
ENGINE_CASES = [
    (Position(3), "c3 a1 a2 c2 a3 b1"),  # the game is over (a road)
    (Position(5), "f1"),
    (Position(5), "i9"),
    (Position(5), "a1 a1"),
    (Position(5), "Sa1"),
    (Position(5), "Ca1"),
    (Position(5, caps=(0, 0)), "a1 e5 Ca3"),
    (Position(5, caps=(0, 0)), "a1 e5 a3 Cb3"),
    (Position(5), "a1 e5 Ca3 b2 Cb3"),
    (Position(5, stones=(2, 2)), "a1 e5 a3 b3 c3"),
    (Position(5), "a1>"),
    (Position(5), "a1 e5 c3>"),
    (Position(5), "a1 e5 a1>"),
    (Position(5), "a1 e5 b1 e5<"),
    (Position(5), "e5 a1 6a1>"),
    (Position(5), "e5 a1 2a1>"),
    (Position(5), "e5 a1 b1 e4 b1< e3 3a1>"),
    (Position(5), "e5 a1 a1<"),
    (Position(5), "e5 a1 Cb1 e4 a1>"),
    (Position(5), "e5 a1 Sb1 e4 a1>"),
    (Position(5), "e5 a1 Cb1 e4 b1< Sb1 2a1>11"),
    (Position(5), "e5 a1 Cb1 e4 b1< Sb1 2a1>2"),
    (Position(5), "2a1>20"),
    (Position(5), "9a1>"),
    (Position(5), " "),
    (Position(5), "a1" * 20),
    (Position(5), "hello"),
    (Position(5), "3a1"),
    (Position(5), "Sa1>"),
    (Position(5), "0a1>"),
    (Position(5), "a1>2"),
    (Position(5), "3a1>11"),
]


def refusal(position: Position, moves: str) -> str:
    """The engine's sentence refusing the last of `moves` on `position`."""
    *before, last = moves.split(" ") if moves.strip() else [moves]
    for move in before:
        position.play(move)
    with pytest.raises(TakError) as refused:
        position.play(last)
    return str(refused.value)


def engine_refusals() -> list[str]:
    sentences = [refusal(position.copy(), moves) for position, moves in ENGINE_CASES]
    with pytest.raises(TakError) as empty:  # no typed move makes it: a spread built by hand
        Position(5).check(Spread(0, 0, Direction(">"), ()))
    return [*sentences, str(empty.value)]


# Start positions (TPS, for a 5x5 game) the engine refuses, each for another reason.
REFUSED_STARTS = [
    "x5/x5/x5/x5/x5 1 1 1",
    "x5/x5 1 1",
    "x5/x5/x5/x5/x5,x 1 1",
    "x,x,x/x3/x3/x3 1 1",
    "x5/x5/x5/x5/x5 3 1",
    "x5/x5/x5/x5/x5 1 0",
    "x0,x4/x5/x5/x5/x5 1 1",
    "q,x4/x5/x5/x5/x5 1 1",
    "x6/x6/x6/x6/x6/x6 1 1",
    "1C,1C,x3/x5/x5/x5/x5 2 3",
    "x5/2C,2C,x3/x5/x5/x5 1 3",
    "1,1,1,1,1/x5/x5/x5/x5 2 3",
    "2,2,2,2,2/x5/x5/x5/x5 1 4",
    "x" * 3000,
]


def setup_refusals() -> list[str]:
    """The engine's sentences refusing a start position or the reserves of a game."""
    sentences = []
    for tps in REFUSED_STARTS:
        with pytest.raises(TakError) as refused:
            start_position(tps, size=5)
        sentences.append(str(refused.value))
    return [*sentences, playable_reserve_problem(5, 0, 0), playable_reserve_problem(5, 0, 1)]


def test_every_move_refusal_of_the_engine_is_said_in_german() -> None:
    english = engine_refusals()
    assert len(set(english)) == len(english)  # each case a different sentence
    with speaking("de"):
        german = [engine_sentence(sentence) for sentence in english]
    for said, original in zip(german, english, strict=True):
        assert said != original, original
        assert not re.search(r"\{\w+\}", said)
        # the squares and moves it names are named in German too
        for named in re.findall(r"\b[a-h][1-8]\b", original):
            assert named in said, (original, said)
    assert german[
        english.index("a1 is occupied, and pieces can only be placed on empty squares.")
    ] == ("a1 ist besetzt, und Steine können nur auf leere Felder gesetzt werden.")


def test_the_engines_refusals_of_a_start_position_or_reserves_are_said_in_german() -> None:
    english = setup_refusals()
    assert len(set(english)) == len(english)
    with speaking("de"):
        german = [engine_sentence(sentence) for sentence in english]
    for said, original in zip(german, english, strict=True):
        assert said != original and not re.search(r"\{\w+\}", said), original
        assert " wins " not in said and "Give more" not in said, said  # nested sentences too
    assert german[english.index("The player to move must be 1 or 2, not '3'.")] == (
        "Wer am Zug ist, muss 1 oder 2 sein, nicht '3'."
    )


def test_english_move_refusals_are_left_as_the_engine_wrote_them() -> None:
    english = engine_refusals() + setup_refusals()
    with speaking("en"):
        assert [engine_sentence(sentence) for sentence in english] == english
    with speaking("de"):  # a sentence the engine may say one day, not known here
        assert engine_sentence("b2 is haunted.") == "b2 is haunted."


async def test_an_illegal_move_is_refused_in_german(services, new_game) -> None:
    game = await new_game(size=5)
    with speaking("de"), pytest.raises(errors.IllegalMove) as illegal:
        await services.games.move(game.id, game.white.id, "f1")
    assert illegal.value.message == (
        "f1 ist kein Feld auf diesem 5x5-Brett, es hat die Linien a bis e und die Reihen 1 bis 5."
    )
    await services.games.move(game.id, game.white.id, "a1")
    with speaking("de"), pytest.raises(errors.IllegalMove) as occupied:
        await services.games.move(game.id, game.black.id, "  A1 ")
    assert occupied.value.message == (
        "A1: a1 ist besetzt, und Steine können nur auf leere Felder gesetzt werden."
    )
    with speaking("en"), pytest.raises(errors.IllegalMove) as english:
        await services.games.move(game.id, game.black.id, "a1")
    assert english.value.message == (
        "a1 is occupied, and pieces can only be placed on empty squares."
    )


async def test_turn_and_lookup_refusals_are_in_german(services, new_game) -> None:
    game = await new_game(size=5)
    with speaking("de"):
        with pytest.raises(errors.NotYourTurn) as turn:
            await services.games.move(game.id, game.black.id, "a1")
        with pytest.raises(errors.UnknownGame) as unknown:
            await services.games.move(404, game.white.id, "a1")
        with pytest.raises(errors.NothingToUndo) as nothing:
            await services.games.request_undo(game.id, game.white.id)
        with pytest.raises(errors.NoDrawOffer) as no_offer:
            await services.games.accept_draw(game.id, game.black.id)
    assert turn.value.message == f"In Partie #{game.id} bist du nicht am Zug."
    assert unknown.value.message == "Es gibt keine Partie #404."
    assert nothing.value.message == f"In Partie #{game.id} wurde noch kein Zug gespielt."
    assert (
        no_offer.value.message == f"Dein Gegenüber hat in Partie #{game.id} kein Remis angeboten."
    )
    await services.games.offer_draw(game.id, game.white.id)
    with speaking("de"), pytest.raises(errors.OwnRequest) as own:
        await services.games.accept_draw(game.id, game.white.id)
    assert own.value.message == (
        "Du kannst nicht auf dein eigenes Remisangebot antworten: Das muss dein Gegenüber tun."
    )


async def test_challenge_refusals_are_in_german(services, alice, bob, carol) -> None:
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=alice, opponent=bob
    )
    with speaking("de"):
        with pytest.raises(errors.ChallengeNotForYou) as not_for_you:
            await services.challenges.accept(challenge.id, carol)
        with pytest.raises(errors.ChallengeYourself) as yourself:
            await services.challenges.accept(challenge.id, alice)
        with pytest.raises(errors.NotYourChallenge) as not_yours:
            await services.challenges.cancel(challenge.id, bob.id)
        with pytest.raises(errors.InvalidSetting) as colour:
            await create_challenge(
                services, guild_id=GUILD, channel_id=CHANNEL, challenger=carol, colour="green"
            )
    assert not_for_you.value.message == "Diese Herausforderung gilt jemand anderem."
    assert yourself.value.message.startswith("Du kannst deine eigene Herausforderung nicht")
    assert not_yours.value.message == (
        "Nur wer diese Herausforderung gestellt hat, kann sie zurückziehen."
    )
    assert colour.value.message == "Die Farbe ist 'Weiß', 'Schwarz' oder 'Zufall'."
    await services.challenges.decline(challenge.id, bob.id)
    with speaking("de"), pytest.raises(errors.ChallengeClosed) as closed:
        await services.challenges.accept(challenge.id, bob)
    assert closed.value.message == (
        f"Herausforderung #{challenge.id} ist nicht mehr offen: Sie wurde abgelehnt."
    )
    with speaking("en"), pytest.raises(errors.ChallengeClosed) as english:
        await services.challenges.accept(challenge.id, bob)
    assert english.value.message == f"Challenge #{challenge.id} is no longer open: it was declined."


def test_the_longest_german_refusals_fit_a_discord_message() -> None:
    """The longest texts a player can put into a refusal: a move as long as a move may be, a
    line of conditional moves as long as a line may be."""
    longest_move = "a1" * 400  # refused as too long, quoted only in part
    with speaking("de"):
        texts = [
            errors.IllegalMove(longest_move, refusal(Position(8), longest_move)).message,
            errors.PositionChanged(10**9, 10**6, 10**6 + 1).message,
            errors.RematchPending(10**9, 10**9).message,
            errors.TooManyChallenges(10**6).message,
            *(errors.IllegalMove("x", sentence).message for sentence in engine_refusals()),
        ]
    assert max(len(text) for text in texts) <= DISCORD_MESSAGE


def _long_game() -> str:
    """A game of more plies than a PTN file may hold: two capstones walking to and fro."""
    plies = ["a1", "h8", "Cb2", "Cg7"] + ["b2>", "g7<", "c2<", "f7>"] * 500
    return '[Size "8"]\n' + " ".join(plies)


# Real PTN files the engine refuses, each for another reason (those naming a move or a start
# position wrap the engine's sentence about it).
REFUSED_FILES = [
    '[Size "5"]\n[TPS "x5/x5 1 1"]\n1. a1',
    '[Size "9"]\n1. a1',
    '[Size "6"]\n[TPS "x5/x5/x5/x5/x5 1 1"]\n1. a1',
    '[Size "5"]\n[Flats "0"]\n[Caps "0"]\n1. a1',
    "1. a1 e5",
    '[Size "5"]\n[Komi "lots"]\n1. a1',
    '[Size "5"]\n[Flats1 "many"]\n1. a1',
    "x" * 1_000_001,
    "".join(f'[Tag{n} "x"]\n' for n in range(101)),
    '[Size "5"]\n[bad tag]\n1. a1',
    f'[{"N" * 33} "x"]\n',
    f'[Event "{"x" * 300}"]\n',
    '[Size "5"]\n1. a1 {open',
    '[Size "5"]\n' + "{c}" * 10_001,
    f'[Size "5"]\n1. {{{TIE_RULE_COMMENT}}} a1',
    '[Size "5"]\n1. a1 e5 R-0 b2',
    '[Size "5"]\n1. 2. a1',
    '[Size "5"]\n1. -- a1',
    _long_game(),
    '[Size "5"]\n1. f1',
    '[Size "5"]\n1. a1 a1',
    '[Size "5"]\n[Result "0-1"]\n1. a1 e5 1-0',
    '[Size "3"]\n1. c3 a1 2. a2 c2 3. a3 0-1',
    '[Size "5"]\n1. a1 e5 R-0',
    '[Size "5"]\n[Result "win"]\n1. a1 e5',
    '[Size "5"]\n[Komi "9"]\n1. a1',
    '[Size "5"]\n[Flats "999"]\n1. a1',
    '[Size "5"]\n[Caps2 "999"]\n1. a1',
    '[Size "5"]\n[Opening "weird"]\n1. a1',
]

# What a refusal names, to be named the same in German: quoted text, numbers, squares, results.
_VALUES = re.compile(r"(?<!\w)'[^']*'(?!\w)|\d(?:[\d,.x/-]*\d)?|\b[a-h][1-8]\b")
_DECIMAL_COMMA = re.compile(r"(\d),(\d)(?!\d)")  # German 0,5 for 0.5 (not 1,000)


def _values(sentence: str) -> list[str]:
    return sorted(_VALUES.findall(_DECIMAL_COMMA.sub(r"\1.\2", sentence)))


def ptn_refusals() -> list[str]:
    sentences = []
    for text in REFUSED_FILES:
        with pytest.raises(PTNError) as refused:
            PTNGame.parse(text)
        sentences.append(str(refused.value))
    return sentences


def test_every_refusal_of_a_ptn_file_is_said_in_german() -> None:
    english = ptn_refusals()
    assert len(set(english)) == len(english)  # each file refused for another reason
    with speaking("de"):
        german = [engine_sentence(sentence) for sentence in english]
    with speaking("en"):
        assert [engine_sentence(sentence) for sentence in english] == english
    for said, original in zip(german, english, strict=True):
        assert said != original and not re.search(r"\{\w+\}", said), original
        assert _values(said) == _values(original), (original, said)
        # the sentences inside (a move's, a start position's, a result's) are German too
        for english_words in (" is ", " wins ", " the ", "white", "black"):
            assert english_words not in said, said
    assert german[
        english.index(
            "Move 1 (black) a1: a1 is occupied, and pieces can only be placed on empty squares."
        )
    ] == (
        "Zug 1 (Schwarz) a1: a1 ist besetzt, und Steine können nur auf leere Felder gesetzt werden."
    )


def test_a_reported_file_is_refused_in_the_reporters_language() -> None:
    with pytest.raises(errors.ReportRefused) as german:
        read_reported_game('[Size "5"]\n1. f1', "de")
    with pytest.raises(errors.ReportRefused) as english:
        read_reported_game('[Size "5"]\n1. f1', "en")
    assert english.value.message == (
        "The file is refused: Move 1 (white) f1: f1 is not a square on this 5x5 board, which "
        "has files a to e and ranks 1 to 5."
    )
    assert german.value.message.endswith(
        "Zug 1 (Weiß) f1: f1 ist kein Feld auf diesem 5x5-Brett, es hat die Linien a bis e und "
        "die Reihen 1 bis 5."
    )


def test_an_analysis_summary_names_its_notes_in_german() -> None:
    """The engine's notes on a ply, as the analysis post lists the biggest swings: each note
    said again in German, the ply and its marks as they are, the scores as German writes
    them (2,3 for 2.3)."""
    game = PTNGame.parse('[TPS "x3/1,x2/1,1,x 1 3"]\n\n3. a1+')
    [note] = analyse(game, nodes=150).notes
    line = describe(note, game.start())
    assert "(Missed a road in one: a3, c1.)" in line
    with speaking("de"):
        german = swing_line(line)
        several = swing_line(
            "12... c4?? (Allows a road in one: a1, b2, c3 and 2 more. Missed Tinuë: d4.) "
            "+2.3 → -10.0"
        )
        unnoted = swing_line("3. a1? +0.4 → -1.2")
    assert unnoted == "3. a1? +0,4 → -1,2"
    scores = re.search(r"([+-]\d+)\.(\d) → ([+-]\d+)\.(\d)$", line)
    assert scores is not None, line
    assert german == line.replace(
        "Missed a road in one: a3, c1.", "Straße in einem Zug verpasst: a3, c1."
    ).replace(scores[0], "{},{} → {},{}".format(*scores.groups()))
    assert several == (
        "12... c4?? (Erlaubt eine Straße in einem Zug: a1, b2, c3 und 2 weitere. "
        "Tinuë verpasst: d4.) +2,3 → -10,0"
    )
    assert swing_line(line) == line  # in English, as the engine wrote it


def test_a_komi_out_of_range_is_refused_with_german_numbers() -> None:
    with speaking("de"), pytest.raises(errors.InvalidSetting) as german:
        check_komi(5)
    with pytest.raises(errors.InvalidSetting) as english:
        check_komi(5)
    assert "zwischen -4,5 und 4,5" in german.value.message
    assert "from -4.5 to 4.5" in english.value.message
