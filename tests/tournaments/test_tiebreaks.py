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
from tournaments.tiebreaks import (
    buchholz_cut_1,
    direct_encounter,
    round_records,
    sonneborn_berger,
)


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


def test_an_unplayed_round_counts_against_oneself_and_a_voluntary_one_is_cut_first() -> None:
    # Scores: 1 has 5, 2 has 2, 3 has 1, 4 has 4. No one withdrew: opponents bring
    # their real scores.
    # Player 4: vs 3 (1), round 2 won by forfeit: own score 4 (not voluntary), vs 1 (5);
    # cut the lowest: 4 + 5 = 9.
    # Player 2: vs 1 (5), round 2 lost by forfeit: voluntary, own score 2, cut first;
    # vs 3 (1): 5 + 1 = 6.
    # Player 1: vs 2 (2), vs 3 (1), vs 4 (4): cut 1: 6. Player 3: vs 4 (4), vs 1 (5),
    # vs 2 (2): cut 2: 9.
    values = buchholz_cut_1([1, 2, 3, 4], swiss_with_unplayed_rounds(), SWISS)
    assert values == {1: 6, 2: 6, 3: 9, 4: 9}


def test_sonneborn_berger_counts_a_forfeit_win_against_oneself() -> None:
    # Player 4: draw vs 3 (1 x 1/2), forfeit win: own score 4 x 1, draw vs 1 (5 x 1/2): 7.
    # Player 1: wins vs 2 (2) and 3 (1), draw vs 4 (4 x 1/2): 5.
    # Player 2: a win vs 3 (1): 1. Player 3: a draw vs 4 (4 x 1/2): 2.
    values = sonneborn_berger([1, 2, 3, 4], swiss_with_unplayed_rounds(), SWISS)
    assert values == {1: Fraction(5), 2: Fraction(1), 3: Fraction(2), 4: Fraction(7)}


def test_a_withdrawn_opponent_s_rounds_after_leaving_count_as_draws() -> None:
    # Round 1: 1 beats 2, 3 beats 4. 4 leaves. Round 2: 1-3 drawn, 2 has the bye,
    # 4 not paired. Round 3: 3 beats 2, 1 has the bye, 4 not paired.
    # Scores: 1: 5, 2: 2, 3: 5, 4: 0; 4 brings 0 + a draw + a draw = 2 to opponents.
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS), Game(1, 2, 3, 4, Outcome.WHITE_WINS))),
        Round(
            2,
            (Game(2, 1, 1, 3, Outcome.DRAW),),
            (Bye(2, 2, ByeKind.PAIRING_ALLOCATED), Bye(2, 4, ByeKind.NOT_PAIRED)),
        ),
        Round(
            3,
            (Game(3, 1, 3, 2, Outcome.WHITE_WINS),),
            (Bye(3, 1, ByeKind.PAIRING_ALLOCATED), Bye(3, 4, ByeKind.NOT_PAIRED)),
        ),
    ]
    # 3: vs 4 (2), vs 1 (5), vs 2 (2): cut 2: 7. 1: vs 2 (2), vs 3 (5), bye: own 5: 10.
    # 4: vs 3 (5), two voluntary rounds at own score 0, one cut: 5.
    # 2: vs 1 (5), bye: own 2, vs 3 (5): 10.
    assert buchholz_cut_1([1, 2, 3, 4], rounds, SWISS) == {1: 10, 2: 10, 3: 7, 4: 5}


def test_a_swiss_bye_is_an_unplayed_round_and_a_round_robin_rest_round_is_none() -> None:
    # Round 1: 1 beats 2, 3 has the bye (2 points). Round 2: 3 beats 1, 2 not paired.
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS),), (Bye(1, 3, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (Game(2, 1, 3, 1, Outcome.WHITE_WINS),), (Bye(2, 2, ByeKind.NOT_PAIRED),)),
    ]
    # Swiss: 3 has 4 points; the bye against oneself (4) and 1's score (2): cut 2: 4.
    assert buchholz_cut_1([1, 2, 3], rounds, SWISS)[3] == 4
    # Round robin: the rest round is no round at all; 1 (2 points) alone, cut: 0.
    assert buchholz_cut_1([1, 2, 3], rounds, ROUND_ROBIN)[3] == 0


