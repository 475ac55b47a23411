"""Moves by identity: the engine's capture search over states gives exactly the legal moves of
the independent reference generators (tests/engine/oracles: every route listed, the capture
rules of docs/RULES.md applied to routes, routes merged under the move identity), and
reads back every text that names a move through any of its surviving routes.

Checked on seeded random positions of every variant (`mixed_positions`: uniform, crowded
corners, capture-chain trees, rival chains of equal length and, for Italian, positions
where the ladder's steps 3 and 4 disagree), `FAST_COUNT` per variant in the fast suite and
`SLOW_COUNT` in the slow one, and on the positions that route listing could not handle.
For each position:

- `legal_moves` lists the reference's moves (start, end, set of captured), none twice, each
  with a path that is one of the reference's surviving routes of that move, and (for
  `LEGACY_VARIANTS`) the first of them in the former generator's route order
  (depth-first, directions in table order, nearest landing first: the canonical route
  `engine.legal_moves` documents);
- the perft and search hot path (`Generator.capture_keys`) gives the same moves, both
  following routes one by one and solving every piece over states (`ROUTE_BUDGET` 0);
- the former route-listing generator (oracles/legacy.py, a second oracle) agrees, for the
  variants it played (`LEGACY_VARIANTS`: it knows neither free choice of capture nor a man
  crowned mid-capture going on as a king);
- every surviving route given as a Move is written out in full as that route;
- every surviving route's full path, the short form `format_move` writes, and every choice
  of the route's intermediate landing squares (up to `SUBSETS_PER_ROUTE` per route) parse
  to exactly the moves whose surviving routes pass those squares in order, as read from
  the reference's routes: one move, or an AmbiguousMoveError naming exactly those (for at
  most `ROUTES_PARSED` routes of a position, sampled where it has more).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

import engine
import engine.movegen_core
from engine.movegen import side_relative
from engine.movegen_core import generator

from .oracles.board import (
    VARIANT_KEYS,
    Board,
    Identity,
    Route,
    board_size,
    parse_fen,
    to_fen,
)
from .oracles.bridge import engine_moves, engine_position, engine_variant, sq_index, sq_name
from .oracles.ladder import legal_under, swapped
from .oracles.legacy import LegacyGenerator
from .oracles.positions import (
    random_chains,
    random_cluster,
    random_ladder_duel,
    random_position,
    random_rival_chains,
)
from .oracles.reference import legal_moves as reference_moves

FAST_COUNT = 1_000
SLOW_COUNT = 20_000
SUBSETS_PER_ROUTE = 6
#: Most surviving routes of one position whose texts are parsed (a random sample beyond).
ROUTES_PARSED = 100
#: Pairs of ladder steps that can disagree (docs/RULES.md, Italian). Steps 2 and 3 or 2 and
#: 4 cannot: an Italian man never captures a king, so a man's capture has no king for
#: step 3 or 4 to prefer; swapping 2 and 4 moves step 4 before step 3 as well.
LADDER_PAIRS = ((1, 2), (1, 3), (1, 4), (3, 4), (2, 4))

KeySet = set[tuple[int, int, int]]

#: The variants the former generator played (maximum capture or the Italian ladder, and no
#: crowned man going on as a king): all but Russian draughts and English checkers.
LEGACY_VARIANTS = ("turkish", "arab", "moroccan", "italian", "brazilian")


def mixed_positions(rng: random.Random, variant: str) -> Iterator[tuple[Board, str]]:
    """Random positions of `variant`, the generators in turn."""
    makers: list[Callable[[], tuple[Board, str]]] = [
        lambda: random_position(rng, variant, rng.choice([0.1, 0.3, 0.6, 0.9])),
        lambda: random_cluster(rng, variant, rng.choice([4, 5, 6])),
        lambda: random_chains(rng, variant),
        lambda: random_chains(rng, variant, victim_king_share=0.85),
        lambda: random_rival_chains(rng, variant),
    ]
    if variant == "italian":
        makers.append(lambda: random_ladder_duel(rng))
    for n in itertools.count():
        yield makers[n % len(makers)]()


def _keys(moves: dict[Identity, list[Route]] | set[Identity], size: int) -> KeySet:
    return {
        (sq_index(s, size), sq_index(e, size), sum(1 << sq_index(c, size) for c in cap))
        for s, e, cap in moves
    }


def check_moves(board: Board, side: str, variant: str) -> dict[Identity, list[Route]]:
    """The engine's move lists against the reference and the legacy generator; returns the
    reference's moves with their surviving routes."""
    fen = to_fen(board, side)
    reference = reference_moves(board, side, variant)
    got = engine_moves(board, side, variant)  # asserts no move listed twice
    assert set(got) == set(reference), (
        f"{variant} {fen}: missing {sorted(map(str, set(reference) - set(got)))}, "
        f"extra {sorted(map(str, set(got) - set(reference)))}"
    )
    for key, route in got.items():
        assert route in reference[key], f"{variant} {fen}: {route} not among {reference[key]}"
    v = engine_variant(variant)
    state = side_relative(engine_position(board, side, variant))
    g = generator(v)
    captures = {k for k in _keys(reference, v.board_size) if k[2]}
    hot = g.capture_keys(*state)
    assert len(hot) == len(set(hot)) and set(hot) == captures, f"{variant} {fen}: capture_keys"
    budget = engine.movegen_core.ROUTE_BUDGET
    engine.movegen_core.ROUTE_BUDGET = 0
    try:
        assert set(g.capture_keys(*state)) == captures, f"{variant} {fen}: solved over states"
    finally:
        engine.movegen_core.ROUTE_BUDGET = budget
    if variant not in LEGACY_VARIANTS:
        return reference
    legacy = LegacyGenerator(v).legal_captures(*state)
    assert set(legacy) == captures, f"{variant} {fen}: legacy"
    for move in engine.legal_moves(engine_position(board, side, variant), v):
        if move.captured:
            first = legacy[(move.start, move.end, sum(1 << sq for sq in move.captured))][0]
            assert (move.landings, move.captured) == (first[1], first[2]), (
                f"{variant} {fen}: {move} is not the first surviving route {first}"
            )
    return reference


