"""The game page (`GET /games/{id}[/{token}]`): the board, stepping through its moves,
the move list, the result and the analysis."""

from __future__ import annotations

from aiohttp import web


def add_routes(router: web.UrlDispatcher) -> None:
    """Register this page's handlers on `router` (`bot.web.paths`)."""
