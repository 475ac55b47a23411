"""`python -m renderer.gallery FOLDER` (`make gallery`): sample pictures for review.

For every variant it writes into FOLDER:

- `italian-puzzle.png` (once, not per variant): a puzzle as `/puzzle` shows it, from the
  solver's side (here Black, so the board is turned), with the hint's dot on the piece to
  move (`PUZZLE`: Black gives a man on e4 and takes two back);
- `italian-puzzle-answered.png` (once): the same puzzle after its first move was found
  and the defence played, both shown, the solver's move (teal) beneath the defence's;
- `<variant>-start-white.png`, `<variant>-start-black.png`: the start position from
  both sides;
- `<variant>-middle-marks.png`: a middle game with kings, the legal destinations of the
  piece about to capture marked with dots;
- `<variant>-capture-white.png`, `<variant>-capture-black.png`: the position after a
  multi-capture, with the move's path and captured squares marked, from both sides;
- `<variant>-capture.gif`: that capture animated jump by jump;
- `<variant>-game.gif`: the first plies of a game (moves chosen among the legal ones by
  a seeded random generator), one frame per move.

The same pictures for the variants of docs/RULES.md's Family 3 on their own boards
(`A1_DARK_EXAMPLES`): Brazilian and Russian draughts on the 8 x 8 board with a dark a1,
International draughts on the 10 x 10 board, with `international-capture-numbers.png`
showing the FMJD's numbers 1..50, and English checkers (a short king's capture of three,
`english-capture-numbers.png` with its numbers 1..32 from b8).

Plus `italian-capture-numbers.png` with the Italian square numbers, and
`italian-analysis.png`: the evaluation graph (renderer.graph) of a 40-ply game played by
the search at level 2 against itself, reviewed by `engine.analysis` at a small budget.
The positions were found in seeded random games; every move is checked legal by the
engine when drawn.

And the tournament standings pictures (renderer.standings, the samples of
renderer.standings_samples): `standings-swiss.png` (8 players after 4 rounds),
`standings-swiss-arabic.png` (the same in Arabic, right to left),
`standings-round-robin.png` (6 players) and `standings-arena.png` (60 players with
streaks, cut to the top 50 rows and each player's last 12 games).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import (
    Color,
    Move,
    Position,
    Variant,
    apply_move,
    get_variant,
    legal_moves,
    parse_move,
)
from engine.analysis import analyse_here
from engine.search import search
from renderer.animation import render_game_gif, render_move_gif
from renderer.board import render_png
from renderer.errors import RenderError
from renderer.graph import render_graph_png
from renderer.standings_draw import render_standings_png
from renderer.standings_samples import arena, round_robin, swiss, swiss_arabic


@dataclass(frozen=True, slots=True)
class Example:
    """A position with kings (FEN) and a multi-capture legal in it (full notation)."""

    variant: str
    fen: str
    capture: str


EXAMPLES = (
    Example("turkish",
            "W:Wb2,c2,d2,f2,g2,h2,a3,c3,f3,g3,h3,b4,Ka8,Kd8"
            ":Bf4,e5,h5,b6,g6,b7,d7,e7,f7,g7,h7,Ke1",
            "d8xd6xh6xh4xe4xe6xa6"),
    Example("arab",
            "W:Wa2,b2,d2,e2,f2,g2,h2,a3,b3,d3,e3,h7,Kc8"
            ":Bb5,e5,a6,c6,d6,e6,f6,g6,a7,b7,e7,Kc1",
            "c8xc5xf5xf7xd7xd5xa5"),
    Example("moroccan", "W:Wa2,h3,a4,Kc8:Bc4,c6,g6,d7,h7,a8,Kd1,Ke4", "c8xf5xd3xb5"),
    Example("italian", "B:Wd1,a2,g2,h3,c4,g4,Ke4:Ba6,b7,d7,f7,a8,Kb3", "b3xd5xf3xh1"),
)

A1_DARK_EXAMPLES = (
    Example("brazilian", "W:Wa1,c1,e1,b2,d2,h2,a3,e3,d4,Kf8:Be5,g5,b6,a7,e7,b8,d8,h8",
            "f8xd6xf4xh6"),
    Example("international",
            "B:W26,32,33,35,36,40,41,42,48:B1,2,6,7,10,11,13,14,19,23,24,30,K50",
            "50x28x37x46"),
    Example("russian", "W:Wa1,c1,e1,b2,d2,h2,a3,e3,d4,Kf8:Be5,g5,b6,a7,e7,b8,d8,h8",
            "f8xd6xf4xh6"),
    Example("english", "W:Wh2,Kh6:Be5,g5,b6,a7,c7,Kb2", "h6xf4xd6xb8"),
)
"""Positions of docs/RULES.md's Family 3 (`engine.A1_DARK_VARIANTS`): each a king's capture
of three pieces, met in seeded random games."""

PUZZLE = Example("italian", "B:Wd1,b3,d3,f3,h3:Bf5,c6,g6,b7,h7", "f5-e4")
"""A puzzle with Black to move (the first move in `capture`): 1... f5-e4! gives a man;
White must take it, d3xf5 or f3xd5, and Black takes two back (g6xe4xg2 or c6xe4xc2). It is
the hand-made puzzle of tests/support/puzzles.py turned round, colours swapped."""

PUZZLE_DEFENCE = "f3xd5"
"""White's answer to the puzzle's first move (one of the two captures it must make)."""

GAME_PLIES = 24
GAME_SEED = 7


def sample_game(variant: Variant, plies: int = GAME_PLIES, seed: int = GAME_SEED) -> list[Move]:
    """Up to `plies` legal moves from the start of `variant`, each chosen among the legal
    moves by a seeded random generator (deterministic for a given engine)."""
    rng = random.Random(seed)
    position = Position.start(variant)
    moves: list[Move] = []
    for _ in range(plies):
        options = legal_moves(position, variant)
        if not options:
            break
        move = rng.choice(options)
        moves.append(move)
        position = apply_move(position, move, variant)
    return moves


def write_gallery(folder: Path, size: int = 512) -> list[Path]:
    """Write the gallery pictures into `folder` (created if missing); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = folder / name
        path.write_bytes(data)
        written.append(path)

    italian = get_variant(PUZZLE.variant)
    puzzle = Position.from_fen(PUZZLE.fen, italian)
    first = parse_move(PUZZLE.capture, puzzle, italian)  # checked legal
    save("italian-puzzle.png", render_png(puzzle, italian, perspective=puzzle.turn,
                                          marks=[first.start], size=size))
    answered = apply_move(puzzle, first, italian)
    defence = parse_move(PUZZLE_DEFENCE, answered, italian)  # checked legal
    save("italian-puzzle-answered.png", render_png(
        apply_move(answered, defence, italian), italian, perspective=puzzle.turn,
        earlier_move=first, last_move=defence, before=answered,
        size=size))
    for ex in (*EXAMPLES, *A1_DARK_EXAMPLES):
        v = get_variant(ex.variant)
        start = Position.start(v)
        for side in Color:
            save(f"{v.key}-start-{side.value}.png",
                 render_png(start, v, perspective=side, size=size))
        before = Position.from_fen(ex.fen, v)
        move = parse_move(ex.capture, before, v)
        destinations = [m.end for m in legal_moves(before, v) if m.start == move.start]
        save(f"{v.key}-middle-marks.png",
             render_png(before, v, marks=destinations, size=size,
                        perspective=before.turn))
        after = apply_move(before, move, v)
        for side in Color:
            save(f"{v.key}-capture-{side.value}.png",
                 render_png(after, v, last_move=move, before=before, perspective=side,
                            size=size))
        if v.numeric_notation:
            save(f"{v.key}-capture-numbers.png",
                 render_png(after, v, last_move=move, before=before, size=size, numbers=True))
        save(f"{v.key}-capture.gif", render_move_gif(before, move, v, size=size))
        save(f"{v.key}-game.gif", render_game_gif(start, sample_game(v), v, size=size))
    italian = get_variant("italian")
    moves = computer_game(italian)
    save("italian-analysis.png", render_graph_png(
        analyse_here(italian, Position.start(italian), moves, nodes=ANALYSIS_NODES)))
    for name, table in (("swiss", swiss()), ("swiss-arabic", swiss_arabic()),
                        ("round-robin", round_robin()), ("arena", arena())):
        save(f"standings-{name}.png", render_standings_png(table))
    return written


ANALYSIS_PLIES = 40
ANALYSIS_NODES = 4_000


def computer_game(variant: Variant, plies: int = ANALYSIS_PLIES) -> list[Move]:
    """Up to `plies` moves of the search at level 2 (depth 2, seeded) against itself: a
    weak but plausible game with some mistakes to mark."""
    position = Position.start(variant)
    moves: list[Move] = []
    for ply in range(plies):
        result = search(position, variant, level=2, depth=2, seed=ply)
        if result.move is None:
            break
        moves.append(result.move)
        position = apply_move(position, result.move, variant)
    return moves


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: `python -m renderer.gallery FOLDER`. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m renderer.gallery FOLDER  (writes sample pictures there)",
              file=sys.stderr)
        return 2
    try:
        paths = write_gallery(Path(args[0]))
    except (RenderError, OSError) as exc:
        print(f"renderer.gallery: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(paths)} pictures to {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
