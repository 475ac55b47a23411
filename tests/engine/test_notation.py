"""Move notation: forgiving input, malformed / illegal (with the reason) / ambiguous
input, shortest and full output, numeric squares (Italian, English checkers), the Russian
capture sign, free choice of capture.

Positions are built by hand; the expected moves follow from docs/RULES.md by reading the board.
"""

from __future__ import annotations

import pytest

from engine import (
    AmbiguousMoveError,
    Game,
    Geometry,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    MoveProblem,
    NotationError,
    Position,
    Variant,
    apply_move,
    format_move,
    get_variant,
    legal_moves,
    parse_move,
    parse_square,
)
from engine.squares_board import parse_square_on

TURKISH = get_variant("turkish")
ARAB = get_variant("arab")
MOROCCAN = get_variant("moroccan")
ITALIAN = get_variant("italian")
RUSSIAN = get_variant("russian")
ENGLISH = get_variant("english")


def sq(name: str) -> int:
    return parse_square(name)


def move(*path: str, captured: tuple[str, ...] = ()) -> Move:
    return Move(sq(path[0]), tuple(sq(p) for p in path[1:]), tuple(sq(c) for c in captured))


def pos(fen: str, variant: Variant) -> Position:
    return Position.from_fen(fen, variant)


# --- forgiving input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["d3-d4", "d3d4", "D3-D4", "d3 d4", " d3-d4 ", "d3:d4", "d3-d4!", "d3\u2013d4"]
)
def test_forgiving_quiet_move_forms(text: str) -> None:
    start = Position.start(TURKISH)
    assert parse_move(text, start, TURKISH) == move("d3", "d4")


def test_short_capture_form_is_accepted_when_one_move_matches() -> None:
    # White man c3 jumps c4 to c5, then c6 to c7 (docs/RULES.md: men capture straight ahead).
    p = pos("W:Wc3,h3:Bc4,c6,h4", TURKISH)
    full = move("c3", "c5", "c7", captured=("c4", "c6"))
    for text in ("c3xc7", "c3xc5xc7", "C3XC7", "c3-c7", "c3c5c7"):
        got = parse_move(text, p, TURKISH)
        assert got == full
        assert got.landings == (sq("c5"), sq("c7"))
        assert got.captured == (sq("c4"), sq("c6"))


def test_italian_numeric_input() -> None:
    start = Position.start(ITALIAN)
    # docs/RULES.md: 22 = d3, 18 = c4, 19 = e4.
    assert parse_move("22-18", start, ITALIAN) == move("d3", "c4")
    assert parse_move("22 19", start, ITALIAN) == move("d3", "e4")
    # d3 takes e4 and lands on f5: 22x15.
    p = pos("W:Wd3:Be4,a8", ITALIAN)
    assert parse_move("22x15", p, ITALIAN) == move("d3", "f5", captured=("e4",))


# --- malformed ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        ("", TURKISH),
        ("   ", TURKISH),
        ("hello", TURKISH),
        ("d3", TURKISH),
        ("z9-d4", TURKISH),
        ("d9-d4", TURKISH),
        ("22-18", TURKISH),  # numeric squares are Italian only
        ("22-18", MOROCCAN),
        ("d3-18", ITALIAN),  # mixed forms
        ("99-18", ITALIAN),
        ("0-18", ITALIAN),
        ("2218", ITALIAN),
        ("22", ITALIAN),
    ],
)
def test_malformed_input(text: str, variant: Variant) -> None:
    with pytest.raises(MalformedMoveError) as info:
        parse_move(text, Position.start(variant), variant)
    assert isinstance(info.value, NotationError) and isinstance(info.value, ValueError)
    assert str(info.value)


@pytest.mark.parametrize(
    ("text", "variant", "square"),
    [("d3-d9", TURKISH, "d9"), ("z9-d4", TURKISH, "z9"), ("a0-a1", TURKISH, "a0"),
     ("k3xk5", MOROCCAN, "k3"), ("h9-g8", ITALIAN, "h9"), ("d3-d10", ARAB, "d10")],
)
def test_an_off_board_square_is_named(text: str, variant: Variant, square: str) -> None:
    # The board's files are a-h and its ranks 1-8 (docs/RULES.md, coordinates).
    with pytest.raises(MalformedMoveError) as info:
        parse_move(text, Position.start(variant), variant)
    assert f"{square} is not a square" in str(info.value)


def test_numeric_in_a_non_numeric_variant_says_so() -> None:
    with pytest.raises(MalformedMoveError, match="numeric squares are not used in Turkish"):
        parse_move("22-18", Position.start(TURKISH), TURKISH)


