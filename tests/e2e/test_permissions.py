"""A channel that denies the bot Attach Files, in the real bot process against the local
stand-in: the answers to commands and the bot's own posts (the computer's moves) carry
the board as text, saying which permission is missing."""

from __future__ import annotations

from pathlib import Path

from localplay.server import LocalDiscord
from standin import EventKind, MessageEvent
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT

ATTACH_FILES = 1 << 15
"""Discord's ATTACH_FILES permission bit (API v10, "Permissions")."""
PATIENCE = 60.0


async def test_a_channel_denying_attach_files_gets_text_boards(tmp_path: Path) -> None:
    env = {"DAMA_COMPUTER_WORKERS": "1", "DAMA_COMPUTER_BUDGET": "0.1"}
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            env=env, ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        alice = standin.user("alice")
        channel = local.channel
        assert local.guild is not None
        await standin.set_permissions(channel, standin.everyone(local.guild.id),
                                      deny=ATTACH_FILES)
        started = await standin.slash(alice, channel, "play",
                                      {"variant": "italian", "level": 1, "color": "white"},
                                      timeout=ANSWER_TIMEOUT)
        board = started.reply
        assert not started.ephemeral and not board.attachments
        assert "denies me the Attach Files permission" in board.content
        # Italian start from White's side, empty squares 13..20 numbered (FID).
        assert " 5    13    14    15    16  5" in board.content
        assert any(b.label == "Resign" for b in board.buttons)
        mark = standin.event_count
        moved = await standin.slash(alice, channel, "move", {"move": "22-18"},
                                    timeout=ANSWER_TIMEOUT)
        assert "played **22-18**" in moved.reply.content and not moved.reply.attachments

        def computer_posted(event: MessageEvent) -> bool:
            message = event.message
            return (event.kind is EventKind.CREATE and message.channel_id == channel.id
                    and message.content.startswith("Computer (level"))

        # The computer's move is the bot's own post: the channel's permissions as cached.
        event = await standin.wait_for_message(computer_posted, since=mark, timeout=PATIENCE)
        post = event.message
        assert not post.attachments and "Attach Files" in post.content, post.content
        assert "```" in post.content
    assert not standin.internal_errors
