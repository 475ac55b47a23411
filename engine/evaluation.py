"""Static evaluation for the computer player: a score of a position for the side to move.

Units: a man is worth 100. The score is positive when the side to move stands better.
The weights are chosen per variant family from the variant's rule parameters (never from
its name): orthogonal or diagonal geometry, flying or short kings, whether men may capture
kings. They are engine judgment (tuned by playing, see benchmarks/strength.py), not rules,
except the endgame facts noted where they are applied.

Terms: material (with the king worth more where kings fly: an orthogonal flying king
controls two whole lines, a diagonal flying king two diagonals, an Italian short king only
its four neighbours); advancement of men (a man near the far rank is close to a king);
back-rank guard (diagonal family: men kept on their own first rank stop enemy crowning);
centre (men and kings on the central files); man mobility (empty squares the men can step
to); a bonus for swapping off when ahead (fewer pieces make a material edge count more);
and endgame facts:
- Turkish and Arab: each side with exactly one piece is a draw by rule (docs/RULES.md), scored 0.
- Italian: men cannot capture kings (docs/RULES.md), so a king facing no enemy king cannot be
  taken at all; it gets a bonus.
- Moroccan, Brazilian and International (flying kings on the diagonal board): a lone king
  holds a draw against one or two kings, and against three kings while it holds the long
  diagonal (the known theory of flying-king draughts, e.g. Russian draughts' "main road":
  a1-h8 where a1 is dark, its mirror a8-h1 where a1 is light; on the 10×10 board the
  long diagonal a1-j10, 46-5 in the FMJD's numbers); such scores are divided by 8.

The square tables are built per board size: on the 10×10 board of International draughts a
man's advancement counts its 10 ranks and the centre is files c..h.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.movegen_tables import tables
from engine.variants import Geometry, Variant


@dataclass(frozen=True, slots=True)
class EvalWeights:
    """The evaluation's weights for one variant family (units: a man = 100).

    man, king: material values. advance[r]: bonus of a man on relative rank r (0 = its own
    first rank, the last entry the far rank, where a man has been crowned): 8 entries for
    the 8×8 board, 10 for the 10×10 one. back_guard: bonus per man on its own first rank.
    centre_man, centre_king: bonus per piece on the central files (c..f on 8×8, c..h on
    10×10).
    mobility: bonus per square a man can step to. safe_king: bonus per king when it cannot
    be captured (men cannot capture kings and the enemy has no king). trade: how strongly a
    material edge grows as pieces come off (percent of the edge at an empty board).
    """

    man: int
    king: int
    advance: tuple[int, ...]
    back_guard: int
    centre_man: int
    centre_king: int
    mobility: int
    safe_king: int
    trade: int


ORTHOGONAL_WEIGHTS = EvalWeights(
    man=100, king=330, advance=(0, 0, 0, 4, 9, 16, 28, 0), back_guard=0,
    centre_man=2, centre_king=4, mobility=1, safe_king=0, trade=40,
)
DIAGONAL_FLYING_WEIGHTS = EvalWeights(
    man=100, king=300, advance=(0, 0, 2, 5, 9, 14, 22, 0), back_guard=8,
    centre_man=3, centre_king=5, mobility=2, safe_king=0, trade=40,
)
#: International draughts (flying kings, 20 men each on 10×10): the 8×8 flying weights
#: with advancement spread over 10 ranks.
DIAGONAL_FLYING_WEIGHTS_10 = EvalWeights(
    man=100, king=300, advance=(0, 0, 1, 3, 5, 8, 11, 15, 22, 0), back_guard=8,
    centre_man=3, centre_king=5, mobility=2, safe_king=0, trade=40,
)
DIAGONAL_SHORT_WEIGHTS = EvalWeights(
    man=100, king=165, advance=(0, 0, 2, 5, 8, 12, 18, 0), back_guard=10,
    centre_man=3, centre_king=8, mobility=2, safe_king=25, trade=40,
)


def weights_for(variant: Variant) -> EvalWeights:
    """The weights of `variant`'s family: orthogonal; diagonal with flying kings (on 8×8,
    or on 10×10); diagonal with short kings (a man-cannot-capture-king rule adds the
    safe-king bonus).

    Raises ValueError for a 10×10 variant with short kings (none exists: the 10×10 board
    is International draughts')."""
    if variant.geometry is Geometry.ORTHOGONAL:
        return ORTHOGONAL_WEIGHTS
    if variant.board_size == 10:
        if not variant.flying_kings:
            raise ValueError(f"{variant.key}: no weights for short kings on the 10×10 board")
        return DIAGONAL_FLYING_WEIGHTS_10
    if variant.flying_kings:
        return DIAGONAL_FLYING_WEIGHTS
    w = DIAGONAL_SHORT_WEIGHTS
    if variant.men_capture_kings:
        return EvalWeights(w.man, w.king, w.advance, w.back_guard, w.centre_man,
                           w.centre_king, w.mobility, 0, w.trade)
    return w


def _terms(values: list[int], playable: int) -> tuple[tuple[int, int], ...]:
    """Group squares by value: ((mask, value), ...) without the zero values."""
    groups: dict[int, int] = {}
    for sq, v in enumerate(values):
        if v and (playable >> sq) & 1:
            groups[v] = groups.get(v, 0) | (1 << sq)
    return tuple((mask, v) for v, mask in sorted(groups.items()))


def main_diagonal(variant: Variant) -> int:
    """The long dark diagonal of `variant`'s diagonal board, corner to corner, as a
    bitboard: a1-h8 when a1 is dark (`Variant.a1_dark`; a1-j10 on the 10×10 board), a8-h1
    when a1 is light.

    Raises ValueError for an orthogonal board (it has no dark diagonal)."""
    if variant.geometry is not Geometry.DIAGONAL:
        raise ValueError(f"{variant.key}: the orthogonal board has no dark diagonal")
    size = variant.board_size
    last = size - 1
    mask = 0
    for f in range(size):
        rank = f if variant.a1_dark else last - f
        mask |= 1 << (rank * size + f)
    return mask


class Evaluator:
    """The static evaluation of one variant. Call it with a side-relative state:
    ``evaluator(us_men, us_kings, them_men, them_kings, c)`` (bitboards; c = 0 when White
    is to move, 1 for Black) -> score for the side to move (a man = 100)."""

    def __init__(self, variant: Variant) -> None:
        w = weights_for(variant)
        self.weights = w
        playable = variant.playable_mask
        self.playable = playable
        size = variant.board_size
        t = tables(variant.geometry, size)
        centre_files = range(2, size - 2)
        men_terms: list[tuple[tuple[int, int], ...]] = []
        steps: list[tuple[tuple[int, int], ...]] = []
        for c in (0, 1):
            values = []
            for sq in range(size * size):
                r, f = divmod(sq, size)
                rel = r if c == 0 else size - 1 - r
                v = w.advance[rel]
                if rel == 0:
                    v += w.back_guard
                if f in centre_files:
                    v += w.centre_man
                values.append(v)
            men_terms.append(_terms(values, playable))
            forward = 1 if c == 0 else -1
            steps.append(tuple(
                (t.deltas[d], t.src1[d])
                for d in range(4)
                if t.drank[d] == forward or (variant.man_sideways and t.drank[d] == 0)
            ))
        self.men_terms = (men_terms[0], men_terms[1])
        self.steps = (steps[0], steps[1])
        centre = sum(1 << sq for sq in range(size * size) if sq % size in centre_files)
        self.king_centre = centre & playable
        self.one_piece_each = variant.draw_law.one_piece_each
        self.safe_king = w.safe_king if not variant.men_capture_kings else 0
        self.lone_king_draws = variant.flying_kings and variant.geometry is Geometry.DIAGONAL
        self.main_diagonal = main_diagonal(variant) if self.lone_king_draws else 0
        self.start_total = 2 * variant.men_per_side

    def __call__(self, um: int, uk: int, tm: int, tk: int, c: int) -> int:
        w = self.weights
        nu_m = um.bit_count()
        nu_k = uk.bit_count()
        nt_m = tm.bit_count()
        nt_k = tk.bit_count()
        nu = nu_m + nu_k
        nt = nt_m + nt_k
        if self.one_piece_each and nu == 1 and nt == 1:
            return 0
        material = (nu_m - nt_m) * w.man + (nu_k - nt_k) * w.king
        total = nu + nt
        if material and total < self.start_total:
            material += material * w.trade * (self.start_total - total) // (
                100 * self.start_total
            )
        score = material
        for mask, v in self.men_terms[c]:
            score += v * (um & mask).bit_count()
        for mask, v in self.men_terms[c ^ 1]:
            score -= v * (tm & mask).bit_count()
        centre = self.king_centre
        score += w.centre_king * ((uk & centre).bit_count() - (tk & centre).bit_count())
        empty = self.playable & ~(um | uk | tm | tk)
        mob = 0
        for delta, src in self.steps[c]:
            if delta > 0:
                mob += (((um & src) << delta) & empty).bit_count()
            else:
                mob += (((um & src) >> -delta) & empty).bit_count()
        for delta, src in self.steps[c ^ 1]:
            if delta > 0:
                mob -= (((tm & src) << delta) & empty).bit_count()
            else:
                mob -= (((tm & src) >> -delta) & empty).bit_count()
        score += w.mobility * mob
        if self.safe_king:
            if not tk:
                score += self.safe_king * nu_k
            if not uk:
                score -= self.safe_king * nt_k
        if self.lone_king_draws and not (um or tm) and self._lone_king_holds(nu, nt, uk, tk):
            score = score // 8 if score >= 0 else -(-score // 8)
        return score

    def _lone_king_holds(self, nu: int, nt: int, uk: int, tk: int) -> bool:
        """Kings only: one side has a lone king facing at most two kings, or three while it
        stands on the long diagonal."""
        diag = self.main_diagonal
        return (nt == 1 and (nu <= 2 or (nu == 3 and bool(tk & diag)))) or (
            nu == 1 and (nt <= 2 or (nt == 3 and bool(uk & diag)))
        )
