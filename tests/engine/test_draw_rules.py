"""engine.draw_rules: the endgame counts of the a1-dark variants, judged on hand-built
sequences of positions (the counts read positions only, so the plies here are built square
by square rather than played).

Expected plies come from the sources' texts as docs/RULES.md quotes them, not from the code:
*FMJD rules* article 6 (International): 6.2 "25 successive moves for each player, only the
kings have moved" (50 plies); 6.3 a lone king against three pieces with a king, "a draw when
the players have each played another sixteen moves" (32 plies); 6.4 against two kings, a king
and a man, or a king, "another five moves" each (10 plies); played here on the 8×8 board
(`FMJD_8X8`: Brazilian's moves with International's draw law), since positions are 8×8 only
so far. *Brazilian rules* 18: 20 successive moves of kings by each player without a
capture or a man moving (40 plies); 19: the endings of two kings against two, against one,
against a king and a man, of a king against a king, against a king and a man, drawn after 5
moves by each player (10 plies). *FMJD-64 rules* 7.2.4 to 7.2.8 (Russian): 7.2.4 three
kings or more against a lone king, drawn when "his 15th move" (the stronger side's) does not
capture it, counted from the balance of forces; 7.2.5 15 moves of kings only (30 plies);
7.2.6 kings on both sides and the balance unchanged, 30 moves in endings of 4 and 5 pieces,
60 in endings of 6 and 7; 7.2.7 a lone king on the long diagonal against three pieces with a
king, the stronger side's 5th move; 7.2.8 two kings, a king and a man, or a king against a
lone king, the stronger side's 5th move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from engine import (
    Color,
    Position,
    get_variant,
    parse_square,
)
from engine.draw_rules import (
    DrawCounts,
    after_ply,
    counted_moves,
    counts_along,
    endgame_limit,
    is_endgame,
    long_diagonal,
    start_counts,
)
from engine.variants import (
    VARIANTS,
    CountFrom,
    Endgame,
    EndgameRule,
    MovesOf,
    Variant,
)

BRAZILIAN = get_variant("brazilian")
INTERNATIONAL = get_variant("international")
RUSSIAN = get_variant("russian")
ENGLISH = get_variant("english")
FMJD_8X8 = dataclasses.replace(BRAZILIAN, key="fmjd-8x8", draw_law=INTERNATIONAL.draw_law)


def at(fen: str, variant: Variant = RUSSIAN) -> Position:
    return Position.from_fen(fen, variant)


def _bit(name: str) -> int:
    return 1 << parse_square(name)


def moved(position: Position, start: str, end: str, *, taken: str = "", crown: bool = False
          ) -> Position:
    """The position after the side to move takes its piece from `start` to `end`
    (removing the opponent's piece on `taken`, crowning a man when `crown`)."""
    me, them = position.turn, position.turn.opponent
    men, kings = position.men(me), position.kings(me)
    if men & _bit(start):
        men &= ~_bit(start)
        if crown:
            kings |= _bit(end)
        else:
            men |= _bit(end)
    else:
        kings = (kings & ~_bit(start)) | _bit(end)
    their_men = position.men(them) & ~(_bit(taken) if taken else 0)
    their_kings = position.kings(them) & ~(_bit(taken) if taken else 0)
    if me is Color.WHITE:
        return Position(men, kings, their_men, their_kings, them)
    return Position(their_men, their_kings, men, kings, them)


def shuffled(position: Position, plies: int, white: tuple[str, str], black: tuple[str, str]
             ) -> list[Position]:
    """`plies` king moves from `position`: each side moves the king standing on one of
    its two squares to the other one, back and forth (the positions after each ply)."""
    out = []
    for _ in range(plies):
        a, b = white if position.turn is Color.WHITE else black
        start, end = (a, b) if position.kings(position.turn) & _bit(a) else (b, a)
        position = moved(position, start, end)
        out.append(position)
    return out


def drawn_after(variant: Variant, positions: Sequence[Position]) -> EndgameRule | None:
    return endgame_limit(positions[-1], counts_along(positions, variant), variant)


def first_draw(variant: Variant, positions: Sequence[Position]) -> tuple[int, str] | None:
    """The first ply (0 = the first position) at which an endgame count has run out, and
    the rule's article; None if none does."""
    counts = start_counts(positions[0], variant)
    for ply, position in enumerate(positions):
        if ply:
            counts = after_ply(counts, positions[ply - 1], position, variant)
        rule = endgame_limit(position, counts, variant)
        if rule is not None:
            return ply, rule.article
    return None


# --- the data ---------------------------------------------------------------------------------


def test_the_variants_outside_family_3_have_no_endgame_counts() -> None:
    for variant in (v for v in VARIANTS.values() if not v.a1_dark):
        assert variant.draw_law.endgame_rules == ()
        position = Position.start(variant)
        counts = counts_along([position], variant)
        assert endgame_limit(position, counts, variant) is None


def test_international_has_the_fmjd_counts() -> None:
    law = INTERNATIONAL.draw_law
    assert (law.repetitions, law.no_progress_plies) == (3, 50)
    assert [(r.article, r.endgame, r.moves, r.moves_of) for r in law.endgame_rules] == [
        ("FMJD 6.3", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, 16, MovesOf.EACH),
        ("FMJD 6.4", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, 5, MovesOf.EACH),
    ]


def test_brazilian_has_its_own_twenty_moves_and_short_endings() -> None:
    law = BRAZILIAN.draw_law
    assert (law.repetitions, law.no_progress_plies) == (3, 40)
    assert [(r.endgame, r.moves, r.moves_of) for r in law.endgame_rules] == [
        (Endgame.KINGS_EACH_AT_MOST_TWO_PIECES_ONE_MAN, 5, MovesOf.EACH),
    ]


def test_english_checkers_draws_by_repetition_and_the_forty_move_rule_only() -> None:
    law = ENGLISH.draw_law
    assert (law.repetitions, law.one_piece_each, law.no_progress_plies) == (3, False, 80)
    assert law.endgame_rules == ()


def test_an_endgame_rule_refuses_no_moves_and_a_balance_count_on_the_long_diagonal() -> None:
    with pytest.raises(ValueError, match="0 moves"):
        EndgameRule(Endgame.KINGS_ON_BOTH_SIDES, 0, MovesOf.EACH, CountFrom.BALANCE_CHANGED,
                    "x")
    with pytest.raises(ValueError, match="long diagonal"):
        EndgameRule(Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE, 5, MovesOf.STRONGER,
                    CountFrom.BALANCE_CHANGED, "x")


def test_the_long_diagonal_runs_from_a1_on_the_a1_dark_boards() -> None:
    assert long_diagonal(RUSSIAN) == sum(_bit(f"{'abcdefgh'[i]}{i + 1}") for i in range(8))
    assert long_diagonal(get_variant("italian")) == sum(
        _bit(f"{'abcdefgh'[i]}{8 - i}") for i in range(8))
    ten = long_diagonal(INTERNATIONAL)
    assert ten.bit_count() == 10 and ten & 1 and ten >> 99 & 1


# --- which endgame a position is ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "endgame", "expected"),
    [
        ("W:WKa1,Kc1,Ke1:BKh6", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, True),
        ("W:WKa1,c3,e3:BKh6", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, True),
        ("W:Wa1,c3,e3:BKh6", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, False),  # no king
        ("W:WKa1,Kc1,Ke1:Bh6", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, False),  # lone man
        ("W:WKa1,Kc1,Ke1,Kg1:BKh6", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, False),
        ("B:WKh6:BKa1,Kc1,e3", Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, True),  # Black
        ("W:WKa1,Kc1:BKh6", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, True),
        ("W:WKa1,c3:BKh6", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, True),
        ("W:WKa1:BKh6", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, True),
        ("W:Wa1,c3:BKh6", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, False),
        ("W:WKa1,Kc1:BKh6,h8", Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, False),
        ("W:WKa1,Kc1,Ke1,Kg1:BKh6", Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE, True),
        ("W:WKa1,Kc1,Ke1:BKh6", Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE, True),
        ("W:WKa1,Kc1,e3:BKh6", Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE, False),
        ("W:WKa1,Kc1:BKh6", Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE, False),
        ("W:WKa3,Kc1,e3:BKd4", Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE, True),
        ("W:WKa3,Kc1,e3:BKd6", Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE, False),
        ("W:WKa3,Kc1,Ke3,Kg1:BKd4", Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE, False),
        ("W:WKa1,c3:BKh6,b6", Endgame.KINGS_ON_BOTH_SIDES, True),
        ("W:Wa1,c3:BKh6,b6", Endgame.KINGS_ON_BOTH_SIDES, False),
    ],
)
def test_an_endgame_is_the_material_its_article_names(
    fen: str, endgame: Endgame, expected: bool
) -> None:
    rule = EndgameRule(endgame, 5, MovesOf.EACH, CountFrom.ENDGAME_REACHED, "test")
    assert is_endgame(rule, at(fen), RUSSIAN) is expected


