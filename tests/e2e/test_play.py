"""/play in the real bot process against the local stand-in: the computer
answers on its own with a new board, a person's moves get replies, and a game where the
computer was thinking when the bot was killed gets its move after the restart.

Config from the environment, as an operator would: one search worker, and first a
budget far beyond the test's patience (so the computer is certainly still thinking when
the bot is killed), then 0.1 s per move after the restart."""

from __future__ import annotations

from pathlib import Path

from engine import apply_move, legal_moves
from localplay.render import game_id_of
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import ChannelInfo, EventKind, MessageEvent, MessageRecord
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import move_text, play_move, resign

PATIENCE = 60.0
"""Seconds to wait for the computer's board (a hang guard, not a measure)."""


async def computer_board(local: LocalDiscord, channel: ChannelInfo, since: int
                         ) -> MessageRecord:
    """The next board the computer posts on its own in `channel`."""

    def played(event: MessageEvent) -> bool:
        message = event.message
        return (event.kind is EventKind.CREATE and message.channel_id == channel.id
                and message.text().startswith("Computer (level")
                and " played " in message.text().splitlines()[0]
                and bool(message.attachments))

    event = await local.standin.wait_for_message(played, since=since, timeout=PATIENCE)
    return event.message


async def test_play_against_the_computer_and_resume_after_a_kill(tmp_path: Path) -> None:
    env = {"DAMA_COMPUTER_WORKERS": "1", "DAMA_COMPUTER_BUDGET": "0.1"}
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            env=env, ready_timeout=READY_TIMEOUT) as local:
        standin = local.standin
        alice = standin.user("alice")
        channel = local.channel

        async def alice_moves(game_id: int) -> int:
            """alice plays her first legal move; returns how many moves are stored."""
            async with StoredGames(local.process.database) as games:
                stored = await games.load(game_id)
            position, variant = stored.position, stored.game.variant
            # A move after which the computer has a real choice (no forced reply, which it
            # would play at once whatever its budget).
            move = min(
                (m for m in legal_moves(position, variant)
                 if len(legal_moves(apply_move(position, m, variant), variant)) > 1),
                key=lambda m: (m.start, m.end),
            )
            await play_move(local, alice, channel, move_text(move, position, variant))
            async with StoredGames(local.process.database) as games:
                return len((await games.load(game_id)).moves)

        mark = standin.event_count
        started = await standin.slash(alice, channel, "play",
                                      {"variant": "turkish", "level": 5, "color": "black"},
                                      timeout=ANSWER_TIMEOUT)
        assert not started.ephemeral, started.reply.text()
        assert "is thinking" in started.reply.text()
        board = await computer_board(local, channel, mark)  # the computer opens
        assert [b.label for b in board.buttons] == ["Resign"]  # the computer never takes draws
        game_id = game_id_of(board)
        assert game_id is not None

        mark = standin.event_count
        await alice_moves(game_id)
        await computer_board(local, channel, mark)  # and replies

        # Next the computer may think for a minute: after alice's move it is surely still
        # thinking when the bot is killed; the restarted bot thinks 0.1 s again.
        local.process.extra_env["DAMA_COMPUTER_BUDGET"] = "60"
        await local.restart_bot(kill=False)
        assert await alice_moves(game_id) == 4
        local.process.extra_env["DAMA_COMPUTER_BUDGET"] = "0.1"
        mark = standin.event_count
        await local.restart_bot(kill=True)
        await computer_board(local, channel, mark)  # resumed after the restart
        async with StoredGames(local.process.database) as games:
            stored = await games.load(game_id)
        assert [m.by_computer for m in stored.moves] == [True, False, True, False, True]

        resigned = await resign(local, alice, channel)
        assert "resigned" in resigned.reply.text()
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]
