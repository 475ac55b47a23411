"""A computer game killed at a crash point while other games owe their boards
(docs/ARCHITECTURE.md, "Crash points" and "Recovery at start-up"): the real bot process
against the stand-in, on a real SQLite file. The player's move stored just before the
kill is shown after the restart, and only then does the computer reply: its board comes
after the player's, never instead of it."""

from __future__ import annotations

from pathlib import Path

from bot.faults import FaultPoint
from engine import Game, format_move, get_variant
from localplay.render import game_id_of
from localplay.stored import StoredGames
from standin import MessageRecord
from storage import Storage
from tests.support.crash_points import CrashHarness, board_ply, local_discord, query, write
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import boards_since, move_text, play_move, start_game

CHANNELS = ("general", "table-1", "table-2")
"""The computer game's channel first, then one channel per other game."""


async def _next_move(harness: CrashHarness, game_id: int) -> str:
    """A legal move of the stored game's side to move, as a player types it."""
    async with StoredGames(harness.database) as games:
        stored = await games.load(game_id)
    position, variant = stored.position, stored.game.variant
    move = min(stored.game.legal_moves(), key=lambda m: (m.start, m.end))
    return move_text(move, position, variant)


def _boards(harness: CrashHarness, game_id: int, since: int) -> list[MessageRecord]:
    """The game's boards (a picture and its game id) created since event mark `since`."""
    return [message for channel in harness.local.channels.values()
            for message in boards_since(harness.standin, channel, since, game_id)]


async def test_a_players_move_stored_at_a_kill_is_shown_before_the_computers_reply(
    tmp_path: Path,
) -> None:
    async with local_discord(tmp_path, channels=CHANNELS) as local:
        harness = CrashHarness(local)
        try:
            await _players_move_then_computers_reply(harness)
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(80))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def _players_move_then_computers_reply(harness: CrashHarness) -> None:
    local, standin = harness.local, harness.standin
    variant = get_variant("turkish")
    # Two games between people in the other channels, their first boards shown.
    others = []
    for index, name in enumerate(CHANNELS[1:]):
        white, black = standin.user(f"white{index}"), standin.user(f"black{index}")
        other, _ = await start_game(local, local.channels[name], white, black, variant)
        await harness.settled(other)
        others.append(other)

    # /play variant:turkish level:1, two moves (each answered by the computer).
    alice, channel = standin.user("alice"), local.channel
    started = await standin.slash(alice, channel, "play",
                                  {"variant": "turkish", "level": 1, "color": "white"},
                                  timeout=ANSWER_TIMEOUT)
    assert not started.ephemeral, started.reply.text()
    game_id = game_id_of(started.reply)
    assert game_id is not None
    for ply in (1, 3):
        await play_move(local, alice, channel, await _next_move(harness, game_id))
        await harness.moved(game_id, ply=ply + 1)
        await harness.settled(game_id)

    # The third move, the bot killed right after storing it.
    await harness.restart(FaultPoint.STEP_COMMITTED)
    third = await _next_move(harness, game_id)
    await harness.interact(standin.slash(alice, channel, "move", {"move": third},
                                         timeout=ANSWER_TIMEOUT))
    await harness.wait_death()
    [(plies, owed, stored_at)] = query(
        harness.database, "SELECT ply_count, board_owed, updated_at FROM games WHERE id = ?",
        game_id)
    assert (plies, owed) == (5, 1)

    # Meanwhile the other games' first moves were stored, their boards owed too, before
    # the player's move (so start-up reaches them first, as after an outage).
    reference = Game(variant)
    first = min(reference.legal_moves(), key=lambda m: (m.start, m.end))
    storage = await Storage.open(harness.database)
    try:
        for other in others:
            await storage.games.append_move(
                other, ply=1, text=format_move(first, reference.position, variant, full=True))
    finally:
        await storage.close()
    for other in others:
        write(harness.database, "UPDATE games SET updated_at = ? WHERE id = ?",
              int(str(stored_at)) - 1, other)

    mark = standin.event_count
    await harness.restart(None)
    await harness.moved(game_id, ply=6)
    for game in (game_id, *others):
        await harness.settled(game)

    boards = _boards(harness, game_id, mark)
    assert [board_ply(board) for board in boards] == [5, 6], [b.text()[:80] for b in boards]
    players, computers = boards
    assert "restarted" in players.content and f"**{third}**" in players.content, \
        players.content
    assert computers.text().startswith("Computer (level"), \
        computers.text()
    for other in others:
        assert len(_boards(harness, other, mark)) == 1
