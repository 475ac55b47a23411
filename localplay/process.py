"""The real bot as a child process, pointed at the local Discord stand-in.

`BotProcess` runs `python -m localplay.clock` (`bot run` with a clock local play can move
on, `localplay.clock`; `python -m bot run` itself with `movable_clock=False`) with
`DAMA_DISCORD_URL` set to the stand-in's address, `DISCORD_TOKEN` set to the token the
stand-in accepts and `DAMA_DATABASE` set to a local file, so the bot takes exactly the
code path it takes with Discord. Its log goes to a file (`log_path`), read back when
something goes wrong; the log is appended to, so only the lines of the latest start are
shown (`run_log()`), the bot's own one-line reason (`reason()`) first.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

from localplay.clock import CLOCK_FILE_ENV, advance, clock_path_for

#: Variables of the parent environment that must not leak into the child: the stand-in
#: decides these (a development guild from `.env` would not exist in the fake server).
_OVERRIDDEN = ("DAMA_DISCORD_URL", "DISCORD_TOKEN", "DAMA_DATABASE", "DAMA_DEV_GUILD")


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


class BotProcessError(RuntimeError):
    """The bot process could not be started, or it ended when it should be running."""


class BotProcess:
    """One bot process at a time: `start()`, `kill()` (SIGKILL), `stop()` (SIGTERM).

    `url` and `token`: the stand-in's address and accepted token. `database`: the SQLite
    file (created by the bot). `log_path`: where the bot's standard output and error go
    (appended, so restarts keep the earlier log). `env`: extra settings, e.g.
    `DAMA_LEADERBOARD_MIN_GAMES`; they win over the parent environment but not over the four
    variables above.
    """

    def __init__(
        self,
        *,
        url: str,
        token: str,
        database: str | os.PathLike[str],
        log_path: str | os.PathLike[str],
        env: Mapping[str, str] | None = None,
        python: str = sys.executable,
        movable_clock: bool = True,
    ) -> None:
        self.url = url
        self.token = token
        self.database = str(database)
        self.log_path = Path(log_path)
        self.extra_env = dict(env or {})
        self.python = python
        self.movable_clock = movable_clock
        """True: the process is `python -m localplay.clock`, whose clock `advance_clock`
        moves on; False: `python -m bot run` itself, on the real time (where `localplay`
        is not importable in the child)."""
        self.clock_path = clock_path_for(self.database, self.log_path)
        """The file of the bot's clock's offset (`localplay.clock`), shared by every
        process of a session."""
        self._process: asyncio.subprocess.Process | None = None
        self._log_start = 0
        self.starts = 0

    def environment(self) -> dict[str, str]:
        """The child's environment (the parent's, the extra settings, then ours)."""
        env = {k: v for k, v in os.environ.items() if k not in _OVERRIDDEN}
        # No game pages unless asked for (`--web`), whatever `.env` says: empty wins over it.
        env.update(DAMA_WEB_ADDRESS="", DAMA_WEB_URL="")
        env.update(self.extra_env)
        env.update(
            DAMA_DISCORD_URL=self.url,
            DISCORD_TOKEN=self.token,
            DAMA_DATABASE=self.database,
            DAMA_DEV_GUILD="",
            PYTHONUNBUFFERED="1",
            **{CLOCK_FILE_ENV: str(self.clock_path)},
        )
        return env

    def advance_clock(self, seconds: float) -> timedelta:
        """Move the bot's clock on by `seconds` (`localplay.clock.advance`); returns how
        far ahead of the real time it is now. Raises `ValueError` unless `seconds` > 0,
        and `BotProcessError` for a process on the real time (`movable_clock` False)."""
        if not self.movable_clock:
            raise BotProcessError("this bot process runs on the real time (`bot run`)")
        return advance(self.clock_path, seconds)

    @property
    def pid(self) -> int | None:
        """The running process's id (None before `start` or after it ended)."""
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        """True while the process is alive."""
        return self._process is not None and self._process.returncode is None

    @property
    def returncode(self) -> int | None:
        """The exit status once the process ended (negative: killed by that signal)."""
        return None if self._process is None else self._process.returncode

    async def start(self) -> None:
        """Start the bot. Raises `BotProcessError` if one is already running."""
        if self.running:
            raise BotProcessError("the bot process is already running")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if "://" not in self.database:  # a file, not a database server's URL
            Path(self.database).parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self._log_start = log.seek(0, os.SEEK_END)  # where this run's lines begin
            module = ("localplay.clock",) if self.movable_clock else ("bot", "run")
            self._process = await asyncio.create_subprocess_exec(
                self.python,
                "-m",
                *module,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                env=self.environment(),
            )
        self.starts += 1

    async def wait(self) -> int | None:
        """Wait until the process ends; returns its exit status (None before `start`)."""
        if self._process is None:
            return None
        return await self._process.wait()

    async def kill(self) -> int | None:
        """SIGKILL (no clean-up at all, as a crash or power cut); returns the exit status."""
        process = self._process
        if process is None or process.returncode is not None:
            return self.returncode
        process.send_signal(signal.SIGKILL)
        return await process.wait()

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after `timeout` seconds; returns the exit status."""
        process = self._process
        if process is None or process.returncode is not None:
            return self.returncode
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            return await self.kill()

    def check_alive(self) -> None:
        """Raise `BotProcessError` if the bot has exited: the bot's own reason first, then
        the end of this run's log."""
        if self._process is not None and self._process.returncode is not None:
            raise BotProcessError(self.explain(
                f"the bot process exited with status {self._process.returncode}"
            ))

    def explain(self, what: str) -> str:
        """`what` went wrong, as one message: the bot's reason line (when it gave one),
        `what`, then the last 30 lines of this run's log (the reason line not repeated)."""
        reason = self.reason()
        tail = [line for line in self.run_log().splitlines() if line.strip() != reason][-30:]
        head = f"{reason.removeprefix('dama-bot: ')}\n({what})" if reason else what
        if not tail:
            return head
        return (f"{head}; end of the bot's log of this run ({self.log_path}):\n"
                + "\n".join(tail))

    def run_log(self) -> str:
        """The bot's log since the latest `start()` (the whole file before any), colour
        codes removed ("" when there is none)."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(self._log_start)
                data = log.read()
        except FileNotFoundError:
            return ""
        return _COLOUR.sub("", data.decode("utf-8", errors="replace"))

    def reason(self) -> str | None:
        """The last line of this run's log in which the bot says why it stopped (it writes
        those as `dama-bot: ...`), or None."""
        said = [line.strip() for line in self.run_log().splitlines()
                if line.startswith("dama-bot: ")]
        return said[-1] if said else None

    def log_tail(self, lines: int = 30) -> str:
        """The last `lines` lines of the bot's whole log (all runs), colour codes removed
        ("" when there is none yet)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""
        return "\n".join(_COLOUR.sub("", line) for line in text.splitlines()[-lines:])