def test_a_pieces_total_narrows_an_endgame() -> None:
    rule = EndgameRule(Endgame.KINGS_ON_BOTH_SIDES, 30, MovesOf.EACH, CountFrom.BALANCE_CHANGED,
                       "test", pieces=(4, 5))
    assert is_endgame(rule, at("W:WKa1,c3:BKh6,b6"), RUSSIAN)
    assert is_endgame(rule, at("W:WKa1,c3,e3:BKh6,b6"), RUSSIAN)
    assert not is_endgame(rule, at("W:WKa1,c3:BKh6"), RUSSIAN)
    assert not is_endgame(rule, at("W:WKa1,c3,e3:BKh6,b6,d6"), RUSSIAN)


# --- counting moves ------------------------------------------------------------------------------


def test_each_player_counts_completed_pairs_of_plies() -> None:
    rule = INTERNATIONAL.draw_law.endgame_rules[0]
    position = at("W:WKa1,Kc1,Ke1:BKh6", BRAZILIAN)
    assert [counted_moves(rule, position, n) for n in (0, 1, 2, 31, 32)] == [0, 0, 1, 15, 16]


def test_the_stronger_side_counts_its_own_moves() -> None:
    rule = RUSSIAN.draw_law.endgame_rules[0]  # 7.2.4
    white_to_move = at("W:WKa1,Kc1,Ke1:BKh6")
    black_to_move = at("B:WKa1,Kc1,Ke1:BKh6")
    # Black to move: White (stronger) made the last ply, and every other one before it.
    assert [counted_moves(rule, black_to_move, n) for n in (1, 2, 29, 30)] == [1, 1, 15, 15]
    assert [counted_moves(rule, white_to_move, n) for n in (1, 2, 29, 30)] == [0, 1, 14, 15]
    # A lone king each: the side that made more of the plies.
    alone = at("W:WKa1:BKh6")
    assert [counted_moves(rule, alone, n) for n in (8, 9, 10)] == [4, 5, 5]


