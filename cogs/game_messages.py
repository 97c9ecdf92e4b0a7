"""What the bot says about games: challenges, starts, moves, offers, endings, matches, the game
lists, a game file read, the server's game settings and the help.

The wording modules are named by what they word (:mod:`cogs.clock_messages`,
:mod:`cogs.player_messages`, :mod:`cogs.coin_messages`, :mod:`cogs.notification_messages`,
:mod:`cogs.tournament_messages`, :mod:`cogs.result_messages`; names, mentions and times in
:mod:`cogs.formatting`): small functions from service results to message text and embeds. No
Discord calls and no rules in them: the services decide, the engine knows Tak, and these only put
their answers into words; :mod:`cogs.presenters` posts them.
"""

from __future__ import annotations

import discord

from bot.games.conditions import Conditions
from bot.games.model import (
    ChallengeStatus,
    ChallengeView,
    GameSetup,
    GameStatus,
    GameView,
    MatchStatus,
    MatchView,
)
from bot.games.outcomes import GameEnding, MoveOutcome
from bot.guild_settings import GuildSettings
from bot.languages import _, language_name
from bot.notifications.outbox import (
    ConditionsDropped,
    DropReason,
    EndingCause,
    GameEnded,
    RequestMade,
)
from bot.text_safety import MAX_MESSAGE, message_text, one_line
from cogs.clock_messages import clock_note, clock_state, describe_clock
from cogs.formatting import display, mention, mention_role, timestamp
from cogs.player_messages import ratings_changed_text
from tak import Color, Opening, Position, Result, ResultKind, parse_tps, square_name
from tak.ptn import Game, move_number

MAX_THREAD_NAME = 100

HOW_WON = {
    ResultKind.ROAD: "by road",
    ResultKind.FLATS: "on flats",
    ResultKind.RESIGNATION: "by resignation",
    ResultKind.TIME: "on time",
}


TIE_RULE = "the antiquity tie rule (a tied flat count goes to black)"


def reserves_text(setup: GameSetup) -> str:
    """ "21 stones and 1 capstone each", or each colour's when they differ."""
    (white_stones, black_stones), (white_caps, black_caps) = setup.stones, setup.caps
    if (white_stones, white_caps) == (black_stones, black_caps):
        return f"{pieces(white_stones, white_caps)} each"
    return f"white {pieces(white_stones, white_caps)}, black {pieces(black_stones, black_caps)}"


def pieces(stones: int, caps: int) -> str:
    return f"{stones} stone{'s' * (stones != 1)} and {caps} capstone{'s' * (caps != 1)}"


def describe_setup(setup: GameSetup, games: int = 1) -> str:
    komi = f"komi {setup.komi:g}"
    if setup.antiquity:
        komi = f"komi {setup.base_komi:g} with {TIE_RULE}"
    parts = [f"{setup.size}x{setup.size}", komi, f"{setup.opening.value} opening"]
    if setup.start_tps is not None:
        parts.insert(1, start_text(setup.start_tps))
    if not setup.standard_reserves:
        parts.append(reserves_text(setup))
    parts.append(describe_clock(setup))
    parts.append("rated" if setup.rated else "unrated")
    if games > 1:
        parts.append(f"a match of {games} games")
    return ", ".join(parts)


def challenge_text(challenge: ChallengeView) -> str:
    who = challenge.challenger
    colour = {
        "white": "as white (moving first)",
        "black": "as black",
        "random": "with colours drawn at random",
    }[challenge.colour.value]
    if challenge.ante is not None:
        colour = (
            f"for coins: an ante of **{challenge.ante}** each, and sealed bids for the first move"
        )
    if challenge.opponent is None:
        head = f"{mention(who)} offers an **open challenge**: anyone may accept"
    else:
        head = f"{mention(who)} challenges {mention(challenge.opponent)}"
    text = f"{head}, playing {colour}.\n{describe_setup(challenge.setup, challenge.games)}."
    if challenge.rematch_of is not None:
        text = f"Rematch of game #{challenge.rematch_of}! " + text
    status = {
        ChallengeStatus.OPEN: f"Challenge #{challenge.id}, open until "
        f"{timestamp(challenge.expires_at)}.",
        ChallengeStatus.ACCEPTED: f"Accepted by {mention(challenge.accepted_by or 0)}: "
        + (f"game #{challenge.game_id}." if challenge.game_id else "bidding for the first move."),
        ChallengeStatus.DECLINED: "Declined.",
        ChallengeStatus.CANCELLED: "Cancelled by the challenger.",
        ChallengeStatus.EXPIRED: "Expired: nobody accepted it in time.",
    }[challenge.status]
    return f"{text}\n{status}"


def players_line(game: GameView) -> str:
    return f"**{display(game.white.name)}** (white) vs **{display(game.black.name)}** (black)"


