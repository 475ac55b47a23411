"""Move clocks (docs/RULES.md, "Project-wide game rules", Time): with an injected clock, an
expired per-move time makes the real computer player (process pool, level 1, short budget,
through the computer's turn runner) move for the absent player; after the configured number
of such moves in a row that player loses on time; a move of their own resets the count;
deadlines and counts survive a restart.

No assertion depends on how long anything takes: the clock is a `FakeClock` and the
computer's moves are checked for legality by replaying them with the engine."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import engine
from bot.computer import ComputerPlayer, PoolMoveChooser
from bot.config import settings_from
from bot.services import EndReason, GameRules, GameUpdate, UpdateKind
from bot.services.game_words import numeric_text
from bot.ui.present import Presenter
from tests.support.clock import FakeClock
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, Services, start_game

MOVE_SECONDS = 40


async def services(open_services: OpenServices, clock: FakeClock, computer: ComputerPlayer,
                   limit: int = 3, path: Path | None = None) -> Services:
    return await open_services(path, clock, chooser=PoolMoveChooser(computer),
                               rules=GameRules(computer_moves_before_forfeit=limit))


async def expire(s: Services) -> GameUpdate:
    """Let the side to move's clock run out; the one update it causes."""
    s.clock.advance(timedelta(seconds=MOVE_SECONDS))
    [update] = await s.run_deadlines()
    return update


async def first_legal(s: Services) -> str:
    state = s.games.current(CHANNEL)
    move = engine.legal_moves(state.position, state.variant)[0]
    return engine.format_move(move, state.position, state.variant)


async def assert_replays(s: Services, game_id: int) -> list[bool]:
    """Every stored move is legal in order (the engine replays them); returns which ones the
    computer played."""
    record, game = await s.games.game_of(game_id)
    stored = await s.storage.games.moves(game_id)
    assert game.ply == len(stored) == record.ply_count
    return [m.by_computer for m in stored]


