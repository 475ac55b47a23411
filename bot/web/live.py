"""Live updates of the game pages: the server-sent events of `GET <game>/events`
(docs/ARCHITECTURE.md, "The web face").

After `visible_game` (a game the reader may not see is the 404 page), the handler
answers `text/event-stream` and follows the game through the process's `LiveSource`
(`bot.web.feeds`): each time the feed yields, it reads the game as stored and sends one
`position` event, whose id is the game's ply count and whose data is the JSON of the
page's contract with static/replay.js: ``{"ply": N, "moves": [{"ply": k, "text":
"..."}...], "status": "...", "over": bool}``, the moves being those after the client's
last ply (`Last-Event-ID` on a reconnection, else `?from=`, else none). The first event
is the game as it stands; a comment line every `LiveLimits.ping_seconds` (`Pinger`: one
task for every stream) keeps proxies from closing a quiet stream and finds clients gone;
the stream ends after the event that says the game is over. A viewer past
`LiveLimits.viewers_per_address` open streams from one address gets the 429 page, past
`LiveLimits.viewers` in all the 503 page.

Many viewers of one game share one read of it per ply (`bot.web.live_reads`), whose
texts are the game page's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from aiohttp import hdrs, web

from bot.language import Language
from bot.web.access import visible_game
from bot.web.context import CONTEXT
from bot.web.language import reader_language
from bot.web.limits import client_address
from bot.web.live_reads import GameReads
from bot.web.paths import EVENTS, GAMES
from engine import DamaError
from storage import GameNotFoundError, StorageError

log = logging.getLogger(__name__)

EVENT_STREAM = "text/event-stream"
PING = b": ping\n\n"
"""A comment line: ignored by EventSource, it keeps the connection in use."""

FROM = "from"
"""The query parameter naming the last ply the page already shows."""

MAX_PLY = 100_000
"""The highest ply a client may name (more than any game's plies)."""


@dataclass(frozen=True)
class LiveLimits:
    """How many live viewers one process serves, and how often it pings them.

    viewers: open event streams in all (past it: the 503 page).
    viewers_per_address: open event streams from one client address (past it: 429).
    ping_seconds: the time between two comment lines on every stream (`Pinger`)."""

    viewers: int = 5_000
    viewers_per_address: int = 16
    ping_seconds: float = 15.0

    def __post_init__(self) -> None:
        if self.viewers < 1 or self.viewers_per_address < 1 or self.ping_seconds <= 0:
            raise ValueError(f"live limits must be positive: {self}")


LIVE_LIMITS = web.AppKey("dama_live_limits", LiveLimits)
"""The application's `LiveLimits` (absent: the defaults), read at each request."""


class Viewers:
    """The open event streams, by client address and in all."""

    def __init__(self) -> None:
        self._by_address: dict[str, int] = {}
        self.total = 0

    @contextmanager
    def admit(self, address: str, limits: LiveLimits) -> Iterator[None]:
        """Count one stream from `address` while the block runs. Raises
        `web.HTTPTooManyRequests` when `address` has `limits.viewers_per_address` open,
        `web.HTTPServiceUnavailable` when the process has `limits.viewers` open."""
        held = self._by_address.get(address, 0)
        if held >= limits.viewers_per_address:
            raise web.HTTPTooManyRequests(headers={hdrs.RETRY_AFTER: "30"})
        if self.total >= limits.viewers:
            raise web.HTTPServiceUnavailable(headers={hdrs.RETRY_AFTER: "30"})
        self._by_address[address] = held + 1
        self.total += 1
        try:
            yield
        finally:
            self.total -= 1
            left = self._by_address[address] - 1
            if left:
                self._by_address[address] = left
            else:
                del self._by_address[address]


def client_ply(request: web.Request) -> int:
    """The last ply the client shows: its `Last-Event-ID` (a reconnection), else
    `?from=`, else 0. Raises `web.HTTPBadRequest` for anything but one whole number from 0
    to `MAX_PLY`."""
    values = request.headers.getall(hdrs.LAST_EVENT_ID, [])
    if not values:
        values = request.query.getall(FROM, [])
    if not values:
        return 0
    if len(values) != 1:
        raise web.HTTPBadRequest()
    value = values[0].strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 6) or int(value) > MAX_PLY:
        raise web.HTTPBadRequest()
    return int(value)


