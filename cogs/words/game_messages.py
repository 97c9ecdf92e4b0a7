"""What the bot says about games: challenges, starts, moves, offers, endings, matches, the game
lists, a game file read, the server's game settings and the help.

The wording modules are named by what they word (:mod:`cogs.words.clock_messages`,
:mod:`cogs.words.player_messages`, :mod:`cogs.words.coin_messages`,
:mod:`cogs.words.notification_messages`, :mod:`cogs.words.tournament_messages`,
:mod:`cogs.words.result_messages`; names, mentions and times in :mod:`cogs.words.formatting`): small
functions from service results to message text and embeds. No Discord calls and no rules in them:
the services decide, the engine knows Tak, and these only put their answers into words;
:mod:`cogs.presenters` posts them.
"""

from __future__ import annotations

import io

import discord

from bot.games.conditions import Conditions
from bot.games.explorer import Exploration, Tally
from bot.games.model import (
    ChallengeStatus,
    ChallengeView,
    GameSetup,
    GameStatus,
    GameView,
    MatchStatus,
    MatchView,
)
from bot.games.scratch import numbered
from bot.guild_settings import GuildSettings, Pages
from bot.languages import _, language_name, ngettext, numeral
from bot.notifications.outbox import (
    ConditionsDropped,
    DropReason,
    EndingCause,
    GameEnded,
    RequestMade,
)
from bot.page_addresses import PageAddresses
from bot.play.outcomes import GameEnding, MoveOutcome
from bot.text_safety import MAX_MESSAGE, message_text, one_line
from cogs.words.clock_messages import clock_note, clock_state, describe_clock
from cogs.words.formatting import display, mention, mention_role, timestamp
from cogs.words.player_messages import ratings_changed_text
from tak import Color, Opening, Position, Result, ResultKind, parse_tps, square_name
from tak.ptn import Game, move_number

MAX_THREAD_NAME = 100


def colour_name(colour: Color) -> str:
    """ "white" or "black" in the language spoken."""
    return _("white") if colour is Color.WHITE else _("black")


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def tie_rule() -> str:
    return _("the antiquity tie rule (a tied flat count goes to black)")


def result_sentence(result: Result) -> str:
    """A result for people, e.g. "White wins by road." (the engine's own words are English)."""
    if result.kind is ResultKind.ABORT:
        return _("The game was aborted.")
    if result.winner is None:
        if result.kind is ResultKind.AGREEMENT:
            return _("Draw by agreement.")
        return _("Draw: the flat count is tied.")
    colour = _capitalised(colour_name(result.winner))
    return {
        ResultKind.ROAD: _("{colour} wins by road.", colour=colour),
        ResultKind.FLATS: _("{colour} wins on flats.", colour=colour),
        ResultKind.RESIGNATION: _("{colour} wins by resignation.", colour=colour),
        ResultKind.TIME: _("{colour} wins on time.", colour=colour),
    }.get(result.kind) or _("{colour} wins.", colour=colour)


def reserves_text(setup: GameSetup) -> str:
    """ "21 stones and 1 capstone each", or each colour's when they differ."""
    (white_stones, black_stones), (white_caps, black_caps) = setup.stones, setup.caps
    if (white_stones, white_caps) == (black_stones, black_caps):
        return _("{pieces} each", pieces=pieces(white_stones, white_caps))
    return _(
        "white {white}, black {black}",
        white=pieces(white_stones, white_caps),
        black=pieces(black_stones, black_caps),
    )


def pieces(stones: int, caps: int) -> str:
    return _(
        "{stones} and {caps}",
        stones=ngettext("{count} stone", "{count} stones", stones),
        caps=ngettext("{count} capstone", "{count} capstones", caps),
    )


def opening_text(opening: Opening) -> str:
    return _("swap opening") if opening is Opening.SWAP else _("no-swap opening")


