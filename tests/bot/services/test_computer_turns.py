"""`ComputerTurns` (bot/services/computer_turns.py), the runner of the computer's moves, on
its own: what it does around its start and its end. Its games against the real computer
player are in test_computer_games.py and test_move_clocks.py."""

from __future__ import annotations

import asyncio

import engine
from storage import NewGame, Seat
from tests.support.clock import FakeClock
from tests.support.services import ALICE, CHANNEL, OpenServices

PATIENCE = 60.0
"""Seconds a test waits before failing (a hang guard, not a measure)."""


class CountingChooser:
    """A move chooser that counts its searches and plays the first legal move."""

    def __init__(self) -> None:
        self.calls = 0

    async def choose_move(
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: object
    ) -> engine.Move:
        self.calls += 1
        return game.legal_moves()[0]

    def cancel(self, key: object) -> int:
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
    variant = engine.get_variant("turkish")
    record = await s.storage.games.create(NewGame(
        variant="turkish", channel_id=CHANNEL, guild_id=None, white=Seat.human(ALICE),
        black=Seat.computer(2), start_fen=engine.Position.start(variant).to_fen(variant),
    ))
    await s.games.adopt(record)
    await s.turns.close()
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # Black, the computer, is to move
    assert s.turns.thinking == 0
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    assert chooser.calls == 0
    assert [m.text for m in await s.storage.games.moves(record.id)] == ["h3-h4"]
