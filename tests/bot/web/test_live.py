"""The live updates of a game page (`bot.web.live`): `GET <game>/events` through the real
application (`bot.web.make_app`) on a real socket, games played through the services on a
real SQLite file, read by aiohttp's client as a browser's EventSource reads them."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.messages import isolate
from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from bot.web import make_app
from bot.web.context import LiveSource, WebContext, make_context
from bot.web.feeds import BusFeed, PollingFeed
from bot.web.live import LIVE_LIMITS, LiveEvents, LiveLimits
from storage import GameRecord, Storage
from tests.support.services import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    OpenServices,
    Services,
    start_game,
)
from tests.support.web import WEB_SETTINGS, set_web

WITHIN = 1.0
"""A move reaches every viewer within a second (docs/ARCHITECTURE.md, "The web face")."""


@dataclass(frozen=True)
class Face:
    """The web face served on a real socket, and a client session to read it."""

    context: WebContext
    app: web.Application
    base: str
    session: aiohttp.ClientSession

    def events(self, record: GameRecord) -> str:
        token = self.context.access.signer.token(PageKind.GAME, record.id)
        return f"{self.base}/games/{record.id}/{token}/events"


@asynccontextmanager
async def live_face(services: Services, live: LiveSource, *, storage: Storage | None = None,
                    limits: LiveLimits | None = None,
                    handler_cancellation: bool = True) -> AsyncIterator[Face]:
    """The web face of `services` (reading `storage`, default theirs) with `live`, served
    as `bot.web.WebServer` serves it (an `AppRunner` on a TCP socket); `handler_cancellation`
    False is aiohttp's default, where a handler hears of a client gone only when it writes."""
    context = await make_context(storage or services.storage, services.stats,
                                 services.composed.preferences, live, WEB_SETTINGS,
                                 services.clock)
    app = make_app(context)
    if limits is not None:
        app[LIVE_LIMITS] = limits
    runner = web.AppRunner(app, handler_cancellation=handler_cancellation)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as session:
            yield Face(context, app, f"http://127.0.0.1:{port}", session)
    finally:
        await live.close()
        await runner.cleanup()