def describe_setup(setup: GameSetup, games: int = 1) -> str:
    komi = _("komi {komi}", komi=numeral(setup.komi))
    if setup.antiquity:
        komi = _("komi {komi} with {rule}", komi=numeral(setup.base_komi), rule=tie_rule())
    parts = [f"{setup.size}x{setup.size}", komi, opening_text(setup.opening)]
    if setup.start_tps is not None:
        parts.insert(1, start_text(setup.start_tps))
    if not setup.standard_reserves:
        parts.append(reserves_text(setup))
    parts.append(describe_clock(setup))
    parts.append(_("rated") if setup.rated else _("unrated"))
    if games > 1:
        parts.append(ngettext("a match of {count} game", "a match of {count} games", games))
    return ", ".join(parts)


def challenge_text(challenge: ChallengeView) -> str:
    who = challenge.challenger
    colour = {
        "white": _("as white (moving first)"),
        "black": _("as black"),
        "random": _("with colours drawn at random"),
    }[challenge.colour.value]
    if challenge.ante is not None:
        colour = _(
            "for coins: an ante of **{ante}** each, and sealed bids for the first move",
            ante=challenge.ante,
        )
    setup = describe_setup(challenge.setup, challenge.games)
    if challenge.opponent is None:
        text = _(
            "{challenger} offers an **open challenge**: anyone may accept, playing {colour}.\n"
            "{setup}.",
            challenger=mention(who),
            colour=colour,
            setup=setup,
        )
    else:
        text = _(
            "{challenger} challenges {opponent}, playing {colour}.\n{setup}.",
            challenger=mention(who),
            opponent=mention(challenge.opponent),
            colour=colour,
            setup=setup,
        )
    if challenge.rematch_of is not None:
        text = _("Rematch of game #{game}! {text}", game=challenge.rematch_of, text=text)
    if challenge.setup.rated and not challenge.in_server:
        text += "\n" + _(
            "Rated in the anywhere pool: games outside servers, apart from any server's."
        )
    return f"{text}\n{challenge_status(challenge)}"


def challenge_status(challenge: ChallengeView) -> str:
    match challenge.status:
        case ChallengeStatus.OPEN:
            return _(
                "Challenge #{challenge}, open until {time}.",
                challenge=challenge.id,
                time=timestamp(challenge.expires_at),
            )
        case ChallengeStatus.ACCEPTED:
            accepter = mention(challenge.accepted_by or 0)
            if challenge.game_id:
                return _(
                    "Accepted by {player}: game #{game}.", player=accepter, game=challenge.game_id
                )
            return _("Accepted by {player}: bidding for the first move.", player=accepter)
        case ChallengeStatus.DECLINED:
            return _("Declined.")
        case ChallengeStatus.CANCELLED:
            return _("Cancelled by the challenger.")
    return _("Expired: nobody accepted it in time.")


def players_line(game: GameView) -> str:
    return _(
        "**{white}** (white) vs **{black}** (black)",
        white=display(game.white.name),
        black=display(game.black.name),
    )


def thread_name(game: GameView, match_games: int = 1) -> str:
    """ "Game 3: alice vs bob" (the game's number), or in a match "Game 2 of 3: bob vs alice"
    (the game being played in the match's thread)."""
    players = _("{white} vs {black}", white=game.white.name, black=game.black.name)
    if game.tiebreak is not None:
        name = _("Tiebreak {number}: {players}", number=game.tiebreak, players=players)
    elif game.match_game and match_games > 1:
        name = _(
            "Game {number} of {total}: {players}",
            number=game.match_game,
            total=match_games,
            players=players,
        )
    else:
        name = _("Game {number}: {players}", number=game.id, players=players)
    return name[:MAX_THREAD_NAME]


def game_start_text(game: GameView, *, match_games: int, with_setup: bool) -> str:
    """The first board's text: which game (of a match of `match_games`), who plays whom, the
    settings only where nothing showed them before (`with_setup`), and the first turn. A
    tiebreak game always names its clock: the match's settings did not show its own."""
    if game.tiebreak is not None:
        head = _(
            "Tiebreak game {number} of the match (game #{game})", number=game.tiebreak, game=game.id
        )
    elif game.match_game and match_games > 1:
        head = _(
            "Match game {number} of {total} (game #{game})",
            number=game.match_game,
            total=match_games,
            game=game.id,
        )
    else:
        head = _("Game #{game}", game=game.id)
    players, turn = players_line(game), your_move(game, first=True)
    if with_setup or game.tiebreak is not None:
        return _(
            "{head} starts: {players}, {setup}.\n{turn}",
            head=head,
            players=players,
            setup=describe_setup(game.setup) if with_setup else describe_clock(game.setup),
            turn=turn,
        )
    return _("{head} starts: {players}.\n{turn}", head=head, players=players, turn=turn)