def thread_name(game: GameView, match_games: int = 1) -> str:
    """ "Game 3: alice vs bob" (the game's number), or in a match "Game 2 of 3: bob vs alice"
    (the game being played in the match's thread)."""
    players = f"{game.white.name} vs {game.black.name}"
    if game.tiebreak is not None:
        return f"Tiebreak {game.tiebreak}: {players}"[:MAX_THREAD_NAME]
    if game.match_game and match_games > 1:
        return f"Game {game.match_game} of {match_games}: {players}"[:MAX_THREAD_NAME]
    return f"Game {game.id}: {players}"[:MAX_THREAD_NAME]


def game_start_text(game: GameView, *, match_games: int, with_setup: bool) -> str:
    """The first board's text: which game (of a match of `match_games`), who plays whom, the
    settings only where nothing showed them before (`with_setup`), and the first turn."""
    if game.tiebreak is not None:
        head = f"Tiebreak game {game.tiebreak} of the match (game #{game.id})"
    elif game.match_game and match_games > 1:
        head = f"Match game {game.match_game} of {match_games} (game #{game.id})"
    else:
        head = f"Game #{game.id}"
    setup = f", {describe_setup(game.setup)}" if with_setup else ""
    return f"{head} starts: {players_line(game)}{setup}.\n{your_move(game, first=True)}"


def your_move(game: GameView, *, first: bool = False) -> str:
    """Whose move it is and their clock; the first time (`first`) with how to move and, in a
    swap opening, what the first placement is."""
    clock = clock_note(game)
    clock = f" · {clock}" if clock else ""
    if not first:
        return f"{mention(game.player_to_move)} to move{clock}"
    text = f"{mention(game.player_to_move)}, your move with `/tak move` or the **Move** button"
    if game.setup.opening is Opening.SWAP and game.ply < 2:
        other = display(game.opponent_of(game.player_to_move.id).name)
        text += f": place one of **{other}**'s flats"
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
        text += f" — **{display(mover.name)}** placed **{display(owner.name)}**'s first stone"
        if position.ply == 1:  # said once: the reply is the same swap
            text += " (in a swap opening each player's first placement is the opponent's flat)"
    if by_condition:
        text += " — played by condition."
    if answered and outcome.ending is None:
        return f"{text} — **{display(game.player_to_move.name)}** answers by condition:"
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
        else f"; {display(answer.game.player(answer.position.to_move.other).name)} answered "
        f"**{answer.move}** by condition"
    )
    return (
        f"You played **{move}** in game #{game_id}{then}",
        f"Your move {move} in game #{game_id} was recorded{then}",
    )


def taken_back_text(game: GameView, taken_back: str) -> str:
    """A move taken back (the game is back before it), and whose move it is."""
    return f"**{taken_back}** was taken back in game #{game.id}.\n{your_move(game)}"


def request_text(game: GameView, request: RequestMade) -> str:
    """A draw offer or an undo request, put to the opponent."""
    asker, opponent = mention(request.asker_id), mention(game.opponent_of(request.asker_id))
    match request.what:
        case "draw":
            return f"{asker} offers a draw in game #{game.id}. {opponent}, do you accept?"
        case "undo":
            return (
                f"{asker} asks to take back the last move ({request.last_move}) in game "
                f"#{game.id}. {opponent}, do you allow it?"
            )
    raise ValueError(f"No wording for a request of {request.what!r}")


def ending_preface(ended: GameEnded) -> str | None:
    """What ended the game, above its result (None when the ending says it all: a move's
    ending is prefaced by the move)."""
    who = mention(ended.by or 0)
    return {
        EndingCause.RESIGN: f"{who} resigned.",
        EndingCause.ABORT: f"{who} aborted the game.",
        EndingCause.DRAW: f"{who} accepted the draw offer.",
        EndingCause.TIME: "Time is up.",
        EndingCause.REPORTED: f"{who} reported this game, played elsewhere, with its PTN file: "
        "its moves are checked and stored here.",
    }.get(EndingCause(ended.cause))


def result_text(game: GameView, result: Result) -> str:
    if result.winner is None:
        return f"{result.describe()} ({result.ptn()})"
    winner = game.player(result.winner)
    how = HOW_WON.get(result.kind, "")
    text = f"**{display(winner.name)}** ({result.winner}) wins {how} ({result.ptn()})."
    return text.replace("  ", " ")


