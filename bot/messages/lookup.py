"""The message lookup: a message's template in a language, read from the gettext catalogs
(`bot/locales/messages/<language>.po`, with Babel) with English as the fallback, and
`text()`, the template filled in."""

from __future__ import annotations

import functools
import gettext
import io
import string
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.language import SOURCE, Direction, Language, from_locale
from bot.messages.bidi import isolate
from bot.messages.english import ENGLISH
from bot.messages.formats import decimal
from bot.messages.ids import Msg
from bot.messages.mentions import (
    NO_COMMAND_IDS,
    CommandIds,
    installed_command_ids,
    name_commands,
)
from bot.messages.plural import Plural

_LOCALES = Path(__file__).resolve().parent.parent / "locales"


def language_of(locale: str | None) -> str:
    """The catalog language for a language code or a Discord locale ("tr", "en-US",
    "fr"): the part before `-`, lower case; English for None or a language without a
    catalog."""
    return (from_locale(locale) or SOURCE).value


def _read_catalog(domain: str, language: str) -> gettext.GNUTranslations | None:
    """The gettext translations of `domain` in `language`, read from
    `bot/locales/<domain>/<language>.po` with Babel and compiled in memory (untranslated
    and fuzzy entries left out, so they fall back to English); None without a file."""
    path = _LOCALES / domain / f"{language}.po"
    if not path.is_file():
        return None
    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@functools.cache
def translations(domain: str, language: str) -> gettext.NullTranslations:
    """The translations of `domain` ("messages" or "commands") in `language`; English
    (every message as its source text) when there is no catalog for it. Read once."""
    if language == SOURCE.value:
        return gettext.NullTranslations()
    return _read_catalog(domain, language) or gettext.NullTranslations()


def template(key: Msg, locale: str | None = None, count: int = 1) -> str:
    """The template of `key` in `locale` (a language code or a Discord locale such as
    "en-US" or "tr"), for `count` if it is a plural message (the language's plural rule,
    from the catalog's `Plural-Forms`); English when the catalog lacks it."""
    source = ENGLISH[key]
    catalog = translations("messages", language_of(locale))
    if isinstance(source, Plural):
        return catalog.npgettext(key.value, source.one, source.other, count)
    return catalog.pgettext(key.value, source)


def text(key: Msg, locale: str | None = None, /, **params: object) -> str:
    """The message `key` in `locale` with `params` filled in. A plural message picks its
    form by the parameter its `Plural.count` names. In a right-to-left language each
    parameter is isolated (`isolate`), but a URL: inside a masked link (`[#12]({link})`)
    an isolate would break the link, and after a bare one Discord would read the closing
    isolate as part of the address (a URL is a left-to-right run of its own). An `int`
    count of a plural message is written with the language's digit grouping
    (`bot.messages.decimal`: "30,000", "30.000"). Raises `KeyError` naming a field the
    template needs and `params` lacks (a programming error). Commands are named as the
    reader's client shows them (`bot.messages.mentions.name_commands`, applied to the
    template)."""
    return _filled(key, locale, installed_command_ids(), params)


def plain_text(key: Msg, locale: str | None = None, /, **params: object) -> str:
    """`text` for a place where Discord shows no markdown and no command mention (a
    select's placeholder, an option's label): commands are named as plain words (`/move`;
    the translated names in Turkish, Italian and French), never `</move:id>`."""
    return _filled(key, locale, NO_COMMAND_IDS, params)


def _filled(key: Msg, locale: str | None, ids: CommandIds, params: dict[str, object]) -> str:
    source = ENGLISH[key]
    count = 1
    language = language_of(locale)
    if isinstance(source, Plural):
        number = params[source.count]
        count = int(str(number))
        if isinstance(number, int) and not isinstance(number, bool):
            params = {**params, source.count: decimal(number, language)}
    if Language.of(language).direction is Direction.RIGHT_TO_LEFT:
        params = {name: value if _is_url(value) else isolate(str(value))
                  for name, value in params.items()}
    commands = (translations("commands", language)
                if Language.of(language).commands_translated else None)
    written = name_commands(template(key, language, count), ids, commands)
    return written.format(**params)


def _is_url(value: object) -> bool:
    """True for a web address given as a parameter (a link to a message or a channel)."""
    return isinstance(value, str) and value.startswith(("https://", "http://"))


VARIANT_NAMES: Mapping[str, Msg] = MappingProxyType({
    "turkish": Msg.VARIANT_TURKISH,
    "arab": Msg.VARIANT_ARAB,
    "moroccan": Msg.VARIANT_MOROCCAN,
    "italian": Msg.VARIANT_ITALIAN,
    "international": Msg.VARIANT_INTERNATIONAL,
    "brazilian": Msg.VARIANT_BRAZILIAN,
    "russian": Msg.VARIANT_RUSSIAN,
    "english": Msg.VARIANT_ENGLISH,
})
"""The message of each variant's name, by variant key (`engine.VARIANTS`)."""


VARIANT_NAMES_IN_SENTENCE: Mapping[str, Msg] = MappingProxyType({
    "turkish": Msg.VARIANT_TURKISH_IN_SENTENCE,
    "arab": Msg.VARIANT_ARAB_IN_SENTENCE,
    "moroccan": Msg.VARIANT_MOROCCAN_IN_SENTENCE,
    "italian": Msg.VARIANT_ITALIAN_IN_SENTENCE,
    "international": Msg.VARIANT_INTERNATIONAL_IN_SENTENCE,
    "brazilian": Msg.VARIANT_BRAZILIAN_IN_SENTENCE,
    "russian": Msg.VARIANT_RUSSIAN_IN_SENTENCE,
    "english": Msg.VARIANT_ENGLISH_IN_SENTENCE,
})
"""The message of each variant's name as it stands inside a sentence ("a game of
{variant_in_sentence}": "di dama turca", "de dames turques"), by variant key."""


def variant_name(key: str, locale: str | None = None) -> str:
    """The name of the variant `key` ("turkish") in `locale` as a title or a label (a
    heading, after a colon, in parentheses, between `·`): "Türk daması", "Dama turca",
    "Dames turques". Templates take it as `{variant}`. Raises `KeyError` for an unknown
    key."""
    return text(VARIANT_NAMES[key], locale)


def variant_in_sentence(key: str, locale: str | None = None) -> str:
    """The name of the variant `key` in `locale` as it stands inside a sentence, after a
    preposition ("nella dama turca", "aux dames turques"; docs/LANGUAGES.md, "Variant
    names"). Templates take it as `{variant_in_sentence}`. Raises `KeyError` for an
    unknown key."""
    return text(VARIANT_NAMES_IN_SENTENCE[key], locale)


def fields(key: Msg, locale: str | None = None, count: int = 1) -> set[str]:
    """The names of the fields the template of `key` uses (for `count`, in `locale`)."""
    return template_fields(template(key, locale, count))


def template_fields(template_text: str) -> set[str]:
    """The names of the `str.format` fields in `template_text`."""
    return {name for _, name, _, _ in string.Formatter().parse(template_text) if name}



def option_name(key: str, locale: str | None = None) -> str:
    """The name of the command option `key` (`challenge.move_time`, a key of
    `COMMAND_TEXT`) as the client of `locale`'s reader shows it: its name in the commands
    catalog where the language's command names are translated (`hamle-süresi`,
    `temps-par-coup`), else the registered name (English; Arabic, which Discord has no
    locale for); the registered name when the catalog lacks it."""
    language = language_of(locale)
    registered = key.rpartition(".")[2]
    if not Language.of(language).commands_translated:
        return registered
    return translations("commands", language).pgettext(f"name:{key}", registered)