def your_move(game: GameView, *, first: bool = False) -> str:
    """Whose move it is and their clock; the first time (`first`) with how to move and, in a
    swap opening, what the first placement is."""
    clock = clock_note(game)
    clock = f" · {clock}" if clock else ""
    player = mention(game.player_to_move)
    if not first:
        return _("{player} to move", player=player) + clock
    if game.setup.opening is Opening.SWAP and game.ply < 2:
        other = display(game.opponent_of(game.player_to_move.id).name)
        text = _(
            "{player}, your move with `/tak move` or the **Move** button: place one of "
            "**{other}**'s flats",
            player=player,
            other=other,
        )
    else:
        text = _("{player}, your move with `/tak move` or the **Move** button", player=player)
    return f"{text}{clock}"


def ply_label(position: Position, move: str) -> str:
    """The move just played numbered as in the PTN: "5. a5" for white's, "5... b5" for
    black's (`position` is the board after it)."""
    return f"{move_number(position.ply - 1)} {move}"


def move_text(outcome: MoveOutcome, *, by_condition: bool = False, answered: bool = False) -> str:
    """ "**5. a5** — **Tak!** @bob to move · time runs out …": the first two plies of a swap
    opening say whose stone was placed, and each player's first turn says how to move. A move
    Bredon played for its player (`by_condition`) says so; one their opponent's conditional
    move answered at once (`answered`) names no one to move: the answer follows."""
    game, position = outcome.game, outcome.position
    text = f"**{ply_label(position, outcome.move)}**"
    if outcome.tinue:
        text += " — **Tinuë!**"
    elif outcome.tak:
        text += " — **Tak!**"
    if game.setup.opening is Opening.SWAP and position.ply <= 2:
        mover = game.player(position.to_move.other)
        owner = game.player(position.to_move)
        text += " — " + _(
            "**{mover}** placed **{owner}**'s first stone",
            mover=display(mover.name),
            owner=display(owner.name),
        )
        if position.ply == 1:  # said once: the reply is the same swap
            text += " " + _(
                "(in a swap opening each player's first placement is the opponent's flat)"
            )
    if by_condition:
        text += " — " + _("played by condition.")
    if answered and outcome.ending is None:
        answers = _("**{player}** answers by condition:", player=display(game.player_to_move.name))
        return f"{text} — {answers}"
    if outcome.ending is None:
        first = game.plies_played < 2
        text += f"\n{your_move(game, first=True)}" if first else f" {your_move(game)}"
    return text


def you_played(outcome: MoveOutcome) -> tuple[str, str]:
    """What the mover is told: their move and the answer their opponent's conditional moves
    gave at once, as posted (with the post's link to follow), and as recorded (its post still
    to come)."""
    game_id, move = outcome.game.id, outcome.move
    answer = outcome.answer
    then = (
        ""
        if answer is None
        else _(
            "; {player} answered **{move}** by condition",
            player=display(answer.game.player(answer.position.to_move.other).name),
            move=answer.move,
        )
    )
    return (
        _("You played **{move}** in game #{game}{then}", move=move, game=game_id, then=then),
        _(
            "Your move {move} in game #{game} was recorded{then}",
            move=move,
            game=game_id,
            then=then,
        ),
    )


def already_played(outcome: MoveOutcome) -> str:
    """What the mover is told when the same move request came again (a command or a Confirm
    sent twice): the move it made the first time, and that nothing more was played."""
    return _(
        "You had already played **{move}** in game #{game}: that was the same move sent again, "
        "so nothing more was played.",
        move=outcome.move,
        game=outcome.game.id,
    )


def taken_back_text(game: GameView, taken_back: str) -> str:
    """A move taken back (the game is back before it), and whose move it is."""
    taken = _("**{move}** was taken back in game #{game}.", move=taken_back, game=game.id)
    return f"{taken}\n{your_move(game)}"


