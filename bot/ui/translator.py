"""Command, option and choice names and descriptions in Discord's locales we have.

discord.py asks the tree's `app_commands.Translator` for every name and description of
every command, in every Discord locale, when it builds the payload it registers
(`CommandTree.sync`, and `bot.sync.command_schema` for the hash). `CommandTranslator`
answers from the commands catalogs (`bot/locales/commands/<language>.po`) for the
Discord locales of the languages whose command names are translated
(`bot.language.Language.commands_translated`: Turkish, Italian and French; Discord has no
Arabic locale), and None (no localization) for the others. The catalog entry is found from where the
string is: `name:<command>[.<option>]`, `description:<command>[.<option>]`,
`choice:<key>` (keys of `bot.messages.COMMAND_TEXT`; a choice is found by its English
name). A command named in a translated description (`/history`) is written as that
locale's picker shows it (`/geçmiş`, `bot.messages.mentions.name_commands`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.language import Language
from bot.messages import COMMAND_TEXT, translations
from bot.messages.mentions import NO_COMMAND_IDS, name_commands

COMMAND_LOCALES: dict[discord.Locale, Language] = {
    discord.Locale(locale): language
    for language in Language if language.commands_translated
    for locale in language.discord_locales
}
"""The Discord locales the commands are translated into, and their languages (from
`bot.language.Language`)."""


_CHOICES = {english: key.removeprefix("choice.") for key, english in COMMAND_TEXT.items()
            if key.startswith("choice.")}
"""The key of each choice by its English name (unique: two options may share a value,
e.g. `auto`, with different names)."""


def catalog_context(location: Where, data: Any) -> str | None:
    """The catalog context of a string discord.py asks to translate; None for strings
    that are not command texts."""
    if location in (Where.command_name, Where.group_name):
        return f"name:{data.qualified_name.replace(' ', '.')}"
    if location in (Where.command_description, Where.group_description):
        return f"description:{data.qualified_name.replace(' ', '.')}"
    if location in (Where.parameter_name, Where.parameter_description):
        key = f"{data.command.qualified_name.replace(' ', '.')}.{data.name}"
        kind = "name" if location is Where.parameter_name else "description"
        return f"{kind}:{key}"
    if location is Where.choice_name:
        choice = _CHOICES.get(data.name)
        return None if choice is None else f"choice:{choice}"
    return None


class CommandTranslator(app_commands.Translator):
    """`app_commands.Translator` over the commands catalogs (see the module docstring)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = COMMAND_LOCALES.get(locale)
        where = catalog_context(context.location, context.data)
        if language is None or where is None:
            return None
        catalog = translations("commands", language.value)
        translated = catalog.pgettext(where, string.message)
        if where.startswith("description:"):
            # A command named in a description as this locale's picker shows it (`/geçmiş`,
            # plain: a description shows no mention; bot.messages.mentions).
            translated = name_commands(translated, NO_COMMAND_IDS, catalog)
        return translated if translated != string.message or where.startswith("name:") \
            else None
