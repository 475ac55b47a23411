"""A server's leaderboard (`GET /servers/{id}/leaderboard[/{token}]?variant=V`)."""

from __future__ import annotations

from aiohttp import web


def add_routes(router: web.UrlDispatcher) -> None:
    """Register this page's handlers on `router` (`bot.web.paths`)."""
