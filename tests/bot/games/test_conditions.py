"""Conditional moves (bot.games.conditions) played through GameService.move: answered at once
and announced, kept past the answer, cleared by a deviation, an undo or the game's end; with
clocks and coins as any move; refused with a clear sentence when they cannot be entered."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest

from bot import errors
from bot.games import conditions
from bot.games.conditions import MAX_LINES, MAX_TEXT
from bot.notifications.outbox import ConditionsDropped, GameEnded, MovePlayed, _decode
from bot.play import service
from bot.services import Services
from bot.store.consistency import applicable
from tests.bot.coins.test_service import (
    TOKEN_GAME,
    balance,
    ledger_consistent,
    staked_game,
)
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    EVE,
    ORGANIZER,
    active_game,
    new_tournament,
    start,
)


async def announced(services: Services, game_id: int, kind: str) -> list:
    """The game's announcements of `kind`, oldest first, decoded as the courier does."""
    rows = await services.db.fetchall(
        "SELECT kind, payload FROM outbox WHERE kind = ? AND stream LIKE ? ORDER BY id",
        (kind, f"%:{game_id}%"),
    )
    return [_decode(row["kind"], row["payload"]) for row in rows]


async def stored_rows(services: Services) -> list[tuple[int, int, str]]:
    rows = await services.db.fetchall(
        "SELECT game_id, player_id, lines FROM conditional_moves ORDER BY game_id, player_id"
    )
    return [(r["game_id"], r["player_id"], r["lines"]) for r in rows]


