"""What the bot says: small functions from service results to message text and embeds.

No Discord calls and no rules here: the services decide, the engine knows Tak, and these only
put their answers into words.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import discord

from bot.games.matches import PlayerTotals
from bot.games.model import (
    ChallengeStatus,
    ChallengeView,
    GameSetup,
    GameView,
    MatchStatus,
    MatchView,
    PlayerRef,
    RatingChange,
)
from bot.games.outcomes import GameEnding, MoveOutcome
from bot.guild_settings import GuildSettings
from bot.notifications.outbox import ClockEvent, ClockNews
from bot.players.glicko2 import Rating, is_provisional
from bot.players.ratings import PlayerRating
from bot.players.service import PlayerProfile
from bot.store import from_db
from bot.text_safety import one_line
from bot.timekeeping.control import ClockKind, describe_duration
from bot.timekeeping.deadlines import Reminder
from bot.timekeeping.holds import VacationReport, VacationStatus
from tak import Color, Position, Result, ResultKind, parse_tps, square_name
from tak.ptn import Game

MAX_THREAD_NAME = 100

HOW_WON = {
    ResultKind.ROAD: "by road",
    ResultKind.FLATS: "on flats",
    ResultKind.RESIGNATION: "by resignation",
    ResultKind.TIME: "on time",
}


def display(name: str) -> str:
    """A name (or other user text) as it may stand in a message: no markdown, no mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def mention(player: PlayerRef | int) -> str:
    return f"<@{player if isinstance(player, int) else player.id}>"


def timestamp(moment: datetime) -> str:
    """A time every reader sees in their own time zone, e.g. "in 2 days"."""
    return f"<t:{int(moment.timestamp())}:R>"


def describe_clock(setup: GameSetup) -> str:
    """ "2 days a move", or the bank or increment besides the days."""
    if setup.clock.kind is ClockKind.MOVE:
        day_word = "day" if setup.days_per_move == 1 else "days"
        return f"{setup.days_per_move} {day_word} a move"
    return setup.clock.describe(setup.days_per_move)


TIE_RULE = "the antiquity tie rule (a tied flat count goes to black)"


def describe_setup(setup: GameSetup, games: int = 1) -> str:
    komi = f"komi {setup.komi:g}"
    if setup.antiquity:
        komi = f"komi {setup.base_komi:g} with {TIE_RULE}"
    parts = [f"{setup.size}x{setup.size}", komi, f"{setup.opening.value} opening"]
    if setup.start_tps is not None:
        parts.insert(1, start_text(setup.start_tps))
    if not setup.standard_reserves:
        parts.append(f"{setup.stones[0]} stones and {setup.caps[0]} capstones each")
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


def thread_name(game: GameView) -> str:
    return f"Game {game.id}: {game.white.name} vs {game.black.name}"[:MAX_THREAD_NAME]


def game_start_text(game: GameView) -> str:
    round_text = f" (game {game.match_game} of the match)" if game.match_game else ""
    if game.tiebreak is not None:
        round_text = f" (tiebreak game {game.tiebreak} of the match)"
    return (
        f"Game #{game.id}{round_text} starts: {players_line(game)}, "
        f"{describe_setup(game.setup)}.\n{your_move(game)}"
    )


def your_move(game: GameView) -> str:
    return f"{mention(game.player_to_move)}, your move with `/tak move`{clock_state(game)}."


def clock_state(game: GameView) -> str:
    """ " (time runs out in 2 days; bank left 3d)", or why the clock stands still."""
    if game.deadline_at is None:
        return ""
    left = game.left_of(game.to_move)
    kind = game.setup.clock.kind
    bank = f"; bank left {describe_duration(left)}" if kind is ClockKind.BANK and left else ""
    if game.frozen_at is not None:
        why = "paused by agreement" if game.paused_at is not None else "a player is on vacation"
        remaining = describe_duration(game.deadline_at - game.frozen_at)
        return f" (the clock stands still: {why}; {remaining} left{bank})"
    return f" (time runs out {timestamp(game.deadline_at)}{bank})"


