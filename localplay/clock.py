"""The bot's clock in local play: the real time moved on by `later` (docs/LOCAL_PLAY.md).

A correspondence game's move time is days and a turn notification comes a minute after
the move, later while its player is active (docs/ARCHITECTURE.md, "Notifications"), so
a script makes time pass instead of waiting for it. The bot process local play starts
(`python -m localplay.clock`, `BotProcess`) is `bot run` with a `ShiftedClock`: the
real UTC time plus an offset kept in a file (the environment variable `CLOCK_FILE_ENV`
names it), which `advance` moves on. Every process of a session (one per shard) reads
the same file, so they share one time. The bot's sleeps are real seconds: a scheduler
asleep when the clock jumps notices at its next look at the time (the notifications'
planner looks at least every 30 seconds).
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta
from pathlib import Path

from storage.clock import utc_now

CLOCK_FILE_ENV = "LOCALPLAY_CLOCK_FILE"
"""The variable naming the offset's file in the bot process's environment."""


def clock_path_for(database: str, log_path: str | os.PathLike[str]) -> Path:
    """The offset's file of a session: `<database>.clock` beside an SQLite file (the time
    goes with the games it stored, and `--fresh`, which deletes the file's companions,
    starts again from the real time), else `local-clock` beside the log (a PostgreSQL
    URL; every shard's log is in the same folder)."""
    if "://" in database:
        return Path(log_path).parent / "local-clock"
    return Path(database + ".clock")


class ShiftedClock:
    """The real UTC time plus the seconds written in `path` (0 while it is missing or
    unreadable); a `storage.clock.Clock`. The file is read again whenever it changed."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._stamp: tuple[int, int] | None = None
        self._offset = timedelta()

    @property
    def offset(self) -> timedelta:
        """How far ahead of the real time the clock is."""
        try:
            status = self.path.stat()
        except OSError:
            return timedelta()
        stamp = (status.st_ino, status.st_mtime_ns)
        if stamp != self._stamp:
            try:
                self._offset = timedelta(seconds=float(self.path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                return self._offset
            self._stamp = stamp
        return self._offset

    def __call__(self) -> datetime:
        return utc_now() + self.offset


def advance(path: str | os.PathLike[str], seconds: float) -> timedelta:
    """Move the clock of `path` on by `seconds` (more than 0); returns the new offset.
    Raises `ValueError` for a time that does not move on. The file is replaced at once
    (written beside it, then renamed), so a reader never sees half of it."""
    if not seconds > 0:
        raise ValueError(f"time only moves on, not by {seconds:g} s")
    target = Path(path)
    offset = ShiftedClock(target).offset + timedelta(seconds=seconds)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".new")
    partial.write_text(f"{offset.total_seconds():.3f}", encoding="utf-8")
    partial.replace(target)
    return offset


def main() -> int:
    """`python -m localplay.clock`: `bot run` (`bot.app.run`, the settings from the
    environment) with the clock of the file `CLOCK_FILE_ENV` names. A bad setting gives
    one line and status 2, as `python -m bot run` does."""
    from bot.app import run
    from bot.config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"dama-bot: {error}", file=sys.stderr)
        return 2
    return run(settings, clock=ShiftedClock(os.environ[CLOCK_FILE_ENV]))


if __name__ == "__main__":
    sys.exit(main())
