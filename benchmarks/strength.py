"""Playing strength and speed of the computer player (engine.search).

Run with ``make bench`` or ``python benchmarks/strength.py`` from the repository root
(7.9 minutes on a 2-core machine when it played four variants; the eight, with the
minimax's games, take more than twice that, and more under load); ``--quick`` plays a
short version for a smoke check.

Matches, per variant of `engine.VARIANTS`: level 5 against a random mover (target: every
game won), level 5 against a greedy one-ply player (target: at least 90% of the points),
each level against the level below (target: at least 65%), and, in the four games
pydraughts implements (International, Brazilian, Russian, English checkers), level 5
against a simple minimax over pydraughts' move generation that shares no code with
`engine/` (`benchmarks/pydraughts_minimax.py`; 20 games, target: every game won), and the
same with ten times level 5's budget for the minimax (8 games, target: at least 90%). Each
pairing plays from varied openings (2 to 4 random plies from the start position, seeded),
each opening twice with colours swapped, every computer move (the minimax's too, but in
the odds pairing) with the same short time budget (default 0.1 s of the process's CPU
time, so that the machine's load does not change the games: the search is then stopped by
a CPU deadline, so it may start an iteration after 45% of its budget, which its wall-time
budget does not; `--clock wall` measures wall time instead; levels 1 to 4 also stop at
their depth). Games use `engine.Game`, so its draw rules end them; a game still going at
200 plies is adjudicated a draw. Every game the subject does not win is printed in PDN.
Points: win 1, draw 1/2; the interval is the 95% Wilson score interval on the points share
(draws counted as half a win, an approximation). Games run in parallel on every core.

Speed: level 5 with a full budget (default 2 s) on a few positions per variant (start and
middle-game positions reached by seeded random play), one search at a time: nodes per
second, and the p99 and maximum move time against the budget.
"""

from __future__ import annotations

import argparse
import enum
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import assert_never

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.pydraughts_minimax import PYDRAUGHTS_NAMES, choose_move
from engine import VARIANTS, Color, Game, Move, Position, Variant, get_variant
from engine.evaluation import weights_for
from engine.movegen import play_unchecked
from engine.pdn_export import export_pdn
from engine.search import search

VARIANT_KEYS = tuple(VARIANTS)
MOVE_CAP = 200  # plies; a game still going is adjudicated a draw
Z95 = 1.959964


class Clock(enum.Enum):
    """What a move's time budget counts."""

    CPU = "cpu"  # the process's CPU time (time.process_time)
    WALL = "wall"  # elapsed time (the search's own deadline)


@dataclass(frozen=True)
class Pairing:
    """`subject` plays `opponent`; the points are counted for `subject`. Players: "random",
    "greedy", "minimax" (`benchmarks.pydraughts_minimax`) or a level "1".."5"."""

    subject: str
    opponent: str
    target: float  # points share the subject should reach (1.0 = every game won)
    games: int = 12  # games per variant unless --games says otherwise
    odds: int = 1  # the opponent's budget is this many times the subject's

    @property
    def name(self) -> str:
        def label(p: str) -> str:
            return p if p in ("random", "greedy", "minimax") else f"level {p}"

        odds = f" {self.odds}x" if self.odds != 1 else ""
        return f"{label(self.subject)} vs {label(self.opponent)}{odds}"

    def plays(self, variant_key: str) -> bool:
        """Whether the pairing is played in the variant `variant_key` (the minimax plays
        only the variants pydraughts implements)."""
        return "minimax" not in (self.subject, self.opponent) or variant_key in PYDRAUGHTS_NAMES


PAIRINGS = (
    Pairing("5", "random", 1.0),
    Pairing("5", "greedy", 0.9),
    Pairing("2", "1", 0.65),
    Pairing("3", "2", 0.65),
    Pairing("4", "3", 0.65),
    Pairing("5", "4", 0.65),
    Pairing("5", "minimax", 1.0, games=20),
    Pairing("5", "minimax", 0.9, games=8, odds=10),
)


@dataclass(frozen=True)
class GameTask:
    variant: str
    pairing: int
    opening: int
    subject_white: bool
    budget: float
    clock: Clock = Clock.CPU


@dataclass(frozen=True)
class GameResult:
    variant: str
    pairing: int
    points: float  # for the subject: 1, 0.5 or 0
    plies: int
    subject_cpu: float  # CPU seconds of the subject's moves, summed
    subject_moves: int
    opponent_cpu: float
    opponent_moves: int
    subject_depth: float  # mean depth completed over the subject's moves with a choice
    opponent_depth: float  # the same for the opponent (random 0, greedy 1)
    pdn: str  # the game in PDN when the subject did not win it, else ""


def _opening(variant: Variant, index: int) -> list[Move]:
    """2 to 4 random plies from the start (seeded by the variant and `index`)."""
    rng = random.Random(f"opening/{variant.key}/{index}")
    game = Game(variant)
    plies = rng.randint(2, 4)
    played: list[Move] = []
    while len(played) < plies and game.outcome is None:
        move = rng.choice(game.legal_moves())
        game.play(move)
        played.append(move)
    return played


