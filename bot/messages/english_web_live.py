"""The English texts of the game pages' live updates (`ENGLISH_WEB_LIVE`), part of
`ENGLISH_WEB`: the page of a live stream refused because the process follows as many as
it may (bot/web/live.py, `LiveLimits.viewers`; docs/ARCHITECTURE.md, "The web face").
Terms: docs/GLOSSARY.md."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB_LIVE: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.WEB_LIVE_FULL_TITLE: "Too many viewers",
    Msg.WEB_LIVE_FULL: "This site is following as many games live as it can. The game "
                       "page still shows every move: load it again in a minute.",
})
