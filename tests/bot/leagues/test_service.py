"""Team leagues through the services on a real database: teams, rosters and substitutes,
lineups before the deadline, the games made at it (also after a restart), colours by board,
forfeits, results, standings and the refusals."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.errors import LeagueGameAbort, LeagueRefused, NotOrganizer
from bot.games.model import GameStatus
from bot.leagues.model import LeagueStatus, LeagueView
from bot.leagues.service import lineup_reminder_at
from bot.notifications.outbox import LeagueNews
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from tests.bot.conftest import CHANNEL, GUILD, deliver_everything, play
from tests.bot.setups import create_challenge

# 3x3 roads: white's a1-b1-c1, black's c1-c2-c3.
WHITE_ROAD = "a3 a1 b1 b3 c1"
BLACK_ROAD = "a1 c3 c2 b1 b3 c1"

ANN, BEN, CAT, DAN, EVE, FAY, GUS = (
    PlayerRef(1000 + i, name)
    for i, name in enumerate(("ann", "ben", "cat", "dan", "eve", "fay", "gus"))
)
OLGA = PlayerRef(999, "olga")


async def new_league(services: Services, **options) -> LeagueView:
    settings = {"boards": 2, "size": 3, "komi": 0, "days_per_move": 2, "round_days": 3}
    return await services.leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        name=options.pop("name", "Winter League"),
        organizer=OLGA,
        is_organizer=True,
        **{**settings, **options},
    )


async def three_teams(services: Services, **options) -> LeagueView:
    """Rooks (ann, ben and the substitute gus), Bishops (cat, dan), Knights (eve, fay)."""
    league = await new_league(services, **options)
    for name, captain, mate in (("Rooks", ANN, BEN), ("Bishops", CAT, DAN), ("Knights", EVE, FAY)):
        await services.leagues.add_team(league.id, name, captain, is_organizer=True)
        await services.leagues.add_to_roster(league.id, captain.id, mate)
    await services.leagues.add_to_roster(league.id, ANN.id, GUS)
    return league


async def win_all(services: Services, league_id: int, winner: str) -> None:
    """Every active board of the league won by the home or the away side."""
    for match in await services.leagues.matches(league_id):
        for board in match.boards:
            if board.game_id is None:
                continue
            game = await services.games.get(board.game_id)
            if not game.is_active:
                continue
            home_white = board.home_white
            white_wins = home_white if winner == "home" else not home_white
            await play(services, game.id, WHITE_ROAD if white_wins else BLACK_ROAD)


async def test_a_league_of_three_teams_played_to_the_end(
    services: Services, clock: FakeClock
) -> None:
    league = await three_teams(services)
    started = await services.leagues.start(league.id, is_organizer=True)
    assert started.status is LeagueStatus.RUNNING
    rounds = await services.leagues.rounds(league.id)
    assert [r.number for r in rounds] == [1, 2, 3]
    assert [r.lineup_deadline - clock.now() for r in rounds] == [
        r.number * (rounds[0].lineup_deadline - clock.now()) for r in rounds
    ]
    matches = await services.leagues.matches(league.id)
    assert sum(m.is_bye for m in matches) == 3  # one bye a round, each team one
    assert sorted(m.home_id for m in matches if m.is_bye) == sorted(
        t.id for t in await services.leagues.teams(league.id)
    )

    teams = {t.name: t for t in await services.leagues.teams(league.id)}
    rooks_match = next(
        m for m in matches if m.round == 1 and teams["Rooks"].id in (m.home_id, m.away_id)
    )
    if rooks_match.is_bye:
        rooks_match = next(
            m for m in matches if m.round == 2 and teams["Rooks"].id in (m.home_id, m.away_id)
        )
    number = rooks_match.round
    # The Rooks' captain puts the substitute on board 1 for their first match.
    await services.leagues.set_lineup(league.id, ANN.id, [GUS.id, ANN.id], number)
    assert await services.leagues.lineup(rooks_match.id, teams["Rooks"].id) == [GUS.id, ANN.id]

    clock.set(rounds[0].lineup_deadline)
    # The reminder a day before was missed: it is not sent once the deadline has passed.
    assert await services.leagues.next_due_at() == rounds[0].lineup_deadline - timedelta(days=1)
    assert await services.leagues.run_due() == 1
    assert await services.leagues.run_due() == 0  # each round once
    round_one = await services.leagues.matches(league.id, 1)
    [played] = [m for m in round_one if not m.is_bye]
    assert [len(m.boards) for m in round_one] == [2, 0]
    for board in played.boards:
        game = await services.games.get(board.game_id)
        home_colour = game.white if board.board == 1 else game.black
        assert home_colour == board.home  # white on board 1 for the home team, black on 2
        assert game.setup.size == 3
    for number_ in (2, 3):
        clock.set(rounds[number_ - 1].lineup_deadline)
        await services.leagues.run_due()
    all_boards = [
        (m.round, b.home, b.away)
        for m in await services.leagues.matches(league.id)
        for b in m.boards
    ]
    assert any(GUS in (home, away) for _, home, away in all_boards if _ == number)
    # Without a lineup the Rooks field their two best by rating: all unrated, the first two.
    later = next(
        m
        for m in await services.leagues.matches(league.id)
        if m.round != number and teams["Rooks"].id in (m.home_id, m.away_id) and not m.is_bye
    )
    side = "home" if later.home_id == teams["Rooks"].id else "away"
    assert [getattr(b, side) for b in later.boards] == [ANN, BEN]
    await win_all(services, league.id, "home")
    await deliver_everything(services, clock)

    finished = await services.leagues.get(league.id)
    assert finished.status is LeagueStatus.FINISHED
    table = await services.leagues.standings(league.id)
    # Each team was home once and away once (3 teams: one bye each): 2 + 0 match points.
    assert [(row.match_points, row.game_points, row.played) for row, _ in table] == [
        (2, 2.0, 2)
    ] * 3
    assert [row.place for row, _ in table] == [1, 1, 1]


async def test_the_games_are_made_at_the_deadline_after_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    services = await Services.open(db_path, clock=clock, rng=random.Random(7))
    league = await three_teams(services)
    await services.leagues.start(league.id, is_organizer=True)
    [first, *_] = await services.leagues.rounds(league.id)
    await services.close()

    clock.set(first.lineup_deadline)
    again = await Services.open(db_path, clock=clock, rng=random.Random(7))
    try:
        assert await again.leagues.next_due_at() == first.lineup_deadline - timedelta(days=1)
        assert await again.leagues.run_due() == 1
        assert await again.leagues.next_due_at() > first.lineup_deadline
        [played] = [m for m in await again.leagues.matches(league.id, 1) if not m.is_bye]
        assert len([b for b in played.boards if b.game_id is not None]) == 2
    finally:
        await again.close()


async def test_a_missing_player_forfeits_the_board_and_games_cannot_be_aborted(
    services: Services, clock: FakeClock
) -> None:
    league = await new_league(services, round_days=1)
    await services.leagues.add_team(league.id, "Rooks", ANN, is_organizer=True)
    await services.leagues.add_to_roster(league.id, ANN.id, BEN)
    await services.leagues.add_team(league.id, "Bishops", CAT, is_organizer=True)
    await services.leagues.add_to_roster(league.id, CAT.id, DAN)
    await services.leagues.start(league.id, is_organizer=True)
    [match] = await services.leagues.matches(league.id, 1)
    home = next(t for t in await services.leagues.teams(league.id) if t.id == match.home_id)
    await services.leagues.set_lineup(league.id, home.captain.id, [home.captain.id])
    clock.advance(days=1)
    await services.leagues.run_due()
    [match] = await services.leagues.matches(league.id, 1)
    one, two = match.boards
    assert two.game_id is None and two.decided and (two.home_halves, two.away_halves) == (0, 2)
    with pytest.raises(LeagueGameAbort):
        game = await services.games.get(one.game_id)
        await services.games.abort(game.id, game.white.id)
    # Nobody moves: white loses on time rather than the board being aborted.
    await deliver_everything(services, clock)
    clock.advance(days=3)
    await services.deadlines.run_due()
    [match] = await services.leagues.matches(league.id, 1)
    assert match.decided
    assert match.halves == (0, 4)  # white (home, board 1) lost on time; board 2 forfeited
    [(winner, _), (loser, _)] = await services.leagues.standings(league.id)
    assert (winner.team, winner.match_points, loser.match_points) == (match.away_id, 2, 0)


async def test_refusals_change_nothing(services: Services, clock: FakeClock) -> None:
    league = await three_teams(services)
    before = await services.leagues.teams(league.id)
    with pytest.raises(NotOrganizer):
        await services.leagues.add_team(league.id, "Pawns", OLGA, is_organizer=False)
    with pytest.raises(LeagueRefused, match="already on Rooks"):
        await services.leagues.add_to_roster(league.id, CAT.id, GUS)  # a player on two teams
    with pytest.raises(LeagueRefused, match="Only a team's captain"):
        await services.leagues.add_to_roster(league.id, BEN.id, PlayerRef(5, "zed"))
    with pytest.raises(LeagueRefused, match="at least 2 players"):
        await services.leagues.remove_from_roster(league.id, CAT.id, DAN.id)  # too few players
    with pytest.raises(LeagueRefused, match="not on the roster"):
        await services.leagues.remove_from_roster(league.id, CAT.id, ANN.id)
    with pytest.raises(LeagueRefused, match="has a team called Rooks"):
        await services.leagues.add_team(league.id, "rooks", OLGA, is_organizer=True)
    assert await services.leagues.teams(league.id) == before
    await services.leagues.add_team(league.id, "Pawns", OLGA, is_organizer=True)
    with pytest.raises(LeagueRefused, match="Pawns needs at least 2 players"):
        await services.leagues.start(league.id, is_organizer=True)
    await services.leagues.add_to_roster(league.id, OLGA.id, PlayerRef(5, "zed"))
    await services.leagues.start(league.id, is_organizer=True)

    rounds = await services.leagues.rounds(league.id)
    with pytest.raises(LeagueRefused, match="not on the roster of Rooks"):
        await services.leagues.set_lineup(league.id, ANN.id, [ANN.id, CAT.id], 1)
    with pytest.raises(LeagueRefused, match="Only a team's captain"):
        await services.leagues.set_lineup(league.id, BEN.id, [BEN.id], 1)
    with pytest.raises(LeagueRefused, match="1 to 2 players"):
        await services.leagues.set_lineup(league.id, ANN.id, [ANN.id, BEN.id, GUS.id], 1)
    with pytest.raises(LeagueRefused, match="one board only"):
        await services.leagues.set_lineup(league.id, ANN.id, [ANN.id, ANN.id], 1)
    clock.set(rounds[0].lineup_deadline)
    with pytest.raises(LeagueRefused, match="deadline for the lineups of round 1 has passed"):
        await services.leagues.set_lineup(league.id, ANN.id, [ANN.id, BEN.id], 1)
    with pytest.raises(LeagueRefused, match="has already started"):
        await services.leagues.start(league.id, is_organizer=True)
    assert (
        await services.leagues.lineup((await services.leagues.matches(league.id, 1))[0].id, 0)
        is None
    )


async def test_without_a_lineup_the_best_rated_play_best_first(
    services: Services, clock: FakeClock
) -> None:
    """Ben beat Ann in a rated game on the league's size: Ben (above 1500), the unrated Gus
    (1500) and not Ann (below) play for the Rooks, Ben on board 1."""
    challenge = await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=BEN,
        opponent=ANN,
        colour="white",
        size=3,
        komi=0,
    )
    game = (await services.challenges.accept(challenge.id, ANN)).game
    await play(services, game.id, WHITE_ROAD)
    league = await three_teams(services)
    await services.leagues.start(league.id, is_organizer=True)
    rooks = next(t for t in await services.leagues.teams(league.id) if t.name == "Rooks")
    for round_view in await services.leagues.rounds(league.id):
        clock.set(round_view.lineup_deadline)
        await services.leagues.run_due()
    [first, *_] = [
        m
        for m in await services.leagues.matches(league.id)
        if rooks.id in (m.home_id, m.away_id) and not m.is_bye
    ]
    side = "home" if first.home_id == rooks.id else "away"
    assert [getattr(b, side) for b in first.boards] == [BEN, GUS]


# ----------------------------------------------------------------- reminders, organizers


async def two_teams(services: Services, **options) -> LeagueView:
    """Rooks (ann, ben, gus) and Bishops (cat, dan)."""
    league = await new_league(services, **options)
    await services.leagues.add_team(league.id, "Rooks", ANN, is_organizer=True)
    await services.leagues.add_to_roster(league.id, ANN.id, BEN)
    await services.leagues.add_to_roster(league.id, ANN.id, GUS)
    await services.leagues.add_team(league.id, "Bishops", CAT, is_organizer=True)
    await services.leagues.add_to_roster(league.id, CAT.id, DAN)
    return league


async def league_news(services: Services) -> list[LeagueNews]:
    return [i.payload for i in await services.outbox.due() if isinstance(i.payload, LeagueNews)]


def test_the_reminder_is_a_day_before_or_halfway_through_a_short_round() -> None:
    deadline = datetime(2026, 12, 7, 12, tzinfo=UTC)
    assert lineup_reminder_at(deadline, 3) == deadline - timedelta(hours=24)
    assert lineup_reminder_at(deadline, 2) == deadline - timedelta(hours=24)
    assert lineup_reminder_at(deadline, 1) == deadline - timedelta(hours=12)


async def test_captains_without_a_lineup_are_reminded_once_across_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    services = await Services.open(db_path, clock=clock, rng=random.Random(7))
    try:
        league = await two_teams(services)
        await services.leagues.start(league.id, is_organizer=True)
        await deliver_everything(services, clock)
        [first, *_] = await services.leagues.rounds(league.id)
        await services.leagues.set_lineup(league.id, ANN.id, [BEN.id, ANN.id], 1)
        remind_at = first.lineup_deadline - timedelta(days=1)
        assert await services.leagues.next_due_at() == remind_at
        clock.set(remind_at - timedelta(minutes=1))
        assert await services.leagues.run_due() == 0
        clock.set(remind_at)
        assert await services.leagues.run_due() == 1
        bishops = next(t for t in await services.leagues.teams(league.id) if t.name == "Bishops")
        assert await league_news(services) == [
            LeagueNews(league.id, reminder=1, teams=(bishops.id,))
        ]
        assert await services.leagues.run_due() == 0
        assert await services.leagues.next_due_at() == first.lineup_deadline
    finally:
        await services.close()
    again = await Services.open(db_path, clock=clock, rng=random.Random(7))
    try:
        assert await again.leagues.run_due() == 0
        assert len(await league_news(again)) == 1
    finally:
        await again.close()


async def test_no_reminder_when_every_captain_has_set_a_lineup(
    services: Services, clock: FakeClock
) -> None:
    league = await two_teams(services, round_days=1)
    await services.leagues.start(league.id, is_organizer=True)
    await deliver_everything(services, clock)
    await services.leagues.set_lineup(league.id, ANN.id, [BEN.id, ANN.id], 1)
    await services.leagues.set_lineup(league.id, CAT.id, [CAT.id, DAN.id], 1)
    [first] = await services.leagues.rounds(league.id)
    clock.set(first.lineup_deadline - timedelta(hours=12))
    assert await services.leagues.next_due_at() == clock.now()
    assert await services.leagues.run_due() == 0
    assert await league_news(services) == []
    assert await services.leagues.next_due_at() == first.lineup_deadline


async def test_a_double_round_robin_meets_each_pair_twice_home_and_away(
    services: Services,
) -> None:
    league = await three_teams(services, legs=2)
    assert league.legs == 2
    await services.leagues.start(league.id, is_organizer=True)
    assert len(await services.leagues.rounds(league.id)) == 6
    meetings = [
        (m.home_id, m.away_id) for m in await services.leagues.matches(league.id) if not m.is_bye
    ]
    assert len(meetings) == 6
    assert sorted(meetings) == sorted((away, home) for home, away in meetings)
    with pytest.raises(LeagueRefused, match="once or twice"):
        await new_league(services, name="Triple", legs=3)


async def test_an_organizer_removes_a_team_before_the_start_only(services: Services) -> None:
    league = await three_teams(services)
    before = await services.leagues.teams(league.id)
    with pytest.raises(NotOrganizer):
        await services.leagues.remove_team(league.id, "Knights", is_organizer=False)
    with pytest.raises(LeagueRefused, match="no team called 'Pawns'"):
        await services.leagues.remove_team(league.id, "Pawns", is_organizer=True)
    assert await services.leagues.teams(league.id) == before
    removed = await services.leagues.remove_team(league.id, " knights ", is_organizer=True)
    assert removed.name == "Knights"
    assert [t.name for t in await services.leagues.teams(league.id)] == ["Rooks", "Bishops"]
    await services.leagues.add_team(league.id, "Knights", FAY, is_organizer=True)  # eve is free
    await services.leagues.add_to_roster(league.id, FAY.id, EVE)
    await services.leagues.start(league.id, is_organizer=True)
    with pytest.raises(LeagueRefused, match="has started: its teams stay"):
        await services.leagues.remove_team(league.id, "Knights", is_organizer=True)
    assert len(await services.leagues.teams(league.id)) == 3


async def test_an_organizer_makes_a_roster_player_captain(
    services: Services, clock: FakeClock
) -> None:
    league = await two_teams(services)
    await services.leagues.start(league.id, is_organizer=True)
    before = await services.leagues.teams(league.id)
    with pytest.raises(NotOrganizer):
        await services.leagues.set_captain(league.id, "Rooks", BEN, is_organizer=False)
    with pytest.raises(LeagueRefused, match="not on the roster of Rooks"):
        await services.leagues.set_captain(league.id, "Rooks", CAT, is_organizer=True)
    with pytest.raises(LeagueRefused, match="ann is already the captain of Rooks"):
        await services.leagues.set_captain(league.id, "Rooks", ANN, is_organizer=True)
    assert await services.leagues.teams(league.id) == before
    rooks = await services.leagues.set_captain(league.id, "rooks", BEN, is_organizer=True)
    assert rooks.captain == BEN and set(rooks.roster) == {ANN, BEN, GUS}
    with pytest.raises(LeagueRefused, match="Only a team's captain"):
        await services.leagues.set_lineup(league.id, ANN.id, [ANN.id], 1)
    await services.leagues.set_lineup(league.id, BEN.id, [GUS.id, BEN.id], 1)
    await services.leagues.remove_from_roster(league.id, BEN.id, ANN.id)  # no longer captain


async def test_cancelling_stops_the_games_scores_nothing_and_ends_the_league(
    services: Services, clock: FakeClock
) -> None:
    league = await two_teams(services)
    await services.leagues.start(league.id, is_organizer=True)
    [first, *_] = await services.leagues.rounds(league.id)
    clock.set(first.lineup_deadline)
    await services.leagues.run_due()
    await deliver_everything(services, clock)
    with pytest.raises(NotOrganizer):
        await services.leagues.cancel(league.id, is_organizer=False)
    assert (await services.leagues.get(league.id)).status is LeagueStatus.RUNNING

    cancelled, stopped = await services.leagues.cancel(league.id, is_organizer=True)
    assert cancelled.cancelled and cancelled.status is LeagueStatus.FINISHED and stopped == 2
    [match] = await services.leagues.matches(league.id, 1)
    assert not match.decided and match.halves == (0, 0)
    for board in match.boards:
        game = await services.games.get(board.game_id)
        assert game.status is GameStatus.ABORTED
    delivered = await deliver_everything(services, clock)
    assert delivered.count(f"ending:game:{match.boards[0].game_id}") == 1
    assert delivered[-1] == f"league:league:{league.id}"
    assert await services.leagues.next_due_at() is None  # no more rounds, no reminders
    with pytest.raises(LeagueRefused, match="Winter League is over"):
        await services.leagues.cancel(league.id, is_organizer=True)
    with pytest.raises(LeagueRefused, match="is over"):
        await services.leagues.set_captain(league.id, "Rooks", BEN, is_organizer=True)
