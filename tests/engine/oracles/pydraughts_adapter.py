"""pydraughts 0.6.7 (``import draughts``, MIT licence) as a second, independent move source
for Italian and Turkish (Arab has Turkish's moves), and for the a1-dark Brazilian and Russian
draughts, English checkers and International draughts (pydraughts' "standard" variant).

Board numbering (read from draughts/convert.py): Italian squares are the Italian numbers
1..32 (1 = a8 ... 32 = h1), the same as docs/RULES.md; Turkish squares are 1..64 with
n = (rank - 1) * 8 + file + 1 (a1 = 1, h1 = 8, a2 = 9, h8 = 64). English squares are the
English checkers numbers 1..32 (1 = b8 ... 32 = g1, docs/RULES.md); Russian squares are
numbered 1..32 from White's side, row by row from the left (a1 = 1, g1 = 4, b2 = 5,
h8 = 32), seen in its start moves (a3-b4 is its 9-13) and checked by the differential.
Brazilian squares are numbered as Russian ones: pydraughts builds both boards alike (a1
dark, 4 squares a row: draughts/core/board.py, draughts/convert.py `_get_squares`, the
notation 0 of `_rotate_move`), so it plays Brazilian on our a1-dark board square for square;
the differential checks it too. International squares are the FMJD's numbers 1..50
(1 = b10 ... 50 = i1, docs/RULES.md; `board.fmjd_number`), pydraughts' own numbering of its
"standard" board.

Its three known quirks in 0.6.7 and how they are handled here:
1. it lists one entry per capture route: routes are returned as they are, and callers merge
   them under the move identity (``board.merge``);
2. a Turkish king's quiet move may pass through pieces (a bug): such moves are dropped;
3. for the Italian ladder's step 4 it compares only the first captured king, so it may keep
   routes that a later king rules out: the full step 4 is applied again to its routes here
   (its routes already tie on steps 1-3 and on the first king).
"""

from __future__ import annotations

from collections.abc import Mapping

import draughts

from .board import (
    Board,
    Route,
    color_of,
    coords,
    english_number,
    english_square,
    fmjd_number,
    fmjd_square,
    is_king,
    italian_number,
    italian_square,
    merge,
    name,
)

SUPPORTED = frozenset(
    {"turkish", "arab", "italian", "brazilian", "russian", "english", "international"}
)
#: pydraughts' names of our variants where they differ.
_PD_NAMES = {"arab": "turkish", "international": "standard"}


def _pd_variant(variant: str) -> str:
    if variant not in SUPPORTED:
        raise ValueError(f"pydraughts has no {variant!r}")
    return _PD_NAMES.get(variant, variant)


def _to_number(sq: str, pd_variant: str) -> int:
    if pd_variant == "italian":
        return italian_number(sq)
    if pd_variant == "english":
        return english_number(sq)
    if pd_variant == "standard":
        return fmjd_number(sq)
    f, r = coords(sq)
    if pd_variant in ("brazilian", "russian"):
        return r * 4 + f // 2 + 1
    return r * 8 + f + 1


