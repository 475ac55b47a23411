"""An arena's scores and standings (tournaments/arena_scores.py), against lichess's
published rule text, worked out by hand (docs/RULES.md, "Arena")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.arena_scores import (
    ArenaGame,
    ArenaRules,
    sheets,
    standings,
)
from tournaments.model import Entrant, Game, Outcome

START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
END = START + timedelta(hours=1)
RULES = ArenaRules()
HERO = 1
ENTRANTS = (Entrant(HERO, 1500, 1), Entrant(2, 1400, 2), Entrant(3, 1300, 3))


def played(results: str, moves: Sequence[int | None] | None = None) -> list[ArenaGame]:
    """HERO's games against player 2, one a minute, from a string of W, D, L, F (a win
    by forfeit), and X (a loss by forfeit)."""
    outcomes = {
        "W": Outcome.WHITE_WINS,
        "D": Outcome.DRAW,
        "L": Outcome.BLACK_WINS,
        "F": Outcome.WHITE_WINS_BY_FORFEIT,
        "X": Outcome.BLACK_WINS_BY_FORFEIT,
    }
    lengths = moves if moves is not None else [40] * len(results)
    return [
        ArenaGame(
            Game(round=index, board=1, white=HERO, black=2, outcome=outcomes[code]),
            ended_at=START + timedelta(minutes=index),
            moves=length,
        )
        for index, (code, length) in enumerate(zip(results, lengths, strict=True), start=1)
    ]


def points(
    results: str, moves: Sequence[int | None] | None = None, *, streaks: bool = True
) -> tuple[int, ...]:
    rules = ArenaRules(streaks=streaks)
    return sheets(ENTRANTS, played(results, moves), rules, END)[HERO].points


def test_a_win_scores_2_a_draw_1_a_loss_0() -> None:
    # "A win has a base score of 2 points, a draw 1 point, and a loss is worth no points."
    assert points("W") == (2,)
    assert points("D") == (1,)
    assert points("L") == (0,)


def test_two_wins_then_a_draw_score_6_as_lichess_s_example() -> None:
    # "For example, two wins followed by a draw will be worth 6 points: 2 + 2 + (2 x 1)"
    assert sum(points("WWD")) == 6


def test_a_streak_doubles_wins_and_draws_until_a_game_is_not_won() -> None:
    # W 2; W 2 (now on fire); W 4; D 2 (doubled, ends the streak); W 2 (last two W, D:
    # not on fire); L 0; W 2.
    assert points("WWWDWLW") == (2, 2, 4, 2, 2, 0, 2)
    assert sum(points("WWWDWLW")) == 14


def test_a_loss_breaks_the_streak() -> None:
    assert points("WWWLWW") == (2, 2, 4, 0, 2, 2)


def test_without_streaks_every_win_scores_2() -> None:
    assert points("WWWW", streaks=False) == (2, 2, 2, 2)


def test_a_draw_after_a_draw_scores_nothing_unless_it_was_long() -> None:
    # "only the first draw will result in a point or draws lasting more than N moves";
    # "The draw streak can only be broken by a win, not a loss or a draw."
    assert points("DD", [40, 20]) == (1, 0)
    assert points("DLD", [40, 20, 20]) == (1, 0, 0)
    assert points("DD", [20, 30]) == (1, 1)
    assert points("DWD", [20, 20, 20]) == (1, 2, 1)


def test_a_draw_within_the_first_10_moves_scores_nothing_and_breaks_a_streak() -> None:
    # "Drawing the game within the first 10 moves will earn neither player any points."
    assert points("WWDW", [40, 40, 9, 40]) == (2, 2, 0, 2)
    assert points("D", [10]) == (1,)


def test_a_forfeit_scores_as_a_win_and_a_loss() -> None:
    # "Failing to make a move within this time will forfeit the game to your opponent."
    assert points("FFF") == (2, 2, 4)
    assert sheets(ENTRANTS, played("X"), RULES, END)[HERO].points == (0,)
    assert sheets(ENTRANTS, played("X"), RULES, END)[2].points == (2,)


def test_games_ending_after_the_end_do_not_count() -> None:
    # "Games in progress must be finished, however, they don't count for the tournament."
    games = played("WW")
    late = ArenaGame(games[1].game, ended_at=END + timedelta(seconds=1), moves=40)
    assert sheets(ENTRANTS, [games[0], late], RULES, END)[HERO].points == (2,)


def test_the_streak_state_is_in_the_standings() -> None:
    rows = standings(ENTRANTS, played("WW"), RULES, END)
    assert [(row.player, row.score, row.on_fire) for row in rows] == [
        (HERO, 4, True),
        (3, 0, False),  # no game: rated 1300, above 2's performance 1000
        (2, 0, False),
    ]


def test_equal_scores_are_ranked_by_performance_or_the_rating_before_any_game() -> None:
    # 2 beats 1 (1500): performance 1500 + 500 = 2000; 3 beats 4 (1000): 1500; 1 and 4
    # perform 900 and 800; 5 (rated 2000) has no game yet: ranked by rating among 0s.
    entrants = (*ENTRANTS, Entrant(4, 1000, 4), Entrant(5, 2000, 5))
    games = [
        ArenaGame(Game(1, 1, 3, 4, Outcome.WHITE_WINS), START + timedelta(minutes=1), 40),
        ArenaGame(Game(1, 2, 2, 1, Outcome.WHITE_WINS), START + timedelta(minutes=2), 40),
    ]
    rows = standings(entrants, games, RULES, END)
    assert [(row.rank, row.player, row.performance) for row in rows] == [
        (1, 2, 2000),
        (2, 3, 1500),
        (3, 5, None),
        (4, 1, 900),
        (5, 4, 800),
    ]


def test_a_player_who_is_not_an_entrant_is_refused() -> None:
    game = ArenaGame(Game(1, 1, HERO, 99, Outcome.DRAW), START, 40)
    with pytest.raises(ValueError, match="not an entrant"):
        sheets(ENTRANTS, [game], RULES, END)


def test_an_unfinished_game_is_refused() -> None:
    with pytest.raises(ValueError, match="outcome"):
        ArenaGame(Game(1, 1, HERO, 2), START, 40)


@given(st.text(alphabet="WDLFX", max_size=30), st.lists(st.integers(0, 80), min_size=30))
def test_a_score_never_decreases(results: str, lengths: list[int]) -> None:
    games = played(results, lengths[: len(results)])
    totals = [
        sheets(ENTRANTS, games[:count], RULES, END)[HERO].score for count in range(len(games) + 1)
    ]
    assert totals == sorted(totals)
    assert all(value in (0, 1, 2, 4) for value in points(results, lengths[: len(results)]))


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        standings((*ENTRANTS, Entrant(HERO, 1500, 4)), [], RULES, END)


def test_no_one_is_on_fire_in_an_arena_without_streaks() -> None:
    rows = standings(ENTRANTS, played("WW"), ArenaRules(streaks=False), END)
    assert (rows[0].player, rows[0].score, rows[0].on_fire) == (HERO, 4, False)
