"""The browser tests where Chromium is missing: skipped with a message that says how to
install it, or, with DAMA_REQUIRE_BROWSER=1 (CI), a failure. Run as a separate pytest on
the browser tests of the fast suite, Chromium hidden with DAMA_CHROMIUM naming a file
that does not exist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items()
                   if key != "DAMA_REQUIRE_BROWSER"}
    environment.update(DAMA_CHROMIUM=str(tmp_path / "no-chromium"), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser/test_problems.py", "-q", "-rs",
         "-p", "no:cacheprovider"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120, check=False)


def test_a_missing_chromium_skips_with_how_to_install_it(tmp_path: Path) -> None:
    result = _pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 skipped" in result.stdout, result.stdout
    assert "apt-get install chromium" in result.stdout
    assert "DAMA_REQUIRE_BROWSER=1" in result.stdout


def test_a_missing_chromium_fails_when_required(tmp_path: Path) -> None:
    result = _pytest(tmp_path, DAMA_REQUIRE_BROWSER="1")
    assert result.returncode != 0
    assert "apt-get install chromium" in result.stdout