# --- the counts along a game ----------------------------------------------------------------------


def test_a_ply_restarts_the_counts_its_kind_restarts() -> None:
    start = at("W:WKa1,c3:BKh6,b6")
    assert start_counts(start, RUSSIAN) == DrawCounts(0, 0, ())
    king = moved(start, "a1", "b2")
    man = moved(king, "b6", "a5")
    # A king move counts on; a man's step restarts the no-progress count only.
    assert counts_along([start, king], RUSSIAN) == DrawCounts(1, 1, ())
    assert counts_along([start, king, man], RUSSIAN) == DrawCounts(0, 2, ())
    # A crowning restarts both; so does a capture, even by a king.
    before = at("W:WKa1,g7:BKh6,b6")
    assert after_ply(DrawCounts(5, 7), before, moved(before, "g7", "h8", crown=True),
                     RUSSIAN) == DrawCounts(0, 0, ())
    before = at("W:WKa1,Kc3:BKd4,b6")
    assert after_ply(DrawCounts(5, 7), before, moved(before, "c3", "e5", taken="d4"),
                     RUSSIAN) == DrawCounts(0, 0, ())


def test_counts_along_needs_a_position() -> None:
    with pytest.raises(ValueError, match="no positions"):
        counts_along([], RUSSIAN)


