"""The English texts of the web face's frame and its game page (`ENGLISH_WEB_GAME`), part
of `ENGLISH`: bot/web/templates/base.html and game.html (docs/ARCHITECTURE.md, "The web
face"). Terms: docs/GLOSSARY.md."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB_GAME: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.WEB_PAGE_LANGUAGES: "Languages",
})
