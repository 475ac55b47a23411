"""A clean stop (SIGTERM, as `docker stop` or systemd send) while a move is being answered:
a move is committed before it is answered and nothing is lost across a restart, so the
stop must let the move's work finish (the board message it posted is remembered) and must
not end in an exception."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

from engine import get_variant
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import EventKind, MessageEvent
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import start_game


async def test_sigterm_while_a_move_is_answered(tmp_path: Path) -> None:
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        alice, bob = standin.user("alice"), standin.user("bob")
        game_id, _ = await start_game(local, local.channel, alice, bob, get_variant("italian"))
        pid = local.process.pid
        assert pid is not None
        answer_ids: list[int] = []

        def stop_on_answer(event: MessageEvent) -> None:
            message = event.message
            # Created with its board, or (deferred) edited into it.
            if (event.kind is not EventKind.DELETE and message.attachments
                    and message.interaction_user_id == alice.id and not answer_ids):
                answer_ids.append(message.id)
                os.kill(pid, signal.SIGTERM)  # the bot is told to stop as its answer lands
                time.sleep(0.5)  # and its answer's HTTP response is late: the stop begins

        standin.add_listener(stop_on_answer)
        try:
            moved = await standin.slash(alice, local.channel, "move", {"move": "22-18"},
                                        timeout=ANSWER_TIMEOUT)
        finally:
            standin.remove_listener(stop_on_answer)
        assert not moved.ephemeral and answer_ids == [moved.reply.id]
        for _ in range(150):
            if not local.process.running:
                break
            await asyncio.sleep(0.1)
        problems: list[str] = []
        if local.process.returncode != 0:
            problems.append(f"exit status {local.process.returncode} 15 s after SIGTERM")
            await local.process.kill()
        log = re.sub(r"\x1b\[[0-9;]*m", "", local.process.log_path.read_text(
            encoding="utf-8", errors="replace"))
        if "Traceback" in log:
            tail = [line for line in log.splitlines() if "Error" in line or "ERROR" in line]
            problems.append("the stop logged exceptions: " + " | ".join(tail[-4:]))
        async with StoredGames(local.process.database) as games:
            stored = await games.load(game_id)
        assert len(stored.moves) == 1  # the move itself was committed before the answer
        if stored.record.board_message_id != moved.reply.id:
            problems.append(f"the game remembers board message {stored.record.board_message_id}"
                            f", not the board it answered with ({moved.reply.id})")
        # After a restart the newest board's buttons are the game's buttons.
        await local.start_bot()
        offer = await standin.press(bob, moved.reply, "Offer draw", timeout=ANSWER_TIMEOUT)
        if offer.ephemeral:
            problems.append(f"after the restart the newest board's Offer draw says: "
                            f"{offer.reply.text()!r}")
        assert not problems, "\n".join(problems)
