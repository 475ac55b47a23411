"""Start-up: the real bot process logs in to the stand-in and registers its commands."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bot.client import DamaBot
from bot.config import Config
from bot.sync import command_schema
from localplay.server import LocalDiscord
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.tools_blocked import blocking_path


async def _schema(folder: Path) -> list[dict[str, Any]]:
    """The bot's own command schema: its composition root (`setup_hook`, no sync, no
    scheduler) on a scratch database, then discord.py's `to_dict` of every command."""
    bot = DamaBot(Config(database=str(folder / "schema.sqlite3")), sync=False,
                  run_scheduler=False)
    # `async with` prepares the client as a login would (an AutoShardedBot's close needs
    # it) and closes it afterwards.
    async with bot:
        await bot.setup_hook()
        return await command_schema(bot.tree)


DISCORD_DEFAULTS: dict[str, Any] = {"integration_types": [0]}
"""What Discord stores for a field sent as null (Application Command Object: installation
contexts default to GUILD_INSTALL)."""

ANSWERED_AS_STRING = frozenset({"default_member_permissions"})
"""Fields Discord answers as a string whatever the request sent (a permission bit set:
Discord developer docs, Topics > Permissions, serialised as a string)."""


def _same(sent: Any, stored: Any, where: str) -> None:
    """Everything the bot sent is stored as sent (None and empty lists: absent, empty or
    Discord's default; `ANSWERED_AS_STRING` as strings; Discord adds ids and versions,
    which are not compared)."""
    if isinstance(sent, dict):
        assert isinstance(stored, dict), where
        for key, value in sent.items():
            if value is None or value == []:
                allowed: tuple[object, ...] = (None, [], DISCORD_DEFAULTS.get(key))
                assert stored.get(key) in allowed, f"{where}.{key}: {stored.get(key)!r}"
                continue
            if key in ANSWERED_AS_STRING:
                value = str(value)
            _same(value, stored.get(key), f"{where}.{key}")
    elif isinstance(sent, list):
        assert isinstance(stored, list) and len(stored) == len(sent), where
        for index, (a, b) in enumerate(zip(sent, stored, strict=True)):
            _same(a, b, f"{where}[{index}]")
    else:
        assert stored == sent, f"{where}: registered {stored!r}, the bot's schema {sent!r}"


async def test_registered_commands_match_the_bots_schema(
    local: LocalDiscord, tmp_path: Path
) -> None:
    schema = await _schema(tmp_path)
    registered = {c["name"]: c for c in local.standin.commands()}
    assert sorted(registered) == sorted(c["name"] for c in schema)
    for command in schema:
        _same(command, registered[command["name"]], "/" + command["name"])
    # Game and information commands everywhere, a server's settings in servers only
    # (every command: tests/bot/cogs/test_contexts.py).
    for name in ("challenge", "move", "board", "resign", "draw", "abort", "rating",
                 "leaderboard", "history", "export", "rules", "help"):
        assert set(registered[name]["contexts"]) == {0, 1, 2}, name
        assert set(registered[name]["integration_types"]) == {0, 1}, name
    assert registered["server-settings"]["contexts"] == [0]
    move = registered["move"]["options"][0]
    assert move["name"] == "move" and move["autocomplete"] is True
    assert local.standin.identify_count == 1


async def test_a_restart_does_not_register_unchanged_commands_again(
    local: LocalDiscord,
) -> None:
    puts = [r for r in local.standin.request_log if r[0] == "PUT" and r[1].endswith("/commands")]
    assert len(puts) == 1
    await local.restart_bot(kill=False)
    puts_after = [
        r for r in local.standin.request_log if r[0] == "PUT" and r[1].endswith("/commands")
    ]
    assert len(puts_after) == 1, "the second start synced commands that had not changed"
    assert local.process.returncode == 0 or local.process.running
    answer = await local.standin.slash("alice", "general", "help", {})
    assert "draughts" in answer.reply.text().lower()


async def test_the_bot_serves_discord_without_the_development_tools(tmp_path: Path) -> None:
    """`dama-bot run` where `standin` and `localplay` are not installed (blocked in the bot
    process; this test process runs the stand-in) logs in, registers its commands and
    answers."""
    site = blocking_path(tmp_path / "site")
    bot_only = LocalDiscord(
        database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
        env={"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])},
        ready_timeout=READY_TIMEOUT, movable_clock=False,
    )
    async with bot_only:
        answer = await bot_only.standin.slash("alice", "general", "rules", {"variant": "turkish"},
                                              timeout=ANSWER_TIMEOUT)
        assert "Turkish" in answer.reply.text()
    log = bot_only.process.log_path.read_text(encoding="utf-8")
    assert "Traceback" not in log and "No module named" not in log
