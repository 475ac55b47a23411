"""Running at scale: databases and processes, memory and start-up with many active games.

Run with ``make bench`` or ``python benchmarks/scale.py [--games 1000] [--seconds 10]
[--postgres URL]`` from the repository root. Three measurements, in one run:

1. Game flow with `--games` concurrent games (default 1,000), one player per game moving
   as fast as answers come (closed loop) for `--seconds`, through the services (lock,
   parsing, the commit, the engine update; no board picture, which costs the same on
   every backend): moves per second and the p99 latency of a move, for SQLite in one
   process, PostgreSQL in one process, and PostgreSQL with two processes each playing
   half the games (as two shards would), all at the same time. Printed as ratios to
   SQLite in one process. On a machine with two shared cores the two-process figure
   shows the cost of the split, not a speed-up (both processes and PostgreSQL share the
   same two cores).
2. The memory one process holds for 0, 1,000 and 10,000 active games (what
   `GameService.restore` allocates and keeps, by `tracemalloc`: each active game is a
   `LiveGame`, its record and its engine game replayed from its moves).
3. Start-up: the time `GameService.restore` takes with 10,000 active games of a few moves
   each.

PostgreSQL: `--postgres URL` (an empty database you run; its tables are created), else a
temporary server started from the machine's binaries as the tests do
(`tests/support/postgres.py`); without either, the PostgreSQL rows are skipped with a
message.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bot.services import GameService, GameStart, PlayerError
from storage import ColorChoice, Seat, Storage

VARIANTS = ("turkish", "arab", "moroccan", "italian")
OPENING_PLIES = 4
"""Moves each game of the memory and start-up measurements has played."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def create_games(storage: Storage, count: int, first_channel: int, rng: random.Random,
                       *, plies: int = 0) -> None:
    """`count` active games in channels `first_channel`..., each with `plies` random moves
    (played through a GameService so they are stored as the bot stores them)."""
    games = GameService(storage)
    for channel in range(first_channel, first_channel + count):
        variant = engine.get_variant(VARIANTS[channel % len(VARIANTS)])
        await games.start(GameStart(
            channel_id=channel, guild_id=channel << 22, variant=variant.key,
            first=Seat.human(channel * 10 + 1), second=Seat.human(channel * 10 + 2),
            color=ColorChoice.WHITE, rated=True,
        ))
        for _ in range(plies):
            await play_one(games, channel, rng)


async def play_one(games: GameService, channel: int, rng: random.Random) -> float:
    """One random legal move in the channel's game; its latency in seconds."""
    state = games.current(channel)
    move = rng.choice(engine.legal_moves(state.position, state.variant))
    text = engine.format_move(move, state.position, state.variant)
    user = state.to_move.user_id
    assert user is not None
    start = time.perf_counter()
    with suppress(PlayerError):  # the game ended meanwhile: still timed
        await games.play(channel, user, text, announce=None)
    return time.perf_counter() - start


async def closed_loop(database: str, games: int, first_channel: int, seconds: float,
                      seed: int, go: asyncio.Event | None = None,
                      ready: Callable[[], None] | None = None) -> tuple[int, list[float]]:
    """Create `games` games, call `ready`, then (after `go`) play them as fast as answers come for
    `seconds`; returns the moves played and their latencies."""
    rng = random.Random(seed)
    storage = await Storage.open(database)
    try:
        await create_games(storage, games, first_channel, rng)
        service = GameService(storage)
        await service.restore()
        if ready is not None:
            ready()
        if go is not None:
            await go.wait()
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds

        async def player(channel: int) -> None:
            while time.perf_counter() < deadline:
                if not service.has_game(channel):
                    return  # ended by the rules: this game's player stops
                latencies.append(await play_one(service, channel, rng))

        await asyncio.gather(*(player(c) for c in range(first_channel, first_channel + games)))
        return len(latencies), latencies
    finally:
        await storage.close()


def worker_main(args: argparse.Namespace) -> int:
    """`--worker`: one process of the two-process run; prints its result as JSON."""

    async def run() -> tuple[int, list[float]]:
        go = asyncio.Event()
        loop = asyncio.get_running_loop()

        async def closed() -> tuple[int, list[float]]:
            return await closed_loop(args.worker, args.games, args.first_channel,
                                     args.seconds, args.seed, go,
                                     ready=lambda: print("ready", flush=True))

        async def wait_for_go() -> None:
            await loop.run_in_executor(None, sys.stdin.readline)
            go.set()

        waiting = asyncio.create_task(wait_for_go())
        result = await closed()
        await waiting
        return result

    moves, latencies = asyncio.run(run())
    print(json.dumps({"moves": moves, "latencies": latencies}), flush=True)
    return 0


