"""What the bot says about results set by hand: corrections, reported games and the log.

Like :mod:`cogs.game_messages`, no Discord calls and no rules: :mod:`bot.tournaments.corrections`
decides.
"""

from __future__ import annotations

import discord

from bot.text_safety import MAX_MESSAGE
from bot.tournaments.corrections import LogEntry, LogKind
from bot.tournaments.tournament import TournamentView
from cogs.formatting import display, mention, timestamp

MAX_DESCRIPTION = 4096
LOG_SHOWN = 25  # the newest entries in the embed; the export has them all


def entry_text(entry: LogEntry) -> str:
    """One log entry: what changed, by whom, why, and what followed."""
    if entry.kind is LogKind.CORRECTION:
        head = (
            f"Game #{entry.game_id} corrected to **{entry.result_after}** "
            f"(was {entry.result_before}) by {mention(entry.actor)}: {display(entry.reason)}"
        )
    else:
        head = (
            f"Game #{entry.game_id} reported by {mention(entry.actor)}, "
            f"**{entry.result_after}**: {display(entry.reason)}"
        )
    return "\n".join([head, *(f"- {line}" for line in entry.consequences)])


def corrected_text(tournament: TournamentView) -> str:
    """A corrected result whose log entry is gone."""
    return f"A result of **{display(tournament.name)}** is corrected."


def correction_news(tournament: TournamentView, entry: LogEntry) -> str:
    """The announcement in the tournament's channel, in whole lines within a message's 2,000
    characters (a knockout seeded again has a line per match; `/tournament log` has them all)."""
    footer = "The standings follow: `/tournament standings`."
    lines = [
        f"**{display(tournament.name)}**: a result is corrected.",
        *entry_text(entry).split("\n"),
    ]
    room = MAX_MESSAGE - len(footer) - 80  # the note of what was left out
    kept = 0
    while kept < len(lines) and len("\n".join(lines[: kept + 1])) <= room:
        kept += 1
    if kept < len(lines):
        left = len(lines) - kept
        footer = f"- … and {left} more line{'s' if left > 1 else ''}: `/tournament log`.\n{footer}"
    return "\n".join([*lines[:kept], footer])


def log_embed(tournament: TournamentView, entries: list[LogEntry]) -> discord.Embed:
    shown = entries[-LOG_SHOWN:]
    lines = [f"{timestamp(e.created_at)} {entry_text(e)}" for e in reversed(shown)]
    description = "\n\n".join(lines) or "No result has been corrected or reported."
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 2] + "\n…"
    title = f"{display(tournament.name)}: results set by hand"
    return discord.Embed(title=title, description=description)


def log_text(entries: list[LogEntry]) -> str:
    """The whole log as plain text, for the export."""
    return "\n\n".join(
        f"{e.created_at.isoformat()} [{e.kind.value}] game #{e.game_id}, "
        f"{e.result_before or '-'} -> {e.result_after}, by {e.actor.name} ({e.actor.id}): "
        f"{e.reason}" + "".join(f"\n  {line}" for line in e.consequences)
        for e in entries
    )
