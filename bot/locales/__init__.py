"""The translation catalogs (GNU gettext `.po` files, read with Babel) and the templates
they are kept against.

Two domains: `messages/<language>.po` (every `bot.messages.Msg`, in every translated
`bot.language.Language`) and `commands/<language>.po` (slash command and option names,
their descriptions and the choices' names, in the languages whose command names are
translated: those Discord has a locale for). Each entry's context is its
id (`Msg` value; `name:`, `description:` or `choice:` and the key of
`bot.messages.COMMAND_TEXT`), its `msgid` the English. `python -m bot.locales` rewrites the
templates (`<domain>.pot`) from the English and merges them into the catalogs: a new id
is added untranslated and a changed English text marks its translation fuzzy, so the
catalog checks (`tests/bot/test_catalogs.py`) fail until a translator has looked.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog

from bot.language import Language
from bot.messages import COMMAND_TEXT, ENGLISH, Plural

LOCALES = Path(__file__).resolve().parent
DOMAINS: dict[str, tuple[str, ...]] = {
    "messages": tuple(language.value for language in Language if language.translated),
    "commands": tuple(language.value for language in Language if language.commands_translated),
}
"""Each domain's translated languages, from `bot.language.Language` (English is the
source; commands only where Discord has a locale, so not Arabic)."""


LANGUAGE_CHOICES = frozenset(f"choice.{language.value}" for language in Language)
"""The choices that name a language: by its endonym, the same in every locale, so they
have no catalog entry (a new language adds nothing to the other languages' catalogs)."""


def command_entries() -> list[tuple[str, str]]:
    """(context, English) of every entry of the commands domain: for each command and
    option key of `COMMAND_TEXT` its name (`name:<key>`: the part after the last dot) and
    description (`description:<key>`), and each choice's name (`choice:<value>`) but a
    language's (`LANGUAGE_CHOICES`)."""
    entries: list[tuple[str, str]] = []
    for key, english in COMMAND_TEXT.items():
        if key in LANGUAGE_CHOICES:
            continue
        if key.startswith("choice."):
            entries.append((f"choice:{key.removeprefix('choice.')}", english))
        else:
            entries.append((f"name:{key}", key.rpartition(".")[2]))
            entries.append((f"description:{key}", english))
    return entries


def template(domain: str) -> Catalog:
    """The template catalog of `domain` ("messages" or "commands") built from the English."""
    catalog = Catalog(domain=domain, project="dama-bot", charset="utf-8")
    if domain == "messages":
        for key, source in ENGLISH.items():
            if isinstance(source, Plural):
                catalog.add((source.one, source.other), context=key.value,
                            auto_comments=[f"plural by {{{source.count}}}"])
            else:
                catalog.add(source, context=key.value)
    else:
        for context, english in command_entries():
            catalog.add(english, context=context)
    return catalog


def catalog_path(domain: str, language: str) -> Path:
    """Where the catalog of `domain` in `language` is kept."""
    return LOCALES / domain / f"{language}.po"