def _subsequence(needle: tuple[str, ...], hay: tuple[str, ...]) -> bool:
    it = iter(hay)
    return all(x in it for x in needle)


def check_parse(
    board: Board, side: str, variant: str, reference: dict[Identity, list[Route]],
    rng: random.Random,
) -> None:
    """Every surviving route's full path, every short form and choices of landing squares
    parse to the moves whose surviving routes they describe."""
    v = engine_variant(variant)
    position = engine_position(board, side, variant)
    by_id = {m.identity: m for m in engine.legal_moves(position, v)}
    size = board_size(variant)

    def ident(key: Identity) -> tuple[int, int, frozenset[int]]:
        return (
            sq_index(key[0], size),
            sq_index(key[1], size),
            frozenset(sq_index(c, size) for c in key[2]),
        )

    routes = [(key, r) for key, rs in reference.items() for r in rs]
    checked = routes if len(routes) <= ROUTES_PARSED else rng.sample(routes, ROUTES_PARSED)
    for key, (path, captured) in checked:
        move = by_id[ident(key)]
        sep = "x" if captured else "-"
        assert engine.parse_move(sep.join(path), position, v) == move, f"{to_fen(board, side)}"
        # A surviving route given by the caller is the one written out in full.
        given = engine.Move(
            sq_index(path[0], size),
            tuple(sq_index(sq, size) for sq in path[1:]),
            tuple(sq_index(sq, size) for sq in captured),
        )
        assert engine.format_move(given, position, v, full=True) == sep.join(path)
        inner = path[1:-1]
        choices = [c for k in range(len(inner) + 1) for c in itertools.combinations(inner, k)]
        if len(choices) > SUBSETS_PER_ROUTE:
            choices = [(), inner, *rng.sample(choices, SUBSETS_PER_ROUTE - 2)]
        for chosen in choices:
            text = sep.join((path[0], *chosen, path[-1]))
            want = {
                ident(k)
                for k, (p, _) in routes
                if p[0] == path[0] and p[-1] == path[-1] and _subsequence(chosen, p[1:-1])
            }
            # the text listing every landing of a surviving route names its move
            exact = {
                ident(k) for k, (p, _) in routes if p == (path[0], *chosen, path[-1])
            }
            if len(want) == 1 or len(exact) == 1:
                (named,) = exact if len(exact) == 1 else want
                got_move = engine.parse_move(text, position, v)
                assert got_move.identity == named, f"{text} in {to_fen(board, side)}"
            else:
                with pytest.raises(engine.AmbiguousMoveError) as info:
                    engine.parse_move(text, position, v)
                got = {m.identity for m in info.value.candidates}
                assert got == want, f"{text} in {to_fen(board, side)}"
    for move in by_id.values():
        short = engine.format_move(move, position, v)
        assert engine.parse_move(short, position, v) == move, f"{short} in {to_fen(board, side)}"
        if v.numeric_notation:
            numeric = engine.format_move(move, position, v, numeric=True)
            assert engine.parse_move(numeric, position, v) == move