def _to_square(n: int, pd_variant: str) -> str:
    if pd_variant == "italian":
        return italian_square(n)
    if pd_variant == "english":
        return english_square(n)
    if pd_variant == "standard":
        return fmjd_square(n)
    if pd_variant in ("brazilian", "russian"):
        row, col = divmod(n - 1, 4)
        return name(col * 2 + row % 2, row)
    return name((n - 1) % 8, (n - 1) // 8)


def to_pydraughts_fen(board: Mapping[str, str], side: str, variant: str) -> str:
    """Numeric FEN in pydraughts' numbering (it converts it to its internal one itself)."""
    pdv = _pd_variant(variant)

    def part(colour: str) -> str:
        items = sorted(
            (_to_number(s, pdv), is_king(p)) for s, p in board.items() if color_of(p) == colour
        )
        return ",".join(("K" if k else "") + str(n) for n, k in items)

    return f"{side.upper()}:W{part('w')}:B{part('b')}"


def _between_orthogonal(a: str, b: str) -> list[str]:
    (fa, ra), (fb, rb) = coords(a), coords(b)
    df = (fb > fa) - (fb < fa)
    dr = (rb > ra) - (rb < ra)
    out = []
    f, r = fa + df, ra + dr
    while (f, r) != (fb, rb):
        out.append(name(f, r))
        f, r = f + df, r + dr
    return out


def _full_italian_step4(board: Mapping[str, str], routes: list[Route]) -> list[Route]:
    """docs/RULES.md Italian step 4 in full: among the given routes (already tied on steps 1-3),
    keep those whose captured kings come earliest, compared king by king."""

    def kings_at(route: Route) -> list[int]:
        return [i for i, sq in enumerate(route[1]) if is_king(board[sq])]

    best = min((kings_at(r) for r in routes), default=[])
    return [r for r in routes if kings_at(r) == best]


def pydraughts_routes(board: Mapping[str, str], side: str, variant: str) -> list[Route]:
    """pydraughts' legal moves of the position as routes, its quirks corrected."""
    pdv = _pd_variant(variant)
    game = draughts.Board(pdv, fen=to_pydraughts_fen(board, side, variant))
    board_moves, captures = game._legal_moves_board()
    routes: list[Route] = []
    for steps, taken in zip(board_moves, captures, strict=True):
        path = (_to_square(steps[0][0], pdv), *(_to_square(s[1], pdv) for s in steps))
        captured = tuple(_to_square(c, pdv) for c in taken if c is not None)
        passes_through = (
            not captured
            and pdv == "turkish"
            and any(sq in board for sq in _between_orthogonal(path[0], path[1]))
        )
        if passes_through:
            continue  # quirk 2: a king's quiet move passing through a piece
        routes.append((path, captured))
    if pdv == "italian" and routes and routes[0][1]:
        routes = _full_italian_step4(board, routes)
    return routes


def from_pydraughts_fen(fen: str, variant: str) -> tuple[Board, str]:
    """pydraughts' FEN of a position (numbers or algebraic squares) -> plain board."""
    pdv = _pd_variant(variant)
    side_part, *parts = fen.split(":")
    board: Board = {}
    for part in parts:
        colour = part[0].lower()
        for token in filter(None, part[1:].split(",")):
            king = token.startswith("K")
            sq = token[1:] if king else token
            if sq.isdigit():
                sq = _to_square(int(sq), pdv)
            board[sq] = colour.upper() if king else colour
    return board, side_part.lower()


def pydraughts_apply(board: Board, side: str, variant: str, route: Route) -> tuple[Board, str]:
    """Play ``route`` with pydraughts itself and read its resulting position back."""
    pdv = _pd_variant(variant)
    game = draughts.Board(pdv, fen=to_pydraughts_fen(board, side, variant))
    path, captured = route
    for move in game.legal_moves():
        steps = move.board_move
        got = (_to_square(steps[0][0], pdv), *(_to_square(s[1], pdv) for s in steps))
        taken = tuple(_to_square(c, pdv) for c in (move.captures or []) if c is not None)
        if got == path and taken == captured:
            game.push(move)
            return from_pydraughts_fen(game.fen, variant)
    raise AssertionError(f"pydraughts has no route {route}")


def perft(board: Board, side: str, variant: str, depth: int) -> int:
    """pydraughts perft counted under our move identity (its routes merged), every move
    played by pydraughts itself."""
    if depth == 0:
        return 1
    moves = merge(pydraughts_routes(board, side, variant))
    if depth == 1:
        return len(moves)
    total = 0
    for routes in moves.values():
        after, other = pydraughts_apply(board, side, variant, routes[0])
        total += perft(after, other, variant, depth - 1)
    return total
