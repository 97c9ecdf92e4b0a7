"""The languages Bredon speaks, as gettext catalogues: English is the source (the text in the
code), every other language is one folder, ``bot/languages/<language>/LC_MESSAGES/bredon.po``,
read with Babel when Bredon starts. Adding a language is adding its folder (docs/translation.md).

Text for people is written ``_("Your move in game #{game}", game=number)`` (``ngettext`` where
a number decides the form): it is looked up in the language being spoken, which whoever answers
a person or posts to a server sets with :func:`speaking`, and formatted with its fields. A
context variable carries the language, so every coroutine answering one interaction speaks its
language without passing it down. The template of every message, ``bredon.pot``, is extracted
from these calls (and from the command tree); a message with no translation, or only a fuzzy
one, is shown in English."""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.numbers import format_decimal, get_group_symbol
from babel.support import Translations

LANGUAGES_DIR = Path(__file__).resolve().parent
DOMAIN = "bredon"
SOURCE_LANGUAGE = "en"
TEMPLATE = LANGUAGES_DIR / f"{DOMAIN}.pot"

Message = tuple[str | None, str | tuple[str, str]]
"""A message to translate: its context (``command name``…, None for plain text) and its text
(singular and plural where a number decides the form)."""


def catalogue_path(language: str, directory: Path = LANGUAGES_DIR) -> Path:
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass(frozen=True)
class Catalogue:
    """Every language's translations, by language code (``de``)."""

    translations: Mapping[str, gettext.NullTranslations]
    translated_messages: Mapping[str, frozenset[Message]]
    """Per language, the messages it translates (a translation may read as the source does:
    ``komi`` is ``komi`` in German too)."""

    @classmethod
    def load(cls, directory: Path = LANGUAGES_DIR) -> Catalogue:
        translations: dict[str, gettext.NullTranslations] = {}
        translated: dict[str, frozenset[Message]] = {}
        for path in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            language = path.parent.parent.name
            with path.open("rb") as po:
                catalog = read_po(po, locale=language, domain=DOMAIN)
            compiled = BytesIO()
            write_mo(compiled, catalog)  # fuzzy entries left out: shown in English
            compiled.seek(0)
            translations[language] = Translations(compiled, domain=DOMAIN)
            translated[language] = frozenset(
                _key(message.context, message.id)
                for message in catalog
                if message.id and _is_translated(message.string) and not message.fuzzy
            )
        return cls(translations, translated)

    @property
    def languages(self) -> tuple[str, ...]:
        return (SOURCE_LANGUAGE, *sorted(self.translations))

    def language_for(self, locale: str | None) -> str:
        """The language to speak to a Discord locale (``de``, ``en-US``, ``pt-BR``): the
        locale's own catalogue, else its language's (``de-AT`` -> ``de``), else English."""
        if not locale:
            return SOURCE_LANGUAGE
        for candidate in (locale, locale.replace("-", "_"), locale.split("-")[0]):
            if candidate in self.translations:
                return candidate
        return SOURCE_LANGUAGE

    def text(self, language: str, message: str, *, context: str | None = None) -> str:
        """`message` in `language`, or as it is where it has no translation."""
        return self.translated(language, message, context=context) or message

    def translated(self, language: str, message: str, *, context: str | None = None) -> str | None:
        """`message` in `language`, or None where the catalogue has no translation."""
        if (context, message) not in self.translated_messages.get(language, ()):
            return None
        translations = self.translations[language]
        if context is None:
            return translations.gettext(message)
        return translations.pgettext(context, message)

    def plural(self, language: str, singular: str, plural: str, count: int) -> str:
        """The form of a message for `count`, by the language's plural rule."""
        translations = self.translations.get(language)
        if translations is None:
            return singular if count == 1 else plural
        return translations.ngettext(singular, plural, count)


