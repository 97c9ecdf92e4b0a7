"""Requested byes and pairs kept apart, through the services: asked for and withdrawn before a
Swiss round is paired, honoured by its pairing, scored and refused with a reason."""

from __future__ import annotations

import pytest

from bot.errors import EntryRefused, InvalidSetting, NotEntered, NotOrganizer
from bot.services import Services
from bot.tournaments.tournament import PairingView, TournamentStatus
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ORGANIZER,
    new_tournament,
    play_round,
    start,
)

FIVE = (ANN, BEN, CAT, DAN, EVE)


async def ask(
    services: Services,
    tournament_id: int,
    player_id: int,
    round_number: int,
    *,
    withdraw: bool = False,
) -> list[int]:
    """A bye asked for (or withdrawn) by the player themself; the rounds they have asked for."""
    requests = await services.entry.request_bye(
        tournament_id,
        player_id,
        round_number,
        actor_id=player_id,
        is_organizer=False,
        withdraw=withdraw,
    )
    return [r.round for r in requests]


def requested(pairings: tuple[PairingView, ...]) -> list[str]:
    return sorted(p.player1.name for p in pairings if p.is_bye and p.requested)


def odd_byes(pairings: tuple[PairingView, ...]) -> list[str]:
    return sorted(p.player1.name for p in pairings if p.is_bye and not p.requested)


async def test_requested_byes_leave_players_out_and_score_a_draw(services: Services) -> None:
    tournament = await new_tournament(
        services, FIVE, format="swiss", swiss_rounds=3, games_per_match=1
    )
    assert await ask(services, tournament.id, BEN.id, 1) == [1]
    assert await ask(services, tournament.id, DAN.id, 2) == [2]
    assert await ask(services, tournament.id, DAN.id, 2, withdraw=True) == []
    by_organizer = await services.entry.request_bye(
        tournament.id, CAT.id, 2, actor_id=ORGANIZER.id, is_organizer=True
    )
    assert [(r.player, r.round) for r in by_organizer] == [(CAT, 2)]
    assert [(r.player, r.round) for r in await services.entry.bye_requests(tournament.id)] == [
        (BEN, 1),
        (CAT, 2),
    ]

    progress = await start(services, tournament.id)
    first = progress.rounds[0].pairings
    # Ben sits out; the other four are paired, so no odd player's bye.
    assert requested(first) == ["ben"] and odd_byes(first) == []
    assert all(BEN not in (p.player1, p.player2) for p in first if not p.is_bye)
    with pytest.raises(EntryRefused, match="Round 1 of Spring Open is already paired"):
        await ask(services, tournament.id, BEN.id, 1, withdraw=True)
    assert [r.round for r in await services.entry.bye_requests(tournament.id)] == [2]

    await play_round(services, tournament.id)  # Ann and Cat win
    second = (await services.tournaments.pairings(tournament.id)).pairings
    assert requested(second) == ["cat"]
    # Four left, even: Ben's requested bye did not use up his odd player's bye, and nobody has one.
    assert odd_byes(second) == []
    await play_round(services, tournament.id)
    third = (await services.tournaments.pairings(tournament.id)).pairings
    assert requested(third) == [] and len(odd_byes(third)) == 1
    await play_round(services, tournament.id)
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.FINISHED

    rows = {r.player: r.standing for r in await services.tournaments.standings(tournament.id)}
    requested_counts = {"ben": 1, "cat": 1}
    for player, row in rows.items():
        got_bye = sum(
            p.player1 == player and p.is_bye and not p.requested for p in (*first, *second, *third)
        )
        own = requested_counts.get(player.name, 0)
        assert row.byes == got_bye + own
        # 3 a match won, 3 an odd player's bye, 1 (a draw's points) a requested bye.
        assert row.score == 3 * (row.won + got_bye) + row.drawn + own


async def test_a_zero_point_requested_bye(services: Services) -> None:
    tournament = await new_tournament(
        services,
        (ANN, BEN, CAT),
        format="swiss",
        swiss_rounds=1,
        games_per_match=1,
        requested_bye="zero",
    )
    await ask(services, tournament.id, CAT.id, 1)
    await start(services, tournament.id)
    shown = await services.pictures.round(tournament.id)
    assert (shown.byes, shown.requested, len(shown.pairings)) == (("cat",), (True,), 1)
    assert shown.bye_mark(0) == "bye (requested)"
    await play_round(services, tournament.id)
    rows = {r.player: r.standing for r in await services.tournaments.standings(tournament.id)}
    assert (rows[CAT].score, rows[CAT].byes, rows[ANN].score) == (0, 1, 3)


