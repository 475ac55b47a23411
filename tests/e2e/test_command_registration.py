"""The slash commands are registered with Discord once, not at every start: the real bot
process against the stand-in, started, stopped and started again on the same database,
SQLite and PostgreSQL alike, sends Discord's "Bulk Overwrite Global Application Commands"
(PUT .../commands) at its first start only. The schema's hash is kept in the database
(`bot/sync.py`, among the bot's own values of `storage/settings.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from localplay.server import LocalDiscord
from tests.support.local_discord import READY_TIMEOUT
from tests.support.postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An SQLite file, or a fresh database of the session's PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.new_database()
    try:
        yield url
    finally:
        server.drop_database(url)


def _registrations(local: LocalDiscord) -> list[str]:
    return [path for method, path, status in local.standin.request_log
            if method == "PUT" and path.endswith("/commands") and status == 200]


async def test_a_second_start_does_not_register_the_commands_again(
    database: str, tmp_path: Path
) -> None:
    local = LocalDiscord(database=database, log_path=tmp_path / "bot.log",
                         ready_timeout=READY_TIMEOUT)
    async with local:
        assert len(_registrations(local)) == 1
        await local.restart_bot(kill=False)
        await local.restart_bot(kill=True)
        assert local.standin.identify_count == 3
        assert len(_registrations(local)) == 1
        answer = await local.standin.slash("alice", "games", "help", {}, timeout=30)
        assert answer.reply.text()  # the restarted bot answers its commands
    log = local.process.log_path.read_text(encoding="utf-8", errors="replace")
    assert log.count("synced ") == 1
    assert log.count("commands unchanged since the last global sync") == 2
