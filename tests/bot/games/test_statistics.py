"""A player's statistics (`/profile stats`) against an independent count: games played through
the services, then counted by a plain loop over the finished games and the raw move log."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from statistics import median

from hypothesis import given
from hypothesis import strategies as st

from bot.games.model import GameSetup, GameStatus, GameView
from bot.games.statistics import PlayedMove, statistics_of
from bot.players.model import PlayerRef
from bot.store import from_db
from tak import Color, Opening, Result, ResultKind
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.setups import create_challenge

ROAD_3X3 = "a3 a1 b1 b3 c1"


def least_image(size: int, *squares: str) -> str:
    """The first in PTN's order of the squares' images under the board's rotations by a quarter
    turn and their mirror images (an independent way to the eight symmetries)."""

    def quarter_turn(square: tuple[int, int]) -> tuple[int, int]:
        return square[1], size - 1 - square[0]

    points = [(ord(square[0]) - ord("a"), int(square[1]) - 1) for square in squares]
    images = []
    for mirrored in (points, [(size - 1 - x, y) for x, y in points]):
        for _turns in range(4):
            images.append(" ".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in mirrored))
            mirrored = [quarter_turn(point) for point in mirrored]
    return min(images)


async def test_the_statistics_agree_with_a_count_over_the_games_and_the_move_log(
    services, clock, new_game, moves
) -> None:
    async def slowly(game_id: int, text: str, minutes: int) -> None:
        for move in text.split():
            clock.advance(minutes=minutes)
            await moves(game_id, move)

    road = await new_game(size=3)
    await slowly(road.id, ROAD_3X3, 7)
    resigned = await new_game(colour="black")
    await slowly(resigned.id, "a1 e5 c3", 30)
    await services.games.resign(resigned.id, ALICE.id)
    drawn = await new_game()
    await slowly(drawn.id, "a1 e5 c3 c4", 3)
    await services.games.offer_draw(drawn.id, ALICE.id)
    await services.games.accept_draw(drawn.id, BOB.id)
    again = await new_game(size=3)
    await slowly(again.id, ROAD_3X3, 60)
    aborted = await new_game()
    await services.games.abort(aborted.id, ALICE.id)
    await new_game()  # still being played
    challenge = await create_challenge(
        services, guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=CAROL, size=4
    )
    practice = (await services.challenges.accept(challenge.id, CAROL)).game
    await services.games.resign(practice.id, CAROL.id)

    found = await services.lookup.statistics(ALICE.id, GUILD, bot_id=CAROL.id)

    # The independent count: every game over, then the raw log of live moves.
    games = await services.lookup.finished_games(guild_id=GUILD, player_id=ALICE.id, limit=100)
    log = await services.db.fetchall(
        "SELECT game_id, ply, ptn, player_id, played_at FROM moves "
        "WHERE undone_at IS NULL ORDER BY game_id, ply"
    )
    sizes: Counter[int] = Counter()
    colours: Counter[tuple[str, str]] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    openings: Counter[tuple[int, str, str]] = Counter()
    bot_games: Counter[str] = Counter()
    plies = []
    times = []
    for game in games:
        if game.status is not GameStatus.FINISHED:
            continue
        assert game.result is not None
        won = game.result.winner is not None and game.winner == ALICE
        lost = game.result.winner is not None and not won
        outcome = "win" if won else "loss" if lost else "draw"
        if CAROL.id in (game.white.id, game.black.id):
            bot_games[outcome] += 1
            continue
        sizes[game.setup.size] += 1
        colours["white" if game.white == ALICE else "black", outcome] += 1
        kinds[outcome, game.result.kind.value] += 1
        rows = [row for row in log if row["game_id"] == game.id]
        plies.append(len(rows))
        if len(rows) >= 2:
            opening = least_image(game.setup.size, rows[0]["ptn"], rows[1]["ptn"])
            openings[game.setup.size, opening, outcome] += 1
        before = game.created_at
        for row in rows:
            at = from_db(row["played_at"])
            if row["player_id"] == ALICE.id:
                times.append((at - before).total_seconds())
            before = at

    assert found.games == sum(sizes.values()) == 4
    assert {size: tally.games for size, tally in found.by_size.items()} == dict(sizes)
    assert (found.as_white.wins, found.as_white.losses, found.as_white.draws) == (
        colours["white", "win"],
        colours["white", "loss"],
        colours["white", "draw"],
    )
    assert (found.as_black.wins, found.as_black.losses, found.as_black.draws) == (
        colours["black", "win"],
        colours["black", "loss"],
        colours["black", "draw"],
    )
    assert {(k.value): n for k, n in found.wins_by.items()} == {
        kind: n for (outcome, kind), n in kinds.items() if outcome == "win"
    }
    assert {(k.value): n for k, n in found.losses_by.items()} == {
        kind: n for (outcome, kind), n in kinds.items() if outcome == "loss"
    }
    assert found.overall.draws == sum(n for (o, _), n in kinds.items() if o == "draw") == 1
    assert found.average_plies == sum(plies) / len(plies)
    assert found.move_seconds == median(times)
    assert found.timed_moves == len(times)
    assert {(o.size, o.moves): o.tally.games for o in found.openings} == {
        (size, text): sum(n for (s, t, _), n in openings.items() if (s, t) == (size, text))
        for size, text, _ in openings
    }
    assert [(h.opponent, h.tally.games) for h in found.opponents] == [(BOB, 4)]
    assert (found.against_bot.wins, found.against_bot.losses) == (
        bot_games["win"],
        bot_games["loss"],
    )
    assert found.against_bot.games == 1


async def test_an_opening_and_its_mirror_images_and_rotations_are_one(
    services, new_game, moves
) -> None:
    for opening in ("a1 e5", "e5 a1", "a5 e1", "e1 a5", "c3 a1", "a2 e5"):
        game = await new_game(size=5)
        await moves(game.id, opening)
        await services.games.resign(game.id, BOB.id)
    found = await services.lookup.statistics(ALICE.id, GUILD, bot_id=None)
    assert [(o.moves, o.tally.games) for o in found.openings] == [
        ("a1 e5", 4),  # a corner, then the opposite corner, however turned
        ("a2 e5", 1),  # the newest of those played once first
        ("c3 a1", 1),  # the moves keep their order: the centre, then a corner
    ]


async def test_one_size_and_a_player_without_games(services, new_game, moves) -> None:
    small = await new_game(size=3)
    await moves(small.id, ROAD_3X3)
    large = await new_game(size=6)
    await services.games.resign(large.id, BOB.id)
    only_six = await services.lookup.statistics(ALICE.id, GUILD, bot_id=None, size=6)
    assert list(only_six.by_size) == [6] and only_six.overall.wins == 1
    assert only_six.openings == ()  # resigned before two moves
    assert only_six.move_seconds is None
    nobody = await services.lookup.statistics(CAROL.id, GUILD, bot_id=None)
    assert nobody.games == 0 and nobody.against_bot.games == 0


# Synthetic games for the property: (size, the player's colour, opponent, winner, kind, plies).
GAME = st.tuples(
    st.sampled_from([3, 4, 5, 6]),
    st.sampled_from([Color.WHITE, Color.BLACK]),
    st.sampled_from([BOB, CAROL, PlayerRef(404, "dave")]),
    st.sampled_from([Color.WHITE, Color.BLACK, None]),
    st.sampled_from([ResultKind.ROAD, ResultKind.FLATS, ResultKind.RESIGNATION, ResultKind.TIME]),
    st.integers(0, 40),
    st.sampled_from([GameStatus.FINISHED, GameStatus.ABORTED]),
)
START = datetime(2026, 1, 1, tzinfo=UTC)


def synthetic(number: int, spec) -> tuple[GameView, list[PlayedMove]]:
    size, colour, opponent, winner, kind, plies, status = spec
    white, black = (ALICE, opponent) if colour is Color.WHITE else (opponent, ALICE)
    result = None if status is GameStatus.ABORTED else Result(winner, kind)
    setup = GameSetup(size, 2.0, Opening.SWAP, (21, 21), (1, 1), 3, True)
    nothing = dict.fromkeys(
        [
            "thread_id",
            "message_id",
            "points",
            "last_move",
            "draw_offer_by",
            "undo_request_by",
            "deadline_at",
            "reminder_at",
            "match_id",
            "match_game",
            "last_move_at",
        ]
    )
    game = GameView(
        id=number,
        guild_id=GUILD,
        channel_id=CHANNEL,
        white=white,
        black=black,
        setup=setup,
        status=status,
        result=result,
        ply=plies,
        tps="",
        created_at=START,
        finished_at=START,
        **nothing,
    )
    log = [
        PlayedMove(ply, f"a{ply}", (white, black)[(ply - 1) % 2].id, START + timedelta(ply))
        for ply in range(1, plies + 1)
    ]
    return game, log


@given(st.lists(GAME, max_size=30))
def test_every_game_counts_once_in_each_breakdown(specs) -> None:
    made = [synthetic(number, spec) for number, spec in enumerate(specs)]
    games = [game for game, _ in made]
    found = statistics_of(ALICE.id, games, {g.id: log for g, log in made}, bot_id=CAROL.id)
    finished = [g for g in games if g.status is GameStatus.FINISHED]
    against_players = [g for g in finished if CAROL not in (g.white, g.black)]
    assert found.games == len(against_players)
    assert found.against_bot.games == len(finished) - len(against_players)
    assert sum(t.games for t in found.by_size.values()) == found.games
    assert found.as_white.games + found.as_black.games == found.games
    assert sum(found.wins_by.values()) == found.overall.wins
    assert sum(found.losses_by.values()) == found.overall.losses
    assert found.overall.wins == sum(g.winner == ALICE for g in against_players)
    assert sum(h.tally.games for h in found.opponents) == found.games  # at most two opponents
    assert found.timed_moves == sum(
        len(log) // 2 + len(log) % 2 * (g.white == ALICE) for g, log in made if g in against_players
    )
