"""An analysis across a kill (docs/ARCHITECTURE.md, "Crash points" and "Recovery at
start-up"): the real bot process SIGKILLed while it reviews a game, its progress message
left at "ply N of M" with a Cancel button. Once the bot is connected again, that message
says the restart stopped the analysis and how to ask again, without its Cancel, and
nothing else is posted; `/analyze` then reviews the game from the start. Also when the
kill came before the message's id was recorded: the bot finds it among the channel's
newest messages. The stand-in, a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from standin import EventKind, shown_text
from tests.support.analysis_play import PATIENCE, analysis_under_way, finished_game
from tests.support.crash_points import CrashHarness, local_discord, query, write
from tests.support.local_discord import ANSWER_TIMEOUT


@pytest.mark.parametrize("recorded", [True, False], ids=["message-recorded",
                                                         "message-not-recorded"])
async def test_an_analysis_killed_midway_has_its_progress_message_told_after_the_restart(
    tmp_path: Path, recorded: bool,
) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        try:
            await _killed_midway(harness, recorded=recorded)
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(60))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def _killed_midway(harness: CrashHarness, *, recorded: bool) -> None:
    local, standin = harness.local, harness.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    channel = local.channel
    game_id = await finished_game(harness, alice, bob)
    progress = await analysis_under_way(harness, alice, game_id)
    await local.process.kill()  # SIGKILL mid-analysis
    [(message_id,)] = query(harness.database,
                            "SELECT message_id FROM analyses_under_way WHERE game_id = ?",
                            game_id)
    assert message_id == progress.id
    if not recorded:  # as if killed between the post and recording its id
        write(harness.database, "UPDATE analyses_under_way SET message_id = NULL")
    mark = standin.event_count
    await harness.restart(None)

    expected = (f"The analysis of game #{game_id} was stopped by a restart of the bot. "
                f"/analyze game:{game_id} starts it again.")
    loop = asyncio.get_running_loop()
    end = loop.time() + ANSWER_TIMEOUT
    while shown_text(standin.message(progress).text()) != expected:
        assert loop.time() < end, standin.message(progress).text()
        await asyncio.sleep(0.05)
    assert standin.message(progress).buttons == ()
    while query(harness.database, "SELECT COUNT(*) FROM analyses_under_way") != [(0,)]:
        assert loop.time() < end, "the stopped analysis is still recorded as under way"
        await asyncio.sleep(0.05)
    created = [e.message for e in standin.events[mark:] if e.kind is EventKind.CREATE]
    assert created == [], [m.text() for m in created]

    # Asked again, the game is reviewed from the start and its card shown.
    again = await standin.slash(alice, channel, "analyze", {"game": game_id},
                                timeout=ANSWER_TIMEOUT)
    end = loop.time() + PATIENCE
    while "Analysis of game" not in standin.message(again.reply).text():
        assert loop.time() < end, standin.message(again.reply).text()
        await asyncio.sleep(0.1)
    [(count,)] = query(harness.database,
                       "SELECT COUNT(*) FROM analyses WHERE game_id = ?", game_id)
    assert count == 1
    while query(harness.database, "SELECT COUNT(*) FROM analyses_under_way") != [(0,)]:
        assert loop.time() < end, "the finished analysis is still recorded as under way"
        await asyncio.sleep(0.05)
