"""A player's games under way everywhere (`bot/services/under_way.py`, through
`StatsService.games_under_way`) on a real SQLite file: the player's turn first, then the
nearest deadline, every place, only the player's games, the rest counted."""

from __future__ import annotations

from datetime import timedelta

import engine
from engine import Color
from storage import Seat
from tests.support.clock import FakeClock
from tests.support.services import ALICE, BOB, CAROL, OpenServices, start_game

DAY = 86400


async def test_the_players_turn_first_then_the_nearest_deadline(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    # Alice is White (to move) in three games, Black (waiting) in one.
    slow = await start_game(s, "turkish", channel=701, move_seconds=7 * DAY)
    untimed = await start_game(s, "italian", channel=702, guild=None)
    soon = await start_game(s, "turkish", channel=703, move_seconds=DAY)
    waiting = await start_game(s, "turkish", channel=704, white=BOB, black=ALICE,
                               move_seconds=DAY)
    listing = await s.stats.games_under_way(ALICE)
    # The untimed game is lost if no move comes within the inactivity limit (3 days).
    assert s.games.table.rules.inactivity_limit == timedelta(days=3)
    assert [g.game_id for g in listing.games] == [soon.id, untimed.id, slow.id, waiting.id]
    assert listing.more == 0
    first = listing.games[0]
    assert first.players_turn and first.color is Color.WHITE and first.turn is Color.WHITE
    assert first.opponent == Seat.human(BOB)
    assert first.deadline == clock() + timedelta(days=1)
    assert listing.games[1].guild_id is None
    assert listing.games[1].deadline == clock() + timedelta(days=3)
    last = listing.games[3]
    assert not last.players_turn and last.color is Color.BLACK


async def test_only_the_players_games_and_the_rest_counted(open_services: OpenServices) -> None:
    s = await open_services()
    mine = [await start_game(s, "turkish", channel=800 + i, guild=900 + i) for i in range(4)]
    theirs = await start_game(s, "turkish", channel=850, white=BOB, black=CAROL)
    listing = await s.stats.games_under_way(ALICE, limit=3)
    assert [g.game_id for g in listing.games] == [g.id for g in mine[:3]]
    assert listing.more == 1
    carol = await s.stats.games_under_way(CAROL)
    assert [g.game_id for g in carol.games] == [theirs.id] and carol.more == 0
    assert (await s.stats.games_under_way(4242)).games == ()


async def test_an_untimed_games_deadline_is_its_last_move_and_the_inactivity_limit(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    untimed = await start_game(s, "turkish", channel=705)
    clock.advance(timedelta(hours=5))
    state = s.games.current(705)
    move = engine.legal_moves(state.position, state.variant)[0]
    await s.games.play(705, ALICE, engine.format_move(move, state.position, state.variant))
    [game] = (await s.stats.games_under_way(ALICE)).games
    assert game.game_id == untimed.id and not game.players_turn
    assert game.deadline == clock() + timedelta(days=3)
