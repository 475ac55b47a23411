"""Which language a reader gets, and the languages players and servers may choose.

Discord sends each interaction the user's client locale (`interaction.locale`: "tr",
"it", "fr", "en-US", "en-GB", ...) and the server's preferred locale
(`interaction.guild_locale`); it has no Arabic locale, so Arabic is reached only through a
choice. The order (`resolve`):

1. the reader's own choice (`/settings language`), if they made one;
2. else their client's locale, when we have a catalog for it and it is not English;
3. else the server's choice (the admin command for server defaults), which is also what
   an English client gets: many players leave their client in English;
4. else the server's preferred locale, when we have a catalog for it;
5. else English.

Messages posted to the channel for everyone use `for_channel` (the server's choice, else
its preferred locale, else English); ephemeral answers use `resolve`.
"""

from __future__ import annotations

import enum

from bot.messages import language_of


class Language(enum.StrEnum):
    """A language of the catalogs; the value is its code (ISO 639-1)."""

    ENGLISH = "en"
    TURKISH = "tr"
    ARABIC = "ar"
    ITALIAN = "it"
    FRENCH = "fr"

    @property
    def endonym(self) -> str:
        """The language's name in itself ("Türkçe", "العربية"), as a chooser shows it."""
        return ENDONYMS[self]


ENDONYMS = {
    Language.ENGLISH: "English",
    Language.TURKISH: "Türkçe",
    Language.ARABIC: "العربية",
    Language.ITALIAN: "Italiano",
    Language.FRENCH: "Français",
}

AUTO = "auto"
"""The `language` option's value that removes a choice (back to automatic)."""


def from_locale(locale: str | None) -> Language | None:
    """The catalog language of a Discord locale or language code; None when we have no
    catalog for it (e.g. "de") or it is missing."""
    if not locale:
        return None
    code = locale.split("-")[0].lower()
    if language_of(code) != code:
        return None
    return Language(code)


def resolve(
    *,
    chosen: str | None,
    client_locale: str | None,
    server_choice: str | None,
    guild_locale: str | None,
) -> Language:
    """The language of an answer to one reader, in the order of this module's docstring.
    `chosen` and `server_choice` are stored language codes (None: no choice)."""
    own = from_locale(chosen)
    if own is not None:
        return own
    client = from_locale(client_locale)
    if client is not None and client is not Language.ENGLISH:
        return client
    return for_channel(server_choice=server_choice, guild_locale=guild_locale)


def for_channel(*, server_choice: str | None, guild_locale: str | None) -> Language:
    """The language of a message posted to the channel for everyone: the server's choice,
    else its preferred locale, else English."""
    return from_locale(server_choice) or from_locale(guild_locale) or Language.ENGLISH
