"""The home page (`/`): what dama-bot is, in one paragraph, with the header's language
switcher. It lists nothing: every other page is opened by its link, so no game, player,
server or tournament id can be enumerated from here (docs/ARCHITECTURE.md, "The web
face")."""

from __future__ import annotations

from aiohttp import web

from bot.web.paths import HOME
from bot.web.templates import render_page


async def home(request: web.Request) -> web.Response:
    """GET `/`: the home page in the reader's language."""
    return render_page(request, "home.html")


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the home page."""
    router.add_get(HOME, home)
