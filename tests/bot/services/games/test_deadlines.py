"""`bot.services.games.deadlines`: the inactivity limit and the per-move clock (the
computer's moves for an absent player, then the loss on time), on a real SQLite file."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import engine
from bot.services import (
    EndReason,
    GameRules,
    GameUpdate,
    TurnChanged,
    UpdateKind,
)
from bot.services.computer_turns import Strength
from storage import GameResult, Seat
from tests.support.choosers import PATIENCE, FirstMove
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CHANNEL,
    OpenServices,
    Services,
    start_game,
)


async def test_inactivity_loses_on_time(open_services: OpenServices) -> None:
    clock = FakeClock()
    rules = GameRules(inactivity_limit=timedelta(days=3))
    s = await open_services(clock=clock, rules=rules)
    await start_game(s, "moroccan")
    await s.games.play(CHANNEL, ALICE, "b3-a4")
    assert s.games.next_deadline() == clock() + timedelta(days=3)
    clock.advance(timedelta(days=3) - timedelta(seconds=1))
    assert await s.games.run_deadlines() == []
    clock.advance(timedelta(seconds=1))
    announced: list[GameUpdate] = []

    async def announce(update: GameUpdate) -> None:
        announced.append(update)

    updates = await s.games.run_deadlines(announce=announce)
    assert len(updates) == 1 and announced == updates
    ending = updates[0].state.ending
    assert ending is not None and ending.reason is EndReason.INACTIVITY
    assert ending.winner is engine.Color.WHITE  # Black was to move
    assert ending.result is GameResult.WHITE_WINS
    # One ply played: the result stands but is not rated (docs/RULES.md, "Early results").
    assert ending.unrated_early
    assert await s.storage.ratings.get(BOB, "moroccan") is None

async def _first_moves(s: Services, plies: int) -> None:
    """Play `plies` plies of the channel's game: each time the first legal move."""
    for _ in range(plies):
        state = s.games.current(CHANNEL)
        move = engine.legal_moves(state.position, state.variant)[0]
        user = state.to_move.user_id
        assert user is not None
        await s.games.play(CHANNEL, user, engine.format_move(move, state.position,
                                                             state.variant, full=True))

async def test_inactivity_after_two_moves_each_is_rated(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock, rules=GameRules(inactivity_limit=timedelta(days=3)))
    await start_game(s, "moroccan")
    await _first_moves(s, 4)
    clock.advance(timedelta(days=3))
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.INACTIVITY
    assert not ending.unrated_early
    white = await s.storage.ratings.get(ALICE, "moroccan")  # White was to move
    assert white is not None and white.losses == 1 and white.rated_games == 1

