"""The engine's command line: `python -m engine moves|perft|replay ...`.

    python -m engine moves VARIANT FEN          every legal move, full form, one per line
    python -m engine perft VARIANT FEN DEPTH    the number of positions at DEPTH plies
    python -m engine replay FILE.pdn [--variant V] [--result-first black]
                                                one line per game: its result, or its first
                                                illegal move; warnings indented below

VARIANT is one of the bot's eight variants, by key or alias (`engine.get_variant`). FEN
`start` stands for the variant's start position. Exit status: 0 on success; 1 when an
input cannot be used (unknown variant, bad FEN, missing or unreadable file, a game with an
illegal move); 2 for a malformed command line. Errors go to standard error, never as a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine import (
    VARIANTS,
    Color,
    DamaError,
    Position,
    Variant,
    format_move,
    get_variant,
    legal_moves,
    perft,
)
from engine.pdn import PdnGame, PdnMoveError, replay_game
from engine.pdn_syntax import PdnError, split_games

PROG = "python -m engine"
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
#: Deepest perft the command line accepts (deeper would never finish, and would
#: overflow Python's recursion limit long before the end of the game tree).
MAX_PERFT_DEPTH = 64


class CliError(Exception):
    """An input the command cannot use; the message says what to do."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the engine's command line."""
    variants = ", ".join(VARIANTS)
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The dama-bot rules engine: legal moves, perft counts, PDN replays for "
        "Turkish, Arab, Moroccan and Italian draughts, and Brazilian, International and "
        f"Russian draughts and English checkers (variants: {variants}; aliases such as dama, "
        "italian-draughts or checkers work too).",
        epilog="Squares are algebraic (a1 is White's near-left corner; a1..j10 on the 10x10 "
        "board). A FEN looks like W:Wa2,b2,Kd4:Ba7,Kh8 (side to move, White's pieces, "
        "Black's; K marks a king); Italian and English checkers also take numeric squares "
        "(W:W21,22:B1,2), International numbers 1..50 (W:W31-50:B1-20). Exit status: 0 ok, "
        "1 an input could not be used, 2 bad command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    moves = commands.add_parser(
        "moves", help="print every legal move of a position, full form, one per line",
        description="Print every legal move of the position in full algebraic form "
        "(every landing square of a capture), one per line.",
    )
    _add_position_arguments(moves)
    moves.add_argument("--numeric", action="store_true",
                       help="Italian, English checkers (1..32) and International (1..50) "
                       "only: write squares as numbers")

    count = commands.add_parser(
        "perft", help="count the positions reached after DEPTH plies",
        description="Count the positions reached after exactly DEPTH plies (perft), moves "
        "counted under the move identity of docs/RULES.md (start, end, set of captured pieces).",
    )
    _add_position_arguments(count)
    count.add_argument("depth", type=_depth, metavar="DEPTH",
                       help=f"plies to look ahead, 0 to {MAX_PERFT_DEPTH} (the count "
                       "grows about tenfold per ply)")

    replay = commands.add_parser(
        "replay", help="replay every game of a PDN file",
        description="Replay every game of a PDN file with legal moves only and print one "
        "line per game: its result, or its first illegal move with the move number. "
        "Warnings (ambiguous captures the record does not decide, draw rules the record "
        "played past) follow, indented.",
    )
    replay.add_argument("file", type=Path, metavar="FILE.pdn", help="the PDN file to read")
    replay.add_argument("--variant", metavar="V",
                        help="variant of games whose tags do not say it (no GameType or "
                        "Variant tag), e.g. italian, english, russian")
    replay.add_argument("--result-first", choices=("white", "black"), default="white",
                        help="whose score the file's results write first (default white, "
                        "as PDN reads 1-0; black for English checkers files that write "
                        "the first mover's first)")
    return parser


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="VARIANT",
                        help="variant name: "
                        f"{', '.join(VARIANTS)} or an alias")
    parser.add_argument("fen", metavar="FEN",
                        help="the position, e.g. 'W:Wa2,b2:Ba7,Kh8', or start")


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a depth: give a whole number of plies, e.g. 4"
        ) from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth {depth} is negative: give 0 or more")
    if depth > MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(
            f"depth {depth} is too deep (the count grows about tenfold per ply): "
            f"give at most {MAX_PERFT_DEPTH}"
        )
    return depth


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line on `argv` (default: sys.argv[1:]); the exit status.

    Output goes to `stdout` and `stderr` (default: the process's). argparse itself exits
    with status 2 (raising SystemExit) on a malformed command line, printing the usage.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        if args.command == "moves":
            return _moves(args, out)
        if args.command == "perft":
            return _perft(args, out)
        return _replay(args, out, err)
    except (CliError, DamaError) as error:
        print(f"{PROG}: error: {error}", file=err)
        return EXIT_FAILURE


def _variant(name: str) -> Variant:
    return get_variant(name)


def _position(fen: str, variant: Variant) -> Position:
    if fen.strip().lower() == "start":
        return Position.start(variant)
    return Position.from_fen(fen, variant)


def _moves(args: argparse.Namespace, out: TextIO) -> int:
    variant = _variant(args.variant)
    if args.numeric and not variant.numeric_notation:
        raise CliError(f"{variant.name} has no numeric notation: drop --numeric")
    position = _position(args.fen, variant)
    for move in legal_moves(position, variant):
        print(format_move(move, position, variant, full=True, numeric=args.numeric), file=out)
    return EXIT_OK


def _perft(args: argparse.Namespace, out: TextIO) -> int:
    variant = _variant(args.variant)
    position = _position(args.fen, variant)
    print(perft(position, variant, args.depth), file=out)
    return EXIT_OK


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file: check the path") from None
    except IsADirectoryError:
        raise CliError(f"{path} is a folder: give a PDN file") from None
    except OSError as error:
        raise CliError(f"{path}: cannot read it ({error.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older PDN files are often Latin-1 / Windows-1252; every byte decodes in Latin-1.
        return data.decode("latin-1")


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    variant = _variant(args.variant) if args.variant is not None else None
    try:
        raws = split_games(_read_text(args.file))
    except PdnError as error:
        raise CliError(f"{args.file}: {error}") from None
    if not raws:
        raise CliError(f"{args.file}: no PDN game found in it")
    failed = 0
    for raw in raws:
        try:
            game = replay_game(raw, variant=variant, result_first=Color(args.result_first))
        except PdnMoveError as error:
            failed += 1
            print(f"game {raw.index}: ILLEGAL move {error.number} ({error.color.value}) "
                  f"{error.text!r} on line {error.line}: {error.reason}", file=out)
            continue
        except PdnError as error:
            failed += 1
            print(str(error), file=out)
            continue
        print(_game_line(game), file=out)
        for warning in game.warnings:
            print(f"    warning: {warning}", file=out)
    summary = f"{len(raws)} games, {len(raws) - failed} replayed"
    if failed:
        print(f"{summary}, {failed} not replayed", file=out)
        print(f"{PROG}: error: {failed} of {len(raws)} games in {args.file} did not replay",
              file=err)
        return EXIT_FAILURE
    print(summary, file=out)
    return EXIT_OK


def _game_line(pdn: PdnGame) -> str:
    game = pdn.game
    white = pdn.tags.get("White", "?")
    black = pdn.tags.get("Black", "?")
    line = (f"game {pdn.index}: {pdn.variant.key}, {white} - {black}: {pdn.result.token} "
            f"after {game.ply} plies")
    if game.outcome is not None:
        winner = game.outcome.winner
        verdict = "draw" if winner is None else f"{winner.value} wins"
        line += f" (over by rule: {game.outcome.termination.name.lower()}, {verdict})"
    else:
        line += " (not over by rule)"
    return line
