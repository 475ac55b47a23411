"""Named crash points (bot/faults.py; docs/ARCHITECTURE.md, "Crash points"): what
`DAMA_FAULT_POINT` accepts, and that an armed point kills the process with SIGKILL at the
n-th time it is reached and not before, while an unarmed one does nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.faults import FaultPoint, FaultSpecError, arm, arm_from_environment, parse, reach


def test_a_point_and_an_optional_count_are_read() -> None:
    assert parse("board-posted") == (FaultPoint.BOARD_POSTED, 1)
    assert parse(" Step-Committed:3 ") == (FaultPoint.STEP_COMMITTED, 3)


@pytest.mark.parametrize("spec", ["board", "board-posted:0", "board-posted:-1",
                                  "board-posted:x", "step-commit:2.5"])
def test_anything_else_is_refused_with_the_names(spec: str) -> None:
    with pytest.raises(FaultSpecError, match="DAMA_FAULT_POINT"):
        parse(spec)


def test_unset_or_empty_arms_nothing() -> None:
    for environ in ({}, {"DAMA_FAULT_POINT": ""}, {"DAMA_FAULT_POINT": "  "}):
        arm_from_environment(environ)
        for point in FaultPoint:
            reach(point)  # still alive


def _child(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
        timeout=60, env={**os.environ, **env}, cwd=Path(__file__).resolve().parents[2],
    )


def test_the_armed_point_kills_the_process_at_its_nth_time() -> None:
    done = _child("""
        from bot.faults import FaultPoint, arm_from_environment, reach
        arm_from_environment()
        for i in range(1, 6):
            reach(FaultPoint.STEP_COMMIT)  # another point: never counted
            print("before", i, flush=True)
            reach(FaultPoint.BOARD_POSTED)
    """, {"DAMA_FAULT_POINT": "board-posted:3"})
    assert done.returncode == -signal.SIGKILL
    assert done.stdout.split("\n")[:-1] == ["before 1", "before 2", "before 3"]


def test_a_bad_setting_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    done = _child("import sys\nfrom bot.__main__ import main\nsys.exit(main(['run']))",
                  {"DAMA_FAULT_POINT": "nowhere", "DISCORD_TOKEN": "x" * 30,
                   "DAMA_DATABASE": str(tmp_path / "bot.sqlite3")})
    assert done.returncode == 2, done.stderr
    [line] = [line for line in done.stderr.splitlines() if line.startswith("dama-bot: ")]
    assert "DAMA_FAULT_POINT='nowhere': unknown point" in line and "board-posted" in line
    assert "Traceback" not in done.stderr


def test_disarming() -> None:
    arm(FaultPoint.BOARD_POST, 1)
    arm(None)
    reach(FaultPoint.BOARD_POST)  # still alive
