"""The real `DamaBot`, in this process, against the local Discord stand-in over real
sockets: login, gateway, command registration, interactions, uploads."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import DamaBot
from bot.discord_endpoint import apply_discord_url, restore_endpoint
from bot.standin import MessageRecord, StandIn
from bot.sync import command_schema
from tests.bot.conftest import settings_for

PNG = b"\x89PNG\r\n\x1a\n"


async def followups(standin: StandIn, interaction_id: int) -> tuple[MessageRecord, ...]:
    """The follow-ups of an interaction, waiting up to 10 s for the first."""
    for _ in range(200):
        found = standin.interaction(interaction_id).followups
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError("no follow-up")


async def test_a_game_over_real_sockets(tmp_path: Path) -> None:
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("games",))
        previous = apply_discord_url(standin.url)
        bot = DamaBot(settings_for(tmp_path / "db.sqlite3", token=standin.token),
                      run_scheduler=False)
        runner = asyncio.create_task(bot.start(standin.token))
        try:
            await standin.wait_until_connected(timeout=30)
            registered = await standin.wait_for_commands(["challenge", "move"], timeout=30)
            ours = command_schema(bot.tree)
            assert {c["name"] for c in registered} == {c["name"] for c in ours}
            by_name = {c["name"]: c for c in registered}
            for command in ours:
                options = [o["name"] for o in command.get("options", [])]
                assert [o["name"] for o in by_name[command["name"]].get("options", [])] == options

            made = await standin.slash("alice", "games", "challenge",
                                       {"opponent": "bob", "variant": "italian",
                                        "color": "white", "rated": True})
            assert not made.ephemeral
            stranger = await standin.press("carol", made.reply, "Accept")
            assert stranger.ephemeral and "only they can accept" in stranger.reply.content
            started = await standin.press("bob", made.reply, "Accept")
            assert "accepted" in started.reply.embeds[0]["description"]
            board = (await followups(standin, started.interaction_id))[0]
            assert board.attachments[0].filename == "board.png"
            assert board.attachments[0].data.startswith(PNG)

            choices = await standin.autocomplete("alice", "games", "move", {"move": "22"})
            # RULES.md numbering: 22 = d3, 18 = c4, 19 = e4.
            assert {c.value for c in choices} == {"d3-c4", "d3-e4"}
            assert all("(22-" in c.name for c in choices)
            nothing = await standin.autocomplete("bob", "games", "move", {"move": ""})
            assert nothing == ()
            moved = await standin.slash("alice", "games", "move", {"move": "22-18"})
            assert not moved.ephemeral and "played **d3-c4**" in moved.reply.content
            assert moved.reply.attachments[0].data.startswith(PNG)
            wrong = await standin.slash("alice", "games", "move", {"move": "21-17"})
            assert wrong.ephemeral and "not your turn" in wrong.reply.content

            resigned = await standin.press("bob", moved.reply, "Resign")
            assert "wins (1-0)" in resigned.reply.content
            assert resigned.reply.components == ()
            leaderboard = await standin.slash("bob", "games", "leaderboard",
                                              {"variant": "italian"})
            assert "Your place: **2** of 2" in leaderboard.reply.embeds[0]["description"]
        finally:
            await bot.close()
            await asyncio.gather(runner, return_exceptions=True)
            restore_endpoint(previous)
        assert not standin.internal_errors
