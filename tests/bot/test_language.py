"""Which language a reader gets (`bot.language`): the reader's choice, the client locale
(an English one gives way to the server's choice), the server's choice, the server's
preferred locale, English."""

from __future__ import annotations

import pytest

from bot.language import Language, for_channel, from_locale, resolve


@pytest.mark.parametrize(
    ("chosen", "client", "server", "guild", "expected"),
    [
        ("ar", "tr", "fr", "it", Language.ARABIC),  # the reader's choice first
        (None, "tr", "fr", "it", Language.TURKISH),  # then a non-English client
        (None, "en-US", "ar", "it", Language.ARABIC),  # English client yields to the server
        (None, "en-GB", None, "fr", Language.FRENCH),  # ... and to the preferred locale
        (None, "de", "it", None, Language.ITALIAN),  # no German catalog: server's choice
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