def request_text(game: GameView, request: RequestMade) -> str:
    """A draw offer or an undo request, put to the opponent."""
    asker, opponent = mention(request.asker_id), mention(game.opponent_of(request.asker_id))
    match request.what:
        case "draw":
            return _(
                "{asker} offers a draw in game #{game}. {opponent}, do you accept?",
                asker=asker,
                game=game.id,
                opponent=opponent,
            )
        case "undo":
            return _(
                "{asker} asks to take back the last move ({move}) in game #{game}. {opponent}, "
                "do you allow it?",
                asker=asker,
                move=request.last_move,
                game=game.id,
                opponent=opponent,
            )
    raise ValueError(f"No wording for a request of {request.what!r}")


def ending_preface(ended: GameEnded) -> str | None:
    """What ended the game, above its result (None when the ending says it all: a move's
    ending is prefaced by the move)."""
    who = mention(ended.by or 0)
    match EndingCause(ended.cause):
        case EndingCause.RESIGN:
            return _("{player} resigned.", player=who)
        case EndingCause.ABORT:
            return _("{player} aborted the game.", player=who)
        case EndingCause.DRAW:
            return _("{player} accepted the draw offer.", player=who)
        case EndingCause.TIME:
            return _("Time is up.")
        case EndingCause.REPORTED:
            return _(
                "{player} reported this game, played elsewhere, with its PTN file: its moves are "
                "checked and stored here.",
                player=who,
            )
    return None


def result_text(game: GameView, result: Result) -> str:
    if result.winner is None:
        return f"{result_sentence(result)} ({result.ptn()})"
    winner, colour = display(game.player(result.winner).name), colour_name(result.winner)
    fields = {"winner": winner, "colour": colour, "result": result.ptn()}
    return {
        ResultKind.ROAD: _("**{winner}** ({colour}) wins by road ({result}).", **fields),
        ResultKind.FLATS: _("**{winner}** ({colour}) wins on flats ({result}).", **fields),
        ResultKind.RESIGNATION: _(
            "**{winner}** ({colour}) wins by resignation ({result}).", **fields
        ),
        ResultKind.TIME: _("**{winner}** ({colour}) wins on time ({result}).", **fields),
    }.get(result.kind) or _("**{winner}** ({colour}) wins ({result}).", **fields)


def road_text(result: Result) -> str | None:
    if not result.road:
        return None
    squares = " - ".join(square_name(file, rank) for file, rank in result.road)
    return _("Road: {squares}", squares=squares)


def games_won(match: MatchView, games: list[GameView]) -> tuple[float, float]:
    """The match's games won by each player so far (a drawn game is half each; an aborted
    game or one still played counts nothing)."""
    one = two = 0.0
    for game in games:
        if game.status is not GameStatus.FINISHED or game.result is None:
            continue
        if game.result.winner is None:
            one, two = one + 0.5, two + 0.5
        elif game.player(game.result.winner).id == match.player1.id:
            one += 1
        else:
            two += 1
    return one, two


def _games_count(won: float) -> str:
    whole = int(won)
    if won == whole:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


def match_text(match: MatchView, games: list[GameView]) -> str:
    """ "Match score: alice 1 – 0 bob (game 1 of 2; points 61 – 0)": games first, as
    players count them, then the points that decide the match. `games`: its games so far."""
    one, two = display(match.player1.name), display(match.player2.name)
    won1, won2 = games_won(match, games)
    score = f"{one} {_games_count(won1)} – {_games_count(won2)} {two}"
    points = _("points {one} – {two}", one=match.points1, two=match.points2)
    if match.status is MatchStatus.FINISHED:
        leader = match.leader
        if leader is None:
            verdict = _("The match is drawn")
        else:
            # Points decide a match: say so when the winner did not win more games.
            ahead = won1 > won2 if leader.id == match.player1.id else won2 > won1
            name = display(leader.name)
            verdict = (
                _("{player} wins the match", player=name)
                if ahead
                else _("{player} wins the match on points", player=name)
            )
        return _(
            "Match over: {score} ({points}). {verdict}!",
            score=score,
            points=points,
            verdict=verdict,
        )
    if match.status is MatchStatus.ABORTED:
        return _(
            "Match abandoned after an aborted game: {score} ({points}).", score=score, points=points
        )
    total = max(match.games_total, match.games_played)
    return _(
        "Match score: {score} (game {played} of {total}; {points}).",
        score=score,
        played=match.games_played,
        total=total,
        points=points,
    )


