"""The query parameters of the web pages, checked (docs/ARCHITECTURE.md, "The web face"):
a parameter given twice or out of its range is a bad request (`web.HTTPBadRequest`,
answered with the 400 page), never a 500. The page's id and token are checked by the
route patterns (`bot.web.paths`) and `bot.web.access`; `lang` by `check_language` for
every page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.web.language import LANG, url_language
from engine import VARIANTS, Variant

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_DIGITS = 9
"""The most digits a number parameter (a ply) may have."""


def _one(request: web.Request, name: str) -> str | None:
    values = request.query.getall(name, [])
    if len(values) > 1:
        raise web.HTTPBadRequest()
    return values[0] if values else None


def query_int(request: web.Request, name: str, low: int, high: int, default: int) -> int:
    """The whole number `name` (`default` when absent). Raises `web.HTTPBadRequest` when
    it is given twice, is not decimal digits, or is outside `low`..`high`."""
    value = _one(request, name)
    if value is None:
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
        raise web.HTTPBadRequest()
    number = int(value)
    if not low <= number <= high:
        raise web.HTTPBadRequest()
    return number


def query_flag(request: web.Request, name: str) -> bool:
    """The flag `name`: "1" True, "0" or absent False. Raises `web.HTTPBadRequest` for
    anything else."""
    return query_int(request, name, 0, 1, 0) == 1


def query_variant(request: web.Request, name: str = "variant") -> Variant | None:
    """The variant `name` names (by its key: "turkish"), None when absent. Raises
    `web.HTTPBadRequest` for one the bot does not play."""
    value = _one(request, name)
    if value is None:
        return None
    variant = VARIANTS.get(value)
    if variant is None:
        raise web.HTTPBadRequest()
    return variant


@web.middleware
async def check_language(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse a `lang` that is not one code of `bot.language.Language`, given once."""
    if LANG in request.query and url_language(request) is None:
        raise web.HTTPBadRequest()
    return await handler(request)


__all__ = ["MAX_DIGITS", "check_language", "query_flag", "query_int", "query_variant"]
