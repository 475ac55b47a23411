"""Two bot processes on two shards of one PostgreSQL database, against the stand-in: each
answers its own server's commands; one is SIGKILLed in the middle of a move and started
again, and every move it acknowledged is kept, its game goes on, and the other process never
stops answering; the global leaderboard counts the games of both (docs/OPERATING.md,
"Running at scale").

The fast test kills the process at a named crash point (`bot.faults`, `step-committed`: the
move is stored, its answer never sent), so every run plays the same plies; the slow test
kills after varying delays, wherever the move happens to be."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.faults import ENVIRONMENT_VARIABLE, FaultPoint
from engine import Game, Position, Variant, get_variant, legal_moves
from localplay.process import BotProcess
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import BotDidNotAnswer, ChannelInfo, StandIn, UserInfo
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.postgres import PostgresServer
from tests.support.standin_play import move_text, play_move, resign, start_game

FAR = ("Far Club", ("far",), (1, 2))
"""The second server, on shard 1 of 2 (the first, "Dama Club", is put on shard 0)."""

ENV = {"DAMA_LEADERBOARD_MIN_GAMES": "1", "DAMA_LEADERBOARD_MAX_DEVIATION": "1000"}
"""Every rated player appears on the leaderboard (new players' deviation is 350)."""


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[str]:
    """The one PostgreSQL database both processes share (a fresh one of the session's
    server, `tests/support/postgres.py`)."""
    url = postgres_server.new_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


@pytest.fixture
async def sharded(tmp_path: Path, database: str) -> AsyncIterator[LocalDiscord]:
    """The stand-in with "Dama Club" on shard 0 and "Far Club" on shard 1, and two bot
    processes, shard 0 and shard 1, on `database`."""
    local = LocalDiscord(database=database, log_path=tmp_path / "bot.log", shards=2,
                         guild_shard=(0, 2), extra_guilds=[FAR], env=ENV,
                         ready_timeout=READY_TIMEOUT)
    async with local:
        try:
            yield local
        finally:  # shown by pytest only when the test failed
            for shard, process in enumerate(local.processes):
                print(f"--- end of shard {shard}'s log ({process.log_path}) ---")
                print(process.log_tail(30))
    for process in local.processes:
        log = process.log_path.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in log, f"a bot process logged an exception:\n{log[-4000:]}"


@dataclass
class Table:
    """One game being played in a channel, with the engine's reference game."""

    channel: ChannelInfo
    white: UserInfo
    black: UserInfo
    variant: Variant
    game_id: int = 0
    reference: Game = field(init=False)
    acknowledged: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reference = Game(self.variant)

    @property
    def mover(self) -> UserInfo:
        return (self.white, self.black)[len(self.reference.moves) % 2]

    def next_text(self) -> str:
        """The first legal move (by squares), as the player types it."""
        position = self.reference.position
        move = min(legal_moves(position, self.variant), key=lambda m: (m.start, m.end))
        return move_text(move, position, self.variant)

    async def start(self, local: LocalDiscord) -> None:
        self.game_id, _ = await start_game(local, self.channel, self.white, self.black,
                                           self.variant)

    async def play(self, local: LocalDiscord) -> None:
        text = self.next_text()
        await play_move(local, self.mover, self.channel, text)
        self.reference.play(text)
        self.acknowledged.append(text)


def _position(variant: Variant, moves: list[str]) -> Position:
    """The position after `moves` (short or full notation alike)."""
    game = Game(variant)
    for text in moves:
        game.play(text)
    return game.position


def _channel(local: LocalDiscord, guild_index: int, name: str) -> ChannelInfo:
    guild = local.guilds[guild_index]
    return next(local.standin.channel(c.id) for c in local.standin.world.channels.values()
                if c.guild_id == guild.id and c.name == name)


async def _kill_mid_move(local: LocalDiscord, table: Table, shard: int,
                         delay: float = 0.02) -> None:
    """Send the table's next move and SIGKILL `shard`'s process `delay` seconds later; the
    move counts as acknowledged when its public answer arrived."""
    text = table.next_text()
    in_flight = asyncio.create_task(local.standin.slash(
        table.mover, table.channel, "move", {"move": text}, timeout=ANSWER_TIMEOUT))
    await asyncio.sleep(delay)
    assert await local.processes[shard].kill() == -signal.SIGKILL
    try:
        answered = await in_flight
        if not answered.ephemeral:
            table.acknowledged.append(text)
    except BotDidNotAnswer:
        pass  # Discord would say "This interaction failed"; nothing was acknowledged


async def _kill_at_point(local: LocalDiscord, table: Table, shard: int,
                         point: FaultPoint) -> None:
    """Restart `shard`'s process armed with `point` (`DAMA_FAULT_POINT`), send the table's
    next move, and wait until the process has SIGKILLed itself there; the process's next
    start is unarmed. The move counts as acknowledged when its public answer arrived."""
    process = local.processes[shard]
    await process.stop()
    process.extra_env[ENVIRONMENT_VARIABLE] = point.value
    try:
        await local.start_bot(shard=shard)
    finally:
        del process.extra_env[ENVIRONMENT_VARIABLE]
    text = table.next_text()
    in_flight = asyncio.create_task(local.standin.slash(
        table.mover, table.channel, "move", {"move": text}, timeout=ANSWER_TIMEOUT))
    assert await asyncio.wait_for(process.wait(), ANSWER_TIMEOUT) == -signal.SIGKILL
    try:
        answered = await in_flight
        if not answered.ephemeral:
            table.acknowledged.append(text)
    except BotDidNotAnswer:
        pass  # Discord would say "This interaction failed"; nothing was acknowledged


async def _check_stored(local: LocalDiscord, table: Table) -> int:
    """Every acknowledged move of the table's game is stored, in order; the reference game
    takes the move in flight at a kill if it was stored. Returns the moves lost (0)."""
    async with StoredGames(local.process.database) as games:
        stored = await games.load(table.game_id)
    texts = [m.text for m in stored.moves]
    lost = max(0, len(table.acknowledged) - len(texts))
    assert lost == 0, (texts, table.acknowledged)
    assert len(texts) - len(table.acknowledged) in (0, 1)  # the move in flight, or not
    assert _position(table.variant, texts[:len(table.acknowledged)]) == \
        _position(table.variant, table.acknowledged)
    for ply in range(len(table.reference.moves), len(texts)):
        table.reference.play(texts[ply])
        if ply >= len(table.acknowledged):  # stored, though its answer never came
            table.acknowledged.append(texts[ply])
    assert stored.position == table.reference.position
    return lost


async def test_two_shards_one_killed_mid_move_loses_nothing_and_the_other_answers(
    sharded: LocalDiscord,
) -> None:
    local = sharded
    standin = local.standin
    turkish = get_variant("turkish")
    near = Table(_channel(local, 0, "general"), standin.user("alice"), standin.user("bob"),
                 turkish)
    far = Table(_channel(local, 1, "far"), standin.user("carol"), standin.user("dave"),
                turkish)
    # Each server's interactions reach only its own shard's process.
    sessions = {tuple(s.shard or ()) for s in standin.hub.live_sessions}
    assert sessions == {(0, 2), (1, 2)}
    # Only the process with shard 0 registers the slash commands.
    assert re.search(r"synced \d+ global commands", local.processes[0].run_log())
    assert "synced" not in local.processes[1].run_log()
    assert "commands unchanged" not in local.processes[1].run_log()
    puts = [r for r in standin.request_log if r[0] == "PUT" and r[1].endswith("/commands")]
    assert len(puts) == 1, puts
    await near.start(local)
    await far.start(local)
    for _ in range(2):
        await near.play(local)
        await far.play(local)

    # Shard 1's process is killed while it handles a move in Far Club: once the move is
    # stored, before it is answered.
    await _kill_at_point(local, far, shard=1, point=FaultPoint.STEP_COMMITTED)
    # Shard 0's process goes on answering while shard 1 is down.
    await near.play(local)
    await near.play(local)
    await local.start_bot(shard=1)
    await near.play(local)
    # The restarted process registered nothing; the hash is in PostgreSQL for shard 0's.
    assert [r for r in standin.request_log
            if r[0] == "PUT" and r[1].endswith("/commands")] == puts
    # Every acknowledged move is stored; the game goes on from the stored position.
    assert await _check_stored(local, far) == 0
    assert len(far.acknowledged) == 3  # the move in flight was stored
    await far.play(local)

    # Both games end rated (each side has made two moves or more, docs/RULES.md, "Early
    # results"); the global leaderboard, asked in either server, counts both.
    assert len(near.reference.moves) >= 4 and len(far.reference.moves) >= 4
    await resign(local, near.mover, near.channel)
    await resign(local, far.mover, far.channel)
    for table in (near, far):
        board = await standin.slash(table.white, table.channel, "leaderboard",
                                    {"variant": "turkish", "scope": "global"},
                                    timeout=ANSWER_TIMEOUT)
        text_seen = str(board.reply.embeds)
        for player in (near.white, near.black, far.white, far.black):
            assert f"<@{player.id}>" in text_seen, text_seen

    # Shard 0's process restarted: the commands' hash is in PostgreSQL, so it registers
    # nothing again.
    await local.processes[0].stop()
    await local.start_bot(shard=0)
    assert "commands unchanged" in local.processes[0].run_log()
    assert [r for r in standin.request_log
            if r[0] == "PUT" and r[1].endswith("/commands")] == puts


@pytest.mark.slow
async def test_many_kills_on_both_shards_lose_no_acknowledged_move(
    sharded: LocalDiscord,
) -> None:
    """Games in both servers; each process in turn is SIGKILLed in the middle of a move
    (after a varying delay) and started again while the other one keeps playing. Prints
    the figures: moves played, kills, moves lost (0)."""
    local = sharded
    standin = local.standin
    variants = [get_variant(v) for v in ("turkish", "italian", "arab", "moroccan")]
    tables = []
    for index, variant in enumerate(variants):
        guild = index % 2
        channel = _channel(local, 0, "general") if guild == 0 else _channel(local, 1, "far")
        if index >= 2:
            channel = await standin.add_channel(local.guilds[guild].id, f"table-{index}")
        tables.append(Table(channel, standin.user(f"p{index}w"), standin.user(f"p{index}b"),
                            variant))
    for table in tables:
        await table.start(local)
    kills = lost = 0
    for round_ in range(6):
        shard = round_ % 2
        victims = [t for i, t in enumerate(tables) if i % 2 == shard]
        others = [t for i, t in enumerate(tables) if i % 2 != shard]
        for table in tables:
            await table.play(local)
        await _kill_mid_move(local, victims[round_ % len(victims)], shard,
                             delay=0.005 * (1 + round_ * 3))
        kills += 1
        for table in others:  # the other process never stops answering
            await table.play(local)
        await local.start_bot(shard=shard)
        for table in victims:
            lost += await _check_stored(local, table)
    played = sum(len(t.acknowledged) for t in tables)
    print(f"two shards: {played} moves played, {kills} kills, {lost} moves lost")
    assert lost == 0 and kills == 6


async def test_too_few_shards_stop_the_bot_with_a_clear_reason(tmp_path: Path) -> None:
    """Discord closes a shard with too many servers with 4011; the bot says what to set."""
    async with StandIn(max_guilds_per_session=1) as standin:
        await standin.add_guild("One")
        await standin.add_guild("Two")
        process = BotProcess(url=standin.url, token=standin.token,
                             database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                             env={"DAMA_SHARD_COUNT": "1"})
        await process.start()
        try:
            status = await asyncio.wait_for(process.wait(), READY_TIMEOUT)
        finally:
            await process.stop()
        assert status == 2
        reason = process.reason()
        assert reason is not None and "close code 4011" in reason, process.run_log()
        assert "DAMA_SHARD_COUNT" in reason