def road_text(result: Result) -> str | None:
    if not result.road:
        return None
    return "Road: " + " - ".join(square_name(file, rank) for file, rank in result.road)


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
    points = f"points {match.points1} – {match.points2}"
    if match.status is MatchStatus.FINISHED:
        leader = match.leader
        if leader is None:
            verdict = "The match is drawn"
        else:
            # Points decide a match: say so when the winner did not win more games.
            ahead = won1 > won2 if leader.id == match.player1.id else won2 > won1
            on_points = "" if ahead else " on points"
            verdict = f"{display(leader.name)} wins the match{on_points}"
        return f"Match over: {score} ({points}). {verdict}!"
    if match.status is MatchStatus.ABORTED:
        return f"Match abandoned after an aborted game: {score} ({points})."
    total = max(match.games_total, match.games_played)
    return f"Match score: {score} (game {match.games_played} of {total}; {points})."


def ending_text(ending: GameEnding, match_games: list[GameView]) -> str:
    """The result, the road, the points, the match score (`match_games`: its games up to this
    one) and the ratings."""
    game = ending.game
    lines = [f"Game #{game.id} is over. {result_text(game, ending.result)}"]
    road = road_text(ending.result)
    if road:
        lines.append(road)
    if ending.result.winner is not None:
        winner = game.player(ending.result.winner)
        lines.append(f"{display(winner.name)} scores **{ending.points}** points.")
    if ending.match is not None:
        lines.append(match_text(ending.match, match_games))
    if ending.ratings is not None:
        lines.append(ratings_changed_text(ending.ratings))
    return "\n".join(lines)


def note_text(game_id: int, note: str | None, *, written: bool) -> str:
    """Your note on a game, as kept (only you see it)."""
    if note is None:
        return (
            f"Your note on game #{game_id} is deleted."
            if written
            else f"You have no note on game #{game_id}: write one with `/game note text:`."
        )
    quoted = "\n".join(f"> {line}" for line in note.splitlines())
    heading = "Kept your note" if written else "Your note"
    # A note of many short lines quotes longer than a message holds: the rest is cut (the
    # whole note is in the player's own /game ptn).
    return message_text(f"{heading} on game #{game_id} (only you see it):\n{quoted}")


def scratch_text(game_id: int, ply: int, line: str) -> str:
    return (
        f"Scratch board of game #{game_id} from ply {ply}: {line}\n"
        "Only you see it; nothing was played."
    )


def conditions_text(conditions: Conditions, *, added: bool = False) -> str:
    """A player's conditional moves in a game, each line numbered as PTN (only they see it),
    within one message."""
    game = f"game #{conditions.game_id}"
    if not conditions.lines:
        return (
            f"You have no conditional moves in {game}. While your opponent is to move, enter "
            "lines with `/game conditions add`: their reply, then your answer, e.g. `c3 d4`."
        )
    head = (
        f"Kept. Your conditional moves in {game}" if added else f"Your conditional moves in {game}"
    )
    text = (
        f"{head} (only you see them): when your opponent plays the first move of a line, Bredon "
        "plays your answer at once and keeps the rest."
    )
    if conditions.replaced:
        text += "\nA line that answered one of those replies another way was replaced."
    shown = conditions.numbered()
    for count, line in enumerate(shown):
        more = f"\n… and {len(shown) - count} more (`/game conditions clear` to start again)"
        if len(text) + len(line) + 5 + len(more) > MAX_MESSAGE:
            return text + more
        text += f"\n- `{line}`"
    return text


def conditions_cleared_text(game_id: int, cleared: int) -> str:
    if not cleared:
        return f"You had no conditional moves in game #{game_id}."
    lines = "line" if cleared == 1 else "lines"
    return f"Cleared your conditional moves in game #{game_id} ({cleared} {lines})."


def conditions_dropped_text(dropped: ConditionsDropped) -> str:
    """Told to the owner alone: why Bredon dropped their conditional moves."""
    game = f"game #{dropped.game_id}"
    if dropped.reason == DropReason.UNDO:
        return (
            f"Your conditional moves in {game} were cleared: a move was taken back, so they no "
            "longer start from the position on the board."
        )
    return (
        f"Your conditional moves in {game} were dropped: your answer **{dropped.move}** could "
        f"not be played ({dropped.detail}). It is your move."
    )


def next_game_line(game: GameView, waiting: int) -> str:
    """Under a move's confirmation: the next game awaiting the mover, and how many do."""
    others = f" ({waiting} games await your move)" if waiting > 1 else ""
    opponent = display(game.opponent_of(game.player_to_move.id).name)
    return f"Next: game #{game.id} against {opponent}, ply {game.ply}{clock_state(game)}{others}."


def game_line(game: GameView, viewer_id: int | None) -> str:
    """A game in one line: its players, then :func:`game_state`."""
    return f"#{game.id} {players_line(game)}{game_state(game, viewer_id)}"


def game_state(game: GameView, viewer_id: int | None) -> str:
    """ ", ply 4: **your move** (time runs out ...)" (the viewer's move, or whose), or ": 1-0"."""
    if game.is_active:
        if game.player_to_move.id == viewer_id:
            state = "**your move**"
        else:
            state = f"{display(game.player_to_move.name)} to move"
        return f", ply {game.ply}: {state}{clock_state(game)}"
    result = game.result.ptn() if game.result else game.status.value
    return f": {result}"


