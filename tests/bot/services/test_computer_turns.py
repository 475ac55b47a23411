"""`ComputerTurns` (bot/services/computer_turns.py), the runner of the computer's moves, on
its own: what it does around its start and its end. Its games against the real computer
player are in test_computer_games.py and test_move_clocks.py."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

import engine
from bot.computer_queue import Admission
from bot.services import GameUpdate, UpdateKind
from bot.services.computer_turns import ComputerTurns
from storage import Seat
from tests.support.clock import FakeClock
from tests.support.services import ALICE, CHANNEL, OpenServices, start_game

PATIENCE = 60.0
"""Seconds a test waits before failing (a hang guard, not a measure)."""


class CountingChooser:
    """A move chooser that counts its searches and plays the first legal move."""

    def __init__(self) -> None:
        self.calls = 0

    async def choose_move(
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: Hashable,
        admission: Admission = Admission.ALWAYS,
    ) -> engine.Move:
        self.calls += 1
        return game.legal_moves()[0]

    def cancel(self, key: Hashable) -> int:
        return 0


async def test_after_close_a_turn_of_the_computer_starts_no_search(
    open_services: OpenServices,
) -> None:
    """Once closed (the bot shutting down), the runner starts nothing: a move committed
    late (an interaction that outlived the shutdown's grace) gives the computer seat the
    turn, but no search starts and no move is played on a closing bot."""
    clock = FakeClock()
    chooser = CountingChooser()
    s = await open_services(clock=clock, chooser=chooser)
    assert s.turns is not None
    record = await start_game(s, "turkish", white=ALICE, black=Seat.computer(2), guild=None,
                              rated=False)
    await s.turns.close()
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # Black, the computer, is to move
    assert s.turns.thinking == 0
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    assert chooser.calls == 0
    assert [m.text for m in await s.storage.games.moves(record.id)] == ["h3-h4"]


class GatedAnnounce:
    """An `Announce` callback that waits for `release` before the board is posted;
    `posting` is set once it has been called, `posted` collects what it posted."""

    def __init__(self) -> None:
        self.posting = asyncio.Event()
        self.release = asyncio.Event()
        self.posted: list[GameUpdate] = []

    async def __call__(self, update: GameUpdate) -> int | None:
        self.posting.set()
        await self.release.wait()
        self.posted.append(update)
        return 9001


async def test_close_lets_a_committed_computer_move_be_announced(
    open_services: OpenServices,
) -> None:
    """A stop (`close`) while the computer's move is being committed and announced: the
    move is stored, so its board is still posted (and recorded) before the runner stops;
    otherwise the channel would never see the computer's move and the person's clock
    would run against a board that still says the computer is thinking."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    announce = GatedAnnounce()
    turns = ComputerTurns(s.games, CountingChooser(), announce=announce)
    turns.listen(s.games.events)
    try:
        # White, the computer, is to move
        record = await start_game(s, "turkish", white=Seat.computer(1), black=ALICE,
                                  guild=None, rated=False)
        await asyncio.wait_for(announce.posting.wait(), PATIENCE)
        closing = asyncio.create_task(turns.close())
        await asyncio.sleep(0)
        announce.release.set()
        await asyncio.wait_for(closing, PATIENCE)
    finally:
        await turns.close()
    assert [u.kind for u in announce.posted] == [UpdateKind.COMPUTER_MOVED]
    assert len(await s.storage.games.moves(record.id)) == 1
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.board_message_id == 9001
