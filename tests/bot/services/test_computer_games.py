"""`/play` through the services: a person against the real computer player (process pool
through the computer's turn runner `ComputerTurns`, level 1 with a short budget; level 5
with a long budget where a search must be in flight to be cancelled). Every computer move is
checked by replaying the stored game with the engine; nothing asserts how long anything
takes."""

from __future__ import annotations

import asyncio
import contextlib
import random
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.computer import ComputerPlayer, PoolMoveChooser
from bot.computer_queue import Admission
from bot.config import MoveTime
from bot.messages import Msg
from bot.services import ComputerTurn, EndReason, GameUpdate, Person, PlayerError, UpdateKind
from bot.services.computer_games import ComputerGames
from bot.ui.present import Presenter
from storage import ColorChoice, GameStatus
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    THREAD,
    Announcements,
    OpenServices,
    Services,
    start_game,
)

PATIENCE = 60.0
"""Seconds a test waits for the computer before failing (a hang guard, not a measure)."""


async def play_services(
    open_services: OpenServices, clock: FakeClock, computer: ComputerPlayer,
    budget: float = 0.05, path: Path | None = None,
) -> tuple[Services, ComputerGames, Announcements]:
    s = await open_services(path, clock, chooser=PoolMoveChooser(computer), seat_budget=budget)
    games = ComputerGames(s.storage, s.games, clock=clock, rng=random.Random(7))
    return s, games, s.announced


def thinking(s: Services) -> int:
    assert s.turns is not None
    return s.turns.thinking


async def settle(s: Services) -> None:
    await asyncio.wait_for(s.computer_idle(), PATIENCE)


async def start(games: ComputerGames, announced: Announcements, color: ColorChoice, *,
                variant: str = "turkish", level: int = 1, channel: int = CHANNEL,
                **kwargs: object) -> GameUpdate:
    return await games.start(
        player=Person(ALICE, "alice"), guild_id=GUILD, channel_id=channel, variant=variant,
        level=level, color=color, announce=announced, **kwargs,  # type: ignore[arg-type]
    )


async def replay(s: Services, game_id: int) -> tuple[engine.Game, list[bool]]:
    """The stored game replayed by the engine (every move legal in order), and which moves
    the computer played."""
    record, game = await s.games.game_of(game_id)
    stored = await s.storage.games.moves(game_id)
    assert game.ply == len(stored) == record.ply_count
    return game, [m.by_computer for m in stored]


def first_legal(s: Services) -> str:
    state = s.games.current(CHANNEL)
    move = engine.legal_moves(state.position, state.variant)[0]
    return engine.format_move(move, state.position, state.variant)


