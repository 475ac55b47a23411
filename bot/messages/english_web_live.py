"""The English texts of the game pages' live updates (`ENGLISH_WEB_LIVE`), part of
`ENGLISH`: the status line each server-sent event carries (bot/web/live.py;
docs/ARCHITECTURE.md, "The web face"). Terms: docs/GLOSSARY.md."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB_LIVE: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.WEB_LIVE_TO_MOVE: "{color} to move.",
    Msg.WEB_LIVE_WIN: "{color} wins ({score}).",
    Msg.WEB_LIVE_DRAW: "Draw (½-½).",
    Msg.WEB_LIVE_ABORTED: "Game aborted: no result.",
})
