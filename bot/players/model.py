"""What the services know of a player, shared by every package above: who they are and how
they are told of their moves."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class NotifyMode(StrEnum):
    """How a player is told it is their move: a mention in the game's thread, a direct message
    too, or a daily digest by DM (:mod:`bot.notifications.service`)."""

    MENTION = "mention"
    DM = "dm"
    DIGEST = "digest"  # per server only (notify_prefs), not players.notify


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A Discord user as the services know them: id and the last display name seen."""

    id: int
    name: str
