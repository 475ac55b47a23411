"""The security headers on every answer of the web face, pages, pictures, errors and
static files alike (docs/ARCHITECTURE.md, "The web face"): a strict Content Security
Policy (scripts, styles and pictures from the site itself only: no inline script or
style), no sniffing, no referrer (a signed link must not leak to other sites), no framing,
no browser features. Pictures may be fetched by other sites (Discord's link previews
read the Open Graph picture). The pages of signed links are not to be indexed.

They are set when each answer is prepared (`on_response_prepare`), so an error raised
anywhere, a static file and a stream carry them too."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from aiohttp import hdrs, web

from bot.web.paths import TOKEN

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "display-capture", "fullscreen", "geolocation", "gyroscope",
    "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
    "screen-wake-lock", "usb", "xr-spatial-tracking",
))

SERVER_NAME = "dama-bot"
"""The `Server` header: the name, no version."""

HEADERS: Mapping[str, str] = MappingProxyType({
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
})
"""The headers of every answer (a picture's `Cross-Origin-Resource-Policy` aside)."""


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Set `HEADERS` on `response`; `Cross-Origin-Resource-Policy: cross-origin` for a
    picture; `X-Robots-Tag: noindex` for an answer to a signed link."""
    response.headers.update(HEADERS)
    response.headers[hdrs.SERVER] = SERVER_NAME
    if response.content_type.startswith("image/"):
        response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
    if TOKEN in request.match_info:
        response.headers["X-Robots-Tag"] = "noindex"


def install_security_headers(app: web.Application) -> None:
    """Have every answer of `app` carry the security headers."""
    app.on_response_prepare.append(add_security_headers)


__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "SERVER_NAME", "add_security_headers",
           "install_security_headers"]
