"""Positions: start setups, FEN reading and writing (algebraic and Italian numeric),
every rejection the FEN reader makes, and the square helpers."""

from __future__ import annotations

import dataclasses

import pytest

from engine import (
    Color,
    DamaError,
    Piece,
    PieceKind,
    Position,
    PositionError,
    get_variant,
    number_to_square,
    parse_square,
    square_name,
    square_to_number,
)

TURKISH = get_variant("turkish")
ARAB = get_variant("arab")
MOROCCAN = get_variant("moroccan")
ITALIAN = get_variant("italian")


def names(bb: int) -> set[str]:
    return {square_name(sq) for sq in range(64) if bb >> sq & 1}


# --- squares -------------------------------------------------------------------------


def test_square_names_follow_the_contract() -> None:
    assert square_name(0) == "a1"
    assert square_name(1) == "b1"
    assert square_name(7) == "h1"
    assert square_name(8) == "a2"
    assert square_name(63) == "h8"
    assert parse_square("D3") == 19
    assert parse_square(" h8 ") == 63
    for sq in range(64):
        assert parse_square(square_name(sq)) == sq


@pytest.mark.parametrize("text", ["", "i1", "a9", "a0", "d", "d33", "3d"])
def test_bad_square_names_raise_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        parse_square(text)


def test_italian_numbering_follows_rules_md() -> None:
    # docs/RULES.md: 1 = a8, 2 = c8, 3 = e8, 4 = g8, 5 = b7, ..., 29 = b1, 30 = d1, 32 = h1.
    expected = {1: "a8", 2: "c8", 3: "e8", 4: "g8", 5: "b7", 29: "b1", 30: "d1", 31: "f1",
                32: "h1", 21: "b3", 17: "a4", 18: "c4", 22: "d3"}
    for number, name in expected.items():
        assert square_name(number_to_square(number)) == name
        assert square_to_number(parse_square(name)) == number
    assert sorted(square_to_number(sq) for sq in range(64) if ITALIAN.is_playable(sq)) == list(
        range(1, 33)
    )
    with pytest.raises(ValueError):
        number_to_square(33)
    with pytest.raises(ValueError):
        number_to_square(0)
    with pytest.raises(ValueError):
        square_to_number(0)  # a1 is a light square


# --- start positions -------------------------------------------------------------------


@pytest.mark.parametrize("variant", [TURKISH, ARAB], ids=["turkish", "arab"])
def test_orthogonal_start(variant: object) -> None:
    start = Position.start(variant)  # type: ignore[arg-type]
    ranks = "abcdefgh"
    assert names(start.white_men) == {f + r for f in ranks for r in "23"}
    assert names(start.black_men) == {f + r for f in ranks for r in "67"}
    assert start.white_kings == start.black_kings == 0
    assert start.turn is Color.WHITE


@pytest.mark.parametrize("variant", [MOROCCAN, ITALIAN], ids=["moroccan", "italian"])
def test_diagonal_start(variant: object) -> None:
    start = Position.start(variant)  # type: ignore[arg-type]
    assert names(start.white_men) == set(str.split("b1 d1 f1 h1 a2 c2 e2 g2 b3 d3 f3 h3"))
    assert names(start.black_men) == set(str.split("a6 c6 e6 g6 b7 d7 f7 h7 a8 c8 e8 g8"))
    assert start.turn is Color.WHITE


# --- FEN -------------------------------------------------------------------------------


def test_fen_round_trip_of_the_contract_example() -> None:
    text = "W:Wa2,b2,Kd4:Ba7,Kh8"
    pos = Position.from_fen(text, TURKISH)
    assert names(pos.white_men) == {"a2", "b2"}
    assert names(pos.white_kings) == {"d4"}
    assert names(pos.black_men) == {"a7"}
    assert names(pos.black_kings) == {"h8"}
    assert pos.turn is Color.WHITE
    assert pos.to_fen(TURKISH) == text


def test_fen_is_forgiving_about_case_spaces_order_and_empty_sides() -> None:
    a = Position.from_fen("b : bh7 , kd5 : wa2 .", TURKISH)
    assert a == Position.from_fen("B:Wa2:Bh7,Kd5", TURKISH)
    assert a.turn is Color.BLACK
    empty_white = Position.from_fen("B:W:Bd4", TURKISH)
    assert empty_white.white_men == empty_white.white_kings == 0
    assert empty_white.to_fen(TURKISH) == "B:W:Bd4"


def test_fen_lists_men_then_kings_each_ascending() -> None:
    pos = Position.from_fen("W:WKd4,b2,a2:BKh8,a7", TURKISH)
    assert pos.to_fen(TURKISH) == "W:Wa2,b2,Kd4:Ba7,Kh8"


def test_italian_numeric_fen_read_and_write() -> None:
    pos = Position.from_fen("W:W21,22,K5:B1,2", ITALIAN)
    assert names(pos.white_men) == {"b3", "d3"}
    assert names(pos.white_kings) == {"b7"}
    assert names(pos.black_men) == {"a8", "c8"}
    assert pos.to_fen(ITALIAN, numeric=True) == "W:W21,22,K5:B1,2"
    assert pos.to_fen(ITALIAN) == "W:Wb3,d3,Kb7:Ba8,c8"
    assert Position.from_fen("W:Wb3,d3,Kb7:Ba8,c8", ITALIAN) == pos