# --- illegal, with the reason ---------------------------------------------------------------


def illegal(text: str, p: Position, variant: Variant) -> str:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(text, p, variant)
    return str(info.value)


def test_no_piece_of_yours() -> None:
    start = Position.start(TURKISH)
    assert "no piece of yours on e5" in illegal("e5-e4", start, TURKISH)
    assert "no piece of yours on e6" in illegal("e6-e5", start, TURKISH)


def test_capture_is_compulsory() -> None:
    # White man d4 must take d5 (landing d6); a2-a3 is refused.
    p = pos("W:Wd4,a2:Bd5,h7", TURKISH)
    assert "a capture is available: you must capture" in illegal("a2-a3", p, TURKISH)
    assert "a capture is available: you must capture" in illegal("d4-c4", p, TURKISH)
    assert parse_move("d4xd6", p, TURKISH) == move("d4", "d6", captured=("d5",))


def test_a_longer_capture_is_required() -> None:
    # h3xh5 takes one piece, c3xc5xc7 takes two: maximum capture.
    p = pos("W:Wc3,h3:Bc4,c6,h4", TURKISH)
    assert "a longer capture is available" in illegal("h3xh5", p, TURKISH)


def test_a_capture_is_played_to_its_end() -> None:
    p = pos("W:Wc3,h3:Bc4,c6,h4", TURKISH)
    message = illegal("c3xc5", p, TURKISH)
    assert "capture" in message and "end" in message


def test_italian_ladder_reason() -> None:
    # Man b3xd5 and king f1xh3 both take one man: the king's capture is compulsory.
    p = pos("W:Wb3,Kf1:Bc4,g2", ITALIAN)
    assert legal_moves(p, ITALIAN) == [move("f1", "h3", captured=("g2",))]
    assert "capture rules prefer another capture" in illegal("b3xd5", p, ITALIAN)


def test_that_piece_cannot_move_there() -> None:
    start = Position.start(TURKISH)
    assert "that piece cannot move there" in illegal("d3-d5", start, TURKISH)
    assert "that piece cannot move there" in illegal("d3-c4", start, TURKISH)
    # Italian: a man never captures a king.
    p = pos("W:Wd3,h1:BKe4,a8", ITALIAN)
    assert "that piece cannot move there" in illegal("d3xf5", p, ITALIAN)


def test_a_blocked_piece_has_no_legal_move() -> None:
    start = Position.start(TURKISH)
    assert "the man on d2 has no legal move" in illegal("d2-d3", start, TURKISH)


# --- ambiguity -------------------------------------------------------------------------------


def test_same_start_and_end_with_different_captures_is_ambiguous() -> None:
    # White man e4 reaches e8 over f5 and f7, or over d5 and d7: two moves (docs/RULES.md).
    for variant in (ITALIAN, MOROCCAN):
        p = pos("W:We4:Bd5,f5,d7,f7", variant)
        right = move("e4", "g6", "e8", captured=("f5", "f7"))
        left = move("e4", "c6", "e8", captured=("d5", "d7"))
        assert set(legal_moves(p, variant)) == {right, left}
        with pytest.raises(AmbiguousMoveError) as info:
            parse_move("e4xe8", p, variant)
        assert set(info.value.candidates) == {right, left}
        assert "e4xg6xe8" in str(info.value) and "e4xc6xe8" in str(info.value)
        assert parse_move("e4xg6xe8", p, variant) == right
        assert parse_move("e4 c6 e8", p, variant) == left
        assert format_move(right, p, variant) == "e4xg6xe8"
        assert format_move(left, p, variant) == "e4xc6xe8"


def test_italian_numeric_ambiguity_lists_numeric_candidates() -> None:
    p = pos("W:We4:Bd5,f5,d7,f7", ITALIAN)
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move("19x3", p, ITALIAN)  # e4 = 19, e8 = 3
    assert "19x12x3" in str(info.value) and "19x10x3" in str(info.value)
    assert parse_move("19x10x3", p, ITALIAN) == move("e4", "c6", "e8", captured=("d5", "d7"))


def test_routes_with_the_same_captures_are_one_move() -> None:
    # Turkish king a1 takes a3 and a6; it may stop on a4 or a5 between them: same move.
    p = pos("W:WKa1:Ba3,a6,h8", TURKISH)
    moves = legal_moves(p, TURKISH)
    assert set(moves) == {
        move("a1", "a4", "a7", captured=("a3", "a6")),
        move("a1", "a4", "a8", captured=("a3", "a6")),
    }
    assert parse_move("a1xa5xa7", p, TURKISH) == move("a1", "a4", "a7", captured=("a3", "a6"))
    assert parse_move("a1xa7", p, TURKISH) == parse_move("a1xa4xa7", p, TURKISH)


