"""Puzzle mining speed: the exact scoring (every move of a candidate scored by its own full
search, `MiningSettings(exact_scores=True)`, the reference) against the threshold
questions the mining command uses (null-window searches, the default), on the same
self-play games, per variant.

Run with ``make bench`` or ``python benchmarks/mining.py`` from the repository root
(about three minutes of CPU; ``--games N`` for more or fewer games per variant).

Each variant mines the same self-play games (level 2, the mining command's seeds: Turkish
from 67, Arab from 100000, the others from 0) with `--node-budget 300000`, as the banks
are mined, once each way. Timed in CPU time of this process, so other load on the machine
does not distort it. Prints per variant: CPU seconds each way and their ratio, the
puzzles found and the candidates skipped over the node budget each way (the threshold
questions cost fewer nodes, so fewer candidates go over the budget and more are found).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Position, get_variant
from puzzles.cli import self_play_positions
from puzzles.mining import MiningSettings, mine_game

FIRST_SEED = {"turkish": 67, "arab": 100000, "moroccan": 0, "italian": 0}
NODE_BUDGET = 300_000


def run(games: list[list[Position]], key: str, exact: bool) -> tuple[float, int, int]:
    """CPU seconds, puzzles found and candidates skipped over the budget for `games`."""
    variant = get_variant(key)
    settings = MiningSettings(exact_scores=exact)
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
    print(f"{'variant':9} {'seeds':>13} {'exact s':>8} {'bounded s':>9} {'ratio':>6} "
          f"{'found':>7} {'skipped':>8}")
    for key, first in FIRST_SEED.items():
        variant = get_variant(key)
        seeds = range(first, first + args.games)
        games = [self_play_positions(variant, 2, seed) for seed in seeds]
        exact_s, exact_found, exact_skipped = run(games, key, exact=True)
        bounded_s, bounded_found, bounded_skipped = run(games, key, exact=False)
        print(f"{key:9} {f'{seeds.start}-{seeds.stop - 1}':>13} {exact_s:8.1f} "
              f"{bounded_s:9.1f} {exact_s / bounded_s:6.2f} "
              f"{f'{exact_found}->{bounded_found}':>7} "
              f"{f'{exact_skipped}->{bounded_skipped}':>8}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
