"""Deadlines in the real bot process: a challenge expires, a silent player loses on time
(short limits set through the environment, as an operator would)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from engine import get_variant
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import EventKind, MessageEvent
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import play_move, start_game


async def test_a_challenge_expires_and_a_silent_player_loses_on_time(tmp_path: Path) -> None:
    env = {"DAMA_CHALLENGE_EXPIRY": "3s", "DAMA_INACTIVITY_LIMIT": "5s"}
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            env=env, ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        alice, bob = standin.user("alice"), standin.user("bob")
        carol = standin.user("carol")
        games = local.channels["games"]
        # To carol: a second pending challenge from alice to bob would be refused.
        challenge = await standin.slash(alice, games, "challenge",
                                        {"opponent": carol, "variant": "arab"},
                                        timeout=ANSWER_TIMEOUT)
        game_id, _ = await start_game(local, local.channel, alice, bob, get_variant("italian"))
        mark = standin.event_count
        await play_move(local, alice, local.channel, "22-18")

        def ended(event: MessageEvent) -> bool:
            message = event.message
            return (event.kind is EventKind.CREATE and message.channel_id == local.channel.id
                    and "lost on time" in message.text())

        # bob does not move: after 5 s the game is lost on time and the channel is told.
        notice = await standin.wait_for_message(ended, since=mark, timeout=ANSWER_TIMEOUT)
        assert f"<@{alice.id}> wins (1-0)" in notice.message.text()
        assert [b.label for b in notice.message.buttons] == ["Rematch", "Replay", "Analyze"]
        async with StoredGames(local.process.database) as stored_games:
            stored = await stored_games.load(game_id)
        assert stored.record.result is not None and stored.record.result.value == "1-0"
        assert len(stored.moves) == 1

        # The challenge, never answered, says so and has no buttons left.
        for _ in range(50):
            expired = standin.message(challenge.reply)
            if not expired.buttons:
                break
            await asyncio.sleep(0.2)
        assert not expired.buttons
        assert "expired" in expired.text()
        late = await standin.slash(bob, games, "move", {"move": "c3-c4"}, timeout=ANSWER_TIMEOUT)
        assert late.ephemeral


@pytest.mark.slow
async def test_a_player_whose_clock_runs_out_loses_on_time(tmp_path: Path) -> None:
    """A 3+2 game in the real bot process: the board shows both clocks, White moves, and
    Black, silent, loses on time when their three minutes are over (docs/PLAYING.md,
    "Clocks"); the stored move has both players' remaining times."""
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        alice, bob = standin.user("alice"), standin.user("bob")
        game_id, board = await start_game(local, local.channel, alice, bob,
                                          get_variant("turkish"), clock="3+2")
        assert "Clocks (3+2)" in board.text() and f"<@{bob.id}>: 3:00" in board.text()
        mark = standin.event_count
        await play_move(local, alice, local.channel, "a3-a4")

        def ended(event: MessageEvent) -> bool:
            message = event.message
            return (event.kind is EventKind.CREATE and message.channel_id == local.channel.id
                    and "ran out of time" in message.text())

        notice = await standin.wait_for_message(
            ended, since=mark, timeout=timedelta(minutes=3).total_seconds() + ANSWER_TIMEOUT)
        assert f"<@{bob.id}> ran out of time" in notice.message.text()
        async with StoredGames(local.process.database) as stored_games:
            stored = await stored_games.load(game_id)
        assert stored.record.result is not None and stored.record.result.value == "1-0"
        assert stored.record.termination == "time_forfeit"
        [move] = stored.moves
        assert move.black_left == timedelta(minutes=3)
        # White's time went down while the move was being made, then the increment came.
        assert move.white_left is not None
        assert timedelta(minutes=2) < move.white_left <= timedelta(minutes=3, seconds=2)
