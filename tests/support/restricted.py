"""Real refusals by the operating system, for tests that run as root or as a user.

- `open_unprivileged(path)`: opens the database in a child process without any Linux
  capability, so `chmod` takes effect even when the tests run as root (in CI).
- `open_in_namespace(script, path)`: opens it in a child process inside a new user and
  mount namespace (`unshare --user --map-root-user --mount`, no privileges needed), after
  a shell `script` that may mount a small tmpfs or remount a folder read-only there; the
  host's mounts are never touched. Skips the test when the system forbids namespaces.

Both run `tests/support/database_child.py` and return its JSON report.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHILD = [sys.executable, "-m", "tests.support.database_child"]


def _report(completed: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    lines = completed.stdout.strip().splitlines()
    assert completed.returncode == 0 and lines, (completed.stdout, completed.stderr)
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def open_unprivileged(*args: str) -> dict[str, Any]:
    """Run the child (`open PATH` or `fill PATH FILLER`) without capabilities."""
    completed = subprocess.run([*CHILD, "--no-privileges", *args], cwd=ROOT,
                               capture_output=True, text=True, timeout=120, check=False)
    return _report(completed)


def namespaces_available() -> bool:
    """Whether this system lets us make a user and mount namespace and mount in it."""
    if shutil.which("unshare") is None:
        return False
    completed = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
         "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || "
         "mount -t tmpfs -o size=64k tmpfs /tmp"],
        capture_output=True, timeout=30, check=False,
    )
    return completed.returncode == 0


def open_in_namespace(script: str, *args: str) -> dict[str, Any]:
    """Run `script` (shell) then the child with `args`, in a new user and mount namespace."""
    if not namespaces_available():
        pytest.skip("this system does not allow user and mount namespaces (unshare)")
    command = script + " && exec " + shlex.join([*CHILD, *args])
    completed = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-ec", command],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    return _report(completed)
