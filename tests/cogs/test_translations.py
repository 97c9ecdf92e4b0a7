"""Bredon in every language it has a catalogue for: each text for people (the code's ``_()``
and ``ngettext()`` calls and the command tree) is in the template and translated in every
catalogue; the command tree's translations keep Discord's rules (names: lower case, 1-32
letters, digits, - or _, unique among their siblings; descriptions and choices 1-100
characters), checked on the payload discord.py sends when it syncs; translated answers keep
Discord's limits.

After changing a text or a command: ``BREDON_UPDATE_CATALOGUES=1 python -m pytest -n 0
tests/cogs/test_translations.py`` rewrites the template and adds the new texts to each
catalogue, untranslated, for a translator to fill in (docs/translation.md)."""

from __future__ import annotations

import os
import re

import discord
from babel.messages.pofile import read_po

from bot.languages import (
    TEMPLATE,
    Catalogue,
    Message,
    catalogue_path,
    code_messages,
    speaking,
    write_catalogues,
)
from cogs.translation import CommandTranslator, command_messages
from cogs.words.game_messages import help_embed

UPDATE = os.environ.get("BREDON_UPDATE_CATALOGUES") == "1"
# Discord's rule for command and option names (\w: any letter or digit, or _), lower case.
NAME = re.compile(r"^[-\w]{1,32}$")


def template_messages() -> list[Message]:
    with TEMPLATE.open("rb") as pot:
        return [
            (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
            for message in read_po(pot)
            if message.id
        ]


def all_messages(world) -> list[Message]:
    return code_messages() + command_messages(world.env.bot.tree.get_commands())


async def test_the_template_holds_every_text_for_people(world) -> None:
    messages = all_messages(world)
    if UPDATE:
        write_catalogues(messages)
    assert template_messages() == messages, (
        "The command tree changed: update the catalogues with BREDON_UPDATE_CATALOGUES=1 "
        "(this module's docstring) and translate what is new."
    )


async def test_every_language_translates_every_text_for_people(world) -> None:
    catalogue = Catalogue.load()
    assert "de" in catalogue.languages
    messages = all_messages(world)
    for language in catalogue.languages[1:]:
        missing = [text for text in messages if text not in catalogue.translated_messages[language]]
        assert not missing, f"{catalogue_path(language)} lacks {missing}"


def names_and_texts(payload: dict, locale: str) -> tuple[list[str], list[str]]:
    """The localised names of a payload's options and the localised descriptions and choices
    found anywhere under it."""
    names, texts = [], []
    for option in payload.get("options", []):
        names.append(option["name_localizations"].get(locale, option["name"]))
        texts.append(option["description_localizations"].get(locale, option["description"]))
        for choice in option.get("choices", []):
            texts.append(choice["name_localizations"].get(locale, choice["name"]))
    return names, texts


async def test_translated_commands_keep_discords_rules(world) -> None:
    tree = world.env.bot.tree
    translator = CommandTranslator(Catalogue.load())
    for language in Catalogue.load().languages[1:]:
        locale = discord.Locale(language).value
        top_names = []
        for command in tree.get_commands():
            payload = await command.get_translated_payload(tree, translator)
            top_names.append(payload["name_localizations"].get(locale, payload["name"]))
            stack = [payload]
            while stack:
                node = stack.pop()
                names, texts = names_and_texts(node, locale)
                assert len(names) == len(set(names)), f"{node['name']}: {names} repeat a name"
                for name in names:
                    assert NAME.match(name) and name == name.lower(), name
                for text in texts:
                    assert 1 <= len(text) <= 100, text
                stack.extend(o for o in node.get("options", []) if o["type"] in (1, 2))
        assert len(top_names) == len(set(top_names)), top_names
        for name in top_names:
            assert NAME.match(name) and name == name.lower(), name


async def test_the_bot_sends_the_german_tree_when_it_syncs(world) -> None:
    """What a German-speaking member's Discord shows: the translated names and descriptions."""
    tree = world.env.bot.tree
    translator = tree.translator
    assert isinstance(translator, CommandTranslator)
    [tak] = [c for c in tree.get_commands() if c.name == "tak"]
    payload = await tak.get_translated_payload(tree, translator)
    catalogue = Catalogue.load()
    german = catalogue.translated("de", tak.description, context="command description")
    assert payload["description_localizations"]["de"] == german
    [challenge] = [o for o in payload["options"] if o["name"] == "challenge"]
    assert challenge["name_localizations"]["de"] == catalogue.text(
        "de", "challenge", context="command name"
    )
    assert "en-US" not in payload["description_localizations"]  # English is the source


def embed_size(embed: discord.Embed) -> int:
    return (
        len(embed.title or "")
        + len(embed.description or "")
        + sum(len(field.name or "") + len(field.value or "") for field in embed.fields)
    )


def test_the_primer_in_german_fits_discords_embed_limits() -> None:
    with speaking("de"):
        german = help_embed()
    english = help_embed()
    assert german.title == "Bredon: Tak auf Discord"
    assert "**Straße**" in (german.description or "")
    assert "/tak herausfordern" in german.fields[0].value
    assert len(german.fields) == len(english.fields)
    assert len(german.description or "") <= 4096 and embed_size(german) <= 6000
    assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in german.fields)
    assert english.title == "Bredon: Tak in Discord"  # outside `speaking`: English
