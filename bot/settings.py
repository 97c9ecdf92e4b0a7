"""The bot's settings: read from the environment and a `.env` file, checked before anything starts.

`.env` is parsed here (``KEY=value`` lines, ``#`` comments, optional quotes) so the bot needs no
extra dependency; a variable set in the real environment wins over the file.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import DEFAULT_PATH
from tak.errors import quoted

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_ENV_LENGTH = 65_536  # characters of .env
_ENV_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


SWITCHES = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


class SettingsError(Exception):
    """A setting is missing or malformed; the message tells the operator what to do."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = field(repr=False)  # never in a log line or an error
    database: Path = DEFAULT_PATH
    dev_guild: int | None = None
    log_level: str = "INFO"
    typed_moves: bool = False  # read moves typed in game threads (message content intent)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Settings from variables named as in ``.env.example``; empty values count as unset."""
        token = values.get("DISCORD_TOKEN", "").strip() or None
        database = Path(values.get("BREDON_DATABASE", "").strip() or DEFAULT_PATH)
        guild_text = values.get("BREDON_DEV_GUILD", "").strip()
        dev_guild = None
        if guild_text:
            if not (guild_text.isascii() and guild_text.isdigit()):
                raise SettingsError(
                    f"BREDON_DEV_GUILD must be a server id (digits only), not {guild_text!r}."
                )
            dev_guild = int(guild_text)
        level = values.get("BREDON_LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(
                f"BREDON_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}."
            )
        typed = values.get("BREDON_TYPED_MOVES", "").strip().lower() or "0"
        if typed not in SWITCHES:
            raise SettingsError(f"BREDON_TYPED_MOVES must be 1 (on) or 0 (off), not {typed!r}.")
        return cls(
            token=token,
            database=database,
            dev_guild=dev_guild,
            log_level=level,
            typed_moves=SWITCHES[typed],
        )

    @property
    def logging_level(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def parse_env_file(text: str) -> dict[str, str]:
    """``KEY=value`` pairs of a ``.env`` file. Blank lines and ``#`` comments are skipped, an
    ``export`` prefix is allowed, and matching single or double quotes around a value go.

    Anything else raises :class:`SettingsError` naming the line: keys are ASCII names as the
    environment has them, and a NUL (which no path or token can hold) is refused.
    """
    if len(text) > MAX_ENV_LENGTH:
        raise SettingsError(
            f".env is {len(text):,} characters long; settings take a few lines (at most "
            f"{MAX_ENV_LENGTH:,} characters)."
        )
    values: dict[str, str] = {}
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = line.removeprefix("export ").strip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not _ENV_KEY_RE.fullmatch(key):
            raise SettingsError(f".env line {number} is not KEY=value: {quoted(raw.strip())}")
        value = _without_comment(value.strip())
        if "\x00" in value:
            raise SettingsError(f".env line {number}: the value of {key} holds a NUL character.")
        values[key] = value
    return values


def _without_comment(value: str) -> str:
    """A value without its quotes, or without a trailing ``# comment`` (as python-dotenv reads
    them: a ``#`` after white space starts a comment in an unquoted value)."""
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        rest = value[end + 1 :].strip() if end > 0 else None
        if rest is not None and (not rest or rest.startswith("#")):
            return value[1:end]
        return value
    return re.split(r"\s#", value, maxsplit=1)[0].rstrip()


def load_settings(env_file: Path, environ: Mapping[str, str]) -> Settings:
    """The `.env` file (if it exists) overlaid with the real environment."""
    values: dict[str, str] = {}
    if env_file.is_file():
        values.update(parse_env_file(env_file.read_text(encoding="utf-8")))
    values.update({key: value for key, value in environ.items() if value.strip()})
    return Settings.from_mapping(values)
