"""Public move generation: legal moves, applying a move, perft.

All functions take a `Position` and its `Variant`; the work is done by the bitboard
generator of `engine.movegen_core` and the solved captures of `engine.capture_graph`.
Rules: docs/RULES.md (move identity: same start, same end and same set of captured squares
is one move; a move is legal when one of its routes survives the capture precedence, and
it keeps a surviving route as its path).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.capture_graph import CaptureGraph
from engine.errors import IllegalMoveError, MoveProblem, PositionError
from engine.movegen_core import Solved, generator
from engine.moves import Move
from engine.pieces import Color
from engine.position import Position
from engine.squares_board import move_name
from engine.variants import Variant

_RANK_1 = 0xFF
_RANK_8 = 0xFF << 56
#: White's far rank and Black's (White's near rank), by board size: where men are crowned.
_CROWNING = {8: (_RANK_8, _RANK_1), 10: (0x3FF << 90, 0x3FF)}


def side_relative(position: Position) -> tuple[int, int, int, int, int]:
    """(us_men, us_kings, them_men, them_kings, c) with c = 0 when White is to move."""
    if position.turn is Color.WHITE:
        return (position.white_men, position.white_kings,
                position.black_men, position.black_kings, 0)
    return (position.black_men, position.black_kings,
            position.white_men, position.white_kings, 1)


@dataclass(frozen=True, slots=True)
class MoveTable:
    """A position's moves with what notation needs to read and write them.

    moves: the legal moves, one per move identity, each with its canonical route (sorted
    by start, end, captured squares, path).
    captures: the solved capture search (`CaptureGraph`), None when no capture exists.
    quiet: the quiet moves the pieces would have without compulsory capture.
    """

    moves: tuple[Move, ...]
    captures: CaptureGraph | None
    quiet: tuple[Move, ...]

    @property
    def must_capture(self) -> bool:
        """Whether captures are compulsory here (some capture exists)."""
        return self.captures is not None


@lru_cache(maxsize=4)
def move_table(position: Position, variant: Variant) -> MoveTable:
    """The legal moves of `position` with the detail notation uses (see MoveTable). Its cost
    grows with the states captures pass through, not with the number of capture routes.
    The last few tables are cached: a game lists its moves, then reads the move played
    against the same table.

    Raises PositionError when `position` is not on `variant`'s board (`check_board`)."""
    check_board(position, variant)
    g = generator(variant)
    us_m, us_k, th_m, th_k, c = side_relative(position)
    quiet = tuple(Move(f, (t,)) for f, t in g.quiet_moves(us_m, us_k, th_m, th_k, c))
    graph = CaptureGraph.solve(g, us_m, us_k, th_m, th_k, c)
    if graph is None:
        return MoveTable(quiet, None, quiet)
    return MoveTable(_capture_moves(graph), graph, quiet)


def check_board(position: Position, variant: Variant) -> None:
    """Raises PositionError unless `position` is on `variant`'s board (the same
    `board_size`): an 8×8 position given with International draughts, or the reverse."""
    size = position.board_size
    if size != variant.board_size:
        raise PositionError(
            f"the position is on a {size}×{size} board; {variant.name} is played on "
            f"{variant.board_size}×{variant.board_size}: read it with "
            f"Position.from_fen(text, variant)"
        )


class _OverBudget(Exception):
    """The capture search went past its state budget."""


