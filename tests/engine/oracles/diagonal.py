"""Reference move generator for the diagonal family (Moroccan, Italian) and family 3
(Brazilian, Russian, English on 8×8; International on 10×10).

From docs/RULES.md, family 2: only dark squares; men step and capture diagonally forward only;
captured pieces stay on the board until the move is over (they cannot be jumped twice,
passed over or landed on), the start square counts as empty; a man reaching the far rank
is crowned and the move ends there, even mid-capture.
Moroccan: flying kings, maximum capture, free choice among equal counts.
Italian: short kings, a man never captures a king, and the four-step ladder.
From docs/RULES.md, family 3 (the board's a1 corner dark: `board.is_playable`):
Brazilian: as Moroccan, but men also capture backward, and a man that reaches the far rank
during a capture goes on capturing as a man; it is crowned only when its move ends there.
International: Brazilian's rules on the 10×10 board (`board.board_size`), crowned on rank 10.
Russian: men capture backward too; flying kings; free choice among captures, but a capture is
played to its end, so a flying king lands where it can go on capturing when it can; a man
reaching the far rank mid-capture is crowned at once and goes on capturing as a (flying) king.
English checkers: short kings; men capture forward only; free choice among captures; a man
reaching the far rank mid-capture is crowned and the move ends.
"""

from __future__ import annotations

from collections.abc import Mapping

from .board import (
    Board,
    Route,
    board_size,
    color_of,
    coords,
    crowning_rank,
    forward,
    is_king,
    name,
    on_board,
    opponent,
)

KING_DIRECTIONS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
FLYING_KINGS = frozenset({"moroccan", "brazilian", "russian", "international"})
MEN_CAPTURE_BACKWARD = frozenset({"brazilian", "russian", "international"})
CROWNED_MID_CAPTURE_ENDS_MOVE = frozenset({"moroccan", "italian", "english"})
CROWNED_KING_CONTINUES = frozenset({"russian"})
FREE_CHOICE = frozenset({"russian", "english"})


def man_directions(side: str) -> tuple[tuple[int, int], ...]:
    return ((1, forward(side)), (-1, forward(side)))


def man_capture_directions(variant: str, side: str) -> tuple[tuple[int, int], ...]:
    return KING_DIRECTIONS if variant in MEN_CAPTURE_BACKWARD else man_directions(side)


def _capture_routes(
    board: Board,
    variant: str,
    side: str,
    sq: str,
    king: bool,
    path: tuple[str, ...],
    captured: tuple[str, ...],
) -> list[Route]:
    """Every complete capture route continuing from ``sq``. ``board`` has the moving piece
    lifted; the captured pieces are still on it (they block) and listed in ``captured``."""
    flying = king and variant in FLYING_KINGS
    size = board_size(variant)
    f, r = coords(sq)
    routes: list[Route] = []
    for df, dr in KING_DIRECTIONS if king else man_capture_directions(variant, side):
        cf, cr = f + df, r + dr
        if flying:
            while on_board(cf, cr, size) and name(cf, cr) not in board:
                cf, cr = cf + df, cr + dr
        if not on_board(cf, cr, size):
            continue
        victim = name(cf, cr)
        if victim not in board or victim in captured:
            continue  # empty beyond reach, or a piece already taken: it blocks
        if color_of(board[victim]) != opponent(side):
            continue
        if variant == "italian" and not king and is_king(board[victim]):
            continue  # an Italian man never captures a king
        landings: list[str] = []
        lf, lr = cf + df, cr + dr
        while on_board(lf, lr, size) and name(lf, lr) not in board:
            landings.append(name(lf, lr))
            if not flying:
                break
            lf, lr = lf + df, lr + dr
        # A capture is played to its end: a flying king must land where it can go on
        # capturing when one of its landing squares allows it (it decides nothing under
        # maximum capture, where shorter routes lose anyway; it does under free choice).
        going_on: list[Route] = []
        ending: list[Route] = []
        for land in landings:
            new_path, new_captured = (*path, land), (*captured, victim)
            crowned = not king and coords(land)[1] == crowning_rank(side, size)
            if crowned and variant in CROWNED_MID_CAPTURE_ENDS_MOVE:
                ending.append((new_path, new_captured))  # crowned: the move ends here
                continue
            # Crowned and going on: as a king in Russian, as a man in Brazilian.
            as_king = king or (crowned and variant in CROWNED_KING_CONTINUES)
            more = _capture_routes(board, variant, side, land, as_king, new_path, new_captured)
            if more:
                going_on.extend(more)
            else:
                ending.append((new_path, new_captured))
        routes.extend(going_on if going_on else ending)
    return routes


def _quiet_routes(board: Mapping[str, str], variant: str, side: str, sq: str) -> list[Route]:
    king = is_king(board[sq])
    flying = king and variant in FLYING_KINGS
    size = board_size(variant)
    f, r = coords(sq)
    routes: list[Route] = []
    for df, dr in KING_DIRECTIONS if king else man_directions(side):
        tf, tr = f + df, r + dr
        while on_board(tf, tr, size) and name(tf, tr) not in board:
            routes.append(((sq, name(tf, tr)), ()))
            if not flying:
                break
            tf, tr = tf + df, tr + dr
    return routes


def all_capture_routes(board: Mapping[str, str], variant: str, side: str) -> list[Route]:
    """Every complete capture route of every piece of ``side`` (before any precedence rule)."""
    routes: list[Route] = []
    for sq, piece in sorted(board.items()):
        if color_of(piece) != side:
            continue
        lifted = dict(board)
        del lifted[sq]  # the start square counts as empty
        routes.extend(_capture_routes(lifted, variant, side, sq, is_king(piece), (sq,), ()))
    return routes


def italian_rank(board: Mapping[str, str], route: Route) -> tuple[object, ...]:
    """Sort key of the Italian ladder, smaller is better: most pieces; king over man; most
    kings; the captured kings' positions in the sequence compared in turn (earlier wins)."""
    path, captured = route
    king_indices = tuple(i for i, sq in enumerate(captured) if is_king(board[sq]))
    return (-len(captured), 0 if is_king(board[path[0]]) else 1, -len(king_indices), king_indices)


def legal_routes(board: Mapping[str, str], variant: str, side: str) -> list[Route]:
    """The legal moves as routes (the precedence rules applied to routes)."""
    captures = all_capture_routes(board, variant, side)
    if captures:
        if variant in FREE_CHOICE:
            return captures
        if variant == "italian":
            best = min(italian_rank(board, route) for route in captures)
            return [route for route in captures if italian_rank(board, route) == best]
        most = max(len(c) for _, c in captures)
        return [route for route in captures if len(route[1]) == most]
    routes: list[Route] = []
    for sq, piece in sorted(board.items()):
        if color_of(piece) == side:
            routes.extend(_quiet_routes(board, variant, side, sq))
    return routes


def apply_route(
    board: Mapping[str, str], variant: str, side: str, route: Route
) -> tuple[Board, str]:
    """Play a route: remove the captured pieces together, move, crown a man that landed on
    the far rank (at the end, or mid-capture where it went on as a king)."""
    path, captured = route
    after = dict(board)
    piece = after.pop(path[0])
    for sq in captured:
        del after[sq]
    end = path[-1]
    crowning = path[1:] if variant in CROWNED_KING_CONTINUES else path[-1:]
    far = crowning_rank(side, board_size(variant))
    if not is_king(piece) and any(coords(s)[1] == far for s in crowning):
        piece = piece.upper()
    after[end] = piece
    return after, opponent(side)
