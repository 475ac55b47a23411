"""Waiting for the computer under load (bot.computer with the queue of bot.computer_queue).

Run with ``make bench`` or ``python benchmarks/computer_queue.py`` from the repository
root (about 40 s on a 2-core machine).

32 level-5 requests arrive at once at a `ComputerPlayer` with two worker processes, as
32 `/play` games asking for the computer's move together (each its level's full budget,
2 s; positions: the four variants' start positions and positions 2 to 6 random plies in,
seeded). Wait: from the request to its answer, as the player sees it. Two policies in the
same run, on the same positions and the same pool size:

- before: `QueuePolicy.unbounded()`, first come first served, every search its full
  budget, nothing refused (the behaviour before the queue had a limit);
- after: the default `QueuePolicy.for_workers(2)` (budgets shrink to a fair share of the
  pool, never below 0.2 s; at most 32 waiting).

Then 64 requests at once under the default policy: how many are refused at once, the
wait each refused player is told (`ComputerBusyError.wait_seconds`) and how long the
accepted ones actually took, which is what the told wait estimates.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.computer import ComputerMove, ComputerPlayer
from bot.computer_queue import Admission, ComputerBusyError, QueuePolicy
from engine import Game, get_variant

VARIANT_KEYS = ("turkish", "arab", "moroccan", "italian")
LEVEL = 5
WORKERS = 2


@dataclass(frozen=True)
class Request:
    """One request: the variant and the FEN (with the earlier positions) to move in."""

    variant: str
    fen: str
    history: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What became of one request: its wait in seconds and the move (None: refused,
    `told` then holds the wait the player was told)."""

    wait: float
    move: ComputerMove | None
    told: int | None


def requests(count: int, seed: int) -> list[Request]:
    """`count` positions: each variant in turn, its start or 2 to 6 random plies in."""
    rng = random.Random(seed)
    found: list[Request] = []
    for i in range(count):
        key = VARIANT_KEYS[i % len(VARIANT_KEYS)]
        variant = get_variant(key)
        game = Game(variant)
        for _ in range(0 if i < len(VARIANT_KEYS) else rng.randint(2, 6)):
            moves = game.legal_moves()
            if not moves or game.is_over:
                break
            game.play(rng.choice(moves))
        positions = game.positions()
        found.append(Request(
            key, positions[-1].to_fen(variant),
            tuple(p.to_fen(variant) for p in positions[:-1]),
        ))
    return found


async def ask(computer: ComputerPlayer, request: Request, seed: int) -> Outcome:
    started = time.monotonic()
    try:
        move = await computer.think(
            request.fen, request.variant, LEVEL, history=request.history, seed=seed,
            admission=Admission.WHEN_ROOM,
        )
    except ComputerBusyError as error:
        return Outcome(time.monotonic() - started, None, error.wait_seconds)
    return Outcome(time.monotonic() - started, move, None)


async def burst(policy: QueuePolicy, batch: list[Request]) -> tuple[list[Outcome], float]:
    """All of `batch` at once on a fresh two-worker pool (started beforehand); returns the
    outcomes and the seconds until the last answer."""
    async with ComputerPlayer(WORKERS, policy=policy) as computer:
        await computer.start()
        started = time.monotonic()
        outcomes = await asyncio.gather(*(
            ask(computer, request, seed) for seed, request in enumerate(batch)
        ))
        return list(outcomes), time.monotonic() - started


@dataclass(frozen=True)
class Row:
    name: str
    served: int
    refused: int
    median: float
    worst: float
    per_second: float
    depth: float


def summarise(name: str, outcomes: list[Outcome], total: float) -> Row:
    served = [o for o in outcomes if o.move is not None]
    waits = [o.wait for o in served]
    depths = [o.move.depth for o in served if o.move is not None]
    return Row(
        name, len(served), len(outcomes) - len(served), statistics.median(waits),
        max(waits), len(served) / total, statistics.median(depths),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=32)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    batch = requests(args.requests, args.seed)
    rows: list[Row] = []
    before, before_total = asyncio.run(burst(QueuePolicy.unbounded(), batch))
    rows.append(summarise(f"before: {args.requests} at once, no shrink, no limit",
                          before, before_total))
    after, after_total = asyncio.run(burst(QueuePolicy.for_workers(WORKERS), batch))
    rows.append(summarise(f"after: {args.requests} at once, default policy",
                          after, after_total))
    double = requests(2 * args.requests, args.seed + 1)
    over, over_total = asyncio.run(burst(QueuePolicy.for_workers(WORKERS), double))
    rows.append(summarise(f"after: {2 * args.requests} at once, default policy",
                          over, over_total))

    print(f"level {LEVEL}, {WORKERS} worker processes, budget 2 s each")
    print("| run | served | refused | median wait | worst wait | moves/s | median depth |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r.name} | {r.served} | {r.refused} | {r.median:.2f} s | {r.worst:.2f} s "
              f"| {r.per_second:.1f} | {r.depth:g} |")
    b, a = rows[0], rows[1]
    print(f"ratio before/after: median wait {b.median / a.median:.1f}x, worst wait "
          f"{b.worst / a.worst:.1f}x, moves per second {a.per_second / b.per_second:.1f}x")
    told = [o.told for o in over if o.told is not None]
    if told:
        slowest = max(o.wait for o in over if o.told is not None)
        print(f"refused at once: {len(told)} requests, in {slowest:.3f} s "
              f"at most; told waits {min(told)}-{max(told)} s; the accepted ones' worst "
              f"wait was {rows[2].worst:.1f} s")


if __name__ == "__main__":
    main()
