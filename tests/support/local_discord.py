"""The real bot process against the local Discord stand-in: one per test, on a temporary
database, with generous timeouts (a loaded 2-core machine imports and renders slowly).

A `conftest.py` makes the `local` fixture available with
`from tests.support.local_discord import local`."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from localplay.server import LocalDiscord
from localplay.session import TerminalSession

READY_TIMEOUT = 90.0
"""Seconds the bot process has to log in and register its commands."""

ANSWER_TIMEOUT = 30.0
"""Seconds the bot has to complete one answer (a deferral must still come within 3 s)."""


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """A started stand-in with server "Dama Club" (#general, #games) and the bot logged in."""
    discord = LocalDiscord(
        database=tmp_path / "bot.sqlite3",
        log_path=tmp_path / "bot.log",
        ready_timeout=READY_TIMEOUT,
    )
    async with discord:
        try:
            yield discord
        finally:  # shown by pytest only when the test failed
            print(f"--- end of the bot's log ({discord.process.log_path}) ---")
            print(discord.process.log_tail(40))
        errors = [
            error for error in discord.standin.internal_errors
            # a request cut by the SIGKILL tests: the client vanished, nothing failed here
            if "ConnectionResetError" not in error
        ]
        assert not errors, f"the stand-in failed on requests: {errors}"
    log = discord.process.log_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, f"the bot logged an exception:\n{log[-4000:]}"


async def run_script(local: LocalDiscord, lines: Sequence[str], boards: Path) -> list[str]:
    """Run `lines` (local play's commands) in one terminal session against `local`,
    saving board pictures in `boards`; returns the transcript. Every line must work."""
    out: list[str] = []
    async with TerminalSession(local, boards_dir=boards, emit=out.append,
                               timeout=ANSWER_TIMEOUT) as session:
        for line in lines:
            assert await session.run_line(line) is not False, (line, out[-20:])
        await session.finish()
    assert session.failures == 0
    return out


def read_database(local: LocalDiscord) -> sqlite3.Connection:
    """The bot's database, opened read only (the test checks what the bot stored)."""
    return sqlite3.connect(f"file:{local.process.database}?mode=ro", uri=True)
