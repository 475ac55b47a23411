"""Round robins by the Berger tables (tournaments/round_robin.py), checked against the
tables FIDE publishes: FIDE Handbook C.05, Annex 1, "Berger Tables for Round-Robin
Tournaments" (copied below as published: "White-Black" per game, rounds in order)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.model import ByeKind, Colour, Entrant
from tournaments.round_robin import (
    berger_round,
    round_robin_round,
    round_robin_schedule,
    rounds_per_cycle,
)

FIDE_BERGER_TABLES = {
    4: """1-4 2-3 | 4-3 1-2 | 2-4 3-1""",
    6: """1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3
        | 3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1""",
    10: """1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7
        | 10-7 8-6 9-5 1-4 2-3 | 3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4
        | 4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 | 5-10 6-4 7-3 8-2 9-1""",
    16: """1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9 | 16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        | 2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10 | 16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        | 3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11 | 16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        | 4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12 | 16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        | 5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13 | 16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        | 6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14 | 16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        | 7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15 | 16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        | 8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1""",
}


def published(size: int) -> list[tuple[tuple[int, int], ...]]:
    return [
        tuple(
            (int(white), int(black))
            for white, black in (game.split("-") for game in round_text.split())
        )
        for round_text in FIDE_BERGER_TABLES[size].split("|")
    ]


def entrants(count: int) -> list[Entrant]:
    """Players 101, 102, ... with pairing numbers 1, 2, ..."""
    return [
        Entrant(player=100 + number, rating=2000 - number, number=number)
        for number in range(1, count + 1)
    ]


@pytest.mark.parametrize("size", [4, 6, 8, 10, 16])
def test_the_table_is_the_published_berger_table(size: int) -> None:
    table = published(size)
    assert rounds_per_cycle(size) == len(table) == size - 1
    assert [berger_round(size, r) for r in range(1, size)] == table


@pytest.mark.parametrize("count", [3, 5, 7, 9])
def test_an_odd_count_plays_the_next_even_table_and_the_dummy_s_opponent_has_the_bye(
    count: int,
) -> None:
    for number, table_round in enumerate(published(count + 1), start=1):
        round_ = round_robin_round(entrants(count), number)
        expected = [(100 + w, 100 + b) for w, b in table_round if count + 1 not in (w, b)]
        assert [(game.white, game.black) for game in round_.games] == expected
        (dummy_game,) = [pair for pair in table_round if count + 1 in pair]
        (bye,) = round_.byes
        assert bye.player == 100 + min(dummy_game) and bye.kind is ByeKind.PAIRING_ALLOCATED
        assert [game.board for game in round_.games] == list(range(1, len(expected) + 1))


def test_the_sixteen_player_table_meets_each_pair_once_and_alternates_as_published() -> None:
    table = published(16)
    pairs = Counter(frozenset(game) for round_ in table for game in round_)
    assert len(pairs) == 16 * 15 // 2 and set(pairs.values()) == {1}
    schedule = round_robin_schedule(entrants(16))
    for round_, table_round in zip(schedule, table, strict=True):
        assert [(g.white - 100, g.black - 100) for g in round_.games] == list(table_round)


def test_a_double_round_robin_reverses_the_last_two_rounds_of_the_first_cycle() -> None:
    table = published(6)
    schedule = round_robin_schedule(entrants(6), cycles=2)
    first = [[(g.white - 100, g.black - 100) for g in r.games] for r in schedule[:5]]
    second = [[(g.white - 100, g.black - 100) for g in r.games] for r in schedule[5:]]
    assert first == [list(table[i]) for i in (0, 1, 2, 4, 3)]
    assert second == [[(b, w) for w, b in table[i]] for i in range(5)]
    assert [r.number for r in schedule] == list(range(1, 11))


@pytest.mark.parametrize("count", [4, 6, 8, 10, 16])
def test_no_one_has_the_same_colour_three_times_in_a_row_in_a_double_round_robin(
    count: int,
) -> None:
    schedule = round_robin_schedule(entrants(count), cycles=2)
    for player in range(101, 101 + count):
        colours = [
            g.colour_of(player) for r in schedule for g in r.games if player in (g.white, g.black)
        ]
        assert all(
            not (a == b == c) for a, b, c in zip(colours, colours[1:], colours[2:], strict=False)
        )


def test_wrong_counts_and_rounds_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 players"):
        round_robin_schedule(entrants(1))
    with pytest.raises(ValueError, match="round 4 is not"):
        round_robin_round(entrants(4), 4)
    with pytest.raises(ValueError, match="round 0 is not"):
        round_robin_round(entrants(4), 0)
    with pytest.raises(ValueError, match="1 or 2 cycles"):
        round_robin_round(entrants(4), 1, cycles=3)
    with pytest.raises(ValueError, match="pairing numbers"):
        round_robin_round([Entrant(1, 1500, 1), Entrant(2, 1500, 3)], 1)
    with pytest.raises(ValueError, match="round 8 is not"):
        berger_round(8, 8)


@given(count=st.integers(min_value=2, max_value=16), cycles=st.sampled_from([1, 2]))
def test_every_pair_meets_once_per_cycle_and_each_player_once_per_round(
    count: int, cycles: int
) -> None:
    schedule = round_robin_schedule(entrants(count), cycles)
    meetings = Counter(frozenset((g.white, g.black)) for r in schedule for g in r.games)
    assert len(meetings) == count * (count - 1) // 2 and set(meetings.values()) == {cycles}
    for round_ in schedule:
        seen = [p for g in round_.games for p in (g.white, g.black)] + [
            b.player for b in round_.byes
        ]
        assert sorted(seen) == list(range(101, 101 + count))
    byes = Counter(b.player for r in schedule for b in r.byes)
    assert set(byes.values()) <= {cycles} and len(byes) == (count % 2) * count


@given(count=st.integers(min_value=2, max_value=16))
def test_a_single_round_robin_balances_each_player_s_colours_within_one(count: int) -> None:
    schedule = round_robin_schedule(entrants(count))
    for player in range(101, 101 + count):
        colours = Counter(
            g.colour_of(player) for r in schedule for g in r.games if player in (g.white, g.black)
        )
        assert abs(colours[Colour.WHITE] - colours[Colour.BLACK]) <= 1
        sequence = [
            g.colour_of(player) for r in schedule for g in r.games if player in (g.white, g.black)
        ]
        repeats = sum(a == b for a, b in pairwise(sequence))
        assert repeats <= 1


def test_a_player_entered_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        round_robin_round([Entrant(1, 1500, 1), Entrant(1, 1500, 2)], 1)
