"""The home page (`GET /`): what this site is, and the language switcher; it lists nothing."""

from __future__ import annotations

from aiohttp import web


def add_routes(router: web.UrlDispatcher) -> None:
    """Register this page's handlers on `router` (`bot.web.paths`)."""