@pytest.mark.parametrize("plies", [0, 1, 2, 3])
async def test_a_time_forfeit_before_two_moves_each_is_not_rated(
    open_services: OpenServices, plies: int
) -> None:
    """Without a listener for absent players, a passed move deadline loses on time; before
    each side has made two moves that result is kept unrated."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "moroccan", move_seconds=40)
    await _first_moves(s, plies)
    clock.advance(timedelta(seconds=41))
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert ending.result is not None and ending.unrated_early
    stored = await s.storage.games.get(update.state.game_id)
    assert stored is not None and stored.rated and stored.white_rating is None
    for user in (ALICE, BOB):
        assert await s.storage.ratings.get(user, "moroccan") is None

async def test_move_clock_computer_moves_then_forfeit(open_services: OpenServices) -> None:
    clock = FakeClock()
    mover = FirstMove()
    rules = GameRules(computer_moves_before_forfeit=2)
    s = await open_services(clock=clock, chooser=mover, rules=rules, absent=Strength(4, 0.5))
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()
    assert update.kind is UpdateKind.COMPUTER_MOVED and mover.calls == 1
    assert mover.levels == [4]  # the absent players' strength
    stored = await s.storage.games.moves(record.id)
    assert [m.by_computer for m in stored] == [True]
    await s.games.play(CHANNEL, BOB, "a6-a5")  # Black moves in time
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # White absent again: second computer move
    assert update.kind is UpdateKind.COMPUTER_MOVED
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # Black absent once: computer moves
    assert update.kind is UpdateKind.COMPUTER_MOVED
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # White absent a third time: loses
    assert update.kind is UpdateKind.ENDED
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is engine.Color.BLACK

async def test_a_computer_seat_moves_after_its_absent_opponent_came_back(
    open_services: OpenServices,
) -> None:
    """A `/play` game: the person's time runs out and the computer starts thinking for
    them; the person comes back and moves meanwhile. That search's move is dropped, and the
    computer seat, now to move, still plays its own move once the search has ended."""

    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", white=ALICE, black=Seat.computer(2), guild=None,
                              rated=False, move_seconds=40)
    clock.advance(timedelta(seconds=40))
    assert await s.games.run_deadlines() == []  # the computer thinks for absent White
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # White is back: Black (computer) to move
    mover.hold.set()
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    stored = await s.storage.games.moves(record.id)
    assert stored[0].text == "h3-h4"
    assert [m.by_computer for m in stored] == [False, True]
    assert mover.levels == [1, 2]  # the absent player's strength, then the seat's level
    assert s.games.current(CHANNEL).turn is engine.Color.WHITE

async def test_move_clock_without_mover_loses_on_time(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "italian", move_seconds=300)
    await s.games.play(CHANNEL, ALICE, "22-18")
    clock.advance(timedelta(seconds=299))
    assert await s.games.run_deadlines() == []
    clock.advance(timedelta(seconds=1))
    [update] = await s.games.run_deadlines()
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is engine.Color.WHITE

async def test_a_computer_seat_moves_on_its_turn_and_never_loses_on_time(
    open_services: OpenServices,
) -> None:
    """A computer seat (`/play`) moves whenever it is its turn, at its own level; its
    moves never count as absences, and a move clock on its side never makes it lose."""

    clock = FakeClock()
    mover = FirstMove()
    s = await open_services(clock=clock, chooser=mover)
    turns: list[int] = []  # a second listener beside the computer's turns
    s.games.events.subscribe(TurnChanged, lambda event: turns.append(event.state.ply))
    variant = engine.get_variant("italian")
    record = await start_game(s, "italian", white=ALICE, black=Seat.computer(3), guild=None,
                              rated=False, move_seconds=40)
    await s.computer_idle()
    assert mover.calls == 0  # White (a person) to move
    for _ in range(4):
        position = s.games.current(CHANNEL).position
        await s.games.play(CHANNEL, ALICE, engine.format_move(
            engine.legal_moves(position, variant)[0], position, variant))
        if not s.games.has_game(CHANNEL):
            break
        clock.advance(timedelta(seconds=40))  # past Black's clock deadline
        [update] = await s.run_deadlines()  # the computer's move, not a loss on time
        assert update.move_text is not None and update.absent_moves is None
        if update.kind is UpdateKind.ENDED:
            assert update.state.ending is not None
            assert update.state.ending.reason is not EndReason.TIME_FORFEIT
            break
        assert update.kind is UpdateKind.COMPUTER_MOVED
        assert update.state.turn is engine.Color.WHITE
    assert mover.levels and set(mover.levels) == {3}
    assert turns[:3] == [0, 1, 2]
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.clock.black_computer_moves == 0
    moves = await s.storage.games.moves(record.id)
    assert [m.by_computer for m in moves] == [False, True] * (len(moves) // 2)


@pytest.mark.parametrize("days", [1, 2, 14])
async def test_a_correspondence_game_is_lost_on_time_without_computer_moves(
    open_services: OpenServices, days: int,
) -> None:
    """A move time of a day or more: when it passes, the player to move loses on time,
    even with the computer ready to play for absent players (docs/RULES.md,
    "Project-wide game rules", Time)."""
    clock = FakeClock()
    mover = FirstMove()
    s = await open_services(clock=clock, chooser=mover, absent=Strength(4, 0.5))
    await start_game(s, "turkish", move_seconds=days * 86400)
    await _first_moves(s, 4)
    assert s.games.next_deadline() == clock() + timedelta(days=days)
    clock.advance(timedelta(days=days) - timedelta(seconds=1))
    assert await s.run_deadlines() == []
    clock.advance(timedelta(seconds=1))
    [update] = await s.run_deadlines()
    assert update.kind is UpdateKind.ENDED and mover.calls == 0
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert ending.winner is engine.Color.BLACK  # White was to move
    assert not ending.unrated_early


async def test_the_inactivity_limit_never_ends_a_game_before_its_move_time(
    open_services: OpenServices,
) -> None:
    """A 7-day move time with a 3-day inactivity limit: the move time governs."""
    clock = FakeClock()
    s = await open_services(clock=clock, rules=GameRules(inactivity_limit=timedelta(days=3)))
    await start_game(s, "turkish", move_seconds=7 * 86400)
    await _first_moves(s, 1)
    assert s.games.next_deadline() == clock() + timedelta(days=7)
    clock.advance(timedelta(days=3))
    assert await s.games.run_deadlines() == []
    assert s.games.current(CHANNEL).turn is engine.Color.BLACK
    await _first_moves(s, 1)  # Black moves after three days, in time
    clock.advance(timedelta(days=7))
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
