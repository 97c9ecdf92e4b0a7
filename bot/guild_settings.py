"""Per-guild defaults for new challenges, and the guild's bot configuration."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial

from bot.errors import InvalidSetting, UnknownLanguage
from bot.games.model import GameSetup, check_days, check_komi, check_size
from bot.languages import _, catalogue
from bot.store import Database, Transaction
from bot.timekeeping.control import TimeControl
from tak import Opening, TPSError, parse_tps

MAX_VACATION_DAYS = 365


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

    def game_setup(
        self,
        *,
        size: int | None = None,
        komi: float | None = None,
        days_per_move: int | None = None,
        opening: Opening | str = Opening.SWAP,
        stones: int | None = None,
        caps: int | None = None,
        black_stones: int | None = None,
        black_caps: int | None = None,
        rated: bool | None = None,
        antiquity: bool | None = None,
        start_tps: str | None = None,
        start_moves: str | None = None,
        bank: timedelta | None = None,
        increment: timedelta | None = None,
        cap: timedelta | None = None,
    ) -> GameSetup:
        """Checked game settings, the guild's defaults standing in for those left as None. A
        `start_tps` gives its own size, and `rated` left as None is rated only from the empty
        board. The time control (`bank`, or `increment` up to `cap`) is checked for the days
        per move the setup settles on. `start_moves` (PTN moves from the empty board, an
        opening) give the start as the position they lead to."""
        if size is None and start_tps is not None:
            # A TPS that is not one is refused with the setup.
            with contextlib.suppress(TPSError):
                size = parse_tps(start_tps).size
        create = partial(
            GameSetup.create,
            size=self.size if size is None else size,
            komi=self.komi if komi is None else komi,
            opening=opening,
            stones=stones,
            caps=caps,
            black_stones=black_stones,
            black_caps=black_caps,
            days_per_move=self.days_per_move if days_per_move is None else days_per_move,
            antiquity=self.antiquity if antiquity is None else antiquity,
        )
        if start_moves is not None:
            start_tps = create(rated=False).opening_tps(start_moves)
        setup = create(rated=start_tps is None if rated is None else rated, start_tps=start_tps)
        clock = TimeControl.create(setup.days_per_move, bank=bank, increment=increment, cap=cap)
        return replace(setup, clock=clock)


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
                "typed_moves, antiquity, vacation_days, language) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET "
                "size = excluded.size, komi = excluded.komi, "
                "days_per_move = excluded.days_per_move, use_threads = excluded.use_threads, "
                "organizer_role_id = excluded.organizer_role_id, "
                "typed_moves = excluded.typed_moves, antiquity = excluded.antiquity, "
                "vacation_days = excluded.vacation_days, language = excluded.language",
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
                ),
            )
            return await fetch_guild_settings(tx, settings.guild_id)
