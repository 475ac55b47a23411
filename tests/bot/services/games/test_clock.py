"""`bot.services.games.clock`: players' clocks with an increment (docs/PLAYING.md,
"Clocks"): the arithmetic, then through the game service on a real SQLite file: the
remaining times stored with each move, the loss on time by the deadlines, the computer's
seat's clock, a move after the flag fell, and a restart that counts the time it was down."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine
from bot.messages import Msg
from bot.services import EndReason, PlayerError, UpdateKind
from bot.services.games.clock import (
    CLOCK_PRESETS,
    after_move,
    flag_fell,
    parse_time_control,
    remaining,
    starting_clock,
    thinking_budget,
    time_control_text,
)
from engine import Color
from storage import GameResult, Seat, TimeControl
from tests.support.choosers import FirstMove
from tests.support.clock import FakeClock
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game

FIVE_THREE = TimeControl(5 * 60, 3)
NOON = datetime(2026, 1, 1, 12, tzinfo=UTC)


# --- the arithmetic ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "base", "increment"),
                         [("5+3", 300, 3), (" 10 + 5 ", 600, 5), ("3+0", 180, 0)])
def test_a_time_control_is_read_as_minutes_plus_seconds(
    text: str, base: int, increment: int
) -> None:
    assert parse_time_control(text) == TimeControl(base, increment)


@pytest.mark.parametrize("text", ["5", "0+3", "5+", "five+3", "181+0", "5+181", "5-3", ""])
def test_a_time_control_in_another_form_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_time_control(text)


def test_the_presets_read_back_as_they_are_written() -> None:
    for preset in CLOCK_PRESETS:
        assert time_control_text(parse_time_control(preset)) == preset
    assert time_control_text(TimeControl(90, 2)) == "90s+2"


def test_a_move_adds_the_increment_to_the_time_left_and_starts_the_opponents_clock() -> None:
    clock = starting_clock(FIVE_THREE, NOON)
    assert clock.deadline == NOON + timedelta(minutes=5)
    later = NOON + timedelta(seconds=20)
    after = after_move(clock, FIVE_THREE, Color.WHITE, later)
    assert after.white_left == timedelta(minutes=5) - timedelta(seconds=20 - 3)
    assert after.black_left == timedelta(minutes=5)
    assert after.deadline == later + timedelta(minutes=5)  # Black's clock runs
    assert remaining(after, Color.BLACK, Color.BLACK, later + timedelta(seconds=7)) == (
        timedelta(minutes=5) - timedelta(seconds=7))
    assert remaining(after, Color.WHITE, Color.BLACK, later + timedelta(seconds=7)) == (
        after.white_left)
    assert not flag_fell(after, later + timedelta(minutes=5) - timedelta(milliseconds=1))
    assert flag_fell(after, later + timedelta(minutes=5))


# --- through the game service -----------------------------------------------------------

async def test_each_move_stores_both_players_remaining_times(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    record = await start_game(s, "turkish", time_control=FIVE_THREE)
    assert record.time_control == FIVE_THREE and record.move_seconds is None
    assert record.clock.white_left == record.clock.black_left == timedelta(minutes=5)
    clock.advance(timedelta(seconds=30))
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    clock.advance(timedelta(seconds=10))
    update = await s.games.play(CHANNEL, BOB, "a6-a5")
    moves = await s.storage.games.moves(record.id)
    assert [(m.white_left, m.black_left) for m in moves] == [
        (timedelta(seconds=300 - 30 + 3), timedelta(seconds=300)),
        (timedelta(seconds=273), timedelta(seconds=300 - 10 + 3)),
    ]
    stored = await s.storage.games.get(record.id)
    assert stored is not None
    assert stored.clock.white_left == timedelta(seconds=273)
    assert stored.clock.black_left == timedelta(seconds=293)
    assert stored.clock.deadline == clock() + timedelta(seconds=273)  # White's runs
    assert update.state.clock == stored.clock and update.state.time_control == FIVE_THREE
    assert update.state.deadline == stored.clock.deadline


async def test_the_player_whose_clock_runs_out_loses_on_time(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "turkish", time_control=TimeControl(180, 2))
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    clock.advance(timedelta(seconds=179))
    assert await s.games.run_deadlines() == []
    await s.games.play(CHANNEL, BOB, "a6-a5")  # Black: 1 + 2 s left
    clock.advance(timedelta(seconds=182))  # White had 182 s
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert ending.winner is Color.BLACK and ending.result is GameResult.BLACK_WINS


async def test_a_clock_loss_is_not_played_by_the_computer_for_the_absent_player(
    open_services: OpenServices,
) -> None:
    """With a per-move time the computer moves for an absent player; with clocks the
    player whose time ran out loses at once, even where someone listens for absences."""
    clock = FakeClock()
    mover = FirstMove()
    s = await open_services(clock=clock, chooser=mover)
    await start_game(s, "turkish", time_control=TimeControl(180, 2))
    clock.advance(timedelta(seconds=180))
    [update] = await s.run_deadlines()
    assert update.kind is UpdateKind.ENDED and mover.calls == 0
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT


async def test_a_move_after_the_flag_fell_is_refused(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "turkish", time_control=TimeControl(180, 2))
    clock.advance(timedelta(seconds=180))
    with pytest.raises(PlayerError) as refused:
        await s.games.play(CHANNEL, ALICE, "a3-a4")
    assert refused.value.key is Msg.OUT_OF_TIME
    assert await s.storage.games.moves(s.games.current(CHANNEL).game_id) == []


async def test_the_computers_seat_has_a_clock_that_it_can_lose_on(
    open_services: OpenServices,
) -> None:
    """The computer's moves take time off its own clock (with its increment); if its
    clock ran out (say the bot was down on its turn) it loses on time like a person."""
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", white=ALICE, black=Seat.computer(1), guild=None,
                              rated=False, time_control=TimeControl(180, 2))
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    clock.advance(timedelta(seconds=5))
    mover.hold.set()
    await s.computer_idle()
    [_, reply] = await s.storage.games.moves(record.id)
    assert reply.by_computer and reply.black_left == timedelta(seconds=180 - 5 + 2)
    mover.hold.clear()  # the computer's next search lasts past its time
    state = s.games.current(CHANNEL)
    move = engine.legal_moves(state.position, state.variant)[0]
    await s.games.play(CHANNEL, ALICE, engine.format_move(move, state.position, state.variant,
                                                          full=True))
    clock.advance(timedelta(seconds=176))
    assert await s.games.run_deadlines() == []  # 1 s left
    clock.advance(timedelta(seconds=1))
    [update] = await s.games.run_deadlines()
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is Color.WHITE
    mover.hold.set()
    await s.computer_idle()
    assert len(await s.storage.games.moves(record.id)) == 3  # its late move was dropped


async def test_a_restart_counts_the_time_the_bot_was_down_against_the_player_to_move(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    await start_game(s, "turkish", time_control=FIVE_THREE)
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    before = s.games.current(CHANNEL)
    await s.close()
    clock.advance(timedelta(minutes=2))  # down while Black's clock ran
    s = await open_services(path, clock)
    after = s.games.current(CHANNEL)
    assert after.clock == before.clock and after.deadline == before.deadline
    assert after.clock is not None
    assert remaining(after.clock, Color.BLACK, after.turn, clock()) == timedelta(minutes=3)
    await s.games.play(CHANNEL, BOB, "a6-a5")
    stored = await s.storage.games.get(after.game_id)
    assert stored is not None and stored.clock.black_left == timedelta(minutes=3, seconds=3)
    assert engine.Color.WHITE is s.games.current(CHANNEL).turn


def test_the_computer_thinks_within_a_twentieth_of_its_clock() -> None:
    assert thinking_budget(2.0, timedelta(minutes=3)) == 2.0
    assert thinking_budget(2.0, timedelta(seconds=10)) == 0.5
    assert thinking_budget(2.0, timedelta(seconds=-1)) == 0.0


async def test_the_computers_turn_carries_the_time_left_on_its_clock(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", white=Seat.computer(1), black=ALICE, guild=None,
                              rated=False, time_control=TimeControl(180, 2))
    clock.advance(timedelta(seconds=30))
    turn = await s.games.computer_turn(CHANNEL, record.id)
    assert turn is not None and turn.time_left == timedelta(seconds=150)
    mover.hold.set()
    await s.computer_idle()


async def test_a_computer_move_chosen_after_its_flag_fell_is_not_played(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", white=Seat.computer(1), black=ALICE, guild=None,
                              rated=False, time_control=TimeControl(180, 2))
    clock.advance(timedelta(seconds=180))  # the search outlasted White's clock
    mover.hold.set()
    await s.computer_idle()
    assert await s.storage.games.moves(record.id) == []
    [update] = await s.games.run_deadlines()
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is Color.BLACK
