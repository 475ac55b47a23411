"""Move generation in positions with very many capture routes: the engine's search over
capture states against the former generator, which listed every route.

Run with ``make bench`` or ``python benchmarks/movegen.py [--seconds N] [--variants ...]``
from the repository root (about six minutes: N seconds, 60 by default, of hill climbing per
variant; Turkish, Arab, Moroccan, Italian and International draughts on the 10×10 board by
default).

1. Known positions, each timed from the position to the answer with the engine's caches
   cleared: `legal_moves`, `Game(variant, position)`, `Game.play` of a move, formatting
   every legal move (what autocomplete shows), the capture moves as perft and the search
   list them (without routes: `Generator.capture_keys`) and `render_png` of the position
   after a move with that move drawn (the renderer checks it against the position before), perft
   2 from the quiet-move position (a capture with many routes after each reply); then
   how long a level-5 search with a 1 s budget takes to return (wall clock). The
   "before" column is the former generator (tests/engine/oracles/legacy.py) listing every
   capture route and merging them, which is what `legal_moves` did; the whole public path
   then repeated that work several times over (see docs/BENCHMARKS.md for the figures measured
   with the former engine).
2. A hill-climbing search, per variant, for the position where `legal_moves` is slowest:
   from a random position on the variant's board (one king of the side to move against
   half to all of the enemy's pieces, scattered, men only or a fifth of them kings,
   sometimes a second piece of its own), repeatedly move, add, remove or crown a piece and
   keep the change when `legal_moves` gets slower, restarting when stuck; bounded to N
   seconds per variant. Reports the slowest position found, its time, its capture states
   (what `bot.move_work` weighs: past `STATE_BUDGET` the move work runs in a process of its
   own), its legal moves and the former generator's time on it (stopped after 60 s; the
   former generator played the 8×8 board only).
3. The worst International position known (`INTERNATIONAL_WORST`, found by the hill
   climber) timed as the Turkish ones are in 1, its capture states against the bot's
   budget, and the level-5 search's return with a 1 s budget.

Times are CPU seconds of this process (time.process_time), the best of three runs, so other
load on the machine distorts them less.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.movegen
import engine.notation
from bot.move_work import STATE_BUDGET
from engine import (
    Color,
    Game,
    Geometry,
    PieceKind,
    Position,
    Variant,
    format_move,
    get_variant,
    legal_moves,
    perft,
)
from engine.movegen import capture_states_over, side_relative
from engine.movegen_core import generator
from engine.search import search
from renderer import render_png
from tests.engine.oracles.legacy import LegacyGenerator

#: One white king against sixteen pieces: 611,570 capture routes, 63 legal moves.
WORST = "W:WKd2:Bb2,e2,a3,d3,g3,e4,c5,f5,b6,d6,g6,h6,a7,e7,Kb8,Kf8"
#: Black's quiet move d4-d1 leads to a capture with thousands of routes for White.
QUIET = "B:WKc8:Be2,a3,c3,b4,a5,h5,b6,c7,g7,Kb2,Kf3,Kd4,Kg4,Ke5,Kf6,Kb7"
LEGACY_LIMIT = 60.0
#: The slowest International position the hill climber found (docs/BENCHMARKS.md).
INTERNATIONAL_WORST = (
    "W:WKa1:Bb2,d2,h2,a3,e3,g3,c5,c7,e7,i7,b8,f8,j8,g9,i9,b10,Kb4,Ke5,Kg5,Kh6"
)
#: The variants climbed by default: the four with an a1-light board (docs/RULES.md, Families
#: 1 and 2) and International on the 10×10 board.
CLIMBED = ("turkish", "arab", "moroccan", "italian", "international")


def capture_states(position: Position, variant: Variant) -> int:
    """The capture states `legal_moves` passes through in `position` (the smallest budget
    `capture_states_over` does not exceed, found by halving)."""
    low, high = 0, 1
    while capture_states_over(position, variant, high):
        low, high = high, high * 2
    while low < high:
        middle = (low + high) // 2
        if capture_states_over(position, variant, middle):
            low = middle + 1
        else:
            high = middle
    return low


def _clear() -> None:
    engine.movegen.move_table.cache_clear()
    engine.notation._index.cache_clear()


def _best(fn: Callable[[], Any], runs: int = 3) -> float:
    """Best CPU seconds of `fn()` over `runs` runs, caches cleared before each."""
    best = float("inf")
    for _ in range(runs):
        _clear()
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _legacy(position: Position, variant: Variant) -> int:
    """The former `legal_moves`: every route listed, the capture rules applied to the routes,
    merged under the move identity (the quiet moves when there is no capture)."""
    gen = LegacyGenerator(variant)
    moves = gen.legal_captures(*side_relative(position))
    return len(moves)


def _legacy_worker(fen: str, key: str, out: Any) -> None:
    variant = get_variant(key)
    position = Position.from_fen(fen, variant)
    t0 = time.process_time()
    _legacy(position, variant)
    out.put(time.process_time() - t0)


def legacy_seconds(fen: str, key: str, limit: float = LEGACY_LIMIT) -> float | None:
    """The former generator's CPU seconds on `fen`, None when it took longer than `limit`
    (run in a child process, stopped there)."""
    queue: Any = multiprocessing.Queue()
    child = multiprocessing.Process(target=_legacy_worker, args=(fen, key, queue))
    child.start()
    child.join(limit)
    if child.is_alive():
        child.terminate()
        child.join()
        return None
    return float(queue.get())


def _ms(seconds: float | None) -> str:
    return f"> {LEGACY_LIMIT:.0f} s" if seconds is None else f"{seconds * 1000:,.2f} ms"


def known_positions() -> None:
    turkish = get_variant("turkish")
    worst = Position.from_fen(WORST, turkish)
    quiet = Position.from_fen(QUIET, turkish)
    moves = legal_moves(worst, turkish)
    capture = next(m for m in moves if str(m).startswith("d2") and m.end == 0)  # d2x...a1
    after = engine.apply_move(worst, capture, turkish)

    def play_worst() -> None:
        Game(turkish, worst).play("d2xa1")

    def play_quiet() -> None:
        Game(turkish, quiet).play("d4-d1")

    def format_all() -> None:
        for move in legal_moves(worst, turkish):
            format_move(move, worst, turkish)

    def render() -> None:
        render_png(after, turkish, last_move=capture, before=worst, size=512)

    rows = [
        ("worst: legal_moves (63 moves, 611,570 routes)",
         _best(lambda: legal_moves(worst, turkish)), legacy_seconds(WORST, "turkish")),
        ("worst: capture moves without routes (perft, search)",
         _best(lambda: generator(turkish).capture_keys(*side_relative(worst))), None),
        ("worst: Game(variant, position)", _best(lambda: Game(turkish, worst)), None),
        ("worst: Game(...).play('d2xa1')", _best(play_worst), None),
        ("worst: format all 63 legal moves", _best(format_all), None),
        ("worst: render_png after d2xa1, move drawn", _best(render), None),
        ("quiet: Game(...).play('d4-d1')", _best(play_quiet), None),
        ("quiet: perft 2 (3,141 leaves)", _best(lambda: perft(quiet, turkish, 2), runs=1), None),
    ]
    print("Known positions (Turkish), CPU time, best of 3, caches cleared:")
    print(f"{'':<48} {'now':>10} {'former generator':>18}")
    for name, now, before in rows:
        former = _ms(before) if name.startswith("worst: legal") else "-"
        print(f"{name:<48} {now * 1000:>8.1f} ms {former:>18}")
    before = rows[0][2]
    if before is not None:
        print(f"legal_moves in the worst position: {before / rows[0][1]:,.0f} times as fast")
    for name, position in (("worst", worst), ("quiet", quiet)):
        _clear()
        t0 = time.monotonic()
        result = search(position, turkish, level=5, time_budget=1.0)
        print(f"{name}: level-5 search with a 1 s budget returned after "
              f"{time.monotonic() - t0:.2f} s (wall clock), depth {result.depth}")


# --- hill climbing ----------------------------------------------------------------------------

Pieces = dict[int, tuple[Color, bool]]  # square -> (colour, is king)


def _position(pieces: Pieces, size: int = 8) -> Position:
    wm = wk = bm = bk = 0
    for sq, (colour, king) in pieces.items():
        bit = 1 << sq
        if colour is Color.WHITE:
            if king:
                wk |= bit
            else:
                wm |= bit
        elif king:
            bk |= bit
        else:
            bm |= bit
    return Position(wm, wk, bm, bk, Color.WHITE, size)


def _man_allowed(sq: int, colour: Color, size: int = 8) -> bool:
    """Whether a man of `colour` may stand on `sq` (not on its far rank)."""
    far = size - 1 if colour is Color.WHITE else 0
    return sq // size != far


def _most(variant: Variant) -> int:
    """Pieces a side has at the start: 16 (orthogonal), 12 (8×8 diagonal), 20 (10×10)."""
    if variant.board_size == 10:
        return 20
    return 16 if variant.geometry is Geometry.ORTHOGONAL else 12


def _seed(rng: random.Random, variant: Variant) -> Pieces:
    size = variant.board_size
    squares = [sq for sq in range(size * size) if variant.is_playable(sq)]
    rng.shuffle(squares)
    most = _most(variant)
    pieces: Pieces = {squares.pop(): (Color.WHITE, True)}
    king_share = rng.choice((0.0, 0.2))  # men only half the time: one king against men
    for _ in range(rng.randint(most // 2, most)):
        sq = squares.pop()
        king = rng.random() < king_share or not _man_allowed(sq, Color.BLACK, size)
        pieces[sq] = (Color.BLACK, king)
    if rng.random() < 0.3:
        sq = squares.pop()
        pieces[sq] = (Color.WHITE,
                      rng.random() < 0.5 or not _man_allowed(sq, Color.WHITE, size))
    return pieces


def _mutate(rng: random.Random, pieces: Pieces, variant: Variant) -> Pieces:
    out = dict(pieces)
    size = variant.board_size
    empty = [sq for sq in range(size * size) if variant.is_playable(sq) and sq not in out]
    most = _most(variant)
    kind = rng.randrange(4)
    count = {c: sum(1 for p in out.values() if p[0] is c) for c in Color}
    if kind == 0 or not empty:  # move a piece
        sq = rng.choice(list(out))
        colour, king = out.pop(sq)
        to = rng.choice(empty or [sq])
        out[to] = (colour, king or not _man_allowed(to, colour, size))
    elif kind == 1 and count[Color.BLACK] < most:  # add a black piece
        to = rng.choice(empty)
        out[to] = (Color.BLACK, rng.random() < 0.3 or not _man_allowed(to, Color.BLACK, size))
    elif kind == 2 and count[Color.BLACK] > 1:  # remove a black piece
        sq = rng.choice([s for s, p in out.items() if p[0] is Color.BLACK])
        del out[sq]
    else:  # crown or uncrown a piece
        sq = rng.choice(list(out))
        colour, king = out[sq]
        if king and _man_allowed(sq, colour, size):
            out[sq] = (colour, False)
        else:
            out[sq] = (colour, True)
    if not any(c is Color.WHITE for c, _ in out.values()):
        return dict(pieces)
    return out


def _format_all(position: Position, variant: Variant) -> None:
    """Every legal move written in its short form (what the `/move` autocomplete shows)."""
    for move in legal_moves(position, variant):
        format_move(move, position, variant)


#: What a climb makes slower: `legal_moves`, or every legal move written (`_format_all`).
MEASURES: dict[str, Callable[[Position, Variant], object]] = {
    "legal_moves": legal_moves,
    "format": _format_all,
}


def _cost(pieces: Pieces, variant: Variant, measure: str = "legal_moves") -> float:
    position = _position(pieces, variant.board_size)
    _clear()
    t0 = time.process_time()
    MEASURES[measure](position, variant)
    return time.process_time() - t0


def _pieces(position: Position) -> Pieces:
    return {sq: (piece.color, piece.kind is PieceKind.KING) for sq, piece in position.pieces()}


def hill_climb(
    key: str, seconds: float, seed: int = 1, start: str | None = None,
    measure: str = "legal_moves",
) -> tuple[str, float]:
    """The slowest position for `measure` (a key of `MEASURES`) found in `seconds` of hill
    climbing, as FEN, and its time (best of three). `start`: the FEN of the first position
    (White to move), instead of a random one (later restarts are random)."""
    variant = get_variant(key)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    first = _seed(rng, variant) if start is None else _pieces(Position.from_fen(start, variant))
    best_pieces, best_cost = first, 0.0
    current, current_cost, stale = best_pieces, _cost(best_pieces, variant, measure), 0
    while time.monotonic() < deadline:
        if stale > 150:
            current = _seed(rng, variant)
            current_cost, stale = _cost(current, variant, measure), 0
        trial = _mutate(rng, current, variant)
        cost = _cost(trial, variant, measure)
        if cost >= current_cost:
            stale = 0 if cost > current_cost * 1.05 else stale + 1
            current, current_cost = trial, cost
        else:
            stale += 1
        if current_cost > best_cost:
            best_pieces, best_cost = current, current_cost
    position = _position(best_pieces, variant.board_size)
    return position.to_fen(variant), _best(lambda: MEASURES[measure](position, variant))


def international_worst(fen: str = INTERNATIONAL_WORST) -> None:
    """Part 3: the worst International position found, timed as the Turkish ones."""
    variant = get_variant("international")
    worst = Position.from_fen(fen, variant)
    moves = legal_moves(worst, variant)
    move = moves[0]
    text = format_move(move, worst, variant)
    after = engine.apply_move(worst, move, variant)

    def format_all() -> None:
        for m in legal_moves(worst, variant):
            format_move(m, worst, variant)

    rows = [
        (f"legal_moves ({len(moves)} moves)", _best(lambda: legal_moves(worst, variant))),
        ("capture moves without routes (perft, search)",
         _best(lambda: generator(variant).capture_keys(*side_relative(worst)))),
        ("Game(variant, position)", _best(lambda: Game(variant, worst))),
        (f"Game(...).play({text!r})", _best(lambda: Game(variant, worst).play(text))),
        (f"format all {len(moves)} legal moves", _best(format_all)),
        (f"render_png after {text}, move drawn",
         _best(lambda: render_png(after, variant, last_move=move, before=worst, size=512))),
    ]
    states = capture_states(worst, variant)
    print(f"Worst International position found: {fen}")
    print(f"{states:,} capture states (the bot's budget for a worker thread: {STATE_BUDGET:,}; "
          f"past it the move work runs in its process: "
          f"{'yes' if capture_states_over(worst, variant, STATE_BUDGET) else 'no'})")
    for name, now in rows:
        print(f"{name:<48} {now * 1000:>8.1f} ms")
    _clear()
    t0 = time.monotonic()
    result = search(worst, variant, level=5, time_budget=1.0)
    print(f"level-5 search with a 1 s budget returned after {time.monotonic() - t0:.2f} s "
          f"(wall clock), depth {result.depth}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="hill-climbing time per variant (default 60)")
    parser.add_argument("--variants", nargs="+", default=list(CLIMBED),
                        help=f"variants to climb (default: {' '.join(CLIMBED)})")
    parser.add_argument("--seed", type=int, default=1, help="the climb's random seed")
    parser.add_argument("--start", help="FEN of the first position of each climb (White to "
                        "move; later restarts are random)")
    parser.add_argument("--measure", choices=sorted(MEASURES), default="legal_moves",
                        help="what the climb makes slower (default legal_moves; format: "
                        "every legal move written, as the autocomplete does)")
    parser.add_argument("--climb-only", action="store_true",
                        help="skip the known positions (parts 1 and 3)")
    args = parser.parse_args()
    if not args.climb_only:
        known_positions()
        print()
        if INTERNATIONAL_WORST:
            international_worst()
            print()
    print(f"Hill climbing for the slowest {args.measure}, {args.seconds:.0f} s per variant:")
    for key in args.variants:
        fen, now = hill_climb(key, args.seconds, args.seed, args.start, args.measure)
        variant = get_variant(key)
        position = Position.from_fen(fen, variant)
        states = capture_states(position, variant)
        count = len(legal_moves(position, variant))
        # The former generator is timed on the variants it was written for (8×8, a1
        # light); the a1-dark ones (docs/RULES.md, "Family 3") have no "before".
        former = "-" if variant.a1_dark else _ms(legacy_seconds(fen, key))
        print(f"{key:<13} {now * 1000:>8.2f} ms, {states:,} states, {count} moves "
              f"(former generator {former})  {fen}")


if __name__ == "__main__":
    main()