def test_italian_numeric_ranges_give_the_start_position() -> None:
    start = Position.start(ITALIAN)
    assert Position.from_fen("W:W21-32:B1-12", ITALIAN) == start
    assert start.to_fen(ITALIAN, numeric=True) == (
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    )


def test_numeric_output_is_refused_without_numeric_notation() -> None:
    with pytest.raises(PositionError):
        Position.start(TURKISH).to_fen(TURKISH, numeric=True)


@pytest.mark.parametrize(
    ("fen", "variant", "named"),
    [
        # pieces on light squares of a diagonal board
        ("W:Wa1:Bb8", ITALIAN, "a1"),
        ("W:Wb1:Bh8", MOROCCAN, "h8"),
        ("W:Wc3:Bd8", ITALIAN, "c3"),
        # a man on its own crowning rank
        ("W:Wa8:Ba1", TURKISH, "a8"),
        ("W:Wa2:Bb1", ARAB, "b1"),
        ("W:Wa8:Bb7", ITALIAN, "a8"),
        ("W:Wb1:Bd1", MOROCCAN, "d1"),
        # a square listed twice
        ("W:Wd4,d4:Bh7", TURKISH, "d4"),
        ("W:Wd4:BKd4", TURKISH, "d4"),
        ("W:W21,22:B22", ITALIAN, "d3"),
        # unknown tokens
        ("W:Wz9:Bh7", TURKISH, "z9"),
        ("W:Wd4:Bq", TURKISH, "q"),
        ("W:Wd4:Ce5", TURKISH, "Ce5"),
        ("X:Wd4:Bh7", TURKISH, "W or B"),
        ("", TURKISH, "W or B"),
        ("W:W33:B1", ITALIAN, "33"),
        ("W:W21:B1", TURKISH, "21"),
        ("W:Wd4:Bh7:Wa2", TURKISH, "twice"),
    ],
)
def test_fen_rejections_name_the_problem(fen: str, variant: object, named: str) -> None:
    with pytest.raises(PositionError) as info:
        Position.from_fen(fen, variant)  # type: ignore[arg-type]
    assert named in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, DamaError)


def test_light_square_message_says_what_is_wrong() -> None:
    with pytest.raises(PositionError, match="light square"):
        Position.from_fen("W:Wa1:Bb8", ITALIAN)
    with pytest.raises(PositionError, match="crowning rank"):
        Position.from_fen("W:Wa8:Ba1", TURKISH)


def test_light_square_message_names_the_boards_own_dark_squares() -> None:
    with pytest.raises(PositionError, match=r"a1 is light, b1 and a2 are dark"):
        Position.from_fen("W:Wa1:Bb8", ITALIAN)
    # Brazilian's board has a dark a1 (docs/RULES.md, "Family 3").
    with pytest.raises(PositionError, match=r"b1 is a light square.*a1 is dark, b1 and a2"):
        Position.from_fen("W:Wb1:Bb8", get_variant("brazilian"))


def test_more_pieces_than_the_variant_allows() -> None:
    seventeen = ",".join(square_name(sq) for sq in range(8, 25))
    with pytest.raises(PositionError, match="17 pieces"):
        Position.from_fen(f"W:W{seventeen}:Bh8", TURKISH)
    thirteen = ",".join(str(n) for n in range(20, 33))
    with pytest.raises(PositionError, match="13 pieces"):
        Position.from_fen(f"W:W{thirteen}:B1", ITALIAN)
    # sixteen and twelve are fine
    Position.from_fen(f"W:W{seventeen.rsplit(',', 1)[0]}:BKh8", TURKISH)
    Position.from_fen("W:W21-32:B1", ITALIAN)


# --- the value ---------------------------------------------------------------------------


def test_position_is_an_immutable_hashable_value() -> None:
    a = Position.from_fen("W:Wa2,Kd4:Bh7", TURKISH)
    b = Position.from_fen("W:WKd4,a2:Bh7", TURKISH)
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != a.with_turn(Color.BLACK)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.turn = Color.BLACK  # type: ignore[misc]


def test_constructor_rejects_overlapping_bitboards() -> None:
    with pytest.raises(PositionError):
        Position(1 << 8, 1 << 8, 0, 0, Color.WHITE)
    with pytest.raises(PositionError):
        Position(1 << 64, 0, 0, 0, Color.WHITE)