# --- FMJD (International, on the 8×8 board) ---------------------------------------------------


def test_fmjd_lone_king_against_three_draws_after_sixteen_moves_each() -> None:
    start = at("W:WKa1,Kc1,Ke1:BKh6", FMJD_8X8)
    line = [start, *shuffled(start, 32, ("a1", "b2"), ("h6", "g5"))]
    assert first_draw(FMJD_8X8, line) == (32, "FMJD 6.3")
    assert drawn_after(FMJD_8X8, line[:32]) is None


def test_fmjd_lone_king_against_two_draws_after_five_moves_each() -> None:
    start = at("B:WKa1,c3:BKh6", FMJD_8X8)
    line = [start, *shuffled(start, 10, ("a1", "b2"), ("h6", "g5"))]
    assert first_draw(FMJD_8X8, line) == (10, "FMJD 6.4")


def test_fmjd_a_man_moving_or_crowned_inside_the_endgame_keeps_its_count() -> None:
    # King and two men against a lone king (6.3); at ply 11 a man steps, at ply 13 it
    # is crowned (two kings and a man): still 6.3, still counted from the start.
    start = at("W:WKa1,e5,h4:BKb8", FMJD_8X8)
    line = [start, *shuffled(start, 10, ("a1", "b2"), ("b8", "a7"))]
    line.append(moved(line[-1], "e5", "f6"))
    line.append(moved(line[-1], "a7", "b8"))
    line.append(moved(line[-1], "f6", "g7"))
    line.append(moved(line[-1], "b8", "a7"))
    line.append(moved(line[-1], "g7", "h8", crown=True))
    line += shuffled(line[-1], 17, ("a1", "b2"), ("a7", "b8"))
    assert len(line) == 33
    counts = counts_along(line[:16], FMJD_8X8)
    assert counts.no_progress_plies == 0  # the crowning was a man move (6.2 restarts)
    assert first_draw(FMJD_8X8, line) == (32, "FMJD 6.3")


def test_fmjd_a_capture_into_two_against_one_starts_the_five_move_count() -> None:
    # 6.3 for 25 plies, then the lone king takes a king at ply 26: 6.4 from that ply, 5
    # moves each (ply 36), not what was left of the 16 (ply 32).
    start = at("W:WKa1,Kc1,Kf4:BKh6", FMJD_8X8)
    line = [start, *shuffled(start, 24, ("a1", "b2"), ("h6", "g7"))]
    line.append(moved(line[-1], "a1", "b2"))
    line.append(moved(line[-1], "h6", "e3", taken="f4"))
    assert first_draw(FMJD_8X8, line) is None
    line += shuffled(line[-1], 10, ("a1", "b2"), ("e3", "d2"))
    assert first_draw(FMJD_8X8, line) == (36, "FMJD 6.4")


def test_fmjd_king_against_king_after_a_capture_keeps_the_five_move_count() -> None:
    # King and man against a lone king (6.4); the lone king takes the man at ply 2: king
    # against king is 6.4 too, so the count goes on from the start (ply 10, not 12).
    start = at("W:WKa1,c5:BKe7", FMJD_8X8)
    line = [start, moved(start, "a1", "b2")]
    line.append(moved(line[-1], "e7", "a3", taken="c5"))
    line += shuffled(line[-1], 8, ("b2", "c1"), ("a3", "b4"))
    assert first_draw(FMJD_8X8, line) == (10, "FMJD 6.4")


