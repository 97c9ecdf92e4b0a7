"""The message catalogues (bot/languages) and who is spoken to in which language: a language
is read from its .po file, a message without a translation (or with a fuzzy one) stays English,
plural forms follow the language's rule, Discord's locales find their language, every
translation keeps its message's placeholders; a player's choice beats their Discord's, and a
server may choose the language of its posts."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.errors import InvalidSetting
from bot.games.notes import MAX_NOTE
from bot.languages import (
    LANGUAGES_DIR,
    Catalogue,
    _,
    catalogue_path,
    numeral,
    speaking,
    write_catalogues,
)
from tests.bot.conftest import ALICE, GUILD

GERMAN = """msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "{count} game"
msgid_plural "{count} games"
msgstr[0] "{count} Partie"
msgstr[1] "{count} Partien"

msgctxt "command name"
msgid "board"
msgstr "brett"

msgctxt "option name"
msgid "komi"
msgstr "komi"

#, fuzzy
msgid "Your move"
msgstr "Deine Zug"

msgid "Not yet translated"
msgstr ""
"""


@pytest.fixture
def languages(tmp_path: Path) -> Path:
    path = catalogue_path("de", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(GERMAN, encoding="utf-8")
    return tmp_path


def test_a_language_is_its_catalogue(languages: Path) -> None:
    catalogue = Catalogue.load(languages)
    assert catalogue.languages == ("en", "de")
    assert catalogue.text("de", "board", context="command name") == "brett"
    assert catalogue.text("de", "board", context="option name") == "board"  # another context
    assert catalogue.translated("de", "komi", context="option name") == "komi"  # the same word
    assert catalogue.translated("de", "Your move") is None  # fuzzy: not trusted
    assert catalogue.text("de", "Your move") == "Your move"
    assert catalogue.translated("de", "Not yet translated") is None
    assert catalogue.text("fr", "board", context="command name") == "board"


def test_plural_forms_follow_the_language(languages: Path) -> None:
    catalogue = Catalogue.load(languages)
    forms = [catalogue.plural("de", "{count} game", "{count} games", n) for n in (0, 1, 2)]
    assert forms == ["{count} Partien", "{count} Partie", "{count} Partien"]
    assert catalogue.plural("en", "{count} game", "{count} games", 1) == "{count} game"


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("pt-BR", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_find_their_language(languages: Path, locale, language) -> None:
    assert Catalogue.load(languages).language_for(locale) == language


def test_updating_adds_new_messages_untranslated_and_keeps_translations(languages: Path) -> None:
    changed = write_catalogues([("command name", "board"), ("option name", "level")], languages)
    assert changed == [languages / "bredon.pot", catalogue_path("de", languages)]
    catalogue = Catalogue.load(languages)
    assert catalogue.text("de", "board", context="command name") == "brett"
    assert catalogue.translated("de", "level", context="option name") is None
    with catalogue_path("de", languages).open("rb") as po:
        kept = {(m.context, m.id) for m in read_po(po) if m.id}
    assert ("option name", "level") in kept
    assert write_catalogues([("command name", "board"), ("option name", "level")], languages) == []


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a message (a brace around anything else, as in PTN's "{ is
    never closed with }", is text)."""
    return set(re.findall(r"\{(\w*)\}", text))


def test_every_translation_keeps_its_placeholders() -> None:
    """Bredon's own catalogues: a translation names the same ``{placeholders}`` as its
    message, in every plural form, so that formatting it never fails or loses a value."""
    paths = sorted(LANGUAGES_DIR.glob("*/LC_MESSAGES/bredon.po"))
    assert paths
    for path in paths:
        with path.open("rb") as po:
            for message in read_po(po):
                if not message.id or not message.string:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                expected = fields(ids[0])
                for translated in strings:
                    assert fields(translated) == expected, (path, message.id, translated)


async def test_a_player_is_spoken_to_in_their_choice_else_their_discords(services) -> None:
    players = services.players
    assert await players.speaks(ALICE.id, "de") == "de"  # not a player yet: the command's
    await players.register(ALICE)
    assert await players.speaks(ALICE.id) == "en"  # nothing known
    assert await players.speaks(ALICE.id, "de", remember=False) == "de"  # a button's press
    assert (await players.get(ALICE.id)).discord_locale is None  # ... writes nothing
    assert await players.speaks(ALICE.id, "de") == "de"
    assert (await players.get(ALICE.id)).discord_locale == "de"  # remembered, for DMs
    assert await players.speaks(ALICE.id) == "de"
    await players.set_language(ALICE.id, "en")
    assert await players.speaks(ALICE.id, "de") == "en"  # a choice beats Discord's
    await players.set_language(ALICE.id, None)
    assert await players.speaks(ALICE.id, "en-GB") == "en"
    with pytest.raises(InvalidSetting, match=r"Bredon speaks English \(en\), Deutsch \(de\)"):
        await players.set_language(ALICE.id, "fr")
    assert (await players.get(ALICE.id)).language is None


async def test_a_server_chooses_the_language_of_its_posts(services) -> None:
    guilds = services.guilds
    settings = await guilds.get(GUILD)
    assert settings.language is None  # the server's own
    assert (await guilds.save(replace(settings, language="de"))).language == "de"
    with pytest.raises(InvalidSetting, match="Bredon speaks"):
        await guilds.save(replace(settings, language="xx"))
    assert (await guilds.get(GUILD)).language == "de"


@pytest.mark.parametrize(
    ("language", "komi", "counts", "signed"),
    [
        ("en", "komi 2.5", "at most 1,500 characters; this one has 1,200.", "+2.5 / -4.5"),
        ("de", "Komi 2,5", "höchstens 1.500 Zeichen; diese hat 1.200.", "+2,5 / -4,5"),
    ],
)
def test_numbers_in_texts_are_written_as_the_language_writes_them(
    language: str, komi: str, counts: str, signed: str
) -> None:
    with speaking(language):
        assert _("komi {komi}", komi=numeral(2.5)) == komi
        note = _(
            "A note holds at most {most} characters; this one has {count}.",
            most=numeral(MAX_NOTE),
            count=numeral(1200),
        )
        assert note.endswith(counts)
        assert f"{numeral(2.5, sign=True)} / {numeral(-4.5, sign=True)}" == signed
        assert numeral(7.25, digits=1) == ("7.2" if language == "en" else "7,2")
        assert numeral(3.0) == "3"


def test_english_numbers_read_as_python_formats_them() -> None:
    for value in (0, 2, 2.5, -4.5, 0.125, 1200, 1_234_567):
        assert numeral(value) == (f"{value:,}" if isinstance(value, int) else f"{value:g}")
        assert numeral(value, sign=True) == f"{value:+,}"
    assert numeral(2.25, digits=1) == f"{2.25:.1f}"
