"""The material-only search (`puzzles.material`): kings at the variant's value, a side
without a move has lost, one piece each is a draw where the rules say so, and the cheap
questions (`top_two`, `best_move`) answer as scoring every move exactly does."""

from __future__ import annotations

import pytest

from engine import VARIANTS, Color, Position, get_variant, legal_moves, parse_move
from puzzles.cli import FIRST_SEED, self_play_positions
from puzzles.material import WON, MaterialSearch, captured_value, crowns, material
from tests.puzzles.oracle import KING

ITALIAN = get_variant("italian")
TURKISH = get_variant("turkish")


def test_kings_count_at_the_variants_value() -> None:
    # engine/evaluation.py: an Italian king is worth 165, an orthogonal one 330.
    italian = Position.from_fen("W:WKa2,c2:Bg8", ITALIAN)  # a king and a man against a man
    assert material(italian, ITALIAN, Color.WHITE) == 165 + 100 - 100
    turkish = Position.from_fen("W:WKa2:Bg7,h7", TURKISH)
    assert material(turkish, TURKISH, Color.BLACK) == 200 - 330


@pytest.mark.parametrize("key", list(VARIANTS))
def test_a_king_is_worth_what_the_independent_judge_counts_in_every_variant(key: str) -> None:
    # The slow suite's judge (tests/puzzles/oracle.py) values kings on its own table.
    variant = get_variant(key)
    lone_king = Position(0, 1, 0, 0, Color.WHITE, variant.board_size)
    assert material(lone_king, variant, Color.WHITE) == KING[key]


def test_a_capture_is_worth_what_it_takes_and_a_crowning_is_seen() -> None:
    quiet = Position.from_fen("W:Wc6:Be6", ITALIAN)
    step = parse_move("c6-d7", quiet, ITALIAN)
    assert captured_value(quiet, ITALIAN, step) == 0 and not crowns(quiet, step, ITALIAN)
    kings = Position.from_fen("W:WKd3:BKe4,a8", ITALIAN)
    assert captured_value(kings, ITALIAN, parse_move("d3xf5", kings, ITALIAN)) == 165
    near = Position.from_fen("W:Wb7:Be6", ITALIAN)
    assert crowns(near, parse_move("b7-a8", near, ITALIAN), ITALIAN)


def test_a_russian_man_crowned_mid_capture_is_seen_crowned() -> None:
    # b6xd8xf6: crowned on d8, the man ends the capture a king on f6 (docs/RULES.md,
    # "Russian draughts"); the same capture in Brazilian leaves a man (it is not crowned
    # in passing: the Brazilian board with the same pieces).
    russian, brazilian = get_variant("russian"), get_variant("brazilian")
    position = Position.from_fen("W:Wb6,a1:Bc7,e7,h4", russian)
    assert crowns(position, parse_move("b6xd8xf6", position, russian), russian)
    assert not any(crowns(position, m, brazilian) for m in legal_moves(position, brazilian))


def test_a_side_without_a_move_has_lost_and_one_piece_each_is_a_turkish_draw() -> None:
    blocked = Position.from_fen("B:Wb7,c6:Ba8", ITALIAN)
    assert MaterialSearch(ITALIAN).value(blocked, 3) == -WON
    lone = Position.from_fen("W:WKa1:Bh8", TURKISH)
    assert MaterialSearch(TURKISH).value(lone, 3) == 0


def test_the_cheap_questions_answer_as_exact_scores_do() -> None:
    compared = 0
    for pos in self_play_positions(ITALIAN, 2, FIRST_SEED["italian"] + 100)[::4]:
        if len(MaterialSearch(ITALIAN).moves(pos)) < 2:
            continue
        exact = MaterialSearch(ITALIAN).scores(pos, 4)
        (best, _), second = MaterialSearch(ITALIAN).top_two(pos, 4)
        assert (best, second) == (exact[0][0], exact[1][0]), pos
        chosen = MaterialSearch(ITALIAN).best_move(pos, 4)
        assert dict((m, v) for v, m in exact)[chosen] == exact[0][0], pos
        compared += 1
    assert compared >= 10