# --- Brazilian ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("W:WKa1,Kc1:BKh6,Kh8", True),  # two kings against two kings
        ("W:WKa1,Kc1:BKh6", True),  # two kings against one
        ("W:WKa1,Kc1:BKh6,b6", True),  # two kings against a king and a man
        ("W:WKa1:BKh6", True),  # a king against a king
        ("W:WKa1:BKh6,b6", True),  # a king against a king and a man
        ("W:WKa1,c3:BKh6,b6", False),  # two men
        ("W:WKa1,Kc1,Ke1:BKh6", False),  # three pieces
        ("W:Wa1,c3:BKh6", False),  # no king on one side
    ],
)
def test_brazilian_short_endings_are_the_five_its_rules_list(fen: str, expected: bool) -> None:
    rule = BRAZILIAN.draw_law.endgame_rules[0]
    assert is_endgame(rule, at(fen, BRAZILIAN), BRAZILIAN) is expected


def test_brazilian_short_endings_draw_after_five_moves_each() -> None:
    start = at("W:WKa1,Kc1:BKh6,Kh8", BRAZILIAN)
    line = [start, *shuffled(start, 10, ("a1", "b2"), ("h6", "g5"))]
    assert first_draw(BRAZILIAN, line) == (10, "Brazilian rules 19")


def test_brazilian_crowning_inside_the_short_endings_keeps_the_count() -> None:
    # A king and a man against two kings; the man is crowned at ply 3 (two kings each):
    # still one of the listed endings, counted from the start.
    start = at("W:WKa1,g7:BKh4,Kb8", BRAZILIAN)
    line = [start, moved(start, "a1", "b2")]
    line.append(moved(line[-1], "h4", "g3"))
    line.append(moved(line[-1], "g7", "h8", crown=True))
    line += shuffled(line[-1], 7, ("b2", "a1"), ("g3", "h4"))
    assert first_draw(BRAZILIAN, line) == (10, "Brazilian rules 19")


def test_brazilian_three_kings_against_one_have_no_endgame_count() -> None:
    start = at("W:WKa1,Kc1,Ke1:BKh6", BRAZILIAN)
    line = [start, *shuffled(start, 40, ("a1", "b2"), ("h6", "g5"))]
    assert first_draw(BRAZILIAN, line) is None
    assert counts_along(line, BRAZILIAN).no_progress_plies == 40


# --- Russian -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "ply"), [("W", 29), ("B", 30)])
def test_russian_three_kings_draw_on_the_stronger_sides_fifteenth_move(turn: str, ply: int
                                                                       ) -> None:
    # Away from the long diagonal, so only 7.2.4 (and 7.2.6's longer count) apply. White
    # to move first: its 15th move is ply 29; Black first: ply 30.
    start = at(f"{turn}:WKa3,Kc1,Ke1:BKh6")
    line = [start, *shuffled(start, 30, ("a3", "b4"), ("h6", "g5"))]
    assert first_draw(RUSSIAN, line) == (ply, "FMJD-64 7.2.4")


def test_russian_three_kings_count_from_the_capture_that_set_the_balance() -> None:
    # Four kings against one: 7.2.4 counts from the start; the lone king takes a king
    # at ply 20 and the count of the new balance starts there.
    start = at("W:WKa3,Kc1,Ke1,Kf4:BKh6")
    line = [start, *shuffled(start, 19, ("a3", "b4"), ("h6", "g7"))]
    assert line[-1].turn is Color.BLACK and line[-1].kings(Color.BLACK) & _bit("g7")
    line.append(moved(line[-1], "g7", "h6"))
    line.append(moved(line[-1], "b4", "a3") if line[-1].kings(Color.WHITE) & _bit("b4")
                else moved(line[-1], "a3", "b4"))
    line.append(moved(line[-1], "h6", "e3", taken="f4"))
    assert first_draw(RUSSIAN, line) is None
    line += shuffled(line[-1], 30, ("a3", "b4"), ("e3", "d2"))
    # After the capture White moves first: its 15th move is 29 plies on.
    assert first_draw(RUSSIAN, line) == (22 + 29, "FMJD-64 7.2.4")