def ending_text(ending: GameEnding, match_games: list[GameView]) -> str:
    """The result, the road, the points, the match score (`match_games`: its games up to this
    one) and the ratings."""
    game = ending.game
    lines = [
        _("Game #{game} is over. {result}", game=game.id, result=result_text(game, ending.result))
    ]
    road = road_text(ending.result)
    if road:
        lines.append(road)
    if ending.result.winner is not None:
        winner = game.player(ending.result.winner)
        lines.append(
            _(
                "{player} scores **{points}** points.",
                player=display(winner.name),
                points=ending.points,
            )
        )
    if ending.match is not None:
        lines.append(match_text(ending.match, match_games))
    if ending.ratings is not None:
        lines.append(ratings_changed_text(ending.ratings))
    return "\n".join(lines)


def note_text(game_id: int, note: str | None, *, written: bool) -> str:
    """Your note on a game, as kept (only you see it)."""
    if note is None:
        return (
            _("Your note on game #{game} is deleted.", game=game_id)
            if written
            else _(
                "You have no note on game #{game}: write one with `/game note text:`.", game=game_id
            )
        )
    quoted = "\n".join(f"> {line}" for line in note.splitlines())
    heading = (
        _("Kept your note on game #{game} (only you see it):", game=game_id)
        if written
        else _("Your note on game #{game} (only you see it):", game=game_id)
    )
    # A note of many short lines quotes longer than a message holds: the rest is cut (the
    # whole note is in the player's own /game ptn).
    return message_text(f"{heading}\n{quoted}")


def scratch_text(game_id: int, ply: int, line: str) -> str:
    return _(
        "Scratch board of game #{game} from ply {ply}: {line}\n"
        "Only you see it; nothing was played.",
        game=game_id,
        ply=ply,
        line=line,
    )


def conditions_text(conditions: Conditions, *, added: bool = False) -> str:
    """A player's conditional moves in a game, each line numbered as PTN (only they see it),
    within one message."""
    game = conditions.game_id
    if not conditions.lines:
        return _(
            "You have no conditional moves in game #{game}. While your opponent is to move, "
            "enter lines with `/game conditions add`: their reply, then your answer, e.g. "
            "`c3 d4`.",
            game=game,
        )
    if added:
        text = _(
            "Kept. Your conditional moves in game #{game} (only you see them): when your "
            "opponent plays the first move of a line, Bredon plays your answer at once and keeps "
            "the rest.",
            game=game,
        )
    else:
        text = _(
            "Your conditional moves in game #{game} (only you see them): when your opponent "
            "plays the first move of a line, Bredon plays your answer at once and keeps the rest.",
            game=game,
        )
    if conditions.replaced:
        text += "\n" + _("A line that answered one of those replies another way was replaced.")
    shown = conditions.numbered()
    for count, line in enumerate(shown):
        more = "\n" + ngettext(
            "… and {count} more: all of them are in the attached file.",
            "… and {count} more: all of them are in the attached file.",
            len(shown) - count,
        )
        if len(text) + len(line) + 5 + len(more) > MAX_MESSAGE:
            return text + more
        text += f"\n- `{line}`"
    return text


def conditions_file(conditions: Conditions, text: str) -> discord.File | None:
    """Every line, numbered as PTN, as a text file, when `text` (:func:`conditions_text`)
    could not hold them all; else None."""
    shown = conditions.numbered()
    if text.count("\n- `") >= len(shown):
        return None
    text = "\n".join(shown) + "\n"
    name = f"conditions-game-{conditions.game_id}.txt"
    return discord.File(io.BytesIO(text.encode()), filename=name)


def conditions_cleared_text(game_id: int, cleared: int) -> str:
    if not cleared:
        return _("You had no conditional moves in game #{game}.", game=game_id)
    return ngettext(
        "Cleared your conditional moves in game #{game} ({count} line).",
        "Cleared your conditional moves in game #{game} ({count} lines).",
        cleared,
        game=game_id,
    )


