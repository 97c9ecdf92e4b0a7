"""How each player is told of their games, per server, and the daily digests.

A player chooses, in each server, one of three ways (:class:`~bot.players.model.NotifyMode`):

- ``mention``: a mention in the game's thread at each move (the default);
- ``dm``: the mention and a direct message at each move;
- ``digest``: no ping per move, and one DM a day at the local hour they choose in their IANA time
  zone, listing every game of that server awaiting their move with a link and the time left.

Offers (draw and undo requests, challenges addressed to them, their games of a new tournament
round) and reminders are time-sensitive: ``dm`` and ``digest`` players get them by DM at once
(:meth:`NotifyPrefs.offers_by_dm`), besides the post in the channel that everyone gets.

Digests are durable: each digest player has a row with the next due UTC instant
(:func:`bot.notifications.digest.next_digest_at`). The one scheduler
(:mod:`bot.deadlines.scheduler`) calls
:meth:`NotificationService.run_due`, which, in one transaction per player, moves the row on to
the next local hour after now and writes a :class:`~bot.notifications.outbox.DigestDue` to the
outbox;
the Discord layer delivers it (retried when Discord fails). So a bot down across the digest hour
sends the digest once when it is back (the missed days are not sent one by one), and two
schedulers never send it twice.

When a DM is refused (DMs closed), the Discord layer falls back to a mention in the game's
thread and records it here (:meth:`NotificationService.mark_unreachable`); the player is told the
next time they use a command in that server (:meth:`NotificationService.take_unreachable`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.errors import InvalidSetting
from bot.languages import _
from bot.notifications.digest import next_digest_at, time_zone
from bot.notifications.outbox import DigestDue, enqueue
from bot.players.model import NotifyMode
from bot.store import Database, Transaction, from_db, to_db, to_db_or_none
from bot.timekeeping.clock import Clock

log = logging.getLogger(__name__)

DEFAULT_DIGEST_HOUR = 8


@dataclass(frozen=True, slots=True)
class NotifyPrefs:
    player_id: int
    guild_id: int
    mode: NotifyMode
    digest_hour: int | None = None
    time_zone: str | None = None
    next_digest_at: datetime | None = None

    @property
    def dm_per_move(self) -> bool:
        return self.mode is NotifyMode.DM

    @property
    def mention_per_move(self) -> bool:
        """Digest players are not pinged at each move: the digest tells them."""
        return self.mode is not NotifyMode.DIGEST

    @property
    def offers_by_dm(self) -> bool:
        """Offers, pairings and reminders cannot wait for a digest: DM and digest players get
        them by DM at once."""
        return self.mode in (NotifyMode.DM, NotifyMode.DIGEST)


async def fetch_prefs(tx: Transaction, player_id: int, guild_id: int) -> NotifyPrefs:
    """The player's choice in the server; where they made none, their old server-wide choice
    (players.notify), else mentions."""
    row = await tx.fetchone(
        "SELECT * FROM notify_prefs WHERE player_id = ? AND guild_id = ?", (player_id, guild_id)
    )
    if row is None:
        player = await tx.fetchone("SELECT notify FROM players WHERE id = ?", (player_id,))
        mode = NotifyMode(player["notify"]) if player is not None else NotifyMode.MENTION
        return NotifyPrefs(player_id, guild_id, mode)
    return NotifyPrefs(
        player_id,
        guild_id,
        NotifyMode(row["mode"]),
        row["digest_hour"],
        row["time_zone"],
        from_db(row["next_digest_at"]),
    )


class NotificationService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def get(self, player_id: int, guild_id: int) -> NotifyPrefs:
        async with self._db.snapshot() as tx:
            return await fetch_prefs(tx, player_id, guild_id)

    async def choose(
        self,
        player_id: int,
        guild_id: int,
        mode: NotifyMode | str | None = None,
        *,
        hour: int | None = None,
        zone: str | None = None,
    ) -> NotifyPrefs:
        """Change how the player is told in this server (only what is given changes). A digest
        needs a time zone (given now or before) and an hour (default 8:00); its first one is
        due at the next such hour. The player must be registered."""
        if mode is not None:
            try:
                mode = NotifyMode(mode)
            except ValueError:
                raise InvalidSetting(_("Notifications are 'mention', 'dm' or 'digest'.")) from None
        if hour is not None and not 0 <= hour <= 23:
            raise InvalidSetting(_("The digest hour is 0 to 23 (your local time)."))
        zone_name = None if zone is None else time_zone(zone).key
        now = self._clock.now()
        async with self._db.transaction() as tx:
            current = await fetch_prefs(tx, player_id, guild_id)
            new_mode = mode or current.mode
            new_hour = hour if hour is not None else current.digest_hour
            new_zone = zone_name or current.time_zone
            next_due = None
            if new_mode is NotifyMode.DIGEST:
                if new_zone is None:
                    raise InvalidSetting(
                        _("A digest needs your time zone: add time_zone, e.g. Europe/London.")
                    )
                new_hour = DEFAULT_DIGEST_HOUR if new_hour is None else new_hour
                next_due = next_digest_at(now, new_hour, time_zone(new_zone))
            await tx.execute(
                "INSERT INTO notify_prefs (player_id, guild_id, mode, digest_hour, time_zone, "
                "next_digest_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (player_id, guild_id) DO UPDATE SET mode = excluded.mode, "
                "digest_hour = excluded.digest_hour, time_zone = excluded.time_zone, "
                "next_digest_at = excluded.next_digest_at, updated_at = excluded.updated_at",
                (
                    player_id,
                    guild_id,
                    new_mode.value,
                    new_hour,
                    new_zone,
                    to_db_or_none(next_due),
                    to_db(now),
                ),
            )
            return await fetch_prefs(tx, player_id, guild_id)

    # ----------------------------------------------------------------- digests

    async def next_due_at(self) -> datetime | None:
        """The earliest digest still to send (or overdue)."""
        row = await self._db.fetchone("SELECT MIN(next_digest_at) FROM notify_prefs")
        return None if row is None else from_db(row[0])

    async def run_due(self, at: datetime | None = None) -> int:
        """Write the digests due at `at` (default now) to the outbox, each row moved on to its
        next local hour in the same transaction; returns how many."""
        moment = at or self._clock.now()
        rows = await self._db.fetchall(
            "SELECT player_id, guild_id FROM notify_prefs WHERE next_digest_at <= ? "
            "ORDER BY next_digest_at",
            (to_db(moment),),
        )
        written = 0
        for row in rows:
            written += await self._write_digest(row["player_id"], row["guild_id"], moment)
        return written

    async def _write_digest(self, player_id: int, guild_id: int, moment: datetime) -> bool:
        async with self._db.transaction() as tx:
            prefs = await fetch_prefs(tx, player_id, guild_id)
            due = prefs.next_digest_at
            if due is None or due > moment:
                return False  # changed meanwhile, or another scheduler sent it
            assert prefs.digest_hour is not None and prefs.time_zone is not None
            zone = self._zone_or_utc(prefs.time_zone)
            later = next_digest_at(moment, prefs.digest_hour, zone)
            await tx.execute(
                "UPDATE notify_prefs SET next_digest_at = ? WHERE player_id = ? AND guild_id = ?",
                (to_db(later), player_id, guild_id),
            )
            await enqueue(tx, DigestDue(player_id, guild_id, to_db(due)), moment)
            return True

    @staticmethod
    def _zone_or_utc(name: str) -> ZoneInfo:
        try:
            return time_zone(name)
        except InvalidSetting:  # the zone database lost the name since it was chosen
            log.warning("Time zone %s is unknown now; digests for it go by UTC.", name)
            return ZoneInfo("UTC")

    # ----------------------------------------------------------------- refused DMs

    async def mark_unreachable(self, player_id: int, guild_id: int) -> None:
        """A DM to the player was refused; they hear of it at their next command here."""
        now = to_db(self._clock.now())
        async with self._db.transaction() as tx:
            prefs = await fetch_prefs(tx, player_id, guild_id)
            changed = await tx.execute(
                "UPDATE notify_prefs SET unreachable_at = ? WHERE player_id = ? AND guild_id = ?",
                (now, player_id, guild_id),
            )
            if changed == 0:  # no choice made here yet: keep the default it has
                await tx.execute(
                    "INSERT INTO notify_prefs (player_id, guild_id, mode, unreachable_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?)",
                    (player_id, guild_id, prefs.mode.value, now, now),
                )

    async def take_unreachable(self, player_id: int, guild_id: int) -> datetime | None:
        """When a DM to the player was refused, if one was since they were last told (and
        forget it: they are told once)."""
        where = "WHERE player_id = ? AND guild_id = ? AND unreachable_at IS NOT NULL"
        if await self._db.fetchone("SELECT 1 FROM notify_prefs " + where, (player_id, guild_id)):
            async with self._db.transaction() as tx:
                row = await tx.fetchone(
                    "SELECT unreachable_at FROM notify_prefs " + where, (player_id, guild_id)
                )
                if row is not None:
                    await tx.execute(
                        "UPDATE notify_prefs SET unreachable_at = NULL " + where,
                        (player_id, guild_id),
                    )
                    return from_db(row[0])
        return None