def move_text(outcome: MoveOutcome) -> str:
    game = outcome.game
    mover = game.player(outcome.position.to_move.other)
    text = f"**{display(mover.name)}** played **{outcome.move}** (ply {outcome.ply})."
    if outcome.tinue:
        text += " **Tinuë!**"
    elif outcome.tak:
        text += " **Tak!**"
    if outcome.ending is None:
        text += f"\n{your_move(game)}"
    return text


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


def match_text(match: MatchView) -> str:
    one, two = display(match.player1.name), display(match.player2.name)
    score = f"{one} {match.points1} - {match.points2} {two}"
    if match.status is MatchStatus.FINISHED:
        leader = match.leader
        verdict = f"{display(leader.name)} wins the match" if leader else "The match is drawn"
        return f"Match #{match.id} is over: {score}. {verdict}!"
    if match.status is MatchStatus.ABORTED:
        return f"Match #{match.id} was abandoned after an aborted game: {score}."
    played = f"after {match.games_played} of {match.games_total} games"
    return f"Match #{match.id} score: {score} ({played})."


def ending_text(ending: GameEnding) -> str:
    game = ending.game
    lines = [f"Game #{game.id} is over. {result_text(game, ending.result)}"]
    road = road_text(ending.result)
    if road:
        lines.append(road)
    if ending.result.winner is not None:
        winner = game.player(ending.result.winner)
        lines.append(f"{display(winner.name)} scores **{ending.points}** points.")
    if ending.match is not None:
        lines.append(match_text(ending.match))
    if ending.ratings is not None:
        lines.append("Ratings: " + ", ".join(map(rating_change_text, ending.ratings)) + ".")
    return "\n".join(lines)


def rating_label(rating: Rating) -> str:
    """'1623', or '1623?' while provisional."""
    return f"{rating.rating:.0f}{'?' if is_provisional(rating) else ''}"


def rating_change_text(change: RatingChange) -> str:
    delta = change.after.rating - change.before.rating
    return f"{display(change.player.name)} {rating_label(change.after)} ({delta:+.0f})"


def ratings_text(ratings: list[PlayerRating], name: str) -> str:
    """One line of `/tak scores`: the player's rating on each board size."""
    if not ratings:
        return f"{name} has no rating yet: ratings come from rated games."
    sizes = ", ".join(f"{r.size}x{r.size} **{r.label()}** ({r.games} games)" for r in ratings)
    return f"Ratings: {sizes}. A ? marks a provisional rating."


def leaderboard_embed(size: int, board: list[PlayerRating]) -> discord.Embed:
    lines = [
        f"{place}. **{display(r.player.name)}** {r.label()} ({r.games} games)"
        for place, r in enumerate(board, start=1)
    ]
    empty = (
        f"Nobody has an established {size}x{size} rating yet: a rating stops being "
        "provisional after a few rated games."
    )
    return discord.Embed(title=f"Leaderboard, {size}x{size}", description="\n".join(lines) or empty)


def reminder_text(reminder: Reminder) -> str:
    return (
        f"{mention(reminder.player)}, reminder: it is your move in game #{reminder.game.id}. "
        f"Time runs out {timestamp(reminder.deadline)}, then the game is lost on time."
    )


def dm_turn_text(game: GameView, where: str) -> str:
    return f"It is your move in game #{game.id} ({players_line(game)}): {where}"


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


def totals_text(totals: PlayerTotals | None, name: str) -> str:
    if totals is None:
        return f"{name} has no finished games in this server yet."
    return (
        f"**{name}**: {totals.points} points all-time in this server "
        f"({totals.games} games: {totals.wins} won, {totals.losses} lost, {totals.draws} drawn)."
    )


def settings_text(profile: PlayerProfile) -> str:
    return f"Your board theme: **{profile.theme or 'default'}**."


