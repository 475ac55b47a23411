"""The strength benchmark's independent opponent (benchmarks/pydraughts_minimax.py): its
square numbers, and that it plays legal, material-minded moves through pydraughts."""

from __future__ import annotations

import pytest

from benchmarks.pydraughts_minimax import (
    PYDRAUGHTS_NAMES,
    choose_move,
    pydraughts_number,
    pydraughts_square,
)
from engine import Game, Position, get_variant, legal_moves, parse_move
from engine.squares_board import number_of

NEW_VARIANTS = tuple(PYDRAUGHTS_NAMES)


def _dark_squares(size: int) -> list[tuple[int, int]]:
    return [(f, r) for r in range(size) for f in range(size) if (f + r) % 2 == 0]


@pytest.mark.parametrize("key", ["english", "international"])
def test_numbers_are_the_engines_numeric_squares_where_the_game_writes_numbers(key: str) -> None:
    variant = get_variant(key)
    size = variant.board_size
    for f, r in _dark_squares(size):
        assert pydraughts_number(f, r, PYDRAUGHTS_NAMES[key]) == number_of(r * size + f, variant)


@pytest.mark.parametrize("pd_name", ["russian", "brazilian"])
def test_russian_and_brazilian_numbers_run_from_whites_side_left_to_right(pd_name: str) -> None:
    # a1 = 1, g1 = 4, b2 = 5, h8 = 32 (draughts/convert.py; the differential's adapter).
    assert [pydraughts_number(f, r, pd_name) for f, r in ((0, 0), (6, 0), (1, 1), (7, 7))] == [
        1, 4, 5, 32,
    ]


@pytest.mark.parametrize("key", NEW_VARIANTS)
def test_numbers_and_squares_are_inverse_on_every_dark_square(key: str) -> None:
    pd_name = PYDRAUGHTS_NAMES[key]
    size = get_variant(key).board_size
    numbers = [pydraughts_number(f, r, pd_name) for f, r in _dark_squares(size)]
    assert sorted(numbers) == list(range(1, size * size // 2 + 1))
    for f, r in _dark_squares(size):
        assert pydraughts_square(pydraughts_number(f, r, pd_name), pd_name) == (f, r)
    with pytest.raises(ValueError):
        pydraughts_number(1, 0, pd_name)  # b1: light on an a1-dark board


@pytest.mark.parametrize("key", NEW_VARIANTS)
def test_it_answers_with_an_engine_legal_move_a_few_plies_into_each_game(key: str) -> None:
    variant = get_variant(key)
    game = Game(variant)
    for _ in range(4):
        choice = choose_move(game.position, variant, game.legal_moves(), budget=0.05)
        assert choice.move in game.legal_moves()
        game.play(choice.move)


def test_it_prefers_the_capture_that_wins_more_material_under_free_choice() -> None:
    # Russian: a3xc5 takes one man (and loses g3 to f4xh2); g3xe5xg7 takes two.
    variant = get_variant("russian")
    position = Position.from_fen("W:Wa3,g3:Bb4,f4,f6,h8", variant)
    legal = legal_moves(position, variant)
    single = parse_move("a3xc5", position, variant)
    double = parse_move("g3xe5xg7", position, variant)
    assert {single, double} <= set(legal)
    choice = choose_move(position, variant, legal, budget=0.2)
    assert choice.move == double
    assert choice.depth >= 1
