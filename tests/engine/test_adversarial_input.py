"""Adversarial input: what a player typing in a chat, a PDN file or a script can send.

Each test pins a defect found by probing the engine. Expected moves come from docs/RULES.md
("Coordinates and notation": input is forgiving; Italian numeric squares 1 = a8 ...
32 = h1, so row by row 17..20 = a4, c4, e4, g4 and 21..24 = b3, d3, f3, h3) and the
errors' contract (every error a player can cause is a DamaError whose message is safe to
show, and says what to do).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.notation
from engine import (
    Color,
    DamaError,
    Game,
    GameOverError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Termination,
    format_move,
    get_variant,
    legal_moves,
    parse_move,
    parse_square,
)
from engine.capture_graph import CaptureGraph, MoveKey
from engine.cli import main
from engine.pdn import PdnMoveError, export_pdn, read_pdn
from tests.engine.oracles import reference
from tests.engine.oracles.board import parse_fen
from tests.engine.oracles.bridge import sq_index

TURKISH = get_variant("turkish")
ARAB = get_variant("arab")
ITALIAN = get_variant("italian")

D3 = parse_square("d3")
C4 = parse_square("c4")
D4 = parse_square("d4")

#: Longest message a chat client is sure to show whole; an error echoing input stays short.
SHORT = 300


# --- move text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "\u00b2\u00b2-\u00b9\u2078",  # superscript digits: str.isdigit() but int() refuses
        "\u0662\u0662-\u0661\u0668",  # Arabic-Indic digits
        "\uff12\uff12-\uff11\uff18",  # full-width digits
        "22\u221218",  # minus sign
        "22\u201018",  # hyphen
        "22\u00a018",  # no-break space
        "\uff44\uff13-\uff43\uff14",  # full-width d3-c4
        "d3\nc4",
    ],
)
def test_italian_move_in_unusual_characters_reads_as_22_18(text: str) -> None:
    # 22 = d3 and 18 = c4 (docs/RULES.md numbering); 22-18 is one of White's first moves.
    move = parse_move(text, Position.start(ITALIAN), ITALIAN)
    assert move == Move(D3, (C4,))


@pytest.mark.parametrize("text", ["d3\u2010d4", "d3\u2212d4", "d3\u00a0d4", "d3\td4", "d3\r\nd4"])
def test_turkish_move_with_unicode_separators(text: str) -> None:
    assert parse_move(text, Position.start(TURKISH), TURKISH) == Move(D3, (D4,))


def test_superscript_digits_in_turkish_are_a_notation_error() -> None:
    # Was a bare ValueError from int('²²'), which the bot does not treat as a player error.
    with pytest.raises(MalformedMoveError, match="numeric squares are not used in Turkish"):
        parse_move("\u00b2\u00b2-\u00b9\u2078", Position.start(TURKISH), TURKISH)


@pytest.mark.parametrize("key", ["turkish", "italian"])
@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=st.text(max_size=30))
def test_any_text_gives_a_move_or_a_notation_error(key: str, text: str) -> None:
    variant = get_variant(key)
    try:
        move = parse_move(text, Position.start(variant), variant)
    except NotationError as error:
        assert len(str(error)) < SHORT
    else:
        assert isinstance(move, Move)


@pytest.mark.parametrize("text", ["x" * 100_000, "d3" * 50_000, "z" * 10_000 + "d3-d4"])
def test_long_move_text_gives_a_short_message(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text, Position.start(TURKISH), TURKISH)
    assert len(str(info.value)) < SHORT


def test_long_fen_and_variant_name_give_short_messages() -> None:
    with pytest.raises(PositionError) as info:
        Position.from_fen("W:W" + "q" * 100_000, TURKISH)
    assert len(str(info.value)) < 2 * SHORT
    with pytest.raises(DamaError) as named:
        get_variant("chess" * 10_000)
    assert len(str(named.value)) < SHORT



@pytest.mark.parametrize("text", ["d3xf5", "22x15", "d3-f5"])
def test_italian_man_jumping_a_king_is_told_why(text: str) -> None:
    # docs/RULES.md, Italian: "A man may never capture a king." The only move is d3-c4 (22-18).
    position = Position.from_fen("W:Wd3:BKe4,a8", ITALIAN)
    with pytest.raises(IllegalMoveError, match="a man may not capture a king") as info:
        parse_move(text, position, ITALIAN)
    assert "e4" in str(info.value) or "19" in str(info.value)
    assert [str(m) for m in legal_moves(position, ITALIAN)] == ["d3-c4"]


@pytest.mark.parametrize("text", ["c3-d4", "d3-d4", "a1-b2"])
def test_italian_light_square_is_named(text: str) -> None:
    # docs/RULES.md: the diagonal board is mirrored, a1 light; c3, d4, a1 and b2 are light.
    with pytest.raises(IllegalMoveError, match="is a light square"):
        parse_move(text, Position.start(ITALIAN), ITALIAN)

# --- PDN -------------------------------------------------------------------------------


def test_pdn_glued_move_numbers_do_not_recurse() -> None:
    # `1.1.1.` ... was read by one recursive call per number: RecursionError.
    (game,) = read_pdn("1." * 10_000 + "d3-d4 *", variant="turkish")
    assert [str(m) for m in game.game.moves] == ["d3-d4"]


def test_pdn_huge_move_number_is_a_pdn_error() -> None:
    # Was a bare ValueError: int() refuses strings of more than 4300 digits.
    with pytest.raises(PdnMoveError):
        read_pdn('[GameType "30"]\n' + "9" * 5000 + ". d3-d4 *")


def _repetition_game() -> Game:
    # Italian short kings shuffle; the start position comes back after plies 4 and 8, the
    # third time: a draw by threefold repetition (docs/RULES.md, project-wide rules).
    game = Game(ITALIAN, Position.from_fen("W:WKa2:BKh7", ITALIAN))
    for text in ["a2-b3", "h7-g8", "b3-a2", "g8-h7"] * 2:
        game.play(text)
    return game


def _one_piece_each_game() -> Game:
    # Arab Dama: the white man takes d5 (landing d6); each side then has one piece, a draw
    # at once (docs/RULES.md, "Draw, Arab Dama").
    game = Game(ARAB, Position.from_fen("W:Wd4:Bd5,h7", ARAB))
    game.play("d4xd6")
    return game


@pytest.mark.parametrize("make", [_repetition_game, _one_piece_each_game])
def test_game_ended_by_a_draw_rule_round_trips_without_warnings(
    make: Callable[[], Game],
) -> None:
    game = make()
    assert game.outcome is not None and game.outcome.winner is None
    (read,) = read_pdn(export_pdn(game))
    assert read.game.moves == game.moves
    assert read.result.token == "1/2-1/2"
    # The record stops where the rule draws it: it did not "play on" past a draw rule.
    assert read.warnings == ()


def test_record_claiming_a_win_where_a_draw_rule_ends_it_is_reported() -> None:
    text = export_pdn(_one_piece_each_game()).replace("1/2-1/2", "1-0")
    (read,) = read_pdn(text)
    (warning,) = read.warnings
    assert "one piece each" in warning and "1-0" in warning and "plays on" not in warning


# --- Game ------------------------------------------------------------------------------


@pytest.mark.parametrize("fen", ["W:Wa2:B", "B:W:Bh7"])
def test_start_position_without_opponent_pieces_is_won(fen: str) -> None:
    # docs/RULES.md: "Win: the opponent has no pieces" - true before any move is played.
    start = Position.from_fen(fen, TURKISH)
    game = Game(TURKISH, start)
    assert game.outcome is not None
    assert game.outcome.termination is Termination.NO_PIECES
    assert game.outcome.winner is start.turn
    assert game.legal_moves() == []
    move = "a2-a3" if start.turn is Color.WHITE else "h7-h6"
    with pytest.raises(GameOverError):
        game.play(move)
    with pytest.raises(PdnMoveError, match="over"):
        read_pdn(f'[GameType "30"]\n[FEN "{fen}"]\n1. {move} *')


# --- command line ----------------------------------------------------------------------


def test_cli_perft_with_an_absurd_depth_is_a_usage_error() -> None:
    # Was a RecursionError traceback.
    err = io.StringIO()
    with pytest.raises(SystemExit) as info, contextlib.redirect_stderr(err):
        main(["perft", "turkish", "start", "100000"], stdout=io.StringIO(), stderr=err)
    assert info.value.code == 2
    assert "too deep" in err.getvalue()



# --- a position with thousands of capture routes -----------------------------------------

#: Two flying kings and sixteen men (found by a hill-climbing search for many routes):
#: 116 legal moves, every one taking all sixteen men, reached by about 25,000 routes.
MANY_ROUTES = "W:WKe1,Ka2:Bd3,e5,e2,f7,h6,b4,f3,b3,g4,c8,g8,h3,a5,d6,g2,c2"


def test_every_move_of_a_many_route_position_formats_and_parses_back() -> None:
    # Formatting all its moves took three minutes (the move table rebuilt per move, and
    # every subset of landing squares compared with every route); now seconds.
    position = Position.from_fen(MANY_ROUTES, TURKISH)
    moves = legal_moves(position, TURKISH)
    assert all(len(m.captured) == 16 for m in moves)
    for move in moves:
        assert parse_move(format_move(move, position, TURKISH), position, TURKISH) == move


def test_short_form_search_gives_up_on_the_full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no budget, a capture whose start and end other moves share is written in full.
    monkeypatch.setattr(engine.notation, "SHORT_FORM_BUDGET", 0)
    position = Position.from_fen(MANY_ROUTES, TURKISH)
    for move in legal_moves(position, TURKISH):
        text = format_move(move, position, TURKISH)
        assert text.count("x") in (1, len(move.captured))
        assert parse_move(text, position, TURKISH) == move


@pytest.mark.slow
def test_many_route_position_against_the_reference() -> None:
    board, side = parse_fen(MANY_ROUTES)
    expected = {(sq_index(i[0]), sq_index(i[1]), frozenset(sq_index(c) for c in i[2]))
                for i in reference.legal_moves(board, side, "turkish")}
    position = Position.from_fen(MANY_ROUTES, TURKISH)
    assert {m.identity for m in legal_moves(position, TURKISH)} == expected


#: A Turkish position whose one capturing king has 273 capture states and 148 legal moves,
#: most sharing their start and end square: found by benchmarks/movegen.py's hill climber
#: (docs/BENCHMARKS.md), where writing every move took seconds.
MANY_STATES = "W:WKb3:Bg4,h4,f6,g6,d7,d8,Ke1,Ka3,Kb4,Kc4,Kd4,Ke4,Kf5"


def test_the_short_form_search_walks_fewer_sets_for_a_piece_with_many_states(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each set of landing squares tried is one walk over the piece's states: the tries for
    # one move are bounded by SHORT_FORM_WORK states in all, and every text still names
    # its move (a short form, or the full path when the search gives up).
    position = Position.from_fen(MANY_STATES, TURKISH)
    moves = legal_moves(position, TURKISH)
    walks: list[int] = []
    real = CaptureGraph.matching

    def counted(self: CaptureGraph, *args: Any, **kwargs: Any) -> list[MoveKey]:
        walks.append(self.states_from(args[0]))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(CaptureGraph, "matching", counted)
    texts = []
    for move in moves:
        walks.clear()
        texts.append(format_move(move, position, TURKISH))
        assert sum(walks) <= engine.notation.SHORT_FORM_WORK
    monkeypatch.setattr(CaptureGraph, "matching", real)
    assert [parse_move(text, position, TURKISH) for text in texts] == moves
