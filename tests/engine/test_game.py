"""Game: every termination and every draw counter per variant, with exact positions.

Expected outcomes and ply numbers come from docs/RULES.md (win and draw sections; 30 plies for
Turkish, 80 for Arab, Moroccan and Italian; threefold repetition; one piece each in the
orthogonal family), read against hand-built positions.
"""

from __future__ import annotations

import pytest

from engine import (
    Color,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    Outcome,
    Piece,
    PieceKind,
    Position,
    Termination,
    UnknownVariantError,
    Variant,
    get_variant,
    parse_square,
)
from engine.movegen import play_unchecked

TURKISH = get_variant("turkish")
ARAB = get_variant("arab")
MOROCCAN = get_variant("moroccan")
ITALIAN = get_variant("italian")
ORTHOGONAL = (TURKISH, ARAB)
DIAGONAL = (MOROCCAN, ITALIAN)


def game(fen: str, variant: Variant, *, enforce: bool = True) -> Game:
    return Game(variant, Position.from_fen(fen, variant), enforce_draw_rules=enforce)


def play_all(g: Game, *moves: str) -> None:
    for text in moves:
        assert g.outcome is None, (g.ply, text)
        g.play(text)


# --- wins ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "move"),
    [
        (TURKISH, "W:Wd4,a2:Bd5", "d4xd6"),
        (ARAB, "W:Wd4,a2:Bd5", "d4xd6"),
        (MOROCCAN, "W:Wd3,h1:Be4", "d3xf5"),
        (ITALIAN, "W:Wd3,h1:Be4", "d3xf5"),
    ],
    ids=lambda x: x.key if isinstance(x, Variant) else None,
)
def test_taking_the_last_piece_wins(variant: Variant, fen: str, move: str) -> None:
    g = game(fen, variant)
    g.play(move)
    assert g.outcome == Outcome(Termination.NO_PIECES, Color.WHITE)
    assert g.outcome.result == "1-0" and not g.outcome.is_draw


@pytest.mark.parametrize(
    ("variant", "fen", "move"),
    [
        # Black man a2 steps down to a1 or sideways to b2: both taken; b2 cannot be jumped
        # (c2 is occupied) and a1 cannot (off the board).
        (TURKISH, "W:Wa1,a3,b2,c2,h4:Ba2", "h4-h5"),
        (ARAB, "W:Wa1,a3,b2,c2,h4:Ba2", "h4-h5"),
        # Black man a2 can only go to b1, which is taken; the jump over b1 leaves the board.
        (MOROCCAN, "W:Wb1,h3:Ba2", "h3-g4"),
        (ITALIAN, "W:Wb1,h3:Ba2", "h3-g4"),
    ],
    ids=lambda x: x.key if isinstance(x, Variant) else None,
)
def test_a_side_without_a_legal_move_loses(variant: Variant, fen: str, move: str) -> None:
    g = game(fen, variant)
    g.play(move)
    assert g.outcome == Outcome(Termination.NO_LEGAL_MOVE, Color.WHITE)
    assert g.legal_moves() == []


def test_the_start_position_can_already_be_decided() -> None:
    blocked = game("B:Wa1,a3,b2,c2,h4:Ba2", TURKISH)
    assert blocked.outcome == Outcome(Termination.NO_LEGAL_MOVE, Color.WHITE)
    empty = game("W:W:Ba7,h7", TURKISH)
    assert empty.outcome == Outcome(Termination.NO_PIECES, Color.BLACK)


# --- one piece each --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ORTHOGONAL, ids=lambda v: v.key)
def test_one_piece_each_is_an_immediate_draw_in_the_orthogonal_family(variant: Variant) -> None:
    g = game("W:Wd4:Bd5,h7", variant)
    g.play("d4xd6")
    assert g.outcome == Outcome(Termination.ONE_PIECE_EACH, None)
    assert g.outcome.result == "1/2-1/2"
    # also from a start position with one piece each, even if a capture is available
    assert game("W:Wd4:Bd5", variant).outcome == Outcome(Termination.ONE_PIECE_EACH, None)


@pytest.mark.parametrize("variant", DIAGONAL, ids=lambda v: v.key)
def test_one_piece_each_does_not_draw_in_the_diagonal_family(variant: Variant) -> None:
    g = game("W:Wd3:Be4,a8", variant)
    g.play("d3xf5")
    assert g.outcome is None
    assert game("W:Wd3:Ba8", variant).outcome is None


# --- repetition --------------------------------------------------------------------------------