def conditions_dropped_text(dropped: ConditionsDropped) -> str:
    """Told to the owner alone: why Bredon dropped their conditional moves."""
    if dropped.reason == DropReason.UNDO:
        return _(
            "Your conditional moves in game #{game} were cleared: a move was taken back, so they "
            "no longer start from the position on the board.",
            game=dropped.game_id,
        )
    return _(
        "Your conditional moves in game #{game} were dropped: your answer **{move}** could not "
        "be played ({reason}). It is your move.",
        game=dropped.game_id,
        move=dropped.move,
        reason=dropped.detail,
    )


def next_game_line(game: GameView, waiting: int) -> str:
    """Under a move's confirmation: the next game awaiting the mover, and how many do."""
    others = (
        " "
        + ngettext("({count} game awaits your move)", "({count} games await your move)", waiting)
        if waiting > 1
        else ""
    )
    opponent = display(game.opponent_of(game.player_to_move.id).name)
    return _(
        "Next: game #{game} against {opponent}, ply {ply}{clock}{others}.",
        game=game.id,
        opponent=opponent,
        ply=game.ply,
        clock=clock_state(game),
        others=others,
    )


def game_line(game: GameView, viewer_id: int | None) -> str:
    """A game in one line: its players, then :func:`game_state`."""
    return f"#{game.id} {players_line(game)}{game_state(game, viewer_id)}"


def game_state(game: GameView, viewer_id: int | None) -> str:
    """ ", ply 4: **your move** (time runs out ...)" (the viewer's move, or whose), or ": 1-0"."""
    if game.is_active:
        if game.player_to_move.id == viewer_id:
            state = _("**your move**")
        else:
            state = _("{player} to move", player=display(game.player_to_move.name))
        return _(", ply {ply}: {state}", ply=game.ply, state=state) + clock_state(game)
    if game.result:
        return f": {game.result.ptn()}"
    status = _("aborted") if game.status is GameStatus.ABORTED else _("finished")
    return f": {status}"


def guild_settings_text(settings: GuildSettings, *, reads_typed_moves: bool, language: str) -> str:
    """`/bredon config`'s answer; `language`: the one the server's posts are in now."""
    role = mention_role(settings.organizer_role_id) if settings.organizer_role_id else _("none")
    if not settings.typed_moves:
        typed = _("not read")
    elif reads_typed_moves:
        typed = _("played")
    else:
        typed = _("on, but this bot does not read messages (BREDON_TYPED_MOVES is off)")
    komi = _("komi {komi}", komi=numeral(settings.komi))
    if settings.antiquity:
        komi = _("komi {komi} with {rule}", komi=numeral(settings.komi), rule=tie_rule())
    return (
        _(
            "New challenges default to {size}x{size}, {komi}, {days} days a move. Threads per "
            "game: {threads}. Organizer role: {role}. Moves typed in game threads: {typed}. "
            "Vacation days a year: {vacation}.",
            size=settings.size,
            komi=komi,
            days=settings.days_per_move,
            threads=_("on") if settings.use_threads else _("off"),
            role=role,
            typed=typed,
            vacation=settings.vacation_days or _("none (vacations off)"),
        )
        + "\n"
        + (
            _("Posts here are in **{language}**.", language=language_name(language))
            if settings.language is not None
            else _(
                "Posts here are in the server's own language (**{language}** now).",
                language=language_name(language),
            )
        )
    )


def pages_text(pages: Pages, addresses: PageAddresses | None, guild_id: int) -> str:
    """`/bredon config`'s line on the server's web pages; `addresses`: where they are read
    (None: the bot's operator has said nowhere, so no link can be given)."""
    if pages is Pages.OFF:
        return _("Web pages: off.")
    if addresses is None:
        return _(
            "Web pages: on, but the bot's operator has not said where they are read "
            "(BREDON_PUBLIC_URL), so no link to them is posted."
        )
    if pages is Pages.UNLISTED:
        return _("Web pages: on, each only to whoever has its link (posted under the boards).")
    return _("Web pages: listed; the lobby: <{url}>", url=addresses.server(guild_id))


