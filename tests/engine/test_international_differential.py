"""International draughts on the 10×10 board proved as the 8×8 variants are.

Three independent sources, moves compared under the move identity of docs/RULES.md (start,
end, set of captured squares), routes compared one by one:

- the reference generator (tests/engine/oracles, written from docs/RULES.md, "Family 3",
  on its own 10×10 board) against the published start-position perft: *dctl*'s
  duplicate-free row (rhalbersma/dctl, test/src/algo/traversal/initial/board_10x10.cpp,
  https://github.com/rhalbersma/dctl, after the FMJD forum "Perft" thread,
  https://damforum.nl/bb3/viewtopic.php?f=53&t=2308): 9, 81, 658, 4265, 27117, 167140
  (fast), 1049442 (slow);
- pydraughts (0.6.7, MIT licence; its "standard" variant is International draughts with
  the FMJD's square numbers) against the reference, every route of every move;
- the engine against pydraughts on `ENGINE_POSITIONS` random positions (slow): the same
  moves, the engine's route of each move one of pydraughts' routes of it, and every one of
  pydraughts' routes, written in full, read back by the engine as that move; and the
  generator's own hot path (`Generator.capture_keys`, `count_moves`) on positions laid out
  in FMJD numbers.

The engine against the reference on random positions (moves, routes, identities, notation,
perft) is in tests/engine/test_differential.py and test_identity_differential.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import draughts
import pytest

import engine
from engine.movegen_core import generator
from engine.squares10 import fmjd_bitboard, fmjd_number
from engine.variants import INTERNATIONAL

from .oracles import pydraughts_adapter, reference
from .oracles.board import Board, merge, parse_fen, route_text, to_fen
from .oracles.bridge import engine_moves, engine_position, sq_index
from .oracles.positions import (
    random_chains,
    random_cluster,
    random_position,
    random_rival_chains,
)

VARIANT = "international"
#: *dctl*'s duplicate-free start perft (module docstring), depths 1..6 (fast) and 7 (slow).
PUBLISHED = (9, 81, 658, 4265, 27117, 167140)
PUBLISHED_DEEP = {7: 1049442}
#: Random positions where the reference and pydraughts compare every route (slow).
REFERENCE_POSITIONS = 2_000
#: Random positions where the engine and pydraughts compare moves and routes (slow), in
#: `ENGINE_CHUNKS` tests of equal size.
ENGINE_POSITIONS = 20_000
ENGINE_CHUNKS = 4
#: Random positions laid out in FMJD numbers for the generator's hot path (slow; the same
#: hot path meets the reference on 20,000 positions in test_identity_differential.py).
GENERATOR_POSITIONS = 1_000

Maker = Callable[[random.Random, str], tuple[Board, str]]
MAKERS: tuple[Maker, ...] = (random_position, random_cluster, random_chains, random_rival_chains)


def _start() -> tuple[Board, str]:
    return parse_fen(reference.START_FENS[VARIANT])


def test_reference_start_fen_is_the_fmjd_start() -> None:
    board, side = _start()
    position = engine.Position.start(INTERNATIONAL)
    assert engine_position(board, side, VARIANT) == position
    assert side == "w" and len(board) == 40


def test_reference_matches_the_published_start_table() -> None:
    board, side = _start()
    got = [reference.perft(board, side, VARIANT, d) for d in range(1, len(PUBLISHED) + 1)]
    assert got == list(PUBLISHED)


@pytest.mark.slow
def test_reference_matches_the_published_start_table_deeper() -> None:
    board, side = _start()
    for depth, want in PUBLISHED_DEEP.items():
        assert reference.perft(board, side, VARIANT, depth) == want, f"depth {depth}"


def _mixed(rng: random.Random, count: int) -> list[tuple[Board, str]]:
    return [MAKERS[i % len(MAKERS)](rng, VARIANT) for i in range(count)]


@pytest.mark.slow
def test_reference_and_pydraughts_agree_on_every_route() -> None:
    rng = random.Random("international-reference-pydraughts")
    with_captures = 0
    for board, side in _mixed(rng, REFERENCE_POSITIONS):
        want = reference.legal_moves(board, side, VARIANT)
        got = merge(pydraughts_adapter.pydraughts_routes(board, side, VARIANT))
        assert set(got) == set(want), to_fen(board, side)
        for key, routes in want.items():
            assert sorted(got[key]) == sorted(routes), f"{to_fen(board, side)}: {key}"
        with_captures += any(captured for _, _, captured in want)
    assert with_captures * 2 >= REFERENCE_POSITIONS  # the positions exercise captures


def check_against_pydraughts(board: Board, side: str) -> bool:
    """The engine's moves of the position equal pydraughts' under the move identity, each
    engine route is one of pydraughts' routes of its move, and each of pydraughts' routes
    written in full reads back as its move. Returns whether the position has a capture."""
    where = to_fen(board, side)
    got = engine_moves(board, side, VARIANT)  # asserts no move listed twice
    want = merge(pydraughts_adapter.pydraughts_routes(board, side, VARIANT))
    assert set(got) == set(want), where
    position = engine_position(board, side, VARIANT)
    for key, routes in want.items():
        assert got[key] in routes, f"{where}: {got[key]} not among {routes}"
        start, end, captured = key
        identity = (sq_index(start, 10), sq_index(end, 10),
                    frozenset(sq_index(c, 10) for c in captured))
        for route in routes:
            move = engine.parse_move(route_text(route), position, INTERNATIONAL)
            assert move.identity == identity, f"{where}: {route_text(route)}"
    return any(captured for _, _, captured in want)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(ENGINE_CHUNKS))
def test_engine_and_pydraughts_agree_on_random_positions(chunk: int) -> None:
    rng = random.Random(f"international-engine-pydraughts-{chunk}")
    count = ENGINE_POSITIONS // ENGINE_CHUNKS
    with_captures = sum(check_against_pydraughts(*p) for p in _mixed(rng, count))
    assert with_captures * 2 >= count  # the positions exercise captures


# --- the generator's hot path, on positions laid out in FMJD numbers -----------------------

Identity = tuple[int, int, frozenset[int]]
Side = tuple[list[int], list[int]]  # men, kings (FMJD numbers)


def _numbers(bb: int) -> frozenset[int]:
    return frozenset(fmjd_number(sq) for sq in range(100) if (bb >> sq) & 1)


def generator_moves(white: Side, black: Side, white_to_move: bool) -> tuple[set[Identity], int]:
    """The generator's legal moves and its bulk count."""
    g = generator(INTERNATIONAL)
    us, them = (white, black) if white_to_move else (black, white)
    state = (fmjd_bitboard(us[0]), fmjd_bitboard(us[1]), fmjd_bitboard(them[0]),
             fmjd_bitboard(them[1]), 0 if white_to_move else 1)
    captures = g.capture_keys(*state)
    if captures:
        moves = {(fmjd_number(s), fmjd_number(e), _numbers(cm)) for s, e, cm in captures}
    else:
        moves = {(fmjd_number(s), fmjd_number(e), frozenset()) for s, e in g.quiet_moves(*state)}
    return moves, g.count_moves(*state)