def test_piece_at_and_pieces_in_ascending_order() -> None:
    pos = Position.from_fen("B:Wa2,Kd4:Ba7,Kh8", TURKISH)
    assert pos.piece_at(parse_square("a2")) == Piece(Color.WHITE, PieceKind.MAN)
    assert pos.piece_at(parse_square("d4")) == Piece(Color.WHITE, PieceKind.KING)
    assert pos.piece_at(parse_square("a7")) == Piece(Color.BLACK, PieceKind.MAN)
    assert pos.piece_at(parse_square("h8")) == Piece(Color.BLACK, PieceKind.KING)
    assert pos.piece_at(parse_square("e5")) is None
    assert [square_name(sq) for sq, _ in pos.pieces()] == ["a2", "d4", "a7", "h8"]
    assert pos.count(Color.WHITE) == 2 and pos.count(Color.BLACK) == 2


def test_flipped_turns_the_board_and_swaps_colours() -> None:
    pos = Position.from_fen("W:Wa2,Kd4:Bh7", TURKISH)
    assert pos.flipped() == Position.from_fen("B:Wa2:Bh7,Ke5", TURKISH)
    assert pos.flipped().flipped() == pos


# --- the 10x10 board (International draughts) -------------------------------------------

INTERNATIONAL = get_variant("international")
BRAZILIAN = get_variant("brazilian")


def test_international_start_in_fmjd_numbers_and_algebraic_squares() -> None:
    start = Position.start(INTERNATIONAL)
    assert start.to_fen(INTERNATIONAL, numeric=True) == (
        "W:W" + ",".join(str(n) for n in range(31, 51))
        + ":B" + ",".join(str(n) for n in range(1, 21))
    )
    algebraic = start.to_fen(INTERNATIONAL)
    assert algebraic.startswith("W:Wa1,c1,e1,g1,i1,b2,") and algebraic.endswith(",h10,j10")
    assert Position.from_fen(algebraic, INTERNATIONAL) == start
    assert Position.from_fen("W:W31-50:B1-20", INTERNATIONAL) == start


def test_international_fen_reads_kings_ranges_and_both_square_forms() -> None:
    pos = Position.from_fen("B:W28,K5:BK46,19-20", INTERNATIONAL)
    assert pos.turn is Color.BLACK and pos.board_size == 10
    assert pos.to_fen(INTERNATIONAL, numeric=True) == "B:W28,K5:B19,20,K46"
    assert pos.to_fen(INTERNATIONAL) == "B:We5,Kj10:Bg7,i7,Ka1"
    assert Position.from_fen("B:We5,Kj10:Bg7,i7,Ka1", INTERNATIONAL) == pos
    assert pos.piece_at(99) == Piece(Color.WHITE, PieceKind.KING)  # j10 = 5
    assert pos.piece_at(0) == Piece(Color.BLACK, PieceKind.KING)  # a1 = 46


@pytest.mark.parametrize(
    ("fen", "named"),
    [
        ("W:W51:B1", "1 to 50"),
        ("W:W0:B1", "1 to 50"),
        ("W:Wz1:B1", "unknown token"),
        ("W:Wa11:B1", "a1 to j10"),
        ("W:Wb1:B1", "light square"),
        ("W:W1:B1", "crowning rank"),  # 1 = b10: White's far rank
        ("W:W46:B46", "listed twice"),
        ("W:W6-26:B1", "at most 20"),
    ],
)
def test_international_fen_rejections_name_the_problem(fen: str, named: str) -> None:
    with pytest.raises(PositionError, match=named):
        Position.from_fen(fen, INTERNATIONAL)


def test_positions_on_different_boards_are_never_equal() -> None:
    eight = Position(1, 0, 0, 0, Color.WHITE)
    ten = Position(1, 0, 0, 0, Color.WHITE, 10)
    assert eight != ten and eight.board_size == 8
    with pytest.raises(PositionError, match=r"0\.\.63"):
        Position(1 << 64, 0, 0, 0, Color.WHITE)
    assert Position(1 << 99, 0, 0, 0, Color.WHITE, 10).occupied == 1 << 99
    with pytest.raises(PositionError, match=r"0\.\.99"):
        Position(1 << 100, 0, 0, 0, Color.WHITE, 10)
    with pytest.raises(PositionError, match="neither 8 nor 10"):
        Position(0, 0, 0, 0, Color.WHITE, 12)


def test_a_position_is_written_only_for_its_own_board() -> None:
    with pytest.raises(PositionError, match="10×10"):
        Position.start(INTERNATIONAL).to_fen(BRAZILIAN)


def test_international_board_prints_ten_ranks_and_files_a_to_j() -> None:
    lines = str(Position.from_fen("W:W46:BK5", INTERNATIONAL)).splitlines()
    assert len(lines) == 11
    assert lines[0] == "10 . . . . . . . . . B"
    assert lines[9] == " 1 w . . . . . . . . ."
    assert lines[10] == "   a b c d e f g h i j"


def test_flipped_turns_the_10x10_board() -> None:
    pos = Position.from_fen("W:W46,K28:B1", INTERNATIONAL)
    flipped = pos.flipped()
    assert flipped.board_size == 10 and flipped.turn is Color.BLACK
    # 46 = a1 -> j10 = 5; 28 = e5 -> f6 = 23; 1 = b10 -> i1 = 50.
    assert flipped.to_fen(INTERNATIONAL, numeric=True) == "B:W50:B5,K23"
    assert flipped.flipped() == pos
