"""Tournament sign-up and organizer decisions: refusals that change nothing, seeding, withdrawals,
disqualification, forfeits, cancellation, and deadlines that move a round on."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.errors import (
    AlreadyEntered,
    GameOver,
    InvalidSetting,
    NoLongerPlaying,
    NoMatchToForfeit,
    NotEnoughPlayers,
    NotEntered,
    NotOrganizer,
    SignupClosed,
    TournamentFull,
    TournamentGameAbort,
    TournamentNameTaken,
    WrongTournamentStage,
)
from bot.games.model import GameRequest, GameStatus, MatchStatus
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from bot.tournaments.rules import RulesRequest, TournamentRules
from bot.tournaments.tournament import EntrantStatus, TournamentStatus
from tak import ResultKind
from tests.bot.setups import create_challenge
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    CHANNEL,
    DAN,
    EVE,
    GUILD,
    ORGANIZER,
    ROAD_POINTS,
    WHITE_ROAD,
    active_game,
    create_tournament,
    new_tournament,
    play_moves,
    play_round,
    start,
    win,
)

FOUR = (ANN, BEN, CAT, DAN)


# ----------------------------------------------------------------- settings and sign-up


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"format": "knockout"}, "format must be one of"),
        ({"format": "swiss"}, "Swiss tournament has 1 to"),
        ({"swiss_rounds": 3}, "Only a Swiss tournament"),
        ({"games_per_match": 0}, "A match has 1 to"),
        ({"max_players": 1}, "2 to 64 players"),
        ({"match_points": (1, 3, 0)}, "Match points must run"),
        ({"tie_breaks": ("buchholz", "buchholz")}, "listed once"),
        ({"tie_breaks": ("coin_toss",)}, "tie-break must be one of"),
        ({"scoring": "goals"}, "scoring must be one of"),
        ({"size": 9}, "board size"),
        ({"name": "   "}, "visible letters"),
        ({"name": "\u202e\u200b "}, "visible letters"),
        ({"name": "x" * 61}, "1 to 60 characters"),
        # What a tournament cannot keep of a game's setup is refused, not dropped.
        ({"antiquity": True}, "standard pieces and no tie rule"),
        ({"stones": 8}, "standard pieces and no tie rule"),
        ({"start_tps": "x3/x3/x3 1 1", "rated": True}, "never rated"),  # a thematic event
    ],
)
async def test_bad_settings_are_refused(services: Services, settings, message) -> None:
    with pytest.raises(InvalidSetting, match=message):
        await new_tournament(services, **settings)
    assert await services.tournaments.in_guild(GUILD) == []


async def test_only_organizers_create_and_names_are_unique_while_live(services: Services) -> None:
    with pytest.raises(NotOrganizer):
        await create_tournament(
            services,
            organizer=ANN,
            is_organizer=False,
            name="Mine",
            format="swiss",
            swiss_rounds=3,
        )
    first = await new_tournament(services, name="Spring Open")
    with pytest.raises(TournamentNameTaken):
        await new_tournament(services, name="spring  open")
    await services.tournaments.cancel(first.id, actor_id=ORGANIZER.id, is_organizer=True)
    again = await new_tournament(services, name="Spring Open")
    assert [t.id for t in await services.tournaments.in_guild(GUILD)] == [again.id]
    assert len(await services.tournaments.in_guild(GUILD, live_only=False)) == 2


async def test_sign_up_refusals(services: Services, clock: FakeClock) -> None:
    tournament = await new_tournament(
        services, (ANN, BEN), max_players=3, signup_deadline=clock.now() + timedelta(days=2)
    )
    with pytest.raises(AlreadyEntered):
        await services.tournaments.join(tournament.id, ANN)
    with pytest.raises(NotEntered):
        await services.tournaments.leave(tournament.id, CAT.id)
    await services.tournaments.join(tournament.id, CAT)
    with pytest.raises(TournamentFull):
        await services.tournaments.join(tournament.id, DAN)
    left = await services.tournaments.leave(tournament.id, CAT.id)
    assert left.player_count == 2
    clock.advance(days=2)
    with pytest.raises(SignupClosed):
        await services.tournaments.join(tournament.id, DAN)
    await start(services, tournament.id)
    with pytest.raises(WrongTournamentStage, match="has already started"):
        await services.tournaments.join(tournament.id, DAN)
    with pytest.raises(WrongTournamentStage):
        await services.tournaments.leave(tournament.id, ANN.id)
    with pytest.raises(WrongTournamentStage):
        await start(services, tournament.id)
    assert [e.player for e in await services.tournaments.entrants(tournament.id)] == [ANN, BEN]


async def test_starting_needs_enough_players(services: Services) -> None:
    lonely = await new_tournament(services, (ANN,))
    with pytest.raises(NotEnoughPlayers, match="at least 2 players"):
        await start(services, lonely.id)
    swiss = await new_tournament(services, FOUR, name="Swiss", format="swiss", swiss_rounds=4)
    with pytest.raises(NotEnoughPlayers, match="at least 5 players"):
        await start(services, swiss.id)
    assert (await services.tournaments.get(swiss.id)).status is TournamentStatus.SIGNUP
    assert await services.tournaments.standings(lonely.id) == []


async def test_rated_players_are_seeded_first_by_rating(services: Services) -> None:
    challenge = await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=DAN,
        opponent=CAT,
        size=3,
        colour="white",
    )
    game = (await services.challenges.accept(challenge.id, CAT)).game
    await play_moves(services, game.id, WHITE_ROAD)  # Dan beats Cat: both are rated on 3x3
    tournament = await new_tournament(services, FOUR, format="elimination")
    await start(services, tournament.id)
    entrants = await services.tournaments.entrants(tournament.id)
    assert [(e.player, e.seed) for e in entrants] == [(DAN, 1), (CAT, 2), (ANN, 3), (BEN, 4)]


# ----------------------------------------------------------------- organizer decisions


async def test_non_organizers_are_refused_and_the_creator_is_not(services: Services) -> None:
    tournament = await new_tournament(services, FOUR)
    for call in (
        lambda: services.tournaments.start(tournament.id, actor_id=ANN.id, is_organizer=False),
        lambda: services.tournaments.cancel(tournament.id, actor_id=ANN.id, is_organizer=False),
    ):
        with pytest.raises(NotOrganizer, match="Only a tournament organizer"):
            await call()
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.SIGNUP
    # The member who created it runs it even without the organizer permission.
    await services.tournaments.start(tournament.id, actor_id=ORGANIZER.id, is_organizer=False)
    for call in (
        lambda: services.tournaments.forfeit(
            tournament.id, winner_id=ANN.id, actor_id=ANN.id, is_organizer=False
        ),
        lambda: services.tournaments.disqualify(
            tournament.id, BEN.id, actor_id=ANN.id, is_organizer=False
        ),
    ):
        with pytest.raises(NotOrganizer):
            await call()
    current = await services.tournaments.pairings(tournament.id)
    assert not any(p.is_decided for p in current.pairings)


async def test_a_withdrawal_forfeits_the_current_match_and_later_ones(services: Services) -> None:
    tournament = await new_tournament(services, FOUR, games_per_match=1)
    progress = await start(services, tournament.id)
    ann_pairing = next(p for p in progress.rounds[0].pairings if ANN in (p.player1, p.player2))
    opponent = ann_pairing.player2 if ann_pairing.player1 == ANN else ann_pairing.player1
    assert ann_pairing.match_id is not None and opponent is not None
    game = await active_game(services, ann_pairing.match_id)
    await play_moves(services, game.id, "a1")
    with pytest.raises(TournamentGameAbort):
        await services.games.abort(game.id, ANN.id)

    withdrawn = await services.tournaments.withdraw(tournament.id, ANN.id)
    (stopped,) = withdrawn.stopped
    assert stopped.id == game.id and stopped.status is GameStatus.ABORTED
    (decided,) = withdrawn.decided
    assert decided.forfeit and decided.winner == opponent
    assert (await services.matches.get(ann_pairing.match_id)).status is MatchStatus.ABORTED
    with pytest.raises(GameOver):
        await services.games.move(game.id, game.black.id, "c3")
    with pytest.raises(NoLongerPlaying, match="withdrawn"):
        await services.tournaments.withdraw(tournament.id, ANN.id)
    with pytest.raises(NotEntered):
        await services.tournaments.withdraw(tournament.id, EVE.id)

    ending = await play_round(services, tournament.id)  # the other match of round 1
    assert ending is not None and ending.tournament is not None
    (second,) = ending.tournament.rounds
    ann_next = next(p for p in second.pairings if ANN in (p.player1, p.player2))
    assert ann_next.forfeit and ann_next.is_decided and ann_next.match_id is None
    assert ann_next.winner is not None and ann_next.winner != ANN
    assert len(ending.tournament.games) == 1  # only the other pairing plays

    await play_round(services, tournament.id)
    await play_round(services, tournament.id)
    table = await services.tournaments.standings(tournament.id)
    ann_row = next(r for r in table if r.player == ANN)
    assert ann_row.status is EntrantStatus.WITHDRAWN
    assert (ann_row.standing.won, ann_row.standing.lost) == (0, 3)
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.FINISHED


async def test_a_forfeit_keeps_the_points_scored_and_awards_the_match(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN), games_per_match=2)
    progress = await start(services, tournament.id)
    (pairing,) = progress.rounds[0].pairings
    assert pairing.match_id is not None
    await win(services, await active_game(services, pairing.match_id), ANN.id)
    with pytest.raises(NotEntered):
        await services.tournaments.forfeit(
            tournament.id, winner_id=CAT.id, actor_id=ORGANIZER.id, is_organizer=True
        )

    result = await services.tournaments.forfeit(
        tournament.id, winner_id=BEN.id, actor_id=ORGANIZER.id, is_organizer=True
    )
    (decided,) = result.decided
    assert decided.winner == BEN and decided.forfeit
    assert (decided.points1, decided.points2) == (ROAD_POINTS, 0)
    assert len(result.stopped) == 1 and result.finished
    assert result.tournament.winner == BEN
    with pytest.raises(WrongTournamentStage, match="is over"):
        await services.tournaments.forfeit(
            tournament.id, winner_id=BEN.id, actor_id=ORGANIZER.id, is_organizer=True
        )


async def test_a_forfeit_needs_an_undecided_match(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN, CAT), games_per_match=1)
    progress = await start(services, tournament.id)
    (bye,) = [p for p in progress.rounds[0].pairings if p.is_bye]
    with pytest.raises(NoMatchToForfeit, match="round 1"):
        await services.tournaments.forfeit(
            tournament.id, winner_id=bye.player1.id, actor_id=ORGANIZER.id, is_organizer=True
        )


async def test_disqualification_by_an_organizer(services: Services) -> None:
    tournament = await new_tournament(services, (ANN, BEN, CAT), games_per_match=1)
    progress = await start(services, tournament.id)
    (bye,) = [p for p in progress.rounds[0].pairings if p.is_bye]
    # The player with the bye has no match to forfeit now, only later ones.
    result = await services.tournaments.disqualify(
        tournament.id, bye.player1.id, actor_id=ORGANIZER.id, is_organizer=True
    )
    assert result.decided == () and result.stopped == ()
    with pytest.raises(NoLongerPlaying, match="disqualified"):
        await services.tournaments.disqualify(
            tournament.id, bye.player1.id, actor_id=ORGANIZER.id, is_organizer=True
        )
    for _ in range(3):
        await play_round(services, tournament.id)
    final = await services.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED
    rows = {r.player: r for r in await services.tournaments.standings(tournament.id)}
    assert rows[bye.player1].status is EntrantStatus.DISQUALIFIED
    assert rows[bye.player1].standing.lost == 2


async def test_cancelling_stops_the_games_in_progress(services: Services) -> None:
    tournament = await new_tournament(services, FOUR, games_per_match=2)
    progress = await start(services, tournament.id)
    cancelled = await services.tournaments.cancel(
        tournament.id, actor_id=ORGANIZER.id, is_organizer=True
    )
    assert cancelled.tournament.status is TournamentStatus.CANCELLED
    assert sorted(g.id for g in cancelled.stopped) == sorted(g.id for g in progress.games)
    for game in progress.games:
        assert (await services.games.get(game.id)).status is GameStatus.ABORTED
    with pytest.raises(WrongTournamentStage, match="was cancelled"):
        await services.tournaments.cancel(tournament.id, actor_id=ORGANIZER.id, is_organizer=True)
    with pytest.raises(WrongTournamentStage):
        await services.tournaments.withdraw(tournament.id, ANN.id)


# ----------------------------------------------------------------- deadlines


async def test_losses_on_time_move_the_rounds_on(services: Services, clock: FakeClock) -> None:
    tournament = await new_tournament(services, FOUR, games_per_match=1, days_per_move=1)
    progress = await start(services, tournament.id)
    played, idle = progress.games
    await win(services, played, played.white.id)
    await play_moves(services, idle.id, "a1")  # then black never moves
    clock.advance(days=1)
    report = await services.deadlines.run_due()
    (ending,) = report.endings
    assert ending.result.kind is ResultKind.TIME and ending.game.winner == idle.white
    assert ending.tournament is not None
    (second,) = ending.tournament.rounds
    assert second.number == 2 and len(ending.tournament.games) == 2

    # In a tournament a game nobody moved in is lost on time by white, not aborted.
    clock.advance(days=1)
    report = await services.deadlines.run_due()
    assert [e.result.ptn() for e in report.endings] == ["0-1", "0-1"]
    assert all(e.result.kind is ResultKind.TIME for e in report.endings)
    assert [r.number for e in report.endings if e.tournament for r in e.tournament.rounds] == [3]
    assert (await services.tournaments.get(tournament.id)).current_round == 3


# ----------------------------------------------------------------- settings changed before start


async def test_settings_change_until_the_start_checked_as_at_creation(services: Services) -> None:
    tournament = await new_tournament(services, FOUR, format="swiss", swiss_rounds=3)
    organizer = {"actor_id": ORGANIZER.id, "is_organizer": True}
    game = GameRequest.of(tournament.setup)
    rules = RulesRequest.of(tournament)
    assert TournamentRules.create(rules, days_per_move=1).scoring == tournament.scoring

    changed = await services.tournaments.change(
        tournament.id,
        replace(game, komi=1.5, start="a1 c3", increment=timedelta(hours=12)),
        replace(rules, max_players=4, requested_bye="zero", vacation_allowed=False),
        **organizer,
    )
    assert changed.setup.base_komi == 1.5 and changed.setup.clock.increment == timedelta(hours=12)
    assert changed.setup.start_tps is not None and not changed.setup.rated  # a start: unrated
    assert changed.max_players == 4 and not changed.vacation_allowed
    assert changed.scoring.requested_bye_match_points == 0
    assert await services.tournaments.get(tournament.id) == changed

    for request, refusal in [
        (replace(rules, max_players=3), "4 players have joined already"),
        (replace(rules, groups=2), "Only a groups -> knockout tournament"),
    ]:
        with pytest.raises(InvalidSetting, match=refusal):
            await services.tournaments.change(tournament.id, game, request, **organizer)
    with pytest.raises(InvalidSetting, match="standard pieces and no tie rule"):
        await services.tournaments.change(
            tournament.id, replace(game, antiquity=True), rules, **organizer
        )
    with pytest.raises(NotOrganizer):
        await services.tournaments.change(
            tournament.id, game, rules, actor_id=ANN.id, is_organizer=False
        )
    assert await services.tournaments.get(tournament.id) == changed  # refused: nothing changed

    await start(services, tournament.id)
    with pytest.raises(WrongTournamentStage):
        await services.tournaments.change(tournament.id, game, rules, **organizer)