def pydraughts_moves(white: Side, black: Side, white_to_move: bool) -> set[Identity]:
    def part(side: Side) -> str:
        items = sorted([(n, "") for n in side[0]] + [(n, "K") for n in side[1]])
        return ",".join(f"{k}{n}" for n, k in items)

    fen = f"{'W' if white_to_move else 'B'}:W{part(white)}:B{part(black)}"
    board = draughts.Board("standard", fen=fen)
    steps_list, captures = board._legal_moves_board()
    return {
        (steps[0][0], steps[-1][1], frozenset(c for c in taken if c is not None))
        for steps, taken in zip(steps_list, captures, strict=True)
    }


def fmjd_position(rng: random.Random) -> tuple[Side, Side, bool]:
    """Up to 14 pieces a side, a quarter of them kings, no man on its own crowning row."""
    squares = list(range(1, 51))
    rng.shuffle(squares)
    sides: list[Side] = [([], []), ([], [])]
    for colour in (0, 1):
        for _ in range(rng.randint(1, 14)):
            n = squares.pop()
            crowning = n <= 5 if colour == 0 else n >= 46
            sides[colour][1 if crowning or rng.random() < 0.25 else 0].append(n)
    return sides[0], sides[1], rng.random() < 0.5


@pytest.mark.slow
def test_generator_matches_pydraughts_on_random_positions() -> None:
    rng = random.Random(2024)
    with_captures = 0
    for _ in range(GENERATOR_POSITIONS):
        white, black, white_to_move = fmjd_position(rng)
        moves, count = generator_moves(white, black, white_to_move)
        assert moves == pydraughts_moves(white, black, white_to_move), (white, black)
        assert count == len(moves)
        with_captures += any(captured for _, _, captured in moves)
    assert with_captures * 2 >= GENERATOR_POSITIONS  # the positions exercise captures
