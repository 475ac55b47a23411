"""The draw counts a game carries, and the judge of the endgame counts by material
(docs/RULES.md: the draw sections of Family 3, and "Project-wide game rules").

The rules themselves are data (`engine.variants.DrawLaw`, `EndgameRule`); this module reads
them. A game keeps one `DrawCounts` value, begun by `start_counts` and moved on by
`after_ply` after every ply; `endgame_limit` says whether one of the variant's endgame
counts has run out at a position. Everything here is a pure function of positions: what a
ply did (a capture, a man moved, a man crowned) is read from the position before it and the
position after it, so the counts of a game can be rebuilt from its positions alone
(`counts_along`, which the analysis uses).

`engine.search` reads repetitions and `DrawLaw.no_progress_plies` only, not the endgame
counts: a line of the search that runs past an endgame count is valued as the evaluation
sees it, and `engine.game.Game` ends the game when the count runs out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import assert_never

from engine.pieces import Color
from engine.position import Position
from engine.variants import CountFrom, Endgame, EndgameRule, MovesOf, Variant


@dataclass(frozen=True, slots=True)
class DrawCounts:
    """The counters of a game's draw rules, in plies, after its latest ply.

    no_progress_plies: plies since the last capture or man move (the count of
      `DrawLaw.no_progress_plies`).
    balance_plies: plies since the last change of the balance of forces, a capture or a
      crowning (the count of `CountFrom.BALANCE_CHANGED`).
    endgame_plies: for each of the variant's `CountFrom.ENDGAME_REACHED` rules whose
      endgame the current position is, the plies since the position became one, in the
      order of `DrawLaw.endgame_rules`.
    A game that starts from a given position starts every count at zero there.
    """

    no_progress_plies: int = 0
    balance_plies: int = 0
    endgame_plies: tuple[tuple[EndgameRule, int], ...] = ()

    def plies_of(self, rule: EndgameRule) -> int:
        """The count that `rule` reads: `balance_plies` for a `BALANCE_CHANGED` rule, its
        own entry of `endgame_plies` for an `ENDGAME_REACHED` one (0 when it has none: the
        position is not its endgame)."""
        match rule.count_from:
            case CountFrom.BALANCE_CHANGED:
                return self.balance_plies
            case CountFrom.ENDGAME_REACHED:
                return next((n for r, n in self.endgame_plies if r == rule), 0)
            case _:
                assert_never(rule.count_from)


def start_counts(position: Position, variant: Variant) -> DrawCounts:
    """The counts of a game that starts at `position`: every count at zero, the endgames
    the position already is counted from here (docs/RULES.md, Decision 13)."""
    return DrawCounts(0, 0, _reached(position, variant, {}))


def after_ply(
    counts: DrawCounts, before: Position, after: Position, variant: Variant
) -> DrawCounts:
    """The counts after the ply that led from `before` to `after` (`before.turn` moved).

    A capture (the opponent has fewer pieces) restarts the no-progress and the balance
    counts; a man move (the mover's men changed: a step, a capture by a man, a crowning)
    restarts the no-progress count; a crowning (the mover has more kings) restarts the
    balance count. An `ENDGAME_REACHED` count goes on while `after` is still the rule's
    endgame, and starts at zero when `after` has just become one.
    """
    mover = before.turn
    captured = after.count(mover.opponent) < before.count(mover.opponent)
    man_moved = before.men(mover) != after.men(mover)
    crowned = after.kings(mover).bit_count() > before.kings(mover).bit_count()
    return DrawCounts(
        0 if captured or man_moved else counts.no_progress_plies + 1,
        0 if captured or crowned else counts.balance_plies + 1,
        _reached(after, variant, dict(counts.endgame_plies)),
    )


def counts_along(positions: Sequence[Position], variant: Variant) -> DrawCounts:
    """The counts after the last of `positions`: a game's start position, then the
    position after each ply. Raises ValueError for an empty sequence."""
    if not positions:
        raise ValueError("no positions to count along")
    counts = start_counts(positions[0], variant)
    for before, after in pairwise(positions):
        counts = after_ply(counts, before, after, variant)
    return counts


def endgame_limit(position: Position, counts: DrawCounts, variant: Variant) -> EndgameRule | None:
    """The first of `variant`'s endgame rules whose count has run out at `position` (with
    the game's `counts` there): the position is the rule's endgame and the moves counted
    (`counted_moves`) have reached the rule's `moves`. None when no count has run out."""
    for rule in variant.draw_law.endgame_rules:
        if is_endgame(rule, position, variant) and (
            counted_moves(rule, position, counts.plies_of(rule)) >= rule.moves
        ):
            return rule
    return None


def counted_moves(rule: EndgameRule, position: Position, plies: int) -> int:
    """How many moves `rule` counts after `plies` plies of its count, at `position` (the
    position after the last of those plies, so its side to move did not make it).

    `MovesOf.EACH`: the moves each player has completed, plies // 2. `MovesOf.STRONGER`:
    the moves the stronger side (more pieces) made in those plies, which alternate and end
    with the side not to move; with equal pieces (a lone king each), the moves of the side
    that made more of them.
    """
    match rule.moves_of:
        case MovesOf.EACH:
            return plies // 2
        case MovesOf.STRONGER:
            stronger = _stronger(position)
            if stronger is None or position.turn is not stronger:
                return (plies + 1) // 2
            return plies // 2
        case _:
            assert_never(rule.moves_of)


def is_endgame(rule: EndgameRule, position: Position, variant: Variant) -> bool:
    """Whether `position` is `rule`'s endgame (`Endgame`, and `EndgameRule.pieces` when it
    names the pieces' total). `variant` places the long diagonal (a1-h8 when a1 is dark,
    a8-h1 when it is light)."""
    total = position.count(Color.WHITE) + position.count(Color.BLACK)
    if rule.pieces and total not in rule.pieces:
        return False
    match rule.endgame:
        case Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING:
            return _lone_king_against(position, 3, 3, all_kings=False)
        case Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING:
            return _lone_king_against(position, 1, 2, all_kings=False)
        case Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE:
            return _lone_king_against(position, 3, total, all_kings=True)
        case Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE:
            return _lone_king_against(position, 3, 3, all_kings=False,
                                      within=long_diagonal(variant))
        case Endgame.KINGS_ON_BOTH_SIDES:
            return bool(position.white_kings) and bool(position.black_kings)
        case Endgame.KINGS_EACH_AT_MOST_TWO_PIECES_ONE_MAN:
            return (
                bool(position.white_kings) and bool(position.black_kings)
                and position.count(Color.WHITE) <= 2 and position.count(Color.BLACK) <= 2
                and (position.white_men | position.black_men).bit_count() <= 1
            )
        case _:
            assert_never(rule.endgame)


def long_diagonal(variant: Variant) -> int:
    """Bitboard of the board's long diagonal, corner to corner through the dark squares:
    a1-h8 (a1-j10 on 10×10) when a1 is dark, a8-h1 when it is light (the Russian "big
    road" on the board of Russian draughts)."""
    size = variant.board_size
    mask = 0
    for rank in range(size):
        file = rank if variant.a1_dark else size - 1 - rank
        mask |= 1 << (rank * size + file)
    return mask


def _reached(
    position: Position, variant: Variant, previous: dict[EndgameRule, int]
) -> tuple[tuple[EndgameRule, int], ...]:
    """The `ENDGAME_REACHED` counts at `position`: each rule whose endgame it is, one more
    than its `previous` count (the position before was one too) or zero (it just became
    one)."""
    return tuple(
        (rule, previous[rule] + 1 if rule in previous else 0)
        for rule in variant.draw_law.endgame_rules
        if rule.count_from is CountFrom.ENDGAME_REACHED and is_endgame(rule, position, variant)
    )


def _lone_king_against(
    position: Position, fewest: int, most: int, *, all_kings: bool, within: int = -1
) -> bool:
    """Whether a side whose only piece is a king (standing on a square of the bitboard
    `within`) faces `fewest`..`most` pieces, at least one of them a king (all of them
    kings when `all_kings`)."""
    for lone in (Color.WHITE, Color.BLACK):
        if position.count(lone) != 1 or not position.kings(lone) & within:
            continue
        pieces = position.count(lone.opponent)
        kings = position.kings(lone.opponent).bit_count()
        if fewest <= pieces <= most and kings >= 1 and (not all_kings or kings == pieces):
            return True
    return False


def _stronger(position: Position) -> Color | None:
    """The side with more pieces; None when they have as many."""
    white, black = position.count(Color.WHITE), position.count(Color.BLACK)
    if white == black:
        return None
    return Color.WHITE if white > black else Color.BLACK
