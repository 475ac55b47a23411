"""`make_app`: the web face's aiohttp application (docs/ARCHITECTURE.md, "The web face").

The middlewares, outermost first: the error pages (`bot.web.errors`), reads only (GET and
HEAD; anything else is the 405 page), the rate limits (`bot.web.limits`) and the `lang`
check (`bot.web.inputs`). The security headers are set on every answer
(`bot.web.security`). The routes (`bot.web.paths`): the health check and the static files
here, each page module's own through its `add_routes(router)`."""

from __future__ import annotations

from pathlib import Path

from aiohttp import hdrs, web

from bot.web import live
from bot.web.context import CONTEXT, WebContext
from bot.web.errors import error_pages
from bot.web.inputs import Handler, check_language
from bot.web.limits import RateLimiter, rate_limits
from bot.web.pages import game, home, leaderboard, player, tournament
from bot.web.paths import HEALTH, STATIC
from bot.web.security import install_security_headers

STATIC_DIRECTORY = Path(__file__).parent / "static"
"""The stylesheet, scripts and pictures served under `/static/`."""

STATIC_NAME = "name"
"""The match part of a static file's name."""

STATIC_MAX_AGE = 86_400
"""Seconds a browser keeps a static file (`Cache-Control`)."""

READ_METHODS = (hdrs.METH_GET, hdrs.METH_HEAD)

CLIENT_MAX_SIZE = 1024
"""The largest request body read (none is: the web face only reads)."""

PAGE_MODULES = (home, game, player, leaderboard, tournament, live)
"""The modules whose `add_routes(router)` registers their handlers."""


@web.middleware
async def reads_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse every method but GET and HEAD (`web.HTTPMethodNotAllowed`: the 405 page)."""
    if request.method not in READ_METHODS:
        raise web.HTTPMethodNotAllowed(request.method, list(READ_METHODS))
    return await handler(request)


async def health(request: web.Request) -> web.Response:
    """`GET /health`: "ok" while the process answers (no database read), for a reverse
    proxy's checks."""
    return web.Response(text="ok", headers={hdrs.CACHE_CONTROL: "no-store"})


def static_files(directory: Path = STATIC_DIRECTORY) -> Handler:
    """The handler of `GET /static/{name}`: the files of `directory` when the application
    is made, by name (no sub-folders, nothing else: any other name is the 404 page),
    kept by browsers for `STATIC_MAX_AGE` seconds."""
    files = {path.name: path for path in directory.iterdir()
             if path.is_file() and not path.name.startswith(".")}

    async def static_file(request: web.Request) -> web.StreamResponse:
        path = files.get(request.match_info[STATIC_NAME])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(
            path, headers={hdrs.CACHE_CONTROL: f"public, max-age={STATIC_MAX_AGE}"})

    return static_file


def make_app(context: WebContext, *, limiter: RateLimiter | None = None) -> web.Application:
    """The application serving the web face from `context`. `limiter`: the rate limits
    (default: `context.settings.rate` and `burst` per address)."""
    settings = context.settings
    limiter = limiter or RateLimiter(settings.rate, settings.burst)
    app = web.Application(
        middlewares=[error_pages, reads_only,
                     rate_limits(limiter, settings.trusted_proxies), check_language],
        client_max_size=CLIENT_MAX_SIZE,
    )
    app[CONTEXT] = context
    install_security_headers(app)
    app.router.add_get(HEALTH, health)
    app.router.add_get(STATIC + "/{" + STATIC_NAME + ":[A-Za-z0-9][A-Za-z0-9_.-]{0,99}}",
                       static_files())
    for module in PAGE_MODULES:
        module.add_routes(app.router)
    return app


__all__ = ["CLIENT_MAX_SIZE", "PAGE_MODULES", "STATIC_DIRECTORY", "health", "make_app",
           "reads_only", "static_files"]
