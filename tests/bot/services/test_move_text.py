"""`bot.services.move_text`: reading a player's move, the refusal of text that names no
legal move, and the autocomplete's choices, on engine positions (no storage)."""

from __future__ import annotations

import pickle

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.errors import Quoted
from bot.services.move_text import (
    MAX_CHOICES,
    MOVE_PROBLEMS,
    board_texts,
    move_texts,
    parse_player_move,
    suggest_moves,
)
from bot.ui.present import param
from engine import VARIANTS, Position, get_variant, legal_moves
from engine.squares_board import parse_square_on

TURKISH = get_variant("turkish")
ITALIAN = get_variant("italian")
TWO_WAYS = Position.from_fen("W:Wd3,h1:Bc4,c6,e4,e6", ITALIAN)
"""Italian: d3 takes c4 and e4 and reaches d7 either way (d3 = 22, b5 = 13, f5 = 15,
d7 = 6 in the federation's numbers)."""


def test_a_legal_move_is_read_in_either_form() -> None:
    start = Position.start(TURKISH)
    move = parse_player_move(" a3-a4 ", start, TURKISH)
    assert move in legal_moves(start, TURKISH)
    assert move_texts(move, start, TURKISH) == ("a3-a4", "a3-a4")
    assert parse_player_move("22x13x6", TWO_WAYS, ITALIAN) == parse_player_move(
        "d3xb5xd7", TWO_WAYS, ITALIAN)


@pytest.mark.parametrize("text", ["a3-a7", "z9-z8", "hello", "a6-a5"])
def test_text_that_names_no_legal_move_is_refused_with_its_reason(text: str) -> None:
    with pytest.raises(PlayerError) as refused:
        parse_player_move(text, Position.start(TURKISH), TURKISH)
    assert refused.value.key in {*MOVE_PROBLEMS.values(), Msg.MOVE_NOT_LEGAL}
    assert refused.value.params["text"] == Quoted(text)
    again = pickle.loads(pickle.dumps(refused.value))  # as from a worker process
    assert again.key is refused.value.key and again.params == refused.value.params


def test_numbers_in_another_variant_name_it_as_a_sentence_does() -> None:
    # The variant stands after a preposition: its in-sentence form, "nella dama turca",
    # "aux dames turques" (docs/LANGUAGES.md, "Variant names").
    with pytest.raises(PlayerError) as refused:
        parse_player_move("22-18", Position.start(TURKISH), TURKISH)
    assert refused.value.key is Msg.MOVE_NUMBERS_NOT_USED
    variant = refused.value.params["variant_in_sentence"]
    assert param(variant, "it") == "dama turca" and param(variant, "fr") == "dames turques"


@pytest.mark.parametrize(
    ("key", "text", "reason", "limits"),
    [
        ("international", "k1-j2", Msg.MOVE_NOT_A_SQUARE, {"last_square": "j10"}),
        ("international", "51-46", Msg.MOVE_NUMBER_OFF_BOARD, {"last_number": 50}),
        ("english", "33-29", Msg.MOVE_NUMBER_OFF_BOARD, {"last_number": 32}),
        ("russian", "i1-h2", Msg.MOVE_NOT_A_SQUARE, {"last_square": "h8"}),
        ("italian", "33-29", Msg.MOVE_NUMBER_OFF_BOARD, {"last_number": 32}),
    ],
)
def test_a_square_off_the_board_is_refused_with_the_variants_own_limits(
    key: str, text: str, reason: Msg, limits: dict[str, object]
) -> None:
    variant = get_variant(key)
    with pytest.raises(PlayerError) as refused:
        parse_player_move(text, Position.start(variant), variant)
    assert refused.value.key is reason
    for name, value in limits.items():
        assert refused.value.params[name] == value


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_the_examples_a_refusal_gives_are_moves_the_variants_board_can_have(key: str) -> None:
    variant = get_variant(key)
    start = Position.start(variant)
    examples = board_texts(variant)
    move = parse_player_move(str(examples["example_move"]), start, variant)
    assert parse_player_move(str(examples["example_letters"]), start, variant) == move
    assert parse_player_move(str(examples["example_numbers"]), start, variant) == move
    # The capture example jumps from the move's start over the square the move goes to.
    letters = str(examples["example_letters"]).split("-")
    origin, over = (parse_square_on(name, variant.board_size) for name in letters)
    capture = str(examples["example_capture"])
    assert "x" in capture and capture.split("x")[0] == str(examples["example_move"]).split("-")[0]
    landing = 2 * over - origin
    assert variant.is_playable(landing) and variant.is_playable(over)


@pytest.mark.parametrize(
    ("key", "numbers", "letters"),
    [
        # FMJD rules, article 2.6: square 33 is f4 and 28 is e5 on the 10x10 board.
        ("international", "33-28", "f4-e5"),
        # English checkers numbers 1..32 from Black's side: 10 is d6, 15 is e5.
        ("english", "10-15", "d6-e5"),
        ("russian", "e3-d4", "e3-d4"),
        ("turkish", "d3-d4", "d3-d4"),
    ],
)
def test_the_example_move_is_written_as_the_variants_players_write_it(
    key: str, numbers: str, letters: str
) -> None:
    examples = board_texts(get_variant(key))
    assert (examples["example_move"], examples["example_letters"]) == (numbers, letters)


def test_a_refusal_in_russian_draughts_gives_a_diagonal_example() -> None:
    russian = get_variant("russian")
    with pytest.raises(PlayerError) as refused:
        parse_player_move("e3", Position.start(russian), russian)
    assert refused.value.params["example_move"] == "e3-d4"
    assert refused.value.params["example_capture"] == "e3xc5"


def test_an_ambiguous_capture_names_every_candidate_numbers_first() -> None:
    with pytest.raises(PlayerError) as refused:
        parse_player_move("d3xd7", TWO_WAYS, ITALIAN)
    assert refused.value.key is Msg.MOVE_AMBIGUOUS
    assert refused.value.params["candidates"] == "22x13x6 (d3xb5xd7), 22x15x6 (d3xf5xd7)"


def test_choices_put_captures_first_and_match_the_typed_prefix() -> None:
    start = Position.start(TURKISH)
    moves = tuple(legal_moves(start, TURKISH))
    every = suggest_moves(start, TURKISH, moves, "")
    assert len(every) == min(MAX_CHOICES, len(moves))
    assert [c.value for c in suggest_moves(start, TURKISH, moves, "A3")] == ["a3-a4"]
    assert [c.value for c in suggest_moves(start, TURKISH, moves, "b3-")] == ["b3-b4"]
    italian = tuple(legal_moves(TWO_WAYS, ITALIAN))
    numbers_first = suggest_moves(TWO_WAYS, ITALIAN, italian, "22x")
    assert [c.name for c in numbers_first] == ["22x13x6 (d3xb5xd7)", "22x15x6 (d3xf5xd7)"]
    letters_first = suggest_moves(TWO_WAYS, ITALIAN, italian, "d3", numeric=False)
    assert [c.name for c in letters_first] == ["d3xb5xd7 (22x13x6)", "d3xf5xd7 (22x15x6)"]
    assert [c.value for c in letters_first] == ["d3xb5xd7", "d3xf5xd7"]