async def test_bye_requests_refused(services: Services) -> None:
    swiss = await new_tournament(services, FIVE, format="swiss", swiss_rounds=2)
    with pytest.raises(EntryRefused, match="Spring Open has rounds 1 to 2"):
        await ask(services, swiss.id, ANN.id, 3)
    await ask(services, swiss.id, ANN.id, 2)
    with pytest.raises(EntryRefused, match="You have already asked for a bye in round 2"):
        await ask(services, swiss.id, ANN.id, 2)
    with pytest.raises(EntryRefused, match="You have not asked for a bye in round 1"):
        await ask(services, swiss.id, ANN.id, 1, withdraw=True)
    with pytest.raises(NotOrganizer, match="ask for a bye for another player"):
        await services.entry.request_bye(swiss.id, BEN.id, 1, actor_id=ANN.id, is_organizer=False)
    with pytest.raises(NotEntered, match="You are not playing"):
        await ask(services, swiss.id, ORGANIZER.id, 1)
    cup = await new_tournament(services, FIVE, name="Cup", format="elimination")
    with pytest.raises(EntryRefused, match="Only a Swiss or round-robin tournament takes byes"):
        await ask(services, cup.id, ANN.id, 1)
    with pytest.raises(InvalidSetting, match="Only a Swiss tournament takes a requested_bye score"):
        await new_tournament(services, name="Other", format="round_robin", requested_bye="zero")
    assert [r.round for r in await services.entry.bye_requests(swiss.id)] == [2]


async def test_a_round_robin_bye_is_a_forfeit_announced_in_advance(services: Services) -> None:
    robin = await new_tournament(
        services, (ANN, BEN, CAT, DAN), format="round_robin", games_per_match=1
    )
    # Its length depends on who joins: during sign-up any later round is taken.
    assert await ask(services, robin.id, BEN.id, 2) == [2]
    await start(services, robin.id)
    with pytest.raises(EntryRefused, match="Spring Open has rounds 1 to 3"):
        await ask(services, robin.id, BEN.id, 4)
    await play_round(services, robin.id)
    second = (await services.tournaments.pairings(robin.id)).pairings
    # The Berger round 2 of four: Dan v Cat, Ann v Ben; Ben's match is Ann's by forfeit.
    (forfeited,) = [p for p in second if BEN in (p.player1, p.player2)]
    assert forfeited.is_decided and forfeited.forfeit and forfeited.requested
    assert forfeited.match_id is None and forfeited.winner == ANN
    (played,) = [p for p in second if p is not forfeited]
    assert not played.requested and not played.is_decided and played.match_id is not None
    await play_round(services, robin.id)
    await play_round(services, robin.id)
    rows = {r.player: r.standing for r in await services.tournaments.standings(robin.id)}
    # Ben beats Cat and Dan; his one loss is the forfeit to Ann (no bye: a round robin's is a loss).
    ben = rows[BEN]
    assert (ben.won, ben.lost, ben.byes, ben.score) == (2, 1, 0, 6)
    assert rows[ANN].won == 3


async def test_pairs_kept_apart_do_not_meet(services: Services) -> None:
    four = (ANN, BEN, CAT, DAN)
    plain = await new_tournament(services, four, format="swiss", swiss_rounds=1)
    first = (await start(services, plain.id)).rounds[0].pairings
    assert {frozenset((p.player1, p.player2)) for p in first} == {
        frozenset((ANN, CAT)),
        frozenset((BEN, DAN)),
    }

    apart = await new_tournament(services, four, name="Apart", format="swiss", swiss_rounds=1)

    async def keep(a: int, b: int, *, allow: bool = False) -> list[tuple[str, str]]:
        pairs = await services.entry.keep_apart(
            apart.id, (a, b), actor_id=ORGANIZER.id, is_organizer=True, allow=allow
        )
        return [(x.name, y.name) for x, y in pairs]

    assert await keep(CAT.id, ANN.id) == [("ann", "cat")]
    assert await keep(BEN.id, DAN.id) == [("ann", "cat"), ("ben", "dan")]
    assert await keep(DAN.id, BEN.id, allow=True) == [("ann", "cat")]
    first = (await start(services, apart.id)).rounds[0].pairings
    assert frozenset((ANN, CAT)) not in {frozenset((p.player1, p.player2)) for p in first}
    assert [(a.name, b.name) for a, b in await services.entry.kept_apart(apart.id)] == [
        ("ann", "cat")
    ]


