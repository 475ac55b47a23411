"""`Plural`: a message whose words depend on a number (its own module, so that every part
of the English source, `bot.messages.english` and the files it gathers, can use it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plural:
    """A message whose words depend on a number: the English singular and plural forms,
    and the parameter holding the number (`count` unless named). Each language has as many
    forms as its plural rule (CLDR, through Babel: Arabic six, Italian and French three,
    Turkish and English two)."""

    one: str
    other: str
    count: str = "count"
