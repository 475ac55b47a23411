"""An independent judge of the puzzle criterion for the tests: its own material-only search
over the reference move generators of tests/engine/oracles (written from docs/RULES.md
alone; they share no code with `engine` or `puzzles`).

The criterion, as `puzzles.mining` states it and judged here from scratch: the line's
search depth is its length plus two (at least 6, the banks' least verifying depth); at
every solver move with a choice, the move played must have the best material gain over
the start and gain at least a man, and every other move must stay a man below it; each
defence must be a best one by material; the line must end with the defender left without
a move, or with the line's captures a man up and no capture left to the defender; and the
first move's gain must be a man beyond the value of the line's crownings (a crowning is
never a man).

Material: a man = 100, a king the variant's value in the engine's evaluation
(engine/evaluation.py: 330 on the orthogonal board, 300 for flying diagonal kings, on 8×8
and 10×10 alike: Moroccan, International, Brazilian, Russian; 165 for the short kings of
Italian draughts and English checkers). A side without a legal move has lost; in Turkish and Arab a
position with one piece each is a draw (docs/RULES.md, draws). At the horizon a side
that must capture captures on (captures are compulsory, docs/RULES.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from tests.engine.oracles import reference
from tests.engine.oracles.board import (
    Board,
    Route,
    color_of,
    is_king,
    parse_fen,
    route_text,
)

MAN = 100
KING = {"turkish": 330, "arab": 330, "moroccan": 300, "italian": 165, "international": 300,
        "brazilian": 300, "russian": 300, "english": 165}
ONE_PIECE_EACH_DRAWS = frozenset({"turkish", "arab"})
LEAST_DEPTH = 6
WON = 1_000_000
BOUND = WON // 2
INF = 10 * WON

Key = tuple[frozenset[tuple[str, str]], str]
Child = tuple[list[Route], Board, str]


class Judge:
    """The material search of one variant over the reference generator."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.king = KING[variant]
        self._children: dict[Key, list[Child]] = {}
        self._table: dict[tuple[Key, int], tuple[int, int]] = {}
        self._first: dict[Key, int] = {}

    def children(self, board: Board, side: str) -> list[Child]:
        """Every legal move (one route per move identity) with the board after it."""
        key = (frozenset(board.items()), side)
        found = self._children.get(key)
        if found is None:
            found = []
            for routes in reference.legal_moves(board, side, self.variant).values():
                after, other = reference.apply_route(board, side, routes[0], self.variant)
                found.append((routes, after, other))
            self._children[key] = found
        return found

    def worth(self, piece: str) -> int:
        return self.king if is_king(piece) else MAN

    def material(self, board: Board, side: str) -> int:
        return sum(self.worth(p) if color_of(p) == side else -self.worth(p)
                   for p in board.values())

    def value(self, board: Board, side: str, depth: int, alpha: int = -INF,
              beta: int = INF) -> int:
        """Negamax with alpha-beta, fail-hard, bounds remembered per depth."""
        children = self.children(board, side)
        if not children:
            return -WON
        if self.variant in ONE_PIECE_EACH_DRAWS and len(board) == 2 and len(
                {color_of(p) for p in board.values()}) == 2:
            return 0
        capturing = bool(children[0][0][0][1])
        if depth <= 0 and not capturing:
            return self.material(board, side)
        depth = max(depth, 0)
        place = (frozenset(board.items()), side)
        key = (place, depth)
        low, high = self._table.get(key, (-INF, INF))
        if low >= beta:
            return beta
        if high <= alpha:
            return alpha
        if low == high:
            return max(alpha, min(beta, low))
        first = self._first.get(place, 0)
        order = [first, *(i for i in range(len(children)) if i != first)]
        best, best_index = -INF, first
        for i in order:
            _, after, other = children[i]
            v = -self.value(after, other, depth - 1, -beta, -max(alpha, best))
            if v > best:
                best, best_index = v, i
            if best >= beta:
                self._first[place] = best_index
                self._table[key] = (max(low, best), high)
                return beta
        self._first[place] = best_index
        if best <= alpha:
            self._table[key] = (low, min(high, best))
            return alpha
        self._table[key] = (best, best)
        return best

    def after(self, child: Child, depth: int) -> int:
        """The exact value of the move `child` for the side that plays it (the move, then
        `depth - 1` plies)."""
        _, board, side = child
        return -self.value(board, side, depth - 1)

    def above(self, child: Child, depth: int, bar: int) -> bool:
        """Whether the move `child` is worth more than `bar` to the side that plays it
        (one null-window search)."""
        _, board, side = child
        return -self.value(board, side, depth - 1, -bar - 1, -bar) > bar


def _find(children: Iterable[Child], text: str) -> Child | None:
    for child in children:
        if any(route_text(route) == text for route in child[0]):
            return child
    return None


def refutation(variant: str, fen: str, solution: tuple[str, ...], depth: int = LEAST_DEPTH,
               judge: Judge | None = None) -> str | None:
    """Why the puzzle (`fen`, the solver to move, and its `solution` in full move text)
    fails the criterion searched `depth` plies deep (raised to at least the line's length
    plus two and `LEAST_DEPTH`), or None when it holds."""
    judge = judge or Judge(variant)
    board, side = parse_fen(fen)
    solver = side
    depth = max(LEAST_DEPTH, len(solution) + 2, depth)
    start = judge.material(board, solver)
    captured = crowned = 0
    first_gain = 0

    def gain(v: int) -> int:
        return v if abs(v) >= BOUND else v - start

    for ply, text in enumerate(solution):
        children = judge.children(board, side)
        child = _find(children, text)
        if child is None:
            return f"ply {ply}: {text} is not a legal move"
        routes, after, other = child
        route = routes[0]
        text = route_text(route)
        taken = sum(judge.worth(board[sq]) for sq in route[1])
        if side == solver:
            if len(children) > 1 or ply == 0:
                if len(children) < 2:
                    return "the first move is forced"
                value = judge.after(child, depth)
                played = gain(value)
                if played < MAN:
                    return f"ply {ply}: {text} gains {played}, less than a man"
                for rival in children:
                    if rival is not child and judge.above(rival, depth, value - MAN):
                        return (f"ply {ply}: {route_text(rival[0][0])} comes within a man "
                                f"of {text}'s gain {played}")
                if ply == 0:
                    first_gain = played
            captured += taken
            start_sq, end_sq = route[0][0], route[0][-1]
            if not is_king(board[start_sq]) and is_king(after[end_sq]):
                crowned += judge.king - MAN
        else:
            if len(children) > 1:
                value = judge.after(child, depth - 1)
                if any(judge.above(rival, depth - 1, value) for rival in children
                       if rival is not child):
                    return f"ply {ply}: the defence {text} is not a best one by material"
            captured -= taken
        board, side = after, other
    if side == solver:
        return "the line does not end with a solver move"
    replies = judge.children(board, side)
    if not replies:
        return None
    if any(routes[0][1] for routes, _, _ in replies):
        return "the defender can still capture at the end of the line"
    if captured < MAN:
        return f"the line's captures win {captured}, less than a man"
    if first_gain < BOUND and first_gain < MAN + crowned:
        return f"the first move gains {first_gain}, not a man beyond its crownings ({crowned})"
    return None
