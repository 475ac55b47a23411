"""Durability: a writer process killed with SIGKILL at random points loses no move it
reported as committed, and the database stays sound."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Database, Storage

pytestmark = pytest.mark.sqlite_only  # about SQLite itself: not run on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 4


def _run_and_kill(db_path: Path, rng: random.Random) -> list[tuple[int, int, str]]:
    """Start the writer, let it report a random number of commits (1 to 400) and run on a
    random moment more, SIGKILL it; return every move it printed (each printed only after
    its commit returned)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.durability_writer", str(db_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    lines: list[str] = []
    target = rng.randrange(1, 401)
    while len(lines) <= target:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
    time.sleep(rng.uniform(0, 0.05))
    process.send_signal(signal.SIGKILL)
    rest, errors = process.communicate(timeout=60)
    assert lines and lines[0] == "ready\n", "".join(lines) + errors
    assert process.returncode == -signal.SIGKILL, errors
    moves = []
    for line in "".join(lines[1:]).splitlines() + rest.splitlines():
        parts = line.split(" ")
        if len(parts) == 3:  # a line cut by the kill has fewer parts
            moves.append((int(parts[0]), int(parts[1]), parts[2]))
    return moves


async def test_killed_writer_loses_no_committed_move(tmp_path: Path) -> None:
    db_path = tmp_path / "dama.sqlite3"
    rng = random.Random(2024)
    reported: list[tuple[int, int, str]] = []
    for _ in range(ROUNDS):
        moves = _run_and_kill(db_path, rng)
        assert moves, "the writer committed nothing before it was killed"
        reported += moves
        storage = await Storage.open(db_path)
        try:
            assert isinstance(storage.db, Database)
            assert await storage.db.integrity_check() == ["ok"]
            stored = set()
            for game in await storage.games.active():
                records = await storage.games.moves(game.id)
                assert [m.ply for m in records] == list(range(1, game.ply_count + 1))
                stored |= {(m.game_id, m.ply, m.text) for m in records}
            missing = [move for move in reported if move not in stored]
            assert not missing, f"{len(missing)} committed moves lost, e.g. {missing[:3]}"
        finally:
            await storage.close()
    assert len(reported) > 100
