"""Texts name the commands as each reader's Discord client shows them, in the real bot
process against the stand-in (`bot/messages/mentions.py`): English and Arabic readers get
command mentions whose ids are the registered commands' ids (their clients show the
registered names), Turkish readers the Turkish names their command list shows."""

from __future__ import annotations

from pathlib import Path

from bot.messages import LRI, PDI
from localplay.server import LocalDiscord
from standin import command_mentions, shown_text, unknown_mentions
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT


async def test_each_reader_gets_the_commands_as_their_client_shows_them(
    tmp_path: Path,
) -> None:
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        registered = standin.commands()
        ids = {c["name"]: int(c["id"]) for c in registered}
        standin.user("alice")
        standin.user("ayse", locale="tr")
        standin.user("karim")

        # No game in the channel: the answer points at /play and /challenge.
        english = (await standin.slash("alice", local.channel, "board",
                                       timeout=ANSWER_TIMEOUT)).reply.content
        assert [(m.name, m.command_id) for m in command_mentions(english)] == [
            ("play", ids["play"]), ("challenge", ids["challenge"])], english
        assert not unknown_mentions(english, registered)
        assert "Start one with /play (against the computer) or /challenge a player." in (
            shown_text(english))

        turkish = (await standin.slash("ayse", local.channel, "board",
                                       timeout=ANSWER_TIMEOUT)).reply.content
        assert not command_mentions(turkish), turkish
        assert "/oyna" in turkish and "/meydan-oku" in turkish, turkish
        assert "/play" not in turkish and "/challenge" not in turkish, turkish

        chosen = await standin.slash("karim", local.channel, "settings", {"language": "ar"},
                                     timeout=ANSWER_TIMEOUT)
        assert f"{LRI}</settings:{ids['settings']}> language:{PDI}" in (
            chosen.reply.text()), chosen.reply.text()
        arabic = (await standin.slash("karim", local.channel, "board",
                                      timeout=ANSWER_TIMEOUT)).reply.content
        assert [m.name for m in command_mentions(arabic)] == ["play", "challenge"], arabic
        assert not unknown_mentions(arabic, registered)
