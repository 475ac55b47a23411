"""The languages of the bot, listed once (`Language`), and which one a reader gets.

Each `Language` carries its code (ISO 639-1, the catalogs' name), its endonym (its name
in itself, as the choosers show it), the Discord locales that select it
(https://discord.com/developers/docs/reference#locales), its text direction and whether
the slash command names are translated into it. Everything else derives from this list:
the catalogs (`bot.locales.DOMAINS`), the message lookup (`bot.messages`), the command
translator (`bot.ui.translator`), the `language` option's choices and the preferences'
validation (docs/ARCHITECTURE.md, "Languages").

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


class Direction(enum.Enum):
    """Which way a language's text runs (the Unicode Bidirectional Algorithm, UAX #9)."""

    LEFT_TO_RIGHT = "ltr"
    RIGHT_TO_LEFT = "rtl"


class Language(enum.StrEnum):
    """A language of the catalogs; the value is its code (ISO 639-1). The one list of the
    languages: a new language is one more member here and its catalogs
    (docs/ARCHITECTURE.md, "Where a change goes")."""

    endonym: str
    """The language's name in itself ("Türkçe", "العربية"), as a chooser shows it."""
    discord_locales: tuple[str, ...]
    """The Discord locales of clients and servers in this language (none for Arabic)."""
    direction: Direction
    commands_translated: bool
    """Whether the slash command names and descriptions are translated into it (only
    where Discord has a locale for it; English is the source)."""

    def __new__(cls, code: str, endonym: str, discord_locales: tuple[str, ...],
                direction: Direction, commands_translated: bool) -> Language:
        member = str.__new__(cls, code)
        member._value_ = code
        member.endonym = endonym
        member.discord_locales = discord_locales
        member.direction = direction
        member.commands_translated = commands_translated
        return member

    ENGLISH = ("en", "English", ("en-US", "en-GB"), Direction.LEFT_TO_RIGHT, False)
    TURKISH = ("tr", "Türkçe", ("tr",), Direction.LEFT_TO_RIGHT, True)
    ARABIC = ("ar", "العربية", (), Direction.RIGHT_TO_LEFT, False)
    ITALIAN = ("it", "Italiano", ("it",), Direction.LEFT_TO_RIGHT, True)
    FRENCH = ("fr", "Français", ("fr",), Direction.LEFT_TO_RIGHT, True)

    @classmethod
    def of(cls, code: str) -> Language:
        """The language of `code` ("tr"). Raises ValueError for a code without a
        catalog. (Enum's own lookup, `Language("tr")`, is the same at run time; the type
        checker reads that call as the members' five-field constructor.)"""
        try:
            return cls._value2member_map_[code]  # type: ignore[return-value]
        except KeyError:
            raise ValueError(f"no language has the code {code!r}") from None

    @property
    def translated(self) -> bool:
        """Whether its messages come from a catalog (every language but English, the
        source, written in `bot.messages`)."""
        return self is not Language.ENGLISH


SOURCE = Language.ENGLISH
"""The language the texts are written in (`bot.messages`), and the last resort."""

AUTO = "auto"
"""The `language` option's value that removes a choice (back to automatic)."""


def from_locale(locale: str | None) -> Language | None:
    """The catalog language of a Discord locale or language code ("en-US", "tr"): the
    part before `-`, any case; None when we have no catalog for it (e.g. "de") or it is
    missing."""
    if not locale:
        return None
    code = locale.split("-")[0].lower()
    try:
        return Language.of(code)
    except ValueError:
        return None


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
    if client is not None and client is not SOURCE:
        return client
    return for_channel(server_choice=server_choice, guild_locale=guild_locale)


def for_channel(*, server_choice: str | None, guild_locale: str | None) -> Language:
    """The language of a message posted to the channel for everyone: the server's choice,
    else its preferred locale, else English."""
    return from_locale(server_choice) or from_locale(guild_locale) or SOURCE
