"""Players and their preferences."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import InvalidSetting, UnknownLanguage, UnknownPlayer
from bot.languages import _, catalogue
from bot.players import storage
from bot.players.model import NotifyMode, PlayerRef
from bot.store import Database, Transaction
from bot.timekeeping.clock import Clock

MAX_THEME_NAME = 32


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    id: int
    name: str
    theme: str | None  # None: the bot's default theme
    notify: NotifyMode
    # When time runs out and vacation days are left: a day taken instead of the loss on time
    # (:func:`bot.deadlines.holds.take_vacation_day`).
    auto_vacation: bool
    language: str | None = None  # chosen in /profile settings; None: their Discord's
    discord_locale: str | None = None  # the Discord language of their last command

    @property
    def speaks(self) -> str:
        """The language to speak to them: the one they chose, else their Discord's."""
        return self.language or catalogue().language_for(self.discord_locale)


async def fetch_player(tx: Transaction, player_id: int) -> PlayerProfile:
    row = await tx.fetchone("SELECT * FROM players WHERE id = ?", (player_id,))
    if row is None:
        raise UnknownPlayer(player_id)
    return PlayerProfile(
        row["id"],
        row["name"],
        row["theme"],
        NotifyMode(row["notify"]),
        bool(row["auto_vacation"]),
        row["language"],
        row["discord_locale"],
    )


class PlayerService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def register(self, player: PlayerRef) -> PlayerProfile:
        """Make sure the player exists, with the display name they use now."""
        async with self._db.transaction() as tx:
            await storage.save_player(tx, player, self._clock.now())
            return await fetch_player(tx, player.id)

    async def get(self, player_id: int) -> PlayerProfile:
        async with self._db.snapshot() as tx:
            return await fetch_player(tx, player_id)

    async def set_theme(self, player_id: int, theme: str | None) -> PlayerProfile:
        """Choose a board theme by name (the Discord layer offers rendering's theme names);
        None goes back to the default."""
        if theme is not None and not 0 < len(theme) <= MAX_THEME_NAME:
            raise InvalidSetting(_("A theme name has 1 to {most} characters.", most=MAX_THEME_NAME))
        async with self._db.transaction() as tx:
            await fetch_player(tx, player_id)
            await storage.set_theme(tx, player_id, theme, self._clock.now())
            return await fetch_player(tx, player_id)

    async def set_notify(self, player_id: int, mode: NotifyMode | str) -> PlayerProfile:
        """The default, in servers where the player chose nothing else
        (:mod:`bot.notifications.service`): a mention in the game's thread, or a DM too."""
        try:
            mode = NotifyMode(mode)
        except ValueError:
            raise InvalidSetting(_("Notifications are 'mention' or 'dm'.")) from None
        if mode is NotifyMode.DIGEST:
            raise InvalidSetting(
                _("A digest is chosen in each server, with its hour and time zone.")
            )
        async with self._db.transaction() as tx:
            await fetch_player(tx, player_id)
            await storage.set_notify(tx, player_id, mode, self._clock.now())
            return await fetch_player(tx, player_id)

    async def set_auto_vacation(self, player_id: int, on: bool) -> PlayerProfile:
        """Opt in (or out) of an automatic vacation day instead of a loss on time."""
        async with self._db.transaction() as tx:
            await fetch_player(tx, player_id)
            await storage.set_auto_vacation(tx, player_id, on, self._clock.now())
            return await fetch_player(tx, player_id)

    async def set_language(self, player_id: int, language: str | None) -> PlayerProfile:
        """Choose the language Bredon speaks to the player (None: their Discord's)."""
        if language is not None and language not in catalogue().languages:
            raise UnknownLanguage()
        async with self._db.transaction() as tx:
            await fetch_player(tx, player_id)
            await storage.set_language(tx, player_id, language, self._clock.now())
            return await fetch_player(tx, player_id)

    async def speaks(
        self, player_id: int, discord_locale: str | None = None, *, remember: bool = True
    ) -> str:
        """The language to speak to a player: the one they chose, else the Discord language
        their command came in (`discord_locale`, remembered for what reaches them outside a
        command), else the one their last command came in."""
        language, _known = await self.speaks_known(player_id, discord_locale, remember=remember)
        return language

    async def speaks_known(
        self, player_id: int, discord_locale: str | None = None, *, remember: bool = True
    ) -> tuple[str, bool]:
        """:meth:`speaks`, and whether they are a player yet (else nothing is remembered: their
        first command may make them one, and note `discord_locale` after)."""
        async with self._db.snapshot() as tx:
            try:
                profile = await fetch_player(tx, player_id)
            except UnknownPlayer:
                return catalogue().language_for(discord_locale), False
        if discord_locale is None or discord_locale == profile.discord_locale:
            return profile.speaks, True
        language = profile.language or catalogue().language_for(discord_locale)
        if remember:  # not before a button's answer, which cannot wait on a write
            async with self._db.transaction() as tx:
                await storage.note_locale(tx, player_id, discord_locale)
        return language, True
