"""The command line: draw a position (optionally after a move) to a PNG or GIF file.

    python -m renderer VARIANT FEN OUT.png [--last-move MOVE] [--perspective black]
                       [--size N] [--numbers] [--marks d4,f4]

FEN is the position to start from (`start` for the variant's start position). With
`--last-move`, MOVE (any notation the engine reads: d3xd5xf5, d3xf5, 22x13) is played in it
and the picture shows the position after the move with the move marked; an OUT ending in
`.gif` gets the move animated jump by jump instead. Bad input prints one line saying what
is wrong and exits with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine import Color, DamaError, Position, apply_move, parse_move
from renderer.animation import render_move_gif
from renderer.board import render_png
from renderer.errors import RenderError
from renderer.layout import MAX_SIZE, MIN_SIZE
from renderer.validate import resolve_variant

PROG = "python -m renderer"
EXIT_OK = 0
EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that reports usage errors as RenderError instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise RenderError(f"{message} (see {PROG} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m renderer`."""
    p = _Parser(
        prog=PROG,
        description="Draw a draughts position as a PNG board picture (or a GIF of a move).",
    )
    p.add_argument("variant", help="turkish, arab, moroccan or italian (aliases accepted); "
                                   "brazilian or international")
    p.add_argument("fen", help="the position, e.g. W:Wa2,b2,Kd4:Ba7,Kh8, or 'start'")
    p.add_argument("out", type=Path, help="output file: .png (a board) or .gif (a move)")
    p.add_argument("--last-move", metavar="MOVE",
                   help="play MOVE in the position and mark it (e.g. d3xd5xf5)")
    p.add_argument("--perspective", choices=("white", "black"), default="white",
                   help="the side at the bottom (default white)")
    p.add_argument("--size", type=str, default="512",
                   help=f"picture side in pixels, {MIN_SIZE}..{MAX_SIZE} (default 512)")
    p.add_argument("--numbers", action="store_true",
                   help="write the square numbers on the dark squares (diagonal boards: "
                        "1..32, International 1..50)")
    p.add_argument("--marks", default="", metavar="SQUARES",
                   help="squares to mark with a dot, comma separated (e.g. d4,f4)")
    return p


def _size(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RenderError(f"--size {text!r} is not a whole number of pixels, e.g. 512") from None


def run(args: argparse.Namespace) -> bytes:
    """The bytes of the picture the parsed arguments ask for. Raises RenderError or an
    engine DamaError for bad input."""
    variant = resolve_variant(args.variant)
    if args.fen.strip().lower() == "start":
        position = Position.start(variant)
    else:
        position = Position.from_fen(args.fen, variant)
    perspective = Color.BLACK if args.perspective == "black" else Color.WHITE
    size = _size(args.size)
    marks = [m for m in args.marks.replace(" ", ",").split(",") if m]
    gif = args.out.suffix.lower() == ".gif"
    if args.out.suffix.lower() not in (".png", ".gif"):
        raise RenderError(f"{args.out}: the output file must end in .png or .gif")
    if gif:
        if not args.last_move:
            raise RenderError("a .gif output shows a move: give --last-move")
        if marks:
            raise RenderError("--marks is for .png pictures, not move GIFs")
        move = parse_move(args.last_move, position, variant)
        return render_move_gif(position, move, variant, perspective=perspective, size=size,
                               numbers=args.numbers)
    if args.last_move:
        move = parse_move(args.last_move, position, variant)
        after = apply_move(position, move, variant)
        return render_png(after, variant, perspective=perspective, last_move=move,
                          before=position, marks=marks, size=size, numbers=args.numbers)
    return render_png(position, variant, perspective=perspective, marks=marks, size=size,
                      numbers=args.numbers)


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the command line with `argv` (default sys.argv[1:]); returns the exit status:
    0 when the picture was written, 2 for bad input (one line on stderr)."""
    err = stderr if stderr is not None else sys.stderr
    try:
        args = build_parser().parse_args(argv)
        data = run(args)
        args.out.write_bytes(data)
    except (RenderError, DamaError) as exc:
        print(f"{PROG}: error: {exc}", file=err)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"{PROG}: error: cannot write the picture: {exc.strerror or exc}", file=err)
        return EXIT_BAD_INPUT
    return EXIT_OK
