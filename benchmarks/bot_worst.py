"""One heavy position must not slow every game: the worst known positions played through
the bot's services beside 200 other games.

Run with ``make bench`` or ``python benchmarks/bot_worst.py [--seconds 15] [--rate 50]``
from the repository root. The 200 games are those of `benchmarks/bot.py` (random moves at
`--rate` per second in all, each answered with its board picture, a real SQLite file). One
run, two phases of `--seconds` each:

1. without: only the 200 games;
2. with: the same, and every `--every` seconds one heavy game in a channel of its own is
   started from a set-up position and its heavy move is played as a player would: the
   `/move` autocomplete (`suggestion_source` and `suggest_moves` in a worker thread, as
   the Play cog does), the move itself (`GameService.play`, announced with its board
   picture), then a resignation to free the channel. The positions alternate:
   - ``W:WKd2:Bb2,e2,a3,d3,g3,e4,c5,f5,b6,d6,g6,h6,a7,e7,Kb8,Kf8`` (Turkish), ``d2xa1``:
     the most capture routes found (611,570 routes for 63 legal moves);
   - ``B:WKc8:Be2,a3,c3,b4,a5,h5,b6,c7,g7,Kb2,Kf3,Kd4,Kg4,Ke5,Kf6,Kb7`` (Turkish),
     ``d4-d1``: a quiet move into such a position.

Reported per phase: the event loop's lag (a 10 ms ticker: p99, max) and the other games'
latency per move (p50, p99, max); and the heavy moves' own times. Goal
(docs/ARCHITECTURE.md, "Targets"): lag under 100 ms with the heavy moves, the other games'
p99 unchanged. As the bot does, the heap is frozen and the GIL's switch interval shortened
(`bot.client.share_the_interpreter`); `--switch-interval 0.005` measures Python's default.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.bot import GAMES, Load, open_loop, percentile, start_load
from bot.move_work import STATE_BUDGET
from bot.services import GameService, GameStart
from bot.services.move_text import suggest_moves
from storage import ColorChoice, Seat


@dataclass(frozen=True)
class Heavy:
    """A set-up position (Turkish) and the move played in it."""

    name: str
    fen: str
    move: str


HEAVY = (
    Heavy("worst capture", "W:WKd2:Bb2,e2,a3,d3,g3,e4,c5,f5,b6,d6,g6,h6,a7,e7,Kb8,Kf8",
          "d2xa1"),
    Heavy("quiet move into it",
          "B:WKc8:Be2,a3,c3,b4,a5,h5,b6,c7,g7,Kb2,Kf3,Kd4,Kg4,Ke5,Kf6,Kb7", "d4-d1"),
)

HEAVY_CHANNEL = 10_000
WHITE_USER, BLACK_USER = 900_001, 900_002


@dataclass
class Phase:
    """What one phase measured (milliseconds)."""

    latencies: list[float]
    lags: list[float]


async def background(load: Load, seconds: float, rate: float) -> Phase:
    """The 200 games' open loop of `benchmarks/bot.py` for `seconds`."""
    latencies, monitor = await open_loop(load, seconds, rate)
    return Phase([x * 1000 for x in latencies], [x * 1000 for x in monitor.lags])


async def play_heavy(load: Load, games: GameService, heavy: Heavy) -> tuple[float, float]:
    """Start a game at `heavy.fen`, ask for the autocomplete and play `heavy.move` as the
    Play cog does; resign to free the channel. Returns the seconds of the autocomplete and
    of the move (answered with its board picture)."""
    variant = engine.get_variant("turkish")
    position = engine.Position.from_fen(heavy.fen, variant)
    await games.start(GameStart(
        channel_id=HEAVY_CHANNEL, guild_id=1, variant=variant.key,
        first=Seat.human(WHITE_USER), second=Seat.human(BLACK_USER), color=ColorChoice.WHITE,
        start_fen=position.to_fen(variant),
    ))
    user = WHITE_USER if position.turn is engine.Color.WHITE else BLACK_USER
    start = time.perf_counter()
    source = games.suggestion_source(HEAVY_CHANNEL, user)
    assert source is not None
    choices = await games.move_work.run([source[:2]], suggest_moves, *source, heavy.move[:2])
    assert choices, "the heavy move's start square has moves"
    suggested = time.perf_counter() - start
    start = time.perf_counter()
    update = await games.play(HEAVY_CHANNEL, user, heavy.move, announce=load.announce)
    played = time.perf_counter() - start
    if not update.state.is_over:
        await games.resign(HEAVY_CHANNEL, BLACK_USER if user == WHITE_USER else WHITE_USER)
    return suggested, played


async def heavy_loop(load: Load, games: GameService, seconds: float, every: float
                     ) -> dict[str, list[tuple[float, float]]]:
    times: dict[str, list[tuple[float, float]]] = {h.name: [] for h in HEAVY}
    deadline = time.perf_counter() + seconds
    index = 0
    while time.perf_counter() + every < deadline:
        await asyncio.sleep(every)
        heavy = HEAVY[index % len(HEAVY)]
        index += 1
        times[heavy.name].append(await play_heavy(load, games, heavy))
    return times


def row(name: str, phase: Phase) -> str:
    ms, lags = phase.latencies, phase.lags
    return (f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {percentile(ms, 0.99):.1f} "
            f"| {max(ms):.1f} | {percentile(lags, 0.99):.1f} | {max(lags):.1f} |")


async def main_async(
    seconds: float, rate: float, every: float, seed: int, switch: float | None,
    state_budget: int = STATE_BUDGET,
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        load = await start_load(folder, rng, state_budget)
        games = load.games
        if switch is not None:
            sys.setswitchinterval(switch)
        without = await background(load, seconds, rate)
        heavy_task = asyncio.create_task(heavy_loop(load, games, seconds, every))
        with_heavy = await background(load, seconds, rate)
        times = await heavy_task
        await load.storage.close()
        in_process = games.move_work.in_process_calls
        await games.move_work.close()
    print(f"{GAMES} games at {rate:g} moves/s, {seconds:.0f} s per phase; heavy moves every "
          f"{every:g} s in the second phase; GIL switch interval "
          f"{sys.getswitchinterval() * 1000:g} ms; move-work state budget {state_budget:,} "
          "(milliseconds)")
    print()
    print("| phase | other games' moves | p50 | p99 | max | loop lag p99 | loop lag max |")
    print("|---|---|---|---|---|---|---|")
    print(row("without heavy moves", without))
    print(row("with heavy moves", with_heavy))
    print(f"calls run in the move-work process: {in_process}")
    print()
    print("| heavy move | played | autocomplete (median, max) | move answered (median, max) |")
    print("|---|---|---|---|")
    for heavy in HEAVY:
        found = times[heavy.name]
        if not found:
            continue
        suggest = [s * 1000 for s, _ in found]
        played = [p * 1000 for _, p in found]
        print(f"| {heavy.name} `{heavy.move}` | {len(found)} | "
              f"{statistics.median(suggest):.0f}, {max(suggest):.0f} | "
              f"{statistics.median(played):.0f}, {max(played):.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    parser.add_argument("--rate", type=float, default=50.0, help="moves per second in all")
    parser.add_argument("--every", type=float, default=1.0,
                        help="seconds between heavy moves in the second phase")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="GIL switch interval in seconds (default: the bot's)")
    parser.add_argument("--state-budget", type=int, default=STATE_BUDGET,
                        help="capture states past which move work runs in the worker "
                             "process (default: the bot's; 1000000000: always in threads)")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.seconds, args.rate, args.every, args.seed,
                           args.switch_interval, args.state_budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
