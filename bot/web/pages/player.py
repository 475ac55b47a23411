"""A player's page (`GET /players/{id}/{token}`): their ratings and their publicly shared games."""

from __future__ import annotations

from aiohttp import web


def add_routes(router: web.UrlDispatcher) -> None:
    """Register this page's handlers on `router` (`bot.web.paths`)."""
