"""Tournament rounds: a finished match recorded, and the next round begun, in the caller's
transaction.

This is the part of the tournament service that ending a game reaches (through
:func:`bot.play.service.finish_game`), so that the move which ends a round also starts the
next one, or nothing at all happens. The rules:

- A round begins by itself once every pairing of the current one is decided. Each pairing gets a
  match of ``games_per_match`` games (player 1 has white in odd-numbered games) whose first game
  starts at once in the tournament's channel; a bye is decided at once.
- Round robin: the Berger rounds of the seeded field (:func:`bot.tournaments.round_robin`), the
  same every time they are computed, since seeds never change once the tournament starts. A
  player who asked for a bye in the round (:mod:`bot.tournaments.entry`) forfeits their match of
  it, as if they had left, the pairing marked as requested.
- Swiss: :func:`bot.tournaments.swiss_round` over the players still in. It ends after its set
  number of rounds, or sooner when the players still in can no longer be paired (fewer than two,
  or an odd field whose players have all had their bye). Players who asked for a bye in the
  round (:mod:`bot.tournaments.entry`) sit it out with a requested bye, decided at once like the
  odd player's; when that leaves an odd field of players who have all had their bye, the
  lowest-ranked of them gets a second one (the round's post says so) rather than the tournament
  ending early; pairs the organizer keeps apart never meet while any pairing avoids them (when
  none does, as few as possible meet, whatever the rematches, and it is logged).
- Single elimination: :func:`bot.tournaments.elimination_round` over the seeded bracket. Its
  matches are ``until_decided``: a match left level goes on with tiebreak games, one at a time,
  colours still alternating, with the tournament's tiebreak time control, until one player leads
  (see :mod:`bot.games.matches`). After the most tiebreak games the tournament allows, a match
  still level sends player 1 (the better seed) through.
- Groups -> knockout (:mod:`bot.tournaments.groups`): the players are put in groups by seed at the
  start; the groups' round robins are played side by side, then the top players of each group
  (stored as knockout seeds when the last group round is complete) play a cross-seeded knockout,
  whose matches are like single elimination's.
- A pairing with a player who has withdrawn or been disqualified is decided at once as a forfeit
  win for the other player, with no match. When both have left, a round robin skips the meeting;
  an elimination bracket sends player 1 (the better seed) through, to forfeit the next match.
- A paced tournament (a division of a season, :mod:`bot.seasons`) begins its rounds after the first
  only when released (:func:`advance` with ``release``): one round a release, at its period's end,
  and it finishes at the release after its last round.
- The tournament finishes when no round is left. Its winner is the bracket's winner (the only
  player through, when the groups leave one), or in the other formats the sole first place of the
  standings (none when first place is shared).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple, Protocol

from bot.games.matches import create_match
from bot.games.model import GameView, MatchStatus, MatchView
from bot.games.storage import insert_game
from bot.notifications.outbox import GameEnded, GameStart, Headline, TournamentNews, enqueue
from bot.players.model import PlayerRef
from bot.store import Transaction
from bot.tournaments import (
    MatchResult,
    Round,
    TournamentError,
    compute_standings,
    elimination_round,
    elimination_winner,
    forbidden_pairs_met,
    group_rounds,
    group_tables,
    qualifiers,
    round_robin,
    storage,
    swiss_round,
)
from bot.tournaments.storage import (
    fetch_entrants,
    fetch_pairings,
    fetch_place_holders,
    fetch_tournament,
    pairing_of_match,
)
from bot.tournaments.tournament import (
    Entrant,
    PairingView,
    RoundView,
    TournamentFormat,
    TournamentProgress,
    TournamentStatus,
    TournamentView,
)
from tak import Position, Result

log = logging.getLogger(__name__)


class _Ended(Protocol):
    @property
    def game(self) -> GameView: ...


class GameFinisher(Protocol):
    """How the tournament services end a game they stop or that was reported:
    :func:`bot.play.service.finish_game`, handed to them by :class:`bot.services.Services`
    (playing sits above tournaments: a game's end counts its match here)."""

    async def __call__(
        self,
        tx: Transaction,
        game: GameView,
        position: Position,
        result: Result,
        now: datetime,
        news: GameEnded,
    ) -> _Ended: ...


class StandingsInput(NamedTuple):
    """The decided matches, the odd players' byes and the requested byes, as the pairing and
    standings logic takes them."""

    results: list[MatchResult]
    byes: list[int]
    requested_byes: list[int]


def standings_input(
    pairings: Iterable[PairingView], holders: Mapping[int, int] | None = None
) -> StandingsInput:
    """The pairings as the pairing and standings logic takes them; a replaced player's results
    count for whoever holds their place now (`holders`, from :func:`fetch_place_holders`)."""
    played = StandingsInput([], [], [])
    for pairing in pairings_by_place(pairings, holders or {}):
        if pairing.is_bye:
            (played.requested_byes if pairing.requested else played.byes).append(pairing.player1.id)
        elif pairing.is_decided:
            played.results.append(pairing.result())
    return played


@dataclass(frozen=True, slots=True)
class Wishes:
    """What a round honours besides the results: the players who asked to sit it out (a Swiss
    leaves them out, a round robin forfeits their matches) and the pairs a Swiss keeps apart."""

    resting: frozenset[int] = frozenset()
    forbidden: frozenset[frozenset[int]] = frozenset()


async def fetch_wishes(tx: Transaction, tournament_id: int, round_number: int) -> Wishes:
    requests = await storage.fetch_bye_requests(tx, tournament_id, round_number, of_players_in=True)
    pairs = await storage.fetch_forbidden_pairs(tx, tournament_id)
    return Wishes(
        frozenset(r.player.id for r in requests),
        frozenset(frozenset((a.id, b.id)) for a, b in pairs),
    )


def pairings_by_place(
    pairings: Iterable[PairingView], holders: Mapping[int, int]
) -> list[PairingView]:
    """The pairings with each replaced player's id changed to their place's holder (names kept),
    for what is drawn by place: the cross table and the bracket."""

    if not holders:
        return list(pairings)

    def holder(player: PlayerRef | None) -> PlayerRef | None:
        if player is None or player.id not in holders:
            return player
        return PlayerRef(holders[player.id], player.name)

    return [
        replace(
            p,
            player1=holder(p.player1) or p.player1,
            player2=holder(p.player2),
            winner=holder(p.winner),
        )
        for p in pairings
    ]


# ----------------------------------------------------------------- writing


async def decide(
    tx: Transaction,
    pairing: PairingView,
    *,
    points: tuple[int, int],
    winner_id: int | None,
    forfeit: bool,
    now: datetime,
) -> PairingView:
    """Record an undecided pairing's result."""
    await storage.decide_pairing(tx, pairing.id, points, winner_id, forfeit, now)
    return await storage.fetch_pairing(tx, pairing.id)


async def record_match_in_tournament(
    tx: Transaction, match: MatchView, now: datetime
) -> TournamentProgress | None:
    """Count a match that just finished in its tournament and start the next round if it
    completed this one; None for a match outside any running tournament or not finished."""
    if match.status is not MatchStatus.FINISHED:
        return None
    pairing = await pairing_of_match(tx, match.id)
    if pairing is None or pairing.is_decided:
        return None
    if (await fetch_tournament(tx, pairing.tournament_id)).status is not TournamentStatus.RUNNING:
        return None
    winner = match.leader
    if winner is None and match.until_decided:  # level after the last tiebreak game
        winner = pairing.player1  # the better seed
    decided = await decide(
        tx,
        pairing,
        points=(match.points1, match.points2),
        winner_id=None if winner is None else winner.id,
        forfeit=False,
        now=now,
    )
    return await advance(tx, pairing.tournament_id, now, decided=(decided,))


async def advance(
    tx: Transaction,
    tournament_id: int,
    now: datetime,
    *,
    decided: tuple[PairingView, ...] = (),
    stopped: tuple[GameView, ...] = (),
    release: bool = False,
) -> TournamentProgress:
    """Begin rounds while the current one is complete, and finish the tournament when none is
    left; a paced tournament's rounds after the first only with `release`, one a release. Never
    refuses: it runs inside the transaction of the move that ended a match."""
    rounds: list[RoundView] = []
    games: list[GameView] = []
    paced = await storage.is_paced(tx, tournament_id)
    while True:
        tournament = await fetch_tournament(tx, tournament_id)
        if tournament.status is not TournamentStatus.RUNNING:
            break
        pairings = await fetch_pairings(tx, tournament_id)
        if not all(p.is_decided for p in pairings):
            break
        if paced and tournament.current_round > 0:
            if not release:
                break
            release = False
        entrants = await fetch_entrants(tx, tournament_id)
        holders = await fetch_place_holders(tx, tournament_id)
        if _groups_just_finished(tournament, entrants):
            entrants = await _seed_knockout(tx, tournament, entrants, pairings, holders)
        wishes = await fetch_wishes(tx, tournament_id, tournament.current_round + 1)
        upcoming = next_round(tournament, entrants, pairings, holders, wishes)
        if upcoming is None:
            await _finish(tx, tournament, entrants, pairings, now, holders)
            break
        begun, first_games = await _begin_round(
            tx, tournament, entrants, upcoming, wishes.resting, now
        )
        rounds.append(begun)
        games.extend(first_games)
    return TournamentProgress(
        await fetch_tournament(tx, tournament_id), decided, tuple(rounds), tuple(games), stopped
    )


def next_round(
    tournament: TournamentView,
    entrants: list[Entrant],
    pairings: Iterable[PairingView],
    holders: Mapping[int, int],
    wishes: Wishes = Wishes(),
) -> Round | None:
    """The round after the current one (all of whose pairings are decided), or None; in a
    knockout, the round after the last of `pairings`. A Swiss round honours `wishes`."""
    seeded = [e.player.id for e in entrants]
    results, byes, requested_byes = standings_input(pairings, holders)
    number = tournament.current_round + 1
    if tournament.format is TournamentFormat.ELIMINATION:
        return elimination_round(seeded, results)
    if tournament.format is TournamentFormat.GROUPS:
        stage = group_rounds(_groups(entrants))
        if number <= len(stage):
            return stage[number - 1]
        knockout, group_of, played = _knockout(tournament, entrants, results)
        if len(knockout) < 2:
            return None
        return elimination_round(knockout, played, group_of=group_of)
    if tournament.format is TournamentFormat.SWISS:
        active = [e.player.id for e in entrants if e.is_active]
        assert tournament.swiss_rounds is not None
        if number > tournament.swiss_rounds or len(active) < 2:
            return None
        try:
            upcoming = swiss_round(
                active,
                results,
                byes,
                tournament.scoring,
                requested_byes=requested_byes,
                sitting_out=wishes.resting & set(active),
                forbidden=wishes.forbidden,
            )
        except TournamentError:  # an odd field whose players have all had their bye
            return None
        for pairing in forbidden_pairs_met(upcoming, wishes.forbidden):
            log.warning(
                "Tournament %d round %d: no pairing keeps %d and %d apart; they meet.",
                tournament.id,
                number,
                pairing.player1,
                pairing.player2,
            )
        for player in set(upcoming.byes) & set(byes):
            log.warning(
                "Tournament %d round %d: byes asked for left an odd field of players who have all "
                "had a bye; %d has a second.",
                tournament.id,
                number,
                player,
            )
        return upcoming
    double = tournament.format is TournamentFormat.DOUBLE_ROUND_ROBIN
    schedule = round_robin(seeded, double=double)
    return schedule[number - 1] if number <= len(schedule) else None


def _groups(entrants: list[Entrant]) -> list[tuple[int, ...]]:
    """The groups as stored at the start, each in seed order."""
    count = 1 + max(e.group for e in entrants if e.group is not None)
    return [tuple(e.player.id for e in entrants if e.group == g) for g in range(count)]


def _knockout(
    tournament: TournamentView, entrants: list[Entrant], results: list[MatchResult]
) -> tuple[list[int], dict[int, int], list[MatchResult]]:
    """A groups -> knockout event's knockout players in knockout seed order, their groups, and
    the knockout's results."""
    through = sorted((e for e in entrants if e.knockout_seed), key=lambda e: e.knockout_seed or 0)
    group_of = {e.player.id: e.group for e in through if e.group is not None}
    stage = tournament.group_stage_rounds
    return [e.player.id for e in through], group_of, [r for r in results if r.round > stage]


def _groups_just_finished(tournament: TournamentView, entrants: list[Entrant]) -> bool:
    """A groups -> knockout event whose group stage is complete and whose knockout is not seeded:
    the caller has checked that every pairing so far is decided."""
    return (
        tournament.format is TournamentFormat.GROUPS
        and tournament.current_round == tournament.group_stage_rounds
        and not any(e.knockout_seed for e in entrants)
    )


def knockout_order(
    tournament: TournamentView,
    entrants: list[Entrant],
    pairings: Iterable[PairingView],
    holders: Mapping[int, int],
    still_in: Collection[int] = (),
) -> list[int]:
    """Who goes through from the groups, in knockout seed order (see
    :func:`bot.tournaments.qualifiers`), from the group stage's results in `pairings`; the
    players still in, and those of `still_in`, can go through."""
    assert tournament.group_advance is not None
    stage = tournament.group_stage_rounds
    played = standings_input((p for p in pairings if p.round <= stage), holders)
    tables = group_tables(_groups(entrants), played.results, played.byes, tournament.scoring)
    active = {e.player.id for e in entrants if e.is_active} | set(still_in)
    return qualifiers(tables, tournament.group_advance, active)


async def _seed_knockout(
    tx: Transaction,
    tournament: TournamentView,
    entrants: list[Entrant],
    pairings: list[PairingView],
    holders: Mapping[int, int],
) -> list[Entrant]:
    """Store who goes through from the groups as knockout seeds; the entrants after it."""
    order = knockout_order(tournament, entrants, pairings, holders)
    await storage.set_knockout_seeds(tx, tournament.id, order)
    return await fetch_entrants(tx, tournament.id)


async def seat_pairing(
    tx: Transaction,
    tournament: TournamentView,
    number: int,
    players: tuple[int, int | None],
    active: Collection[int],
    now: datetime,
    *,
    row_id: int | None = None,
    requested: bool = False,
) -> GameView | None:
    """Store a pairing of round `number` (player 2 None: a bye), or rewrite the pairing `row_id`:
    a match begun between two players still in (its first game returned), a forfeit to the one
    still in, a bye decided at once. A round-robin meeting of two players who have both left is
    skipped; a knockout one sends player 1 through. `requested`: a forfeit because a player
    asked for a bye."""
    player1, player2 = players
    if player2 is None:
        await storage.write_pairing(
            tx, tournament.id, number, players, row_id=row_id, decided_at=now
        )
        return None
    present = [p for p in players if p in active]
    if len(present) == 2:

        async def store_pairing(match_id: int) -> None:
            await storage.write_pairing(
                tx, tournament.id, number, players, row_id=row_id, match_id=match_id
            )

        knockout = tournament.is_knockout_round(number)
        return await start_match(tx, tournament, player1, player2, now, knockout, store_pairing)
    if present or tournament.is_knockout_round(number):
        winner = present[0] if present else player1
        await storage.write_pairing(
            tx,
            tournament.id,
            number,
            players,
            row_id=row_id,
            winner_id=winner,
            decided_at=now,
            requested=requested,
        )
    return None


async def _begin_round(
    tx: Transaction,
    tournament: TournamentView,
    entrants: list[Entrant],
    upcoming: Round,
    resting: frozenset[int],
    now: datetime,
) -> tuple[RoundView, list[GameView]]:
    """Store the round's pairings and start a match (and its first game) for each; a round
    robin's players `resting` (who asked for a bye) forfeit theirs."""
    number = tournament.current_round + 1
    await storage.set_current_round(tx, tournament.id, number)
    active = {e.player.id for e in entrants if e.is_active} - resting
    games = []
    seats = [(p.player1, p.player2) for p in upcoming.pairings]
    for players in [*seats, *((bye, None) for bye in upcoming.byes)]:
        asked = players[1] is not None and bool(resting & set(players))
        game = await seat_pairing(tx, tournament, number, players, active, now, requested=asked)
        if game is not None:
            games.append(game)
    for player in upcoming.requested:
        await storage.write_pairing(
            tx, tournament.id, number, (player, None), row_id=None, decided_at=now, requested=True
        )
    return await fetch_round(tx, tournament, number), games


async def fetch_round(tx: Transaction, tournament: TournamentView, number: int) -> RoundView:
    """A round's pairings, with (in a Swiss) the players whose odd player's bye in it is not
    their first."""
    pairings = [p for p in await fetch_pairings(tx, tournament.id) if p.round <= number]
    this = tuple(p for p in pairings if p.round == number)
    if tournament.format is not TournamentFormat.SWISS:
        return RoundView(number, this)
    holders = await fetch_place_holders(tx, tournament.id)
    byes = Counter(standings_input(pairings, holders).byes)
    again = tuple(
        p.player1
        for p in this
        if p.is_bye and not p.requested and byes[holders.get(p.player1.id, p.player1.id)] > 1
    )
    return RoundView(number, this, again)


async def finish_early(tx: Transaction, tournament_id: int, now: datetime) -> None:
    """Finish a running tournament on its results so far, with no round left to play (a season
    ended early, :mod:`bot.seasons`); its winner as at the end."""
    tournament = await fetch_tournament(tx, tournament_id)
    entrants = await fetch_entrants(tx, tournament_id)
    pairings = await fetch_pairings(tx, tournament_id)
    holders = await fetch_place_holders(tx, tournament_id)
    await _finish(tx, tournament, entrants, pairings, now, holders)


async def _finish(
    tx: Transaction,
    tournament: TournamentView,
    entrants: list[Entrant],
    pairings: list[PairingView],
    now: datetime,
    holders: Mapping[int, int],
) -> None:
    winner = tournament_winner(tournament, entrants, pairings, holders)
    await storage.mark_finished(tx, tournament.id, winner, now)


def tournament_winner(
    tournament: TournamentView,
    entrants: list[Entrant],
    pairings: list[PairingView],
    holders: Mapping[int, int],
) -> int | None:
    """The bracket's winner, or in the other formats the sole first place (None if shared)."""
    seeded = [e.player.id for e in entrants]
    results, byes, requested_byes = standings_input(pairings, holders)
    if tournament.format is TournamentFormat.ELIMINATION:
        return elimination_winner(seeded, results)
    if tournament.format is TournamentFormat.GROUPS:
        knockout, group_of, played = _knockout(tournament, entrants, results)
        if len(knockout) < 2:
            return knockout[0] if knockout else None
        return elimination_winner(knockout, played, group_of=group_of)
    table = compute_standings(seeded, results, byes, tournament.scoring, requested_byes)
    first = [row.player for row in table if row.place == 1]
    return first[0] if len(first) == 1 else None


async def start_match(
    tx: Transaction,
    tournament: TournamentView,
    player1: int,
    player2: int,
    now: datetime,
    knockout: bool,
    store_pairing: Callable[[int], Awaitable[None]],
) -> GameView:
    """A tournament match between the two (player 1 white in game 1), and its first game; a
    knockout match is played until decided (tiebreak games). `store_pairing` links the match to
    its pairing before the game is made: the game's clock depends on the tournament (vacations)."""
    match_id = await create_match(
        tx,
        guild_id=tournament.guild_id,
        player1_id=player1,
        player2_id=player2,
        games_total=tournament.games_per_match,
        now=now,
        until_decided=knockout,
        tiebreaks=tournament.tiebreaks if knockout else None,
    )
    await store_pairing(match_id)
    return await insert_game(
        tx,
        guild_id=tournament.guild_id,
        channel_id=tournament.channel_id,
        thread_id=None,
        white_id=player1,
        black_id=player2,
        setup=tournament.setup,
        now=now,
        match_id=match_id,
        match_game=1,
    )


async def announce_progress(
    tx: Transaction,
    progress: TournamentProgress,
    now: datetime,
    *,
    headline: Headline | None = None,
    player_id: int | None = None,
    after: int | None = None,
    dropped: tuple[int, ...] = (),
) -> None:
    """Announce what moved a tournament on, then start the games of the rounds that began
    (each after the news, so the pairings come first)."""
    news = TournamentNews(
        progress.tournament.id,
        headline=None if headline is None else headline.value,
        player_id=player_id,
        decided=tuple(p.id for p in progress.decided),
        rounds=tuple(r.number for r in progress.rounds),
        finished=progress.finished,
        cancelled=progress.tournament.status.value == "cancelled",
        dropped=dropped,
    )
    news_id = await enqueue(tx, news, now, after=after)
    for game in progress.games:
        start = GameStart(game.id, tournament_id=progress.tournament.id)
        await enqueue(tx, start, now, after=news_id)