async def test_a_forced_line_is_played_reply_by_reply(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")  # Alice (white) to move at ply 2
    entered = await services.conditions.add(game.id, BOB.id, "c3 d4 c4 d5; b2 b4")
    assert entered.lines == (("c3", "d4", "c4", "d5"), ("b2", "b4"))
    assert entered.numbered() == ["2. c3 d4 3. c4 d5", "2. b2 b4"]
    assert not entered.replaced
    outcome = (await moves(game.id, "c3"))[0]
    assert outcome.answer is not None and outcome.answer.move == "d4"
    assert outcome.answer.game.ply == 4 and outcome.answer.game.player_to_move == ALICE
    stored = await services.games.get(game.id)
    assert (stored.ply, stored.last_move) == (4, "d4")
    assert (await services.conditions.show(game.id, BOB.id)).numbered() == ["3. c4 d5"]
    played = await announced(services, game.id, "move")
    assert [(p.move, p.answered, p.by_condition) for p in played[-2:]] == [
        ("c3", True, False),
        ("d4", False, True),
    ]
    second = (await moves(game.id, "c4"))[0]
    assert second.answer is not None and second.answer.move == "d5"
    assert (await services.games.get(game.id)).ply == 6
    assert (await services.conditions.show(game.id, BOB.id)).lines == ()
    assert await stored_rows(services) == []
    third = (await moves(game.id, "c5"))[0]  # no lines left: Bob plays himself
    assert third.answer is None and (await services.games.get(game.id)).ply == 7


async def test_a_reply_no_line_foresaw_clears_the_lines(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4 c4 d5")
    outcome = (await moves(game.id, "b3"))[0]
    assert outcome.answer is None
    assert (await services.games.get(game.id)).player_to_move == BOB
    assert await stored_rows(services) == []
    assert (await services.conditions.show(game.id, BOB.id)).lines == ()
    played = await announced(services, game.id, "move")
    assert played[-1].move == "b3" and not played[-1].answered


async def test_another_answer_to_the_same_reply_replaces_the_branch(
    services, new_game, moves
) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4 c4 d5")
    await services.conditions.add(game.id, BOB.id, "c3 d4 b4 b3")  # another reply: beside it
    changed = await services.conditions.add(game.id, BOB.id, "c3 d3")  # another answer to c3
    assert changed.replaced and changed.lines == (("c3", "d3"),)
    cleared = await services.conditions.clear(game.id, BOB.id)
    assert cleared == 1 and await stored_rows(services) == []


async def test_lines_are_refused_with_a_reason_and_change_nothing(
    services, new_game, moves
) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    with pytest.raises(errors.InvalidSetting, match="your move in game"):
        await services.conditions.add(game.id, ALICE.id, "d4 c3")
    with pytest.raises(errors.NotInGame):
        await services.conditions.add(game.id, CAROL.id, "c3 d4")
    with pytest.raises(errors.IllegalMove, match=r"^f9"):
        await services.conditions.add(game.id, BOB.id, "c3 d4; c4 f9")
    with pytest.raises(errors.InvalidSetting, match="ends with your opponent's move"):
        await services.conditions.add(game.id, BOB.id, "c3")
    free = [f + r for f in "abcde" for r in "12345" if f + r not in ("a1", "e5", "d4")]
    await services.conditions.add(game.id, BOB.id, "; ".join(f"{sq} d4" for sq in free[:11]))
    more = "; ".join(f"{sq} d4" for sq in free[11:21])
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_LINES} lines"):
        await services.conditions.add(game.id, BOB.id, more)
    assert len((await services.conditions.show(game.id, BOB.id)).lines) == 11
    await services.games.resign(game.id, BOB.id)
    assert await stored_rows(services) == []  # the game's end clears them
    with pytest.raises(errors.InvalidSetting, match="is over"):
        await services.conditions.add(game.id, BOB.id, "c3 d4")


async def test_an_undo_clears_the_lines_and_tells_their_owner(services, new_game, moves) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4")
    await services.db.write_one(  # lines of Alice's from a position long gone: nobody is told
        "INSERT INTO conditional_moves (game_id, player_id, lines, version, updated_at) "
        "VALUES (?, ?, 'e4 b2', 0, '2026-01-01T00:00:00')",
        (game.id, ALICE.id),
    )
    await services.games.request_undo(game.id, BOB.id)
    await services.games.accept_undo(game.id, ALICE.id)
    assert await stored_rows(services) == []
    [told] = await announced(services, game.id, ConditionsDropped.KIND)
    assert (told.player_id, told.reason, told.stream) == (BOB.id, "undo", f"conditions:1:{BOB.id}")
    await moves(game.id, "e4")  # Bob plays again, then Alice's c3 is not answered
    assert (await moves(game.id, "c3"))[0].answer is None


async def test_lines_of_a_position_the_game_left_never_apply(services, new_game, moves) -> None:
    """Lines entered at ply 2, then the game moved on by an undo and the same moves again: the
    position is the same, the lines are not its any more."""
    game = await new_game()
    await moves(game.id, "a1 e5 c2")
    await services.conditions.add(game.id, ALICE.id, "d4 c3")
    await services.db.write_one(  # as if the undo's clearing had been lost
        "UPDATE conditional_moves SET version = version - 2"
    )
    assert (await services.conditions.show(game.id, ALICE.id)).lines == ()
    assert (await moves(game.id, "d4"))[0].answer is None
    assert await stored_rows(services) == []


async def test_an_answer_that_ends_the_game_ends_it(services, new_game, moves) -> None:
    game = await new_game(size=3)
    await moves(game.id, "a1 c3 c1 a3")  # Alice (white) holds c3, c1; Bob a1, a3
    await services.conditions.add(game.id, BOB.id, "b1 a2")  # Bob's road on the a file
    outcome = (await moves(game.id, "b1"))[0]
    assert outcome.answer is not None and outcome.answer.ending is not None
    assert outcome.answer.ending.game.winner == BOB
    [ended] = await announced(services, game.id, "ending")
    assert isinstance(ended, GameEnded) and ended.by_condition and ended.move == "a2"
    assert await stored_rows(services) == []


async def test_the_answering_clock_does_not_run(services, new_game, moves, clock) -> None:
    game = await new_game(bank=timedelta(days=3))
    await moves(game.id, "a1 e5")
    bob_left = (await services.games.get(game.id)).clock_left[1]
    await services.conditions.add(game.id, BOB.id, "c3 d4")
    per_move = timedelta(days=game.setup.days_per_move)
    clock.advance(per_move + timedelta(hours=6))  # the time a move has, then 6 hours of bank
    await moves(game.id, "c3")
    stored = await services.games.get(game.id)
    assert stored.ply == 4 and stored.last_move == "d4"
    assert stored.clock_left == (timedelta(days=3) - timedelta(hours=6), bob_left)
    assert stored.deadline_at == clock.now() + per_move + stored.clock_left[0]


async def test_an_answer_pays_a_tak_it_owes(services: Services) -> None:
    game, _ = await staked_game(services, alice_bid=5, bob_bid=3)
    plies = TOKEN_GAME.split()
    for text in plies[:6]:
        current = await services.games.get(game.id)
        await services.games.move(game.id, current.player_to_move.id, text)
    await services.conditions.add(game.id, BOB.id, f"{plies[6]} {plies[7]}")
    bob_before = await balance(services, BOB)
    outcome = await services.games.move(game.id, ALICE.id, plies[6])  # Alice calls Tak
    assert outcome.tak and outcome.answer is not None and outcome.answer.move == plies[7]
    assert await balance(services, BOB) == bob_before - 2
    answer = (await announced(services, game.id, "move"))[-1]
    assert isinstance(answer, MovePlayed)
    assert (answer.by_condition, answer.paid, answer.owes_id) == (True, 2, None)
    await ledger_consistent(services)


async def test_an_answer_that_cannot_pay_drops_the_lines(services: Services) -> None:
    game, _ = await staked_game(services, alice_bid=5, bob_bid=3)
    await services.wallets.grant(GUILD, BOB, -89)  # Bob keeps 1 coin after his ante
    plies = TOKEN_GAME.split()
    for text in plies[:6]:
        current = await services.games.get(game.id)
        await services.games.move(game.id, current.player_to_move.id, text)
    await services.conditions.add(game.id, BOB.id, f"{plies[6]} {plies[7]}")
    outcome = await services.games.move(game.id, ALICE.id, plies[6])
    assert outcome.answer is None
    stored = await services.games.get(game.id)
    assert stored.ply == 7 and stored.player_to_move == BOB
    assert await stored_rows(services) == []
    [told] = await announced(services, game.id, ConditionsDropped.KIND)
    assert (told.player_id, told.reason, told.move) == (BOB.id, "illegal", plies[7])
    assert "you have 1" in told.detail
    played = await announced(services, game.id, "move")
    assert played[-1].move == plies[6] and not played[-1].answered
    await ledger_consistent(services)


async def test_the_calls_are_worked_out_before_the_write(
    services, new_game, moves, monkeypatch
) -> None:
    """The Tak and Tinuë search (up to a good part of a second) never holds the write
    transaction: the answer's call is foreseen with the move's, both before it."""
    game = await new_game(size=3)
    await moves(game.id, "a1 c3 c1")  # Bob to move; Alice (white) holds c3, c1
    await services.conditions.add(game.id, ALICE.id, "a3 b1")
    writing: list[bool] = []
    searched: list[bool] = []  # for each search: whether a write transaction was open
    original_call, original_transaction = service.call_after, services.db.transaction

    async def recording_call(position):
        searched.append(bool(writing))
        return await original_call(position)

    @contextlib.asynccontextmanager
    async def tracked_transaction():
        async with original_transaction() as tx:
            writing.append(True)
            try:
                yield tx
            finally:
                writing.pop()

    monkeypatch.setattr(service, "call_after", recording_call)
    monkeypatch.setattr(services.db, "transaction", tracked_transaction)
    outcome = (await moves(game.id, "a3"))[0]
    assert outcome.answer is not None and outcome.answer.move == "b1"
    assert outcome.answer.tak  # white threatens c2 (the c file) and the first row
    assert searched and not any(searched)
    # Each position searched once: the move's (by the quick path, which then stepped aside
    # for the lines) and the answer's.
    assert len(searched) == 2


async def test_the_consistency_check_finds_lines_left_in_a_finished_game(
    services, new_game, moves
) -> None:
    version = await services.db.schema_version()
    [check] = applicable({"games", "conditional_moves"}, version)

    async def broken() -> int:
        row = await services.db.fetchone(check.query)
        assert row is not None
        return int(row[0])

    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4")
    assert await broken() == 0
    await services.games.resign(game.id, ALICE.id)
    assert await broken() == 0  # the end cleared them
    await services.db.write_one(  # as a bug or a hand edit would leave one
        "INSERT INTO conditional_moves (game_id, player_id, lines, version, updated_at) "
        "VALUES (?, ?, 'c3 d4', 0, '2026-01-01T00:00:00')",
        (game.id, BOB.id),
    )
    assert await broken() == 1


async def test_an_answer_the_engine_refuses_when_played_drops_the_lines(
    services, new_game, moves
) -> None:
    """Lines are checked when entered; one stored otherwise (by another version of Bredon, by
    hand) is checked again when played."""
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4")
    await services.db.write_one("UPDATE conditional_moves SET lines = 'c3 c3'")
    outcome = (await moves(game.id, "c3"))[0]
    assert outcome.answer is None
    assert (await services.games.get(game.id)).player_to_move == BOB
    [told] = await announced(services, game.id, ConditionsDropped.KIND)
    assert (told.player_id, told.reason, told.move) == (BOB.id, "illegal", "c3")
    assert "c3" in told.detail and await stored_rows(services) == []


async def test_a_stored_row_not_in_pairs_never_stops_the_game(services, new_game, moves) -> None:
    """A row not written by Bredon (edited by hand: a line with an odd number of plies) is left
    out: the opponent's move goes in, and the lines that are in pairs still answer."""
    game = await new_game()
    await moves(game.id, "a1 e5")
    await services.conditions.add(game.id, BOB.id, "c3 d4")
    async with services.db.transaction() as tx:
        await tx.execute(
            "UPDATE conditional_moves SET lines = ? WHERE game_id = ?",
            ("b2 b3 c2\nc3 d4", game.id),
        )
    outcome = (await moves(game.id, "c3"))[0]
    assert outcome.answer is not None and outcome.answer.move == "d4"
    await moves(game.id, "a2")  # Bob to move: Alice's row below is for his reply
    async with services.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO conditional_moves (game_id, player_id, lines, version, updated_at) "
            "SELECT id, ?, 'a3 a4 a5', version, '2026-01-01T00:00:00+00:00' FROM games "
            "WHERE id = ?",
            (ALICE.id, game.id),
        )
    assert (await moves(game.id, "a3"))[0].answer is None  # an odd row: no answer, no stop
    assert (await services.games.get(game.id)).ply == 6


