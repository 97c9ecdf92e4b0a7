"""The bot's settings: read from the environment and a `.env` file, checked before anything starts.

`.env` is read with python-dotenv, the format other tools write; the checks and the
messages are ours, so a bad line or value is named before anything starts, by its line number or
its variable and what it expects, never shown: a token pasted into the wrong line or variable
must not end up in a log. A variable set in the real environment wins over the file.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import logging
import re
import shlex
from collections import ChainMap
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.store import DEFAULT_PATH, is_postgres
from bot.work.fair_use import DEFAULT_FAIR_USE, FairUse

TOKEN_VARIABLE = "DISCORD_TOKEN"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_ENV_LENGTH = 65_536  # characters of .env
# How long the bot may think about a move. Levels 1 to 4 stop at their own caps long before (level
# 4's 10,000 positions take about a second in pure Python); level 5, the strongest, uses it all:
# some 150,000 positions in pure Python, 15 times level 4's (the ladder in benchmarks/ladder.py
# measures what that is worth).
DEFAULT_BOT_MOVETIME_MS = 20_000
FAIR_USE_VARIABLES = (  # FairUse's fields, in order
    "BREDON_ANALYSES_PER_PLAYER",
    "BREDON_ANALYSES_PER_SERVER",
    "BREDON_BOT_GAMES_PER_PLAYER",
    "BREDON_BOT_GAMES_PER_SERVER",
    "BREDON_ANALYSIS_MAX_MINUTES",
)
# Every variable Bredon reads: a BREDON_* name not here is a misspelling, refused at start
# rather than silently ignored (a BREDON_DATABSE would otherwise leave the default database).
SETTING_NAMES = (
    TOKEN_VARIABLE,
    "BREDON_DATABASE",
    "BREDON_MIGRATE_ON_START",
    "BREDON_DEV_GUILD",
    "BREDON_LOG_LEVEL",
    "BREDON_TYPED_MOVES",
    "BREDON_HEALTH_PORT",
    "BREDON_HEALTH_HOST",
    "BREDON_WEB_PORT",
    "BREDON_WEB_HOST",
    "BREDON_PUBLIC_URL",
    "BREDON_WEB_SECRET",
    "BREDON_SHARDS",
    "BREDON_SHARD_IDS",
    "BREDON_ENGINE",
    "BREDON_BOT_WORKERS",
    "BREDON_BOT_MOVETIME_MS",
    "BREDON_ANALYSIS_NODES",
    *FAIR_USE_VARIABLES,
)
# Read by the build and the tests, not by the bot: known, so not refused.
TOOL_VARIABLES = ("BREDON_COMPILE", "BREDON_TEST_POSTGRES", "BREDON_UPDATE_CATALOGUES")
_ENV_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN_RE = re.compile(r"[A-Za-z0-9._\-]+")  # what Discord's tokens are made of
SNOWFLAKE_DIGITS = 20  # a Discord id is a 64-bit number


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
class Sharding:
    """How this process connects to Discord: ``count`` shards in all (None: as Discord advises),
    of which it runs ``ids`` (None: all of them). A bot in fewer than 2,500 servers needs none."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    def describe(self) -> str:
        total = "as many as Discord advises" if self.count is None else str(self.count)
        if self.ids is None:
            return f"all shards ({total})"
        return f"shards {', '.join(map(str, self.ids))} of {total}"


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = field(repr=False)  # never in a log line or an error
    database: Path | str = DEFAULT_PATH  # a SQLite file, or a postgresql:// URL
    dev_guild: int | None = None
    log_level: str = "INFO"
    typed_moves: bool = False  # read moves typed in game threads (message content intent)
    health_port: int | None = None  # the /healthz and /metrics endpoint; None: off
    health_host: str = "127.0.0.1"
    web: WebPages = field(default_factory=lambda: WebPages())  # the pages (web/)
    sharding: Sharding | None = None  # None: one connection, no AutoShardedBot
    engine: tuple[str, ...] | None = None  # a TEI engine's command line: the strongest level
    bot_workers: int = 2  # processes that search the bot's moves (games thought about at once)
    bot_movetime_ms: int = DEFAULT_BOT_MOVETIME_MS
    analysis_nodes: int = 1_000  # searched per position by a post-game analysis
    fair_use: FairUse = DEFAULT_FAIR_USE  # how much one player or server may have waiting
    migrate_on_start: bool = False  # upgrade an older schema at start instead of refusing
    env_file: EnvFile | None = field(default=None, compare=False)  # what load_settings read

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Settings from variables named as in ``.env.example``; empty values count as unset."""
        token = values.get(TOKEN_VARIABLE, "").strip() or None
        if token is not None and not _TOKEN_RE.fullmatch(token):
            raise SettingsError(
                f"{TOKEN_VARIABLE} holds a space, a quote or another character no Discord token "
                "has: copy the token again (Developer Portal -> your application -> Bot)."
            )
        database_text = values.get("BREDON_DATABASE", "").strip()
        database: Path | str = (
            database_text if is_postgres(database_text) else Path(database_text or DEFAULT_PATH)
        )
        guild_text = values.get("BREDON_DEV_GUILD", "").strip()
        dev_guild = None
        if guild_text:
            if not is_snowflake(guild_text):
                raise SettingsError(
                    "BREDON_DEV_GUILD must be a server id: up to 20 digits (Discord: right-click "
                    "the server -> Copy Server ID)."
                )
            dev_guild = int(guild_text)
        level = values.get("BREDON_LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(f"BREDON_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}.")
        return cls(
            token=token,
            database=database,
            migrate_on_start=_switch(values, "BREDON_MIGRATE_ON_START"),
            dev_guild=dev_guild,
            log_level=level,
            typed_moves=_switch(values, "BREDON_TYPED_MOVES"),
            health_port=_health_port(values.get("BREDON_HEALTH_PORT", "").strip()),
            health_host=values.get("BREDON_HEALTH_HOST", "").strip() or "127.0.0.1",
            web=_web_pages(values),
            sharding=_sharding(
                values.get("BREDON_SHARDS", "").strip(), values.get("BREDON_SHARD_IDS", "").strip()
            ),
            engine=_engine(values.get("BREDON_ENGINE", "").strip()),
            bot_workers=_bounded(values, "BREDON_BOT_WORKERS", 2, 1, 16),
            bot_movetime_ms=_bounded(
                values, "BREDON_BOT_MOVETIME_MS", DEFAULT_BOT_MOVETIME_MS, 100, 60_000
            ),
            analysis_nodes=_bounded(values, "BREDON_ANALYSIS_NODES", 1_000, 50, 100_000),
            fair_use=FairUse(
                *(
                    _bounded(values, name, default, 1, 10_000)
                    for name, default in zip(
                        FAIR_USE_VARIABLES, dataclasses.astuple(DEFAULT_FAIR_USE), strict=True
                    )
                )
            ),
        )

    @property
    def logging_level(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def is_snowflake(text: str) -> bool:
    """Whether `text` can be a Discord id: ASCII digits, short enough for a 64-bit number
    (and for Python's int conversion, which refuses over 4,300 digits)."""
    return text.isascii() and text.isdigit() and len(text) <= SNOWFLAKE_DIGITS


def _switch(values: Mapping[str, str], name: str) -> bool:
    text = values.get(name, "").strip().lower() or "0"
    if text not in SWITCHES:
        raise SettingsError(f"{name} must be 1 (on) or 0 (off).")
    return SWITCHES[text]


def refuse_unknown(names: Iterable[str], where: str, *, file: bool) -> None:
    """Raise :class:`SettingsError` for the first name that looks meant for Bredon but is none of
    its variables, with the closest known name: ignored, a misspelled setting would silently
    leave its default. Meant for Bredon: a ``BREDON_`` prefix (in any case), and in `.env`
    (Bredon's file) also a near miss of ``DISCORD_TOKEN``."""
    for name in names:
        if name in SETTING_NAMES or name in TOOL_VARIABLES:
            continue
        close = _closest(name)
        near_token = file and close == TOKEN_VARIABLE
        if not (name.upper().startswith("BREDON_") or near_token):
            continue
        guess = f"did you mean {close}?" if close else "see .env.example for the settings."
        raise SettingsError(
            f"{name} ({where}) is not a setting of Bredon: {guess} A misspelled setting would be "
            "ignored, so Bredon does not start until it is corrected or removed."
        )


def _closest(name: str) -> str | None:
    """The known name `name` is most likely a misspelling of, compared without the prefix that
    all but the token share."""
    bare = {known.removeprefix("BREDON_"): known for known in SETTING_NAMES}
    found = difflib.get_close_matches(name.upper().removeprefix("BREDON_"), bare, n=1, cutoff=0.7)
    return bare[found[0]] if found else None


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _engine(text: str) -> tuple[str, ...] | None:
    """``BREDON_ENGINE``: a command line, split as a shell would (e.g. ``tiltak tei``)."""
    if not text:
        return None
    try:
        return tuple(shlex.split(text))
    except ValueError as error:
        raise SettingsError(
            f"BREDON_ENGINE must be a command line, like tiltak tei ({error})."
        ) from None


def _bounded(values: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = values.get(name, "").strip()
    if not text:
        return default
    number = _number(text)
    if number is None or not low <= number <= high:
        raise SettingsError(f"{name} must be a whole number from {low} to {high}.")
    return number


def _health_port(text: str, name: str = "BREDON_HEALTH_PORT") -> int | None:
    if not text:
        return None
    port = _number(text)
    if port is None or not 1 <= port <= 65535:
        raise SettingsError(f"{name} must be a port number (1-65535).")
    return port


@dataclass(frozen=True, slots=True)
class WebPages:
    """Where the pages anyone can open are served (web/): inside the bot when `port` is set,
    or by `bredon web`; `public_url` is how readers reach them (the links Bredon posts), and
    `secret` what their addresses are signed with (None: one kept in the database)."""

    port: int | None = None
    host: str = "127.0.0.1"
    public_url: str | None = None
    secret: str | None = field(default=None, repr=False)


MIN_WEB_SECRET = 16  # characters: a shorter secret could be guessed


def _web_pages(values: Mapping[str, str]) -> WebPages:
    public_url = values.get("BREDON_PUBLIC_URL", "").strip().rstrip("/") or None
    if public_url is not None and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", public_url):
        raise SettingsError(
            "BREDON_PUBLIC_URL must be the address readers open the pages at, like "
            "https://tak.example.org (no query or fragment)."
        )
    secret = values.get("BREDON_WEB_SECRET", "").strip() or None
    if secret is not None and len(secret) < MIN_WEB_SECRET:
        raise SettingsError(
            f"BREDON_WEB_SECRET must be at least {MIN_WEB_SECRET} characters (leave it unset "
            "and Bredon keeps a random one in the database)."
        )
    return WebPages(
        port=_health_port(values.get("BREDON_WEB_PORT", "").strip(), "BREDON_WEB_PORT"),
        host=values.get("BREDON_WEB_HOST", "").strip() or "127.0.0.1",
        public_url=public_url,
        secret=secret,
    )


def _sharding(shards: str, ranges: str) -> Sharding | None:
    """``BREDON_SHARDS``: ``auto`` or the total number of shards; ``BREDON_SHARD_IDS``: which of
    them this process runs, as ``0-3`` or ``0,2,5-7`` (needs the total)."""
    if not shards and not ranges:
        return None
    count = None if shards.lower() in ("", "auto") else _number(shards)
    if shards.lower() not in ("", "auto") and not count:
        raise SettingsError("BREDON_SHARDS must be auto or a number of shards (1 or more).")
    if not ranges:
        return Sharding(count)
    if count is None:
        raise SettingsError(
            "BREDON_SHARD_IDS needs BREDON_SHARDS set to the total number of shards "
            "(every process must agree on it)."
        )
    ids: set[int] = set()
    for part in ranges.split(","):
        first, _, last = part.strip().partition("-")
        low, high = _number(first.strip()), _number(last.strip() or first.strip())
        if low is None or high is None or low > high:
            raise SettingsError("BREDON_SHARD_IDS must be shard numbers or ranges like 0-3,6.")
        if high >= count:
            raise SettingsError(
                f"BREDON_SHARD_IDS names shard {high}, but shards are numbered 0 to {count - 1} "
                f"(BREDON_SHARDS={count})."
            )
        ids.update(range(low, high + 1))
    return Sharding(count, tuple(sorted(ids)))


def parse_env_file(text: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``KEY=value`` pairs of a ``.env`` file, read by python-dotenv: ``#`` comments (also after a
    value, following a space), an ``export`` prefix, single or double quotes, a leading
    byte-order mark (Notepad writes one), and ``${VAR}`` or ``${VAR:-default}`` expanded from the
    environment (which wins, as it does for settings) or from the lines above.

    Anything else raises :class:`SettingsError` naming the line: keys are ASCII names as the
    environment has them, and a NUL or a line break (which no setting holds) is refused. A
    refused line is named, never shown (it may be the token).
    """
    if len(text) > MAX_ENV_LENGTH:
        raise SettingsError(
            f".env is {len(text):,} characters long; settings take a few lines (at most "
            f"{MAX_ENV_LENGTH:,} characters)."
        )
    environ = environ or {}
    values: dict[str, str] = {}
    # What ${VAR} sees: the environment first, then the lines above (values grows as it goes).
    known = ChainMap({name: got for name, got in environ.items() if got.strip()}, values)
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    with _without_dotenv_warnings():
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue  # a blank or comment line
            key, value = _one_setting(line, lines[number - 1 :], number)
            if "\x00" in value:
                raise SettingsError(
                    f".env line {number}: the value of {key} holds a NUL character."
                )
            if "\n" in value or "\r" in value:  # written as an escape: no setting holds one
                raise SettingsError(
                    f".env line {number}: the value of {key} runs over several lines; "
                    "is a quote not closed?"
                )
            values[key] = _VARIABLE.sub(
                lambda found: known.get(found["name"], found["default"] or ""), value
            )
    return values


_LINE_BREAK = re.compile(r"\r\n|\n|\r")  # as python-dotenv ends a line
# python-dotenv's ${VAR} and ${VAR:-default}
_VARIABLE = re.compile(r"\$\{(?P<name>[^}:]*)(?::-(?P<default>[^}]*))?\}")


def _one_setting(line: str, rest: list[str], number: int) -> tuple[str, str]:
    """The key and raw value on one line of `.env` (`rest`: it and the lines after it)."""
    found = list(dotenv_values(stream=io.StringIO(line), interpolate=False).items())
    if len(found) == 1:
        key, value = found[0]
        if value is not None and _ENV_KEY_RE.fullmatch(key):
            return key, value
    else:  # not a statement on its own: perhaps a quoted value running over several lines
        whole = dotenv_values(stream=io.StringIO("\n".join(rest)), interpolate=False)
        opened, held = next(iter(whole.items()), ("", None))
        opened_here = bool(opened) and line.split("=", 1)[0].strip().endswith(opened)
        if opened_here and held is not None and "\n" in held:
            # No setting holds a line break; a quote left open swallows the lines after it
            # (perhaps the token's), which a later message must not show.
            raise SettingsError(
                f".env line {number}: the value of {opened} runs over several lines; "
                "is a quote not closed?"
            )
    raise SettingsError(
        f".env line {number} is not KEY=value (a NAME, =, then the value; the line is "
        "not shown, as it may hold the token)."
    )


@contextmanager
def _without_dotenv_warnings() -> Iterator[None]:
    """python-dotenv warns of a statement it cannot parse, numbered within the one line it was
    given; the :class:`SettingsError` names the line of the file instead."""
    dotenv_log = logging.getLogger("dotenv.main")
    dotenv_log.addFilter(_no_record)
    try:
        yield
    finally:
        dotenv_log.removeFilter(_no_record)


def _no_record(record: logging.LogRecord) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class EnvFile:
    """Where `.env` was looked for, and whether it was there (for the start-up log)."""

    path: Path
    found: bool

    def describe(self) -> str:
        if self.found:
            return f"Settings from {self.path.absolute()} and the environment."
        return f"No {self.path.absolute()}: settings from the environment only."


def read_env_file(path: Path, environ: Mapping[str, str]) -> tuple[dict[str, str], EnvFile]:
    """The values in the file at `path` (none if it does not exist), and what was read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, EnvFile(path, found=False)
    except OSError as error:
        raise SettingsError(f"Cannot read {path}: {error.strerror or error}.") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(
            f"{path} is not UTF-8 text: save it as UTF-8 (in Notepad: Save as -> Encoding)."
        ) from None
    return parse_env_file(text, environ), EnvFile(path, found=True)


def load_settings(env_file: Path, environ: Mapping[str, str]) -> Settings:
    """The `.env` file (if it exists) overlaid with the real environment."""
    values, read = read_env_file(env_file, environ)
    # Empty values count as unset: only a name given a value would be silently ignored.
    refuse_unknown(
        [name for name, got in values.items() if got.strip()], f"in {env_file}", file=True
    )
    refuse_unknown(
        [name for name, got in environ.items() if got.strip()], "in the environment", file=False
    )
    values.update({key: value for key, value in environ.items() if value.strip()})
    return dataclasses.replace(Settings.from_mapping(values), env_file=read)
