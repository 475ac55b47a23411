"""Public move generation: legal moves, applying a move, perft.

All functions take a `Position` and its `Variant`; the work is done by the bitboard
generator of `engine.movegen_core`. Rules: RULES.md (move identity: same start, same end
and same set of captured squares is one move; capture precedence is applied to routes
before they are merged, and a merged move keeps the first surviving route as its path).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import IllegalMoveError
from engine.movegen_core import Route, generator
from engine.moves import Move
from engine.pieces import Color
from engine.position import Position
from engine.variants import Variant

_RANK_1 = 0xFF
_RANK_8 = 0xFF << 56


def side_relative(position: Position) -> tuple[int, int, int, int, int]:
    """(us_men, us_kings, them_men, them_kings, c) with c = 0 when White is to move."""
    if position.turn is Color.WHITE:
        return (position.white_men, position.white_kings,
                position.black_men, position.black_kings, 0)
    return (position.black_men, position.black_kings,
            position.white_men, position.white_kings, 1)


@dataclass(frozen=True, slots=True)
class MoveTable:
    """Everything notation needs about a position's moves.

    moves: the legal moves (merged, sorted by start, end, path).
    routes: every surviving capture route as (its merged move, that route as a Move).
    must_capture: whether captures are compulsory here (some capture exists).
    all_captures: every complete capture route before the precedence rule.
    quiet: the quiet moves the pieces would have without compulsory capture.
    """

    moves: tuple[Move, ...]
    routes: tuple[tuple[Move, Move], ...]
    must_capture: bool
    all_captures: tuple[Move, ...]
    quiet: tuple[Move, ...]


def _route_move(r: Route) -> Move:
    return Move(r[0], r[1], r[2])


def move_table(position: Position, variant: Variant) -> MoveTable:
    """The legal moves of `position` with the extra detail notation uses (see MoveTable)."""
    g = generator(variant)
    us_m, us_k, th_m, th_k, c = side_relative(position)
    quiet = tuple(Move(f, (t,)) for f, t in g.quiet_moves(us_m, us_k, th_m, th_k, c))
    routes = g.capture_routes(us_m, us_k, th_m, th_k, c)
    if not routes:
        return MoveTable(quiet, tuple((m, m) for m in quiet), False, (), quiet)
    merged: dict[tuple[int, int, int], Move] = {}
    pairs: list[tuple[tuple[int, int, int], Move]] = []
    for r in g.select(routes, th_k):
        key = (r[0], r[1][-1], r[3])
        route = _route_move(r)
        merged.setdefault(key, route)
        pairs.append((key, route))
    moves = tuple(sorted(merged.values(), key=_order))
    return MoveTable(
        moves,
        tuple((merged[key], route) for key, route in pairs),
        True,
        tuple(_route_move(r) for r in routes),
        quiet,
    )


def _order(m: Move) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    return (m.start, m.end, tuple(sorted(m.captured)), m.landings)


def legal_moves(position: Position, variant: Variant) -> list[Move]:
    """Every legal move of the side to move, one per move identity, sorted by start square,
    end square, captured squares and path. Empty when the side to move cannot move."""
    g = generator(variant)
    us_m, us_k, th_m, th_k, c = side_relative(position)
    routes = g.capture_routes(us_m, us_k, th_m, th_k, c)
    if not routes:
        return [Move(f, (t,)) for f, t in g.quiet_moves(us_m, us_k, th_m, th_k, c)]
    merged: dict[tuple[int, int, int], Move] = {}
    for r in g.select(routes, th_k):
        key = (r[0], r[1][-1], r[3])
        if key not in merged:
            merged[key] = _route_move(r)
    return sorted(merged.values(), key=_order)


def play_unchecked(position: Position, move: Move) -> Position:
    """`position` after `move`, trusting that the move is legal: the piece goes from
    `move.start` to `move.end`, captured pieces leave, a man ending on its far rank is
    crowned, and the turn passes."""
    fb = 1 << move.start
    tb = 1 << move.end
    cm = 0
    for sq in move.captured:
        cm |= 1 << sq
    keep = ~cm
    wm, wk = position.white_men, position.white_kings
    bm, bk = position.black_men, position.black_kings
    if position.turn is Color.WHITE:
        if wm & fb:
            wm ^= fb
            if tb & _RANK_8:
                wk |= tb
            else:
                wm |= tb
        else:
            wk = (wk ^ fb) | tb
        return Position(wm, wk, bm & keep, bk & keep, Color.BLACK)
    if bm & fb:
        bm ^= fb
        if tb & _RANK_1:
            bk |= tb
        else:
            bm |= tb
    else:
        bk = (bk ^ fb) | tb
    return Position(wm & keep, wk & keep, bm, bk, Color.WHITE)


def apply_move(position: Position, move: Move, variant: Variant) -> Position:
    """The position after playing `move` (removes captured pieces, crowns a man that ends
    on its far rank, passes the turn).

    `move` may record any route of a legal move (moves are equal by identity).
    Raises IllegalMoveError when `move` is not legal in `position`.
    """
    for legal in legal_moves(position, variant):
        if legal == move:
            return play_unchecked(position, legal)
    raise IllegalMoveError(f"{move} is not a legal move in this position")


def perft(position: Position, variant: Variant, depth: int) -> int:
    """The number of positions reached after exactly `depth` plies (RULES.md: moves counted
    under the move identity; a position without moves before that depth adds nothing).
    depth 0 gives 1. Raises ValueError for a negative depth."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if depth == 0:
        return 1
    us_m, us_k, th_m, th_k, c = side_relative(position)
    return generator(variant).perft(us_m, us_k, th_m, th_k, c, depth)
