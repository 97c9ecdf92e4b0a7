"""When a daily digest is due: a local hour in a player's IANA time zone, as a UTC instant.

The digest goes at the chosen hour of the player's wall clock on every day, on both sides of a
daylight-saving change (so it is 24 hours after the last one on most days, 23 or 25 around a
change). Two days a year the hour is odd:

- **It does not exist** (the clocks jump over it in spring, e.g. 01:00 in Europe/London on the
  last Sunday of March): the digest goes at the instant of the jump, which the wall clock shows as
  the hour after the gap (02:00 BST). That is the UTC instant the hour would have had without the
  change (Python's ``fold=0``), so it is neither skipped nor sent twice.
- **It happens twice** (the clocks go back in autumn, e.g. 01:00 in America/New_York on the first
  Sunday of November): the digest goes at the first of the two (01:00 EDT), once.

Pure functions of their arguments: no clock, no database.
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.errors import InvalidSetting
from bot.languages import _
from bot.text_safety import one_line

MAX_ZONE_SUGGESTIONS = 25  # Discord's limit on autocomplete choices


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this machine knows (the system database, else the tzdata package),
    sorted; "localtime" and friends are not zones a player lives in."""
    return tuple(sorted(n for n in available_timezones() if "/" in n or n == "UTC"))


def time_zone(name: str) -> ZoneInfo:
    """The zone by its IANA name (any letter case), or a clear refusal."""
    wanted = name.strip()
    by_lower = {n.lower(): n for n in zone_names()}
    canonical = by_lower.get(wanted.lower())
    if canonical is None:
        raise InvalidSetting(
            _(
                "'{zone}' is not a time zone I know. Use an IANA name such as Europe/London or "
                "America/New_York (the list suggests them as you type).",
                zone=one_line(wanted),
            )
        )
    try:
        return ZoneInfo(canonical)
    except (ZoneInfoNotFoundError, ValueError):  # listed but unreadable: a broken tz database
        raise InvalidSetting(
            _("The time zone {zone} cannot be read on this server.", zone=canonical)
        ) from None


def suggest_zones(typed: str, limit: int = MAX_ZONE_SUGGESTIONS) -> list[str]:
    """Zone names for autocomplete: those starting with what was typed, then those containing it
    (so "york" finds America/New_York and "paris" Europe/Paris)."""
    needle = typed.strip().lower().replace(" ", "_")
    names = zone_names()
    starting = [n for n in names if n.lower().startswith(needle)]
    containing = [n for n in names if needle in n.lower() and n not in starting]
    return (starting + containing)[:limit]


def local_hour_instant(day: date, hour: int, zone: ZoneInfo) -> datetime:
    """The UTC instant of `hour`:00 on `day` in `zone` (see the module's notes on the hour that
    does not exist or happens twice)."""
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)  # fold=0


def next_digest_at(after: datetime, hour: int, zone: ZoneInfo) -> datetime:
    """The first instant strictly after `after` at which the digest is due."""
    if not 0 <= hour <= 23:
        raise InvalidSetting(_("The digest hour is 0 to 23 (your local time)."))
    day = after.astimezone(zone).date() - timedelta(days=1)
    while True:
        due = local_hour_instant(day, hour, zone)
        if due > after:
            return due
        day += timedelta(days=1)
