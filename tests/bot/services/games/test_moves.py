"""`bot.services.games.moves`: moves and their commits on a real SQLite file: whole games
in every variant, refusals, a race, a failed commit, the computer's moves."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.messages import Msg
from bot.services import (
    EndReason,
    GameUpdate,
    PlayerError,
    UpdateKind,
)
from engine.pdn import read_pdn
from storage import Cause, GameResult, GameStatus, StorageWriteError
from tests.support.choosers import FORCED, PATIENCE, FirstMove
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    OpenServices,
    start_game,
)

DATA = Path(__file__).resolve().parents[3] / "data" / "italian-assoluto-2005-rounds-1-3.pdn"


def error_key(info: pytest.ExceptionInfo[PlayerError]) -> Msg:
    return info.value.key

@pytest.mark.parametrize("variant", sorted(FORCED))
async def test_forced_win_in_every_variant_updates_ratings_once(
    open_services: OpenServices, variant: str
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    fen, move = FORCED[variant]
    record = await start_game(s, variant, fen)
    update = await s.games.play(CHANNEL, ALICE, move)
    assert update.kind is UpdateKind.ENDED
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.NO_PIECES
    assert update.state.ending.result is GameResult.WHITE_WINS
    assert update.move_text == move
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert stored.termination == "no_pieces"
    white = await s.storage.ratings.get(ALICE, variant)
    black = await s.storage.ratings.get(BOB, variant)
    assert white is not None and black is not None
    assert (white.rated_games, white.wins, black.rated_games, black.losses) == (1, 1, 1, 1)
    assert white.rating > 1500 > black.rating
    assert update.state.white.change is not None and update.state.white.change.delta > 0
    # The game is gone from the channel; nothing more can be played or counted twice.
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, BOB, "a1-a2")
    assert error_key(info) is Msg.GAME_ENDED_HERE
    assert info.value.params["game_id"] == record.id
    white_again = await s.storage.ratings.get(ALICE, variant)
    assert white_again is not None and white_again.rated_games == 1

async def test_real_italian_game_from_the_start_then_resignation(
    open_services: OpenServices,
) -> None:
    """Game 1 of the Italian championship file, move by move, then the loser resigns."""
    record_game = read_pdn(DATA.read_text(encoding="utf-8"), variant="italian")[0]
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "italian")
    replay = engine.Game(record_game.variant)
    for move in record_game.game.moves:
        text = engine.format_move(move, replay.position, replay.variant)
        player = ALICE if replay.position.turn is engine.Color.WHITE else BOB
        update = await s.games.play(CHANNEL, player, text)
        replay.play(move)
        clock.advance(timedelta(seconds=5))
        assert update.state.position == replay.position
        if update.kind is UpdateKind.ENDED:
            break
    else:
        result = record_game.result
        loser = BOB if result.token == "1-0" else ALICE
        if result.token == "1/2-1/2":
            await s.games.draw(CHANNEL, ALICE)
            update = await s.games.draw(CHANNEL, BOB)
            assert update.state.ending is not None
            assert update.state.ending.reason is EndReason.AGREEMENT
        else:
            update = await s.games.resign(CHANNEL, loser)
            assert update.state.ending is not None
            assert update.state.ending.reason is EndReason.RESIGNATION
            assert update.state.ending.result is GameResult(result.token)
    stored_moves = await s.storage.games.moves(update.state.game_id)
    assert len(stored_moves) == len(record_game.game.moves)

async def test_move_refusals_say_why_and_change_nothing(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, ALICE, "d3-d4")
    assert error_key(info) is Msg.NO_GAME_HERE
    record = await start_game(s, "turkish")
    cases = [
        (BOB, "a6-a5", Msg.NOT_YOUR_TURN),
        (CAROL, "a3-a4", Msg.NOT_IN_GAME),
        (ALICE, "hello", Msg.MOVE_NOT_A_MOVE),
        (ALICE, "a3-a5", Msg.MOVE_PIECE_CANNOT_GO_THERE),
        (ALICE, "a2-a3", Msg.MOVE_PIECE_STUCK),
    ]
    for user, text, key in cases:
        with pytest.raises(PlayerError) as info:
            await s.games.play(CHANNEL, user, text)
        assert error_key(info) is key, text
    assert await s.storage.games.moves(record.id) == []
    update = await s.games.play(CHANNEL, ALICE, "A3 a4")
    assert update.move_text == "a3-a4"
    assert update.state.ply == 1 and update.state.turn is engine.Color.BLACK

async def test_ambiguous_capture_lists_the_candidates(open_services: OpenServices) -> None:
    # Italian: d3 can take c4 and e4 and reach d7 either way (the example of docs/ENGINE.md,
    # "PDN and command line").
    s = await open_services()
    await start_game(s, "italian", "W:Wd3,h1:Bc4,c6,e4,e6")
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, ALICE, "d3xd7")
    assert error_key(info) is Msg.MOVE_AMBIGUOUS
    # Numbered as the federation does (d3 = 22, b5 = 13, f5 = 15, d7 = 6), letters beside.
    assert info.value.params["candidates"] == "22x13x6 (d3xb5xd7), 22x15x6 (d3xf5xd7)"
    update = await s.games.play(CHANNEL, ALICE, "d3xb5xd7")
    assert update.state.ply == 1

async def test_two_moves_at_once_apply_one(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    results = await asyncio.gather(
        s.games.play(CHANNEL, ALICE, "a3-a4"),
        s.games.play(CHANNEL, ALICE, "b3-b4"),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, GameUpdate)]
    refused = [r for r in results if isinstance(r, PlayerError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].key is Msg.NOT_YOUR_TURN
    assert len(await s.storage.games.moves(record.id)) == 1

async def test_a_failed_ending_step_leaves_the_game_playable(
    open_services: OpenServices,
) -> None:
    """When the step that ends a game is refused (here another program holds the write
    lock), nothing of it is stored and the game in memory is where it was: the move can
    be sent again."""
    s = await open_services()
    fen, move = FORCED["turkish"]
    record = await start_game(s, "turkish", fen)
    async with s.storage.db.read() as conn:
        await conn.fetchval("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(s.storage.db.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageWriteError) as caught:
            await s.games.play(CHANNEL, ALICE, move)
        assert caught.value.cause is Cause.LOCKED
        other.execute("ROLLBACK")
    finally:
        other.close()
    state = s.games.current(CHANNEL)
    assert state.ply == 0 and state.status is GameStatus.ACTIVE
    assert await s.storage.games.moves(record.id) == []
    assert await s.storage.ratings.get(ALICE, "turkish") is None
    update = await s.games.play(CHANNEL, ALICE, move)
    assert update.kind is UpdateKind.ENDED and update.state.ply == 1

async def test_a_move_is_played_on_the_live_game_off_the_event_loop(
    open_services: OpenServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Playing a move on the live game runs in a worker thread (the next position's moves
    may take long to list): meanwhile the event loop answers others, and readers without
    the channel's lock see no half-played game (no suggestions, no computer turn)."""
    import threading

    s = await open_services()
    await start_game(s, "turkish")
    inside, release = threading.Event(), threading.Event()
    loop_thread = threading.get_ident()
    threads: list[int] = []
    play = engine.Game.play

    def slow_play(game: engine.Game, move: engine.Move | str) -> engine.Move:
        threads.append(threading.get_ident())
        inside.set()
        release.wait(30)
        return play(game, move)

    monkeypatch.setattr(engine.Game, "play", slow_play)
    moving = asyncio.create_task(s.games.play(CHANNEL, ALICE, "c3-c4"))
    await asyncio.wait_for(asyncio.to_thread(inside.wait, 30), 30)
    # The loop runs while the move is being played; the game is left alone meanwhile.
    assert s.games.suggestion_source(CHANNEL, BOB) is None
    assert s.games.suggestion_source(CHANNEL, ALICE) is None
    assert await s.games.computer_turn(CHANNEL, s.games.current(CHANNEL).game_id) is None
    release.set()
    update = await asyncio.wait_for(moving, 30)
    assert threads and all(t != loop_thread for t in threads)
    assert update.state.ply == 1 and update.move_text == "c3-c4"
    assert s.games.suggestion_source(CHANNEL, BOB) is not None

async def test_a_computer_move_for_a_position_the_game_left_is_dropped(
    open_services: OpenServices,
) -> None:
    """The absent player comes back and moves while the computer thinks for them: the
    computer's move, chosen for the earlier position, is not played."""
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    await s.games.run_deadlines()
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # White is back in time for its own move
    mover.hold.set()
    await s.computer_idle()
    stored = await s.storage.games.moves(record.id)
    assert [(m.text, m.by_computer) for m in stored] == [("h3-h4", False)]
    assert s.games.current(CHANNEL).ply == 1 and s.announced.updates == []
