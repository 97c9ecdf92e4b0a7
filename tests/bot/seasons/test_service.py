"""A season league through the services: eight players cut into two divisions, one round a
period with its deadline (an unfinished match adjudicated), promotion and relegation, the next
season's divisions, the hall of fame; refusals that change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.errors import (
    AlreadyEntered,
    InvalidSetting,
    NotEnoughPlayers,
    NotOrganizer,
    SeasonRefused,
)
from bot.games.model import GameRequest, GameSetup
from bot.players.model import PlayerRef
from bot.seasons.league import LeagueRules, SeasonStatus, SeasonView
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from bot.tournaments.tournament import TournamentStatus
from tests.bot.setups import games_in_channel
from tests.bot.tournament_helpers import CHANNEL, GUILD, ORGANIZER, active_game, play_moves, win

PLAYERS = [PlayerRef(501 + i, name) for i, name in enumerate("abcdefgh")]
WEEK = timedelta(days=7)


async def new_league(services: Services, **rules: int | str) -> None:
    await services.seasons.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organizer=ORGANIZER,
        is_organizer=True,
        name="Ladder",
        rules=LeagueRules.create(**{"division_size": 4, "games_per_match": 1, **rules}),
        setup=GameSetup.create(GameRequest(), size=3, komi=0, days_per_move=3),
    )


def stronger_id(game) -> int:
    """The player earlier in PLAYERS wins."""
    return min((game.white, game.black), key=PLAYERS.index).id


async def start_eight(services: Services) -> SeasonView:
    """The league made, the eight players signed up, season 1 started."""
    await new_league(services)
    for player in PLAYERS:
        await services.seasons.join(GUILD, player)
    return await services.seasons.start(GUILD, actor_id=ORGANIZER.id, is_organizer=True)


async def play_current_round(services: Services, tournament_id: int, *, leave_open: int = 0):
    """Every undecided match of the round won by the stronger player but the last
    `leave_open`, whose game is left in progress after one move each."""
    pairings = [p for p in (await services.tournaments.pairings(tournament_id)).pairings]
    undecided = [p for p in pairings if not p.is_decided]
    for index, pairing in enumerate(undecided):
        assert pairing.match_id is not None
        game = await active_game(services, pairing.match_id)
        if index >= len(undecided) - leave_open:
            await play_moves(services, game.id, "a1 c3")
        else:
            await win(services, game, stronger_id(game))


async def test_a_season_of_two_divisions_to_promotion_relegation_and_the_next_season(
    services: Services, clock: FakeClock
) -> None:
    season = await start_eight(services)
    assert season.status is SeasonStatus.RUNNING and season.due_at == clock.now() + WEEK
    top, bottom = await services.seasons.divisions(season.id)
    assert [e.player for e in await services.tournaments.entrants(top.tournament_id)] == PLAYERS[:4]
    assert [e.player for e in await services.tournaments.entrants(bottom.tournament_id)] == (
        PLAYERS[4:]
    )

    # Round 1 played at once: round 2 waits for the period's end all the same.
    for division in (top, bottom):
        await play_current_round(services, division.tournament_id)
        tournament = await services.tournaments.get(division.tournament_id)
        assert tournament.current_round == 1 and tournament.status is TournamentStatus.RUNNING
    clock.advance(WEEK - timedelta(seconds=1))
    assert await services.seasons.run_due() == 0
    clock.advance(timedelta(seconds=1))
    assert await services.seasons.next_due_at() == clock.now()
    assert await services.seasons.run_due() == 1
    assert (await services.tournaments.get(top.tournament_id)).current_round == 2

    # Round 2: one match of the bottom division unfinished at the deadline, adjudicated drawn
    # (no game finished), its game stopped.
    await play_current_round(services, top.tournament_id)
    await play_current_round(services, bottom.tournament_id, leave_open=1)
    [open_pairing] = [
        p
        for p in (await services.tournaments.pairings(bottom.tournament_id)).pairings
        if not p.is_decided
    ]
    clock.advance(WEEK)
    assert await services.seasons.run_due() == 1
    decided = (await services.tournaments.pairings(bottom.tournament_id, 2)).pairings
    [adjudicated] = [p for p in decided if p.id == open_pairing.id]
    assert adjudicated.is_decided and adjudicated.winner is None and not adjudicated.forfeit
    assert open_pairing.match_id is not None
    [stopped] = await services.matches.games(open_pairing.match_id)
    assert stopped.status.value == "aborted"

    # Round 3, then the season's end at its deadline.
    for division in (top, bottom):
        await play_current_round(services, division.tournament_id)
    assert (await services.seasons.season(season.id)).status is SeasonStatus.RUNNING
    clock.advance(WEEK)
    assert await services.seasons.run_due() == 1
    finished = await services.seasons.season(season.id)
    assert finished.status is SeasonStatus.FINISHED

    moves = {
        m.player: (m.division, m.place, m.next_division)
        for m in await services.seasons.moves(season.id)
    }
    a, b, c, d, e, f, g, h = PLAYERS
    assert moves[a] == (1, 1, 1) and moves[d] == (1, 4, 2)  # the last of the top goes down
    assert moves[e] == (2, 1, 1) and moves[h][2] == 2  # the first of the bottom goes up
    honours = await services.seasons.hall_of_fame(GUILD)
    assert [(h.season, h.division, h.player) for h in honours] == [(1, 1, a), (1, 2, e)]

    # Everyone still in is signed up for season 2, which starts a period later by itself.
    [_, upcoming] = await services.seasons.seasons(GUILD)
    assert upcoming.status is SeasonStatus.SIGNUP and upcoming.player_count == 8
    assert upcoming.due_at == clock.now() + WEEK
    clock.advance(WEEK)
    assert await services.seasons.run_due() == 1
    top2, bottom2 = await services.seasons.divisions(upcoming.id)
    top_players = {e.player for e in await services.tournaments.entrants(top2.tournament_id)}
    bottom_players = {e.player for e in await services.tournaments.entrants(bottom2.tournament_id)}
    assert top_players == {a, b, c, e} and bottom_players == {d, f, g, h}


async def test_refusals_change_nothing(services: Services) -> None:
    with pytest.raises(SeasonRefused, match="no season league yet"):
        await services.seasons.join(GUILD, PLAYERS[0])
    with pytest.raises(InvalidSetting, match="A division has 3 to 16 players"):
        LeagueRules.create(division_size=2)
    with pytest.raises(InvalidSetting, match="Up to 2 players can go up and down"):
        LeagueRules.create(division_size=4, movers=3)
    await new_league(services)
    with pytest.raises(SeasonRefused, match="has a season league already"):
        await new_league(services)
    with pytest.raises(NotOrganizer):
        await services.seasons.start(GUILD, actor_id=PLAYERS[0].id, is_organizer=False)
    await services.seasons.join(GUILD, PLAYERS[0])
    with pytest.raises(AlreadyEntered):
        await services.seasons.join(GUILD, PLAYERS[0])
    with pytest.raises(NotEnoughPlayers, match="needs at least 2 players"):
        await services.seasons.start(GUILD, actor_id=ORGANIZER.id, is_organizer=True)
    with pytest.raises(SeasonRefused, match="No season of Ladder has started yet"):
        await services.seasons.standings(GUILD)
    left = await services.seasons.leave(GUILD, PLAYERS[0].id)
    assert left.signup is not None and left.withdrawn is None
    with pytest.raises(SeasonRefused, match="not signed up for a season of Ladder"):
        await services.seasons.leave(GUILD, PLAYERS[0].id)
    [season] = await services.seasons.seasons(GUILD)
    assert season.player_count == 0 and season.status is SeasonStatus.SIGNUP


async def test_a_swiss_season_with_a_withdrawal_and_a_late_sign_up(
    services: Services, clock: FakeClock
) -> None:
    """Five players in one Swiss division of four rounds; one leaves after round 1 (their later
    matches forfeited, not signed up again); one signs up while the season runs, for the next;
    one enters the division late."""
    await new_league(services, format="swiss", division_size=5, movers=0)
    field = PLAYERS[:5]
    for player in field:
        await services.seasons.join(GUILD, player)
    season = await services.seasons.start(GUILD, actor_id=ORGANIZER.id, is_organizer=True)
    [division] = await services.seasons.divisions(season.id)
    started = await services.tournaments.get(division.tournament_id)
    assert started.format.value == "swiss" and started.rounds_total == 4

    await play_current_round(services, division.tournament_id)
    leaver = field[4]
    left = await services.seasons.leave(GUILD, leaver.id)
    assert left.signup is None and left.withdrawn is not None
    late = await services.seasons.join(GUILD, PLAYERS[5])
    assert late.number == 2 and late.status is SeasonStatus.SIGNUP and late.due_at is None
    # A late entrant into the division, as into any Swiss: in its table at the end, and back.
    await services.entry.allow_late_entry(
        division.tournament_id, 3, actor_id=ORGANIZER.id, is_organizer=True
    )
    await services.entry.join_late(division.tournament_id, PLAYERS[6])

    for _ in range(4):
        clock.advance(WEEK)
        assert await services.seasons.run_due() == 1
        await play_current_round(services, division.tournament_id)
    finished = await services.seasons.season(season.id)
    assert finished.status is SeasonStatus.FINISHED
    moves = await services.seasons.moves(season.id)
    assert moves[0].player == field[0]  # the strongest wins every match
    assert all(m.next_division == 1 for m in moves)

    _, tables = await services.seasons.standings(GUILD, 1, 1)
    assert [row.player for row in tables[0].rows] == [m.player for m in moves]
    assert PLAYERS[6] in [m.player for m in moves] and leaver in [m.player for m in moves]
    [_, upcoming] = await services.seasons.seasons(GUILD)
    # Four returning, the late entrant and the sign-up during the season; not the leaver.
    assert upcoming.player_count == 6
    assert upcoming.due_at == clock.now() + WEEK


async def test_a_season_ended_early_on_the_results_so_far(
    services: Services, clock: FakeClock
) -> None:
    season = await start_eight(services)
    top, bottom = await services.seasons.divisions(season.id)
    await play_current_round(services, top.tournament_id)
    await play_current_round(services, bottom.tournament_id, leave_open=2)
    with pytest.raises(NotOrganizer):
        await services.seasons.close_round(
            GUILD, actor_id=PLAYERS[0].id, is_organizer=False, last=True
        )

    ended = await services.seasons.close_round(
        GUILD, actor_id=ORGANIZER.id, is_organizer=True, last=True
    )
    assert ended.status is SeasonStatus.FINISHED
    for division in (top, bottom):
        tournament = await services.tournaments.get(division.tournament_id)
        assert tournament.status is TournamentStatus.FINISHED and tournament.current_round == 1
    assert await games_in_channel(services, CHANNEL) == []  # the open games were stopped
    moves = [(m.player, m.place, m.next_division) for m in await services.seasons.moves(season.id)]
    a, b, c, d, e, f, g, h = PLAYERS
    # Round 1 of the top division: a beat d and b beat c (all else level: seeds decide); the
    # bottom division's two matches were adjudicated drawn (no game finished): seeds again.
    assert moves == [
        (a, 1, 1),
        (b, 2, 1),
        (c, 3, 1),
        (d, 4, 2),
        (e, 1, 1),
        (f, 2, 2),
        (g, 3, 2),
        (h, 4, 2),
    ]
    with pytest.raises(SeasonRefused, match="No season of Ladder is running"):
        await services.seasons.close_round(GUILD, actor_id=ORGANIZER.id, is_organizer=True)
