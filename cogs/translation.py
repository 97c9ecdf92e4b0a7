"""Slash commands in each member's language: discord.py's ``app_commands.Translator`` reading
Bredon's catalogues (:mod:`bot.languages`). Discord shows a member the command names,
descriptions and choices of their own Discord language, from the translations sent when the tree
is synced."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.languages import SOURCE_LANGUAGE, Catalogue, Message, catalogue, language_name

# The catalogue's context for each kind of text in the tree: names follow Discord's naming rules
# (lower case, no spaces) and so are translated apart from the same word in a description.
CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.parameter_name: "option name",
    Where.choice_name: "choice",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_description: "command description",
}
UNDESCRIBED = "…"  # what discord.py gives an option nobody described


class CommandTranslator(app_commands.Translator):
    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__()
        self._catalogue = catalogue

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = self._catalogue.language_for(locale.value)
        where = CONTEXTS.get(context.location)
        if language == SOURCE_LANGUAGE or where is None:
            return None  # Discord shows the source text
        return self._catalogue.translated(language, string.message, context=where)


def command_messages(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> list[Message]:
    """Every text of a command tree to translate, in the tree's order, each once."""
    return list(dict.fromkeys(_walk(commands)))


def _walk(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> Iterator[Message]:
    for command in commands:
        yield CONTEXTS[Where.command_name], command.name
        yield CONTEXTS[Where.command_description], command.description
        if isinstance(command, app_commands.Group):
            yield from _walk(command.commands)
            continue
        for parameter in command.parameters:
            yield CONTEXTS[Where.parameter_name], parameter.name
            if parameter.description != UNDESCRIBED:
                yield CONTEXTS[Where.parameter_description], parameter.description
            for choice in parameter.choices:
                yield CONTEXTS[Where.choice_name], choice.name


def language_choices(follow: str, follow_name: str) -> list[app_commands.Choice[str]]:
    """The languages Bredon speaks, each by its own name, and `follow` (the Discord language
    of the person or server) first."""
    return [
        app_commands.Choice(name=follow_name, value=follow),
        *(app_commands.Choice(name=language_name(c), value=c) for c in catalogue().languages),
    ]
