"""Tournaments across a kill (docs/ARCHITECTURE.md, "Crash points"; docs/TESTING.md,
"Crash points"): a Swiss of four players and two rounds, and an arena of two players,
run by the real bot process against the stand-in, SIGKILLed at each tournament point of
`bot.faults`; then started again unarmed, checked once it has done what the restart owes
(every round paired once, one game per pairing in its own thread, every post of the
ledger shown once, no acknowledged game end lost, the Swiss's standings those of the
stored results: `tests/support/crash_tournaments.py`), played on to its end and checked
again.

The bot is armed once the players have joined (the sign-up post made). In the Swiss the
posts it then makes are the start (1), round 1's pairings (2) and results (3), round 2's
pairings (4) and results (5), the final (6); the games end in order, two a round. In the
arena: the start (1), the first pairing's post (2), the second's (3), ...; its two
players are paired again as soon as their game ends.

The organiser's notices have cases of their own: a Swiss paused once round 1's pairings
are recorded (its posts: the start (1), round 1's pairings (2), the pause (3)), and one
cancelled in sign-up (the cancellation (1)), each killed once its status change is stored
with its notice claimed; after the restart the notice appears once and the sign-up post
shows the status."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.faults import FaultPoint
from tests.support.crash_points import CrashHarness, local_discord, query
from tests.support.crash_tournaments import CANCEL, PAUSE, TournamentUnderKill

CASES = [
    # Round 2 stored at round 1's last game end, its games not started.
    pytest.param("swiss", FaultPoint.TOURNAMENT_ROUND_PAIRED, 2, None,
                 id="swiss-round-paired"),
    # Round 1's second game stored with its link, its first board not posted.
    pytest.param("swiss", FaultPoint.TOURNAMENT_GAME_STORED, 2, None, id="swiss-game-stored"),
    # Round 1's results claimed in the ledger, not sent.
    pytest.param("swiss", FaultPoint.TOURNAMENT_POST_CLAIMED, 3, ("results", "1"),
                 id="swiss-post-claimed"),
    # Round 2's pairings sent, their message id not recorded: sent again with the nonce.
    pytest.param("swiss", FaultPoint.TOURNAMENT_POST_SENT, 4, ("pairings", "2"),
                 id="swiss-post-sent"),
    # The final claimed, not sent (the tournament stored as finished).
    pytest.param("swiss", FaultPoint.TOURNAMENT_POST_CLAIMED, 6, ("final", ""),
                 id="swiss-final-claimed"),
    # The final (with its picture) sent, its message id not recorded.
    pytest.param("swiss", FaultPoint.TOURNAMENT_POST_SENT, 6, ("final", ""),
                 id="swiss-final-sent"),
    # Round 1's last game end stored, the tournament not advanced.
    pytest.param("swiss", FaultPoint.TOURNAMENT_GAME_ENDED, 2, None, id="swiss-game-ended"),
    # The arena's second pairing (its players free again) stored, its game not started.
    pytest.param("arena", FaultPoint.TOURNAMENT_ROUND_PAIRED, 2, None,
                 id="arena-round-paired"),
    # The second pairing's game stored, its first board not posted.
    pytest.param("arena", FaultPoint.TOURNAMENT_GAME_STORED, 2, None, id="arena-game-stored"),
    # The second pairing's post claimed, not sent; then sent, not recorded.
    pytest.param("arena", FaultPoint.TOURNAMENT_POST_CLAIMED, 3, ("pairings", "2"),
                 id="arena-post-claimed"),
    pytest.param("arena", FaultPoint.TOURNAMENT_POST_SENT, 3, ("pairings", "2"),
                 id="arena-post-sent"),
    # The first game's end stored, the arena not advanced (its players not paired again).
    pytest.param("arena", FaultPoint.TOURNAMENT_GAME_ENDED, 1, None, id="arena-game-ended"),
]


@pytest.mark.parametrize(("format", "point", "times", "unsent"), CASES)
async def test_a_tournament_killed_at_a_tournament_point_loses_nothing_and_posts_nothing_twice(
    tmp_path: Path, format: str, point: FaultPoint, times: int,
    unsent: tuple[str, str] | None,
) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        tournament = TournamentUnderKill(harness, format)
        try:
            await tournament.create()
            await harness.restart(point, times=times)
            await tournament.drive(to_the_end=False)
            _left_by_the_kill(tournament, point, times, unsent)
            await harness.restart(None)
            await tournament.owed_done()
            tournament.check()
            await tournament.drive(to_the_end=True)
            await tournament.owed_done()
            tournament.check()
            assert tournament.tournament()[1] == "finished"
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(80))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


NOTICE_CASES = [
    # Paused: the status change stored with its notice claimed, the notice not sent.
    pytest.param(PAUSE, 3, "paused", id="swiss-paused-claimed"),
    # Cancelled in sign-up by the organiser: the same.
    pytest.param(CANCEL, 1, "cancelled", id="swiss-cancelled-claimed"),
]


@pytest.mark.parametrize(("notice", "times", "kind"), NOTICE_CASES)
async def test_a_tournament_killed_after_a_status_change_posts_its_notice_once(
    tmp_path: Path, notice: str, times: int, kind: str,
) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        tournament = TournamentUnderKill(harness, "swiss", notice=notice)
        try:
            await tournament.create()
            await harness.restart(FaultPoint.TOURNAMENT_POST_CLAIMED, times=times)
            await tournament.drive(to_the_end=False)
            assert [k for k, _ in tournament.unrecorded_posts()] == [kind]
            assert tournament.tournament()[1] == ("paused" if notice == PAUSE else "cancelled")
            await harness.restart(None)
            await tournament.owed_done()
            if notice == CANCEL:
                tournament.check_cancelled()
            else:  # played on after the resumption, to its end
                tournament.check()
                await tournament.drive(to_the_end=True)
                await tournament.owed_done()
                tournament.check()
                assert tournament.tournament()[1] == "finished"
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(80))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


def _left_by_the_kill(tournament: TournamentUnderKill, point: FaultPoint, times: int,
                      unsent: tuple[str, str] | None) -> None:
    """The kill came where the case says: the post it names claimed and not recorded,
    round 2 stored without games, the `times`-th game stored with its board owed, the
    `times`-th game's end stored with its round unfinished."""
    database = tournament.harness.database
    assert tournament.unrecorded_posts() == ([] if unsent is None else [unsent])
    match point:
        case FaultPoint.TOURNAMENT_ROUND_PAIRED:
            assert [n for n, _ in tournament.rounds()] == [1, 2]
            assert query(database, "SELECT COUNT(*) FROM tournament_pairings "
                         "WHERE round = 2 AND game_id IS NOT NULL") == [(0,)]
        case FaultPoint.TOURNAMENT_GAME_STORED:
            assert query(database, "SELECT COUNT(*), SUM(board_owed) FROM games") == [
                (times, 1)]
        case FaultPoint.TOURNAMENT_GAME_ENDED:
            assert query(database, "SELECT COUNT(*) FROM games WHERE status = 'finished'"
                         ) == [(times,)]
            assert tournament.rounds() == [(1, False)]
        case _:
            pass