class _BudgetMemo(dict[int, Solved]):
    """A search's memo that refuses to hold more than `room` states."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def __setitem__(self, key: int, value: Solved) -> None:
        if len(self) >= self.room:
            raise _OverBudget
        super().__setitem__(key, value)


def capture_states_over(position: Position, variant: Variant, budget: int) -> bool:
    """Whether the capture search of `position` (`legal_moves` and everything that lists
    its moves) passes through more than `budget` states: its cost, as it grows with the
    states and not with the routes. Costs at most about `budget` states of that search; a
    position without a capture has none."""
    g = generator(variant)
    us_m, us_k, th_m, th_k, c = side_relative(position)
    th = th_m | th_k
    occ = us_m | us_k | th
    starts = g.capture_starts(us_m, us_k, th_m, th, occ, g.playable & ~occ, c)
    left = budget
    while starts:
        low = starts & -starts
        starts ^= low
        s = low.bit_length() - 1
        king = not us_m & low
        victims = th if king or variant.men_capture_kings else th_m
        memo = _BudgetMemo(left)
        try:
            g.solve_piece(s, king, (g.playable & ~occ) | low, victims, th_k, c, memo)
        except _OverBudget:
            return True
        left -= len(memo)
    return False


def _capture_moves(graph: CaptureGraph) -> tuple[Move, ...]:
    routes = graph.routes()
    moves = [Move(key[0], *routes[key]) for key in graph.moves()]
    return tuple(sorted(moves, key=_order))


def _order(m: Move) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    return (m.start, m.end, tuple(sorted(m.captured)), m.landings)


def legal_moves(position: Position, variant: Variant) -> list[Move]:
    """Every legal move of the side to move, one per move identity, sorted by start square,
    end square, captured squares and path. Empty when the side to move cannot move.

    A capture carries its canonical route: under the Italian ladder a route that wins on
    it, elsewhere a route with the most captures; of those, the first met by the search's
    order (depth-first from the start, directions in table order, nearest landing first).

    Raises PositionError when `position` is not on `variant`'s board.
    """
    return list(move_table(position, variant).moves)


def play_unchecked(position: Position, move: Move, variant: Variant) -> Position:
    """`position` after `move` in `variant`, trusting that the move is legal: the piece goes
    from `move.start` to `move.end`, captured pieces leave, a man ending on its far rank
    (rank 8, or 10 on the 10×10 board: `Position.board_size`) is crowned, and the turn
    passes. A man crowned mid-capture where it goes on as a king
    (`CrownedMidCapture.CONTINUES_AS_KING`, Russian) ends the move a king wherever it
    ends. `variant` is required so that no caller forgets that rule."""
    fb = 1 << move.start
    tb = 1 << move.end
    cm = 0
    for sq in move.captured:
        cm |= 1 << sq
    keep = ~cm
    white = position.turn is Color.WHITE
    crowned = bool(cm & generator(variant).crowned_by_capture[0 if white else 1])
    wm, wk = position.white_men, position.white_kings
    bm, bk = position.black_men, position.black_kings
    size = position.board_size
    white_crowns, black_crowns = (_RANK_8, _RANK_1) if size == 8 else _CROWNING[size]
    if white:
        if wm & fb:
            wm ^= fb
            if tb & white_crowns or crowned:
                wk |= tb
            else:
                wm |= tb
        else:
            wk = (wk ^ fb) | tb
        return Position(wm, wk, bm & keep, bk & keep, Color.BLACK, size)
    if bm & fb:
        bm ^= fb
        if tb & black_crowns or crowned:
            bk |= tb
        else:
            bm |= tb
    else:
        bk = (bk ^ fb) | tb
    return Position(wm & keep, wk & keep, bm, bk, Color.WHITE, size)


def apply_move(position: Position, move: Move, variant: Variant) -> Position:
    """The position after playing `move` (removes captured pieces, crowns a man that ends
    on its far rank, passes the turn).

    `move` may record any route of a legal move (moves are equal by identity).
    Raises IllegalMoveError when `move` is not legal in `position`.
    """
    for legal in legal_moves(position, variant):
        if legal == move:
            return play_unchecked(position, legal, variant)
    shown = move_name(move, position.board_size)
    raise IllegalMoveError(
        f"{shown} is not a legal move in this position", MoveProblem.NOT_LEGAL, {"move": shown}
    )


def perft(position: Position, variant: Variant, depth: int) -> int:
    """The number of positions reached after exactly `depth` plies (docs/RULES.md: moves counted
    under the move identity; a position without moves before that depth adds nothing).
    depth 0 gives 1. Raises ValueError for a negative depth, PositionError when `position`
    is not on `variant`'s board."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    check_board(position, variant)
    if depth == 0:
        return 1
    us_m, us_k, th_m, th_k, c = side_relative(position)
    return generator(variant).perft(us_m, us_k, th_m, th_k, c, depth)
