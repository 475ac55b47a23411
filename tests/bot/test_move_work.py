"""Move work off the event loop (bot.move_work): ordinary positions in a worker thread,
positions with very many capture states in the worker process, with the same results and
the same refusals either way, through the game service on a real SQLite file."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

import engine
from bot.messages import Msg
from bot.move_work import STATE_BUDGET, MoveWork, heavy
from bot.services import PlayerError
from bot.services.games import parse_player_move
from storage import Seat
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game

TURKISH = engine.get_variant("turkish")
#: One white king against sixteen pieces (docs/RULES.md, set-up positions): 611,570
#: capture routes, tens of thousands of capture states.
WORST = "W:WKd2:Bb2,e2,a3,d3,g3,e4,c5,f5,b6,d6,g6,h6,a7,e7,Kb8,Kf8"
#: Black's quiet move d4-d1 leads to such a capture for White.
QUIET = "B:WKc8:Be2,a3,c3,b4,a5,h5,b6,c7,g7,Kb2,Kf3,Kd4,Kg4,Ke5,Kf6,Kb7"


def test_heavy_is_decided_by_the_state_budget() -> None:
    worst = engine.Position.from_fen(WORST, TURKISH)
    quiet = engine.Position.from_fen(QUIET, TURKISH)  # no capture for Black
    start = engine.Position.start(TURKISH)
    assert heavy([(worst, TURKISH)])
    assert not heavy([(quiet, TURKISH)]) and not heavy([(start, TURKISH)])
    assert heavy([(start, TURKISH), (worst, TURKISH)])
    # A single jump is one state past the start: over a budget of 0, not of 1 or more.
    one = engine.Position.from_fen("W:Wd4:Bd5", TURKISH)
    assert heavy([(one, TURKISH)], budget=0)
    assert not heavy([(one, TURKISH)], budget=STATE_BUDGET)


#: The slowest International position benchmarks/movegen.py's hill climber found
#: (docs/BENCHMARKS.md): a flying king against twenty pieces, kings among them.
INTERNATIONAL_WORST = (
    "W:WKa1:Bb2,d2,h2,a3,e3,g3,c5,c7,e7,i7,b8,f8,j8,g9,i9,b10,Kb4,Ke5,Kg5,Kh6"
)


def test_heavy_weighs_positions_of_the_10x10_board() -> None:
    # The same weighing on the 10×10 board: a single jump is a state or two, the worst
    # International capture found over a thousand (docs/BENCHMARKS.md).
    international = engine.get_variant("international")
    one = engine.Position.from_fen("W:Wd4:Be5", international)
    assert heavy([(one, international)], budget=0)
    assert not heavy([(one, international)], budget=10)
    worst = engine.Position.from_fen(INTERNATIONAL_WORST, international)
    assert heavy([(worst, international)], budget=1_000)
    assert not heavy([(worst, international)], budget=10_000)


async def test_the_worst_capture_is_played_in_the_worker_process(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await start_game(s, "turkish", WORST)
    update = await s.games.play(CHANNEL, ALICE, "d2xa1")
    position = engine.Position.from_fen(WORST, TURKISH)
    move = engine.parse_move("d2xa1", position, TURKISH)
    after = engine.apply_move(position, move, TURKISH)
    # loading the game from its set-up start, parsing and writing the move went to the
    # process; the position after it (no black piece left) has no capture, so the game
    # advanced in a thread
    assert s.games.move_work.in_process_calls == 3
    assert update.state.position == after and update.state.ply == 1
    assert update.move_text == engine.format_move(move, position, TURKISH)
    stored = await s.storage.games.moves(update.state.game_id)
    assert [m.text for m in stored] == [engine.format_move(move, position, TURKISH, full=True)]
    assert update.state.is_over  # every black piece taken


async def test_a_quiet_move_into_a_heavy_position_advances_in_the_process(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await start_game(s, "turkish", QUIET)
    update = await s.games.play(CHANNEL, BOB, "d4-d1")
    assert s.games.move_work.in_process_calls == 1  # only the game's advance
    before = engine.Position.from_fen(QUIET, TURKISH)
    after = engine.apply_move(before, engine.parse_move("d4-d1", before, TURKISH), TURKISH)
    assert update.state.position == after
    # the live game (a copy played in the process) lists the new position's moves
    _, game = await s.games.game_of(update.state.game_id)
    assert game.ply == 1
    assert game.legal_moves() == engine.legal_moves(after, TURKISH)
    # and plays on: White's capture, read and written in the process
    capture = engine.legal_moves(after, TURKISH)[0]
    assert heavy([(engine.apply_move(after, capture, TURKISH), TURKISH)]) is False
    await s.games.play(CHANNEL, ALICE, engine.format_move(capture, after, TURKISH, full=True))
    assert s.games.move_work.in_process_calls == 3
    stored = await s.storage.games.moves(update.state.game_id)
    assert len(stored) == 2


async def test_a_refusal_in_the_process_is_the_refusal_in_a_thread(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await start_game(s, "turkish", WORST)
    position = engine.Position.from_fen(WORST, TURKISH)
    with pytest.raises(PlayerError) as local:
        parse_player_move("d2xa1xa8", position, TURKISH)
    with pytest.raises(PlayerError) as remote:
        await s.games.play(CHANNEL, ALICE, "d2xa1xa8")
    assert remote.value.key is local.value.key is Msg.MOVE_MUST_CAPTURE
    assert dict(remote.value.params) == dict(local.value.params)
    assert s.games.move_work.in_process_calls == 2  # loading the game, parsing the move
    assert s.games.current(CHANNEL).ply == 0  # nothing changed


async def test_ordinary_positions_stay_in_worker_threads(open_services: OpenServices) -> None:
    s = await open_services()
    await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.play(CHANNEL, BOB, "a6-a5")
    assert s.games.move_work.in_process_calls == 0
    assert s.games.current(CHANNEL).ply == 2


async def test_close_without_a_process_and_twice() -> None:
    work = MoveWork()
    await work.close()
    assert await work.in_process(sum, [1, 2, 3]) == 6
    await work.close()
    await work.close()


async def test_the_computers_copy_of_a_heavy_game_is_made_in_the_process(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish", WORST, white=Seat.computer(1), black=BOB,
                              guild=None, rated=False)  # loaded in the process: 1
    turn = await s.games.computer_turn(CHANNEL, record.id)
    assert turn is not None and turn.level == 1 and turn.ply == 0
    assert s.games.move_work.in_process_calls == 2
    _, live = await s.games.game_of(record.id)
    assert turn.game.position == live.position == engine.Position.from_fen(WORST, TURKISH)
    assert turn.game.legal_moves() == engine.legal_moves(live.position, TURKISH)


def _kill_worker(work: MoveWork) -> None:
    """Kill the worker process with SIGKILL, as the out-of-memory killer would."""
    executor = work._executor
    assert executor is not None
    processes = list(executor._processes.values())
    assert processes
    for process in processes:
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
        process.join(10)


async def test_a_worker_process_killed_between_requests_is_replaced() -> None:
    work = MoveWork()
    try:
        await work.warm()
        _kill_worker(work)
        assert await work.in_process(sum, [1, 2, 3]) == 6
    finally:
        await work.close()


async def test_a_worker_process_killed_mid_request_is_replaced_and_the_request_done() -> None:
    work = MoveWork()
    try:
        await work.warm()
        request = asyncio.ensure_future(work.in_process(time.sleep, 0.5))
        await asyncio.sleep(0.1)  # the request is in the worker process
        _kill_worker(work)
        await request  # run again in a new worker process, instead of BrokenProcessPool
        assert await work.in_process(sum, [4, 5]) == 9
    finally:
        await work.close()


async def test_the_game_goes_on_after_its_worker_process_died(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await start_game(s, "turkish", WORST)
    _kill_worker(s.games.move_work)  # started by loading the heavy game
    update = await s.games.play(CHANNEL, ALICE, "d2xa1")
    assert update.state.ply == 1 and update.state.is_over


async def test_two_requests_cut_by_one_death_both_finish_in_one_new_process() -> None:
    work = MoveWork()
    try:
        await work.warm()
        first = asyncio.ensure_future(work.in_process(time.sleep, 0.5))
        second = asyncio.ensure_future(work.in_process(time.sleep, 0.5))
        await asyncio.sleep(0.1)
        _kill_worker(work)
        await asyncio.gather(first, second)  # both run again, neither BrokenProcessPool
    finally:
        await work.close()


async def test_warm_starts_the_worker_process_and_close_stops_it() -> None:
    work = MoveWork()
    assert not work.ready
    try:
        await work.warm()
        assert work.ready and work.in_process_calls == 0
    finally:
        await work.close()
    assert not work.ready
