"""The game pages under load: page loads, 1,000 live viewers, and the bot beside them.

Run with ``make bench`` or ``python benchmarks/web.py [--seconds 15] [--rate 50]
[--pages 200] [--viewers 1000]`` from the repository root. One process is the bot with
its web face beside it, as `DamaBot.setup_hook` runs them: the 200 games of
`benchmarks/bot.py` (its `Load`: a real SQLite file, every move's board rendered), a few
dozen finished rated games (their pages, pictures and the server's leaderboard), and the
web face (`bot.web.WebServer` on a loopback port, its live feed on the game service's
event bus, `bot.web.feeds.BusFeed`). The load comes from SEPARATE processes (this file run
with ``--client``), so the clients' work is not counted in the server's:

1. pages: an open loop (Poisson arrivals, `--pages` a second for `--seconds`) over a mix
   of a game page of a finished game (35%) and of one under way (20%), a board picture
   of a finished game at a random ply (25%) and of one under way at its last ply (15%),
   and the server's leaderboard (5%); each latency from the request's scheduled time to
   its body's last byte (p50, p99, max), and the statuses. The rate limits are set out of
   reach: every request comes from one address.
2. viewers: `--viewers` event streams (`GET <game>/events`) spread over `--watched` of
   the 200 games under way (all of them by default; 1: everyone on one game); the
   server's memory per viewer (its resident set before and after they connect, divided
   by their number), then, while the bot plays, the time from each move (its
   `TurnChanged` published after the commit) to each viewer's receipt of its event, and
   to the last viewer's (p50, p99; both processes read one monotonic clock).
3. the bot's move latency (`benchmarks/bot.py`'s open loop at `--rate` moves a second,
   its p99) without the viewers, with them, and without them again, in this one run; the
   ratio of the p99 with them to the mean of the two without (the two without tell the
   run's own noise).

Targets (docs/BENCHMARKS.md, "Game pages"): page p99 well under a second at 200 pages a
second; a move on every viewer's page within a second; the bot's move p99 unchanged (a
ratio near 1).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bot import GAMES, Load, open_loop, percentile, start_load
from bot.services import GameStart, StatsService
from bot.services.events import EventBus, GameEnded, TurnChanged
from bot.services.settings import PreferenceService
from bot.services.web_access import PageKind, WebAddress, WebSettings
from bot.web import WebServer
from bot.web.context import WebContext, make_context
from bot.web.feeds import BusFeed
from storage import ColorChoice, Eligibility, Seat
from storage.clock import utc_now

FINISHED = 40
"""Finished rated games whose pages are read (their leaderboard has their players)."""
GUILD = 1
"""The server of `benchmarks/bot.py`'s games."""
SECRET = "the benchmark's web secret, longer than thirty-two characters"

MIX = (("finished page", 35), ("running page", 20), ("finished board", 25),
       ("running board", 15), ("leaderboard", 5))
"""The kinds of request of the page load and their weights (percent)."""


# --- the server's side (this process) ---------------------------------------------------

async def finished_games(load: Load, count: int) -> list[int]:
    """`count` rated games of 20 to 60 random plies, each ended by a resignation."""
    ids = []
    for index in range(count):
        channel = 10_000 + index
        update = await load.games.start(GameStart(
            channel_id=channel, guild_id=GUILD, variant="turkish",
            first=Seat.human(900_000 + 2 * index), second=Seat.human(900_001 + 2 * index),
            color=ColorChoice.WHITE, rated=True,
        ))
        state = update.state
        for _ in range(load.rng.randrange(20, 60)):
            user, text = load.pick(channel)
            state = (await load.games.play(channel, user, text)).state
            if state.is_over:
                break
        if not state.is_over:
            assert state.to_move.user_id is not None
            await load.games.resign(channel, state.to_move.user_id)
        ids.append(update.state.game_id)
    return ids


async def serve(load: Load, bus: EventBus) -> tuple[WebServer, WebContext, BusFeed]:
    """The web face beside the bot's games, on a free loopback port, fed by `bus`."""
    feed = BusFeed(bus, load.storage.games)
    settings = WebSettings(address=WebAddress("127.0.0.1", 0), url="http://127.0.0.1",
                           secret=SECRET, rate=1e9, burst=10**9)
    context = await make_context(
        load.storage, StatsService(load.storage, load.games,
                                   eligibility=Eligibility(min_games=1, max_deviation=500)),
        PreferenceService(load.storage.settings), feed, settings, utc_now)
    server = WebServer(context)
    await server.start()
    return server, context, feed


def game_path(context: WebContext, game_id: int) -> str:
    return f"/games/{game_id}/{context.access.signer.token(PageKind.GAME, game_id)}"


