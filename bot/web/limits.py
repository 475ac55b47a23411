"""Rate limits per client address (docs/OPERATING.md, "Game pages on the web"): each
address has a token bucket of `WebSettings.burst` requests refilled at `WebSettings.rate`
a second; a request finding it empty is answered with the 429 page and `Retry-After` (the
whole seconds until a request is allowed again).

The client's address is the socket's peer, or, when the peer is one of
`WebSettings.trusted_proxies` (a reverse proxy), the last address of `X-Forwarded-For`
that is not a trusted proxy: an address the client wrote itself is never believed."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.web.paths import HEALTH

MAX_ADDRESSES = 10_000
"""The most addresses whose buckets are kept (the least recently seen is forgotten)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Token buckets by client address: `rate` tokens a second, at most `burst`.
    `monotonic`: the clock (tests step their own)."""

    def __init__(self, rate: float, burst: int, *,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("the rate must be positive and the burst at least 1")
        self._rate = rate
        self._burst = burst
        self._monotonic = monotonic
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def wait(self, address: str) -> float:
        """Take one request from `address`'s bucket: 0 when allowed, else the seconds until
        one is (nothing taken then)."""
        now = self._monotonic()
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = _Bucket(float(self._burst), now)
        bucket.tokens = min(float(self._burst),
                            bucket.tokens + (now - bucket.updated) * self._rate)
        bucket.updated = now
        self._buckets[address] = bucket
        while len(self._buckets) > MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self._rate


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: web.Request, trusted_proxies: frozenset[str]) -> str:
    """The client's address: the peer's, or behind a trusted proxy the last address of
    `X-Forwarded-For` that is not a trusted proxy (the peer's when there is none usable)."""
    peer = request.remote or ""
    if peer not in trusted_proxies:
        return peer
    forwarded = [part for header in request.headers.getall("X-Forwarded-For", [])
                 for part in header.split(",")]
    for part in reversed(forwarded):
        address = _address(part)
        if address is None:
            return peer
        if address not in trusted_proxies:
            return address
    return peer


def rate_limits(limiter: RateLimiter, trusted_proxies: frozenset[str]) -> Middleware:
    """The middleware refusing a client past its rate with `web.HTTPTooManyRequests`
    (`Retry-After` set; the error pages render it). The health check is not counted."""

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != HEALTH:
            wait = limiter.wait(client_address(request, trusted_proxies))
            if wait > 0:
                raise web.HTTPTooManyRequests(headers={"Retry-After": str(math.ceil(wait))})
        return await handler(request)

    return limit


__all__ = ["MAX_ADDRESSES", "RateLimiter", "client_address", "rate_limits"]
