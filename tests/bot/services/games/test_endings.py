"""`bot.services.games.endings`: draw offers, abort, resign, and board presses that act
only at their ply, on a real SQLite file."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import engine
from bot.messages import Msg
from bot.services import (
    BoardRef,
    EndReason,
    PlayerError,
    StaleBoardError,
    UpdateKind,
)
from storage import GameResult, GameStatus
from tests.support.choosers import PATIENCE, FirstMove
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    OpenServices,
    start_game,
)


def error_key(info: pytest.ExceptionInfo[PlayerError]) -> Msg:
    return info.value.key

async def test_draw_offer_accept_and_lapse(open_services: OpenServices) -> None:
    s = await open_services()
    await start_game(s, "turkish")
    offered = await s.games.draw(CHANNEL, ALICE)
    assert offered.kind is UpdateKind.DRAW_OFFERED
    assert offered.state.draw_offer_by is engine.Color.WHITE
    with pytest.raises(PlayerError) as info:
        await s.games.draw(CHANNEL, ALICE)
    assert error_key(info) is Msg.DRAW_ALREADY_OFFERED
    # The offerer moves: the offer lapses.
    moved = await s.games.play(CHANNEL, ALICE, "a3-a4")
    assert moved.state.draw_offer_by is None
    await s.games.draw(CHANNEL, BOB)
    ended = await s.games.draw(CHANNEL, ALICE)
    assert ended.kind is UpdateKind.ENDED
    assert ended.state.ending is not None
    assert ended.state.ending.result is GameResult.DRAW
    assert ended.state.ending.reason is EndReason.AGREEMENT
    assert not s.games.has_game(CHANNEL)

async def test_abort_rules(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "arab")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    with pytest.raises(PlayerError) as info:
        await s.games.abort(CHANNEL, CAROL)
    assert error_key(info) is Msg.NOT_IN_GAME
    aborted = await s.games.abort(CHANNEL, BOB)  # Black has not moved yet
    assert aborted.state.ending is not None
    assert aborted.state.ending.reason is EndReason.ABORTED
    assert aborted.state.ending.result is None
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.ABORTED
    assert await s.storage.ratings.get(ALICE, "arab") is None  # no rating change
    await start_game(s, "arab")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.play(CHANNEL, BOB, "a6-a5")
    with pytest.raises(PlayerError) as info:
        await s.games.abort(CHANNEL, ALICE)
    assert error_key(info) is Msg.ABORT_TOO_LATE
    by_moderator = await s.games.abort(CHANNEL, CAROL, may_manage=True)
    assert by_moderator.state.ending is not None
    assert by_moderator.state.ending.by_user == CAROL

async def test_a_board_press_acts_only_at_the_ply_it_was_drawn_for(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # announced nowhere: no message id stored
    assert s.games.current(CHANNEL).board_message_id is None
    for board in (BoardRef(record.id, 0), BoardRef(record.id, 2)):
        with pytest.raises(StaleBoardError) as stale:
            await s.games.resign(CHANNEL, BOB, board=board)
        assert stale.value.key is Msg.STALE_BOARD
        assert stale.value.current.ply == 1 and stale.value.current.game_id == record.id
        with pytest.raises(StaleBoardError):
            await s.games.draw(CHANNEL, BOB, board=board)
    assert s.games.current(CHANNEL).draw_offer_by is None
    with pytest.raises(PlayerError) as info:
        await s.games.resign(CHANNEL, BOB, board=BoardRef(record.id + 99, 1))
    assert error_key(info) is Msg.GAME_OVER
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.ACTIVE
    update = await s.games.resign(CHANNEL, BOB, board=BoardRef(record.id, 1))
    assert update.state.ending is not None and update.state.ending.winner is engine.Color.WHITE

async def test_resign_during_an_absent_players_computer_move_is_answered_at_once(
    open_services: OpenServices,
) -> None:
    """The computer thinks for the absent player without holding the channel's lock: a
    resignation meanwhile is answered while the search still runs, and the move chosen
    for the abandoned position is dropped."""
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    assert await s.games.run_deadlines() == []  # White's turn handed to the computer
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    assert not s.games.table.locked(CHANNEL)
    update = await asyncio.wait_for(s.games.resign(CHANNEL, ALICE), PATIENCE)
    assert not mover.hold.is_set()  # answered while the computer was still thinking
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.RESIGNATION
    mover.hold.set()
    await s.computer_idle()
    assert await s.storage.games.moves(record.id) == []
    assert s.announced.updates == []  # no computer move was announced
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.termination == "resignation"
