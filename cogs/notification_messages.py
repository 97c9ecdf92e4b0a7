"""The words of notifications: digests, turns and offers by DM, pointers to the next game, and
the player's notification settings (:mod:`bot.notifications.service`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.games.model import GameView, NotifyMode
from bot.notifications.service import NotifyPrefs
from cogs.clock_messages import clock_note
from cogs.formatting import display, timestamp
from cogs.game_messages import players_line

MAX_MESSAGE = 2000
DIGEST_LINES = 30  # more games than this: the rest are counted, not listed


def game_link(game: GameView) -> str:
    """Where the game is played: its thread, else its channel."""
    return f"https://discord.com/channels/{game.guild_id}/{game.thread_id or game.channel_id}"


def time_left(deadline: datetime, now: datetime) -> str:
    """ "2 days 3 hours", "5 hours", "40 minutes", "less than a minute": the digest is read
    later than it is written, so an absolute time follows it too."""
    left = deadline - now
    if left <= timedelta(0):
        return "no time"
    days, seconds = left.days, left.seconds
    hours, minutes = seconds // 3600, seconds % 3600 // 60
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours and days < 7:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and not hours:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes else "seconds")
    return " ".join(parts)


def digest_text(server: str, games: list[GameView], now: datetime) -> str:
    """Every game of the server awaiting the player's move, soonest deadline first."""
    head = f"Your daily Tak digest for **{display(server)}**: {len(games)} game" + (
        "s await your move." if len(games) != 1 else " awaits your move."
    )
    lines = [head]
    for game in games[:DIGEST_LINES]:
        if game.deadline_at is None:
            left = "no deadline"
        elif game.frozen_at is not None:  # its deadline moves on when the clock runs again
            left = clock_note(game)
        else:
            left = f"{time_left(game.deadline_at, now)} left (until {timestamp(game.deadline_at)})"
        lines.append(f"- Game #{game.id}, {players_line(game)}: {left} {game_link(game)}")
    if len(games) > DIGEST_LINES:
        lines.append(f"...and {len(games) - DIGEST_LINES} more: `/tak games` lists them all.")
    text = "\n".join(lines)
    while len(text) > MAX_MESSAGE:  # long names: drop lines from the end, say how many
        lines.pop(-1)
        text = "\n".join([*lines, "...and more: `/tak games` lists them all."])
    return text


def digest_fallback_text(player_id: int, digest: str) -> str:
    return f"<@{player_id}>, I could not DM you your digest (are your DMs closed?).\n{digest}"


def offer_dm_text(post_text: str, link: str) -> str:
    return f"{post_text}\nAnswer here: {link}"[:MAX_MESSAGE]


def challenge_dm_text(server: str, challenger: str, link: str) -> str:
    return f"**{display(challenger)}** challenges you on **{display(server)}**: {link}"


def pairing_dm_text(round_title: str, game: GameView, your_move: bool, link: str) -> str:
    turn = " It is your move." if your_move else " Your opponent moves first."
    return f"**{round_title}**: your game #{game.id}, {players_line(game)}.{turn} {link}"


def next_game_text(game: GameView, link: str) -> str:
    return f"Next: game #{game.id}, {players_line(game)}, is played here: {link}"


def unreachable_text(server: str) -> str:
    return (
        f"I could not send you a direct message about your games on **{display(server)}**: "
        "your DMs seem closed to me, so I mentioned you in the game's thread instead. Allow "
        "DMs from this server's members (Privacy Settings), or choose `/profile settings "
        "notify:mention`."
    )


def prefs_text(prefs: NotifyPrefs) -> str:
    """The player's notifications in this server, in words."""
    if prefs.mode is NotifyMode.MENTION:
        return "Notifications here: **a mention** in the game's thread at each move."
    if prefs.mode is NotifyMode.DM:
        return (
            "Notifications here: **a DM** at each move (and the mention in the thread). Offers, "
            "challenges and pairings come by DM too."
        )
    assert prefs.next_digest_at is not None
    return (
        f"Notifications here: **a daily digest** by DM at {prefs.digest_hour:02d}:00 "
        f"{prefs.time_zone} (next {timestamp(prefs.next_digest_at)}), no ping at each move. "
        "Offers, challenges, pairings and reminders still come by DM at once."
    )


def dm_turn_text(game: GameView, where: str) -> str:
    return f"It is your move in game #{game.id} ({players_line(game)}): {where}"