def test_direct_encounter_counts_games_played_not_forfeits() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS_BY_FORFEIT),))]
    assert direct_encounter([1, 2], rounds, SWISS) is None


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


def test_a_round_robin_counts_a_forfeit_as_a_game_and_a_round_without_opponent_as_nothing() -> None:
    # TieBreakServer's default for a round robin treats unplayed games as played and
    # leaves a round without an opponent out. Round 1: 1 beats 4 by forfeit, 2-3 drawn.
    # Round 2: 1-3 drawn, 2 beats 4. Round 3: 1 and 2 not paired (left), 3-4 drawn.
    # Scores: 1: 3, 2: 3, 3: 3, 4: 1.
    # 1 met 4 (1) and 3 (3): Buchholz Cut 1 = 3; Sonneborn-Berger (win 2, draw 1):
    # 1 x 2/2 + 3 x 1/2 = 5/2. 4 met 1 (3), 2 (3), 3 (3): 6; Sonneborn-Berger 3 x 1/2.
    rounds = [
        Round(1, (Game(1, 1, 1, 4, Outcome.WHITE_WINS_BY_FORFEIT), Game(1, 2, 2, 3, Outcome.DRAW))),
        Round(2, (Game(2, 1, 1, 3, Outcome.DRAW), Game(2, 2, 2, 4, Outcome.WHITE_WINS))),
        Round(
            3,
            (Game(3, 1, 3, 4, Outcome.DRAW),),
            (Bye(3, 1, ByeKind.NOT_PAIRED), Bye(3, 2, ByeKind.NOT_PAIRED)),
        ),
    ]
    players = [1, 2, 3, 4]
    buchholz = buchholz_cut_1(players, rounds, ROUND_ROBIN)
    berger = sonneborn_berger(players, rounds, ROUND_ROBIN)
    assert (buchholz[1], berger[1]) == (3, Fraction(5, 2))
    assert (buchholz[4], berger[4]) == (6, Fraction(3, 2))


def test_round_records_refuse_a_player_who_is_not_an_entrant() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.DRAW),))]
    with pytest.raises(ValueError, match="not an entrant"):
        round_records([1], rounds, SWISS)


def test_a_round_given_twice_is_refused() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.DRAW),))] * 2
    with pytest.raises(ValueError, match="round 1 is given twice"):
        buchholz_cut_1([1, 2], rounds, SWISS)
    with pytest.raises(ValueError, match="round 1 is given twice"):
        round_records([1, 2], rounds, SWISS)


def test_a_player_named_twice_in_a_round_is_refused() -> None:
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.DRAW),), (Bye(1, 1, ByeKind.PAIRING_ALLOCATED),))]
    with pytest.raises(ValueError, match="player 1 is named twice in round 1"):
        sonneborn_berger([1, 2], rounds, SWISS)


def test_a_forfeit_lost_after_withdrawing_keeps_its_zero_in_the_opponents_tie_breaks() -> None:
    # TieBreakServer (16.3.2): only a round with no opponent after the last round played
    # counts as a draw; a forfeit has an opponent and keeps its real points. Swiss.
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 2 loses by forfeit to 4, 1-3 drawn.
    # Scores: 1: 3, 2: 0, 3: 3, 4: 2. Sonneborn-Berger of 1 (win 2, draw 1): beat 2
    # (0 x 2/2) and drew 3 (3 x 1/2): 3/2.
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS), Game(1, 2, 3, 4, Outcome.WHITE_WINS))),
        Round(2, (Game(2, 1, 2, 4, Outcome.BLACK_WINS_BY_FORFEIT), Game(2, 2, 1, 3, Outcome.DRAW))),
    ]
    assert sonneborn_berger([1, 2, 3, 4], rounds, SWISS)[1] == Fraction(3, 2)


def test_a_forfeit_between_tied_players_counts_for_direct_encounter_in_a_round_robin() -> None:
    # TieBreakServer's round-robin default treats unplayed games as played, for direct
    # encounter too; in a Swiss a forfeit is not a game played and the tie-break does
    # not apply.
    rounds = [Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS_BY_FORFEIT),))]
    assert direct_encounter([1, 2], rounds, ROUND_ROBIN) == {1: 2, 2: 0}
    assert direct_encounter([1, 2], rounds, SWISS) is None
