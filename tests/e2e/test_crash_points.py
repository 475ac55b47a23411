"""The crash-point harness (tests/support/crash_points.py; docs/ARCHITECTURE.md, "Crash
points"): every game step that writes, killed at a named point of the product, restarted,
and the invariants checked. The fast suite arms one point per step; the slow suite arms
every point of every step."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.faults import ENVIRONMENT_VARIABLE, FaultPoint
from tests.support.crash_points import (
    FAST_POINTS,
    POINTS,
    CrashHarness,
    Step,
    local_discord,
    write,
)


async def _crash(tmp_path: Path, step: Step, point: FaultPoint) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        try:
            await harness.crash(step, point)
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(60))
        assert harness.kills == 1
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


@pytest.mark.parametrize(("step", "point"), list(FAST_POINTS.items()),
                         ids=[f"{s.value}@{p.value}" for s, p in FAST_POINTS.items()])
async def test_one_crash_point_per_step(tmp_path: Path, step: Step, point: FaultPoint) -> None:
    await _crash(tmp_path, step, point)


ALL = [(step, point) for step, points in POINTS.items() for point in points]


@pytest.mark.slow
@pytest.mark.parametrize(("step", "point"), ALL, ids=[f"{s.value}@{p.value}" for s, p in ALL])
async def test_every_crash_point_of_every_step(
    tmp_path: Path, step: Step, point: FaultPoint
) -> None:
    await _crash(tmp_path, step, point)


SOAK_KILLS = 50
SOAK_MISSES = 40
"""The soak plays until `SOAK_KILLS` kills; `SOAK_MISSES` rounds in a row that do not reach
their armed point end it early (and fail it): the play no longer reaches the points."""


@pytest.mark.slow
async def test_random_kills_during_random_play(tmp_path: Path) -> None:
    """A soak: two players play random games (moves, now and then a resignation, a draw
    offer or acceptance, an abort) while the bot is armed at a random point and count;
    after each kill it is restarted unarmed and every game in the database is checked
    (`CrashHarness.check_all`); then armed again."""
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        try:
            await harness.soak(seed=20261201, kills=SOAK_KILLS, misses=SOAK_MISSES)
        finally:
            print(local.process.log_tail(60))
            games = len(harness.games())
            print(f"soak: {harness.kills} kills, {harness.acknowledged_moves} moves "
                  f"acknowledged, {games} games; kills by point: "
                  + ", ".join(f"{p.value} {n}" for p, n in harness.killed_at.most_common()))
        assert harness.kills >= SOAK_KILLS, (
            f"only {harness.kills} kills: {SOAK_MISSES} rounds in a row missed their point")
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def test_a_kill_at_the_armed_point_during_start_up_is_counted_as_that_round_kill(
    tmp_path: Path,
) -> None:
    """The soak arms a point before each start: the start-up may reach it by posting a
    board owed since the previous kill. That is the round's kill, not a failed start."""
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        scene = await harness.setup(Step.MOVE)
        assert scene.game_id is not None
        await local.process.kill()
        write(local.process.database, "UPDATE games SET board_owed = 1 WHERE id = ?",
              scene.game_id)
        local.process.extra_env[ENVIRONMENT_VARIABLE] = f"{FaultPoint.BOARD_POST.value}:1"
        await harness.start_armed()
        assert not local.process.running
        assert local.process.returncode == -9
        assert "crash point armed" in local.process.log_tail(60)
