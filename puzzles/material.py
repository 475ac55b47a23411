"""A search that counts material only: the yardstick of the puzzle criterion
(`puzzles.mining`).

Values are in the evaluation's unit (a man = 100): a side's material minus the other
side's, a man at 100 and a king at the variant's king value (`engine.evaluation.weights_for`:
330 on the orthogonal board, 300 for Moroccan's flying kings, 165 for Italian's short
kings). No positional term counts. A side with no legal move has lost (docs/RULES.md,
"Project-wide game rules"): `-WON` for it. Where each side with exactly one piece is a
draw (Turkish and Arab, docs/RULES.md), such a position is worth 0.

The search is a negamax alpha-beta to a fixed depth in plies; at the horizon a position
whose side to move must capture is searched on (captures are compulsory in every variant,
docs/RULES.md, so every legal move there is a capture) until a quiet position is reached:
no value is read in the middle of an exchange. Every reply is searched, quiet ones
included. Repetitions and the no-progress count are not applied (a puzzle's line is a few
plies long). Values are remembered across calls on one `MaterialSearch` (they do not
depend on the path), so scoring every move of a position and then the next positions of
a line shares the work.
"""

from __future__ import annotations

from engine import Color, Move, PieceKind, Position, Variant, legal_moves
from engine.evaluation import weights_for
from engine.movegen import play_unchecked

WON = 1_000_000
"""The value of a won position for the winner (the loser has no legal move)."""

WON_BOUND = WON // 2
"""Values at least this far from 0 are won or lost games."""

INFINITY = 10 * WON


class OverBudget(Exception):
    """Raised when a search spends more nodes than its budget."""


def material(position: Position, variant: Variant, color: Color) -> int:
    """`color`'s material minus the other side's in `position` (a man = 100, a king the
    variant's king value, see the module's docstring)."""
    weights = weights_for(variant)
    other = color.opponent
    mine = (position.men(color).bit_count() * weights.man
            + position.kings(color).bit_count() * weights.king)
    theirs = (position.men(other).bit_count() * weights.man
              + position.kings(other).bit_count() * weights.king)
    return mine - theirs


def captured_value(position: Position, variant: Variant, move: Move) -> int:
    """The material `move` captures from `position` (each captured piece at its value
    before the move: a man = 100, a king the variant's king value)."""
    weights = weights_for(variant)
    total = 0
    for sq in move.captured:
        piece = position.piece_at(sq)
        assert piece is not None, "a captured square holds a piece"
        total += weights.king if piece.kind is PieceKind.KING else weights.man
    return total


def crowns(position: Position, move: Move, variant: Variant) -> bool:
    """Whether `move`, played from `position` in `variant`, turns a man into a king (on the
    far rank, or crowned mid-capture in Russian draughts)."""
    side = position.turn
    return bool(position.men(side) >> move.start & 1) and bool(
        play_unchecked(position, move, variant).kings(side) >> move.end & 1)