def guild_settings_text(settings: GuildSettings, *, reads_typed_moves: bool) -> str:
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
        f"{settings.vacation_days or 'none (vacations off)'}."
    )


def clock_news_text(game: GameView, news: ClockNews) -> str:
    """What stopped, restarted or lengthened a game's clock, for the game's thread."""
    who = mention(news.player_id)
    event = ClockEvent(news.event)
    deadline = from_db(news.deadline)
    runs = f" Time runs out {timestamp(deadline)}." if deadline is not None else ""
    if event is ClockEvent.VACATION:
        until = from_db(news.until)
        assert until is not None
        return (
            f"{who} is on vacation until {timestamp(until)}: the clock of game #{game.id} "
            "stands still until then. Moves still go in."
        )
    if event is ClockEvent.VACATION_END:
        return f"{who} is back from vacation: the clock of game #{game.id} runs again.{runs}"
    if event is ClockEvent.PAUSE_OFFER:
        return (
            f"{who} proposes to pause game #{game.id} (no time runs until either of you ends "
            f"it with `/tak resume`). {mention(game.opponent_of(news.player_id))}, do you agree?"
        )
    if event is ClockEvent.PAUSED:
        return f"Game #{game.id} is paused: no time runs until either player uses `/tak resume`."
    if event is ClockEvent.PAUSE_END:
        still = "" if runs else " (it still stands still: a player is on vacation)"
        return f"{who} ended the pause in game #{game.id}: the clock runs again{still}.{runs}"
    extra = describe_duration(timedelta(seconds=news.extra))
    given = game.opponent_of(news.player_id)  # only the player waiting gives time
    return f"{who} gave {mention(given)} {extra} more in game #{game.id}.{runs}"


def gave_time_text(game: GameView, extra: timedelta) -> str:
    """The giver's own reply: to whom, how much."""
    return f"You gave {display(game.player_to_move.name)} {describe_duration(extra)} more"


def mention_role(role_id: int) -> str:
    return f"<@&{role_id}>"


HELP = discord.Embed(
    title="Bredon: Tak in Discord",
    description=(
        "Tak is a two-player game: build a **road**, a line of your pieces joining two opposite "
        "edges of the board. Everything happens through `/tak` commands."
    ),
)
HELP.add_field(
    name="Playing",
    value=(
        "`/tak challenge` someone (or leave out the opponent for an open challenge); they press "
        "**Accept**. The game gets a thread. Play with `/tak move`: start typing and the bot "
        "suggests the legal moves. `/tak games` lists your games with links, a page at a time. "
        "No opponent around? `/tak play` a game against Bredon itself (levels 1-5)."
    ),
    inline=False,
)
HELP.add_field(
    name="Clocks",
    value=(
        "Each move has a deadline (days a move, maybe with a bank or an increment). Away? "
        "`/tak vacation start`. Need a break in one game? `/tak pause`. Your opponent needs "
        "time? **Give 1 day** under the board. `/tak reminders` sets when you are reminded."
    ),
    inline=False,
)
HELP.add_field(
    name="Reading the board image",
    value=(
        "Files a-h run left to right, ranks 1-8 bottom to top, so a1 is bottom left. "
        "A flat stone lies flat, a wall (standing stone) stands on its edge, a capstone is round. "
        "Stacks show their pieces from the side; the top piece controls the stack. "
        "The last move is tinted, and **Tak** is marked when the player who just moved can "
        "finish a road next turn; **Tinuë** when no reply can stop it."
    ),
    inline=False,
)
HELP.add_field(
    name="PTN in brief",
    value=(
        "`a1` place a flat on a1 · `Sb2` a wall on b2 · `Cc3` a capstone on c3\n"
        "`c3>` move the top piece of c3 one square right (`<` left, `+` up, `-` down)\n"
        "`3c3+12` take 3 pieces from c3, go up, drop 1 then 2"
    ),
    inline=False,
)
HELP.add_field(
    name="The rules in brief",
    value=(
        "On your turn either place a piece from your reserve on an empty square, or move a stack "
        "you control: pick up to board-size pieces and drop at least one on each square in a "
        "straight line. Walls block roads and movement; a capstone alone can flatten a wall. "
        "On the first turn each player places one of the **opponent's** flats. "
        "The game ends with a road, or when the board is full or a player runs out of pieces: "
        "then most flats on top wins (black gets the komi). A win scores the board's squares "
        "plus the winner's unplayed pieces."
    ),
    inline=False,
)
HELP.add_field(
    name="Time",
    value=(
        "Each move has a deadline (days per move, or with a bank or an increment). "
        "`/tak reminders` sets when you are reminded, `/tak moretime` gives your opponent more, "
        "`/tak pause` (both agree) and `/tak resume`, `/tak vacation` stops all your clocks."
    ),
    inline=False,
)
HELP.add_field(
    name="Also",
    value=(
        "`/tak board`, `/tak tps`, `/tak ptn` (file and ptn.ninja link), `/tak replay` (GIF), "
        "`/tak view` (an attached PTN file: its final board, `replay:True` for the GIF), "
        "`tps:` on a challenge to start from a position (unrated), "
        "`/tak draw`, `/tak undo`, `/tak resign`, `/tak abort` (before both have moved), "
        "`/tak scores`, `/tak leaderboard`, `/tak settings` (theme, DM notices), "
        "`/tak analysis` (a finished game's evaluation graph and annotated PTN), "
        "`/bredon config` (server managers).\n"
        "Where the server plays for coins: `stakes:True` on a challenge, `/tak wallet`, "
        "`/tak coins` (the coin leaderboard).\n"
        "`public:True` on `/tak board`, `ptn`, `tps`, `replay`, `games`, `scores`, "
        "`leaderboard` or `coins` (and `/tournament standings` or `pairings`) shows the answer "
        "to the channel instead of only to you."
    ),
    inline=False,
)


