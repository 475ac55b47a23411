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

from collections.abc import Callable

from engine import Position, get_variant, perft
from engine.movegen_core import generator
from engine.squares10 import fmjd_bitboard

# variant, our depth, pydraughts depth, pydraughts' name of the variant
CASES = (
    ("turkish", 6, 3, "turkish"),
    ("italian", 8, 3, "italian"),
    ("brazilian", 8, 3, "brazilian"),
    ("international", 7, 3, "standard"),
    ("russian", 8, 3, "russian"),
    ("english", 8, 3, "english"),
)


def _start_perft(key: str) -> Callable[[int], int]:
    """Perft from `key`'s start position by depth. International (10×10) is counted with
    the move generator on its bitboards directly."""
    variant = get_variant(key)
    if variant.board_size == 10:
        white, black = fmjd_bitboard(range(31, 51)), fmjd_bitboard(range(1, 21))
        return lambda depth: generator(variant).perft(white, 0, black, 0, 0, depth)
    start = Position.start(variant)
    return lambda depth: perft(start, variant, depth)


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
    for key, depth, their_depth, their_name in CASES:
        count = _start_perft(key)
        count(3)  # warm the generator's tables
        leaves, secs = _timed(count, depth, runs=3)
        rows.append((key, "dama-bot engine", depth, leaves, secs))
        if Board is not None:
            their_leaves, their_secs = _timed(
                _pydraughts_perft, Board(variant=their_name), their_depth
            )
            rows.append((key, "pydraughts 0.6.7", their_depth, their_leaves, their_secs))
            ratios.append((key, (leaves / secs) / (their_leaves / their_secs)))
    header = ("variant", "engine", "depth", "leaves", "seconds", "leaves/s")
    print("{:<13} {:<17} {:>5} {:>10} {:>8} {:>11}".format(*header))
    for key, name, depth, leaves, secs in rows:
        print(f"{key:<13} {name:<17} {depth:>5} {leaves:>10} {secs:>8.3f} {leaves / secs:>11,.0f}")
    for key, ratio in ratios:
        print(f"{key}: dama-bot engine is {ratio:,.0f} times as fast as pydraughts")


if __name__ == "__main__":
    main()
