"""`bot.ui.translator`: the command names, descriptions and choices discord.py registers,
in the Discord locales of the languages whose command names are translated
(`bot.language.Language.commands_translated`), from the commands catalogs; nothing for
the other locales."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.cogs.info import Info
from bot.cogs.settings import PreferencesCog
from bot.language import Language
from bot.messages import translations
from bot.ui.translator import COMMAND_LOCALES, CommandTranslator


async def settings_payload() -> dict[str, Any]:
    """The `/settings` command as discord.py registers it, through the translator."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none()))
    return await PreferencesCog.player_settings.get_translated_payload(tree, CommandTranslator())


def option(payload: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [each for each in payload["options"] if each["name"] == name]
    assert len(found) == 1, name
    return found[0]


def test_the_translated_locales_are_those_of_the_languages_with_translated_commands() -> None:
    assert {"tr", "it", "fr"} <= {str(locale) for locale in COMMAND_LOCALES}
    assert all(language.commands_translated for language in COMMAND_LOCALES.values())
    assert Language.ARABIC not in COMMAND_LOCALES.values()  # Discord has no Arabic locale


async def test_command_and_option_names_and_descriptions_come_from_the_catalogs() -> None:
    payload = await settings_payload()
    assert payload["name_localizations"].items() >= {
        "fr": "paramètres", "it": "impostazioni", "tr": "ayarlar"}.items()
    french = translations("commands", "fr").pgettext("description:settings",
                                                      payload["description"])
    assert payload["description_localizations"]["fr"] == french != payload["description"]
    side = option(payload, "board_side")
    assert side["name_localizations"]["tr"] == "tahta-yönü"
    assert set(side["description_localizations"]) == {str(each) for each in COMMAND_LOCALES}


async def test_a_choice_is_found_by_its_english_name() -> None:
    white = next(choice for choice in option(await settings_payload(), "board_side")["choices"]
                 if choice["value"] == "white")
    assert white["name_localizations"].items() >= {
        "fr": "Blancs", "it": "Bianco", "tr": "Beyaz"}.items()


async def test_a_choice_whose_translation_is_its_english_has_no_localization() -> None:
    # A language's own name reads the same in every locale: nothing to register.
    choices = option(await settings_payload(), "language")["choices"]
    arabic = next(choice for choice in choices if choice["value"] == "ar")
    assert arabic["name"] == "العربية" and "name_localizations" not in arabic
    automatic = next(choice for choice in choices if choice["value"] == "auto")
    assert automatic["name_localizations"]["fr"] == "Automatique"


@pytest.mark.parametrize("locale", [discord.Locale.japanese, discord.Locale.american_english])
async def test_a_locale_without_translated_commands_gets_none(locale: discord.Locale) -> None:
    translator = CommandTranslator()
    command = PreferencesCog.player_settings
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, command)
    assert await translator.translate(app_commands.locale_str("settings"), locale,
                                      context) is None
    french = await translator.translate(app_commands.locale_str("settings"),
                                        discord.Locale.french, context)
    assert french == "paramètres"


async def test_a_string_that_is_not_a_command_text_gets_none() -> None:
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None)
    assert await CommandTranslator().translate(app_commands.locale_str("settings"),
                                               discord.Locale.french, context) is None


async def test_a_command_named_in_a_description_is_the_one_the_locales_picker_shows() -> None:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none()))
    payload = await Info.export.get_translated_payload(tree, CommandTranslator())
    game = option(payload, "game")
    assert "/history" in game["description"]
    described = game["description_localizations"]
    assert "/geçmiş" in described["tr"] and "/storico" in described["it"], described
    assert "/historique" in described["fr"] and "/history" not in str(described), described