async def test_before_the_deadline_nothing_happens(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    deadline = s.games.current(CHANNEL).deadline
    assert deadline == clock() + timedelta(seconds=MOVE_SECONDS)
    clock.advance(timedelta(seconds=MOVE_SECONDS - 1))
    assert await s.run_deadlines() == []
    assert s.games.current(CHANNEL).ply == 0


async def test_expiry_makes_the_computer_move_for_the_absent_player(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    record = await start_game(s, "italian", move_seconds=MOVE_SECONDS)
    update = await expire(s)
    assert update.kind is UpdateKind.COMPUTER_MOVED
    assert update.absent_moves == (1, 3)
    assert update.state.ply == 1 and update.state.turn is engine.Color.BLACK
    # The next deadline is Black's, a full move time from the computer's move.
    assert update.state.deadline == clock() + timedelta(seconds=MOVE_SECONDS)
    assert await assert_replays(s, record.id) == [True]
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.clock.white_computer_moves == 1
    # The channel is told who was absent, the move, and the count.
    headline = Presenter().headline(update, None)
    assert f"<@{ALICE}>" in headline and update.move_text is not None
    # An Italian move is shown in the federation's numbers by default.
    italian = engine.get_variant("italian")
    assert numeric_text(update.move_text, italian) in headline and "in a row: 1/3" in headline


async def test_forfeit_after_the_configured_number_in_a_row(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    record = await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    for count in (1, 2, 3):
        update = await expire(s)  # White is absent
        assert update.kind is UpdateKind.COMPUTER_MOVED and update.absent_moves == (count, 3)
        await s.games.play(CHANNEL, BOB, await first_legal(s))  # Black moves in time
    update = await expire(s)  # a fourth time: White loses on time
    assert update.kind is UpdateKind.ENDED
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert ending.winner is engine.Color.BLACK
    assert await assert_replays(s, record.id) == [True, False] * 3
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.termination == engine.Termination.TIME_FORFEIT.value
    assert not s.games.has_game(CHANNEL)


async def test_the_limit_is_a_setting(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    assert settings_from({}).computer_moves_before_forfeit == 3
    limit = settings_from({"DAMA_COMPUTER_MOVES_BEFORE_FORFEIT": "1"})
    assert limit.computer_moves_before_forfeit == 1
    clock = FakeClock()
    s = await services(open_services, clock, computer, limit=1)
    await start_game(s, "arab", move_seconds=MOVE_SECONDS)
    update = await expire(s)
    assert update.kind is UpdateKind.COMPUTER_MOVED and update.absent_moves == (1, 1)
    await s.games.play(CHANNEL, BOB, await first_legal(s))
    update = await expire(s)
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT


async def test_a_move_of_ones_own_resets_the_count(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    record = await start_game(s, "moroccan", move_seconds=MOVE_SECONDS)
    for count in (1, 2):
        update = await expire(s)
        assert update.absent_moves == (count, 3)
        await s.games.play(CHANNEL, BOB, await first_legal(s))
    await s.games.play(CHANNEL, ALICE, await first_legal(s))  # White is back
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.clock.white_computer_moves == 0
    await s.games.play(CHANNEL, BOB, await first_legal(s))
    update = await expire(s)  # absent again: counting starts over
    assert update.kind is UpdateKind.COMPUTER_MOVED and update.absent_moves == (1, 3)


async def test_both_sides_are_counted_separately(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    record = await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    assert (await expire(s)).absent_moves == (1, 3)  # White absent
    assert (await expire(s)).absent_moves == (1, 3)  # Black absent too
    assert (await expire(s)).absent_moves == (2, 3)  # White again
    stored = await s.storage.games.get(record.id)
    assert stored is not None
    assert (stored.clock.white_computer_moves, stored.clock.black_computer_moves) == (2, 1)
    assert await assert_replays(s, record.id) == [True, True, True]


async def test_restart_with_a_pending_deadline(
    tmp_path: Path, open_services: OpenServices, computer: ComputerPlayer
) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await services(open_services, clock, computer, path=path)
    record = await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    for _ in range(2):
        await expire(s)  # White absent twice
        await s.games.play(CHANNEL, BOB, await first_legal(s))
    deadline = s.games.current(CHANNEL).deadline
    await s.close()

    clock.advance(timedelta(seconds=MOVE_SECONDS + 5))  # the bot was down past the deadline
    s = await services(open_services, clock, computer, path=path)
    state = s.games.current(CHANNEL)
    assert state.deadline == deadline and s.games.next_deadline() == deadline
    [update] = await s.run_deadlines()  # the stored deadline is acted on
    assert update.kind is UpdateKind.COMPUTER_MOVED and update.absent_moves == (3, 3)
    await s.games.play(CHANNEL, BOB, await first_legal(s))
    update = await expire(s)
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is engine.Color.BLACK
    assert await assert_replays(s, record.id) == [True, False] * 3


async def test_a_player_who_never_moved_loses_on_time_unrated(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    # docs/RULES.md, "Early results": each side must have made two moves of its own; the
    # computer's moves for an absent player are not theirs. Six plies, all of White's by
    # the computer: White's forfeit keeps its result but moves no rating (otherwise a
    # friend who never moves hands out rated wins in a few minutes).
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    record = await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    assert record.rated
    for _ in range(3):
        await expire(s)  # White is absent
        await s.games.play(CHANNEL, BOB, await first_legal(s))
    update = await expire(s)
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ply == 6 and ending.unrated_early
    for user in (ALICE, BOB):
        assert await s.storage.ratings.get(user, "turkish") is None


async def test_two_moves_of_ones_own_each_rate_a_forfeit(
    open_services: OpenServices, computer: ComputerPlayer
) -> None:
    clock = FakeClock()
    s = await services(open_services, clock, computer)
    await start_game(s, "turkish", move_seconds=MOVE_SECONDS)
    for _ in range(2):  # two moves of each side's own
        await s.games.play(CHANNEL, ALICE, await first_legal(s))
        await s.games.play(CHANNEL, BOB, await first_legal(s))
    for _ in range(3):
        await expire(s)  # then White is absent
        await s.games.play(CHANNEL, BOB, await first_legal(s))
    update = await expire(s)
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert not ending.unrated_early
    for user in (ALICE, BOB):
        rating = await s.storage.ratings.get(user, "turkish")
        assert rating is not None and rating.rated_games == 1