REPETITION_CASES = [
    (TURKISH, "W:WKa1,b2:BKh8,g7", ("a1-a2", "h8-h7", "a2-a1", "h7-h8")),
    (ARAB, "W:WKa1,b2:BKh8,g7", ("a1-a2", "h8-h7", "a2-a1", "h7-h8")),
    (MOROCCAN, "W:WKb1:BKa8", ("b1-a2", "a8-b7", "a2-b1", "b7-a8")),
    (ITALIAN, "W:WKb1:BKa8", ("b1-a2", "a8-b7", "a2-b1", "b7-a8")),
]


@pytest.mark.parametrize(
    ("variant", "fen", "cycle"), REPETITION_CASES, ids=lambda x: getattr(x, "key", None)
)
def test_threefold_repetition_counts_the_start_position(
    variant: Variant, fen: str, cycle: tuple[str, ...]
) -> None:
    g = game(fen, variant)
    play_all(g, *cycle, *cycle[:3])
    assert g.outcome is None  # ply 7: the start position has been seen twice
    assert g.repetition_count(g.start) == 2
    g.play(cycle[3])  # ply 8: the start position for the third time
    assert g.ply == 8
    assert g.outcome == Outcome(Termination.REPETITION, None)


@pytest.mark.parametrize(
    ("variant", "fen", "cycle"), REPETITION_CASES, ids=lambda x: getattr(x, "key", None)
)
def test_replaying_notes_repetition_and_goes_on(
    variant: Variant, fen: str, cycle: tuple[str, ...]
) -> None:
    g = game(fen, variant, enforce=False)
    play_all(g, *cycle, *cycle, *cycle)
    assert g.outcome is None
    assert g.ply == 12
    assert (8, Termination.REPETITION) in g.draw_notes


# --- the no-progress counts ----------------------------------------------------------------------

# Kings behind walls of their own men: no capture is ever possible, so kings can move for
# as long as the rule allows.
WALLS = {
    TURKISH: "W:Wa4,b4,c4,d4,e4,f4,g4,h4,Ka1:Ba6,b6,c6,d6,e6,f6,g6,h6,Kh8",
    ARAB: "W:Wa4,b4,c4,d4,e4,f4,g4,h4,Ka1:Ba6,b6,c6,d6,e6,f6,g6,h6,Kh8",
    MOROCCAN: "W:Wa4,c4,e4,g4,Kb1,Kd1:Ba6,c6,e6,g6,Ka8,Kc8",
    ITALIAN: "W:Wa4,c4,e4,g4,Kb1,Kd1:Ba6,c6,e6,g6,Ka8,Kc8",
    get_variant("brazilian"): "W:Wa3,c3,e3,g3,Ka1,Kc1,Ke1:Bb6,d6,f6,h6,Kb8,Kd8,Kf8",
    get_variant("russian"): "W:Wa3,c3,e3,g3,Ka1,Kc1,Ke1:Bb6,d6,f6,h6,Kb8,Kd8,Kf8",
    get_variant("english"): "W:Wa3,c3,e3,g3,Ka1,Kc1,Ke1:Bb6,d6,f6,h6,Kb8,Kd8,Kf8",
    get_variant("international"): "W:W36,37,38,39,40,K46,K47,K48:B11,12,13,14,15,K1,K2,K3",
}
# Plies without a capture or a man move (docs/RULES.md: 25 moves each in International, 20
# in Brazilian, 15 in Russian, 40 in English checkers).
LIMITS = {TURKISH: 30, ARAB: 80, MOROCCAN: 80, ITALIAN: 80, get_variant("brazilian"): 40,
          get_variant("russian"): 30, get_variant("english"): 80,
          get_variant("international"): 50}


def king_walk(g: Game, plies: int) -> None:
    """Play `plies` quiet king moves, each to the least repeated next position."""
    for _ in range(plies):
        assert g.outcome is None, g.ply
        pos = g.position
        kings = pos.kings(pos.turn)
        moves = [m for m in g.legal_moves() if kings >> m.start & 1 and not m.captured]
        assert moves
        moves.sort(key=lambda m: g.repetition_count(play_unchecked(pos, m, g.variant)))
        g.play(moves[0])
        assert g.repetition_count() < 3


@pytest.mark.parametrize("variant", list(WALLS), ids=lambda v: v.key)
def test_the_no_progress_count_draws_at_the_variant_limit(variant: Variant) -> None:
    limit = LIMITS[variant]
    assert variant.draw_law.no_progress_plies == limit
    g = game(WALLS[variant], variant)
    king_walk(g, limit - 1)
    assert g.outcome is None
    assert g.no_progress_plies == limit - 1
    king_walk(g, 1)
    assert g.ply == limit
    assert g.outcome == Outcome(Termination.MOVE_LIMIT, None)