class Pinger:
    """Writes a comment line to every open stream of one application every
    `ping_seconds`, from one task (not one timer per stream): it keeps proxies from
    closing quiet streams, and a stream it cannot write to (its client gone, or not
    reading for `PING_PATIENCE` seconds) has its handler cancelled, which ends it."""

    def __init__(self) -> None:
        self._streams: dict[web.StreamResponse, asyncio.Task[object]] = {}
        self._task: asyncio.Task[None] | None = None

    def add(self, response: web.StreamResponse, handler: asyncio.Task[object],
            ping_seconds: float) -> None:
        self._streams[response] = handler
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(ping_seconds), name="web live pings")

    def remove(self, response: web.StreamResponse) -> None:
        self._streams.pop(response, None)

    async def _run(self, ping_seconds: float) -> None:
        while self._streams:
            await asyncio.sleep(ping_seconds)
            for response, handler in list(self._streams.items()):
                try:
                    await asyncio.wait_for(response.write(PING), PING_PATIENCE)
                except (ConnectionError, RuntimeError, TimeoutError):
                    self.remove(response)
                    handler.cancel()


PING_PATIENCE = 5.0
"""Seconds a ping may wait for a client to read before its stream is ended."""


class LiveEvents:
    """The events handler of one application, with its viewers, shared reads and
    pings."""

    def __init__(self) -> None:
        self.viewers = Viewers()
        self.reads = GameReads()
        self.pinger = Pinger()
        self._followed: dict[int, int] = {}
        """The open streams of each game: a game's shared read is let go with its last."""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """`GET <game>/events`: see the module's docstring. Raises `web.HTTPNotFound`
        (`visible_game`), `web.HTTPBadRequest` (`client_ply`), `HTTPTooManyRequests` and
        `HTTPServiceUnavailable` (`Viewers.admit`) before anything is sent."""
        record = await visible_game(request)
        context = request.app[CONTEXT]
        limits = request.app.get(LIVE_LIMITS) or LiveLimits()
        after = client_ply(request)
        language = reader_language(request).language
        address = client_address(request, context.settings.trusted_proxies)
        with self.viewers.admit(address, limits):
            response = web.StreamResponse(headers={
                hdrs.CONTENT_TYPE: EVENT_STREAM,
                hdrs.CACHE_CONTROL: "no-cache",
                "X-Accel-Buffering": "no",
            })
            await response.prepare(request)
            handler = asyncio.current_task()
            assert handler is not None
            self.pinger.add(response, handler, limits.ping_seconds)
            self._followed[record.id] = self._followed.get(record.id, 0) + 1
            try:
                await self._follow(request, response, context.live.watch(record.id),
                                   record.id, after, language)
            except ConnectionResetError:
                pass  # the client went away: nothing more to send
            except GameNotFoundError:
                pass  # deleted meanwhile: the stream ends
            except StorageError as error:  # the client's EventSource will try again
                log.warning("a live page's read of game %s failed: %s", record.id, error)
            except DamaError:  # its moves do not replay: its page is refused too
                log.warning("game %s's stored moves do not replay", record.id)
            finally:
                self.pinger.remove(response)
                self._unfollow(record.id)
            return response

    def _unfollow(self, game_id: int) -> None:
        left = self._followed[game_id] - 1
        if left:
            self._followed[game_id] = left
        else:
            del self._followed[game_id]
            self.reads.forget(game_id)

    async def _follow(self, request: web.Request, response: web.StreamResponse,
                      watch: AsyncIterator[int], game_id: int, after: int,
                      language: Language) -> None:
        """Send the game's events until it is over, the watch ends or the client is gone
        (`request.transport` None: a server without handler cancellation learns it here,
        or from the pinger)."""
        storage = request.app[CONTEXT].storage
        shown = -1  # the plies of the last event sent (-1: none yet)
        try:
            async for plies in watch:
                if request.transport is None:
                    return
                read = await self.reads.read(storage, game_id, plies)
                if read.plies > shown or read.over:
                    await response.write(await read.event(after, language))
                    shown, after = read.plies, read.plies
                if read.over:
                    return
            # the watch ended (the game is over, or the feed closed): its last state
            if request.transport is None:
                return
            read = await self.reads.read(storage, game_id, max(shown, 0), ended=True)
            if read.over:
                await response.write(await read.event(after, language))
        finally:
            if isinstance(watch, AsyncGenerator):
                await watch.aclose()


def add_routes(router: web.UrlDispatcher) -> None:
    """Register `GET <game>/events` for both forms of a game's path (`bot.web.paths`)."""
    events = LiveEvents()
    for game in GAMES:
        router.add_get(game + EVENTS, events.handle, allow_head=False)


__all__ = ["LIVE_LIMITS", "LiveEvents", "LiveLimits", "Pinger", "Viewers", "add_routes",
           "client_ply"]
