"""Puzzle mining speed by the material criterion (`puzzles.mining`), per variant, on the
self-play games the mining command mines.

Run with ``make bench`` or ``python benchmarks/mining.py`` from the repository root
(``--games N`` games per variant, default 3).

Each variant mines the self-play games (level 2) from the first seed of its own block
(`puzzles.cli.FIRST_SEED`: Turkish 0, Arab 100000, Moroccan 200000, Italian 300000)
with the node budget the banks are mined with. Timed in CPU time of this process, so
other load on the machine does not distort it. Prints per variant: the seeds, CPU
seconds, the puzzles found, the candidates skipped over the node budget, and puzzles
per CPU minute.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Position, get_variant
from puzzles.cli import FIRST_SEED, self_play_positions
from puzzles.mining import MiningSettings, mine_game

NODE_BUDGET = 2_000_000


def run(games: list[list[Position]], key: str) -> tuple[float, int, int]:
    """CPU seconds, puzzles found and candidates skipped over the budget for `games`."""
    variant = get_variant(key)
    settings = MiningSettings()
    found = skipped = 0
    began = time.process_time()
    for positions in games:
        over: list[int] = []
        found += len(mine_game(positions, variant, settings, node_budget=NODE_BUDGET,
                               skipped=over))
        skipped += len(over)
    return time.process_time() - began, found, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per variant (default 3)")
    args = parser.parse_args()
    print(f"mining {args.games} self-play games per variant, node budget {NODE_BUDGET:,}")
    print(f"{'variant':9} {'seeds':>13} {'cpu s':>7} {'found':>6} {'skipped':>8} "
          f"{'per min':>8}")
    for key, first in FIRST_SEED.items():
        variant = get_variant(key)
        seeds = range(first, first + args.games)
        games = [self_play_positions(variant, 2, seed) for seed in seeds]
        seconds, found, skipped = run(games, key)
        print(f"{key:9} {f'{seeds.start}-{seeds.stop - 1}':>13} {seconds:7.1f} {found:6} "
              f"{skipped:8} {60 * found / max(seconds, 1e-9):8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