def page_link(url: str) -> str:
    """The game's web page under its board (in angle brackets: Discord previews it not)."""
    return _("[Follow this game on the web](<{url}>)", url=url)


RULES_URL = "https://ustak.org/play-beautiful-game-tak/"  # the README's link to the rules


def help_embed() -> discord.Embed:
    """A primer that fits one phone screen, in the language spoken: the goal, how to move, and
    every player's command by name (the details are in docs/players.md)."""
    embed = discord.Embed(
        title=_("Bredon: Tak in Discord"),
        description=_(
            "Build a **road**: a line of your pieces joining two opposite sides of the board. "
            "Each turn, place a piece on an empty square or move a stack you control. Your first "
            "placement is one of your opponent's flats. [The rules]({rules}); all commands: "
            "`docs/players.md`.",
            rules=RULES_URL,
        ),
    )
    embed.add_field(
        name=_("Play"),
        value=_(
            "`/tak challenge` a member, or `/tak play` me. Move with `/tak move` (it suggests "
            "legal moves) or the **Move** button: pick the square, then the move.\n"
            "`/tak board` · `/tak games` · `/tak draw` · `/tak undo` · `/tak resign` · "
            "`/tak abort` · `/game conditions`"
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Moves in PTN"),
        value=_(
            "`a1` flat · `Sb2` wall · `Cc3` capstone · `c3>` one piece right (`<` `+` `-`) · "
            "`3c3+12` three up, dropping 1 then 2"
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Time"),
        value=_(
            "`/clock moretime` · `/clock pause` · `/clock resume` · `/clock reminders` · "
            "`/clock vacation`"
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Records and you"),
        value=_(
            "`/game ptn` · `/game tps` · `/game replay` · `/game view` · `/game analysis` · "
            "`/game note` · `/game scratch` · `/game explore`\n"
            "`/profile settings` · `/profile scores` · `/profile stats` · `/profile leaderboard` · "
            "`/coins wallet` · `/coins leaderboard`\n"
            "`/puzzle` · `/season` · `/league` · `/tournament`"
        ),
        inline=False,
    )
    return embed


def start_text(tps: str) -> str:
    """Where a game set up from a TPS starts, e.g. "from a set position (move 4, black to move)"."""
    board = parse_tps(tps)
    return _(
        "from a set position (move {move}, {colour} to move)",
        move=board.move_number,
        colour=colour_name(board.to_move),
    )


def viewed_game_text(record: Game, filename: str) -> str:
    """What `/game view` says of an attached PTN file above its final board."""
    # The file's tags and name are anyone's text, of any length: one short line each.
    white, black = (
        display(one_line(record.tag(f"Player{n}") or _("Player {number}", number=n), 60))
        for n in (1, 2)
    )
    start = record.start()
    setup = _("{size}x{size}, komi {komi}", size=start.size, komi=numeral(start.komi))
    tps = record.tag("TPS")
    if tps is not None and tps.strip():
        setup += ", " + start_text(tps)
    plies = len(record.plies)
    counted = ngettext("{plies} ply", "{plies} plies", plies, plies=numeral(plies))
    if record.result is not None:
        result = _(
            "{plies}; {result} ({ptn}).",
            plies=counted,
            result=result_sentence(record.result).rstrip("."),
            ptn=record.result.ptn(),
        )
    else:
        result = _("{plies}; no result: the board below is where the game stands.", plies=counted)
    heading = _(
        "**{file}**: **{white}** (white) vs **{black}** (black), {setup}.",
        file=display(one_line(filename, 80)),
        white=white,
        black=black,
        setup=setup,
    )
    return f"{heading}\n{result}"


def ply_limit_text(game: GameView, position: Position) -> str:
    """Why a game the ply limit ended was decided on flats, and the count that decided it."""
    komi = _(", komi {komi}", komi=numeral(position.komi, sign=True)) if position.komi else ""
    rule = _(", with {rule}", rule=tie_rule()) if position.ties_to_black else ""
    return _(
        "The game reached {plies} plies, the longest a game may be: the flat count decides, as "
        "on a full board (White {white}, Black {black}{komi}{rule}).",
        plies=numeral(game.plies_played),
        white=position.flat_count(Color.WHITE),
        black=position.flat_count(Color.BLACK),
        komi=komi,
        rule=rule,
    )


def explored_from(game: GameView | None, ply: int, moves: str) -> str:
    """Where the explored position comes from: the start or a game's position at `ply`, and
    the moves played from there."""
    line = numbered(ply, moves.replace(",", " ").split())
    if game is None:
        return _("After {moves}:", moves=line) if line else _("The start of the game:")
    if line:
        return _("Game #{game} at ply {ply}, then {moves}:", game=game.id, ply=ply, moves=line)
    return _("Game #{game} at ply {ply}:", game=game.id, ply=ply)


def not_explorable(game: GameView, size: int | None) -> str:
    """Why the explorer cannot start from `game`'s position."""
    if size is not None and size != game.setup.size:
        return _(
            "Game #{game} is played on {size}x{size}: leave out the size, or the game.",
            game=game.id,
            size=game.setup.size,
        )
    return _(
        "Game #{game} is not played with the standard rules (the empty board, the standard "
        "pieces, the swap opening), so the server's games cannot be compared with it.",
        game=game.id,
    )


def exploration_embed(
    server: Exploration, published: Exploration, source: str, link: str
) -> discord.Embed:
    """The opening explorer's answer: where the position comes from (`source`), its TPS, a
    ptn.ninja `link` to it, and how the server's games and the published real games went from
    it, by next move, each as a table narrow enough for a phone."""
    lines = [
        source,
        f"```\n{server.tps}\n```",
        _("[Open the position in ptn.ninja]({url})", url=link),
    ]
    server_games, published_games = server.total.games, published.total.games
    lines += _counted(
        server,
        ngettext(
            "**This server**: {count} finished game reached this position:",
            "**This server**: {count} finished games reached this position:",
            server_games,
        )
        if server_games
        else _("No finished game of this server has reached this position yet."),
    )
    lines += _counted(
        published,
        ngettext(
            "**Published games**: {count} reached this position:",
            "**Published games**: {count} reached this position:",
            published_games,
        )
        if published_games
        else _("No published game reached it."),
    )
    embed = discord.Embed(
        title=_("Opening explorer, {size}x{size}", size=server.size),
        description="\n".join(lines),
    )
    embed.set_footer(
        text=_(
            "Finished games with the standard rules of the size (the empty board, the standard "
            "pieces, the swap opening; any komi), found by the position whatever the move "
            "order. This server's games against Bredon are left out: its replies are its "
            "search, not the players' choices. Published games: real PlayTak and tournament "
            "games shipped with Bredon."
        )
    )
    return embed


def _counted(exploration: Exploration, heading: str) -> list[str]:
    """`heading`, then the table of next moves when games reached the position."""
    if not exploration.total.games:
        return [heading]
    return [heading, f"```\n{_exploration_table(exploration)}\n```"]


def _exploration_table(exploration: Exploration) -> str:
    """Next move, games, and white wins, draws, black wins (each also in percent of the move's
    games): one row a move."""
    shown, rest = exploration.shown()
    rows: list[tuple[str, Tally]] = [(row.move or "", row.tally) for row in shown]
    if rest is not None:
        rows.append((_("others"), rest))
    if exploration.ended_here.games:
        rows.append((_("ended"), exploration.ended_here))
    header = (_("Moves"), _("Games"), _("White"), _("Draw"), _("Black"))
    cells = [header] + [
        (
            move,
            str(tally.games),
            *(f"{part} {tally.percent(part)}%" for part in (tally.white, tally.draws, tally.black)),
        )
        for move, tally in rows
    ]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    return "\n".join(
        " ".join(
            cell.ljust(width) if column == 0 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in cells
    )


def only_private_here() -> str:
    """Where Discord lets Bredon answer only privately (a server's channel that does not allow
    external apps): no challenge can be shown there."""
    return _(
        "This channel doesn't let me post for everyone (it doesn't allow external apps), so "
        "your opponent couldn't see a challenge here. Challenge them in a DM with them or in a "
        "group DM; I'll keep you both posted by DM."
    )