async def test_lines_shown_with_move_numbers_may_be_entered_again(
    services, new_game, moves
) -> None:
    game = await new_game()
    await moves(game.id, "a1 e5")
    entered = await services.conditions.add(game.id, BOB.id, "2. c3 d4 3. c4 d5")
    assert entered.numbered() == ["2. c3 d4 3. c4 d5"]
    await services.conditions.clear(game.id, BOB.id)
    again = await services.conditions.add(game.id, BOB.id, entered.numbered()[0])
    assert again.lines == (("c3", "d4", "c4", "d5"),)


@pytest.mark.parametrize("replaced", ["waiting", "to move"])
async def test_a_replacement_clears_the_lines_of_the_games_it_hands_over(
    services, replaced: str
) -> None:
    """The old player's lines are not the new one's, and the opponent's answered someone else:
    both go with the game handed over (no stale row left for the old player)."""
    tournament = await new_tournament(services, [ANN, BEN], games_per_match=1, size=5)
    progress = await start(services, tournament.id)
    game = await active_game(services, progress.rounds[0].pairings[0].match_id or 0)
    for ptn in ("a1", "e5"):
        game = (await services.games.move(game.id, game.player_to_move.id, ptn)).game
    waiting = game.opponent_of(game.player_to_move.id)
    await services.conditions.add(game.id, waiting.id, "c3 d4")
    old = waiting if replaced == "waiting" else game.player_to_move
    organizer = {"actor_id": ORGANIZER.id, "is_organizer": True}
    await services.entry.replace(tournament.id, old.id, EVE, **organizer)
    assert await stored_rows(services) == []
    handed = await services.games.get(game.id)
    assert EVE in (handed.white, handed.black)
    outcome = await services.games.move(game.id, handed.player_to_move.id, "c3")
    assert outcome.answer is None


async def test_lines_past_the_size_limits_are_refused_before_any_is_read(
    services, new_game, moves, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100,000 lines took 15-25 s when each was played through before the count was checked:
    the size as sent is refused first, no line read (counted, not timed)."""
    game = await new_game()
    await moves(game.id, "a1 e5")
    read: list[str] = []
    checked_line = conditions.checked_line

    def counted(start: object, text: str) -> list[str]:
        read.append(text)
        return checked_line(start, text)  # type: ignore[arg-type]

    monkeypatch.setattr(conditions, "checked_line", counted)
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_TEXT:,} characters"):
        await services.conditions.add(game.id, BOB.id, "\n".join(["c3 d4"] * 100_000))
    too_many = "; ".join(["c3 d4"] * (MAX_LINES + 1))
    assert len(too_many) <= MAX_TEXT
    with pytest.raises(errors.InvalidSetting, match=f"at most {MAX_LINES} lines at once"):
        await services.conditions.add(game.id, BOB.id, too_many)
    assert read == []
    await services.conditions.add(game.id, BOB.id, "; ".join(["c3 d4"] * MAX_LINES))
    assert len(read) == MAX_LINES  # within the limits, each line is read
    assert len((await services.conditions.show(game.id, BOB.id)).lines) == 1
