"""The English texts of the web face (`ENGLISH_WEB`), part of `ENGLISH`: its error pages
and language switcher, the server default `web` and the link buttons to a game's page
(docs/ARCHITECTURE.md, "The web face"); each other part of the web face has its own
`english_web_*.py`, gathered here (`bot/messages/english.py` has no room left)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.english_web_game import ENGLISH_WEB_GAME
from bot.messages.english_web_live import ENGLISH_WEB_LIVE
from bot.messages.english_web_pages import ENGLISH_WEB_PAGES
from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB: Mapping[Msg, str | Plural] = MappingProxyType({
    # --- the frame (bot/web: errors, language switcher), the server default, the buttons
    Msg.SERVER_SETTINGS_LINE_WEB: "Pages on the web (games, tournaments, leaderboard): **{value}**",
    Msg.WEB_VISIBILITY_PUBLIC: "public (by number and by link)",
    Msg.WEB_VISIBILITY_LINK: "by link only",
    Msg.WEB_VISIBILITY_OFF: "off",
    Msg.BUTTON_GAME_PAGE: "Game page",
    Msg.WEB_ERROR_HOME: "Home page",
    Msg.WEB_ERROR_BAD_REQUEST_TITLE: "Bad request",
    Msg.WEB_ERROR_BAD_REQUEST: "This address asks for something the site cannot show. "
                               "Check the link you followed.",
    Msg.WEB_ERROR_FORBIDDEN_TITLE: "Not allowed",
    Msg.WEB_ERROR_FORBIDDEN: "This page cannot be shown to you.",
    Msg.WEB_ERROR_NOT_FOUND_TITLE: "Page not found",
    Msg.WEB_ERROR_NOT_FOUND: "There is no page here, or it is not shared on the web. "
                             "Check the link you followed, or ask for a new one.",
    Msg.WEB_ERROR_METHOD_TITLE: "Request not supported",
    Msg.WEB_ERROR_METHOD: "These pages can only be read.",
    Msg.WEB_ERROR_TOO_LARGE_TITLE: "Request too large",
    Msg.WEB_ERROR_TOO_LARGE: "The request was too large to read.",
    Msg.WEB_ERROR_TOO_MANY_TITLE: "Too many requests",
    Msg.WEB_ERROR_TOO_MANY: "Too many requests came from your address. Wait a moment and "
                            "load the page again.",
    Msg.WEB_ERROR_SERVER_TITLE: "Something went wrong",
    Msg.WEB_ERROR_SERVER: "The page could not be made. Try again in a moment.",
    **ENGLISH_WEB_GAME,
    **ENGLISH_WEB_PAGES,
    **ENGLISH_WEB_LIVE,
})