def guild_settings_text(settings: GuildSettings, *, reads_typed_moves: bool, language: str) -> str:
    """`/bredon config`'s answer; `language`: the one the server's posts are in now."""
    role = mention_role(settings.organizer_role_id) if settings.organizer_role_id else "none"
    if not settings.typed_moves:
        typed = "not read"
    elif reads_typed_moves:
        typed = "played"
    else:
        typed = "on, but this bot does not read messages (BREDON_TYPED_MOVES is off)"
    return (
        f"New challenges default to {settings.size}x{settings.size}, komi {settings.komi:g}"
        f"{f' with {TIE_RULE}' if settings.antiquity else ''}, "
        f"{settings.days_per_move} days a move. Threads per game: "
        f"{'on' if settings.use_threads else 'off'}. Organizer role: {role}. Moves typed in "
        f"game threads: {typed}. Vacation days a year: "
        f"{settings.vacation_days or 'none (vacations off)'}.\n"
        + (
            _("Posts here are in **{language}**.", language=language_name(language))
            if settings.language is not None
            else _(
                "Posts here are in the server's own language (**{language}** now).",
                language=language_name(language),
            )
        )
    )


RULES_URL = "https://ustak.org/play-beautiful-game-tak/"  # the README's link to the rules


def help_embed() -> discord.Embed:
    """A primer that fits one phone screen, in the language spoken: the goal, how to move, and
    every player's command by name (the details are in docs/discord-setup.md)."""
    embed = discord.Embed(
        title=_("Bredon: Tak in Discord"),
        description=_(
            "Build a **road**: a line of your pieces joining two opposite sides of the board. "
            "Each turn, place a piece on an empty square or move a stack you control. Your first "
            "placement is one of your opponent's flats. [The rules]({rules}); every command in "
            "Bredon's guide, `docs/discord-setup.md`, which whoever runs me has.",
            rules=RULES_URL,
        ),
    )
    embed.add_field(
        name=_("Play"),
        value=_(
            "`/tak challenge` a member, or `/tak play` me. Move with `/tak move` (it suggests the "
            "legal moves) or, without PTN, the **Move** button: pick the square, then the move.\n"
            "`/tak board` · `/tak games` · `/tak draw` · `/tak undo` · `/tak resign` · "
            "`/tak abort` · `/game conditions`"
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Moves in PTN"),
        value=_(
            "`a1` flat · `Sb2` wall · `Cc3` capstone · `c3>` one piece right (`<` `+` `-`) · "
            "`3c3+12` three pieces up, dropping 1 then 2"
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
            "`/game note` · `/game scratch`\n"
            "`/profile settings` · `/profile scores` · `/profile leaderboard` · `/coins wallet` · "
            "`/coins leaderboard`"
        ),
        inline=False,
    )
    return embed


def start_text(tps: str) -> str:
    """Where a game set up from a TPS starts, e.g. "from a set position (move 4, black to move)"."""
    board = parse_tps(tps)
    return f"from a set position (move {board.move_number}, {board.to_move} to move)"


def viewed_game_text(record: Game, filename: str) -> str:
    """What `/game view` says of an attached PTN file above its final board."""
    # The file's tags and name are anyone's text, of any length: one short line each.
    names = [display(one_line(record.tag(f"Player{n}") or f"Player {n}", 60)) for n in (1, 2)]
    start = record.start()
    setup = f"{start.size}x{start.size}, komi {start.komi:g}"
    tps = record.tag("TPS")
    if tps is not None and tps.strip():
        setup += ", " + start_text(tps)
    plies = len(record.plies)
    lines = [
        f"**{display(one_line(filename, 80))}**: **{names[0]}** (white) vs **{names[1]}** "
        f"(black), {setup}.",
        f"{plies:,} {'ply' if plies == 1 else 'plies'}; "
        + (
            f"{record.result.describe().rstrip('.')} ({record.result.ptn()})."
            if record.result is not None
            else "no result: the board below is where the game stands."
        ),
    ]
    return "\n".join(lines)


def ply_limit_text(game: GameView, position: Position) -> str:
    """Why a game the ply limit ended was decided on flats, and the count that decided it."""
    komi = f", komi {position.komi:+g}" if position.komi else ""
    rule = f", with {TIE_RULE}" if position.ties_to_black else ""
    return (
        f"The game reached {game.plies_played:,} plies, the longest a game may be: the flat count "
        f"decides, as on a full board (White {position.flat_count(Color.WHITE)}, "
        f"Black {position.flat_count(Color.BLACK)}{komi}{rule})."
    )