def test_russian_lone_king_on_the_long_diagonal_draws_on_the_fifth_move() -> None:
    start = at("W:WKa3,Kc1,e3:BKd4")
    line = [start, *shuffled(start, 10, ("a3", "b4"), ("d4", "e5"))]
    assert first_draw(RUSSIAN, line) == (9, "FMJD-64 7.2.7")


def test_russian_long_diagonal_count_stops_when_the_king_leaves_it() -> None:
    # The lone king steps off the long diagonal at once: 7.2.7 never runs out; the
    # 7.2.6 count of a four-piece ending (30 moves each, 60 plies) draws instead.
    start = at("W:WKa3,Kc1,e3:BKd4")
    line = [start, *shuffled(start, 60, ("a3", "b4"), ("d4", "c5"))]
    assert first_draw(RUSSIAN, line) == (60, "FMJD-64 7.2.6")


def test_russian_two_against_a_lone_king_draws_on_the_stronger_sides_fifth_move() -> None:
    start = at("B:WKa3,c3:BKh6")
    line = [start, *shuffled(start, 10, ("a3", "b4"), ("h6", "g5"))]
    assert first_draw(RUSSIAN, line) == (10, "FMJD-64 7.2.8")


def test_russian_king_against_king_draws_on_the_first_fifth_move() -> None:
    start = at("B:WKa3:BKh6")
    line = [start, *shuffled(start, 10, ("a3", "b4"), ("h6", "g5"))]
    assert first_draw(RUSSIAN, line) == (9, "FMJD-64 7.2.8")


@pytest.mark.parametrize(
    ("fen", "plies"),
    [("W:WKa3,c3:BKh6,b6", 60), ("W:WKa3,c3,e3:BKh6,b6,d6", 120),
     ("W:WKa3,c3,e3:BKh6,b6,d6,f6", 120)],
    ids=["four pieces", "six pieces", "seven pieces"],
)
def test_russian_kings_on_both_sides_draw_when_the_balance_holds(fen: str, plies: int) -> None:
    start = at(fen)
    line = [start, *shuffled(start, plies, ("a3", "b4"), ("h6", "g5"))]
    assert first_draw(RUSSIAN, line) == (plies, "FMJD-64 7.2.6")


def test_russian_eight_pieces_have_no_balance_count() -> None:
    start = at("W:WKa3,c1,e1,g1:BKh6,b8,d8,f8")
    line = [start, *shuffled(start, 130, ("a3", "b4"), ("h6", "g5"))]
    assert first_draw(RUSSIAN, line) is None
    assert counts_along(line, RUSSIAN).no_progress_plies == 130  # 7.2.5 is Game's count


def test_russian_a_man_step_keeps_the_balance_count_and_a_crowning_restarts_it() -> None:
    start = at("W:WKa3,c3:BKh6,b6")
    line = [start, *shuffled(start, 20, ("a3", "b4"), ("h6", "g5"))]
    line.append(moved(line[-1], "c3", "d4"))  # ply 21: a man steps
    line += shuffled(line[-1], 39, ("a3", "b4"), ("h6", "g5"))
    assert first_draw(RUSSIAN, line) == (60, "FMJD-64 7.2.6")
    crowning = at("W:WKa3,g7:BKh4,b6")
    line = [crowning, *shuffled(crowning, 20, ("a3", "b4"), ("h4", "g3"))]
    line.append(moved(line[-1], "g7", "h8", crown=True))  # ply 21: crowned
    line += shuffled(line[-1], 59, ("a3", "b4"), ("h4", "g3"))
    assert first_draw(RUSSIAN, line) is None
    line += shuffled(line[-1], 1, ("a3", "b4"), ("h4", "g3"))
    assert first_draw(RUSSIAN, line) == (81, "FMJD-64 7.2.6")