def write_catalogues(messages: list[Message], directory: Path = LANGUAGES_DIR) -> list[Path]:
    """Make the template from `messages` and bring every language's catalogue up to date with
    it (new messages untranslated, gone ones kept as obsolete, as ``pybabel update`` does).
    Returns the files that changed."""
    template = Catalog(domain=DOMAIN, project="Bredon", charset="utf-8")
    for context, text in messages:
        template.add(text, context=context)
    changed = []
    targets = [(directory / f"{DOMAIN}.pot", template)]
    for path in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with path.open("rb") as po:
            catalog = read_po(po, locale=path.parent.parent.name, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        targets.append((path, catalog))
    for path, catalog in targets:
        written = BytesIO()
        write_po(
            written,
            catalog,
            omit_header=False,
            width=100,
            sort_output=False,
            ignore_obsolete=True,
            include_previous=True,
        )
        new = _without_dates(written.getvalue())
        if not path.exists() or _without_dates(path.read_bytes()) != new:
            path.write_bytes(written.getvalue())
            changed.append(path)
    return changed


def _key(context: str | None, text: str | tuple[str, ...] | list[str]) -> Message:
    """A message as the catalogues know it (Babel gives a plural's forms as a tuple or list)."""
    return (context, text if isinstance(text, str) else (text[0], text[1]))


def _is_translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    """Whether a catalogue entry has its translation (every plural form of it)."""
    return all(string) if isinstance(string, tuple | list) else bool(string)


def _without_dates(po: bytes) -> bytes:
    """A catalogue less its creation and revision dates, which change on every write."""
    return b"\n".join(
        line
        for line in po.splitlines()
        if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date'))
    )


def language_name(language: str) -> str:
    """A language's name in itself, e.g. "Deutsch"."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


_spoken: ContextVar[str] = ContextVar("bredon_language", default=SOURCE_LANGUAGE)


@cache
def catalogue() -> Catalogue:
    """Bredon's catalogues, read once."""
    return Catalogue.load()


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak `language` in the code run inside (and in the tasks it starts)."""
    token = _spoken.set(language)
    try:
        yield
    finally:
        _spoken.reset(token)


def spoken() -> str:
    """The language being spoken."""
    return _spoken.get()


def _(message: str, /, **fields: object) -> str:
    """`message` in the language being spoken, with its ``{fields}`` filled in."""
    text = catalogue().text(_spoken.get(), message)
    return text.format(**fields) if fields else text


def ngettext(singular: str, plural: str, count: int, /, **fields: object) -> str:
    """The form of a message for `count` (a field of it, ``{count}``) in the language spoken."""
    text = catalogue().plural(_spoken.get(), singular, plural, count)
    return text.format(count=count, **fields)


def numeral(
    value: float, digits: int | None = None, *, sign: bool = False, grouped: bool = True
) -> str:
    """`value` written for people in the language being spoken: "1,200" and "2.5" in English,
    "1.200" and "2,5" in German. `digits` fixes the fraction digits (``:.1f``), else they are
    as many as the value has (``:g``); `sign` shows "+" before a positive value (``:+g``);
    `grouped=False` leaves out the thousands' separator (``:.1f``'s "10000.0").
    Numbers that are data (PTN, TPS, custom ids, files) stay ``str``/f-strings."""
    fraction = "#" * 6 if digits is None else "0" * digits
    pattern = ("#,##0" if grouped else "0") + (f".{fraction}" if fraction else "")
    if sign:
        pattern = f"+{pattern};-{pattern}"
    return format_decimal(value, format=pattern, locale=_spoken.get())


def thousands_separator() -> str:
    """The separator of thousands in the language being spoken ("," in English, "." in
    German), for words that format their own numbers (a replay's notes, in ``rendering``)."""
    return get_group_symbol(_spoken.get())


def N_(message: str, /) -> str:
    """`message` as it is, marked for the catalogue: a text kept (e.g. stored) to be looked up
    with ``_`` when it is shown, in the language spoken then."""
    return message


# Where the text for people is: the calls above in every layer that words things (pictures get
# their words from their callers), as ``pybabel extract`` would read them.
SOURCES = ("bot", "cogs", "web")
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}


def code_messages(root: Path = LANGUAGES_DIR.parent.parent) -> list[Message]:
    """Every message of the code, in the order of the files, each once."""
    found: dict[Message, None] = {}
    for source in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
            root / source, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found[_key(context, message)] = None
    return list(found)
