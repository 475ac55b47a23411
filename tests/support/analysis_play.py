"""An analysis under way in the real bot process, for the tests that kill the bot during
one (`tests/e2e/test_crash_analysis.py`, `tests/e2e/test_worker_processes.py`): a finished
game played through the stand-in, `/analyze` asked for, and its progress message waited
for until it shows a reviewed position."""

from __future__ import annotations

import asyncio
import re

from engine import get_variant
from localplay.stored import StoredGames
from standin import MessageRecord, UserInfo
from tests.support.crash_points import CrashHarness, query
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import move_text, play_move, resign, start_game

PLIES = 24
"""Plies of the game analysed: enough for its review to last past the first progress."""

PATIENCE = 120.0
"""Seconds for the review to show progress (a hang guard, not a measure)."""

PROGRESS = re.compile(r"ply (\d+) of (\d+)")
"""The English progress text's counts (`Msg.ANALYSIS_PROGRESS`)."""


async def finished_game(harness: CrashHarness, white: UserInfo, black: UserInfo,
                        plies: int = PLIES) -> int:
    """A Turkish game between `white` and `black` in the harness's channel: `plies`
    moves (fewer if the rules end it), then White resigns if it still runs; its boards
    shown. Returns its id."""
    local = harness.local
    channel = local.channel
    game_id, _ = await start_game(local, channel, white, black, get_variant("turkish"))
    for ply in range(plies):
        async with StoredGames(harness.database) as games:
            stored = await games.load(game_id)
        if stored.game.outcome is not None:
            break
        move = min(stored.game.legal_moves(), key=lambda m: (m.start, m.end))
        mover = white if ply % 2 == 0 else black
        await play_move(local, mover, channel,
                        move_text(move, stored.position, stored.game.variant))
    [(status,)] = query(harness.database, "SELECT status FROM games WHERE id = ?", game_id)
    if status == "active":
        await resign(local, white, channel)
    await harness.settled(game_id)
    return game_id


async def analysis_under_way(harness: CrashHarness, requester: UserInfo,
                             game_id: int) -> MessageRecord:
    """`/analyze game:<game_id>` asked by `requester` in the harness's channel; returns
    its progress message once it shows at least one position reviewed and fewer than all."""
    standin = harness.standin
    started = await standin.slash(requester, harness.local.channel, "analyze",
                                  {"game": game_id}, timeout=ANSWER_TIMEOUT)
    progress = started.reply
    assert not started.ephemeral and "Analysing" in progress.text(), progress.text()
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    while loop.time() < end:
        found = PROGRESS.search(standin.message(progress).text())
        if found and 1 <= int(found.group(1)) < int(found.group(2)):
            return progress
        await asyncio.sleep(0.05)
    raise AssertionError(f"no progress shown: {standin.message(progress).text()}")
