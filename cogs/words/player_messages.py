"""What the bot says about players: ratings and their changes, the leaderboard, a player's
totals and settings.

Like :mod:`cogs.words.game_messages`, no Discord calls and no rules: :mod:`bot.players` decides.
"""

from __future__ import annotations

import discord

from bot.games.matches import PlayerTotals
from bot.games.model import RatingChange
from bot.games.ratings import PlayerRating
from bot.languages import _, language_name, ngettext, spoken
from bot.players.glicko2 import Rating, is_provisional
from bot.players.service import PlayerProfile
from cogs.words.formatting import display


def rating_label(rating: Rating) -> str:
    """'1623', or '1623?' while provisional."""
    return f"{rating.rating:.0f}{'?' if is_provisional(rating) else ''}"


def rating_change_text(change: RatingChange) -> str:
    delta = change.after.rating - change.before.rating
    return f"{display(change.player.name)} {rating_label(change.after)} ({delta:+.0f})"


def ratings_changed_text(changes: tuple[RatingChange, ...]) -> str:
    """ "Ratings: alice 1662? (+162), bob 1338? (-162)", with what the ? means when shown."""
    text = _("Ratings: {changes}.", changes=", ".join(map(rating_change_text, changes)))
    if any(is_provisional(change.after) for change in changes):
        text += _(" A ? marks a provisional rating: it settles after a few rated games.")
    return text


def games_count(games: int) -> str:
    return ngettext("{count} game", "{count} games", games)


def ratings_text(ratings: list[PlayerRating], name: str) -> str:
    """One line of `/profile scores`: the player's rating on each board size."""
    if not ratings:
        return _("{name} has no rating yet: ratings come from rated games.", name=name)
    sizes = ", ".join(
        f"{r.size}x{r.size} **{r.label()}** ({games_count(r.games)})" for r in ratings
    )
    return _("Ratings: {sizes}. A ? marks a provisional rating.", sizes=sizes)


def leaderboard_embed(size: int, board: list[PlayerRating]) -> discord.Embed:
    lines = [
        f"{place}. **{display(r.player.name)}** {r.label()} ({games_count(r.games)})"
        for place, r in enumerate(board, start=1)
    ]
    empty = _(
        "Nobody has an established {size}x{size} rating yet: a rating stops being provisional "
        "after a few rated games.",
        size=size,
    )
    title = _("Leaderboard, {size}x{size}", size=size)
    return discord.Embed(title=title, description="\n".join(lines) or empty)


def totals_text(totals: PlayerTotals | None, name: str) -> str:
    if totals is None:
        return _("{name} has no finished games in this server yet.", name=name)
    return _(
        "**{name}**: {points} points all-time in this server ({games}: {wins} won, {losses} "
        "lost, {draws} drawn).",
        name=name,
        points=totals.points,
        games=games_count(totals.games),
        wins=totals.wins,
        losses=totals.losses,
        draws=totals.draws,
    )


def settings_text(profile: PlayerProfile) -> str:
    """`/profile settings`' answer: the theme, automatic vacation and the language (spoken in
    the player's: with none chosen, their Discord's)."""
    if profile.auto_vacation:
        auto = _(
            "**on**: when your time runs out and vacation days are left, one is taken instead "
            "of the loss"
        )
    else:
        auto = _("**off**")
    if profile.language is None:
        language = _("as your Discord (**{language}** now)", language=language_name(spoken()))
    else:
        language = f"**{language_name(profile.language)}**"
    return "\n".join(
        [
            _("Your board theme: **{theme}**.", theme=profile.theme or _("default")),
            _("Automatic vacation: {setting}.", setting=auto),
            _("Language: {language}.", language=language),
        ]
    )