@pytest.mark.parametrize("variant", ["turkish", "italian"])
async def test_a_game_against_the_computer_proceeds(
    open_services: OpenServices,
    computer: ComputerPlayer,
    variant: str,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    started = await start(games, announced, ColorChoice.WHITE, variant=variant)
    state = started.state
    assert started.kind is UpdateKind.STARTED and not state.rated
    assert state.white.user_id == ALICE and state.black.seat.computer_level == 1
    assert thinking(s) == 0  # the person moves first
    assert state.board_message_id == announced.next_id
    for ply in (2, 4, 6):
        await s.games.play(CHANNEL, ALICE, first_legal(s), announce=announced)
        await settle(s)
        if not s.games.has_game(CHANNEL):
            break
        assert s.games.current(CHANNEL).ply == ply
    game, by_computer = await replay(s, state.game_id)
    assert by_computer[: game.ply] == [False, True] * (game.ply // 2)
    replies = [u for u in announced.updates if u.kind is UpdateKind.COMPUTER_MOVED]
    assert replies and all(u.absent_moves is None for u in replies)
    text = Presenter().headline(replies[0], None)
    assert "Computer (level 1) played" in text and f"<@{ALICE}>" in text


async def test_the_computer_moves_first_when_the_person_is_black(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    started = await start(games, announced, ColorChoice.BLACK, variant="moroccan")
    assert started.state.white.seat.is_computer and started.state.black.user_id == ALICE
    board = Presenter().board_embed(started.state, None)
    assert board.description is not None and "is thinking" in board.description
    await settle(s)
    state = s.games.current(CHANNEL)
    assert state.ply == 1 and state.turn is engine.Color.BLACK
    _, by_computer = await replay(s, state.game_id)
    assert by_computer == [True]
    assert [u.kind for u in announced.updates] == [UpdateKind.STARTED, UpdateKind.COMPUTER_MOVED]
    # The computer's board replaced the start board.
    assert state.board_message_id is not None
    assert announced.updates[1].previous_board_message_id == state.board_message_id - 1


async def wait_until_searching(computer: ComputerPlayer) -> None:
    for _ in range(int(PATIENCE / 0.01)):
        if computer.busy:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computer never started thinking")


@pytest.mark.parametrize("how", ["resign", "abort"])
async def test_ending_the_game_cancels_the_search(
    open_services: OpenServices,
    computer: ComputerPlayer,
    how: str,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer,
                                          budget=3600.0)
    started = await start(games, announced, ColorChoice.BLACK, level=5)
    await wait_until_searching(computer)
    assert thinking(s) == 1
    if how == "resign":
        update = await s.games.resign(CHANNEL, ALICE)
        assert update.state.ending is not None
        assert update.state.ending.reason is EndReason.RESIGNATION
    else:
        update = await s.games.abort(CHANNEL, ALICE)
        assert update.state.status is GameStatus.ABORTED
    await settle(s)
    assert computer.busy == 0 and thinking(s) == 0
    assert await s.storage.games.moves(started.state.game_id) == []
    # The workers were freed: as many searches as workers all finish.
    fen = engine.Position.start(engine.get_variant("turkish")).to_fen(engine.get_variant("turkish"))
    moves = await asyncio.wait_for(asyncio.gather(*(
        computer.choose_move(fen, "turkish", 1, 0.05) for _ in range(computer.workers)
    )), PATIENCE)
    assert len(moves) == computer.workers


async def test_restart_resumes_the_computers_turn(
    tmp_path: Path, open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)  # no computer attached: its turn stays pending
    games = ComputerGames(s.storage, s.games, clock=clock)
    started = await games.start(player=Person(ALICE), guild_id=GUILD, channel_id=CHANNEL,
                                variant="arab", level=2, color=ColorChoice.WHITE)
    await s.games.play(CHANNEL, ALICE, first_legal(s))
    assert s.turns is None and s.games.current(CHANNEL).ply == 1
    await s.close()

    s, games, announced = await play_services(open_services, clock, computer,
                                          path=path)  # restart: restore()
    await s.games.post_owed_boards(announced)  # the player's move first, as the bot does
    await settle(s)
    state = s.games.current(CHANNEL)
    assert state.ply == 2 and state.turn is engine.Color.WHITE
    assert state.black.seat.computer_level == 2
    _, by_computer = await replay(s, started.state.game_id)
    assert by_computer == [False, True]
    assert [u.kind for u in announced.updates] == [UpdateKind.SHOWN, UpdateKind.COMPUTER_MOVED]


async def test_a_stale_computer_move_is_not_played(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    """A move chosen for a position the game has left (the game ended and a new one began)
    is refused without changing anything."""
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    started = await start(games, announced, ColorChoice.BLACK)
    await settle(s)
    state = s.games.current(CHANNEL)
    variant = state.variant
    at_start = engine.Game(variant)
    stale = at_start.legal_moves()[0]
    turn = ComputerTurn(CHANNEL, started.state.game_id, 0, at_start, 1)
    assert await s.games.commit_computer_move(turn, stale) is None
    assert s.games.current(CHANNEL).ply == 1


async def test_refusals(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    with pytest.raises(PlayerError) as caught:
        await start(games, announced, ColorChoice.WHITE, level=6)
    assert caught.value.key is Msg.BAD_LEVEL
    with pytest.raises(PlayerError) as caught:
        await start(games, announced, ColorChoice.WHITE, variant="chess")
    assert caught.value.key is Msg.UNKNOWN_VARIANT
    await start(games, announced, ColorChoice.WHITE)
    with pytest.raises(PlayerError) as caught:
        await start(games, announced, ColorChoice.WHITE)
    assert caught.value.key is Msg.ALREADY_PLAYING_HERE
    await start_game(s, "turkish", white=BOB, black=ALICE, channel=THREAD, rated=False)
    with pytest.raises(PlayerError) as caught:
        await games.start(player=Person(1003), guild_id=GUILD, channel_id=THREAD,
                          variant="turkish")
    assert caught.value.key is Msg.CHANNEL_BUSY


async def test_no_draw_offers_to_the_computer(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    await start(games, announced, ColorChoice.WHITE)
    with pytest.raises(PlayerError) as caught:
        await s.games.draw(CHANNEL, ALICE)
    assert caught.value.key is Msg.COMPUTER_NO_DRAW
    assert s.games.current(CHANNEL).draw_offer_by is None


async def test_unrated_and_ratings_untouched(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    s, games, announced = await play_services(open_services, FakeClock(), computer)
    started = await start(games, announced, ColorChoice.RANDOM)
    await settle(s)
    await s.games.resign(CHANNEL, ALICE)
    stored = await s.storage.games.get(started.state.game_id)
    assert stored is not None and not stored.rated and stored.white_rating is None
    assert await s.storage.ratings.get(ALICE, "turkish") is None


async def test_move_clock_in_a_game_against_the_computer(
    open_services: OpenServices,
    computer: ComputerPlayer,
) -> None:
    """`/play` with a move time: the person's deadline is stored and shown."""
    clock = FakeClock()
    _, games, announced = await play_services(open_services, clock, computer)
    started = await start(games, announced, ColorChoice.WHITE, move_time=MoveTime.SECONDS_40)
    assert started.state.move_seconds == 40
    assert started.state.deadline == clock() + timedelta(seconds=40)


class FlakyMover:
    """Fails on its first call, then plays the first legal move."""

    def __init__(self) -> None:
        self.calls = 0

    async def choose_move(
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: object,
        admission: Admission = Admission.ALWAYS,
    ) -> engine.Move:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("a worker died")
        return game.legal_moves()[0]

    def cancel(self, key: object) -> int:
        return 0


async def test_the_computer_tries_again_after_a_failure(
    open_services: OpenServices,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.services.computer_turns as module

    monkeypatch.setattr(module, "RETRY_SECONDS", 0.0)
    mover = FlakyMover()
    s = await open_services(chooser=mover)
    games = ComputerGames(s.storage, s.games)
    await games.start(player=Person(ALICE), guild_id=GUILD, channel_id=CHANNEL,
                      variant="turkish", color=ColorChoice.BLACK)
    await settle(s)
    assert mover.calls == 2 and s.games.current(CHANNEL).ply == 1


# --- the computer's queue is full ----------------------------------------------------------
# One worker and a queue limit of 0: a computer seat's move (Admission.WHEN_ROOM) is refused
# while the worker runs another search. The estimated wait, worked by hand from the rule in
# bot/computer_queue.py: before any search finished the measured ratio is 1; a request now
# would be the 2nd search in the system (1 running + itself) on 1 worker, with the budget
# min(0.05, max(0.2, min(0.05, 0.05 * 1 / 2))) = 0.05 s, so 2 / 1 * 0.05 * 1 = 0.1 s,
# rounded up to whole seconds: 1 second.

START_TURKISH = engine.Position.start(engine.get_variant("turkish")).to_fen(
    engine.get_variant("turkish"))


async def occupy(computer: ComputerPlayer) -> asyncio.Task[str]:
    """A level-5 search (never refused) holding the one worker until `cancel("blocker")`."""
    blocker = asyncio.create_task(computer.choose_move(
        START_TURKISH, "turkish", 5, 30.0, key="blocker"))
    while computer.load.running == 0:
        await asyncio.sleep(0.01)
    return blocker


async def release(computer: ComputerPlayer, blocker: asyncio.Task[str]) -> None:
    """Stop the search of `occupy` (its awaiting task ends cancelled) and wait until its
    worker is free."""
    assert computer.cancel("blocker") == 1
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(blocker, PATIENCE)
    while computer.load.running:
        await asyncio.sleep(0.01)


async def delay_told(s: Services) -> None:
    while not s.announced.delays:
        await asyncio.sleep(0.01)


async def test_play_refused_with_the_wait_while_the_computer_is_full(
    open_services: OpenServices,
) -> None:
    async with ComputerPlayer(workers=1, queue_limit=0) as computer:
        chooser = PoolMoveChooser(computer)
        s = await open_services(chooser=chooser, seat_budget=0.05)
        games = ComputerGames(s.storage, s.games, rng=random.Random(7),
                              room=lambda level: chooser.check_room(level, 0.05))
        blocker = await occupy(computer)
        with pytest.raises(PlayerError) as refused:
            await start(games, s.announced, ColorChoice.WHITE)
        assert refused.value.key is Msg.COMPUTER_BUSY
        assert refused.value.params == {"wait": timedelta(seconds=1)}
        assert Presenter().error_text(refused.value, None) == (
            "The computer is busy with many other games right now. "
            "Try again in about 1 second.")
        # Nothing changed: no game here, none stored, nothing announced.
        assert s.games.players_in(CHANNEL) is None
        assert await s.storage.games.active_in_channel(CHANNEL) is None
        assert s.announced.updates == []

        await release(computer, blocker)
        started = await start(games, s.announced, ColorChoice.WHITE)
        assert started.kind is UpdateKind.STARTED


async def test_a_refused_computer_move_is_announced_once_then_played(
    open_services: OpenServices, caplog: pytest.LogCaptureFixture,
) -> None:
    async with ComputerPlayer(workers=1, queue_limit=0) as computer:
        s = await open_services(chooser=PoolMoveChooser(computer), seat_budget=0.05)
        games = ComputerGames(s.storage, s.games, rng=random.Random(7))
        await start(games, s.announced, ColorChoice.WHITE)
        blocker = await occupy(computer)
        await s.games.play(CHANNEL, ALICE, first_legal(s), announce=s.announced)
        # The computer seat's move was refused: the channel is told once, with the wait.
        await asyncio.wait_for(delay_told(s), PATIENCE)
        assert s.announced.delays == [(CHANNEL, timedelta(seconds=1))]
        assert s.games.current(CHANNEL).ply == 1 and thinking(s) == 1
        # The worker frees; after the wait the move is asked for again (never refused).
        await release(computer, blocker)
        await settle(s)
        assert s.announced.delays == [(CHANNEL, timedelta(seconds=1))]
        state = s.games.current(CHANNEL)
        assert state.ply == 2
        _, by_computer = await replay(s, state.game_id)
        assert by_computer == [False, True]
        assert not [r for r in caplog.records if r.name == "bot.services.computer_turns"]


async def test_a_refused_computer_move_waits_and_the_game_goes_on_meanwhile(
    open_services: OpenServices,
) -> None:
    """While the computer waits after a refusal, a resignation ends the game at once and
    the computer plays nothing."""
    async with ComputerPlayer(workers=1, queue_limit=0) as computer:
        s = await open_services(chooser=PoolMoveChooser(computer), seat_budget=0.05)
        games = ComputerGames(s.storage, s.games, rng=random.Random(7))
        await start(games, s.announced, ColorChoice.WHITE)
        blocker = await occupy(computer)
        await s.games.play(CHANNEL, ALICE, first_legal(s), announce=s.announced)
        await asyncio.wait_for(delay_told(s), PATIENCE)
        game_id = s.games.current(CHANNEL).game_id
        ended = await s.games.resign(CHANNEL, ALICE, announce=s.announced)
        assert ended.state.is_over
        await settle(s)
        assert thinking(s) == 0
        _, by_computer = await replay(s, game_id)
        assert by_computer == [False]
        await release(computer, blocker)
