"""Tournaments across a kill (docs/ARCHITECTURE.md, "Crash points"; docs/TESTING.md,
"Crash points"): a Swiss of four players and two rounds, run by the real bot process
against the stand-in, SIGKILLed at each tournament point of `bot.faults`; then started
again unarmed, checked once it has done what the restart owes (every round paired once,
one game per pairing in its own thread, every post of the ledger shown once, no
acknowledged game end lost, the standings those of the stored results:
`tests/support/crash_tournaments.py`), played on to its end and checked again.

The bot is armed once the players have joined (the sign-up post made): the posts it then
makes are the start (1), round 1's pairings (2) and results (3), round 2's pairings (4)
and results (5), the final (6); the games end in order, two a round."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.faults import FaultPoint
from tests.support.crash_points import CrashHarness, local_discord, query
from tests.support.crash_tournaments import SwissUnderKill

CASES = [
    # Round 2 stored at round 1's last game end, its games not started.
    pytest.param(FaultPoint.TOURNAMENT_ROUND_PAIRED, 2, None, id="round-paired"),
    # Round 1's second game stored with its link, its first board not posted.
    pytest.param(FaultPoint.TOURNAMENT_GAME_STORED, 2, None, id="game-stored"),
    # Round 1's results claimed in the ledger, not sent.
    pytest.param(FaultPoint.TOURNAMENT_POST_CLAIMED, 3, ("results", "1"), id="post-claimed"),
    # Round 2's pairings sent, their message id not recorded: sent again with the nonce.
    pytest.param(FaultPoint.TOURNAMENT_POST_SENT, 4, ("pairings", "2"), id="post-sent"),
    # Round 1's last game end stored, the tournament not advanced.
    pytest.param(FaultPoint.TOURNAMENT_GAME_ENDED, 2, None, id="game-ended"),
]


@pytest.mark.parametrize(("point", "times", "unsent"), CASES)
async def test_a_swiss_killed_at_a_tournament_point_loses_nothing_and_posts_nothing_twice(
    tmp_path: Path, point: FaultPoint, times: int, unsent: tuple[str, str] | None,
) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        swiss = SwissUnderKill(harness)
        try:
            await swiss.create()
            await harness.restart(point, times=times)
            await swiss.drive(to_the_end=False)
            if unsent is not None:  # the kill cut the post the case names
                assert swiss.unrecorded_posts() == [unsent]
            if point is FaultPoint.TOURNAMENT_ROUND_PAIRED:
                assert query(harness.database, "SELECT COUNT(*) FROM games WHERE "
                             "channel_id IN (SELECT thread_id FROM tournament_pairings "
                             "WHERE round = 2)") == [(0,)]
            await harness.restart(None)
            await swiss.owed_done()
            swiss.check()
            await swiss.drive(to_the_end=True)
            await swiss.owed_done()
            swiss.check()
            assert swiss.tournament()[1] == "finished"
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(80))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]
