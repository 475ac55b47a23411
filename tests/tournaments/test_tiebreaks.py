"""Tie-breaks (tournaments/tiebreaks.py) after the FIDE Tie-Break Regulations (Handbook
C.07, 2023; docs/RULES.md, "Tie-breaks and standings").

The Sonneborn-Berger values are a published crosstable's: ChessKid, "What is a tie-break?"
(support.chesskid.com/en/articles/8863009), a double round robin of three players scored
1, 1/2, 0: Bob 3 points, SB 4.5; Mary 1.5, SB 3.75; John 1.5, SB 2.25. In this project's
points (win 2, draw 1) every score and Sonneborn-Berger doubles. The Buchholz values are
worked by hand in each test from the regulations' definitions, not from the code."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.support.tournaments import BOB, JOHN, MARY, chesskid_crosstable
from tournaments.model import Bye, ByeKind, Game, Outcome, Round
from tournaments.scores import ROUND_ROBIN, SWISS
from tournaments.tiebreaks import buchholz_cut_1, direct_encounter, sonneborn_berger


def test_sonneborn_berger_matches_the_published_crosstable() -> None:
    values = sonneborn_berger([BOB, MARY, JOHN], chesskid_crosstable(), ROUND_ROBIN)
    assert values == {BOB: Fraction(9), MARY: Fraction(15, 2), JOHN: Fraction(9, 2)}


def test_buchholz_cut_1_drops_the_lowest_opponent_score() -> None:
    # Scores (win 2): Bob 6, Mary 3, John 3. Mary met Bob twice and John twice:
    # 6 + 6 + 3 + 3, less 3 = 15. Bob: 3 + 3 + 3 + 3, less 3 = 9.
    values = buchholz_cut_1([BOB, MARY, JOHN], chesskid_crosstable(), ROUND_ROBIN)
    assert values == {BOB: 9, MARY: 15, JOHN: 15}


def test_direct_encounter_among_all_the_tied_players() -> None:
    rounds = chesskid_crosstable()
    assert direct_encounter([MARY, JOHN], rounds, ROUND_ROBIN) == {MARY: 1, JOHN: 3}
    assert direct_encounter([BOB, MARY, JOHN], rounds, ROUND_ROBIN) == {BOB: 6, MARY: 3, JOHN: 3}


def test_direct_encounter_does_not_apply_when_two_tied_players_never_met() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS), Game(1, 2, 3, 4, Outcome.DRAW)))]
    assert direct_encounter([1, 3], rounds, SWISS) is None
    assert direct_encounter([1, 2], rounds, SWISS) == {1: 2, 2: 0}


def swiss_with_unplayed_rounds() -> list[Round]:
    """Four players, three rounds. Round 1: 1 beats 2, 3 draws 4. Round 2: 1 beats 3;
    4 wins by forfeit against 2. Round 3: 1 draws 4; 2 beats 3."""
    return [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS), Game(1, 2, 3, 4, Outcome.DRAW))),
        Round(
            2,
            (Game(2, 1, 1, 3, Outcome.WHITE_WINS), Game(2, 2, 4, 2, Outcome.WHITE_WINS_BY_FORFEIT)),
        ),
        Round(3, (Game(3, 1, 4, 1, Outcome.DRAW), Game(3, 2, 2, 3, Outcome.WHITE_WINS))),
    ]


def test_unplayed_rounds_count_as_a_game_against_oneself_and_are_cut_first() -> None:
    # Scores: 1 has 5, 2 has 2, 3 has 1, 4 has 4.
    # Adjusted scores (an opponent's unplayed round counts as a draw, 1 point):
    # 2 played 0 + 2 and has one unplayed round: 3; 4 played 1 + 1 and has one: 3.
    # Player 4: round 1 vs 3 (1), round 2 unplayed: own score 4, round 3 vs 1 (5);
    # cut 1 drops the unplayed round first: 1 + 5 = 6.
    # Player 2: vs 1 (5), unplayed: own score 2, vs 3 (1): cut the unplayed: 6.
    # Player 1: vs 2 (3), vs 3 (1), vs 4 (3): cut 1: 6. Player 3: vs 4 (3), vs 1 (5),
    # vs 2 (3): cut 3: 8.
    values = buchholz_cut_1([1, 2, 3, 4], swiss_with_unplayed_rounds(), SWISS)
    assert values == {1: 6, 2: 6, 3: 8, 4: 6}


def test_sonneborn_berger_counts_a_forfeit_win_against_oneself() -> None:
    # Player 4: draw vs 3 (1 x 1/2), forfeit win: own score 4 x 1, draw vs 1 (5 x 1/2): 7.
    # Player 1: wins vs 2 (3) and 3 (1), draw vs 4 (3 x 1/2): 11/2.
    values = sonneborn_berger([1, 2, 3, 4], swiss_with_unplayed_rounds(), SWISS)
    assert values[4] == Fraction(7) and values[1] == Fraction(11, 2)
    assert values[2] == Fraction(1) and values[3] == Fraction(3, 2)


def test_a_swiss_bye_is_an_unplayed_round_and_a_round_robin_rest_round_is_none() -> None:
    # Swiss: 1 beats 2; 3 has a bye (2 points). Round 2: 3 beats 1.
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (Game(2, 1, 3, 1, Outcome.WHITE_WINS),), (Bye(2, 2, ByeKind.NOT_PAIRED),)),
    ]
    # Player 3 has 4: the bye against oneself (4) and 1's score (2); cut the bye: 2.
    assert buchholz_cut_1([1, 2, 3], rounds, SWISS)[3] == 2
    # In a round robin the rest round is no round at all: only 1 (2 points) counts,
    # and cut 1 leaves nothing.
    assert buchholz_cut_1([1, 2, 3], rounds, ROUND_ROBIN)[3] == 0


def test_a_game_under_way_counts_for_no_tie_break() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2),))]
    assert buchholz_cut_1([1, 2], rounds, SWISS) == {1: 0, 2: 0}
    assert sonneborn_berger([1, 2], rounds, SWISS) == {1: 0, 2: 0}
    assert direct_encounter([1, 2], rounds, SWISS) is None


def test_a_round_naming_a_player_who_is_not_an_entrant_is_refused() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 9, Outcome.DRAW),))]
    with pytest.raises(ValueError, match="player 9 is not an entrant"):
        buchholz_cut_1([1, 2], rounds, SWISS)
    with pytest.raises(ValueError, match="player 9 is not an entrant"):
        sonneborn_berger([1, 2], rounds, SWISS)
