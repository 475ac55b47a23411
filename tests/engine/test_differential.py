"""Randomized differential test: the engine's exact move sets against the independent
reference generators (tests/engine/oracles) on random legal positions of every variant.

A position is legal when every piece stands on a playable square, each side has 1 to the
variant's number of pieces, and no man stands on its own crowning rank; kings of both sides
and either side to move. For each position the engine must list exactly the reference's
moves (start, end, set of captured), no move twice, each with a path that is a legal route
of that move, and ``apply_move`` must give the reference's resulting position.

Hypothesis settings: in CI (``CI`` set) examples are derandomized (a fixed sequence), so a
run is reproducible; elsewhere they are random. The slow variant runs many more examples.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

from .oracles import pydraughts_adapter
from .oracles.board import (
    VARIANT_KEYS,
    Board,
    board_size,
    coords,
    crowning_rank,
    merge,
    playable_squares,
    to_fen,
)
from .oracles.bridge import board_of, engine_moves, engine_position, engine_variant, route_of
from .oracles.positions import men_per_side, random_chains, random_cluster
from .oracles.reference import apply_route, legal_moves
from .oracles.reference import perft as reference_perft

_COMMON: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "derandomize": bool(os.environ.get("CI")),
}
settings.register_profile("dama-differential", max_examples=400, **_COMMON)
settings.register_profile("dama-differential-slow", max_examples=3000, **_COMMON)
NORMAL = settings.get_profile("dama-differential")
SLOW = settings.get_profile("dama-differential-slow")


@st.composite
def uniform_positions(draw: st.DrawFn, variant: str) -> tuple[Board, str]:
    squares = draw(st.permutations(playable_squares(variant)))
    most = men_per_side(variant)
    counts = {"w": draw(st.integers(1, most)), "b": draw(st.integers(1, most))}
    king_share = draw(st.sampled_from([0, 2, 5, 10]))  # in tenths
    board: Board = {}
    for colour, count in counts.items():
        for _ in range(count):
            sq = squares.pop()
            king = draw(st.integers(0, 9)) < king_share
            if coords(sq)[1] == crowning_rank(colour, board_size(variant)):
                king = True  # a man may not stand on its own crowning rank
            board[sq] = colour.upper() if king else colour
    return board, draw(st.sampled_from("wb"))


def positions(variant: str) -> st.SearchStrategy[tuple[Board, str]]:
    """Uniform positions, crowded corners, and trees of capture chains (see oracles/positions:
    the last two make the rare rules, such as the Italian ladder's later steps, common)."""
    seeded = st.randoms(use_true_random=False)
    return st.one_of(
        uniform_positions(variant),
        st.builds(random_cluster, seeded, st.just(variant), st.sampled_from([4, 5, 6])),
        st.builds(random_chains, seeded, st.just(variant)),
    )


def check_position(board: Board, side: str, variant: str) -> None:
    fen = to_fen(board, side)
    reference = legal_moves(board, side, variant)
    got = engine_moves(board, side, variant)  # asserts no duplicates
    missing = sorted(map(str, set(reference) - set(got)))
    extra = sorted(map(str, set(got) - set(reference)))
    assert not missing and not extra, f"{variant} {fen}: missing {missing}, extra {extra}"
    v = engine_variant(variant)
    position = engine_position(board, side, variant)
    for move in engine.legal_moves(position, v):
        route = route_of(move, v.board_size)
        key = (route[0][0], route[0][-1], frozenset(route[1]))
        assert route in reference[key], f"{variant} {fen}: path {route} not among {reference[key]}"
        after = board_of(engine.apply_move(position, move, v))
        want = apply_route(board, side, route, variant)
        assert after == want, f"{variant} {fen}: after {route} got {after}, want {want}"


def _test(variant: str, profile: settings) -> Any:
    @profile
    @given(position=positions(variant))
    def run(position: tuple[Board, str]) -> None:
        check_position(*position, variant)

    return run


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_engine_matches_reference(variant: str) -> None:
    _test(variant, NORMAL)()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_engine_matches_reference_many(variant: str) -> None:
    _test(variant, SLOW)()


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["turkish", "italian"])
def test_reference_matches_pydraughts_many(variant: str) -> None:
    """The oracles' own cross-check: the reference generator against pydraughts."""

    @settings(SLOW, max_examples=500)
    @given(position=positions(variant))
    def run(position: tuple[Board, str]) -> None:
        board, side = position
        want = set(merge(pydraughts_adapter.pydraughts_routes(board, side, variant)))
        assert set(legal_moves(board, side, variant)) == want, to_fen(board, side)

    run()


def check_notation(board: Board, side: str, variant: str) -> None:
    """Every legal move prints in the short form ``from-to`` / ``fromxto`` exactly when no
    other legal move shares its start and end, and reads back (short, full and, for Italian,
    numeric) as the same move."""
    v = engine_variant(variant)
    position = engine_position(board, side, variant)
    moves = engine.legal_moves(position, v)
    for move in moves:
        (path, captured) = route_of(move, v.board_size)
        short = ("x" if captured else "-").join((path[0], path[-1]))
        shared = sum(1 for m in moves if (m.start, m.end) == (move.start, move.end))
        text = engine.format_move(move, position, v)
        if shared == 1:
            assert text == short, f"{to_fen(board, side)}: {text} for {short}"
        elif len(path) > 2:
            assert text != short, f"{to_fen(board, side)}: {text} is ambiguous"
        else:  # a single jump whose end another capture reaches further (free choice)
            assert text == short, f"{to_fen(board, side)}: {text} for a single jump {short}"
        assert engine.parse_move(text, position, v) == move
        full = engine.format_move(move, position, v, full=True)
        assert full == ("x" if captured else "-").join(path)
        assert engine.parse_move(full, position, v) == move
        if v.numeric_notation:
            numeric = engine.format_move(move, position, v, numeric=True)
            assert engine.parse_move(numeric, position, v) == move


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_notation_round_trip(variant: str) -> None:
    @settings(NORMAL, max_examples=100)
    @given(position=positions(variant))
    def run(position: tuple[Board, str]) -> None:
        check_notation(*position, variant)

    run()


def check_perft(board: Board, side: str, variant: str, depth: int) -> None:
    v = engine_variant(variant)
    position = engine_position(board, side, variant)
    for d in range(1, depth + 1):
        want = reference_perft(board, side, variant, d)
        assert engine.perft(position, v, d) == want, f"{variant} {to_fen(board, side)} depth {d}"


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_perft_matches_reference_on_random_positions(variant: str) -> None:
    """Perft (and so apply_move and any bulk counting at the last ply) on random positions."""

    @settings(NORMAL, max_examples=40)
    @given(position=positions(variant))
    def run(position: tuple[Board, str]) -> None:
        check_perft(*position, variant, 3)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_perft_matches_reference_on_random_positions_many(variant: str) -> None:
    @settings(SLOW, max_examples=500)
    @given(position=positions(variant))
    def run(position: tuple[Board, str]) -> None:
        check_perft(*position, variant, 3)

    run()
