"""Owed announcements (docs/ARCHITECTURE.md, "Recovery"): a step stored before a crash but
never shown is posted once at the next start-up, and a board Discord received but whose
message id the bot never recorded is not posted a second time (the step's nonce with
`enforce_nonce`). The real bot process against the stand-in, on a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine import Game, format_move, get_variant
from localplay.render import game_id_of
from localplay.server import LocalDiscord
from standin import ChannelInfo, MessageRecord
from standin.model import DEFAULT_BOT_PERMISSIONS, Permission
from storage import GameRecord, Storage
from tests.support.local_discord import READY_TIMEOUT
from tests.support.standin_play import boards_since as boards_of
from tests.support.standin_play import play_move, resign, start_game


def boards_since(local: LocalDiscord, channel: ChannelInfo, mark: int) -> list[MessageRecord]:
    """The board messages (a picture and a game id) created in `channel` after `mark`."""
    return boards_of(local.standin, channel, mark)


async def stored(local: LocalDiscord, game_id: int) -> GameRecord:
    storage = await Storage.open(local.process.database, verify=False, read_only=True)
    try:
        record = await storage.games.get(game_id)
    finally:
        await storage.close()
    assert record is not None
    return record


async def test_a_move_stored_before_a_crash_is_posted_once_after_the_restart(
    local: LocalDiscord,
) -> None:
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    first = (await play_move(local, alice, local.channel, "c3-c4")).reply
    await local.process.kill()

    # The crash: bob's move was committed (with its board owed, as the bot's own step
    # does) and the bot died before posting its board.
    reference = Game(variant)
    reference.play("c3-c4")
    [move] = [m for m in reference.legal_moves()
              if format_move(m, reference.position, variant) == "f6-f5"]
    text = format_move(move, reference.position, variant, full=True)
    storage = await Storage.open(local.process.database)
    try:
        await storage.games.append_move(game_id, ply=2, text=text)
    finally:
        await storage.close()
    assert (await stored(local, game_id)).board_owed

    mark = standin.event_count
    await local.start_bot()
    [board] = boards_since(local, local.channel, mark)
    assert "restarted" in board.content and "played **f6-f5**" in board.content
    assert f"<@{alice.id}>" in board.content  # the player to move is pinged
    record = await stored(local, game_id)
    assert not record.board_owed and record.board_message_id == board.id

    # Discord received that board but the bot died before recording its id: the next
    # start-up posts the same step with the same nonce and Discord returns the first one.
    await local.process.kill()
    with sqlite3.connect(local.process.database) as conn:
        conn.execute("UPDATE games SET board_owed = 1, board_message_id = ? WHERE id = ?",
                     (first.id, game_id))
    conn.close()
    mark = standin.event_count
    await local.start_bot()
    assert boards_since(local, local.channel, mark) == []
    record = await stored(local, game_id)
    assert not record.board_owed and record.board_message_id == board.id

    # The game goes on from there, its newest board acting.
    await play_move(local, alice, local.channel, "c4-c5")
    assert (await stored(local, game_id)).ply_count == 3


async def test_posting_a_board_twice_with_its_nonce_gives_one_message(
    local: LocalDiscord,
) -> None:
    # The de-duplication itself: a finished game whose final board is owed twice in a row
    # (the id never recorded), posted by two start-ups, is one message in the channel.
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    resigned = await resign(local, bob, local.channel, timeout=30.0)
    assert not resigned.ephemeral, resigned.reply.text()
    await local.process.kill()
    before = len([m for m in standin.messages(local.channel) if game_id_of(m) == game_id])
    for _ in range(2):
        with sqlite3.connect(local.process.database) as conn:
            conn.execute("UPDATE games SET board_owed = 1 WHERE id = ?", (game_id,))
        conn.close()
        await local.start_bot()
        await local.process.kill()
    boards = [m for m in standin.messages(local.channel) if game_id_of(m) == game_id]
    assert len(boards) == before + 1
    assert "restarted" in boards[-1].content and "wins" in boards[-1].content
    await local.start_bot()
    assert not (await stored(local, game_id)).board_owed


async def test_a_board_that_answered_the_move_is_found_not_posted_again(
    local: LocalDiscord,
) -> None:
    # The bot answered bob's /move with the board (an interaction answer: no nonce) and died
    # before recording its id: at the restart it finds that board among the channel's
    # newest messages (its buttons name the game and ply 2) and records it.
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    first = (await play_move(local, alice, local.channel, "c3-c4")).reply
    second = (await play_move(local, bob, local.channel, "f6-f5")).reply
    await local.process.kill()
    with sqlite3.connect(local.process.database) as conn:
        conn.execute("UPDATE games SET board_owed = 1, board_message_id = ? WHERE id = ?",
                     (first.id, game_id))
    conn.close()
    mark = standin.event_count
    await local.start_bot()
    assert boards_since(local, local.channel, mark) == []
    record = await stored(local, game_id)
    assert not record.board_owed and record.board_message_id == second.id
    await play_move(local, alice, local.channel, "c4-c5")


async def test_without_the_channels_history_an_owed_board_is_posted(
    tmp_path: Path,
) -> None:
    # Without Read Message History the search fails (403): the board is posted all the
    # same (at least once), and the reason logged.
    permissions = int(DEFAULT_BOT_PERMISSIONS) & ~int(Permission.READ_MESSAGE_HISTORY)
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT,
                            bot_permissions=permissions) as local:
        standin = local.standin
        assert local.guild is not None
        guild = standin.world.guilds[local.guild.id]
        # @everyone (which the bot has too) only sees channels and uses commands.
        guild.roles[guild.id].permissions = (1 << 10) | (1 << 31)
        alice, bob = standin.user("alice"), standin.user("bob")
        game_id, _ = await start_game(local, local.channel, alice, bob, get_variant("turkish"))
        await play_move(local, alice, local.channel, "c3-c4")
        await local.process.kill()
        with sqlite3.connect(local.process.database) as conn:
            conn.execute("UPDATE games SET board_owed = 1 WHERE id = ?", (game_id,))
        conn.close()
        mark = standin.event_count
        await local.start_bot()
        [board] = boards_since(local, local.channel, mark)
        assert "restarted" in board.content
        assert "history cannot be read" in local.process.run_log()
        assert not (await stored(local, game_id)).board_owed
