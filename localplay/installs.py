"""The players who installed the app to their account, kept from run to run.

On Discord an installation stays until the player removes it; local play keeps the ids
of the players who typed `install` in a file beside the database (`<database>.installs`,
as the clock's offset is kept, `localplay.clock`), so the next run on the same database
has them installed again. A seeded stand-in gives a player the same id in every run
(`localplay.server.LOCAL_ID_SEED`), and `--fresh`, which deletes the database's
companions, deletes the file with it.
"""

from __future__ import annotations

import os
from pathlib import Path


def installs_path_for(database: str | os.PathLike[str], log_path: str | os.PathLike[str]) -> Path:
    """The file of a session's installs: `<database>.installs` beside an SQLite file,
    else `local-installs` beside the log (a PostgreSQL URL)."""
    text = os.fspath(database)
    if "://" in text:
        return Path(log_path).parent / "local-installs"
    return Path(text + ".installs")


def kept_installs(path: str | os.PathLike[str]) -> frozenset[int]:
    """The user ids kept in `path` (none while it is missing or unreadable; a line that
    is not an id is left out)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").split()
    except OSError:
        return frozenset()
    return frozenset(int(line) for line in lines if line.isdigit())


def keep_install(path: str | os.PathLike[str], user_id: int) -> None:
    """Add `user_id` to the installs kept in `path` (created with its folder when
    missing). The file is replaced at once (written beside it, then renamed)."""
    target = Path(path)
    ids = kept_installs(target) | {user_id}
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".new")
    partial.write_text("".join(f"{i}\n" for i in sorted(ids)), encoding="utf-8")
    partial.replace(target)
