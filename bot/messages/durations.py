"""A length of time in words, in the reader's language: the largest whole unit ("3 days",
"10 minutes", "40 seconds"), each unit a plural message of the catalog. Used by the
Discord layer and the web pages alike (nothing of discord here)."""

from __future__ import annotations

from datetime import timedelta

from bot.messages.ids import Msg
from bot.messages.lookup import text

_UNITS = ((86400, Msg.DAYS), (3600, Msg.HOURS), (60, Msg.MINUTES))


def duration_text(delta: timedelta, locale: str | None = None) -> str:
    """`3 days`, `10 minutes`, `40 seconds` (catalog words in `locale`): the largest
    whole unit."""
    seconds = int(delta.total_seconds())
    for size, unit in _UNITS:
        if seconds >= size and seconds % size == 0:
            return text(unit, locale, count=seconds // size)
    return text(Msg.SECONDS, locale, count=seconds)