# --- output ------------------------------------------------------------------------------------


def test_quiet_moves_are_written_with_a_dash() -> None:
    start = Position.start(TURKISH)
    m = move("d3", "d4")
    assert format_move(m, start, TURKISH) == "d3-d4"
    assert format_move(m, start, TURKISH, full=True) == "d3-d4"


def test_shortest_and_full_capture_forms() -> None:
    p = pos("W:Wc3,h3:Bc4,c6,h4", TURKISH)
    m = move("c3", "c5", "c7", captured=("c4", "c6"))
    assert format_move(m, p, TURKISH) == "c3xc7"
    assert format_move(m, p, TURKISH, full=True) == "c3xc5xc7"


def test_italian_numeric_output() -> None:
    start = Position.start(ITALIAN)
    assert format_move(move("d3", "c4"), start, ITALIAN, numeric=True) == "22-18"
    p = pos("W:Wd3:Be4,a8", ITALIAN)
    assert format_move(move("d3", "f5", captured=("e4",)), p, ITALIAN, numeric=True) == "22x15"


def test_english_checkers_numeric_squares() -> None:
    # docs/RULES.md, "English checkers": 1 = b8 ... 32 = g1, row by row from Black's back
    # rank; Black moves first, 11-15 = f6-e5; White's c3 takes d4 to e5: 22x15.
    start = Position.start(ENGLISH)
    assert parse_move("11-15", start, ENGLISH) == move("f6", "e5")
    assert parse_move("9-13", start, ENGLISH) == move("b6", "a5")
    assert format_move(move("f6", "e5"), start, ENGLISH, numeric=True) == "11-15"
    assert [format_move(m, start, ENGLISH, numeric=True) for m in legal_moves(start, ENGLISH)] == [
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16",
    ]
    p = pos("W:Wc3:Bd4", ENGLISH)
    jump = move("c3", "e5", captured=("d4",))
    assert parse_move("22x15", p, ENGLISH) == jump
    assert format_move(jump, p, ENGLISH, numeric=True) == "22x15"
    assert format_move(jump, p, ENGLISH) == "c3xe5"


def test_russian_capture_sign_is_read_and_x_written() -> None:
    # docs/RULES.md, "Russian draughts": Russian literature writes c3:e5; we write c3xe5.
    p = pos("W:Wc3:Bd4", RUSSIAN)
    jump = move("c3", "e5", captured=("d4",))
    assert parse_move("c3:e5", p, RUSSIAN) == jump
    assert format_move(jump, p, RUSSIAN) == "c3xe5"
    assert parse_move("c3-d4", Position.start(RUSSIAN), RUSSIAN) == move("c3", "d4")


def test_free_choice_a_whole_path_names_its_move() -> None:
    # Russian king c5: b6 alone to a7, or e7, g5, e3 and back to a7 over d6, f6, f4, b6.
    # c5xa7 is the whole path of the first and a short form of the second: it names the
    # first; the second is written with a landing square.
    p = pos("W:WKc5:BKf4,Ka5,Ke5,Kb6,Kd6,Kf6", RUSSIAN)
    single = move("c5", "a7", captured=("b6",))
    long = move("c5", "e7", "g5", "e3", "a7", captured=("d6", "f6", "f4", "b6"))
    assert set(legal_moves(p, RUSSIAN)) == {single, long}
    assert parse_move("c5xa7", p, RUSSIAN) == single
    assert format_move(single, p, RUSSIAN) == "c5xa7"
    assert parse_move(format_move(long, p, RUSSIAN), p, RUSSIAN) == long


def test_free_choice_refuses_a_king_stopping_where_its_capture_could_go_on() -> None:
    # Russian king a1 jumps c3: it must land on e5, from where it goes on over f4.
    p = pos("W:WKa1:Bc3,f4", RUSSIAN)
    message = illegal("a1xd4", p, RUSSIAN)
    assert "played to its end" in message and "longer" not in message


def test_numeric_output_needs_a_numeric_variant() -> None:
    start = Position.start(TURKISH)
    with pytest.raises(NotationError):
        format_move(move("d3", "d4"), start, TURKISH, numeric=True)


def test_formatting_an_illegal_move_raises() -> None:
    start = Position.start(TURKISH)
    with pytest.raises(IllegalMoveError):
        format_move(move("d3", "d5"), start, TURKISH)


