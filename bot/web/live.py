"""Live updates of the game pages: the server-sent events of `GET <game>/events`, fed by
a `bot.web.context.LiveSource`."""

from __future__ import annotations

from aiohttp import web


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the events handler on `router` (`bot.web.paths`)."""
