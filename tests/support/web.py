"""The web face served for tests: the composed services (`tests.support.services`) behind
the real application (`bot.web.make_app`) on a real socket (`aiohttp.test_utils
.TestServer`), and a client (`aiohttp.test_utils.TestClient`) to read it. `web_server`
gives both; `WEB_SETTINGS` are the settings it uses unless told otherwise."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.services.settings import WebVisibility
from bot.services.web_access import WebSettings
from bot.web import make_app
from bot.web.context import WebContext, make_context
from bot.web.limits import RateLimiter
from tests.support.services import Services

SECRET = "a test secret of more than thirty-two characters"

WEB_SETTINGS = WebSettings(address=None, url="https://dama.example.org", secret=SECRET,
                           rate=1000.0, burst=1000)
"""The tests' web settings: a fixed secret, a rate limit no ordinary test reaches."""


class QuietLive:
    """A live source that hears nothing: each watch ends at once (`LiveSource`)."""

    async def watch(self, game_id: int) -> AsyncIterator[int]:
        return
        yield

    async def close(self) -> None:
        """Nothing to stop."""


@dataclass(frozen=True)
class WebFace:
    """The web face under test: its context and a client of its server."""

    context: WebContext
    client: TestClient[web.Request, web.Application]


@asynccontextmanager
async def web_server(services: Services, settings: WebSettings = WEB_SETTINGS, *,
                     limiter: RateLimiter | None = None,
                     more_routes: Callable[[web.UrlDispatcher], None] | None = None,
                     ) -> AsyncIterator[WebFace]:
    """Serve the web face of `services` on a real socket for the `async with` block;
    `limiter`: its rate limits (default: `settings`'); `more_routes`: adds a test's own
    routes to the application's."""
    context = await make_context(services.storage, services.stats,
                                 services.composed.preferences, QuietLive(), settings,
                                 services.clock)
    app = make_app(context, limiter=limiter)
    if more_routes is not None:
        more_routes(app.router)
    client: TestClient[web.Request, web.Application] = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield WebFace(context, client)
    finally:
        await client.close()


async def set_web(services: Services, guild_id: int, visibility: WebVisibility) -> None:
    """Set the server's `web` setting, as `/server-settings web:` does."""
    await services.composed.preferences.update_guild(guild_id, web=visibility.value)
