"""Every HTTP error of the web face as a page in the reader's language
(docs/ARCHITECTURE.md, "The web face"): 400, 403, 404, 405, 413, 429, 500 and 503, with the
headers the error carried (`Allow`, `Retry-After`). Anything else raised by a handler is
logged and answered with the 500 page: never a stack trace or a file path. The 404 page is
the same for a page that does not exist and for one that may not be shown."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType

from aiohttp import hdrs, web

from bot.messages import Msg
from bot.web.language import ReaderLanguage, reader_language
from bot.web.paths import HOME
from bot.web.templates import render

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

ERROR_TEXTS: Mapping[int, tuple[Msg, Msg]] = MappingProxyType({
    400: (Msg.WEB_ERROR_BAD_REQUEST_TITLE, Msg.WEB_ERROR_BAD_REQUEST),
    403: (Msg.WEB_ERROR_FORBIDDEN_TITLE, Msg.WEB_ERROR_FORBIDDEN),
    404: (Msg.WEB_ERROR_NOT_FOUND_TITLE, Msg.WEB_ERROR_NOT_FOUND),
    405: (Msg.WEB_ERROR_METHOD_TITLE, Msg.WEB_ERROR_METHOD),
    413: (Msg.WEB_ERROR_TOO_LARGE_TITLE, Msg.WEB_ERROR_TOO_LARGE),
    429: (Msg.WEB_ERROR_TOO_MANY_TITLE, Msg.WEB_ERROR_TOO_MANY),
    500: (Msg.WEB_ERROR_SERVER_TITLE, Msg.WEB_ERROR_SERVER),
    503: (Msg.WEB_LIVE_FULL_TITLE, Msg.WEB_LIVE_FULL),
})
"""Each error status's title and explanation; any other 4xx is shown as 400, any other
5xx as 500."""

ERROR_TEMPLATE = "error.html"

KEPT_HEADERS = (hdrs.ALLOW, hdrs.RETRY_AFTER)
"""The headers of an error kept on its page."""


def shown_status(status: int) -> int:
    """The status whose page answers an error of `status`."""
    if status in ERROR_TEXTS:
        return status
    return 500 if status >= 500 else 400


def error_page(request: web.Request, status: int,
               headers: Mapping[str, str] | None = None) -> web.Response:
    """The page of the error `status` (`shown_status`) in the reader's language
    (`bot.web.language`), with `headers`. Its links (home, the language switcher) lead to
    the home page: the page never repeats the address asked for."""
    shown = shown_status(status)
    response = web.Response(status=shown, text=_body(shown, reader_language(request)),
                            content_type="text/html", charset="utf-8")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


@functools.lru_cache(maxsize=len(ERROR_TEXTS) * 16)
def _body(status: int, reader: ReaderLanguage) -> str:
    """An error page's HTML: it depends on nothing else (a frozen, hashable `reader`), so
    each is made once and a flood of refused requests costs no rendering."""
    title, explanation = ERROR_TEXTS[status]
    return render(ERROR_TEMPLATE, reader, HOME, {}, title=title, explanation=explanation,
                  noindex=True)


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer every HTTP error raised below with its page (`error_page`), and anything
    else raised with the 500 page (logged)."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        kept = {str(name): error.headers[name] for name in KEPT_HEADERS
                if name in error.headers}
        return error_page(request, error.status, kept)
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:
        # the route's pattern, not the path: a signed link's token stays out of the log
        log.exception("the web page %s failed", request.match_info.route.resource
                      .canonical if request.match_info.route.resource else "?")
        return error_page(request, 500)


__all__ = ["ERROR_TEXTS", "error_page", "error_pages", "shown_status"]