@pytest.mark.parametrize("variant", list(WALLS), ids=lambda v: v.key)
def test_replaying_notes_the_move_limit_and_goes_on(variant: Variant) -> None:
    limit = LIMITS[variant]
    g = game(WALLS[variant], variant, enforce=False)
    king_walk(g, limit + 4)
    assert g.outcome is None
    assert g.draw_notes == [(limit, Termination.MOVE_LIMIT)]


def test_man_moves_and_captures_reset_the_count() -> None:
    g = game("W:WKb1,h3:BKa8,e6", ITALIAN)
    assert g.no_progress_plies == 0
    g.play("b1-a2")
    assert g.no_progress_plies == 1
    g.play("a8-b7")
    assert g.no_progress_plies == 2
    g.play("h3-g4")  # a man move
    assert g.no_progress_plies == 0
    g.play("b7-c8")
    g.play("a2-b3")
    assert g.no_progress_plies == 2
    g.play("e6-f5")  # a man move
    assert g.no_progress_plies == 0
    g.play("g4xe6")  # a capture (by a man)
    assert g.no_progress_plies == 0


def test_king_captures_reset_the_turkish_count() -> None:
    g = game("W:WKa1,b2:BKh8,c5", TURKISH)
    g.play("a1-a2")
    g.play("h8-h7")
    assert g.no_progress_plies == 2
    g.play("b2-b3")  # a man move
    assert g.no_progress_plies == 0
    g.play("h7-h8")
    g.play("a2-a5")
    g.play("h8-g8")
    assert g.no_progress_plies == 3
    g.play("a5xd5")  # the king takes c5: a capture resets the count
    assert g.no_progress_plies == 0


def test_replaying_notes_one_piece_each_once() -> None:
    g = game("W:Wd4:Bd5,h7", TURKISH, enforce=False)
    g.play("d4xd6")
    assert g.outcome is None
    g.play("h7-h6")
    g.play("d6-d7")
    assert g.outcome is None
    assert g.draw_notes == [(1, Termination.ONE_PIECE_EACH)]


# --- results without a move ---------------------------------------------------------------


def test_resignation_agreement_and_time_forfeit() -> None:
    g = Game(ITALIAN)
    assert g.resign(Color.WHITE) == Outcome(Termination.RESIGNATION, Color.BLACK)
    assert g.outcome == Outcome(Termination.RESIGNATION, Color.BLACK)
    with pytest.raises(GameOverError):
        g.play("22-18")
    with pytest.raises(GameOverError):
        g.agree_draw()

    g = Game(TURKISH)
    g.play("d3-d4")
    assert g.agree_draw() == Outcome(Termination.AGREEMENT, None)

    g = Game(MOROCCAN)
    assert g.forfeit_on_time(Color.BLACK) == Outcome(Termination.TIME_FORFEIT, Color.WHITE)
    with pytest.raises(GameOverError):
        g.resign(Color.WHITE)


# --- the record ---------------------------------------------------------------------------


def test_a_game_records_moves_and_positions() -> None:
    g = Game(ITALIAN)
    assert g.start == Position.start(ITALIAN) and g.ply == 0
    assert not g.moves
    played = g.play("22-18")
    assert played == Move(parse_square("d3"), (parse_square("c4"),))
    g.play(Move(parse_square("c6"), (parse_square("d5"),)))
    assert g.ply == 2
    assert g.moves == (played, Move(parse_square("c6"), (parse_square("d5"),)))
    positions = g.positions()
    assert len(positions) == 3
    assert positions[0] == g.start and positions[-1] == g.position
    assert g.position.turn is Color.WHITE


def test_an_illegal_move_object_is_refused() -> None:
    g = Game(TURKISH)
    with pytest.raises(IllegalMoveError):
        g.play(Move(parse_square("d3"), (parse_square("d5"),)))
    with pytest.raises(IllegalMoveError):
        g.play("d2-d3")
    assert g.ply == 0


def test_a_game_from_a_position_starts_its_counters_at_zero() -> None:
    start = Position.from_fen("B:WKa1,b2:BKh8,g7", TURKISH)
    g = Game(TURKISH, start)
    assert g.start == start and g.position == start
    assert g.no_progress_plies == 0
    assert g.repetition_count(start) == 1
    assert g.positions() == [start]


def test_replaying_move_texts_makes_the_game() -> None:
    # Turkish draughts (docs/RULES.md): after d3-d4 d6-d5 White must capture, taking d5 and
    # then d7 and landing on d8 as a king.
    start = Position.start(TURKISH).to_fen(TURKISH)
    g = Game.replay("turkish", start, ["d3-d4", "d6-d5", "d4xd6xd8"])
    assert g.variant is TURKISH and g.ply == 3 and g.start == Position.start(TURKISH)
    assert g.position.piece_at(parse_square("d8")) == Piece(Color.WHITE, PieceKind.KING)


