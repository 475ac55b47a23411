"""Machinery for the per-rule tests: a position, the exact expected moves written by hand in
full notation, and a check run against a move source in both colours.

The expected moves are written as full paths (``"c1xc5xe5xe3xa3"``, ``"d3-d4"``); the
captured pieces are read off the path here (the one piece between two consecutive landing
squares), which needs no move generation: the test author decides which paths are legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pytest
from _pytest.mark.structures import ParameterSet

from . import reference
from .board import (
    DIAGONAL_VARIANTS,
    Identity,
    Route,
    color_of,
    coords,
    name,
    opponent,
    parse_fen,
    rotate_fen,
    rotate_notation,
)


@dataclass(frozen=True)
class RuleCase:
    """One rule of docs/RULES.md shown on one position."""

    rule: str  # the rule, quoted or paraphrased from docs/RULES.md
    variants: tuple[str, ...]
    fen: str
    expected: tuple[str, ...]  # every legal move in full notation (one path per move)

    def rotated(self) -> RuleCase:
        """The same case turned 180 degrees with the colours swapped."""
        return RuleCase(
            self.rule,
            self.variants,
            rotate_fen(self.fen),
            tuple(rotate_notation(m) for m in self.expected),
        )


def case_params(cases: Sequence[RuleCase]) -> list[ParameterSet]:
    """`(case, variant)` parameters for each case, each of its variants, and each colour:
    as given (id `...-white`) and turned 180 degrees with the colours swapped (`...-black`)."""
    return [
        pytest.param(case if not turned else case.rotated(), variant, id=f"{i}-{variant}-{tag}")
        for i, case in enumerate(cases)
        for variant in case.variants
        for turned, tag in ((False, "white"), (True, "black"))
    ]


def _between(a: str, b: str) -> list[str]:
    (fa, ra), (fb, rb) = coords(a), coords(b)
    df, dr = fb - fa, rb - ra
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)) or (df, dr) == (0, 0):
        raise AssertionError(f"{a}-{b} is not along a line")
    steps = max(abs(df), abs(dr))
    uf, ur = df // steps, dr // steps
    return [name(fa + uf * i, ra + ur * i) for i in range(1, steps)]


def route_from_notation(board: Mapping[str, str], side: str, variant: str, text: str) -> Route:
    """Read a full-notation move against the position: the captured piece of each jump is the
    one piece between its two squares (orthogonal: pieces leave at once; diagonal: they stay,
    and a path crossing one is rejected as malformed)."""
    if "-" in text:
        a, b = text.split("-")
        return (a, b), ()
    path = tuple(text.split("x"))
    occupied = dict(board)
    del occupied[path[0]]
    captured: list[str] = []
    for a, b in itertools.pairwise(path):
        pieces = [s for s in _between(a, b) if s in occupied]
        assert len(pieces) == 1, f"{text}: {a}x{b} must cross exactly one piece, crosses {pieces}"
        (victim,) = pieces
        assert victim not in captured, f"{text}: {victim} jumped twice"
        assert color_of(occupied[victim]) == opponent(side), f"{text}: {victim} is not an enemy"
        assert b not in occupied, f"{text}: lands on the occupied {b}"
        captured.append(victim)
        if variant not in DIAGONAL_VARIANTS:
            del occupied[victim]
    return path, tuple(captured)


def identity_of(route: Route) -> Identity:
    path, captured = route
    return path[0], path[-1], frozenset(captured)


def expected_identities(case: RuleCase, variant: str) -> set[Identity]:
    board, side = parse_fen(case.fen)
    ids = [identity_of(route_from_notation(board, side, variant, m)) for m in case.expected]
    assert len(ids) == len(set(ids)), f"{case.rule}: the same move is written twice"
    return set(ids)


def describe(ids: Iterable[Identity]) -> list[str]:
    return sorted(f"{s}->{e} x{{{','.join(sorted(c))}}}" for s, e, c in ids)


def reference_identities(case: RuleCase, variant: str) -> set[Identity]:
    board, side = parse_fen(case.fen)
    return set(reference.legal_moves(board, side, variant))


def check_reference(case: RuleCase, variant: str) -> None:
    """The reference generator's moves equal the expected set."""
    got, want = reference_identities(case, variant), expected_identities(case, variant)
    assert describe(got) == describe(want), f"{case.rule} [{variant}] {case.fen}"


def check_engine(case: RuleCase, variant: str) -> None:
    """The engine's moves equal the expected set, with no duplicate, and each move carries a
    path that is legal for it (a surviving route of the reference generator)."""
    from .bridge import engine_moves

    board, side = parse_fen(case.fen)
    got = engine_moves(board, side, variant)
    want = expected_identities(case, variant)
    assert describe(got) == describe(want), f"{case.rule} [{variant}] {case.fen}"
    legal = reference.legal_moves(board, side, variant)
    for key, (path, captured) in got.items():
        assert (path, captured) in legal[key], (
            f"{case.rule} [{variant}] {case.fen}: engine path {path} capturing {captured} "
            f"is not a legal route of that move; legal routes: {legal[key]}"
        )
