"""Reference move generator for the orthogonal family (Turkish draughts, Arab Dama).

From docs/RULES.md, family 1: men step and capture forward, left or right; kings fly along ranks
and files; captured pieces leave the board at once; no 180-degree turn between two jumps;
the start square counts as empty; maximum capture over all pieces (men and kings count
one); a man reaching the far rank mid-capture goes on capturing as a man and is crowned only
if the move ends there.
"""

from __future__ import annotations

from collections.abc import Mapping

from .board import (
    Board,
    Route,
    color_of,
    coords,
    crowning_rank,
    forward,
    is_king,
    name,
    on_board,
    opponent,
)

ALL_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def man_directions(side: str) -> tuple[tuple[int, int], ...]:
    """Forward, right, left (never backward)."""
    return ((0, forward(side)), (1, 0), (-1, 0))


def _capture_routes(
    board: Board,
    side: str,
    sq: str,
    king: bool,
    path: tuple[str, ...],
    captured: tuple[str, ...],
    last_dir: tuple[int, int] | None,
) -> list[Route]:
    """Every complete capture route continuing from ``sq``; ``board`` already has the moving
    piece lifted and the pieces captured so far removed (immediate removal)."""
    f, r = coords(sq)
    routes: list[Route] = []
    directions = ALL_DIRECTIONS if king else man_directions(side)
    for df, dr in directions:
        if last_dir is not None and (df, dr) == (-last_dir[0], -last_dir[1]):
            continue  # no 180-degree turn
        # find the piece to jump
        cf, cr = f + df, r + dr
        if king:
            while on_board(cf, cr) and name(cf, cr) not in board:
                cf, cr = cf + df, cr + dr
        if not on_board(cf, cr):
            continue
        victim = name(cf, cr)
        if victim not in board or color_of(board[victim]) != opponent(side):
            continue
        # landing squares beyond it
        landings: list[str] = []
        lf, lr = cf + df, cr + dr
        while on_board(lf, lr) and name(lf, lr) not in board:
            landings.append(name(lf, lr))
            if not king:
                break
            lf, lr = lf + df, lr + dr
        for land in landings:
            after = dict(board)
            del after[victim]  # removed the moment it is jumped
            more = _capture_routes(
                after, side, land, king, (*path, land), (*captured, victim), (df, dr)
            )
            if more:
                routes.extend(more)
            else:
                routes.append(((*path, land), (*captured, victim)))
    return routes


def _quiet_routes(board: Board, side: str, sq: str, king: bool) -> list[Route]:
    f, r = coords(sq)
    routes: list[Route] = []
    for df, dr in ALL_DIRECTIONS if king else man_directions(side):
        tf, tr = f + df, r + dr
        while on_board(tf, tr) and name(tf, tr) not in board:
            routes.append(((sq, name(tf, tr)), ()))
            if not king:
                break
            tf, tr = tf + df, tr + dr
    return routes


def all_capture_routes(board: Mapping[str, str], side: str) -> list[Route]:
    """Every complete capture route of every piece of ``side`` (before the maximum rule)."""
    routes: list[Route] = []
    for sq, piece in sorted(board.items()):
        if color_of(piece) != side:
            continue
        lifted = dict(board)
        del lifted[sq]  # the start square counts as empty
        routes.extend(_capture_routes(lifted, side, sq, is_king(piece), (sq,), (), None))
    return routes


def legal_routes(board: Mapping[str, str], side: str) -> list[Route]:
    """The legal moves as routes: the longest captures if any capture exists, else steps."""
    captures = all_capture_routes(board, side)
    if captures:
        best = max(len(c) for _, c in captures)
        return [route for route in captures if len(route[1]) == best]
    routes: list[Route] = []
    for sq, piece in sorted(board.items()):
        if color_of(piece) == side:
            routes.extend(_quiet_routes(dict(board), side, sq, is_king(piece)))
    return routes


def apply_route(board: Mapping[str, str], side: str, route: Route) -> tuple[Board, str]:
    """Play a route: remove the captured pieces, move the piece, crown a man that ends on
    the far rank; the other side is to move."""
    path, captured = route
    after = dict(board)
    piece = after.pop(path[0])
    for sq in captured:
        del after[sq]
    end = path[-1]
    if not is_king(piece) and coords(end)[1] == crowning_rank(side):
        piece = piece.upper()
    after[end] = piece
    return after, opponent(side)
