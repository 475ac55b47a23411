"""Analysis speed: the time to review a 60-ply game per variant at the default budget.

Run with ``make bench`` or ``python benchmarks/analysis.py`` from the repository root.

The game of each variant is 60 plies of the search at level 3 (depth 3, seeded) playing
both sides from the start, so the positions are those of a real, if modest, game. The
analysis is that of `engine.analysis.analyse_here`: every one of the 61 positions searched with
`DEFAULT_NODES` positions, one after the other in this process, as one of the bot's
worker processes does it (the bot hands the positions to its pool one at a time, so on a
free machine an analysis takes this long; with live games it waits for their moves).
Timed in CPU time of this process, so other load on the machine does not distort it.

Prints per variant: plies, CPU seconds for the whole game, milliseconds per position,
thousands of positions searched per second, and the judgements found.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Move, Position, apply_move, get_variant
from engine.analysis import DEFAULT_NODES, Judgement, analyse, review_position, review_tasks
from engine.search import search

PLIES = 60
VARIANTS = ("turkish", "arab", "moroccan", "italian")
PLURAL = {Judgement.INACCURACY: "inaccuracies", Judgement.MISTAKE: "mistakes",
          Judgement.BLUNDER: "blunders"}


def sample_game(key: str, plies: int = PLIES) -> list[Move]:
    """Up to `plies` moves of the level-3 search against itself (seeded, depth 3)."""
    variant = get_variant(key)
    position = Position.start(variant)
    moves: list[Move] = []
    for ply in range(plies):
        result = search(position, variant, level=3, depth=3, seed=ply)
        if result.move is None:
            break
        moves.append(result.move)
        position = apply_move(position, result.move, variant)
    return moves


def main() -> int:
    print(f"analysis of a {PLIES}-ply game, {DEFAULT_NODES:,} positions searched per position")
    print(f"{'variant':9} {'plies':>5} {'CPU s':>7} {'ms/pos':>7} {'kpos/s':>7}  judgements")
    for key in VARIANTS:
        variant = get_variant(key)
        moves = sample_game(key)
        start = Position.start(variant)
        began = time.process_time()
        reviews = [
            review_position(t.position, variant, history=t.history,
                            no_progress_plies=t.no_progress_plies)
            for t in review_tasks(variant, start, moves)
        ]
        analysis = analyse(variant, start, moves, reviews)
        spent = time.process_time() - began
        positions = len(reviews)
        judged = analysis.judged()
        counts = ", ".join(
            f"{sum(1 for p in judged if p.judgement is j)} {PLURAL[j]}" for j in Judgement
        )
        searched = sum(r.nodes for r in reviews)
        print(f"{key:9} {len(moves):5d} {spent:7.1f} {1000 * spent / positions:7.0f} "
              f"{searched / spent / 1000:7.1f}  {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
