"""Command registration (`bot/sync.py`): the schema Discord receives, a sync only when it
changed, and a development guild the bot is not in."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.client import DamaBot
from bot.config import ConfigError
from bot.discord_endpoint import apply_discord_url, restore_endpoint
from bot.ui.translator import CommandTranslator
from standin import StandIn
from tests.support.discord_harness import Harness, OpenBot, settings_for

GAME_COMMANDS = {"challenge", "move", "board", "resign", "draw", "abort", "play",
                 "rematch"}


INFO_COMMANDS = {"rating", "leaderboard", "history", "export", "rules", "help", "analyze"}
SETTINGS_COMMANDS = {"settings", "server-settings"}

PUZZLE_COMMANDS = {"puzzle", "solve"}
"""A solver's own puzzle, anywhere; the daily puzzle's settings are per server."""
DAILY_PUZZLE_COMMANDS = {"puzzle-daily", "puzzle-daily-stop"}


async def test_command_schema(harness: Harness) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.payload}
    assert set(commands) == (GAME_COMMANDS | INFO_COMMANDS | SETTINGS_COMMANDS
                             | PUZZLE_COMMANDS | DAILY_PUZZLE_COMMANDS)
    for command in commands.values():
        assert command["description"]
        for opt in command.get("options", []):
            assert opt["description"], (command["name"], opt["name"])
    for name in GAME_COMMANDS | DAILY_PUZZLE_COMMANDS:
        assert commands[name]["contexts"] == [0], name
    for name in INFO_COMMANDS | PUZZLE_COMMANDS:
        assert sorted(commands[name]["contexts"]) == [0, 1, 2], name
    challenge = {o["name"]: o for o in commands["challenge"]["options"]}
    assert list(challenge) == ["opponent", "variant", "rated", "color", "move_time"]
    assert challenge["opponent"]["type"] == 6 and challenge["opponent"]["required"]
    assert [c["value"] for c in challenge["variant"]["choices"]] == [
        "turkish", "arab", "moroccan", "italian"]
    assert challenge["rated"]["type"] == 5 and not challenge["rated"].get("required")
    assert [c["value"] for c in challenge["color"]["choices"]] == ["white", "black", "random"]
    assert [c["value"] for c in challenge["move_time"]["choices"]] == [
        "none", "40s", "5m", "1h", "1d"]
    [move] = commands["move"]["options"]
    assert move["name"] == "move" and move["autocomplete"] and move["required"]
    scope = {o["name"]: o for o in commands["leaderboard"]["options"]}["scope"]
    assert [c["value"] for c in scope["choices"]] == ["server", "global"]
    export = commands["export"]["options"][0]
    assert export["type"] == 4 and export["min_value"] == 1


async def test_command_sync_only_when_changed(tmp_path: Path, open_bot: OpenBot) -> None:
    for expected in (1, 1):
        h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
        await h.bot.close()
        assert sum(c.method == "PUT" for c in h.discord.calls) == expected
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", dev_guild=77))
    await h.bot.close()
    puts = [c.path for c in h.discord.calls if c.method == "PUT"]
    assert puts[-1].endswith("/guilds/77/commands")


async def test_a_development_guild_the_bot_is_not_in_is_a_one_line_config_error(
    tmp_path: Path,
) -> None:
    # Discord answers 50001 Missing Access to a guild command sync for a guild the bot is
    # not in; the operator gets the ConfigError line (bot.__main__ prints it), not a
    # traceback of discord.Forbidden.
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("games",))
        previous = apply_discord_url(standin.url)
        client = DamaBot(settings_for(tmp_path / "db.sqlite3", token=standin.token,
                                      dev_guild=123456789), run_scheduler=False)
        try:
            with pytest.raises(ConfigError) as caught:
                await asyncio.wait_for(client.start(standin.token), timeout=30)
        finally:
            await client.close()
            restore_endpoint(previous)
    message = str(caught.value)
    assert "DAMA_DEV_GUILD" in message and "123456789" in message and "\n" not in message


async def test_localizations_are_registered(harness: Harness) -> None:
    # The stand-in refuses localizations Discord would refuse (tests/standin/test_rest.py);
    # these are what the bot registers: tr, it, fr (Discord has no Arabic locale).
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.payload}
    challenge = commands["challenge"]
    assert challenge["name_localizations"] == {"tr": "meydan-oku", "it": "sfida", "fr": "défi"}
    assert challenge["description_localizations"]["fr"].startswith("Défier un joueur")
    options = {o["name"]: o for o in challenge["options"]}
    assert options["opponent"]["name_localizations"] == {
        "tr": "rakip", "it": "avversario", "fr": "adversaire"}
    turkish = options["variant"]["choices"][0]
    assert turkish["name_localizations"] == {
        "tr": "Türk daması", "it": "Dama turca", "fr": "Dames turques"}
    for command in commands.values():
        assert set(command["name_localizations"]) == {"tr", "it", "fr"}, command["name"]


async def test_a_changed_translation_is_registered_again(
    tmp_path: Path, open_bot: OpenBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
        await h.bot.close()
        assert sum(c.method == "PUT" for c in h.discord.calls) == 1
    original = CommandTranslator.translate

    async def retranslated(self: CommandTranslator, string: Any, locale: Any,
                           context: Any) -> str | None:
        found = await original(self, string, locale, context)
        return "sfida-ora" if found == "sfida" else found

    monkeypatch.setattr(CommandTranslator, "translate", retranslated)
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    await h.bot.close()
    puts = [c for c in h.discord.calls if c.method == "PUT"]
    assert len(puts) == 2  # the calls of the three starts: synced again
    assert {c["name"]: c for c in puts[-1].payload}["challenge"]["name_localizations"]["it"] == (
        "sfida-ora")