def page_requests(context: WebContext, load: Load, finished: list[int]) -> dict[str, list[str]]:
    """The paths of each kind of the mix."""
    running = [load.games.current(channel) for channel in range(GAMES)]
    plies = {state.game_id: state.ply for state in running}
    finished_boards = [f"{game_path(context, game_id)}/board.png?ply={ply}"
                       for game_id in finished for ply in range(0, 20, 3)]
    board = f"/servers/{GUILD}/leaderboard"
    return {
        "finished page": [game_path(context, game_id) for game_id in finished],
        "running page": [game_path(context, state.game_id) for state in running],
        "finished board": finished_boards,
        "running board": [f"{game_path(context, game_id)}/board.png?ply={ply}"
                          for game_id, ply in plies.items()],
        "leaderboard": [f"{board}/{context.access.signer.token(PageKind.LEADERBOARD, GUILD)}"],
    }


def resident_bytes() -> int:
    """This process's resident set size now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def client(mode: str, spec: dict[str, Any], folder: str) -> asyncio.subprocess.Process:
    """This file run as a client process of `mode` ("pages" or "viewers") on `spec`
    (written to a file in `folder`)."""
    path = Path(folder) / f"{mode}.json"
    path.write_text(json.dumps(spec))
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--client", mode, str(path),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)


def summary(values: list[float]) -> str:
    ms = [value * 1000 for value in values]
    if not ms:
        return "none"
    return (f"p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms")


async def page_load(base: str, paths: dict[str, list[str]], rate: float,
                    seconds: float, folder: str) -> None:
    process = await client("pages", {"base": base, "paths": paths, "rate": rate,
                                     "seconds": seconds, "mix": MIX}, folder)
    out, _ = await process.communicate()
    result = json.loads(out)
    every = [latency for latencies in result["latencies"].values() for latency in latencies]
    print(f"pages: {len(every)} requests in {seconds:.0f} s at {rate:g}/s "
          f"from another process; statuses {result['statuses']}")
    print(f"  every request: {summary(every)}")
    for kind, latencies in result["latencies"].items():
        print(f"  {kind}: {summary(latencies)}")


class Published:
    """When each move's event was published (after its commit), by game and ply."""

    def __init__(self, bus: EventBus) -> None:
        self.at: dict[tuple[int, int], float] = {}
        bus.subscribe(TurnChanged, lambda event: self._note(event.state.game_id,
                                                            event.state.ply))
        bus.subscribe(GameEnded, lambda event: self._note(event.state.game_id,
                                                          event.state.ply))

    def _note(self, game_id: int, ply: int) -> None:
        self.at.setdefault((game_id, ply), time.monotonic())


async def bot_moves(load: Load, seconds: float, rate: float) -> list[float]:
    latencies, _ = await open_loop(load, seconds, rate)
    return latencies


async def with_viewers(load: Load, context: WebContext, feed: BusFeed, published: Published,
                       base: str, viewers: int, watched: int, seconds: float,
                       rate: float, folder: str) -> list[float]:
    """Connect `viewers` from another process, measure the memory they take, run the
    bot's open loop while they watch; the moves' latencies."""
    games = [load.games.current(channel).game_id for channel in range(min(watched, GAMES))]
    urls = [f"{base}{game_path(context, games[index % len(games)])}/events"
            for index in range(viewers)]
    gc.collect()
    before = resident_bytes()
    process = await client("viewers", {"urls": urls}, folder)
    assert process.stdout is not None and process.stdin is not None
    ready = await process.stdout.readline()
    assert ready.strip() == b"ready", ready
    await asyncio.sleep(1.0)
    gc.collect()
    after = resident_bytes()
    print(f"viewers: {feed.watchers.count()} event streams open from another process; "
          f"server memory {(after - before) / viewers / 1024:.1f} KiB a viewer "
          f"(resident set {before / 2**20:.0f} -> {after / 2**20:.0f} MiB)")
    latencies = await bot_moves(load, seconds, rate)
    await asyncio.sleep(1.0)  # the last moves' events on their way
    process.stdin.write(b"stop\n")
    await process.stdin.drain()
    out, _ = await process.communicate()
    result = json.loads(out)
    receipts = result["receipts"]
    if result["refused"]:
        print(f"  refused viewers, by status: {result['refused']}")
    delays = []
    last: dict[tuple[int, int], float] = {}
    for game_id, ply, at in receipts:
        sent = published.at.get((game_id, ply))
        if sent is None:
            continue
        delays.append(at - sent)
        last[(game_id, ply)] = max(last.get((game_id, ply), 0.0), at - sent)
    print(f"  a move to a viewer's page: {summary(delays)} ({len(delays)} events)")
    print(f"  a move to its last viewer's page: {summary(list(last.values()))} "
          f"({len(last)} moves)")
    return latencies


async def eventually_unwatched(feed: BusFeed) -> None:
    """Wait (at most 5 s) until the viewers' streams are closed on the server's side."""
    for _ in range(500):
        if feed.watchers.count() == 0:
            return
        await asyncio.sleep(0.01)


