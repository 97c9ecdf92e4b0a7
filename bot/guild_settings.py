"""Per-guild defaults for new challenges, and the guild's bot configuration; whether its pages
are served (web/), and the secret their addresses are signed with."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum

from bot.errors import InvalidSetting, UnknownLanguage
from bot.games.model import GameRequest, GameSetup, check_days, check_komi, check_size
from bot.languages import _, catalogue
from bot.store import Database, Transaction

MAX_VACATION_DAYS = 365


class Pages(StrEnum):
    """Whether anyone may open the server's games, tournaments and players as web pages."""

    OFF = "off"  # the default: nothing of the server is served
    UNLISTED = "unlisted"  # each page to whoever has its unguessable address
    LISTED = "listed"  # also the server's lobby page, and links between its pages


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """What a guild's admins configure; a guild that never did gets these defaults."""

    guild_id: int
    size: int = 6
    komi: float = 2.0  # the community's tournament standard on 6x6
    days_per_move: int = 3
    use_threads: bool = True  # a thread per game
    organizer_role_id: int | None = None  # may run tournaments besides admins
    typed_moves: bool = False  # moves typed as messages in a game's thread are played
    antiquity: bool = False  # new challenges use the antiquity tie rule (ties go to black)
    vacation_days: int = 14  # a player may take a year (UTC); 0: no vacations
    language: str | None = None  # of its public posts; None: the server's own (Discord's)
    pages: Pages = Pages.OFF  # its web pages (web/)

    def game_setup(self, request: GameRequest) -> GameSetup:
        """The checked setup `request` asks for, the guild's defaults standing in for what it
        leaves as None (:meth:`GameSetup.create` holds every limit)."""
        return GameSetup.create(
            request,
            size=self.size,
            komi=self.komi,
            days_per_move=self.days_per_move,
            antiquity=self.antiquity,
        )


async def fetch_guild_settings(tx: Transaction, guild_id: int) -> GuildSettings:
    row = await tx.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(
        guild_id=guild_id,
        size=row["size"],
        komi=row["komi"],
        days_per_move=row["days_per_move"],
        use_threads=bool(row["use_threads"]),
        organizer_role_id=row["organizer_role_id"],
        typed_moves=bool(row["typed_moves"]),
        antiquity=bool(row["antiquity"]),
        vacation_days=row["vacation_days"],
        language=row["language"],
        pages=Pages(row["pages"]),
    )


class GuildService:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> GuildSettings:
        async with self._db.snapshot() as tx:
            return await fetch_guild_settings(tx, guild_id)

    async def save(self, settings: GuildSettings) -> GuildSettings:
        """Store changed settings (``dataclasses.replace`` on :meth:`get`'s); checked first."""
        check_size(settings.size)
        check_komi(settings.komi)
        check_days(settings.days_per_move)
        if not 0 <= settings.vacation_days <= MAX_VACATION_DAYS:
            raise InvalidSetting(
                _("Vacation days must be from 0 to {most} a year.", most=MAX_VACATION_DAYS)
            )
        if settings.language is not None and settings.language not in catalogue().languages:
            raise UnknownLanguage()
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings "
                "(guild_id, size, komi, days_per_move, use_threads, organizer_role_id, "
                "typed_moves, antiquity, vacation_days, language, pages) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET "
                "size = excluded.size, komi = excluded.komi, "
                "days_per_move = excluded.days_per_move, use_threads = excluded.use_threads, "
                "organizer_role_id = excluded.organizer_role_id, "
                "typed_moves = excluded.typed_moves, antiquity = excluded.antiquity, "
                "vacation_days = excluded.vacation_days, language = excluded.language, "
                "pages = excluded.pages",
                (
                    settings.guild_id,
                    settings.size,
                    float(settings.komi),
                    settings.days_per_move,
                    int(settings.use_threads),
                    settings.organizer_role_id,
                    int(settings.typed_moves),
                    int(settings.antiquity),
                    settings.vacation_days,
                    settings.language,
                    settings.pages.value,
                ),
            )
            return await fetch_guild_settings(tx, settings.guild_id)

    async def page_secret(self) -> str:
        """The secret the pages' addresses are signed with: made once, at the first asking, and
        kept (every process serving pages on this database signs alike)."""
        async with self._db.snapshot() as tx:
            row = await tx.fetchone("SELECT secret FROM page_secret WHERE id = 1")
        if row is not None:
            return str(row["secret"])
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO page_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                (secrets.token_hex(32),),
            )
            row = await tx.fetchone("SELECT secret FROM page_secret WHERE id = 1")
        assert row is not None
        return str(row["secret"])
