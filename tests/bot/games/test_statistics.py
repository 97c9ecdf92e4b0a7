"""A player's statistics (`/profile stats`) against an independent count: games played through
the services, then counted by a plain loop over the finished games and the raw move log."""

from __future__ import annotations

from collections import Counter
from statistics import median

from bot.games.model import GameStatus
from bot.store import from_db
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.setups import create_challenge

ROAD_3X3 = "a3 a1 b1 b3 c1"


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
            openings[game.setup.size, f"{rows[0]['ptn']} {rows[1]['ptn']}", outcome] += 1
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
