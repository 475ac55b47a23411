"""`bot.services.games.recovery`: a restart continues the games, ends those whose stored
moves already ended them, and shows each owed board before the game goes on, on a real
SQLite file."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.messages import Msg
from bot.services import EndReason, GameRules, PlayerError, UpdateKind
from storage import GameResult, GameStatus, NewGame, Seat, Storage
from tests.support.choosers import FORCED, PATIENCE, FirstMove
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OpenServices,
    start_game,
)


def error_key(info: pytest.ExceptionInfo[PlayerError]) -> Msg:
    return info.value.key


async def test_restart_continues_the_game(tmp_path: Path, open_services: OpenServices) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.draw(CHANNEL, ALICE)
    before = s.games.current(CHANNEL)
    await s.close()
    s = await open_services(path, clock)
    after = s.games.current(CHANNEL)
    assert after.position == before.position and after.ply == 1
    assert after.last_move_text == "a3-a4"
    assert after.draw_offer_by is engine.Color.WHITE
    assert after.deadline == before.deadline
    update = await s.games.play(CHANNEL, BOB, "a6-a5")
    assert update.state.ply == 2

async def test_a_game_stored_active_after_its_ending_move_is_ended_at_restore(
    tmp_path: Path, open_services: OpenServices
) -> None:
    """A database left by a crash between a move and its game's end (written before the
    two were one transaction): the last stored move ends the game by the rules while the
    row is still active. Restoring ends it with the rules' result, rated once; a second
    restore changes nothing."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    fen, move = FORCED["turkish"]
    storage = await Storage.open(path, clock=clock)
    try:
        record = await storage.games.create(NewGame(
            variant="turkish", channel_id=CHANNEL, guild_id=GUILD, white=Seat.human(ALICE),
            black=Seat.human(BOB), start_fen=fen, rated=True,
        ))
        await storage.games.append_move(record.id, ply=1, text=move)
    finally:
        await storage.close()
    clock.advance(timedelta(hours=1))

    s = await open_services(path, clock)
    assert not s.games.has_game(CHANNEL)
    ended = await s.storage.games.get(record.id)
    assert ended is not None and ended.status is GameStatus.FINISHED
    assert ended.result is GameResult.WHITE_WINS and ended.termination == "no_pieces"
    assert ended.ply_count == 1
    white = await s.storage.ratings.get(ALICE, "turkish")
    black = await s.storage.ratings.get(BOB, "turkish")
    assert white is not None and black is not None
    assert (white.rated_games, white.wins, black.rated_games, black.losses) == (1, 1, 1, 1)
    assert white.rating > 1500 > black.rating
    # Nothing can be played or resigned in the ended game: the result stands.
    for attempt in (s.games.play(CHANNEL, BOB, "d5-d4"), s.games.resign(CHANNEL, ALICE),
                    s.games.draw(CHANNEL, BOB)):
        with pytest.raises(PlayerError) as info:
            await attempt
        assert error_key(info) is Msg.GAME_ENDED_HERE
    await s.close()

    s = await open_services(path, clock)
    assert await s.storage.games.get(record.id) == ended
    assert await s.storage.ratings.get(ALICE, "turkish") == white
    assert await s.storage.ratings.get(BOB, "turkish") == black
    assert [m.text for m in await s.storage.games.moves(record.id)] == [move]
    assert not s.games.has_game(CHANNEL)

