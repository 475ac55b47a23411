"""Perft speed: this engine against pydraughts on the same start positions.

Run with ``make bench`` or ``python benchmarks/perft.py`` from the repository root.
Both engines count leaves with bulk counting at the last ply (the number of legal moves
of each position one ply before the end). pydraughts (the `draughts` package, 0.6.7) is
run at a shallow depth because it manages about a thousand leaves per second; its counts
can differ from ours deeper down because it lists one move per capture route.
Our time is the best of three runs, pydraughts' one run, both in CPU seconds. Prints one
table: variant, engine, depth, leaves, seconds, leaves per second, and the ratio of our
speed to pydraughts' speed per variant.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Position, get_variant, perft

CASES = (("turkish", 6, 3), ("italian", 8, 3))  # variant, our depth, pydraughts depth


def _pydraughts_perft(board: Any, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def _timed(fn: Any, *args: Any, runs: int = 1) -> tuple[int, float]:
    """Leaves and the best CPU seconds of `fn(*args)` over `runs` runs (CPU time of this
    process, which other load on the machine inflates less than wall-clock time)."""
    best = float("inf")
    leaves = 0
    for _ in range(runs):
        t0 = time.process_time()
        leaves = int(fn(*args))
        best = min(best, time.process_time() - t0)
    return leaves, best


def main() -> None:
    try:
        from draughts import Board
    except ImportError:  # pragma: no cover - the bench extra installs it
        Board = None
    rows: list[tuple[str, str, int, int, float]] = []
    ratios: list[tuple[str, float]] = []
    for key, depth, their_depth in CASES:
        variant = get_variant(key)
        start = Position.start(variant)
        perft(start, variant, 3)  # warm the generator's tables
        leaves, secs = _timed(perft, start, variant, depth, runs=3)
        rows.append((key, "dama-bot engine", depth, leaves, secs))
        if Board is not None:
            their_leaves, their_secs = _timed(_pydraughts_perft, Board(variant=key), their_depth)
            rows.append((key, "pydraughts 0.6.7", their_depth, their_leaves, their_secs))
            ratios.append((key, (leaves / secs) / (their_leaves / their_secs)))
    header = ("variant", "engine", "depth", "leaves", "seconds", "leaves/s")
    print("{:<9} {:<17} {:>5} {:>10} {:>8} {:>11}".format(*header))
    for key, name, depth, leaves, secs in rows:
        print(f"{key:<9} {name:<17} {depth:>5} {leaves:>10} {secs:>8.3f} {leaves / secs:>11,.0f}")
    for key, ratio in ratios:
        print(f"{key}: dama-bot engine is {ratio:,.0f} times as fast as pydraughts")


if __name__ == "__main__":
    main()
