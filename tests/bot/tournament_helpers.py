"""Shared steps for the tournament service tests: players, a tournament to join, games won by
real moves on a 3x3 board."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.model import GameView
from bot.play.outcomes import GameEnding
from bot.players.model import PlayerRef
from bot.services import Services
from bot.tournaments.rules import RulesRequest, TournamentRules
from bot.tournaments.tournament import TournamentProgress, TournamentView
from tests.bot.setups import setup_of, taken

GUILD = 3_000_000_000_000_000_003
CHANNEL = 4_000_000_000_000_000_004
ORGANIZER = PlayerRef(900, "org")
ANN, BEN, CAT, DAN, EVE = (
    PlayerRef(401 + i, name) for i, name in enumerate(("ann", "ben", "cat", "dan", "eve"))
)
STRENGTH = [ANN, BEN, CAT, DAN, EVE]  # in the tests, the earlier player wins unless told

# On 3x3 the road winner scores 9 squares + 7 unplayed stones = 16 either way.
WHITE_ROAD = "a3 a1 b1 b3 c1"
BLACK_ROAD = "a1 c3 c2 b1 b3 c1"
ROAD_POINTS = 16


async def new_tournament(
    services: Services, players: Sequence[PlayerRef] = (), **settings: Any
) -> TournamentView:
    """A 3x3 tournament created by the organizer, with `players` signed up in order."""
    settings.setdefault("name", "Spring Open")
    settings.setdefault("format", "round_robin")
    settings.setdefault("size", 3)
    settings.setdefault("komi", 0)
    settings.setdefault("days_per_move", 1)
    tournament = await create_tournament(services, **settings)
    for player in players:
        await services.tournaments.join(tournament.id, player)
    return await services.tournaments.get(tournament.id)


async def create_tournament(services: Services, **settings: Any) -> TournamentView:
    """:meth:`TournamentService.create` with every setting a keyword, as `/tournament create`
    takes them: the games' setup (the server's defaults for what is left out) and its time
    control, the tournament's rules and its tiebreak games' time control, checked once."""
    guild_id, channel_id = settings.pop("guild_id", GUILD), settings.pop("channel_id", CHANNEL)
    setup = await setup_of(services, guild_id, settings)
    given = taken(settings, ("name", "signup_deadline", "checkin", "is_organizer", "organizer"))
    rules = TournamentRules.create(RulesRequest(**settings), days_per_move=setup.days_per_move)
    return await services.tournaments.create(
        guild_id=guild_id,
        channel_id=channel_id,
        setup=setup,
        rules=rules,
        **{"organizer": ORGANIZER, "is_organizer": True, **given},
    )


async def start(services: Services, tournament_id: int) -> TournamentProgress:
    return await services.tournaments.start(tournament_id, actor_id=ORGANIZER.id, is_organizer=True)


async def play_moves(services: Services, game_id: int, moves: str) -> GameEnding | None:
    """Each move by the player to move; the ending of the last one."""
    ending = None
    for text in moves.split():
        game = await services.games.get(game_id)
        outcome = await services.games.move(
            game_id, game.player_to_move.id, text, expected_ply=game.ply
        )
        ending = outcome.ending
    return ending


async def win(services: Services, game: GameView, winner_id: int) -> GameEnding:
    """`winner_id` wins `game` by a road."""
    road = WHITE_ROAD if game.white.id == winner_id else BLACK_ROAD
    ending = await play_moves(services, game.id, road)
    assert ending is not None and ending.game.winner is not None
    assert ending.game.winner.id == winner_id
    return ending


async def active_game(services: Services, match_id: int) -> GameView:
    games = [g for g in await services.matches.games(match_id) if g.is_active]
    assert len(games) == 1
    return games[0]


def stronger(game: GameView) -> int:
    return min((game.white, game.black), key=STRENGTH.index).id


async def play_match(
    services: Services, match_id: int, winner_of: Callable[[GameView], int] = stronger
) -> GameEnding:
    """Play the match's games to its end, `winner_of(game)` winning each."""
    while True:
        game = await active_game(services, match_id)
        ending = await win(services, game, winner_of(game))
        if ending.next_game is None:
            return ending


async def play_round(
    services: Services, tournament_id: int, winner_of: Callable[[GameView], int] = stronger
) -> GameEnding | None:
    """Play every undecided match of the current round; the ending that closed the round."""
    last = None
    for pairing in (await services.tournaments.pairings(tournament_id)).pairings:
        if not pairing.is_decided:
            assert pairing.match_id is not None
            last = await play_match(services, pairing.match_id, winner_of)
    return last
