"""Tournament points (tournaments/scores.py): win 2, draw 1, loss 0, as FMJD and the FFJD
count them (docs/RULES.md, "Tournaments", "Scores")."""

from __future__ import annotations

import pytest

from tournaments.model import Bye, ByeKind, Colour, Format, Game, Outcome, Round
from tournaments.scores import ROUND_ROBIN, SWISS, score_system, total_scores


def test_a_win_is_two_a_draw_one_a_loss_nothing() -> None:
    assert SWISS.game_points(Outcome.WHITE_WINS, Colour.WHITE) == 2
    assert SWISS.game_points(Outcome.WHITE_WINS, Colour.BLACK) == 0
    assert SWISS.game_points(Outcome.DRAW, Colour.BLACK) == 1
    assert SWISS.game_points(Outcome.BLACK_WINS, Colour.BLACK) == 2


def test_a_forfeit_scores_as_the_win_or_loss_it_gives_and_a_double_forfeit_nothing() -> None:
    assert SWISS.game_points(Outcome.BLACK_WINS_BY_FORFEIT, Colour.BLACK) == 2
    assert SWISS.game_points(Outcome.BLACK_WINS_BY_FORFEIT, Colour.WHITE) == 0
    assert SWISS.game_points(Outcome.WHITE_WINS_BY_FORFEIT, Colour.WHITE) == 2
    assert SWISS.game_points(Outcome.DOUBLE_FORFEIT, Colour.WHITE) == 0
    assert SWISS.game_points(Outcome.DOUBLE_FORFEIT, Colour.BLACK) == 0


def test_a_swiss_bye_is_worth_a_win_and_a_round_robin_rest_round_nothing() -> None:
    assert SWISS.bye_points(ByeKind.PAIRING_ALLOCATED) == 2
    assert SWISS.bye_points(ByeKind.NOT_PAIRED) == 0
    assert ROUND_ROBIN.bye_points(ByeKind.PAIRING_ALLOCATED) == 0
    assert ROUND_ROBIN.round_robin and not SWISS.round_robin


def test_each_format_has_its_points_and_an_arena_has_none_here() -> None:
    assert score_system(Format.SWISS) is SWISS
    assert score_system(Format.ROUND_ROBIN) is ROUND_ROBIN
    with pytest.raises(ValueError, match="arena"):
        score_system(Format.ARENA)


def test_a_total_counts_finished_games_and_byes_only() -> None:
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),
        Round(
            2, (Game(2, 1, 3, 1, Outcome.DRAW), Game(2, 2, 2, 4)), (Bye(2, 5, ByeKind.NOT_PAIRED),)
        ),
    ]
    assert total_scores([1, 2, 3, 4, 5], rounds, SWISS) == {1: 3, 2: 0, 3: 3, 4: 0, 5: 0}
    with pytest.raises(ValueError, match="player 5 is not an entrant"):
        total_scores([1, 2, 3, 4], rounds, SWISS)


def test_a_game_or_bye_filed_under_another_round_is_refused() -> None:
    misfiled = [Round(1, (Game(2, 1, 1, 2, Outcome.DRAW),))]
    with pytest.raises(ValueError, match="round 2 is filed under round 1"):
        total_scores([1, 2], misfiled, SWISS)
    misfiled_bye = [Round(1, (), (Bye(3, 1, ByeKind.PAIRING_ALLOCATED),))]
    with pytest.raises(ValueError, match="round 3 is filed under round 1"):
        total_scores([1], misfiled_bye, SWISS)