async def test_keeping_apart_refused(services: Services) -> None:
    swiss = await new_tournament(services, FIVE, format="swiss", swiss_rounds=2)

    async def keep(
        a: int, b: int, *, by: int = ORGANIZER.id, allow: bool = False, tournament_id: int = 0
    ) -> None:
        await services.entry.keep_apart(
            tournament_id or swiss.id,
            (a, b),
            actor_id=by,
            is_organizer=by == ORGANIZER.id,
            allow=allow,
        )

    with pytest.raises(NotOrganizer, match="keep players apart"):
        await keep(ANN.id, BEN.id, by=ANN.id)
    with pytest.raises(EntryRefused, match="cannot be kept apart from themselves"):
        await keep(ANN.id, ANN.id)
    with pytest.raises(NotEntered, match="That player is not playing"):
        await keep(ANN.id, ORGANIZER.id)
    with pytest.raises(EntryRefused, match="not kept apart"):
        await keep(ANN.id, BEN.id, allow=True)
    await keep(ANN.id, BEN.id)
    with pytest.raises(EntryRefused, match="already kept apart"):
        await keep(BEN.id, ANN.id)
    robin = await new_tournament(services, FIVE, name="Robin", format="round_robin")
    with pytest.raises(EntryRefused, match="a round robin pairs everyone with everyone"):
        await keep(ANN.id, BEN.id, tournament_id=robin.id)
    assert len(await services.entry.kept_apart(swiss.id)) == 1


async def test_byes_asked_for_never_end_a_swiss_early(services: Services) -> None:
    tournament = await new_tournament(
        services, FIVE, format="swiss", swiss_rounds=4, games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id)
    await play_round(services, tournament.id)  # round 3 is paired
    earlier = [
        p
        for number in (1, 2, 3)
        for p in (await services.tournaments.pairings(tournament.id, number)).pairings
    ]
    had_bye = {p.player1 for p in earlier if p.is_bye}
    without = [p for p in FIVE if p not in had_bye]
    assert len(had_bye) == 3 and len(without) == 2
    for player in without:
        await ask(services, tournament.id, player.id, 4)
    await play_round(services, tournament.id)

    # The three left have all had their bye: one of them gets a second, the round is played.
    running = await services.tournaments.get(tournament.id)
    assert (running.status, running.current_round) == (TournamentStatus.RUNNING, 4)
    fourth = await services.tournaments.pairings(tournament.id)
    assert requested(fourth.pairings) == sorted(p.name for p in without)
    (again,) = [p.player1 for p in fourth.pairings if p.is_bye and not p.requested]
    assert again in had_bye and fourth.second_byes == (again,)
    assert await services.entry.bye_requests(tournament.id) == []
    await play_round(services, tournament.id)
    finished = await services.tournaments.get(tournament.id)
    assert (finished.status, finished.current_round) == (TournamentStatus.FINISHED, 4)


async def test_only_byes_still_to_come_are_listed(services: Services) -> None:
    robin = await new_tournament(
        services, (ANN, BEN, CAT, DAN), format="round_robin", games_per_match=1
    )
    await ask(services, robin.id, BEN.id, 9)  # its length is not known during sign-up
    for number in (2, 3):
        await ask(services, robin.id, DAN.id, number)
    await ask(services, robin.id, CAT.id, 3)
    await start(services, robin.id)

    async def listed() -> list[tuple[str, int]]:
        return [(r.player.name, r.round) for r in await services.entry.bye_requests(robin.id)]

    # Four players play three rounds: round 9 never comes.
    assert await listed() == [("dan", 2), ("cat", 3), ("dan", 3)]
    await services.tournaments.withdraw(robin.id, DAN.id)
    assert await listed() == [("cat", 3)]
    # Dan has left, yet an organizer can still take his request back.
    left = await services.entry.request_bye(
        robin.id, DAN.id, 3, actor_id=ORGANIZER.id, is_organizer=True, withdraw=True
    )
    assert left == []
    with pytest.raises(NotEntered, match="That player is not playing"):
        await services.entry.request_bye(
            robin.id, DAN.id, 3, actor_id=ORGANIZER.id, is_organizer=True
        )

    await play_round(services, robin.id)
    second = (await services.tournaments.pairings(robin.id)).pairings
    # Dan's match goes to Cat because Dan left, not because of the bye he had asked for.
    (forfeited,) = [p for p in second if DAN in (p.player1, p.player2)]
    assert forfeited.forfeit and forfeited.winner == CAT and not forfeited.requested

    await services.tournaments.cancel(robin.id, actor_id=ORGANIZER.id, is_organizer=True)
    assert await listed() == []


async def test_a_round_robin_bye_cannot_be_asked_for_a_round_that_is_one(
    services: Services,
) -> None:
    robin = await new_tournament(services, (ANN, BEN, CAT), format="round_robin")
    first = (await start(services, robin.id)).rounds[0].pairings
    assert [p.player1 for p in first if p.is_bye] == [ANN]
    # Three players: the Berger rounds give Cat the bye in round 2 and Ben in round 3.
    with pytest.raises(EntryRefused, match="Round 2 of Spring Open is already a bye for you"):
        await ask(services, robin.id, CAT.id, 2)
    with pytest.raises(EntryRefused, match="Round 3 of Spring Open is already a bye for that"):
        await services.entry.request_bye(
            robin.id, BEN.id, 3, actor_id=ORGANIZER.id, is_organizer=True
        )
    assert await services.entry.bye_requests(robin.id) == []
    assert await ask(services, robin.id, CAT.id, 3) == [3]
