"""The mining command: `python -m puzzles mine --variant V [--pdn FILE ...] [--self-play N]`,
and the filter: `python -m puzzles filter --variant V`.

`mine` mines the games of the PDN files given (every game read in the variant), then N
games the computer plays against itself at a fast level (`--level`, seeds `--first-seed`
onwards, each a fixed-depth search so a seed always gives the same game), and appends
every verified puzzle to the bank file (`--out`, default the shipped bank of the variant).
Each finished source is recorded in the file, so a run stopped by `--minutes` or by the
operator carries on where it stopped when run again; a source is never mined twice.
Deleting the file and running the same command regenerates the bank.

Self-play seeds are distinct per variant: each variant owns a block of `SEED_BLOCK` seeds
from its `FIRST_SEED` (the default `--first-seed`), and a seed outside the block is
refused. Italian and Moroccan share their start position and most moves, so one seed in
both would give the same game, and the same puzzles, until their rules differ.

`filter` verifies every puzzle of a bank again with the current criterion
(`puzzles.mining.verify_puzzle`) and keeps those whose first move it confirms, with the
line, scores, depth, rating and themes it verified (id, position and source unchanged);
the others are dropped, and so is a puzzle whose position, or a mirror image of it
(`puzzles.bank.images`), is already in the bank or in the shipped bank of a variant
listed before it (`engine.VARIANTS`: Turkish, Arab, Moroccan, Italian, International,
Brazilian, Russian, English checkers). `mine` never adds
a position, or a mirror image of one, that the bank or any other shipped bank holds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine import VARIANTS, Game, Position, Variant, get_variant
from engine.errors import DamaError
from engine.pdn import read_pdn
from engine.search import LEVELS, search
from puzzles.bank import (
    BankFile,
    Puzzle,
    PuzzleSource,
    bank_path,
    images,
    puzzle_id,
    taken_elsewhere,
)
from puzzles.mining import (
    MiningSettings,
    Rejection,
    VerifiedLine,
    initial_rating,
    mine_game,
    move_texts,
    verify_puzzle,
)

MAX_SELF_PLAY_PLIES = 100
SEED_BLOCK = 100_000
FIRST_SEED = {"turkish": 0, "arab": 100_000, "moroccan": 200_000, "italian": 300_000,
              "international": 400_000, "brazilian": 500_000, "russian": 600_000,
              "english": 700_000}
"""The first self-play seed of each variant's block, one per key of `engine.VARIANTS`
(Turkish and Arab banks were mined from 0 and 100000; Moroccan and Italian from 200000
and 300000; International, Brazilian, Russian and English checkers from 400000 to
700000)."""


def self_play_positions(variant: Variant, level: int, seed: int) -> list[Position]:
    """The positions of a game the computer plays against itself at `level` (fixed depth:
    the level's `max_depth`, so the game depends on `seed` alone), start first."""
    game = Game(variant)
    depth = LEVELS[level].max_depth
    while not game.is_over and game.ply < MAX_SELF_PLAY_PLIES:
        result = search(game.position, variant, depth=depth, level=level,
                        seed=seed * 1000 + game.ply, history=game.positions()[:-1])
        assert result.move is not None
        game.play(result.move)
    return game.positions()


_VARIANT_HELP = "the variant's key: " + ", ".join(VARIANTS)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m puzzles", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    mine = sub.add_parser("mine", help="mine puzzles from PDN games and self-play into a bank")
    mine.add_argument("--variant", required=True, help=_VARIANT_HELP)
    mine.add_argument("--pdn", nargs="*", default=[], type=Path, help="PDN files to mine")
    mine.add_argument("--self-play", type=int, default=0, metavar="N",
                      help="games the computer plays against itself (default 0)")
    mine.add_argument("--level", type=int, default=2, help="self-play level 1..5 (default 2)")
    mine.add_argument("--first-seed", type=int, default=None,
                      help="first self-play seed (default: the first of the variant's block, "
                           + ", ".join(f"{key} {seed}" for key, seed in FIRST_SEED.items())
                           + ")")
    mine.add_argument("--verify-depth", type=int, default=MiningSettings().verify_depth,
                      help="plies of the verifying searches (default %(default)s; always "
                           "at least the line's length plus two)")
    mine.add_argument("--node-budget", type=int, default=None, metavar="NODES",
                      help="skip (never accept) a candidate whose verification would "
                           "search more than NODES positions (default: no limit)")
    mine.add_argument("--out", type=Path, default=None,
                      help="bank file (default: the shipped bank of the variant)")
    mine.add_argument("--minutes", type=float, default=None,
                      help="stop after this many minutes (resume by running again)")
    mine.add_argument("--target", type=int, default=None,
                      help="stop once the bank holds this many puzzles")
    sift = sub.add_parser("filter", help="verify a bank again and drop what fails")
    sift.add_argument("--variant", required=True, help=_VARIANT_HELP)
    sift.add_argument("--out", type=Path, default=None,
                      help="bank file (default: the shipped bank of the variant)")
    sift.add_argument("--node-budget", type=int, default=None, metavar="NODES",
                      help="drop a puzzle whose verification would search more than NODES "
                           "positions (default: no limit)")
    return parser


def _sources(args: argparse.Namespace, variant: Variant) -> list[tuple[str, str, object]]:
    out: list[tuple[str, str, object]] = []
    for path in args.pdn:
        text = Path(path).read_text(encoding="utf-8-sig")
        for g in read_pdn(text, variant=variant):
            if g.variant is not variant:
                # The game's tags name its variant, and the reader replayed it so: its
                # positions are not positions of the variant being mined.
                raise ValueError(
                    f"{Path(path).name}, game {g.index}, is {g.variant.name} (its tags say "
                    f"so), not {variant.name}: mine it with --variant {g.variant.key}")
            tags = g.tags
            detail = " - ".join(
                v for v in (tags.get("White", ""), tags.get("Black", ""), tags.get("Event", ""),
                            tags.get("Date", "")) if v)
            out.append(("pdn", f"{Path(path).name}#{g.index}", (g.game.positions(), detail)))
    first = FIRST_SEED[variant.key] if args.first_seed is None else args.first_seed
    block = FIRST_SEED[variant.key]
    if args.self_play and not block <= first <= first + args.self_play <= block + SEED_BLOCK:
        raise ValueError(f"{variant.key} self-play seeds are {block}..{block + SEED_BLOCK - 1} "
                         "(each variant has its own seeds)")
    for seed in range(first, first + args.self_play):
        out.append(("self-play", f"level {args.level} seed {seed}", seed))
    return out


def mine(argv: Sequence[str]) -> int:
    """Run the command line `argv` (without the program name); returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        variant = get_variant(args.variant)
        if args.level not in LEVELS:
            raise ValueError(f"level must be 1..5, not {args.level}")
        if args.node_budget is not None and args.node_budget < 1:
            raise ValueError(f"the node budget must be 1 or more, not {args.node_budget}")
        out: Path = args.out or bank_path(variant)
        bank = BankFile.read(out, variant)
        sources = _sources(args, variant)
    except (DamaError, ValueError, OSError) as exc:
        print(f"puzzles: {exc}", file=sys.stderr)
        return 2
    settings = MiningSettings(verify_depth=max(2, args.verify_depth))
    bank.settings = settings.to_json()
    deadline = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    known = set(taken_elsewhere(variant, earlier_only=False))
    for p in bank.puzzles:
        known |= images(p.position())
    done = set(bank.sources_done)

    def should_stop() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    for kind, name, payload in sources:
        key = f"{kind}:{name}"
        if key in done:
            continue
        if should_stop() or (args.target is not None and len(bank.puzzles) >= args.target):
            break
        if kind == "pdn":
            positions, detail = payload  # type: ignore[misc]
        else:
            positions, detail = self_play_positions(variant, args.level, int(payload)), ""  # type: ignore[call-overload]
        started = time.monotonic()
        skipped: list[int] = []
        found = mine_game(positions, variant, settings, should_stop=should_stop,
                          node_budget=args.node_budget, skipped=skipped)
        if should_stop():
            break  # the source was cut short: mined again next run
        for f in found:
            if f.position in known:
                continue
            known |= images(f.position)
            bank.puzzles.append(_puzzle(
                variant, f.position, f.line, PuzzleSource(kind, name, f.ply, detail)))
        bank.sources_done.append(key)
        done.add(key)
        bank.write(out)
        over = f", {len(skipped)} over the node budget" if skipped else ""
        print(f"{key}: {len(found)} found in {time.monotonic() - started:.0f} s{over}, "
              f"bank {len(bank.puzzles)}", flush=True)
    bank.write(out)
    print(f"{out}: {len(bank.puzzles)} puzzles, {len(bank.sources_done)} sources mined")
    return 0


def _puzzle(variant: Variant, position: Position, line: VerifiedLine,
            source: PuzzleSource) -> Puzzle:
    fen = position.to_fen(variant)
    return Puzzle(
        id=puzzle_id(variant, fen), variant=variant.key, fen=fen,
        solution=move_texts(position, variant, line.moves), rating=initial_rating(line),
        score=line.score, runner_up=line.runner_up, verify_depth=line.depth, source=source,
        themes=tuple(t.value for t in line.themes),
    )


def sift(argv: Sequence[str]) -> int:
    """Run the `filter` command line `argv`; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        variant = get_variant(args.variant)
        out: Path = args.out or bank_path(variant)
        bank = BankFile.read(out, variant)
    except (DamaError, ValueError, OSError) as exc:
        print(f"puzzles: {exc}", file=sys.stderr)
        return 2
    kept: list[Puzzle] = []
    taken = set(taken_elsewhere(variant, earlier_only=True))
    for puzzle in bank.puzzles:
        position = puzzle.position()
        if position in taken:
            print(f"{puzzle.id}: dropped (the same position, or its mirror image, is in "
                  "another variant's bank)", flush=True)
            continue
        taken |= images(position)
        result = verify_puzzle(position, variant, MiningSettings(), budget=args.node_budget)
        if isinstance(result, VerifiedLine) and (
                move_texts(position, variant, result.moves[:1])[0] == puzzle.solution[0]):
            verified = _puzzle(variant, position, result, puzzle.source)
            kept.append(replace(verified, id=puzzle.id))
        else:
            why = result.name if isinstance(result, Rejection) else "another first move"
            print(f"{puzzle.id}: dropped ({why})", flush=True)
    bank.puzzles = kept
    bank.settings = MiningSettings().to_json()
    bank.write(out)
    print(f"{out}: {len(kept)} puzzles kept")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The `python -m puzzles` entry point."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "mine":
        return mine(argv)
    if argv and argv[0] == "filter":
        return sift(argv)
    _parser().parse_args(argv)
    return 2