def run_differential(variant: str, count: int, seed: int) -> Counter[str]:
    """Check `count` random positions; returns how many had captures and, for Italian, in
    how many each pair of ladder steps disagreed."""
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for board, side in itertools.islice(mixed_positions(rng, variant), count):
        reference = check_moves(board, side, variant)
        check_parse(board, side, variant, reference, rng)
        tally["positions"] += 1
        if any(k[2] for k in reference):
            tally["captures"] += 1
            if variant == "italian":
                true = legal_under(board, side)
                assert true == set(reference)
                for i, j in LADDER_PAIRS:
                    if legal_under(board, side, swapped(i, j)) != true:
                        tally[f"steps {i}-{j}"] += 1
    return tally


def _assert_ladder_told_apart(tally: Counter[str]) -> None:
    # The random positions must tell a correct ladder from one with two steps swapped:
    # steps 3 and 4 in at least 1% of the positions with a capture, every other pair that
    # can disagree at least once.
    assert tally["steps 3-4"] * 100 >= tally["captures"], dict(tally)
    for i, j in LADDER_PAIRS:
        assert tally[f"steps {i}-{j}"] >= 1, (i, j, dict(tally))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_moves_by_identity_match_the_reference(variant: str) -> None:
    tally = run_differential(variant, FAST_COUNT, seed=11)
    assert tally["positions"] == FAST_COUNT
    if variant == "italian":
        _assert_ladder_told_apart(tally)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_moves_by_identity_match_the_reference_many(variant: str) -> None:
    tally = run_differential(variant, SLOW_COUNT, seed=12)
    assert tally["positions"] == SLOW_COUNT
    if variant == "italian":
        _assert_ladder_told_apart(tally)


# --- the positions route listing could not handle -------------------------------------------

#: One white king against sixteen pieces: 611,570 capture routes, 63 legal moves.
WORST = "W:WKd2:Bb2,e2,a3,d3,g3,e4,c5,f5,b6,d6,g6,h6,a7,e7,Kb8,Kf8"
#: Black plays d4-d1 and White then has a capture with thousands of routes.
QUIET = "B:WKc8:Be2,a3,c3,b4,a5,h5,b6,c7,g7,Kb2,Kf3,Kd4,Kg4,Ke5,Kf6,Kb7"
#: Two flying kings and sixteen men: 116 legal moves, about 25,000 routes.
MANY_ROUTES = "W:WKe1,Ka2:Bd3,e5,e2,f7,h6,b4,f3,b3,g4,c8,g8,h3,a5,d6,g2,c2"

TURKISH = engine.get_variant("turkish")


def _quiet_then(fen: str, text: str) -> engine.Position:
    position = engine.Position.from_fen(fen, TURKISH)
    return engine.apply_move(position, engine.parse_move(text, position, TURKISH), TURKISH)


def _check_against_legacy(position: engine.Position, sample: int) -> None:
    state = side_relative(position)
    legacy = LegacyGenerator(TURKISH).legal_captures(*state)
    moves = engine.legal_moves(position, TURKISH)
    got = {(m.start, m.end, sum(1 << c for c in m.captured)): m for m in moves}
    assert set(got) == set(legacy)
    assert set(generator(TURKISH).capture_keys(*state)) == set(legacy)
    for key, move in got.items():
        assert move.landings in [r[1] for r in legacy[key]]
        assert engine.parse_move(engine.format_move(move, position, TURKISH), position,
                                 TURKISH) == move
        for route in legacy[key][:sample]:
            text = "x".join(sq_name(s) for s in (route[0], *route[1]))
            assert engine.parse_move(text, position, TURKISH) == move


@pytest.mark.parametrize("fen", [WORST, MANY_ROUTES])
def test_positions_with_many_routes_match_the_former_generator(fen: str) -> None:
    _check_against_legacy(engine.Position.from_fen(fen, TURKISH), sample=3)


def test_quiet_move_into_many_routes_matches_the_former_generator() -> None:
    position = engine.Position.from_fen(QUIET, TURKISH)
    assert engine.parse_move("d4-d1", position, TURKISH) in engine.legal_moves(position, TURKISH)
    _check_against_legacy(_quiet_then(QUIET, "d4-d1"), sample=3)


@pytest.mark.slow
@pytest.mark.parametrize("fen", [WORST, QUIET, MANY_ROUTES])
def test_positions_with_many_routes_match_the_reference(fen: str) -> None:
    board, side = parse_fen(fen)
    check_moves(board, side, "turkish")
    if fen == QUIET:
        check_moves(*parse_fen(_quiet_then(QUIET, "d4-d1").to_fen(TURKISH)), "turkish")
