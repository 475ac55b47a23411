"""Every text a player reads: the message ids, their English source and the catalogs.

`text(key, locale, **params)` fills a message's template with `str.format` fields, in the
language `locale` names (a language code of `bot.language.Language`, or a Discord locale
such as "en-US" or "tr"). English lives in `bot.messages.english` (`ENGLISH`); the other
languages are GNU gettext catalogs, `bot/locales/messages/<language>.po`, read with
Babel: each entry's context (`msgctxt`) is the message id, its `msgid` the English text,
and a message whose words depend on a number (`Plural`) has one form per plural category
of the language's CLDR rule. An entry missing or marked fuzzy (its English changed since
it was translated) falls back to English; the test suite refuses both
(`tests/bot/test_catalogs.py`). `python -m bot.locales` writes the template and merges it
into the catalogs after an English text changed. Discord has no Arabic client locale:
Arabic is reached by a player's or server's choice (`bot.language`).

Parameters are formatted by the caller (mentions, numbers); the templates never build
sentences from pieces of other templates except through named fields.

The package: `ids` (the `Msg` enum), `english` (the English source and `Plural`),
`lookup` (templates from the catalogs, `text()`), `bidi` (directional isolates),
`formats` (numbers and lists in the reader's language), `values` (list and option-name
parameters shown in the reader's language) and `commands` (the command picker's
English). Every public name is re-exported here.
"""

from __future__ import annotations

from bot.messages.bidi import FSI, LRI, PDI, RLI, isolate
from bot.messages.commands import COMMAND_TEXT, command_text
from bot.messages.english import COUNT_FIELDS, ENGLISH
from bot.messages.formats import Conjunction, decimal, join_list, percent
from bot.messages.ids import Msg
from bot.messages.lookup import (
    VARIANT_NAMES,
    VARIANT_NAMES_IN_SENTENCE,
    fields,
    language_of,
    option_name,
    plain_text,
    template,
    template_fields,
    text,
    translations,
    variant_in_sentence,
    variant_name,
)
from bot.messages.plural import Plural
from bot.messages.values import Listing, OptionName

__all__ = [
    "COMMAND_TEXT",
    "COUNT_FIELDS",
    "ENGLISH",
    "FSI",
    "LRI",
    "PDI",
    "RLI",
    "VARIANT_NAMES",
    "VARIANT_NAMES_IN_SENTENCE",
    "Conjunction",
    "Listing",
    "Msg",
    "OptionName",
    "Plural",
    "command_text",
    "decimal",
    "fields",
    "isolate",
    "join_list",
    "language_of",
    "option_name",
    "percent",
    "plain_text",
    "template",
    "template_fields",
    "text",
    "translations",
    "variant_in_sentence",
    "variant_name",
]