def _material(position: Position, variant: Variant, color: Color) -> int:
    w = weights_for(variant)
    own = position.men(color).bit_count() * w.man + position.kings(color).bit_count() * w.king
    other = color.opponent
    theirs = position.men(other).bit_count() * w.man + position.kings(other).bit_count() * w.king
    return own - theirs


@dataclass(frozen=True)
class CpuDeadline:
    """A stop signal for `engine.search`: set once this process's CPU time reaches
    `deadline` (`time.process_time` seconds)."""

    deadline: float

    def is_set(self) -> bool:
        """Whether the CPU deadline has passed."""
        return time.process_time() >= self.deadline


def _choose(
    player: str, game: Game, budget: float, clock: Clock, rng: random.Random, seed: int
) -> tuple[Move, int]:
    """The move of `player` and the depth it searched completely (random 0, greedy 1)."""
    moves = game.legal_moves()
    if player == "random":
        return rng.choice(moves), 0
    if player == "minimax":
        clock_fn = time.process_time if clock is Clock.CPU else time.monotonic
        choice = choose_move(game.position, game.variant, moves, budget, clock=clock_fn)
        return choice.move, choice.depth
    if player == "greedy":
        # One ply: the most material after the move (our king values), ties at random.
        me = game.position.turn
        values = [_material(play_unchecked(game.position, m, game.variant), game.variant, me)
                  for m in moves]
        top = max(values)
        return rng.choice([m for m, v in zip(moves, values, strict=True) if v == top]), 1
    match clock:
        case Clock.WALL:
            wall, stop = budget, None
        case Clock.CPU:
            # The wall budget only guards against a stalled process.
            wall, stop = budget * 50, CpuDeadline(time.process_time() + budget)
        case _:
            assert_never(clock)
    result = search(
        game.position, game.variant, level=int(player), time_budget=wall, stop=stop, seed=seed,
        history=game.positions()[:-1], no_progress_plies=game.no_progress_plies,
    )
    assert result.move is not None
    return result.move, result.depth


def play_game(task: GameTask) -> GameResult:
    """Play one game of `task` and return the subject's points."""
    variant = get_variant(task.variant)
    pairing = PAIRINGS[task.pairing]
    game = Game(variant)
    for move in _opening(variant, task.opening):
        game.play(move)
    seed = sum(ord(ch) for ch in task.variant) * 7919 + task.pairing * 104729 + task.opening * 2
    seed += int(task.subject_white)
    rng = random.Random(seed)
    subject_color = Color.WHITE if task.subject_white else Color.BLACK
    cpu = {True: 0.0, False: 0.0}  # by "the subject moves"
    count = {True: 0, False: 0}
    depths: dict[bool, list[int]] = {True: [], False: []}  # moves with a choice only
    while game.outcome is None and game.ply < MOVE_CAP:
        mine = game.position.turn is subject_color
        player = pairing.subject if mine else pairing.opponent
        choice = len(game.legal_moves()) > 1
        t0 = time.process_time()
        budget = task.budget if mine else task.budget * pairing.odds
        move, depth = _choose(player, game, budget, task.clock, rng, seed * 1000 + game.ply)
        cpu[mine] += time.process_time() - t0
        count[mine] += 1
        if choice:
            depths[mine].append(depth)
        game.play(move)
    if game.outcome is None or game.outcome.winner is None:
        points = 0.5
    else:
        points = 1.0 if game.outcome.winner is subject_color else 0.0
    pdn = ""
    if points < 1.0:
        white, black = pairing.subject, pairing.opponent
        if not task.subject_white:
            white, black = black, white
        result = "*" if game.outcome is None else game.outcome.result
        pdn = export_pdn(game, {"Event": f"strength {pairing.name}, opening {task.opening}",
                                "White": white, "Black": black, "Result": result})
    return GameResult(task.variant, task.pairing, points, game.ply,
                      cpu[True], count[True], cpu[False], count[False],
                      statistics.fmean(depths[True] or [0]),
                      statistics.fmean(depths[False] or [0]), pdn)


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share `points / n` (Wilson 1927)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _speed_positions(variant: Variant, count: int) -> list[Position]:
    """The start position, then positions after 12, 24, ... seeded random plies."""
    out = [Position.start(variant)]
    rng = random.Random(f"speed/{variant.key}")
    game = Game(variant)
    while len(out) < count and game.outcome is None:
        for _ in range(12):
            if game.outcome is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.outcome is None:
            out.append(game.position)
    return out


