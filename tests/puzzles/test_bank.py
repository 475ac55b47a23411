"""The shipped puzzle banks (`puzzles/data/<variant>.json`): every puzzle replays with
legal moves, was verified deeper than its line, and has a source and a rating; every bank
holds at least 100 puzzles; no position appears twice across the banks, as it is or as a
mirror image. The slow suite judges every shipped puzzle again by the material criterion
with an independent search over the reference move generators (tests/puzzles/oracle.py),
not with `puzzles.mining`."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine import VARIANTS, Color, Position, get_variant, legal_moves
from puzzles import load_bank
from puzzles.bank import BankFile, bank_path, images
from tests.engine.oracles.board import (
    Board,
    board_size,
    coords,
    name,
    parse_fen,
    rotate_board,
    to_fen,
)
from tests.puzzles.oracle import Judge, refutation

SHIPPED = [key for key in VARIANTS if bank_path(get_variant(key)).exists()]


def test_some_bank_is_shipped() -> None:
    assert SHIPPED


@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_puzzle_replays_and_is_recorded_whole(key: str) -> None:
    variant = get_variant(key)
    bank = BankFile.read(bank_path(variant), variant)
    assert bank.settings["criterion"] == "material" and bank.sources_done
    ids = [p.id for p in bank.puzzles]
    assert len(ids) == len(set(ids))
    for puzzle in load_bank(key):
        position = puzzle.position()
        assert len(legal_moves(position, variant)) >= 2, puzzle.id
        for pos, move in puzzle.line():
            assert move in legal_moves(pos, variant), puzzle.id
        assert len(puzzle.solution) % 2 == 1, puzzle.id  # ends with the solver's move
        assert puzzle.verify_depth >= len(puzzle.solution) + 2, puzzle.id
        assert puzzle.source.kind in ("pdn", "self-play") and puzzle.source.name
        assert 800 <= puzzle.rating <= 2300
        assert puzzle.themes[0] == "material", puzzle.id
        assert set(puzzle.themes) <= {"material", "crowning", "win"}, puzzle.id


NOT_MINED_YET: tuple[str, ...] = ()
"""Variants offered before their banks are mined (docs/PUZZLES.md, "The shipped banks"):
the bot says there are no puzzles for them yet (none now). Strict: a mined bank makes its
case pass, and the key must then leave this list."""


@pytest.mark.parametrize("key", [
    pytest.param(key, marks=pytest.mark.xfail(strict=True, reason="bank not mined yet"))
    if key in NOT_MINED_YET else key
    for key in VARIANTS
])
def test_every_variant_ships_at_least_100_puzzles(key: str) -> None:
    assert len(load_bank(key)) >= 100


def _mirror_left_right(board: Board, side: str, size: int) -> tuple[Board, str]:
    out = {}
    for sq, piece in board.items():
        f, r = coords(sq)
        out[name(size - 1 - f, r)] = piece
    return out, side


Transform = Callable[[Board, str], tuple[Board, str]]


def _images(key: str, fen: str) -> set[tuple[int, str]]:
    """The position (`fen` in the variant keyed `key`) and its mirror images, each with
    its board's size: turned 180 degrees with the colours swapped (the same position seen
    by the other side), reflected left-right (the orthogonal board is symmetric so; a
    diagonal board's reflection is the board of the other corner colour), and both."""
    size = board_size(key)
    board, side = parse_fen(fen)
    transforms: list[Transform] = [
        lambda b, s: (dict(b), s), lambda b, s: rotate_board(b, s, size),
        lambda b, s: _mirror_left_right(b, s, size),
        lambda b, s: rotate_board(*_mirror_left_right(b, s, size), size),
    ]
    return {(size, to_fen(*t(board, side))) for t in transforms}


def test_images_cover_the_mirror_the_audit_met() -> None:
    # A position and the same one turned round with the colours swapped are one position.
    fen = "W:Wa3,b3:Bf6"
    assert (8, "B:Wc3:Bg6,h6") in _images("turkish", fen)
    assert (8, "W:Wg3,h3:Bc6") in _images("turkish", fen)


def test_images_on_the_10x10_board_turn_and_reflect_its_ten_files() -> None:
    fen = "W:Wa1,c3:Bh8"
    assert _images("international", fen) == {
        (10, fen), (10, "B:Wc3:Bh8,j10"), (10, "W:Wj1,h3:Bc8"), (10, "B:Wh3:Bc8,a10")}
    assert not _images("international", fen) & _images("russian", fen)


def _squares(size: int, *names: str) -> int:
    """The bitboard of the squares `names` on the `size` × `size` board (square index
    `rank * size + file`, engine/position.py)."""
    bits = 0
    for sq in names:
        f, r = coords(sq)
        bits |= 1 << (r * size + f)
    return bits


def test_the_banks_mirror_images_of_a_10x10_position_stay_on_its_board() -> None:
    international = get_variant("international")
    position = Position.from_fen("W:Wa1,c3:Bh8", international)

    def at(white: tuple[str, ...], black: tuple[str, ...], turn: Color) -> Position:
        return Position(_squares(10, *white), 0, _squares(10, *black), 0, turn, 10)

    assert images(position) == {
        position,
        at(("c3",), ("h8", "j10"), Color.BLACK),
        at(("j1", "h3"), ("c8",), Color.WHITE),
        at(("h3",), ("a10", "c8"), Color.BLACK),
    }


def test_no_position_appears_twice_across_the_banks_even_mirrored() -> None:
    seen: dict[tuple[int, str], str] = {}
    clashes = []
    for key in SHIPPED:
        for puzzle in load_bank(key):
            found = _images(key, puzzle.fen)
            for image in found:
                if image in seen:
                    clashes.append((seen[image], puzzle.id))
            for image in found:
                seen[image] = puzzle.id
    assert clashes == []


@pytest.mark.slow
@pytest.mark.parametrize("key", SHIPPED)
def test_every_shipped_puzzle_holds_by_an_independent_material_search(key: str) -> None:
    # Each puzzle is judged on its own (a fresh `Judge`), so the bank is spread over the
    # machine's cores: the judgement is the same, in a fraction of the time.
    puzzles = load_bank(key)
    jobs = [(key, p.fen, p.solution, p.verify_depth) for p in puzzles]
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        verdicts = list(pool.map(_refutation, jobs, chunksize=1))
    refuted = [(p.id, why) for p, why in zip(puzzles, verdicts, strict=True) if why is not None]
    assert refuted == []


def _refutation(job: tuple[str, str, tuple[str, ...], int]) -> str | None:
    """`refutation` of one puzzle (key, FEN, solution, verifying depth), in a worker."""
    key, fen, solution, depth = job
    return refutation(key, fen, solution, depth, Judge(key))