def vacation_text(report: VacationReport) -> str:
    """The reply to `/tak vacation start` or `end`."""
    vacation = report.vacation
    games = ", ".join(f"#{g.id}" for g in report.held) or "none"
    if vacation.ended_at is None:
        text = (
            f"You are on vacation until {timestamp(vacation.ends_at)}. The clocks of your games "
            f"here stand still until then (games: {games}); moves still go in. End it early "
            "with `/tak vacation end`."
        )
    else:
        text = f"Welcome back: the clocks of your games run again (games: {games})."
    if report.not_held and vacation.ended_at is None:
        running = ", ".join(f"#{g.id}" for g in report.not_held)
        text += f" Not paused: {running}, of a tournament that does not allow vacations."
    return f"{text} Vacation days left this year: {report.days_left}."


def vacation_status_text(status: VacationStatus) -> str:
    if status.days_allowed == 0:
        return "Vacations are turned off in this server."
    text = (
        f"You have used {status.days_used} of {status.days_allowed} vacation days this year; "
        f"{status.days_left} left."
    )
    if status.current is not None:
        text += f" You are on vacation until {timestamp(status.current.ends_at)}."
    return text


def reminders_text(offsets: tuple[timedelta, ...] | None) -> str:
    if offsets is None:
        return (
            "You are reminded once, when 80% of the time for a move has passed. Choose your own "
            "times with e.g. `/tak reminders times:1d 2h`."
        )
    if not offsets:
        return "You get no reminders before deadlines here (`times:default` brings them back)."
    times = " and ".join(describe_duration(offset) for offset in offsets)
    return f"You are reminded {times} before each deadline in this server."


def start_text(tps: str) -> str:
    """Where a game set up from a TPS starts, e.g. "from a set position (move 4, black to move)"."""
    board = parse_tps(tps)
    return f"from a set position (move {board.move_number}, {board.to_move} to move)"


def viewed_game_text(record: Game, filename: str) -> str:
    """What `/tak view` says of an attached PTN file above its final board."""
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
