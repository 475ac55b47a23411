"""Command registration (`bot/sync.py`): the schema Discord receives, a sync only when it
changed, by one process (claims, their take-over, a restart within a dead process's claim),
a development guild the bot is not in, and the commands' ids learned for the texts'
mentions."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import DamaBot
from bot.config import ConfigError
from bot.discord_endpoint import apply_discord_url, restore_endpoint
from bot.messages.mentions import NO_COMMAND_IDS, CommandIds, installed_command_ids
from bot.sync import CLAIM_SECONDS, POLL_SECONDS, SCHEMA_HASH
from bot.ui.translator import CommandTranslator
from standin import StandIn, shown_text, unknown_mentions
from storage import Storage
from storage.clock import to_ms
from tests.support.clock import FakeClock
from tests.support.discord_harness import Harness, OpenBot, settings_for
from tests.support.fake_discord import Call, FakeDiscord
from tests.support.schema_hash import store_schema_hash, stored_schema_hash

GAME_COMMANDS = {"challenge", "move", "board", "resign", "draw", "abort", "play",
                 "rematch"}


INFO_COMMANDS = {"rating", "leaderboard", "history", "games", "export", "rules", "help",
                 "analyze"}
SETTINGS_COMMANDS = {"settings", "server-settings"}

PUZZLE_COMMANDS = {"puzzle", "solve"}
"""A solver's own puzzle, anywhere; the daily puzzle's settings are per server."""
DAILY_PUZZLE_COMMANDS = {"puzzle-daily", "puzzle-daily-stop"}
TOURNAMENT_COMMANDS = {"tournament"}
"""A group of subcommands (tests/bot/cogs/test_tournaments.py checks them), in servers."""


async def test_command_schema(harness: Harness) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.payload}
    assert set(commands) == (GAME_COMMANDS | INFO_COMMANDS | SETTINGS_COMMANDS
                             | PUZZLE_COMMANDS | DAILY_PUZZLE_COMMANDS | TOURNAMENT_COMMANDS)
    for command in commands.values():
        assert command["description"]
        for opt in command.get("options", []):
            assert opt["description"], (command["name"], opt["name"])
    challenge = {o["name"]: o for o in commands["challenge"]["options"]}
    assert list(challenge) == ["opponent", "variant", "rated", "color", "move_time", "clock"]
    assert challenge["opponent"]["type"] == 6 and challenge["opponent"]["required"]
    assert [c["value"] for c in challenge["variant"]["choices"]] == [
        "turkish", "arab", "moroccan", "italian", "international", "brazilian", "russian",
        "english"]
    assert challenge["rated"]["type"] == 5 and not challenge["rated"].get("required")
    assert [c["value"] for c in challenge["color"]["choices"]] == ["white", "black", "random"]
    assert [c["value"] for c in challenge["move_time"]["choices"]] == [
        "none", "40s", "5m", "1h", "1d", "2d", "3d", "5d", "7d", "14d"]
    assert [c["value"] for c in challenge["clock"]["choices"]] == ["3+2", "5+3", "10+5", "15+10"]
    assert challenge["clock"]["type"] == 3 and not challenge["clock"].get("required")
    move, draw = commands["move"]["options"]
    assert move["name"] == "move" and move["autocomplete"] and move["required"]
    assert draw["name"] == "draw" and draw["type"] == 5 and not draw.get("required")
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
    # The hash is among the bot's own values in the database.
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        stored = (await storage.settings.bot_values())[SCHEMA_HASH]
    assert len(stored) == 64 and int(stored, 16) >= 0


async def test_a_process_starting_while_another_syncs_does_not_sync(
    tmp_path: Path
) -> None:
    # The second process starts while the first is syncing (its request to Discord on
    # the way): it finds the first's claim in the database, waits, and syncs nothing.
    database = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    bots: list[DamaBot] = []
    second: list[asyncio.Task[None]] = []
    claims: list[str | None] = []

    async def start(bot: DamaBot) -> None:
        bots.append(bot)
        await bot.login("fake-token")

    async def start_the_second(call: Call) -> None:
        if call.method == "PUT" and not second:
            claims.append(await stored_schema_hash(database))
            second.append(asyncio.create_task(start(
                DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False))))
            await asyncio.sleep(4 * POLL_SECONDS)  # the second is watching the claim now

    fake.observers.append(start_the_second)
    with fake.installed():
        try:
            await start(DamaBot(settings_for(database), clock=FakeClock(),
                                run_scheduler=False))
            await second[0]
        finally:
            for bot in bots:
                await bot.close()
    assert sum(c.method == "PUT" for c in fake.calls) == 1
    assert [bot.sync_result for bot in bots] == ["global", "unchanged"]
    [claim] = claims
    assert claim is not None and claim.startswith("syncing ")


async def test_a_process_without_shard_zero_never_syncs(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", shard_count=2,
                                    shard_ids=frozenset({1})))
    assert h.bot.sync_result is None
    assert not any(c.method == "PUT" for c in h.discord.calls)
    assert await stored_schema_hash(tmp_path / "db.sqlite3") is None


async def test_a_failed_sync_leaves_the_stored_hash_as_it_was(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    with fake.installed():
        ok = DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False)
        await ok.login("fake-token")
        await ok.close()
        [put] = [c.path for c in fake.calls if c.method == "PUT"]
        digest = await stored_schema_hash(database)
        await store_schema_hash(database, digest, "0" * 64)  # as if another schema had been synced
        fake.fail_paths.add(put)
        failing = DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False)
        try:
            with pytest.raises(discord.HTTPException):
                await failing.login("fake-token")
        finally:
            await failing.close()
        assert await stored_schema_hash(database) == "0" * 64  # no claim left behind
        fake.fail_paths.clear()
        again = DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False)
        await again.login("fake-token")
        await again.close()
        assert again.sync_result == "global"
        assert await stored_schema_hash(database) == digest


async def test_a_claim_left_by_a_process_that_died_is_taken_over(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    database = tmp_path / "db.sqlite3"
    h = await open_bot(settings_for(database))
    await h.bot.close()
    digest = await stored_schema_hash(database)
    assert digest is not None
    clock = FakeClock()
    stale = clock.now - timedelta(seconds=CLAIM_SECONDS + 1)
    await store_schema_hash(database, digest, f"syncing {digest} {to_ms(stale)}")
    again = await open_bot(settings_for(database), clock=clock)
    assert again.bot.sync_result == "global"
    assert await stored_schema_hash(database) == digest


async def test_a_process_waits_for_another_ones_claim(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    database = tmp_path / "db.sqlite3"
    h = await open_bot(settings_for(database))
    await h.bot.close()
    digest = await stored_schema_hash(database)
    assert digest is not None
    clock = FakeClock()
    claim = f"syncing {digest} {to_ms(clock.now)}"
    await store_schema_hash(database, digest, claim)

    async def the_other_process_finishes() -> None:
        await asyncio.sleep(3 * POLL_SECONDS)
        await store_schema_hash(database, claim, digest)

    finishing = asyncio.create_task(the_other_process_finishes())
    again = await open_bot(settings_for(database), clock=clock)
    await finishing
    assert again.bot.sync_result == "unchanged"
    assert sum(c.method == "PUT" for c in again.discord.calls) == 1  # the first start's


START_GUARD = CLAIM_SECONDS / 4
"""Far more than the start needs, far less than waiting the claim out: a start that waits
for the claim fails here instead of hanging."""


async def test_a_restart_within_the_claim_starts_at_once_and_syncs_later(
    tmp_path: Path
) -> None:
    # A process restarted while the claim of its dead predecessor (same commands) still
    # holds: the bot starts at once, answering commands from its own tree, and syncs in the
    # background once the claim is old enough to take over (`CLAIM_SECONDS`).
    database = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    with fake.installed():
        first = DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False)
        await first.login("fake-token")
        await first.close()
        digest = await stored_schema_hash(database)
        assert digest is not None
        # The process died while syncing these commands (its claim is fresh), after a
        # deploy changed nothing else: the stored hash is its claim.
        clock = FakeClock()
        claim = f"syncing {digest} {to_ms(clock.now)}"
        await store_schema_hash(database, digest, claim)
        puts = sum(c.method == "PUT" for c in fake.calls)
        again = DamaBot(settings_for(database), clock=clock, run_scheduler=False)
        try:
            await asyncio.wait_for(again.login("fake-token"), START_GUARD)
            assert again.sync_result is None  # not synced yet: the claim still holds
            assert await stored_schema_hash(database) == claim
            clock.advance(timedelta(seconds=CLAIM_SECONDS + 1))
            for _ in range(40):
                if again.sync_result is not None:
                    break
                await asyncio.sleep(POLL_SECONDS)
            assert again.sync_result == "global"
            assert sum(c.method == "PUT" for c in fake.calls) == puts + 1
            assert await stored_schema_hash(database) == digest
        finally:
            await again.close()


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


async def test_the_bot_learns_the_registered_commands_ids_and_its_texts_mention_them(
    tmp_path: Path,
) -> None:
    # The first start syncs; the second finds the commands unchanged and does not sync,
    # and learns the same ids from Discord's list. English texts mention the commands
    # with them, Turkish ones name the commands as a Turkish client shows them.
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("games",))
        standin.user("ayse", locale="tr")
        previous = apply_discord_url(standin.url)
        try:
            for start in range(2):
                bot = DamaBot(settings_for(tmp_path / "db.sqlite3", token=standin.token),
                              run_scheduler=False, mention_commands=True)
                runner = asyncio.create_task(bot.start(standin.token))
                try:
                    await standin.wait_until_connected(timeout=30)
                    registered = {c["name"]: int(c["id"]) for c in standin.commands()}
                    assert bot.sync_result == ("global", "unchanged")[start]
                    assert installed_command_ids() == CommandIds.of(registered)
                    answer = (await standin.slash("alice", "games", "board")).reply.content
                    assert f"</play:{registered['play']}>" in answer, answer
                    assert f"</challenge:{registered['challenge']}>" in answer, answer
                    assert not unknown_mentions(answer, standin.commands())
                    assert "Start one with /play (against" in shown_text(answer)
                    turkish = (await standin.slash("ayse", "games", "board")).reply.content
                    assert "/oyna" in turkish and "</" not in turkish, turkish
                finally:
                    await bot.close()
                    await asyncio.gather(runner, return_exceptions=True)
                assert installed_command_ids() == NO_COMMAND_IDS  # closed: none left behind
        finally:
            restore_endpoint(previous)
