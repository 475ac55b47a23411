"""An arena's pairing (tournaments/arena_pairing.py): by rank, no immediate rematch,
colours balanced, late joiners and leavers, the wait and the end (docs/RULES.md,
"Arena")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.arena_pairing import ColourHistory, pair, white_first
from tournaments.arena_scores import ArenaGame, ArenaRules, pairings_closed_before_end
from tournaments.model import Colour, Entrant, Game, Outcome, Round

START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
END = START + timedelta(hours=1)
RULES = ArenaRules()
LATER = START + timedelta(minutes=5)
WAITED = LATER - RULES.pairing_wait


def entrants(count: int) -> tuple[Entrant, ...]:
    """Players 1..count, player 1 rated highest."""
    return tuple(Entrant(player, 2000 - 10 * player, player) for player in range(1, count + 1))


def pairs(round_: Round | None) -> list[set[int]]:
    assert round_ is not None
    return [{game.white, game.black} for game in round_.games]


def test_the_first_pairing_is_by_rating_top_down() -> None:
    round_ = pair(
        entrants(6), [], [], {p: START for p in range(1, 7)}, frozenset(), START, END, RULES, 0
    )
    assert round_ is not None and round_.number == 1
    assert pairs(round_) == [{1, 2}, {3, 4}, {5, 6}]
    assert [game.board for game in round_.games] == [1, 2, 3]


def test_players_are_paired_by_rank_in_the_standings() -> None:
    # 4 beat 3 and 6 beat 5 in round 1: 4 and 6 now lead.
    first = Round(
        1,
        (
            Game(1, 1, 1, 2),
            Game(1, 2, 3, 4, Outcome.BLACK_WINS),
            Game(1, 3, 5, 6, Outcome.BLACK_WINS),
        ),
    )
    games = [
        ArenaGame(first.games[1], START + timedelta(minutes=1), 40),
        ArenaGame(first.games[2], START + timedelta(minutes=2), 40),
    ]
    free = {3: WAITED, 4: WAITED, 5: WAITED, 6: WAITED}
    assert pairs(pair(entrants(6), [first], games, free, frozenset(), LATER, END, RULES, 0)) == [
        {4, 6},
        {3, 5},
    ]


def test_an_immediate_rematch_is_avoided_when_another_opponent_is_free() -> None:
    first = Round(1, (Game(1, 1, 1, 2, Outcome.DRAW), Game(1, 2, 3, 4)))
    games = [ArenaGame(first.games[0], START + timedelta(minutes=1), 40)]
    round_ = pair(
        entrants(5),
        [first],
        games,
        {1: WAITED, 2: WAITED, 5: WAITED},
        frozenset(),
        LATER,
        END,
        RULES,
        0,
    )
    # 2 ranks first (the draw against 1, rated higher, is the better performance) and
    # meets 5, not 1; 1 waits.
    assert pairs(round_) == [{2, 5}]


def test_the_last_opponents_are_paired_again_when_only_they_are_free() -> None:
    first = Round(1, (Game(1, 1, 1, 2, Outcome.DRAW), Game(1, 2, 3, 4)))
    games = [ArenaGame(first.games[0], START + timedelta(minutes=1), 40)]
    round_ = pair(
        entrants(4), [first], games, {1: WAITED, 2: WAITED}, frozenset(), LATER, END, RULES, 0
    )
    assert pairs(round_) == [{1, 2}]


def test_a_lone_free_player_waits() -> None:
    assert pair(entrants(4), [], [], {1: WAITED}, frozenset(), LATER, END, RULES, 0) is None


def test_with_an_odd_count_the_lowest_ranked_waits() -> None:
    round_ = pair(
        entrants(3), [], [], {p: START for p in (1, 2, 3)}, frozenset(), START, END, RULES, 0
    )
    assert pairs(round_) == [{1, 2}]
    assert round_ is not None and round_.byes == ()


def test_players_wait_for_others_to_come_free_before_pairing() -> None:
    free = {1: LATER - timedelta(seconds=3), 2: LATER - timedelta(seconds=1)}
    assert pair(entrants(4), [], [], free, frozenset(), LATER, END, RULES, 0) is None
    free[1] = WAITED
    assert pairs(pair(entrants(4), [], [], free, frozenset(), LATER, END, RULES, 0)) == [{1, 2}]


def test_no_pairing_in_the_last_stretch_or_after_the_end() -> None:
    free = {p: START for p in range(1, 5)}
    closing = END - RULES.pairings_closed_before_end
    assert pair(entrants(4), [], [], free, frozenset(), END, END, RULES, 0) is None
    assert pair(entrants(4), [], [], free, frozenset(), closing, END, RULES, 0) is None
    before = closing - timedelta(seconds=1)
    assert pair(entrants(4), [], [], free, frozenset(), before, END, RULES, 0) is not None


def test_pairings_close_as_lichess_closes_them() -> None:
    # lichess: max(30 s, min(initial clock / 2, 120 s)).
    assert pairings_closed_before_end(timedelta(minutes=1)) == timedelta(seconds=30)
    assert pairings_closed_before_end(timedelta(minutes=3)) == timedelta(seconds=90)
    assert pairings_closed_before_end(timedelta(minutes=10)) == timedelta(minutes=2)


def test_a_player_who_left_or_paused_is_not_paired() -> None:
    free = {p: START for p in range(1, 5)}
    assert pairs(pair(entrants(4), [], [], free, frozenset({2}), START, END, RULES, 0)) == [{1, 3}]


def test_a_late_joiner_is_paired_by_rank_with_score_0() -> None:
    # 1 and 2 drew, 3 beat 4; 9 joins late with score 0: ranked with the 0s by rating
    # (2500, above 4's performance 1490): 3, 1, 9, 4.
    players = (*entrants(4), Entrant(9, 2500, 5))
    first = Round(1, (Game(1, 1, 1, 2, Outcome.DRAW), Game(1, 2, 3, 4, Outcome.WHITE_WINS)))
    games = [ArenaGame(game, START + timedelta(minutes=1), 40) for game in first.games]
    free = {p: WAITED for p in (1, 3, 4, 9)}
    assert pairs(pair(players, [first], games, free, frozenset(), LATER, END, RULES, 0)) == [
        {3, 1},
        {4, 9},
    ]


def test_the_player_who_had_black_gets_white() -> None:
    # Round 1: 1 (white) drew with 2, 4 (white) drew with 3. Ranked by performance:
    # 2, 1, 4, 3; 2 meets 4 (not 1 again) and 1 meets 3; who had black gets white.
    first = Round(1, (Game(1, 1, 1, 2, Outcome.DRAW), Game(1, 2, 4, 3, Outcome.DRAW)))
    games = [ArenaGame(game, START + timedelta(minutes=1), 40) for game in first.games]
    free = {p: WAITED for p in range(1, 5)}
    round_ = pair(entrants(4), [first], games, free, frozenset(), LATER, END, RULES, 0)
    assert round_ is not None
    assert [(game.white, game.black) for game in round_.games] == [(2, 4), (3, 1)]


def test_a_colour_history_counts_the_streak_and_the_balance() -> None:
    history = ColourHistory()
    for colour in (Colour.WHITE, Colour.WHITE, Colour.WHITE, Colour.BLACK):
        history = history.add(colour)
    assert (history.streak, history.balance) == (-1, 2)
    three_whites = ColourHistory(3, 3)
    assert not three_whites.could_play(ColourHistory(3, 1))
    assert three_whites.could_play(ColourHistory(2, 2))


def test_equal_colour_histories_draw_lots_from_the_seed() -> None:
    import random

    draws = {
        white_first(ColourHistory(), ColourHistory(), random.Random(seed)) for seed in range(20)
    }
    assert draws == {True, False}


def test_a_free_player_who_is_not_an_entrant_is_refused() -> None:
    with pytest.raises(ValueError, match="not entrants"):
        pair(entrants(2), [], [], {1: START, 7: START}, frozenset(), START, END, RULES, 0)


@st.composite
def arenas(
    draw: st.DrawFn,
) -> tuple[
    tuple[Entrant, ...], list[Round], list[ArenaGame], dict[int, datetime], frozenset[int], int
]:
    """A random arena played for a few pairings, then a set of free players."""
    count = draw(st.integers(2, 14))
    players = entrants(count)
    rounds: list[Round] = []
    games: list[ArenaGame] = []
    for number in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(range(1, count + 1)))
        round_ = Round(
            number,
            tuple(
                Game(
                    number,
                    board,
                    order[2 * board - 2],
                    order[2 * board - 1],
                    draw(st.sampled_from(list(Outcome))),
                )
                for board in range(1, count // 2 + 1)
            ),
        )
        rounds.append(round_)
        games += [
            ArenaGame(game, START + timedelta(minutes=number), draw(st.integers(0, 60)))
            for game in round_.games
        ]
    free = {p: WAITED for p in draw(st.sets(st.integers(1, count)))}
    withdrawn = frozenset(draw(st.sets(st.integers(1, count), max_size=2)))
    return players, rounds, games, free, withdrawn, draw(st.integers(0, 2**32))


@given(arenas())
def test_every_free_player_but_one_is_paired_once_and_the_pairing_repeats(
    arena: tuple[
        tuple[Entrant, ...], list[Round], list[ArenaGame], dict[int, datetime], frozenset[int], int
    ],
) -> None:
    players, rounds, games, free, withdrawn, seed = arena
    round_ = pair(players, rounds, games, free, withdrawn, LATER, END, RULES, seed)
    eligible = set(free) - withdrawn
    if len(eligible) < 2:
        assert round_ is None
        return
    assert round_ is not None
    seated = [p for game in round_.games for p in (game.white, game.black)]
    assert len(seated) == len(set(seated))
    assert set(seated) <= eligible
    assert len(eligible) - len(seated) <= 1
    assert round_ == pair(players, rounds, games, free, withdrawn, LATER, END, RULES, seed)


def test_two_players_with_three_whites_in_a_row_are_not_paired_together() -> None:
    # 1 and 2 had white three times in a row (all draws); 1 ranks first (performance
    # 1960 against 2's 1957), so 1 meets 3, not 2; 2 meets 6 (a rematch, no one else).
    rounds = [
        Round(1, (Game(1, 1, 1, 3, Outcome.DRAW), Game(1, 2, 2, 4, Outcome.DRAW))),
        Round(2, (Game(2, 1, 1, 4, Outcome.DRAW), Game(2, 2, 2, 3, Outcome.DRAW))),
        Round(3, (Game(3, 1, 1, 5, Outcome.DRAW), Game(3, 2, 2, 6, Outcome.DRAW))),
    ]
    games = [
        ArenaGame(game, START + timedelta(minutes=round_.number), 40)
        for round_ in rounds
        for game in round_.games
    ]
    free = {p: WAITED for p in (1, 2, 3, 6)}
    round_ = pair(entrants(6), rounds, games, free, frozenset(), LATER, END, RULES, 0)
    assert pairs(round_) == [{1, 3}, {2, 6}]


def test_no_immediate_rematch_when_the_players_above_are_free() -> None:
    # 3 and 4 just played each other; 1 and 2 did not. Pairing top-down alone would give
    # 1-2 and leave 3-4 a rematch; 1-3 and 2-4 give every player a new opponent.
    last = Round(1, (Game(1, 1, 3, 4, Outcome.DRAW),))
    free = {p: START for p in range(1, 5)}
    round_ = pair(entrants(4), [last], [], free, frozenset(), LATER, END, RULES, 0)
    assert {3, 4} not in pairs(round_)
    assert sorted(sorted(p) for p in pairs(round_)) == [[1, 3], [2, 4]]
