"""What the bot says about results set by hand: corrections, reported games and the log.

Like :mod:`cogs.words.game_messages`, no Discord calls and no rules:
:mod:`bot.tournaments.corrections` decides.
"""

from __future__ import annotations

import discord

from bot.languages import _, ngettext
from bot.text_safety import MAX_MESSAGE
from bot.tournaments.corrections import LogEntry, LogKind, worded
from bot.tournaments.tournament import TournamentView
from cogs.words.formatting import display, mention, timestamp

MAX_DESCRIPTION = 4096
LOG_SHOWN = 25  # the newest entries in the embed; the export has them all


def entry_text(entry: LogEntry) -> str:
    """One log entry: what changed, by whom, why, and what followed."""
    fields = {
        "game": entry.game_id,
        "result": entry.result_after,
        "actor": mention(entry.actor),
        "reason": display(worded(entry.reason)),
    }
    if entry.kind is LogKind.CORRECTION:
        head = _(
            "Game #{game} corrected to **{result}** (was {before}) by {actor}: {reason}",
            before=entry.result_before,
            **fields,
        )
    else:
        head = _("Game #{game} reported by {actor}, **{result}**: {reason}", **fields)
    return "\n".join([head, *(f"- {worded(line)}" for line in entry.consequences)])


def corrected_text(tournament: TournamentView) -> str:
    """A corrected result whose log entry is gone."""
    return _("A result of **{name}** is corrected.", name=display(tournament.name))


def correction_news(tournament: TournamentView, entry: LogEntry) -> str:
    """The announcement in the tournament's channel, in whole lines within a message's 2,000
    characters (a knockout seeded again has a line per match; `/tournament log` has them all)."""
    footer = _("The standings follow: `/tournament standings`.")
    lines = [
        _("**{name}**: a result is corrected.", name=display(tournament.name)),
        *entry_text(entry).split("\n"),
    ]
    room = MAX_MESSAGE - len(footer) - 80  # the note of what was left out
    kept = 0
    while kept < len(lines) and len("\n".join(lines[: kept + 1])) <= room:
        kept += 1
    if kept < len(lines):
        left = len(lines) - kept
        more = ngettext(
            "- … and {count} more line: `/tournament log`.",
            "- … and {count} more lines: `/tournament log`.",
            left,
        )
        footer = f"{more}\n{footer}"
    return "\n".join([*lines[:kept], footer])


def log_embed(tournament: TournamentView, entries: list[LogEntry]) -> discord.Embed:
    shown = entries[-LOG_SHOWN:]
    lines = [f"{timestamp(e.created_at)} {entry_text(e)}" for e in reversed(shown)]
    description = "\n\n".join(lines) or _("No result has been corrected or reported.")
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 2] + "\n…"
    title = _("{name}: results set by hand", name=display(tournament.name))
    return discord.Embed(title=title, description=description)


def log_text(entries: list[LogEntry]) -> str:
    """The whole log as plain text, for the export (a record kept as it is, in English, like
    the CSV and the PTN beside it)."""
    return "\n\n".join(
        f"{e.created_at.isoformat()} [{e.kind.value}] game #{e.game_id}, "
        f"{e.result_before or '-'} -> {e.result_after}, by {e.actor.name} ({e.actor.id}): "
        f"{e.reason}" + "".join(f"\n  {line}" for line in e.consequences)
        for e in entries
    )
