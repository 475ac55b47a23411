"""`WebServer`: the web face listening on `WebSettings.address`, beside the bot
(`bot.client.DamaBot`) or in its own process (`dama-bot web`, `bot.web.process`).

The request line and each header are limited in size (`MAX_LINE_SIZE`, `MAX_FIELD_SIZE`;
aiohttp answers a longer one with 400 before any handler runs). The access log writes
each request's route pattern, never its path: a signed link's token stays out of logs."""

from __future__ import annotations

import logging

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest

from bot.services.web_access import WebAddress
from bot.web.app import make_app
from bot.web.context import WebContext

log = logging.getLogger(__name__)

MAX_LINE_SIZE = 4096
"""The longest request line (method, path and query) read."""
MAX_FIELD_SIZE = 8190
"""The longest header read."""
SHUTDOWN_SECONDS = 5.0
"""How long the server waits for the requests under way when it stops."""


class RouteAccessLogger(AbstractAccessLogger):
    """One line per request: the client, the method, the route's pattern (not the path:
    tokens), the status and the time taken."""

    def log(self, request: BaseRequest, response: web.StreamResponse, time: float) -> None:
        match_info = getattr(request, "match_info", None)
        resource = None if match_info is None else match_info.route.resource
        route = "-" if resource is None else resource.canonical
        self.logger.info("%s %s %s %s %.3fs", request.remote, request.method, route,
                         response.status, time)


class WebServer:
    """Serves the web face of `context` on `address` (None: `context.settings.address`).
    `start()` listens (raises `OSError` when the address is taken or not this machine's);
    `stop()` closes the live source (its streams end), then stops listening. `port`: the
    port listened on, once started (port 0 picks a free one)."""

    def __init__(self, context: WebContext, address: WebAddress | None = None) -> None:
        chosen = address or context.settings.address
        if chosen is None:
            raise ValueError("the web face has no address to listen on")
        self._address = chosen
        self._context = context
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self) -> None:
        runner = web.AppRunner(
            make_app(self._context), handle_signals=False,
            access_log_class=RouteAccessLogger, access_log=logging.getLogger("bot.web.access"),
            max_line_size=MAX_LINE_SIZE, max_field_size=MAX_FIELD_SIZE,
            shutdown_timeout=SHUTDOWN_SECONDS,
            # A client gone mid-answer cancels its handler at once: a live stream's
            # viewer is let go then, not at the next ping (bot/web/live.py).
            handler_cancellation=True,
        )
        await runner.setup()
        site = web.TCPSite(runner, self._address.host, self._address.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = [address for address in runner.addresses if isinstance(address, tuple)]
        self.port = int(sockets[0][1]) if sockets else self._address.port
        log.info("the web pages are served on %s:%s", self._address.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        try:
            # The live source first: every live stream then ends at once, and the
            # server's shutdown does not wait for them.
            await self._context.live.close()
        finally:
            if runner is not None:
                await runner.cleanup()


__all__ = ["MAX_FIELD_SIZE", "MAX_LINE_SIZE", "RouteAccessLogger", "WebServer"]
