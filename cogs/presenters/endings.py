"""A game's ending: the result, the road, the points, the ratings and the match score, with the
final board and a Rematch button (the match's next game is its own announcement); and the note
under an ending the ply limit decided."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from bot.games.model import GameView, MatchStatus
from bot.notifications.outbox import EndingCause, GameEnded, Item, Payload
from bot.play.outcomes import GameEnding, MoveOutcome
from bot.play.service import at_ply_limit
from cogs.components.buttons import buttons
from cogs.delivery.table import GameTable, Post, Shown
from cogs.presenters.boards import supersede
from cogs.words import game_messages, league_messages, tournament_messages
from tak import Position, parse_move


async def show_ending(table: GameTable, item: Item, ended: GameEnded) -> Shown:
    """The ending with the final board; a tournament's stop, in a line."""
    game = await table.services.games.get(ended.game_id)
    if ended.cause == EndingCause.STOPPED and ended.league_id is not None:
        league = await table.services.leagues.get(ended.league_id)
        shown = await table.post_for_game(
            item, game, Post(league_messages.stopped_text(league, game.id))
        )
        await supersede(table, item, game.id)
        return shown
    if ended.cause == EndingCause.STOPPED:
        assert ended.tournament_id is not None
        tournament = await table.services.tournaments.get(ended.tournament_id)
        stopped = Post(tournament_messages.stopped_text(tournament, game.id))
        shown = await table.post_for_game(item, game, stopped)
        await supersede(table, item, game.id)
        return shown
    position = game.position_from_tps()
    ending = await _ending_of(table, game, position, ended)
    last = ended.move or game.last_move
    games = [] if game.match_id is None else await table.services.matches.games(game.match_id)
    text = game_messages.ending_text(ending, [g for g in games if g.id <= game.id])
    preface = game_messages.ending_preface(ended)
    if ended.cause == EndingCause.MOVE and ended.move is not None and ended.ply is not None:
        played = MoveOutcome(game, ended.move, ended.ply, position, ended.tak, ending)
        preface = game_messages.move_text(played, by_condition=ended.by_condition)
    if preface:
        text = f"{preface}\n{text}"
    text = await table.noted(text, game, ended)
    view = buttons(("rematch", game.id)) if ending.next_game is None else None
    post = await table.board_post(
        game,
        position,
        text,
        viewer_id=None,
        last_move=None if last is None else parse_move(last),
        view=view,
    )
    shown = await table.post_for_game(item, game, post)
    await supersede(table, item, game.id)
    return shown


async def _ending_of(
    table: GameTable, game: GameView, position: Position, ended: GameEnded
) -> GameEnding:
    """The game's ending as it stood when it ended (the match score then, not now)."""
    services = table.services
    assert game.result is not None
    result = game.result
    board = position.result
    if board is not None and board.kind is result.kind:
        result = board  # with its road
    match = None
    if game.match_id is not None and ended.match_points is not None:
        assert ended.match_status is not None  # recorded with the match points
        match = replace(
            await services.matches.get(game.match_id),
            points1=ended.match_points[0],
            points2=ended.match_points[1],
            games_played=ended.match_games_played or 0,
            status=MatchStatus(ended.match_status),
        )
    next_game = None
    if ended.next_game_id is not None:
        next_game = await services.games.get(ended.next_game_id)
    ratings = await services.ratings.changes_for_game(game.id)
    return GameEnding(game, result, game.points or 0, match, next_game, ratings)


async def ply_limit_note(game: GameView, payload: Payload) -> str | None:
    """Under the ending of a game the ply limit ended: why, and the count that decided it."""
    if not (isinstance(payload, GameEnded) and payload.cause == EndingCause.MOVE):
        return None
    position = game.position_from_tps()
    if not at_ply_limit(game, position):
        return None
    return game_messages.ply_limit_text(game, position)


def register(table: GameTable) -> None:
    table.register(GameEnded, partial(show_ending, table))
    table.notes.append(ply_limit_note)