class MaterialSearch:
    """The material-only search of one variant (see the module's docstring).

    `max_nodes`: the most positions it may visit over all its calls (None: no limit);
    beyond it a call raises `OverBudget`, so an answer is only ever a complete search's.
    `nodes`: the positions visited so far."""

    def __init__(self, variant: Variant, max_nodes: int | None = None) -> None:
        self.variant = variant
        self.max_nodes = max_nodes
        self.nodes = 0
        weights = weights_for(variant)
        self._man, self._king = weights.man, weights.king
        self._one_each = variant.draw_law.one_piece_each
        self._bounds: dict[tuple[Position, int], tuple[int, int]] = {}
        self._best: dict[Position, Move] = {}
        self._moves: dict[Position, list[Move]] = {}

    def moves(self, position: Position) -> list[Move]:
        """The legal moves of `position` (remembered)."""
        found = self._moves.get(position)
        if found is None:
            found = legal_moves(position, self.variant)
            self._moves[position] = found
        return found

    def _static(self, p: Position) -> int:
        side, other = p.turn, p.turn.opponent
        return ((p.men(side).bit_count() - p.men(other).bit_count()) * self._man
                + (p.kings(side).bit_count() - p.kings(other).bit_count()) * self._king)

    def value(self, position: Position, depth: int, alpha: int = -INFINITY,
              beta: int = INFINITY) -> int:
        """The value of `position` for its side to move searched `depth` plies deep (then
        on through compulsory captures). Fail-soft: a value at most `alpha` is an upper
        bound, at least `beta` a lower bound, exact in between. Raises `OverBudget`."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OverBudget
        moves = self.moves(position)
        if not moves:
            return -WON
        if self._one_each and position.count(Color.WHITE) == 1 == position.count(Color.BLACK):
            return 0
        depth = max(depth, 0)
        if depth == 0 and not moves[0].is_capture:
            return self._static(position)
        key = (position, depth)
        low, high = self._bounds.get(key, (-INFINITY, INFINITY))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        start_alpha = alpha
        best_value = -INFINITY
        hint = self._best.get(position)
        ordered = moves if hint is None or hint not in moves else [
            hint, *(m for m in moves if m != hint)]
        best_move = ordered[0]
        for move in ordered:
            v = -self.value(play_unchecked(position, move, self.variant), depth - 1, -beta, -alpha)
            if v > best_value:
                best_value, best_move = v, move
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        self._best[position] = best_move
        if best_value <= start_alpha:
            self._bounds[key] = (low, min(high, best_value))
        elif best_value >= beta:
            self._bounds[key] = (max(low, best_value), high)
        else:
            self._bounds[key] = (best_value, best_value)
        return best_value

    def _after(self, position: Position, move: Move, depth: int, above: int | None) -> int:
        """`move`'s value for the side to move of `position` (the reply searched `depth - 1`
        plies): exact when `above` is None, else only whether it is above `above` (a
        value at most `above` is then an upper bound)."""
        child = play_unchecked(position, move, self.variant)
        if above is None:
            return -self.value(child, depth - 1)
        return -self.value(child, depth - 1, -above - 1, -above)

    def _ordered(self, position: Position) -> list[Move]:
        moves = self.moves(position)
        hint = self._best.get(position)
        if hint is None or hint not in moves:
            return moves
        return [hint, *(m for m in moves if m != hint)]

    def top_two(self, position: Position, depth: int) -> tuple[tuple[int, Move], int]:
        """The best move of `position` with its exact value (as `scores` values it) and
        the exact value of the best other move (`-INFINITY` when there is none): the
        others are only asked whether they are above the second best so far (a
        null-window search), and valued exactly when they are. Raises `OverBudget`."""
        first, *rest = self._ordered(position)
        best, best_move = self._after(position, first, depth, None), first
        second = -INFINITY
        for move in rest:
            bar = second if second > -INFINITY else None
            v = self._after(position, move, depth, bar)
            if bar is not None and v <= bar:
                continue
            if bar is not None:
                v = self._after(position, move, depth, None)
            if v > best:
                best, best_move, second = v, move, best
            else:
                second = max(second, v)
        return (best, best_move), second

    def best_move(self, position: Position, depth: int) -> Move:
        """A move of `position` with the best exact value for the side to move (as `scores`
        values it), the move generator's first among equals. Raises `OverBudget`."""
        moves = self.moves(position)
        best_move = moves[0]
        best = self._after(position, best_move, depth, None)
        for move in moves[1:]:
            if self._after(position, move, depth, best) > best:
                best, best_move = self._after(position, move, depth, None), move
        return best_move

    def scores(self, position: Position, depth: int) -> list[tuple[int, Move]]:
        """Every legal move of `position` with its exact value for the side to move (the
        move, then the reply searched `depth - 1` plies), best first, ties in the move
        generator's order. Raises `OverBudget`."""
        scored = [(-self.value(play_unchecked(position, m, self.variant), depth - 1), i, m)
                  for i, m in enumerate(self.moves(position))]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [(v, m) for v, _, m in scored]