async def main_async(seconds: float, rate: float, pages: float, viewers: int,
                     watched: int, seed: int) -> None:
    rng = random.Random(seed)
    bus = EventBus()
    published = Published(bus)
    with tempfile.TemporaryDirectory() as folder:
        load = await start_load(folder, rng, events=bus)
        finished = await finished_games(load, FINISHED)
        server, context, feed = await serve(load, bus)
        base = f"http://127.0.0.1:{server.port}"
        try:
            await page_load(base, page_requests(context, load, finished), pages, seconds,
                            folder)
            before = await bot_moves(load, seconds, rate)
            during = await with_viewers(load, context, feed, published, base, viewers,
                                        watched, seconds, rate, folder)
            await eventually_unwatched(feed)
            after = await bot_moves(load, seconds, rate)
            print(f"bot moves at {rate:g}/s without viewers, before: {summary(before)}")
            print(f"bot moves at {rate:g}/s with {viewers} viewers: {summary(during)}")
            print(f"bot moves at {rate:g}/s without viewers, after: {summary(after)}")
            alone = (percentile(before, 0.99) + percentile(after, 0.99)) / 2
            print(f"  p99 with / without (the mean of before and after): "
                  f"{percentile(during, 0.99) / alone:.2f}")
        finally:
            await server.stop()
            await load.storage.close()
            await load.games.move_work.close()


# --- the clients' side (other processes) ------------------------------------------------

async def pages_client(spec: dict[str, Any]) -> dict[str, Any]:
    """The open loop of page requests; each kind's latencies and every status."""
    rng = random.Random(1)
    kinds = [kind for kind, _ in spec["mix"]]
    weights = [weight for _, weight in spec["mix"]]
    latencies: dict[str, list[float]] = {kind: [] for kind in kinds}
    statuses: Counter[int] = Counter()
    connector = aiohttp.TCPConnector(limit=512)
    async with aiohttp.ClientSession(spec["base"], connector=connector) as session:

        async def one(kind: str, path: str, due: float) -> None:
            async with session.get(path) as response:
                await response.read()
                statuses[response.status] += 1
            latencies[kind].append(time.monotonic() - due)

        tasks = set()
        start = time.monotonic()
        due = start
        while due < start + spec["seconds"]:
            due += rng.expovariate(spec["rate"])
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            kind = rng.choices(kinds, weights)[0]
            task = asyncio.create_task(one(kind, rng.choice(spec["paths"][kind]), due))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
    return {"latencies": latencies, "statuses": dict(statuses)}


VIEWERS_PER_ADDRESS = 10
"""Viewers that share one client address (127.0.x.y): the server bounds the streams of
one address (`bot.web.live.LiveLimits`), as it would a household's."""


async def viewers_client(spec: dict[str, Any]) -> dict[str, Any]:
    """Open every event stream (`VIEWERS_PER_ADDRESS` from each loopback address), say
    "ready", record each event after the first (game, ply, time) until told "stop"."""
    receipts: list[tuple[int, int, float]] = []
    urls = spec["urls"]
    connected = asyncio.Event()
    opened = 0
    refused: Counter[int] = Counter()

    async def view(session: aiohttp.ClientSession, url: str) -> None:
        nonlocal opened
        game_id = int(url.split("/games/")[1].split("/")[0])
        response = await session.get(url)
        opened += 1
        if opened == len(urls):
            connected.set()
        if response.status != 200:
            refused[response.status] += 1
            response.release()
            return
        first = True
        async for line in response.content:
            if line.startswith(b"id: "):
                if not first:
                    receipts.append((game_id, int(line[4:]), time.monotonic()))
                first = False

    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    sessions = []
    tasks = []
    for start in range(0, len(urls), VIEWERS_PER_ADDRESS):
        index = start // VIEWERS_PER_ADDRESS
        address = f"127.0.{1 + index // 250}.{1 + index % 250}"
        session = aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(
            limit=0, local_addr=(address, 0)))
        sessions.append(session)
        tasks += [asyncio.create_task(view(session, url))
                  for url in urls[start:start + VIEWERS_PER_ADDRESS]]
        await asyncio.sleep(0.01)  # connect gradually, as pages open
    await connected.wait()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for session in sessions:
        await session.close()
    return {"receipts": receipts, "refused": dict(refused)}


def run_client(mode: str, spec: dict[str, Any]) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runner = pages_client if mode == "pages" else viewers_client
    print(json.dumps(asyncio.run(runner(spec))), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="each open loop's duration")
    parser.add_argument("--rate", type=float, default=50.0, help="bot moves per second")
    parser.add_argument("--pages", type=float, default=200.0, help="pages per second")
    parser.add_argument("--viewers", type=int, default=1000, help="live viewers")
    parser.add_argument("--watched", type=int, default=GAMES,
                        help="the games under way they follow (at most 200)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--client", nargs=2, metavar=("MODE", "SPEC"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:
        return run_client(args.client[0], json.loads(Path(args.client[1]).read_text()))
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(main_async(args.seconds, args.rate, args.pages, args.viewers, args.watched,
                           args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
