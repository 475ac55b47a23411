"""Board picture speed: this renderer against pydraughts' SVG board converted by cairosvg.

Run with ``make bench`` or ``python benchmarks/render.py`` from the repository root.

The peer is the pipeline a Python bot would otherwise use: pydraughts 0.6.7
(`draughts.svg.create_svg(board)`) for the SVG, then `cairosvg.svg2png` at 512 x 512 px.
Both draw the same start positions (Italian and Turkish, the two of our variants that
pydraughts knows); ours also draws the other start positions, Brazilian (8 x 8, a1 dark) and
International (10 x 10) among them, and the six gallery positions after their
multi-captures, with the last move, path and captured squares marked (the busiest pictures
the bot sends).
Every timing is one call from the position to PNG bytes, caches warm (the first call of
the process, which builds the palette and the sprites, is reported apart), measured in
CPU time of the calling thread so that other load on the machine does not distort it.

Prints: the median milliseconds per 512 px board for each renderer on the shared start
positions, the ratio of the two, our median and worst over all boards, and PNG sizes.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Position, apply_move, parse_move
from renderer import render_png
from renderer.gallery import A1_DARK_EXAMPLES, EXAMPLES
from renderer.validate import resolve_variant

SIZE = 512
OUR_REPEATS = 200
THEIR_REPEATS = 30
SHARED = ("italian", "turkish")
#: Variants of docs/RULES.md's Family 3 on their own boards (8 x 8 with a dark a1, 10 x 10),
#: also drawn by pydraughts.
SHARED_A1_DARK = ("brazilian", "international")


def _median_ms(fn: Callable[[], bytes], repeats: int) -> tuple[float, int]:
    """Median milliseconds of `fn()` over `repeats` calls, and the size of its output.

    Time is this thread's CPU time (time.thread_time), so other programs running on the
    machine do not inflate it; the work measured is single-threaded, so on an idle
    machine it equals the wall-clock time.
    """
    times = []
    data = b""
    for _ in range(repeats):
        t0 = time.thread_time()
        data = fn()
        times.append((time.thread_time() - t0) * 1000)
    return statistics.median(times), len(data)


def _ours(key: str) -> Callable[[], bytes]:
    variant = resolve_variant(key)
    start = Position.start(variant)
    return lambda: render_png(start, variant, size=SIZE)


def _ours_after_capture(index: int) -> tuple[str, Callable[[], bytes]]:
    ex = (*EXAMPLES, *A1_DARK_EXAMPLES)[index]
    variant = resolve_variant(ex.variant)
    before = Position.from_fen(ex.fen, variant)
    move = parse_move(ex.capture, before, variant)
    after = apply_move(before, move, variant)
    return (f"{ex.variant} after {ex.capture}",
            lambda: render_png(after, variant, last_move=move, size=SIZE))


def _theirs(key: str) -> Callable[[], bytes] | None:
    try:
        import cairosvg
        from draughts import Board
        from draughts.svg import create_svg
    except ImportError:  # pragma: no cover - the bench extra installs both
        return None
    board: Any = Board(variant=key)

    def pipeline() -> bytes:
        svg = create_svg(board)
        png: bytes = cairosvg.svg2png(bytestring=svg.encode(), output_width=SIZE,
                                      output_height=SIZE)
        return png

    return pipeline


def main() -> None:
    t0 = time.perf_counter()
    _ours("italian")()
    cold_ms = (time.perf_counter() - t0) * 1000

    print(f"board pictures, {SIZE} x {SIZE} px, median CPU ms of {OUR_REPEATS} (ours) and "
          f"{THEIR_REPEATS} (pydraughts + cairosvg) calls, caches warm")
    print(f"{'board':<44} {'renderer':<26} {'median ms':>10} {'PNG bytes':>10}")
    ours_shared: list[float] = []
    theirs_shared: list[float] = []
    ours_all: list[float] = []
    sizes: list[int] = []
    for key in SHARED:
        ms, n = _median_ms(_ours(key), OUR_REPEATS)
        ours_shared.append(ms)
        ours_all.append(ms)
        sizes.append(n)
        print(f"{key + ' start':<44} {'dama-bot renderer':<26} {ms:>10.2f} {n:>10}")
        theirs = _theirs(key)
        if theirs is not None:
            tms, tn = _median_ms(theirs, THEIR_REPEATS)
            theirs_shared.append(tms)
            print(f"{key + ' start':<44} {'pydraughts SVG + cairosvg':<26} {tms:>10.2f} "
                  f"{tn:>10}")
    for key in ("arab", "moroccan", *SHARED_A1_DARK):
        ms, n = _median_ms(_ours(key), OUR_REPEATS)
        ours_all.append(ms)
        sizes.append(n)
        print(f"{key + ' start':<44} {'dama-bot renderer':<26} {ms:>10.2f} {n:>10}")
        theirs = _theirs(key) if key in SHARED_A1_DARK else None
        if theirs is not None:
            tms, tn = _median_ms(theirs, THEIR_REPEATS)
            print(f"{key + ' start':<44} {'pydraughts SVG + cairosvg':<26} {tms:>10.2f} "
                  f"{tn:>10}")
    for i in range(len(EXAMPLES) + len(A1_DARK_EXAMPLES)):
        label, fn = _ours_after_capture(i)
        ms, n = _median_ms(fn, OUR_REPEATS)
        ours_all.append(ms)
        sizes.append(n)
        print(f"{label:<44} {'dama-bot renderer':<26} {ms:>10.2f} {n:>10}")

    print()
    ours_med = statistics.median(ours_shared)
    print(f"start positions, median ms per board: dama-bot {ours_med:.2f}", end="")
    if theirs_shared:
        theirs_med = statistics.median(theirs_shared)
        print(f", pydraughts SVG + cairosvg {theirs_med:.2f}; "
              f"ratio {theirs_med / ours_med:.1f}x faster")
    else:
        print(" (pydraughts or cairosvg not installed: no ratio)")
    print(f"all {len(ours_all)} boards: median {statistics.median(ours_all):.2f} ms, "
          f"worst board {max(ours_all):.2f} ms; PNG {min(sizes)}..{max(sizes)} bytes "
          f"(target < 60000)")
    print(f"first call of the process (palette, sprites, background): {cold_ms:.0f} ms")


if __name__ == "__main__":
    main()