async def test_restart_finishes_a_game_whose_stored_last_move_ended_it(
    tmp_path: Path, open_services: OpenServices
) -> None:
    """The bot stored a move that ends the game by the rules and was killed before storing
    the result (two transactions): after the restart the game is finished with the rules'
    result (and its rating change), not left active with no legal move for anyone."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    record = await start_game(s, "turkish", "W:Wa2,d3:Bd4")
    await s.storage.games.append_move(record.id, ply=1, text="d3xd5")  # killed here
    await s.close()
    s = await open_services(path, clock)
    assert not s.games.has_game(CHANNEL)
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert stored.result is GameResult.WHITE_WINS and stored.termination == "no_pieces"
    assert stored.white_rating is not None  # the rated game's rating change is stored


async def test_the_computers_reply_after_a_restart_comes_after_the_owed_board_it_answers(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    """A player's move in a computer game stored just before a crash (its board never
    posted) is shown first at the restart; only then does the computer reply."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)  # no computer: its turn stays pending
    record = await start_game(s, "turkish", white=ALICE, black=Seat.computer(1),
                              rated=False)
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # stored; the crash comes before its board
    await s.close()

    s = await open_services(path, clock, chooser=FirstMove())  # restart: restore()
    await asyncio.wait_for(s.computer_idle(), PATIENCE)  # the start-up's other work
    posted = await s.games.post_owed_boards(s.announced)
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    assert [(u.kind, u.state.ply) for u in posted] == [(UpdateKind.SHOWN, 1)]
    assert [(u.kind, u.state.ply) for u in s.announced.updates] == [
        (UpdateKind.SHOWN, 1), (UpdateKind.COMPUTER_MOVED, 2)]
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.ply_count == 2 and not stored.board_owed


