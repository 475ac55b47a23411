"""Standings (tournaments/standings.py): score, then Buchholz Cut 1, Sonneborn-Berger and
direct encounter (docs/RULES.md, "Tie-breaks and standings"). The first case is the
published ChessKid crosstable of tests/support/tournaments.py: Bob first; Mary
ahead of John, tied on points, by Sonneborn-Berger (3.75 against 2.25)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.tournaments import BOB, JOHN, MARY, chesskid_crosstable
from tournaments.model import Bye, ByeKind, Colour, Entrant, Game, Outcome, Round
from tournaments.round_robin import round_robin_schedule
from tournaments.scores import ROUND_ROBIN, SWISS
from tournaments.standings import RoundResult, standings

CHESSKID_ENTRANTS = [Entrant(BOB, 1600, 1), Entrant(MARY, 1500, 2), Entrant(JOHN, 1400, 3)]


def test_the_published_crosstable_ranks_bob_mary_john() -> None:
    rows = standings(CHESSKID_ENTRANTS, chesskid_crosstable(), ROUND_ROBIN)
    assert [(r.rank, r.player, r.score) for r in rows] == [(1, BOB, 6), (2, MARY, 3), (3, JOHN, 3)]
    assert [r.sonneborn_berger for r in rows] == [Fraction(9), Fraction(15, 2), Fraction(9, 2)]


def test_each_row_lists_every_round_with_opponent_colour_outcome_or_bye() -> None:
    rows = {r.player: r for r in standings(CHESSKID_ENTRANTS, chesskid_crosstable(), ROUND_ROBIN)}
    bob = rows[BOB].results
    assert [r.round for r in bob] == [1, 2, 3, 4, 5, 6]
    byes = [r for r in bob if r.bye is not None]
    assert len(byes) == 2 and all(
        r.bye is ByeKind.PAIRING_ALLOCATED and r.points == 0 for r in byes
    )
    games = [r for r in bob if r.bye is None]
    assert sorted(r.opponent for r in games if r.opponent is not None) == [MARY, MARY, JOHN, JOHN]
    assert sum(r.points for r in bob) == 6
    assert {r.colour for r in games} == {Colour.WHITE, Colour.BLACK}


def test_sonneborn_berger_orders_players_tied_on_points_and_buchholz() -> None:
    # A four-player single round robin. Round 1: 1-4 draw, 3 beats 2. Round 2: 4 beats 3,
    # 2 beats 1. Round 3: 2 beats 4, 3 beats 1. Scores: 1: 1, 2: 4, 3: 4, 4: 3.
    # Buchholz Cut 1: 2 met 3 (4), 1 (1), 4 (3): 7; 3 met 2 (4), 4 (3), 1 (1): 7.
    # Sonneborn-Berger: 2 beat 1 and 4: 1 + 3 = 4; 3 beat 2 and 1: 4 + 1 = 5.
    rounds = [
        Round(1, (Game(1, 1, 1, 4, Outcome.DRAW), Game(1, 2, 2, 3, Outcome.BLACK_WINS))),
        Round(2, (Game(2, 1, 4, 3, Outcome.WHITE_WINS), Game(2, 2, 1, 2, Outcome.BLACK_WINS))),
        Round(3, (Game(3, 1, 2, 4, Outcome.WHITE_WINS), Game(3, 2, 3, 1, Outcome.WHITE_WINS))),
    ]
    entrants = [Entrant(p, 1500, p) for p in (1, 2, 3, 4)]
    rows = standings(entrants, rounds, ROUND_ROBIN)
    assert [(r.rank, r.player) for r in rows] == [(1, 3), (2, 2), (3, 4), (4, 1)]
    assert [(r.buchholz_cut_1, r.sonneborn_berger) for r in rows[:2]] == [
        (7, Fraction(5)),
        (7, Fraction(4)),
    ]


def test_buchholz_cut_1_orders_players_tied_on_points() -> None:
    # Six players, Swiss, two rounds. Round 1: 1 beats 2, 3 beats 4, 5 beats 6.
    # Round 2: 1 beats 6, 5 beats 3, 2-4 drawn.
    # Scores: 1: 4, 5: 4, 3: 2, 2: 1, 4: 1, 6: 0.
    # 1 met 2 (1) and 6 (0): cut 1 leaves 1. 5 met 6 (0) and 3 (2): 2. So 5 leads.
    # 2 met 1 (4) and 4 (1): 4; 4 met 3 (2) and 2 (1): 2. So 2 is above 4.
    rounds = [
        Round(
            1,
            (
                Game(1, 1, 1, 2, Outcome.WHITE_WINS),
                Game(1, 2, 3, 4, Outcome.WHITE_WINS),
                Game(1, 3, 5, 6, Outcome.WHITE_WINS),
            ),
        ),
        Round(
            2,
            (
                Game(2, 1, 1, 6, Outcome.WHITE_WINS),
                Game(2, 2, 3, 5, Outcome.BLACK_WINS),
                Game(2, 3, 2, 4, Outcome.DRAW),
            ),
        ),
    ]
    entrants = [Entrant(p, 1500, p) for p in range(1, 7)]
    rows = standings(entrants, rounds, SWISS)
    assert [(r.rank, r.player, r.score) for r in rows] == [
        (1, 5, 4),
        (2, 1, 4),
        (3, 3, 2),
        (4, 2, 1),
        (5, 4, 1),
        (6, 6, 0),
    ]


def test_direct_encounter_decides_when_score_buchholz_and_sonneborn_berger_tie() -> None:
    # Six players, Swiss, two rounds. Round 1: 1 beats 2, 4 beats 5, 6 beats 3.
    # Round 2: 3 beats 1, 2 beats 4, 5-6 drawn. Scores: 6: 3; 1, 2, 3, 4: 2; 5: 1.
    # Buchholz Cut 1: 1 met 2 (2), 3 (2): 2; 2 met 1 (2), 4 (2): 2; 3 met 6 (3), 1 (2): 3;
    # 4 met 5 (1), 2 (2): 2. Sonneborn-Berger: 1 beat 2: 2; 2 beat 4: 2; 4 beat 5: 1.
    # 1 and 2 tie on all three; 1 beat 2.
    rounds = [
        Round(
            1,
            (
                Game(1, 1, 1, 2, Outcome.WHITE_WINS),
                Game(1, 2, 4, 5, Outcome.WHITE_WINS),
                Game(1, 3, 6, 3, Outcome.WHITE_WINS),
            ),
        ),
        Round(
            2,
            (
                Game(2, 1, 3, 1, Outcome.WHITE_WINS),
                Game(2, 2, 2, 4, Outcome.WHITE_WINS),
                Game(2, 3, 5, 6, Outcome.DRAW),
            ),
        ),
    ]
    entrants = [Entrant(p, 1500, p) for p in range(1, 7)]
    rows = standings(entrants, rounds, SWISS)
    assert [(r.rank, r.player) for r in rows] == [(1, 6), (2, 3), (3, 1), (4, 2), (5, 4), (6, 5)]
    assert [(r.player, r.direct_encounter) for r in rows[2:4]] == [(1, 2), (2, 0)]
    assert rows[2].sonneborn_berger == rows[3].sonneborn_berger == 2


def test_players_equal_on_score_and_every_tie_break_share_a_rank() -> None:
    # Three players, one cycle (each with a rest round): each beats one and loses to
    # one. All tie on 2 points, Buchholz Cut 1 (2), Sonneborn-Berger (2) and direct
    # encounter (2 each): one shared rank, listed by pairing number.
    rounds = [
        Round(1, (Game(1, 1, 2, 3, Outcome.WHITE_WINS),), (Bye(1, 1, ByeKind.PAIRING_ALLOCATED),)),
        Round(2, (Game(2, 1, 3, 1, Outcome.WHITE_WINS),), (Bye(2, 2, ByeKind.PAIRING_ALLOCATED),)),
        Round(3, (Game(3, 1, 1, 2, Outcome.WHITE_WINS),), (Bye(3, 3, ByeKind.PAIRING_ALLOCATED),)),
    ]
    entrants = [Entrant(p, 1500, p) for p in (1, 2, 3)]
    rows = standings(entrants, rounds, ROUND_ROBIN)
    assert [(r.rank, r.player) for r in rows] == [(1, 1), (1, 2), (1, 3)]
    assert {r.direct_encounter for r in rows} == {2}


def test_tied_players_who_never_met_share_a_rank_while_a_round_is_under_way() -> None:
    # Four players, Swiss, one round finished and one under way: 1 beats 2, 3 beats 4.
    # 1 and 3 tie on 2 points, Buchholz Cut 1 (one opponent, cut: 0), Sonneborn-Berger
    # (0 each), and never met: direct encounter does not apply, they share rank 1.
    rounds = [
        Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS), Game(1, 2, 3, 4, Outcome.WHITE_WINS))),
        Round(2, (Game(2, 1, 1, 3), Game(2, 2, 2, 4))),
    ]
    entrants = [Entrant(p, 1500, p) for p in (1, 2, 3, 4)]
    rows = standings(entrants, rounds, SWISS)
    assert [(r.rank, r.player) for r in rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]
    assert rows[0].direct_encounter is None
    assert rows[0].results[-1] == RoundResult(2, 0, opponent=3, colour=Colour.WHITE, outcome=None)
    # Once 3 beats 1, 3 leads on points.
    finished = [
        rounds[0],
        Round(2, (Game(2, 1, 1, 3, Outcome.BLACK_WINS), Game(2, 2, 2, 4, Outcome.DRAW))),
    ]
    assert standings(entrants, finished, SWISS)[0].player == 3


@given(
    count=st.integers(min_value=2, max_value=10),
    outcomes=st.lists(
        st.sampled_from([Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS]),
        min_size=45,
        max_size=45,
    ),
)
def test_a_better_score_always_ranks_higher_and_equal_rows_share_a_rank(
    count: int, outcomes: list[Outcome]
) -> None:
    entrants = [Entrant(100 + n, 1500, n) for n in range(1, count + 1)]
    results = iter(outcomes)
    rounds = [
        Round(
            r.number,
            tuple(Game(g.round, g.board, g.white, g.black, next(results)) for g in r.games),
            r.byes,
        )
        for r in round_robin_schedule(entrants)
    ]
    rows = standings(entrants, rounds, ROUND_ROBIN)
    assert sorted(r.player for r in rows) == [e.player for e in entrants]
    assert sum(r.score for r in rows) == count * (count - 1)  # 2 points a game
    for above, below in pairwise(rows):
        assert above.score >= below.score and above.rank <= below.rank
        equal = (above.score, above.buchholz_cut_1, above.sonneborn_berger) == (
            below.score,
            below.buchholz_cut_1,
            below.sonneborn_berger,
        ) and above.direct_encounter == below.direct_encounter
        assert (above.rank == below.rank) == equal


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        standings([Entrant(BOB, 1600, 1), Entrant(BOB, 1600, 2)], [], SWISS)
    with pytest.raises(ValueError, match="listed twice"):
        standings([Entrant(BOB, 1600, 1), Entrant(MARY, 1500, 1)], [], SWISS)