class Stream:
    """One event stream read as EventSource reads it: events split on blank lines."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def block(self, within: float = WITHIN) -> str:
        """The next block (an event or a comment) as text; "" at the end of the stream."""
        raw = await asyncio.wait_for(self.response.content.readuntil(b"\n\n"), within)
        return raw.decode()

    async def event(self, within: float = WITHIN) -> dict[str, Any]:
        """The next event (comments skipped): its id, kind and JSON data."""
        while True:
            block = await self.block(within)
            assert block, "the stream ended"
            fields = dict(line.split(": ", 1) for line in block.strip().split("\n")
                          if not line.startswith(":"))
            if fields:
                return {"id": fields["id"], "event": fields["event"],
                        "data": json.loads(fields["data"])}

    async def ended(self) -> bool:
        return await asyncio.wait_for(self.response.content.read(), WITHIN) == b""


@asynccontextmanager
async def follow(face: Face, record: GameRecord, *, since: int | None = None,
                 last_event_id: int | None = None) -> AsyncIterator[Stream]:
    url = face.events(record) + ("" if since is None else f"?from={since}")
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    async with face.session.get(url, headers=headers) as response:
        assert response.status == 200
        yield Stream(response)


async def eventually(check: Callable[[], bool], within: float = WITHIN) -> None:
    """Wait until `check()` holds (the server hears of a client gone a moment later)."""
    deadline = time.perf_counter() + within
    while not check():
        assert time.perf_counter() < deadline, "never held"
        await asyncio.sleep(0.01)


async def named_game(services: Services, variant: str = "turkish") -> GameRecord:
    """A game of alice (White) and bob, as the bot knows their names."""
    await services.stats.remember(ALICE, "alice")
    await services.stats.remember(BOB, "bob")
    return await start_game(services, variant, rated=False)


async def test_a_move_reaches_the_viewer_within_a_second_with_its_text(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await named_game(services)
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face, follow(face, record) as stream:
        first = await stream.event()
        assert first == {"id": "0", "event": "position", "data": {
            "ply": 0, "moves": [], "status": f"{isolate('alice')} to move (White).", "over": False}}
        started = time.perf_counter()
        await services.games.play(CHANNEL, ALICE, "a3-a4")
        moved = await stream.event()
        assert time.perf_counter() - started < WITHIN
        assert moved["id"] == "1"
        assert moved["data"] == {"ply": 1, "moves": [{"ply": 1, "text": "1. a3-a4"}],
                                 "status": f"{isolate('bob')} to move (Black).", "over": False}


async def test_the_stream_is_not_buffered_nor_cached(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face, follow(face, record) as stream:
        headers = stream.response.headers
        assert headers["Content-Type"] == "text/event-stream"
        assert headers["Cache-Control"] == "no-cache"
        assert headers["X-Accel-Buffering"] == "no"
        assert "Content-Security-Policy" in headers


async def test_moves_are_written_in_the_games_notation(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "italian")
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face, follow(face, record) as stream:
        await stream.event()
        await services.games.play(CHANNEL, ALICE, "21-17")
        moved = await stream.event()
        assert moved["data"]["moves"] == [{"ply": 1, "text": "1. 21-17"}]


async def test_a_client_gets_the_moves_after_the_ply_it_shows(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    for user, move in ((ALICE, "a3-a4"), (BOB, "h6-h5"), (ALICE, "b3-b4")):
        await services.games.play(CHANNEL, user, move)
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face:
        async with follow(face, record, since=1) as stream:
            first = await stream.event()
            assert first["id"] == "3"
            assert first["data"]["moves"] == [{"ply": 2, "text": "1... h6-h5"},
                                              {"ply": 3, "text": "2. b3-b4"}]
        async with follow(face, record, since=1, last_event_id=2) as stream:
            assert (await stream.event())["data"]["moves"] == [
                {"ply": 3, "text": "2. b3-b4"}]
        async with follow(face, record) as stream:
            assert len((await stream.event())["data"]["moves"]) == 3


async def test_the_stream_ends_with_the_game(open_services: OpenServices) -> None:
    services = await open_services()
    record = await named_game(services)
    await services.games.play(CHANNEL, ALICE, "a3-a4")
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face, follow(face, record, since=1) as stream:
        await stream.event()
        await services.games.resign(CHANNEL, BOB)
        last = await stream.event()
        assert last["data"] == {"ply": 1, "moves": [],
                                "status": f"{isolate('alice')} won (1-0): by resignation.",
                                "over": True}
        assert await stream.ended()
    assert feed.watchers.count() == 0


async def test_an_ended_games_stream_is_its_result_alone(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    await services.games.abort(CHANNEL, ALICE)
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face, follow(face, record) as stream:
        assert (await stream.event())["data"] == {
            "ply": 0, "moves": [], "status": "No result: aborted.", "over": True}
        assert await stream.ended()


async def test_the_polling_feed_carries_another_processes_moves(
        open_services: OpenServices, tmp_path: Path) -> None:
    services = await open_services(tmp_path / "shared.sqlite3")
    record = await start_game(services, "turkish")
    other = await Storage.open(tmp_path / "shared.sqlite3")
    try:
        feed = PollingFeed(other.games, interval=0.1)
        async with live_face(services, feed, storage=other) as face, \
                follow(face, record) as stream:
            await stream.event()
            started = time.perf_counter()
            await services.games.play(CHANNEL, ALICE, "a3-a4")
            assert (await stream.event())["data"]["moves"] == [
                {"ply": 1, "text": "1. a3-a4"}]
            assert time.perf_counter() - started < WITHIN
            await services.games.resign(CHANNEL, BOB)
            assert (await stream.event())["data"]["over"]
            assert await stream.ended()
    finally:
        await other.close()


async def test_a_quiet_stream_is_pinged(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    limits = LiveLimits(ping_seconds=0.05)
    async with live_face(services, feed, limits=limits) as face, \
            follow(face, record) as stream:
        await stream.event()
        assert await stream.block() == ": ping\n\n"


async def test_a_hidden_game_has_no_events_and_bad_plies_are_refused(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed) as face:
        unsigned = f"{face.base}/games/{record.id}/events"
        missing = f"{face.base}/games/{record.id + 1}/events"
        async with face.session.get(unsigned) as hidden, face.session.get(missing) as absent:
            assert hidden.status == absent.status == 404
            assert await hidden.text() == await absent.text()
        await set_web(services, GUILD, WebVisibility.OFF)
        async with face.session.get(face.events(record)) as off:
            assert off.status == 404
        await set_web(services, GUILD, WebVisibility.PUBLIC)
        for bad in ("?from=-1", "?from=x", "?from=1&from=2", "?from=9999999"):
            async with face.session.get(unsigned + bad) as refused:
                assert refused.status == 400, bad
        async with face.session.get(unsigned, headers={"Last-Event-ID": "1e3"}) as refused:
            assert refused.status == 400
    assert feed.watchers.count() == 0


async def test_viewers_are_bounded_per_address_and_in_all(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    limits = LiveLimits(viewers=3, viewers_per_address=2)
    async with live_face(services, feed, limits=limits) as face:
        async with follow(face, record) as one, follow(face, record) as two:
            await one.event()
            await two.event()
            async with face.session.get(face.events(record)) as third:
                assert third.status == 429 and "Retry-After" in third.headers
        await eventually(lambda: feed.watchers.count() == 0)
        async with follow(face, record) as again:  # the first two left: room again
            await again.event()
    crowded = LiveLimits(viewers=1, viewers_per_address=5)
    feed = BusFeed(services.composed.events, services.storage.games)
    async with live_face(services, feed, limits=crowded) as face, follow(face, record) as one:
        await one.event()
        async with face.session.get(face.events(record)) as second:
            assert second.status == 503 and "Retry-After" in second.headers
            assert "Too many viewers" in await second.text()


async def _churn(face: Face, record: GameRecord, cycles: int) -> None:
    """`cycles` viewers, each connecting, reading the first event and leaving."""
    for _ in range(cycles):
        async with follow(face, record) as stream:
            await stream.event()


async def test_a_thousand_viewers_leaving_leave_no_waiter(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    limits = LiveLimits(viewers_per_address=2)
    async with live_face(services, feed, limits=limits) as face:
        await _churn(face, record, 1000)
        await eventually(lambda: feed.watchers.count() == 0)
        handlers = (getattr(route.handler, "__self__", None)
                    for route in face.app.router.routes())
        events = next(owner for owner in handlers if isinstance(owner, LiveEvents))
        assert len(events.reads) == 0  # the game's shared read let go with its last viewer
        async with follow(face, record) as one, follow(face, record) as two:
            await one.event()
            await two.event()  # both admitted: every viewer that left was let go


async def test_without_handler_cancellation_a_viewer_gone_is_let_go_at_the_next_ping(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    feed = BusFeed(services.composed.events, services.storage.games)
    limits = LiveLimits(ping_seconds=0.05)
    async with live_face(services, feed, limits=limits, handler_cancellation=False) as face:
        for _ in range(3):
            await _churn(face, record, 10)
            await eventually(lambda: feed.watchers.count() == 0)