def two_processes(database: str, games: int, seconds: float, seed: int) -> tuple[int, list[float]]:
    """Two worker processes, each with half the games, measured at the same time."""
    half = games // 2
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", database, "--games", str(half),
             "--first-channel", str(1 + index * half + 10_000_000), "--seconds", str(seconds),
             "--seed", str(seed + index)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for index in range(2)
    ]
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("a worker did not start")
    # Both have created their games ("ready"): start them together.
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    moves, latencies = 0, []
    for proc in procs:
        out, _ = proc.communicate(timeout=seconds + 600)
        result = json.loads(out.strip().splitlines()[-1])
        moves += result["moves"]
        latencies.extend(result["latencies"])
    return moves, latencies


@contextmanager
def postgres(url: str | None) -> Iterator[tuple[str | None, str]]:
    """A PostgreSQL URL factory: (URL or None, why not)."""
    if url:
        yield url, ""
        return
    try:
        from tests.support.postgres import (  # type: ignore[import-not-found,unused-ignore]
            PostgresServer,
            find_binaries,
        )
    except ImportError:
        yield None, "this tree has no PostgreSQL test server (tests/support/postgres.py)"
        return
    binaries = find_binaries()
    if binaries is None:
        yield None, "no PostgreSQL binaries here; give --postgres URL"
        return
    server = PostgresServer.start(binaries)
    try:
        yield server.url("postgres"), ""
    finally:
        server.stop()


async def fresh_postgres(base: str, name: str) -> str:
    """A new, empty schema of the database at `base` (search_path in the URL)."""
    import asyncpg  # type: ignore[import-not-found,unused-ignore]

    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{base}{'&' if '?' in base else '?'}search_path={name}"


async def memory_and_startup(folder: Path, seed: int) -> None:
    rng = random.Random(seed)
    database = str(folder / "many.sqlite3")
    storage = await Storage.open(database)
    rows = []
    created = 0
    try:
        for active in (0, 1_000, 10_000):
            await create_games(storage, active - created, created + 1, rng, plies=OPENING_PLIES)
            created = active
            service = GameService(storage)
            start = time.perf_counter()
            count = len(await service.restore())
            took = time.perf_counter() - start
            del service
            gc.collect()
            # Memory: what one more restore allocates and keeps (tracemalloc: Python's own
            # allocations, so freed memory the allocator keeps does not blur the figure).
            tracemalloc.start()
            service = GameService(storage)
            await service.restore()
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] / 1e6
            tracemalloc.stop()
            rows.append((active, count, held, took))
            del service
            gc.collect()
    finally:
        await storage.close()
    print(f"memory and start-up (SQLite, games of {OPENING_PLIES} moves):")
    for active, restored, grown, took in rows:
        per = f", {grown * 1e3 / active:.1f} kB per game" if active else ""
        print(f"  {active:6d} active games: restored {restored} in {took:.2f} s, "
              f"holding {grown:.1f} MB{per}")


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        results: list[tuple[str, int, list[float]]] = []
        sqlite = str(Path(folder) / "flow.sqlite3")
        results.append(("SQLite, one process",
                        *await closed_loop(sqlite, args.games, 1, args.seconds, args.seed)))
        with postgres(args.postgres) as (base, why):
            if base is None:
                print(f"(PostgreSQL rows skipped: {why})")
            else:
                one = await fresh_postgres(base, "bench_one")
                results.append(("PostgreSQL, one process",
                                *await closed_loop(one, args.games, 1, args.seconds,
                                                   args.seed)))
                two = await fresh_postgres(base, "bench_two")
                moves, latencies = await asyncio.to_thread(two_processes, two, args.games,
                                                           args.seconds, args.seed)
                results.append(("PostgreSQL, two processes", moves, latencies))
        base_rate = results[0][1] / args.seconds
        base_p99 = percentile(results[0][2], 0.99)
        print(f"game flow: {args.games} concurrent games, closed loop for {args.seconds:g} s, "
              f"{os.cpu_count()} CPUs (no board pictures)")
        for name, moves, latencies in results:
            rate = moves / args.seconds
            p99 = percentile(latencies, 0.99) * 1000
            print(f"  {name:27s} {rate:7.0f} moves/s ({rate / base_rate:4.2f}x), "
                  f"p50 {statistics.median(latencies) * 1000:6.1f} ms, p99 {p99:7.1f} ms "
                  f"({p99 / (base_p99 * 1000):4.2f}x)")
        await memory_and_startup(Path(folder), args.seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--first-channel", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker_main(args)
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