@pytest.mark.parametrize("variant", [TURKISH, ARAB, MOROCCAN, ITALIAN], ids=lambda v: v.key)
def test_every_formatted_move_parses_back(variant: Variant) -> None:
    positions = [
        Position.start(variant),
        pos("W:We4:Bd5,f5,d7,f7", variant) if variant.geometry is Geometry.DIAGONAL
        else pos("W:WKa1:Ba3,a6,h8", variant),
    ]
    for p in positions:
        for m in legal_moves(p, variant):
            assert parse_move(format_move(m, p, variant), p, variant) == m
            assert parse_move(format_move(m, p, variant, full=True), p, variant) == m


# --- reasons: each refusal names its MoveProblem and parameters (the bot's translations) ----

P = MoveProblem
REASONS = [
    ("", TURKISH, None, MalformedMoveError, P.EMPTY, {}),
    ("d9-d8", TURKISH, None, MalformedMoveError, P.NOT_A_SQUARE, {"square": "d9"}),
    ("2218", ITALIAN, None, MalformedMoveError, P.NUMBERS_RUN_TOGETHER, {}),
    ("22-18", TURKISH, None, MalformedMoveError, P.NUMBERS_NOT_USED, {"variant": "turkish"}),
    # Numbers run together in a variant without numbers: that it has none is the reason.
    ("2218", TURKISH, None, MalformedMoveError, P.NUMBERS_NOT_USED, {"variant": "turkish"}),
    ("40-36", ITALIAN, None, MalformedMoveError, P.NUMBER_OFF_BOARD, {"number": 40}),
    ("hello", TURKISH, None, MalformedMoveError, P.NOT_A_MOVE, {}),
    ("d3-18", ITALIAN, None, MalformedMoveError, P.MIXED_NOTATION, {}),
    ("d3", TURKISH, None, MalformedMoveError, P.ONE_SQUARE, {}),
    ("a2-a3", TURKISH, "W:Wa2:Ba3,a4,b2,c2", IllegalMoveError, P.NO_LEGAL_MOVE, {}),
    ("a1-b2", ITALIAN, None, IllegalMoveError, P.LIGHT_SQUARE, {"square": "a1"}),
    ("e5-e4", TURKISH, None, IllegalMoveError, P.EMPTY_SQUARE, {"square": "e5"}),
    ("e6-e5", TURKISH, None, IllegalMoveError, P.OPPONENTS_PIECE, {"square": "e6"}),
    ("22-27", ITALIAN, None, IllegalMoveError, P.PIECE_CANNOT_GO_THERE,
     {"moves": "22-18, 22-19"}),
    ("d3xf5", ITALIAN, "W:Wd3:BKe4,a8", IllegalMoveError, P.MAN_CANNOT_TAKE_KING,
     {"square": "e4", "moves": "d3-c4"}),
    ("b3xd5", ITALIAN, "W:Wb3,Kf1:Bc4,g2", IllegalMoveError, P.CAPTURE_PRECEDENCE,
     {"moves": "f1xh3"}),
    ("h3xh5", TURKISH, "W:Wc3,h3:Bc4,c6,h4", IllegalMoveError, P.LONGER_CAPTURE,
     {"count": 2, "moves": "c3xc5xc7"}),
    ("c3xc5", TURKISH, "W:Wc3,h3:Bc4,c6,h4", IllegalMoveError, P.CAPTURE_UNFINISHED,
     {"moves": "c3xc5xc7"}),
    ("a2-a3", TURKISH, "W:Wd4,a2:Bd5,h7", IllegalMoveError, P.MUST_CAPTURE, {"moves": "d4xd6"}),
    ("d3-d5", TURKISH, None, IllegalMoveError, P.PIECE_CANNOT_GO_THERE, {"moves": "d3-d4"}),
    ("d2-d3", TURKISH, None, IllegalMoveError, P.PIECE_STUCK,
     {"square": "d2", "moves": "a3-a4, b3-b4, c3-c4, d3-d4"}),
    ("e4xe8", ITALIAN, "W:We4:Bd5,f5,d7,f7", AmbiguousMoveError, P.AMBIGUOUS,
     {"moves": "e4xg6xe8, e4xc6xe8"}),
]


@pytest.mark.parametrize(("text", "variant", "fen", "kind", "reason", "details"), REASONS)
def test_each_refusal_gives_its_reason_and_parameters(
    text: str, variant: Variant, fen: str | None, kind: type[NotationError],
    reason: MoveProblem, details: dict[str, object],
) -> None:
    p = pos(fen, variant) if fen else Position.start(variant)
    with pytest.raises(kind) as info:
        parse_move(text, p, variant)
    assert info.value.reason is reason
    assert dict(info.value.details) == details
    assert str(info.value)  # the English explanation is kept


