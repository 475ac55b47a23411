"""Installs of the app to players' accounts, kept beside the database from run to run."""

from __future__ import annotations

from pathlib import Path

from localplay.server import LOCAL_ID_SEED, LocalDiscord
from localplay.session import TerminalSession
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT


async def test_installs_are_kept_beside_the_database_for_the_next_run(tmp_path: Path) -> None:
    def local_discord() -> LocalDiscord:
        return LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT, id_seed=LOCAL_ID_SEED)

    out: list[str] = []
    earlier = local_discord()
    async with earlier, TerminalSession(earlier, boards_dir=tmp_path / "boards",
                                        emit=out.append, timeout=ANSWER_TIMEOUT) as session:
        assert not await session.run_line("as alice in dm:@bob /rules")
        assert out[-1] == ("! alice has not installed the app to their account (type "
                           "`install`), and /rules is not offered here otherwise")
        assert await session.run_line("install")
        assert await session.run_line("/rules")
        await session.finish()
    assert (tmp_path / "bot.sqlite3.installs").is_file()
    later = local_discord()
    async with later, TerminalSession(later, boards_dir=tmp_path / "boards", emit=print,
                                      timeout=ANSWER_TIMEOUT) as session:
        assert later.standin.installed_for_user("alice")
        assert not later.standin.installed_for_user("bob")
        assert await session.run_line("as alice in dm:@bob /rules")
        await session.finish()
