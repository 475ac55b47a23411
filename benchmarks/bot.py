"""The bot's game flow under load: 200 concurrent games through the services.

Run with ``make bench`` or ``python benchmarks/bot.py [--seconds 30] [--rate 50]`` from the
repository root. Everything a move costs on our side is included: the per-channel lock,
parsing and validation, the SQLite commit (a real database file, the bot's durability),
the engine update, the board picture (512 px PNG, rendered in a worker thread as the bot
does) and recording the new board message id; only the HTTP upload to Discord is not.

Two runs:
1. open loop: moves arrive at random (Poisson, `--rate` per second in all) in random games
   for `--seconds`; per-move latency from arrival to answered (p50, p99, max) and the event
   loop's lag (a 10 ms ticker measures how late it wakes: max and p99);
2. closed loop: one player per game moving as fast as answers come, for `--seconds / 3`:
   the most moves per second the flow sustains on this machine.

Targets (docs/ARCHITECTURE.md, "Targets"): p99 under 100 ms at 50 moves/s with rendering, no
loop stall over 50 ms.
As the bot does at start-up, the renderer is warmed, the heap frozen (`freeze_heap`) and
the GIL's switch interval shortened (`share_the_interpreter`) before measuring.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bot.client import freeze_heap, share_the_interpreter
from bot.move_work import STATE_BUDGET, MoveWork
from bot.services import GameService, GameStart, GameUpdate, PlayerError
from bot.services.events import EventBus
from bot.ui.present import Presenter
from storage import ColorChoice, Seat, Storage

GAMES = 200
VARIANTS = ("turkish", "arab", "moroccan", "italian")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


class LagMonitor:
    """Measures how late a 10 ms ticker wakes up (the event loop's stalls)."""

    def __init__(self, period: float = 0.01) -> None:
        self.period = period
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.period)
            self.lags.append(time.perf_counter() - start - self.period)

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class Load:
    """200 channels, each with a game; players are 2 users per channel."""

    def __init__(self, storage: Storage, games: GameService, presenter: Presenter,
                 rng: random.Random) -> None:
        self.storage = storage
        self.games = games
        self.presenter = presenter
        self.rng = rng
        self.message_ids = count(1)
        self.finished = 0

    async def new_game(self, channel: int) -> None:
        variant = engine.get_variant(self.rng.choice(VARIANTS))
        await self.games.start(GameStart(
            channel_id=channel, guild_id=1, variant=variant.key,
            first=Seat.human(channel * 10 + 1), second=Seat.human(channel * 10 + 2),
            color=ColorChoice.WHITE, rated=True,
        ))

    async def announce(self, update: GameUpdate) -> int:
        await self.presenter.board_png(update.state)
        return next(self.message_ids)

    def pick(self, channel: int) -> tuple[int, str]:
        """The player to move in the channel's game and a random legal move's text."""
        state = self.games.current(channel)
        moves = engine.legal_moves(state.position, state.variant)
        move = self.rng.choice(moves)
        user = state.to_move.user_id
        assert user is not None
        return user, engine.format_move(move, state.position, state.variant)

    async def move(self, channel: int) -> float:
        """One move in the channel; returns its latency in seconds."""
        user, text = self.pick(channel)
        start = time.perf_counter()
        try:
            update = await self.games.play(channel, user, text, announce=self.announce)
        except PlayerError:
            return time.perf_counter() - start  # a race with another arrival; still timed
        elapsed = time.perf_counter() - start
        if update.state.is_over:
            self.finished += 1
            await self.new_game(channel)
        return elapsed


async def open_loop(load: Load, seconds: float, rate: float) -> tuple[list[float], LagMonitor]:
    latencies: list[float] = []
    pending: set[asyncio.Task[None]] = set()
    monitor = LagMonitor()
    monitor.start()

    async def one(channel: int) -> None:
        latencies.append(await load.move(channel))

    deadline = time.perf_counter() + seconds
    next_at = time.perf_counter()
    while next_at < deadline:
        next_at += load.rng.expovariate(rate)
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        task = asyncio.create_task(one(load.rng.randrange(GAMES)))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await asyncio.gather(*pending)
    await monitor.stop()
    return latencies, monitor


async def closed_loop(load: Load, seconds: float) -> int:
    done = 0
    deadline = time.perf_counter() + seconds

    async def player(channel: int) -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await load.move(channel)
            done += 1

    await asyncio.gather(*(player(channel) for channel in range(GAMES)))
    return done


async def start_load(folder: str, rng: random.Random, state_budget: int = STATE_BUDGET,
                     events: EventBus | None = None) -> Load:
    """The 200 games in a new database in `folder`, started as the bot starts: renderer
    caches warm, then the heap frozen (DamaBot.setup_hook), the interpreter shared with
    worker threads (bot.app.run). `state_budget`: the move work's (`bot.move_work`);
    `events`: the game service's event bus (default: its own). The caller closes
    `load.storage` and `load.games.move_work`."""
    storage = await Storage.open(Path(folder) / "bench.sqlite3")
    work = MoveWork(state_budget)  # as the bot wires it (DamaBot.setup_hook)
    load = Load(storage, GameService(storage, move_work=work, events=events),
                Presenter(board_size=512, move_work=work), rng)
    for channel in range(GAMES):
        await load.new_game(channel)
    await load.presenter.warm()
    await work.warm()
    freeze_heap()
    share_the_interpreter()
    return load


async def main_async(seconds: float, rate: float, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        load = await start_load(folder, rng)
        latencies, monitor = await open_loop(load, seconds, rate)
        ms = [x * 1000 for x in latencies]
        lags = [x * 1000 for x in monitor.lags]
        print(f"open loop: {len(ms)} moves in {seconds:.0f} s at {rate:g}/s over {GAMES} games "
              f"({load.finished} games finished and restarted)")
        print(f"  latency per move: p50 {statistics.median(ms):.1f} ms, "
              f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
        print(f"  event-loop lag: p99 {percentile(lags, 0.99):.1f} ms, max {max(lags):.1f} ms")
        closed_seconds = max(3.0, seconds / 3)
        moves = await closed_loop(load, closed_seconds)
        print(f"closed loop: {moves} moves in {closed_seconds:.0f} s = "
              f"{moves / closed_seconds:.0f} moves/s sustained (one player per game, 200 games)")
        await load.storage.close()
        await load.games.move_work.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=30.0, help="open-loop duration")
    parser.add_argument("--rate", type=float, default=50.0, help="moves per second in all")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.seconds, args.rate, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
