"""Which language a reader gets (`bot.language`): the reader's choice, the client locale
(an English one gives way to the server's choice), the server's choice, the server's
preferred locale, English."""

from __future__ import annotations

import discord
import pytest

from bot.language import Direction, Language, for_channel, from_locale, resolve
from bot.locales import DOMAINS, catalog_path
from bot.messages import Msg, text


@pytest.mark.parametrize(
    ("chosen", "client", "server", "guild", "expected"),
    [
        ("ar", "tr", "fr", "it", Language.ARABIC),  # the reader's choice first
        (None, "tr", "fr", "it", Language.TURKISH),  # then a non-English client
        (None, "en-US", "ar", "it", Language.ARABIC),  # English client yields to the server
        (None, "en-GB", None, "fr", Language.FRENCH),  # ... and to the preferred locale
        (None, "ja", "it", None, Language.ITALIAN),  # no Japanese catalog: server's choice
        (None, "pt-BR", None, None, Language.ENGLISH),
        (None, None, None, None, Language.ENGLISH),
        ("en", "tr", "ar", None, Language.ENGLISH),  # choosing English is a choice
        (None, "fr", None, "tr", Language.FRENCH),
    ],
)
def test_resolution_order(chosen: str | None, client: str | None, server: str | None,
                          guild: str | None, expected: Language) -> None:
    assert resolve(chosen=chosen, client_locale=client, server_choice=server,
                   guild_locale=guild) is expected


def test_channel_posts_use_the_server_language() -> None:
    assert for_channel(server_choice="ar", guild_locale="fr") is Language.ARABIC
    assert for_channel(server_choice=None, guild_locale="it") is Language.ITALIAN
    assert for_channel(server_choice=None, guild_locale="ja") is Language.ENGLISH


def test_locales_map_to_catalog_languages() -> None:
    assert from_locale("en-US") is Language.ENGLISH
    assert from_locale("tr") is Language.TURKISH
    assert from_locale("zh-CN") is None
    assert Language.ARABIC.endonym == "العربية"


def test_every_translated_language_has_its_catalogs() -> None:
    for language in Language:
        messages = catalog_path("messages", language.value)
        commands = catalog_path("commands", language.value)
        assert messages.is_file() == language.translated, language
        assert commands.is_file() == language.commands_translated, language
    assert set(DOMAINS["messages"]) == {lang.value for lang in Language if lang.translated}


def test_the_discord_locales_are_discords_and_select_their_language() -> None:
    for language in Language:
        for locale in language.discord_locales:
            assert discord.Locale(locale).value == locale
            assert from_locale(locale) is language
    # Discord has no Arabic locale: its commands cannot be translated.
    assert not Language.ARABIC.discord_locales and not Language.ARABIC.commands_translated


def test_parameters_are_isolated_only_in_right_to_left_languages() -> None:
    for language in Language:
        written = text(Msg.LANGUAGE_AUTOMATIC, language.value, language="X")
        isolated = "\u2068X\u2069" in written
        assert isolated == (language.direction is Direction.RIGHT_TO_LEFT), language


def test_a_language_is_found_by_its_code_only() -> None:
    assert Language.of("fr") is Language.FRENCH
    with pytest.raises(ValueError, match="'ja'"):
        Language.of("ja")