async def test_owed_boards_posted_a_few_at_a_time_keep_the_others_and_their_turns_owed(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    """`at_most` posts that many owed boards and leaves the others, and the computer's
    turn in their games, to the next call (the bot posts the first ones before it
    connects and the others after)."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)  # no computer: its turn stays pending
    people = await start_game(s, "turkish")
    computer = await start_game(s, "turkish", white=ALICE, black=Seat.computer(1),
                                channel=CHANNEL + 1, rated=False)
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # both stored, neither board posted
    await s.games.play(CHANNEL + 1, ALICE, "a3-a4")
    await s.close()

    s = await open_services(path, clock, chooser=FirstMove())  # restart: restore()
    first = await s.games.post_owed_boards(s.announced, at_most=1)
    assert [u.state.game_id for u in first] == [people.id]
    assert s.games.owed_left
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    assert [u.state.game_id for u in s.announced.updates] == [people.id]  # no reply yet
    waiting = await s.storage.games.get(computer.id)
    assert waiting is not None and waiting.board_owed and waiting.ply_count == 1

    rest = await s.games.post_owed_boards(s.announced)
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    assert not s.games.owed_left
    assert [(u.kind, u.state.ply) for u in rest] == [(UpdateKind.SHOWN, 1)]
    assert [(u.state.game_id, u.kind) for u in s.announced.updates] == [
        (people.id, UpdateKind.SHOWN), (computer.id, UpdateKind.SHOWN),
        (computer.id, UpdateKind.COMPUTER_MOVED)]


async def test_a_move_answered_while_its_board_is_owed_clears_the_debt(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    """A move in a game whose board is still owed (posted in the background after the
    bot connects) is answered with the current board, which pays the debt: the owed
    board is not posted after it."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    record = await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # stored; the crash comes before its board
    await s.close()

    s = await open_services(path, clock)
    answered = await s.games.play(CHANNEL, BOB, "a6-a5", announce=s.announced)
    assert answered.state.ply == 2
    stored = await s.storage.games.get(record.id)
    assert stored is not None and not stored.board_owed
    assert await s.games.post_owed_boards(s.announced) == []
    assert [u.state.ply for u in s.announced.updates] == [2]


async def test_a_dormant_game_is_loaded_when_its_channel_is_first_used(
    open_services: OpenServices,
) -> None:
    """A start-up with more games than `dormant_over` replays none of the games only
    people play: each is read from its record until its channel is first used, then
    loaded and played on as if it had been loaded at the start."""
    s = await open_services()
    first = await start_game(s, "turkish")
    second = await start_game(s, "turkish", white=CAROL, black=BOB, channel=CHANNEL + 1)
    await s.storage.games.settle_board(second.id)  # its board shown
    await s.games.play(CHANNEL, ALICE, "a3-a4", announce=s.announced)
    before = s.games.current(CHANNEL)

    assert await s.games.restore(dormant_over=1) == []  # nothing replayed
    assert s.games.table.is_dormant(CHANNEL) and s.games.table.is_dormant(CHANNEL + 1)
    assert s.games.has_game(CHANNEL) and s.games.is_active(first.id)
    assert s.games.players_in(CHANNEL + 1) == (CAROL, BOB)
    assert s.games.suggestion_source(CHANNEL, BOB) is None  # not loaded: nothing offered

    await s.games.awake(CHANNEL)
    assert s.games.current(CHANNEL) == before
    played = await s.games.play(CHANNEL, BOB, "a6-a5", announce=s.announced)
    assert played.state.ply == 2
    assert s.games.table.is_dormant(CHANNEL + 1) and s.games.is_active(second.id)
    resigned = await s.games.resign(CHANNEL + 1, CAROL, announce=s.announced)
    assert resigned.state.ending is not None and not s.games.has_game(CHANNEL + 1)


async def test_a_dormant_game_whose_moves_no_longer_replay_is_quarantined_when_used(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    await start_game(s, "turkish", white=CAROL, black=BOB, channel=CHANNEL + 1)
    await s.games.play(CHANNEL + 1, CAROL, "a3-a4", announce=s.announced)
    await s.games.play(CHANNEL, ALICE, "a3-a4", announce=s.announced)
    # Stored behind the service's back, and shown: a man cannot go four squares.
    await s.storage.games.append_move(record.id, ply=2, text="b3-b7")
    await s.storage.games.settle_board(record.id)

    await s.games.restore(dormant_over=1)
    assert s.games.table.is_dormant(CHANNEL)
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, BOB, "a6-a5", announce=s.announced)
    assert error_key(info) is Msg.GAME_QUARANTINED
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.quarantined and stored.ply_count == 2


async def test_a_dormant_games_deadline_is_kept_and_ends_it(
    open_services: OpenServices,
) -> None:
    clock = FakeClock()
    rules = GameRules(inactivity_limit=timedelta(days=3))
    s = await open_services(clock=clock, rules=rules)
    record = await start_game(s, "moroccan")
    await start_game(s, "moroccan", white=CAROL, black=BOB, channel=CHANNEL + 1)
    await s.games.play(CHANNEL, ALICE, "b3-a4", announce=s.announced)
    deadline = clock() + timedelta(days=3)
    clock.advance(timedelta(hours=1))
    await s.games.play(CHANNEL + 1, CAROL, "b3-a4", announce=s.announced)

    await s.games.restore(dormant_over=1)
    assert s.games.table.is_dormant(CHANNEL)
    assert s.games.next_deadline() == deadline
    clock.advance(timedelta(days=3) - timedelta(hours=1))
    [ended] = await s.games.run_deadlines()
    assert ended.state.game_id == record.id and ended.state.ending is not None
    assert ended.state.ending.reason is EndReason.INACTIVITY
    assert s.games.table.is_dormant(CHANNEL + 1)  # not due: still not loaded


async def test_a_dormant_games_owed_board_is_posted_once(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    await start_game(s, "turkish", white=CAROL, black=BOB, channel=CHANNEL + 1)
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # stored; its board never shown
    assert await s.games.restore(dormant_over=1) == []
    assert s.games.table.is_dormant(CHANNEL)

    posted = await s.games.post_owed_boards(s.announced)
    assert [(u.state.game_id, u.kind, u.state.ply) for u in posted if u.state.ply] == [
        (record.id, UpdateKind.SHOWN, 1)]
    assert not s.games.table.is_dormant(CHANNEL)
    assert await s.games.post_owed_boards(s.announced) == []
    stored = await s.storage.games.get(record.id)
    assert stored is not None and not stored.board_owed
