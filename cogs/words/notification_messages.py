"""The words of notifications: digests, turns and offers by DM, pointers to the next game, and
the player's notification settings (:mod:`bot.notifications.service`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.games.model import GameView
from bot.languages import _, ngettext
from bot.notifications.service import NotifyPrefs
from bot.players.model import NotifyMode
from cogs.words import game_messages
from cogs.words.clock_messages import clock_note
from cogs.words.formatting import display, timestamp
from cogs.words.game_messages import players_line

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
        return _("no time")
    days, seconds = left.days, left.seconds
    hours, minutes = seconds // 3600, seconds % 3600 // 60
    parts = []
    if days:
        parts.append(ngettext("{count} day", "{count} days", days))
    if hours and days < 7:
        parts.append(ngettext("{count} hour", "{count} hours", hours))
    if not days and not hours:
        parts.append(
            ngettext("{count} minute", "{count} minutes", minutes) if minutes else _("seconds")
        )
    return " ".join(parts)


def digest_text(server: str, games: list[GameView], now: datetime) -> str:
    """Every game of the server awaiting the player's move, soonest deadline first."""
    head = ngettext(
        "Your daily Tak digest for **{server}**: {count} game awaits your move.",
        "Your daily Tak digest for **{server}**: {count} games await your move.",
        len(games),
        server=display(server),
    )
    lines = [head]
    for game in games[:DIGEST_LINES]:
        if game.deadline_at is None:
            left = _("no deadline")
        elif game.frozen_at is not None:  # its deadline moves on when the clock runs again
            left = clock_note(game)
        else:
            left = _(
                "{left} left (until {when})",
                left=time_left(game.deadline_at, now),
                when=timestamp(game.deadline_at),
            )
        lines.append(
            _(
                "- Game #{game}, {players}: {left} {link}",
                game=game.id,
                players=players_line(game),
                left=left,
                link=game_link(game),
            )
        )
    if len(games) > DIGEST_LINES:
        lines.append(
            _(
                "...and {count} more: `/tak games` lists them all.",
                count=len(games) - DIGEST_LINES,
            )
        )
    text = "\n".join(lines)
    while len(text) > MAX_MESSAGE:  # long names: drop lines from the end, say how many
        lines.pop(-1)
        text = "\n".join([*lines, _("...and more: `/tak games` lists them all.")])
    return text


def digest_fallback_text(player_id: int, digest: str) -> str:
    return _(
        "<@{player}>, I could not DM you your digest (are your DMs closed?).\n{digest}",
        player=player_id,
        digest=digest,
    )


def offer_dm_text(post_text: str, link: str) -> str:
    return _("{post}\nAnswer here: {link}", post=post_text, link=link)[:MAX_MESSAGE]


def challenge_dm_text(server: str, challenger: str, link: str) -> str:
    return _(
        "**{challenger}** challenges you on **{server}**: {link}",
        challenger=display(challenger),
        server=display(server),
        link=link,
    )


def conversation_challenge_dm_text(challenger: str, link: str) -> str:
    """A challenge made in a conversation Bredon is not in, told to the player challenged."""
    return _(
        "**{challenger}** challenges you to a game of Tak in your conversation: {link}",
        challenger=display(challenger),
        link=link,
    )


def pairing_dm_text(round_title: str, game: GameView, your_move: bool, link: str) -> str:
    fields = {"round": round_title, "game": game.id, "players": players_line(game), "link": link}
    if your_move:
        return _("**{round}**: your game #{game}, {players}. It is your move. {link}", **fields)
    return _(
        "**{round}**: your game #{game}, {players}. Your opponent moves first. {link}", **fields
    )


def next_game_text(game: GameView, link: str) -> str:
    return _(
        "Next: game #{game}, {players}, is played here: {link}",
        game=game.id,
        players=players_line(game),
        link=link,
    )


def unreachable_text(server: str) -> str:
    return _(
        "I could not send you a direct message about your games on **{server}**: your DMs seem "
        "closed to me, so I mentioned you in the game's thread instead. Allow DMs from this "
        "server's members (Privacy Settings), or choose `/profile settings notify:mention`.",
        server=display(server),
    )


def prefs_text(prefs: NotifyPrefs) -> str:
    """The player's notifications in this server, in words."""
    if prefs.mode is NotifyMode.MENTION:
        return _("Notifications here: **a mention** in the game's thread at each move.")
    if prefs.mode is NotifyMode.DM:
        return _(
            "Notifications here: **a DM** at each move (and the mention in the thread). Offers, "
            "challenges and pairings come by DM too."
        )
    assert prefs.next_digest_at is not None
    return _(
        "Notifications here: **a daily digest** by DM at {hour}:00 {zone} (next {next}), no "
        "ping at each move. Offers, challenges, pairings and reminders still come by DM at once.",
        hour=f"{prefs.digest_hour:02d}",
        zone=prefs.time_zone,
        next=timestamp(prefs.next_digest_at),
    )


def dm_turn_text(game: GameView, where: str) -> str:
    return _(
        "It is your move in game #{game} ({players}): {where}",
        game=game.id,
        players=players_line(game),
        where=where,
    )


def missed_text(games: list[GameView], player_id: int) -> str:
    """What a player whose DMs were refused missed of their games outside servers, told
    privately at their next command in such a conversation (each game as it stands now)."""
    lines = "\n".join(f"- {game_messages.game_line(game, player_id)}" for game in games)
    return _(
        "I could not send you a direct message about your games outside servers (your DMs seem "
        "closed to me), so here is where they stand:\n{games}\nAllow DMs from me to hear of "
        "each move.",
        games=lines or "-",
    )


def only_private_text() -> str:
    """Where Discord lets Bredon answer only the one who asked (a channel that does not allow
    external apps): the game there goes on by DM."""
    return _(
        "This channel lets me answer only you (it doesn't allow external apps), so your game "
        "here goes on by DM: I send each board to both players."
    )
