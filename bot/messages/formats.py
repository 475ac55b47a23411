"""Numbers and lists written as the reader's language writes them, with Babel's CLDR data
(docs/LANGUAGES.md, "Numbers and lists").

- `decimal`: a count with the language's grouping ("30,000", "30.000", "30 000").
- `percent`: a percentage with the language's sign and its place ("87%", "%87", "87 %").
- `join_list`: items joined as the language joins a list ("a, b and c", "a, b ve c",
  "a وb وc").

Digits are always Latin (CLDR's `latn` numbering system), in Arabic too: Arabic Discord
users write Latin digits, and moves, squares and ratings are written with them. CLDR's
default for some Arabic locales is the Arabic-Indic digits (`ar-EG`: `arab`, "٣٠٬٠٠٠"), so
the numbering system is named explicitly rather than left to Babel's default.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from bot.language import SOURCE, from_locale

NUMBERING_SYSTEM = "latn"
"""CLDR's Latin digits, 0-9, for every language."""


def _babel_locale(locale: str | None) -> str:
    """The CLDR locale of a language code or Discord locale ("tr", "en-US"): the
    catalog language (English for None or a language without a catalog)."""
    return (from_locale(locale) or SOURCE).value


def decimal(value: int | float, locale: str | None = None) -> str:
    """`value` written with the grouping of `locale`'s language and Latin digits:
    30000 is "30,000" in English, "30.000" in Turkish and Italian, "30 000" (narrow
    no-break space) in French, "30,000" in Arabic. A float keeps up to three decimals."""
    return format_decimal(value, locale=_babel_locale(locale),
                          numbering_system=NUMBERING_SYSTEM)


def percent(value: float, locale: str | None = None) -> str:
    """The percentage `value` (87.4 for 87.4 %), rounded to a whole number, with the
    sign where `locale`'s language writes it and Latin digits: "87%" in English, Italian
    and Arabic, "%87" in Turkish, "87 %" (no-break space) in French (CLDR's percent
    pattern of each language)."""
    return format_percent(value / 100, locale=_babel_locale(locale),
                          numbering_system=NUMBERING_SYSTEM)


class Conjunction(enum.Enum):
    """How a list's last item is joined: CLDR's list pattern styles."""

    AND = "standard"
    """All of the items: "a, b and c"."""
    OR = "or"
    """One of the items: "a, b or c"."""


def join_list(items: Iterable[str], locale: str | None = None,
              conjunction: Conjunction = Conjunction.AND) -> str:
    """`items` joined as `locale`'s language joins a list (CLDR's list patterns, with
    `conjunction`): "a, b, and c" in English, "a, b ve c" in Turkish, "a, b e c" in
    Italian, "a, b et c" in French, "a وb وc" in Arabic; with `Conjunction.OR` "a, b, or
    c", "a, b veya c", "a, b o c", "a, b ou c", "a أو b أو c". One item alone; "" for
    none."""
    return format_list(list(items), style=conjunction.value, locale=_babel_locale(locale))
