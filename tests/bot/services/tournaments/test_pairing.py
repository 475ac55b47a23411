"""Pairing the next round on plain values (`bot.services.tournaments.pairing`): a round
robin pairs no player who left (a not-paired bye, their opponent a rest round), and an
arena's last stretch without pairings follows the games' move time."""

from __future__ import annotations

from datetime import timedelta

from bot.services.tournaments.pairing import arena_rules_for, round_robin
from tournaments.arena_scores import ArenaRules
from tournaments.model import Bye, ByeKind, Entrant
from tournaments.round_robin import round_robin_round

ENTRANTS = [Entrant(player, 1500, number) for number, player in enumerate(range(11, 17), 1)]


def test_a_round_robin_with_everyone_in_is_the_berger_round() -> None:
    everyone = frozenset(e.player for e in ENTRANTS)
    for number in range(1, 6):
        assert round_robin(ENTRANTS, number, 1, everyone) == round_robin_round(
            ENTRANTS, number, 1)


def test_a_round_robin_pairs_no_player_who_left() -> None:
    gone = 16
    active = frozenset(e.player for e in ENTRANTS) - {gone}
    for number in range(1, 6):
        scheduled = round_robin_round(ENTRANTS, number, 1)
        (opponent,) = [g.opponent_of(gone) for g in scheduled.games
                       if gone in (g.white, g.black)]
        paired = round_robin(ENTRANTS, number, 1, active)
        assert [g.board for g in paired.games] == [1, 2]
        assert all(gone not in (g.white, g.black) for g in paired.games)
        assert set(paired.byes) == {Bye(number, gone, ByeKind.NOT_PAIRED),
                                    Bye(number, opponent, ByeKind.PAIRING_ALLOCATED)}
        kept = [g for g in scheduled.games if gone not in (g.white, g.black)]
        assert [(g.white, g.black) for g in paired.games] == [(g.white, g.black) for g in kept]


def test_an_arenas_pairings_close_by_its_move_time() -> None:
    rules = ArenaRules(pairing_wait=timedelta(seconds=3))
    assert arena_rules_for(rules, 40).pairings_closed_before_end == timedelta(seconds=30)
    assert arena_rules_for(rules, 300).pairings_closed_before_end == timedelta(minutes=2)
    assert arena_rules_for(rules, 300).pairing_wait == timedelta(seconds=3)