def test_replaying_refuses_a_move_the_rules_forbid() -> None:
    # The capture of d5 is compulsory (docs/RULES.md): a quiet move is illegal.
    start = Position.start(TURKISH).to_fen(TURKISH)
    with pytest.raises(IllegalMoveError):
        Game.replay(TURKISH, start, ["d3-d4", "d6-d5", "a3-a4"])


def test_replaying_refuses_an_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError):
        Game.replay("chess", "W:W21:B1", [])


@pytest.mark.parametrize(
    ("key", "first"),
    [("brazilian", "c3-d4"), ("international", "32-28"), ("russian", "c3-d4"),
     ("english", "11-15")],
)
def test_replaying_takes_an_a1_dark_variants_key_in_any_case(key: str, first: str) -> None:
    # The variants of docs/RULES.md's "Family 3" by their keys, any case; English
    # checkers from its numeric FEN, Black first.
    variant = get_variant(key)
    start = Position.start(variant)
    g = Game.replay(key.upper(), start.to_fen(variant, numeric=variant.numeric_notation),
                    [first])
    assert g.variant is variant and g.ply == 1 and g.start == start
    assert g.position.turn is start.turn.opponent


def test_replaying_a_russian_capture_crowns_the_man_where_it_ends() -> None:
    # b6:f6 (by b6-d8-f6): crowned on d8, the man goes on as a king and stands on f6 a
    # king (docs/RULES.md, "Russian draughts"; the colon is read as a capture sign).
    g = Game.replay("russian", "W:Wb6,a1:Bc7,e7,h4", ["b6:f6"])
    assert g.position.piece_at(parse_square("f6")) == Piece(Color.WHITE, PieceKind.KING)
    assert g.position.to_fen(g.variant) == "B:Wa1,Kf6:Bh4"


# --- International draughts on the 10x10 board ----------------------------------------

INTERNATIONAL = get_variant("international")

#: The first game of the 2003 World Championship (WK 2003, round 1, Ndjofang - Heusdens,
#: 1/2-1/2 by agreement after 40 moves), as recorded in the PDN standard's repository
#: (wiegerw/pdn, games/succeed/wk2003.pdn), FMJD numbers.
WK2003_ROUND_1 = (
    "32-28", "17-22", "28x17", "12x21", "31-26", "7-12", "26x17", "12x21", "36-31", "19-23",
    "34-29", "23x34", "39x30", "20-24", "30x19", "14x23", "37-32", "21-27", "31x22", "18x27",
    "32x21", "16x27", "41-37", "10-14", "46-41", "11-17", "33-29", "23x34", "40x29", "6-11",
    "35-30", "14-20", "45-40", "20-24", "30x19", "13x33", "38x29", "5-10", "42-38", "10-14",
    "44-39", "8-12", "40-34", "14-19", "50-44", "2-7", "48-42", "19-23", "29x18", "12x23",
    "39-33", "7-12", "33-28", "23x32", "37x28", "9-13", "44-39", "3-9", "38-33", "9-14", "34-30",
    "17-21", "33-29", "21-26", "43-38", "1-7", "41-37", "11-17", "39-34", "7-11", "30-24",
    "11-16", "34-30", "27-31", "28-23", "16-21", "30-25", "12-18", "23x12", "17x8",
)
#: The position after move 40 as the record leaves it (eight men each; read off the
#: record, move by move).
FINAL = "W:W24,25,29,37,38,42,47,49:B4,8,13,14,15,21,26,31"


def test_a_real_international_game_replays_by_its_move_text() -> None:
    game = Game(INTERNATIONAL)
    for text in WK2003_ROUND_1:
        game.play(text)
    assert game.ply == 80 and game.outcome is None
    assert [bool(m.captured) for m in game.moves] == ["x" in t for t in WK2003_ROUND_1]
    assert game.position.to_fen(INTERNATIONAL, numeric=True) == FINAL


@pytest.mark.parametrize(
    ("fen", "move", "crowned"),
    [("W:W6:B45", "6-1", 1), ("B:W6:B45", "45-50", 50), ("W:W7,K46:B2", "7-1", 1)],
)
def test_international_men_are_crowned_on_the_tenth_and_first_ranks(
    fen: str, move: str, crowned: int
) -> None:
    game = Game(INTERNATIONAL, Position.from_fen(fen, INTERNATIONAL))
    played = game.play(move)
    mover = game.position.turn.opponent
    assert game.position.kings(mover) >> played.end & 1
    assert game.position.to_fen(INTERNATIONAL, numeric=True).count(f"K{crowned}") == 1
