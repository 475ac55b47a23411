"""An analysis across a kill (docs/ARCHITECTURE.md, "Crash points"): the real bot process
SIGKILLed while it reviews a game, its progress message left at "ply N of M" with a Cancel
button. After the restart nothing runs any more; the first press of that Cancel (by
anyone) edits the message to say the analysis stopped, without buttons, and tells the
presser privately how to ask again (the channel sees nothing new); `/analyze` then
reviews the game from the start. The stand-in, a real SQLite file."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from engine import get_variant
from localplay.stored import StoredGames
from standin import EventKind, MessageRecord, shown_text
from tests.support.crash_points import CrashHarness, local_discord, query
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import move_text, play_move, resign, start_game

PLIES = 24
"""Plies of the game analysed: enough for its review to last past the first progress."""

PATIENCE = 120.0
"""Seconds for the review to show progress, or to finish after the restart (hang guards)."""

_PROGRESS = re.compile(r"ply (\d+) of (\d+)")


async def _progress_shown(harness: CrashHarness, message: MessageRecord) -> tuple[int, int]:
    """(done, total) once the progress message shows at least one position reviewed."""
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    while loop.time() < end:
        found = _PROGRESS.search(harness.standin.message(message).text())
        if found and int(found.group(1)) >= 1:
            return int(found.group(1)), int(found.group(2))
        await asyncio.sleep(0.05)
    raise AssertionError(f"no progress shown: {harness.standin.message(message).text()}")


async def test_an_analysis_killed_midway_is_stopped_by_its_old_cancel_and_runs_again(
    tmp_path: Path,
) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        try:
            await _killed_midway(harness)
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(60))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def _killed_midway(harness: CrashHarness) -> None:
    local, standin = harness.local, harness.standin
    alice, bob, carol = standin.user("alice"), standin.user("bob"), standin.user("carol")
    channel = local.channel
    game_id, _ = await start_game(local, channel, alice, bob, get_variant("turkish"))
    for ply in range(PLIES):
        async with StoredGames(harness.database) as games:
            stored = await games.load(game_id)
        if stored.game.outcome is not None:
            break
        move = min(stored.game.legal_moves(), key=lambda m: (m.start, m.end))
        mover = alice if ply % 2 == 0 else bob
        await play_move(local, mover, channel,
                        move_text(move, stored.position, stored.game.variant))
    [(status,)] = query(harness.database, "SELECT status FROM games WHERE id = ?", game_id)
    if status == "active":
        await resign(local, alice, channel)
    await harness.settled(game_id)

    started = await standin.slash(alice, channel, "analyze", {"game": game_id},
                                  timeout=ANSWER_TIMEOUT)
    progress = started.reply
    assert not started.ephemeral and "Analysing" in progress.text(), progress.text()
    done, total = await _progress_shown(harness, progress)
    assert done < total
    await local.process.kill()  # SIGKILL mid-analysis
    await harness.restart(None)

    # Nothing changed it while the bot was down and starting: still at "ply N of M".
    left = standin.message(progress)
    assert _PROGRESS.search(left.text()) and [b.label for b in left.buttons] == ["Cancel"]
    mark = standin.event_count
    await standin.press(carol, left, "Cancel", timeout=ANSWER_TIMEOUT)
    note = await standin.wait_for_message(
        lambda e: e.kind is EventKind.CREATE and e.message.id != progress.id,
        since=mark, timeout=ANSWER_TIMEOUT)
    stopped = standin.message(progress)
    assert shown_text(stopped.text()) == (f"The analysis of game #{game_id} stopped before it was "
                              f"finished. /analyze game:{game_id} starts it again."), \
        stopped.text()
    assert stopped.buttons == ()
    assert note.message.ephemeral, note.message.text()
    assert "is not running any more" in note.message.text()
    public = [e.message for e in standin.events[mark:] if e.kind is EventKind.CREATE
              and not e.message.ephemeral and e.message.channel_id == channel.id]
    assert public == [], [m.text() for m in public]

    # Asked again, the game is reviewed from the start and its card shown.
    again = await standin.slash(alice, channel, "analyze", {"game": game_id},
                                timeout=ANSWER_TIMEOUT)
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    while "Analysis of game" not in standin.message(again.reply).text():
        assert loop.time() < end, standin.message(again.reply).text()
        await asyncio.sleep(0.1)
    [(count,)] = query(harness.database,
                       "SELECT COUNT(*) FROM analyses WHERE game_id = ?", game_id)
    assert count == 1