def measure_speed(budget: float, per_variant: int) -> list[tuple[str, int, float, float, float]]:
    """(variant, nodes, seconds, p99 move seconds, max move seconds) for level 5."""
    rows = []
    for key in VARIANT_KEYS:
        variant = get_variant(key)
        nodes = 0
        times: list[float] = []
        for position in _speed_positions(variant, per_variant):
            t0 = time.perf_counter()
            result = search(position, variant, level=5, time_budget=budget)
            times.append(time.perf_counter() - t0)
            nodes += result.nodes
        p99 = _percentile(times, 0.99)
        rows.append((key, nodes, sum(times), p99, max(times)))
    return rows


def _percentile(values: list[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default method)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def _games(pairing: Pairing, requested: int | None, quick: bool) -> int:
    """Games per variant of `pairing`: `requested` (--games), 2 when quick, else its own;
    rounded up to even so that each opening is played with both colours."""
    games = requested or (2 if quick else pairing.games)
    return games + games % 2


def _print_table(results: list[GameResult], variants: list[str], pairings: list[int]) -> None:
    """The points table, one row per variant and pairing played, with the CPU seconds per
    move and the mean depth searched completely of each side (subject first; the depth
    over moves with a choice, averaged per game)."""
    header = (f"| {'variant':13} | {'pairing':22} | W-D-L    | points | 95% CI    | target | "
              f"met | CPU s/move | mean depth |")
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    for key in variants:
        for p in pairings:
            pairing = PAIRINGS[p]
            mine = [r for r in results if r.variant == key and r.pairing == p]
            if not mine:
                continue
            n = len(mine)
            pts = sum(r.points for r in mine)
            w = sum(r.points == 1.0 for r in mine)
            d = sum(r.points == 0.5 for r in mine)
            lo, hi = wilson(pts, n)
            share = pts / n
            target = "all" if pairing.target == 1.0 else f">={pairing.target:.0%}"
            met = "yes" if (share >= pairing.target) else "no"
            wdl = f"{w}-{d}-{n - w - d}"
            ci = f"{lo:.0%}-{hi:.0%}"
            own = sum(r.subject_cpu for r in mine) / max(1, sum(r.subject_moves for r in mine))
            their = (sum(r.opponent_cpu for r in mine)
                     / max(1, sum(r.opponent_moves for r in mine)))
            depth = statistics.fmean(r.subject_depth for r in mine)
            their_depth = statistics.fmean(r.opponent_depth for r in mine)
            print(f"| {key:13} | {pairing.name:22} | {wdl:8} | {share:6.0%} | {ci:9} | "
                  f"{target:6} | {met:3} | {own:.3f}, {their:.3f} | "
                  f"{depth:.1f}, {their_depth:.1f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--games", type=int,
                        help="games per pairing and variant (even; default 12, minimax 20)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per move in games")
    parser.add_argument("--clock", choices=[c.value for c in Clock], default=Clock.CPU.value,
                        help="what the games' budget counts (default: CPU time)")
    parser.add_argument("--speed-budget", type=float, help="seconds per move for speed")
    parser.add_argument("--variants", nargs="*", default=list(VARIANT_KEYS))
    parser.add_argument("--pairings", nargs="*", type=int, default=list(range(len(PAIRINGS))),
                        help="indices into PAIRINGS (0 = level 5 vs random, ..., "
                             "6 = level 5 vs minimax, 7 = the same at 10x time odds)")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed part")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    clock = Clock(args.clock)
    speed_budget = args.speed_budget or (0.5 if args.quick else 2.0)
    per_variant = 2 if args.quick else 4

    started = time.perf_counter()
    tasks = [
        GameTask(key, p, i // 2, i % 2 == 0, args.budget, clock)
        for p in args.pairings
        for key in args.variants
        if PAIRINGS[p].plays(key)
        for i in range(_games(PAIRINGS[p], args.games, args.quick))
    ]
    results: list[GameResult] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_game, tasks):
            results.append(result)
    games_secs = time.perf_counter() - started

    print(f"Strength: {args.budget:g} s of {clock.value} time per computer move, "
          f"{MOVE_CAP}-ply cap; {games_secs / 60:.1f} min on {args.workers} processes, "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    _print_table(results, args.variants, args.pairings)
    plies = [r.plies for r in results]
    print(f"Game length: median {statistics.median(plies):.0f} plies, max {max(plies)}")
    for r in sorted(results, key=lambda r: (r.variant, r.pairing)):
        if r.pdn:
            print(f"\n{r.variant}, {PAIRINGS[r.pairing].name}, points {r.points:g}:\n{r.pdn}")

    if args.no_speed:
        return
    print()
    print(f"Speed: level 5, {speed_budget:g} s budget, {per_variant} positions per variant, "
          "one search at a time")
    print(f"| {'variant':13} | nodes/s | p99 move s | max move s | budget s |")
    print("|---------------|---------|------------|------------|----------|")
    for key, nodes, secs, p99, worst in measure_speed(speed_budget, per_variant):
        print(f"| {key:13} | {nodes / secs:7.0f} | {p99:10.2f} | {worst:10.2f} | "
              f"{speed_budget:8.2f} |")
    print(f"Total {(time.perf_counter() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
