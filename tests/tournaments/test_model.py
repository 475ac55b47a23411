"""The shared values of tournaments (tournaments/model.py)."""

from __future__ import annotations

import pytest

from tournaments.model import Colour, Game, Outcome, Round


def test_a_forfeit_scores_a_win_but_is_not_a_game_played() -> None:
    assert Outcome.WHITE_WINS_BY_FORFEIT.winner() is Colour.WHITE
    assert not Outcome.WHITE_WINS_BY_FORFEIT.played
    assert Outcome.BLACK_WINS.played and Outcome.BLACK_WINS.winner() is Colour.BLACK
    assert Outcome.DRAW.winner() is None and Outcome.DOUBLE_FORFEIT.winner() is None


def test_a_game_knows_each_player_s_side_and_opponent() -> None:
    game = Game(round=1, board=1, white=10, black=20)
    assert game.colour_of(20) is Colour.BLACK and game.opponent_of(20) == 10
    assert Colour.BLACK.other is Colour.WHITE
    with pytest.raises(ValueError, match="not in this game"):
        game.colour_of(30)


def test_a_round_is_finished_when_every_game_has_its_outcome() -> None:
    games = (Game(1, 1, 1, 2, Outcome.DRAW), Game(1, 2, 3, 4))
    assert not Round(1, games).finished
    assert Round(1, (games[0],)).finished


def test_a_player_cannot_play_themselves() -> None:
    with pytest.raises(ValueError, match="cannot play themselves"):
        Game(round=1, board=1, white=7, black=7)
