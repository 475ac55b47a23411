"""One entry point over both reference generators: legal moves under the move identity, and
perft counted under that identity (docs/RULES.md: a position with no legal move before the
requested depth contributes nothing)."""

from __future__ import annotations

from collections.abc import Mapping

from . import diagonal, orthogonal
from .board import (
    DIAGONAL_VARIANTS,
    ORTHOGONAL_VARIANTS,
    Board,
    Identity,
    Route,
    coords,
    is_playable,
    merge,
    playable_squares,
)


def legal_routes(board: Mapping[str, str], side: str, variant: str) -> list[Route]:
    """Every surviving route (after maximum capture / the Italian ladder; every route where
    the capture is of free choice)."""
    if variant in ORTHOGONAL_VARIANTS:
        return orthogonal.legal_routes(board, side)
    if variant in DIAGONAL_VARIANTS:
        light = sorted(sq for sq in board if not is_playable(sq, variant))
        if light:
            raise ValueError(
                f"pieces on light squares or off the board {light}: the diagonal board uses"
                " dark ones"
            )
        return diagonal.legal_routes(board, variant, side)
    raise ValueError(f"unknown variant {variant!r}")


def legal_moves(board: Mapping[str, str], side: str, variant: str) -> dict[Identity, list[Route]]:
    """The legal moves keyed by identity (start, end, set of captured), each with its
    surviving routes."""
    return merge(legal_routes(board, side, variant))


def apply_route(
    board: Mapping[str, str], side: str, route: Route, variant: str
) -> tuple[Board, str]:
    if variant in ORTHOGONAL_VARIANTS:
        return orthogonal.apply_route(board, side, route)
    return diagonal.apply_route(board, variant, side, route)


def perft(board: Mapping[str, str], side: str, variant: str, depth: int) -> int:
    """Leaf count at ``depth`` plies, moves counted under the identity."""
    if depth == 0:
        return 1
    moves = legal_moves(board, side, variant)
    if depth == 1:
        return len(moves)
    total = 0
    for routes in moves.values():
        after, other = apply_route(board, side, routes[0], variant)
        total += perft(after, other, variant, depth - 1)
    return total


START_FENS = {
    "turkish": "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
    ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "italian": "W:Wb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3:Ba6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8",
}
START_FENS["arab"] = START_FENS["turkish"]
START_FENS["moroccan"] = START_FENS["italian"]
# The a1-dark board (docs/RULES.md, "Family 3"): White first in Brazilian and Russian
# draughts, Black first in English checkers (Black on squares 1..12, White on 21..32).
_A1_DARK = "Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
START_FENS["brazilian"] = "W:" + _A1_DARK
START_FENS["russian"] = "W:" + _A1_DARK
START_FENS["english"] = "B:" + _A1_DARK
# International draughts (docs/RULES.md, "Family 3"): White's men on 31..50 (ranks 1 to 4),
# Black's on 1..20 (ranks 7 to 10), on the dark squares of the a1-dark 10×10 board.
_WHITE_10 = [s for s in playable_squares("international") if coords(s)[1] < 4]
_BLACK_10 = [s for s in playable_squares("international") if coords(s)[1] >= 6]
START_FENS["international"] = f"W:W{','.join(_WHITE_10)}:B{','.join(_BLACK_10)}"
