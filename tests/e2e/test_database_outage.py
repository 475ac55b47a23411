"""PostgreSQL stopped in the middle of a game, then started again, under the real bot
process and the stand-in: a move sent meanwhile, or a press of the board's Offer draw, is
answered privately that the server cannot save moves right now
(`Msg.STORAGE_UNAVAILABLE`) and the board keeps its buttons, nothing acknowledged is lost,
the game goes on once PostgreSQL is back, and the log has one line per failed step, no
traceback (docs/OPERATING.md, "The database at start-up and at run time")."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.messages import Msg, text
from engine import get_variant
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.postgres import (
    ACCOUNT,
    HOW_TO_ENABLE,
    PostgresServer,
    find_binaries,
    required,
)
from tests.support.standin_play import play_move, start_game


class StoppableServer:
    """A PostgreSQL server of this test alone (stopping the session's would stop the
    other tests' databases), which can be stopped and started again on its files."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.options = " ".join(server_options(server))

    def pg_ctl(self, *arguments: str) -> None:
        command = [str(self.server.binaries / "pg_ctl"), "-D",
                   str(self.server.folder / "data"), *arguments]
        if os.geteuid() == 0:
            command = ["runuser", "-u", ACCOUNT, "--", *command]
        subprocess.run(command, check=True, capture_output=True, text=True)

    def stop(self) -> None:
        """A fast shutdown: sessions are ended, as when the server is stopped or
        restarted by its operator."""
        self.pg_ctl("-m", "fast", "-w", "stop")

    def start(self) -> None:
        self.pg_ctl("-l", str(self.server.folder / "log"), "-o", self.options, "-w", "start")


def server_options(server: PostgresServer) -> list[str]:
    """The options `PostgresServer.start` starts the server with (a unix socket in its
    folder, no TCP port)."""
    return [f"-k {server.folder}", "-c listen_addresses=''", "-c fsync=off"]


async def _board_recorded(local: LocalDiscord, game_id: int) -> None:
    """Wait until the bot has recorded the message of the game's last board (its last
    write for the step)."""
    async with StoredGames(local.process.database) as games:
        for _ in range(100):
            if not (await games.load(game_id)).record.board_owed:
                return
            await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id}'s board was never recorded")


@pytest.fixture
def postgres() -> Iterator[StoppableServer]:
    binaries = find_binaries()
    if binaries is None:
        if required():
            pytest.fail(HOW_TO_ENABLE, pytrace=False)
        pytest.skip(HOW_TO_ENABLE)
    server = PostgresServer.start(binaries)
    try:
        yield StoppableServer(server)
    finally:
        server.stop()


@pytest.fixture
async def local(postgres: StoppableServer, tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    discord = LocalDiscord(database=postgres.server.new_database(),
                           log_path=tmp_path / "bot.log", ready_timeout=READY_TIMEOUT)
    async with discord:
        try:
            yield discord
        finally:  # shown by pytest only when the test failed
            print(discord.process.log_tail(60))


async def test_a_move_while_postgresql_is_down_is_refused_then_the_game_goes_on(
    local: LocalDiscord, postgres: StoppableServer,
) -> None:
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    board = (await play_move(local, alice, local.channel, "c3-c4")).reply
    await _board_recorded(local, game_id)
    log_path = local.process.log_path
    before = len(log_path.read_text(encoding="utf-8", errors="replace"))

    postgres.stop()
    answers = []
    for _ in range(3):
        answer = await standin.slash(bob, local.channel, "move", {"move": "f6-f5"},
                                     timeout=ANSWER_TIMEOUT)
        answers.append(answer)
    # A button of the board: the draw offer cannot be stored either; the board keeps it.
    answers.append(await standin.press(bob, board, "Offer draw", timeout=ANSWER_TIMEOUT))
    postgres.start()

    for answer in answers:
        assert answer.ephemeral, answer.reply.text()
        assert answer.reply.text() == text(Msg.STORAGE_UNAVAILABLE, "en-US")
    assert "Offer draw" in [button.label for button in standin.message(board).buttons]
    # One error per refused step, no warning or error from asyncpg's pool reconnecting on
    # its own. (Information lines may come in between: a loaded bot can log that it is
    # ready after the game started.)
    logged = log_path.read_text(encoding="utf-8", errors="replace")[before:].splitlines()
    outage = [line for line in logged if "ERROR" in line or "WARNING" in line]
    assert len(outage) == len(answers), "\n".join(logged)
    assert all("ERROR" in line and "interaction not saved: " in line
               and "unreachable" in line for line in outage), "\n".join(logged)
    await play_move(local, bob, local.channel, "f6-f5")
    await play_move(local, alice, local.channel, "c4-c5")
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    assert [move.text for move in stored.moves] == ["c3-c4", "f6-f5", "c4-c5"]
