"""Check-in, seeds set by hand, late entry into a Swiss and replacements: real SQLite files, a
clock the tests move, and refusals that change nothing."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.errors import (
    AlreadyEntered,
    EntryRefused,
    NotEnoughPlayers,
    NotEntered,
    NotInGame,
    NotOrganizer,
    WrongTournamentStage,
)
from bot.games.model import GameView
from bot.notifications.outbox import Headline, TournamentNews
from bot.players.model import PlayerRef
from bot.services import Services
from bot.timekeeping.clock import FakeClock
from bot.tournaments.tournament import TournamentStatus
from tests.bot.conftest import deliver_everything
from tests.bot.tournament_helpers import (
    ANN,
    BEN,
    CAT,
    DAN,
    EVE,
    ORGANIZER,
    active_game,
    new_tournament,
    play_moves,
    play_round,
    start,
)

FOUR = (ANN, BEN, CAT, DAN)
ORG = {"actor_id": ORGANIZER.id, "is_organizer": True}


async def tournament_news(
    services: Services, *, with_sign_up: bool = False
) -> list[TournamentNews]:
    """The tournament news not delivered yet, oldest first (waiting ones included); the
    sign-up call every tournament has only `with_sign_up`."""
    rows = await services.db.fetchall(
        "SELECT payload FROM outbox WHERE kind = ? AND delivered_at IS NULL ORDER BY id",
        (TournamentNews.KIND,),
    )
    news = []
    for row in rows:
        values = json.loads(row["payload"])
        news.append(
            TournamentNews(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})
        )
    return [n for n in news if with_sign_up or n.headline != Headline.CREATED]


def ids(players: object) -> list[int]:
    return [p.id for p in players]  # type: ignore[attr-defined]


# ----------------------------------------------------------------- check-in


async def test_check_in_window_reminder_and_no_shows_dropped_across_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    services = await Services.open(db_path, clock=clock, rng=random.Random(7))
    deadline = clock.now() + timedelta(days=2)
    tournament = await new_tournament(
        services, FOUR, signup_deadline=deadline, checkin=timedelta(days=1)
    )
    news = await tournament_news(services, with_sign_up=True)
    assert [n.headline for n in news] == [Headline.CREATED]  # saved with it: never lost
    state = await services.entry.state(tournament.id)
    assert state.checkin.opens_at == deadline - timedelta(days=1)
    assert state.checkin.remind_at == deadline - timedelta(hours=12)
    assert await services.entry.next_due_at() == state.checkin.opens_at
    with pytest.raises(EntryRefused, match="Check-in for Spring Open is not open yet"):
        await services.entry.check_in(tournament.id, ANN.id)
    assert await services.entry.run_due() == 0

    clock.advance(days=1)
    assert await services.entry.run_due() == 1
    assert [n.headline for n in await tournament_news(services)] == [Headline.CHECKIN_OPEN]
    assert await services.entry.run_due() == 0  # announced once
    for player in (ANN, BEN, CAT):
        await services.entry.check_in(tournament.id, player.id)
    with pytest.raises(EntryRefused, match="already checked in"):
        await services.entry.check_in(tournament.id, ANN.id)
    with pytest.raises(NotEntered, match="You are not playing in Spring Open"):
        await services.entry.check_in(tournament.id, EVE.id)
    await deliver_everything(services, clock)
    await services.close()

    # A restart during check-in: everything is read back from the file.
    services = await Services.open(db_path, clock=clock, rng=random.Random(7))
    state = await services.entry.state(tournament.id)
    assert state.checked_in == {ANN.id, BEN.id, CAT.id}
    assert ids(state.missing) == [DAN.id]
    assert await services.entry.next_due_at() == deadline - timedelta(hours=12)
    clock.advance(hours=12)
    assert await services.entry.run_due() == 1
    assert [n.headline for n in await tournament_news(services)] == [Headline.CHECKIN_REMINDER]
    assert await services.entry.run_due() == 0
    assert await services.entry.next_due_at() is None
    await deliver_everything(services, clock)

    progress = await start(services, tournament.id)
    assert progress.tournament.player_count == 3
    entrants = await services.tournaments.entrants(tournament.id)
    assert [(e.player.id, e.seed) for e in entrants] == [(ANN.id, 1), (BEN.id, 2), (CAT.id, 3)]
    (news,) = await tournament_news(services)
    assert news.headline == Headline.STARTED and news.dropped == (DAN.id,)
    paired = {
        p
        for pairing in progress.rounds[0].pairings
        for p in (pairing.player1, pairing.player2)
        if p
    }
    assert DAN.id not in {p.id for p in paired}
    await services.close()


async def test_a_start_with_too_few_checked_in_changes_nothing(services: Services) -> None:
    tournament = await new_tournament(services, FOUR)
    await services.entry.open_checkin(tournament.id, **ORG)
    await services.entry.check_in(tournament.id, ANN.id)
    with pytest.raises(NotEnoughPlayers, match="needs at least 2 players to start; it has 1"):
        await start(services, tournament.id)
    assert ids(e.player for e in await services.tournaments.entrants(tournament.id)) == ids(FOUR)
    assert (await services.tournaments.get(tournament.id)).status is TournamentStatus.SIGNUP


async def test_opening_check_in_by_hand(services: Services, clock: FakeClock) -> None:
    tournament = await new_tournament(services, FOUR)
    with pytest.raises(NotOrganizer):
        await services.entry.open_checkin(tournament.id, actor_id=ANN.id, is_organizer=False)
    state = await services.entry.open_checkin(tournament.id, **ORG)
    assert state.checkin.opens_at == clock.now()
    assert state.checkin.remind_at == clock.now() + timedelta(hours=12)  # no planned start
    assert [n.headline for n in await tournament_news(services)] == [Headline.CHECKIN_OPEN]
    with pytest.raises(EntryRefused, match="already open"):
        await services.entry.open_checkin(tournament.id, **ORG)


async def test_check_in_settings_are_refused_without_a_start(services: Services) -> None:
    with pytest.raises(EntryRefused, match="needs a planned start"):
        await new_tournament(services, checkin=timedelta(hours=3))
    with pytest.raises(EntryRefused, match="1 hour to 7 days"):
        await new_tournament(
            services,
            signup_deadline=services.clock.now() + timedelta(days=9),
            checkin=timedelta(days=8),
        )
    assert await services.tournaments.in_guild(3_000_000_000_000_000_003) == []


async def test_starting_before_check_in_opens_leaves_nobody_out(
    services: Services, clock: FakeClock
) -> None:
    tournament = await new_tournament(
        services,
        FOUR,
        signup_deadline=clock.now() + timedelta(days=3),
        checkin=timedelta(days=1),
    )
    progress = await start(services, tournament.id)
    assert progress.tournament.player_count == 4
    with pytest.raises(WrongTournamentStage, match="has already started"):
        await services.entry.check_in(tournament.id, ANN.id)


# ----------------------------------------------------------------- seeds


async def test_seeds_set_by_hand_make_the_bracket(services: Services) -> None:
    tournament = await new_tournament(services, FOUR, format="elimination")
    state = await services.entry.seed(tournament.id, CAT.id, seed=1, **ORG)
    assert ids(e.player for e in state.entrants) == ids((CAT, ANN, BEN, DAN))
    state = await services.entry.seed(tournament.id, ANN.id, places=1, **ORG)  # one lower
    assert ids(e.player for e in state.entrants) == ids((CAT, BEN, ANN, DAN))
    await services.tournaments.join(tournament.id, EVE)  # after the order was set: last
    state = await services.entry.seed(tournament.id, EVE.id, places=-1, **ORG)
    assert ids(e.player for e in state.entrants) == ids((CAT, BEN, ANN, EVE, DAN))
    shown = await services.tournaments.entrants(tournament.id)
    assert ids(e.player for e in shown) == ids((CAT, BEN, ANN, EVE, DAN))

    progress = await start(services, tournament.id)
    entrants = await services.tournaments.entrants(tournament.id)
    assert [(e.player.id, e.seed) for e in entrants] == [
        (p.id, seed) for seed, p in enumerate((CAT, BEN, ANN, EVE, DAN), start=1)
    ]
    # Five players in an eight-place bracket: seeds 1 to 3 have byes, 4 meets 5.
    (first,) = progress.rounds
    assert {p.player1.id for p in first.pairings if p.is_bye} == {CAT.id, BEN.id, ANN.id}
    (match,) = [p for p in first.pairings if not p.is_bye]
    assert {match.player1.id, match.player2 and match.player2.id} == {EVE.id, DAN.id}


async def test_seed_refusals_change_nothing(services: Services) -> None:
    tournament = await new_tournament(services, FOUR)
    before = ids(e.player for e in (await services.entry.state(tournament.id)).entrants)
    refusals = [
        ({"seed": 1, "places": 1}, EntryRefused, "either the seed"),
        ({}, EntryRefused, "either the seed"),
        ({"seed": 5}, EntryRefused, "Seeds run from 1 to 4; 5"),
        ({"places": -1}, EntryRefused, "already the top seed"),
    ]
    for options, error, message in refusals:
        with pytest.raises(error, match=message):
            await services.entry.seed(tournament.id, ANN.id, **options, **ORG)
    with pytest.raises(NotEntered, match="That player is not playing"):
        await services.entry.seed(tournament.id, EVE.id, seed=1, **ORG)
    with pytest.raises(NotOrganizer):
        await services.entry.seed(
            tournament.id, ANN.id, seed=2, actor_id=BEN.id, is_organizer=False
        )
    state = await services.entry.state(tournament.id)
    assert ids(e.player for e in state.entrants) == before
    assert all(e.seed is None for e in state.entrants)  # still automatic
    await start(services, tournament.id)
    with pytest.raises(WrongTournamentStage, match="has already started"):
        await services.entry.seed(tournament.id, ANN.id, seed=2, **ORG)


# ----------------------------------------------------------------- late entry


async def test_a_late_entrant_starts_with_nothing_and_plays_from_the_next_round(
    services: Services,
) -> None:
    tournament = await new_tournament(services, FOUR, format="swiss", swiss_rounds=3)
    with pytest.raises(EntryRefused, match="round 2 to 3"):
        await services.entry.allow_late_entry(tournament.id, 4, **ORG)
    await services.entry.allow_late_entry(tournament.id, 2, **ORG)
    await start(services, tournament.id)
    state = await services.entry.join_late(tournament.id, EVE)
    assert ids(e.player for e in state.entrants)[-1] == EVE.id
    assert state.entrants[-1].seed == 5
    assert await services.entry.first_round(tournament.id, EVE.id) == 2
    news = (await tournament_news(services))[-1]
    assert (news.headline, news.player_id) == (Headline.LATE_ENTRY, EVE.id)
    round_one = await services.tournaments.pairings(tournament.id, 1)
    assert EVE.id not in {
        p.id for pairing in round_one.pairings for p in (pairing.player1, pairing.player2) if p
    }
    rows = {
        row.player.id: row.standing for row in await services.tournaments.standings(tournament.id)
    }
    assert rows[EVE.id].score == 0 and rows[EVE.id].won + rows[EVE.id].lost == 0

    await play_round(services, tournament.id)
    round_two = await services.tournaments.pairings(tournament.id, 2)
    playing = [p for pairing in round_two.pairings for p in (pairing.player1, pairing.player2) if p]
    assert sorted(ids(playing)) == sorted(ids((ANN, BEN, CAT, DAN, EVE)))
    # Round 2 has begun: a late entrant now would start in round 3, past the limit.
    with pytest.raises(EntryRefused, match="took late entries until round 2"):
        await services.entry.join_late(tournament.id, PlayerRef(999, "zed"))
    with pytest.raises(AlreadyEntered):
        await services.entry.join_late(tournament.id, EVE)


async def test_late_entry_refusals(services: Services) -> None:
    robin = await new_tournament(services, FOUR)
    with pytest.raises(EntryRefused, match="Only a Swiss tournament"):
        await services.entry.allow_late_entry(robin.id, 2, **ORG)
    swiss = await new_tournament(services, FOUR, name="Swiss", format="swiss", swiss_rounds=3)
    with pytest.raises(EntryRefused, match="is not running"):
        await services.entry.join_late(swiss.id, EVE)
    await start(services, swiss.id)
    with pytest.raises(EntryRefused, match="takes no late entries"):
        await services.entry.join_late(swiss.id, EVE)
    await play_round(services, swiss.id)
    with pytest.raises(EntryRefused, match="Round 2 of Swiss has already begun"):
        await services.entry.allow_late_entry(swiss.id, 2, **ORG)
    assert (await services.tournaments.get(swiss.id)).player_count == 4


# ----------------------------------------------------------------- replacing


async def test_a_replacement_takes_over_the_game_in_progress_and_the_place(
    services: Services,
) -> None:
    tournament = await new_tournament(services, FOUR)
    await start(services, tournament.id)
    await play_round(services, tournament.id)  # the earlier player wins each match
    before = {r.player.id: r.standing for r in await services.tournaments.standings(tournament.id)}
    (dan_pairing,) = [
        p
        for p in (await services.tournaments.pairings(tournament.id)).pairings
        if DAN.id in (p.player1.id, p.player2 and p.player2.id)
    ]
    assert dan_pairing.match_id is not None
    game = await active_game(services, dan_pairing.match_id)
    assert game.ply == 0
    await play_moves(services, game.id, "a1 c3")  # one move each: DAN has played in it
    taken = await services.entry.replace(tournament.id, DAN.id, EVE, **ORG)
    assert taken == (game.id,)
    game = await services.games.get(game.id)
    assert EVE.id in (game.white.id, game.black.id) and DAN.id not in (game.white.id, game.black.id)
    news = (await tournament_news(services))[-1]
    assert (news.headline, news.player_id, news.other_id) == (Headline.REPLACED, DAN.id, EVE.id)
    if game.player_to_move.id == EVE.id:
        await play_moves(services, game.id, "b2")  # EVE plays on in DAN's place
    else:
        with pytest.raises(NotInGame):
            await services.games.move(game.id, DAN.id, "b2", expected_ply=game.ply)

    ending = await services.games.resign(game.id, EVE.id)  # the game counts for EVE, not DAN
    assert ending.game.winner is not None and ending.game.winner.id != EVE.id

    # Round 1 stays as played, under DAN's name; the table counts it for EVE's place.
    round_one = await services.tournaments.pairings(tournament.id, 1)
    names = {
        p.name for pairing in round_one.pairings for p in (pairing.player1, pairing.player2) if p
    }
    assert "dan" in names and "eve" not in names
    after = {r.player.id: r.standing for r in await services.tournaments.standings(tournament.id)}
    assert DAN.id not in after
    assert (after[EVE.id].won, after[EVE.id].lost) == (before[DAN.id].won, before[DAN.id].lost)
    entrants = {e.player.id: e.seed for e in await services.tournaments.entrants(tournament.id)}
    assert entrants[EVE.id] == 4
    assert [
        (old.id, new.id, r) for old, new, r in await services.entry.replaced(tournament.id)
    ] == [(DAN.id, EVE.id, 2)]

    # The rest of the round robin pairs EVE where DAN would have been, and it finishes.
    while (await services.tournaments.get(tournament.id)).status is TournamentStatus.RUNNING:
        await play_round(services, tournament.id)
    rounds = [await services.tournaments.pairings(tournament.id, n) for n in (2, 3)]
    later = {
        p.id
        for r in rounds
        for pairing in r.pairings
        for p in (pairing.player1, pairing.player2)
        if p
    }
    assert DAN.id not in later and EVE.id in later


async def test_replacement_refusals_change_nothing(services: Services) -> None:
    tournament = await new_tournament(services, FOUR)
    await start(services, tournament.id)
    await services.entry.replace(tournament.id, DAN.id, EVE, **ORG)
    refusals = [
        (ANN.id, BEN, EntryRefused, "That player is already in Spring Open"),
        (ANN.id, ANN, EntryRefused, "cannot replace themselves"),
        (ANN.id, DAN, EntryRefused, "was replaced in Spring Open and cannot come back"),
        (DAN.id, PlayerRef(999, "zed"), NotEntered, "That player is not playing"),
    ]
    for old_id, new, error, message in refusals:
        with pytest.raises(error, match=message):
            await services.entry.replace(tournament.id, old_id, new, **ORG)
    with pytest.raises(NotOrganizer):
        await services.entry.replace(
            tournament.id, ANN.id, DAN, actor_id=BEN.id, is_organizer=False
        )
    entrants = ids(e.player for e in await services.tournaments.entrants(tournament.id))
    assert sorted(entrants) == sorted(ids((ANN, BEN, CAT, EVE)))


async def test_replacing_a_withdrawn_swiss_player_brings_the_place_back(
    services: Services,
) -> None:
    tournament = await new_tournament(services, FOUR, format="swiss", swiss_rounds=3)
    await start(services, tournament.id)
    await services.tournaments.withdraw(tournament.id, DAN.id)  # round 1 forfeited
    await services.entry.replace(tournament.id, DAN.id, EVE, **ORG)
    await play_round(services, tournament.id)
    round_two = await services.tournaments.pairings(tournament.id, 2)
    playing = {
        p.id for pairing in round_two.pairings for p in (pairing.player1, pairing.player2) if p
    }
    assert playing == set(ids((ANN, BEN, CAT, EVE)))
    rows = {r.player.id: r.standing for r in await services.tournaments.standings(tournament.id)}
    assert rows[EVE.id].lost >= 1  # DAN's forfeited round 1 counts for the place


async def test_a_knockout_goes_on_with_the_replacement_in_the_bracket(
    services: Services,
) -> None:
    tournament = await new_tournament(services, FOUR, format="elimination")
    await start(services, tournament.id)
    await play_round(services, tournament.id)  # ann beats dan, ben beats cat
    await services.entry.replace(tournament.id, ANN.id, EVE, **ORG)  # before the final's moves
    drawn = (await services.pictures.tournament(tournament.id)).bracket
    assert drawn is not None
    first, final = drawn.rounds
    assert [m.winner is not None for m in first] == [True, True]  # ann's win counts for the place
    names = {e.name for m in final for e in m.entrants if e}
    assert names == {"eve", "ben"}

    def eve_wins(game: GameView) -> int:
        return EVE.id

    await play_round(services, tournament.id, eve_wins)
    finished = await services.tournaments.get(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    assert finished.winner is not None and finished.winner.id == EVE.id
