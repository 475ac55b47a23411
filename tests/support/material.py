"""An independent brute-force material count over the engine's public API
(`legal_moves`/`apply_move`, no search code): the reference the search and the analysis
tests check their best moves against."""

from __future__ import annotations

from engine import Color, Position, Variant, apply_move, legal_moves


def material(position: Position) -> int:
    """Men 1, kings 3, for the side to move (an independent rough count)."""
    w = position.white_men.bit_count() + 3 * position.white_kings.bit_count()
    b = position.black_men.bit_count() + 3 * position.black_kings.bit_count()
    return w - b if position.turn is Color.WHITE else b - w


def brute_force(position: Position, variant: Variant, plies: int) -> int:
    """Material after `plies` plies of best play for both sides, continuing while the side
    to move must capture (captures are compulsory, so such positions are not counted
    mid-fight). A side without moves scores -1000."""
    moves = legal_moves(position, variant)
    if not moves:
        return -1000
    if plies <= 0 and not moves[0].is_capture:
        return material(position)
    return max(-brute_force(apply_move(position, m, variant), variant, plies - 1) for m in moves)
