"""`/play` through the services: a person against the real computer player (process pool
through the computer's turn runner `ComputerTurns`, level 1 with a short budget; level 5
with a long budget where a search must be in flight to be cancelled). Every computer move is
checked by replaying the stored game with the engine; nothing asserts how long anything
takes."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.computer import ComputerPlayer, PoolMoveChooser
from bot.config import MoveTime
from bot.messages import Msg
from bot.services import ComputerTurn, EndReason, Event, GameUpdate, Person, PlayerError
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
    assert started.event is Event.STARTED and not state.rated
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
    replies = [u for u in announced.updates if u.event is Event.COMPUTER_MOVED]
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
    assert [u.event for u in announced.updates] == [Event.STARTED, Event.COMPUTER_MOVED]
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
    await settle(s)
    state = s.games.current(CHANNEL)
    assert state.ply == 2 and state.turn is engine.Color.WHITE
    assert state.black.seat.computer_level == 2
    _, by_computer = await replay(s, started.state.game_id)
    assert by_computer == [False, True]
    assert [u.event for u in announced.updates] == [Event.COMPUTER_MOVED]


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
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: object
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