def test_every_reason_is_raised_somewhere() -> None:
    raised = {row[4] for row in REASONS} | {P.NOT_LEGAL, P.NO_NUMERIC_NOTATION}
    assert raised == set(MoveProblem)


def test_reasons_of_formatting_and_playing() -> None:
    start = Position.start(TURKISH)
    with pytest.raises(IllegalMoveError) as info:
        format_move(move("d3", "d5"), start, TURKISH)
    assert info.value.reason is P.NOT_LEGAL and info.value.details == {"move": "d3-d5"}
    with pytest.raises(NotationError) as numeric:
        format_move(move("d3", "d4"), start, TURKISH, numeric=True)
    assert numeric.value.reason is P.NO_NUMERIC_NOTATION
    assert numeric.value.details == {"variant": "turkish"}
    with pytest.raises(IllegalMoveError) as applied:
        apply_move(start, move("d3", "d5"), TURKISH)
    assert applied.value.reason is P.NOT_LEGAL and applied.value.details == {"move": "d3-d5"}
    with pytest.raises(IllegalMoveError) as played:  # a Move is explained like its text
        Game(TURKISH).play(move("d3", "d5"))
    assert played.value.reason is P.PIECE_CANNOT_GO_THERE


# --- International draughts: the 10x10 board, FMJD numbers 1..50 and a1..j10 ----------

INTERNATIONAL = get_variant("international")


def test_international_reads_fmjd_numbers_and_algebraic_squares_alike() -> None:
    start = Position.start(INTERNATIONAL)
    by_number = parse_move("32-28", start, INTERNATIONAL)
    assert by_number == parse_move("d4-e5", start, INTERNATIONAL)  # 32 = d4, 28 = e5
    assert format_move(by_number, start, INTERNATIONAL, numeric=True) == "32-28"
    assert format_move(by_number, start, INTERNATIONAL) == "d4-e5"


def test_international_capture_is_written_as_the_fmjd_writes_it() -> None:
    game = Game(INTERNATIONAL)
    game.play("32-28")
    game.play("19-23")
    before = game.position
    capture = game.play("28x19")
    assert capture.captured == (parse_square_on("f6", 10),)  # 23 = f6
    assert format_move(capture, before, INTERNATIONAL, numeric=True) == "28x19"
    assert format_move(capture, before, INTERNATIONAL, full=True) == "e5xg7"


def test_international_long_capture_short_and_full() -> None:
    pos = Position.from_fen(
        "B:W26,32,33,35,36,40,41,42,48:B1,2,6,7,10,11,13,14,19,23,24,30,K50", INTERNATIONAL
    )
    (only,) = legal_moves(pos, INTERNATIONAL)
    assert format_move(only, pos, INTERNATIONAL, numeric=True) == "50x46"
    assert format_move(only, pos, INTERNATIONAL, numeric=True, full=True) == "50x28x37x46"
    assert parse_move("i1xe5xc3xa1", pos, INTERNATIONAL) == only
    assert parse_move("50x37x46", pos, INTERNATIONAL) == only


@pytest.mark.parametrize(
    ("text", "reason", "said"),
    [
        ("51-46", MoveProblem.NUMBER_OFF_BOARD, "numeric squares run 1 to 50"),
        ("k1-j2", MoveProblem.NOT_A_SQUARE, "squares run from a1 to j10"),
        ("a11-b10", MoveProblem.NOT_A_SQUARE, "squares run from a1 to j10"),
    ],
)
def test_international_malformed_input(text: str, reason: MoveProblem, said: str) -> None:
    with pytest.raises(MalformedMoveError, match=said) as caught:
        parse_move(text, Position.start(INTERNATIONAL), INTERNATIONAL)
    assert caught.value.reason is reason


def test_international_illegal_moves_name_the_boards_squares() -> None:
    start = Position.start(INTERNATIONAL)
    with pytest.raises(IllegalMoveError, match="j1 is a light square") as light:
        parse_move("i1-j1", start, INTERNATIONAL)
    assert light.value.reason is MoveProblem.LIGHT_SQUARE
    with pytest.raises(IllegalMoveError, match="no piece of yours on 25") as empty:
        parse_move("25-30", start, INTERNATIONAL)
    assert empty.value.reason is MoveProblem.EMPTY_SQUARE
    with pytest.raises(IllegalMoveError, match=r"the man can play 32-27, 32-28"):
        parse_move("32-23", start, INTERNATIONAL)
