"""Python processes in which the development tools (`standin`, `localplay`) are missing, as in
an installation of the bot alone.

`blocking_path(folder)` writes a `sitecustomize.py` into `folder` and returns it: put it on
`PYTHONPATH` and every import of `standin` or `localplay` (and their submodules) in that
process raises `ModuleNotFoundError`, as when the packages are not installed.
"""

from __future__ import annotations

from pathlib import Path

TOOLS = ("standin", "localplay")

_SITECUSTOMIZE = f'''"""Test harness (tests/support/tools_blocked.py): {TOOLS} are not installed."""
import sys


class _NotInstalled:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in {TOOLS!r}:
            raise ModuleNotFoundError(f"No module named {{top!r}}", name=top)
        return None


sys.meta_path.insert(0, _NotInstalled())
'''


def blocking_path(folder: Path) -> Path:
    """Write the blocking `sitecustomize.py` into `folder` (created if missing); return
    `folder`, the entry to put first on the child's `PYTHONPATH`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
    return folder
