"""Fair use of the bot's shared work: how much one player or one server may have waiting.

The analyses (`/game analysis`) and the bot's moves share a few worker processes. The limits
below keep one player (or one busy server) from filling them; the queues themselves take the
players in turn (:mod:`bot.computer.analysis_queue`, :mod:`bot.computer.player`), so that one
player's work delays another's by one job at most. Set by the ``BREDON_*`` variables in
``.env.example``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.languages import _, numeral


@dataclass(frozen=True, slots=True)
class FairUse:
    analyses_per_player: int = 3  # queued at once, in all servers together
    analyses_per_server: int = 20
    bot_games_per_player: int = 3  # games against the bot, in all servers (open challenges count)
    bot_games_per_server: int = 25
    analysis_max_minutes: int = 30  # one game's analysis, estimated: longer ones are refused


DEFAULT_FAIR_USE = FairUse()


def listed(names: list[str], most: int = 5) -> str:
    """'#1, #2, #3 and 7 more': a refusal names a few, however high a server set its limit, so
    that it stays well within a Discord message."""
    shown = ", ".join(names[:most])
    if len(names) <= most:
        return shown
    return _("{shown} and {count} more", shown=shown, count=numeral(len(names) - most))
