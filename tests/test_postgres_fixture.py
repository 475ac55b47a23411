"""The PostgreSQL half of the contract suite where the server's binaries are missing:
skipped with a message that says how to enable it, or, with DAMA_REQUIRE_POSTGRES=1 (CI),
a failure. Run as a separate pytest on one small test file, binaries hidden with
DAMA_POSTGRES_BIN pointing at an empty folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items()
                   if key != "DAMA_REQUIRE_POSTGRES"}
    environment.update(DAMA_POSTGRES_BIN=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/storage/test_players.py", "-q", "-rs",
         "-p", "no:cacheprovider"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120, check=False)


def test_missing_binaries_skip_with_how_to_enable(tmp_path: Path) -> None:
    result = _pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skipped" in result.stdout and "passed" in result.stdout
    assert "apt-get install postgresql" in result.stdout
    assert "DAMA_REQUIRE_POSTGRES=1" in result.stdout


def test_missing_binaries_fail_when_required(tmp_path: Path) -> None:
    result = _pytest(tmp_path, DAMA_REQUIRE_POSTGRES="1")
    assert result.returncode != 0
    assert "apt-get install postgresql" in result.stdout
