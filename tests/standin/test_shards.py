"""The stand-in speaks shards (Discord developer docs, Topics > Gateway, Sharding): IDENTIFY
with `[shard_id, num_shards]`, each guild's events on shard `(guild_id >> 22) %
num_shards`, direct messages on shard 0, the recommended count of `GET /gateway/bot`, and
close code 4011 for a session that would handle too many guilds. Over raw sockets, so the
frames are the stand-in's own; then with discord.py's `AutoShardedClient`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest

from bot.discord_endpoint import discord_url
from standin import StandIn
from standin.snowflakes import on_shard

Json = dict[str, Any]
GUILDS = 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


class RawSession:
    """One raw gateway connection: identify, then collect what it is sent."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[Json] = []

    async def receive(self, timeout: float = 5.0) -> Json:
        msg = await self.ws.receive(timeout=timeout)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        payload = dict(json.loads(msg.data))
        self.events.append(payload)
        return payload

    async def nothing_more(self, wait: float = 0.3) -> list[Json]:
        """Frames that arrive within `wait` seconds (none expected, usually)."""
        got = []
        try:
            while True:
                got.append(await self.receive(timeout=wait))
        except TimeoutError:
            return got


@asynccontextmanager
async def identified(
    standin: StandIn, shard: list[int] | None, intents: int = GUILDS | GUILD_MESSAGES
) -> AsyncIterator[tuple[RawSession, Json, list[Json]]]:
    """A session identified with `shard`; yields it, READY and its GUILD_CREATEs."""
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(standin.gateway_url + "?v=10&encoding=json")
        session = RawSession(ws)
        assert (await session.receive())["op"] == 10
        data: Json = {"token": standin.token, "intents": intents, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_json({"op": 2, "d": data})
        ready = await session.receive()
        assert ready["t"] == "READY", ready
        creates = [e for e in await session.nothing_more(0.3) if e.get("t") == "GUILD_CREATE"]
        try:
            yield session, ready, creates
        finally:
            await ws.close()


async def _close_code(standin: StandIn, shard: Any) -> int | None:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(standin.gateway_url + "?v=10&encoding=json")
        await ws.receive(timeout=5)
        data: Json = {"token": standin.token, "intents": GUILDS, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_json({"op": 2, "d": data})
        msg = await ws.receive(timeout=5)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), msg
        return ws.close_code


def test_on_shard_gives_an_id_on_the_asked_shard() -> None:
    base = 1_324_000_000_000 << 22 | 12345
    for shard_id in range(4):
        moved = on_shard(base, shard_id, 4)
        assert (moved >> 22) % 4 == shard_id
        assert 0 <= (moved >> 22) - (base >> 22) < 4  # within a few milliseconds
        assert moved & 0x3FFFFF == 12345
    with pytest.raises(ValueError, match="not one of 2 shards"):
        on_shard(base, 2, 2)


async def test_each_shard_gets_its_guilds_only() -> None:
    async with StandIn() as standin:
        zero = await standin.add_guild("Zero", channels=("general",), shard=(0, 2))
        one = await standin.add_guild("One", channels=("general",), shard=(1, 2))
        assert (zero.id >> 22) % 2 == 0 and (one.id >> 22) % 2 == 1
        async with identified(standin, [0, 2]) as (s0, ready0, creates0), \
                identified(standin, [1, 2]) as (s1, ready1, creates1):
            assert ready0["d"]["shard"] == [0, 2] and ready1["d"]["shard"] == [1, 2]
            assert [g["id"] for g in ready0["d"]["guilds"]] == [str(zero.id)]
            assert [g["id"] for g in ready1["d"]["guilds"]] == [str(one.id)]
            assert [g["d"]["id"] for g in creates0] == [str(zero.id)]
            assert [g["d"]["id"] for g in creates1] == [str(one.id)]
            # A message in each guild reaches that guild's shard only.
            await standin.say("alice", standin.channel(_general(standin, zero.id)), "hello zero")
            await standin.say("bob", standin.channel(_general(standin, one.id)), "hello one")
            got0 = [e for e in await s0.nothing_more() if e.get("t") == "MESSAGE_CREATE"]
            got1 = [e for e in await s1.nothing_more() if e.get("t") == "MESSAGE_CREATE"]
            assert [e["d"]["guild_id"] for e in got0] == [str(zero.id)]
            assert [e["d"]["guild_id"] for e in got1] == [str(one.id)]
            # A guild joined later goes to its shard's session as GUILD_CREATE.
            late = await standin.add_guild("Late", shard=(1, 2))
            assert not [e for e in await s0.nothing_more() if e.get("t") == "GUILD_CREATE"]
            joined = [e for e in await s1.nothing_more() if e.get("t") == "GUILD_CREATE"]
            assert [e["d"]["id"] for e in joined] == [str(late.id)]


def _general(standin: StandIn, guild_id: int) -> int:
    return next(c.id for c in standin.world.channels.values()
                if c.guild_id == guild_id and c.name == "general")


async def test_direct_messages_go_to_shard_zero() -> None:
    async with StandIn() as standin:
        await standin.add_guild("Zero", shard=(0, 2))
        intents = GUILDS | DIRECT_MESSAGES
        async with identified(standin, [0, 2], intents) as (s0, _, _), \
                identified(standin, [1, 2], intents) as (s1, _, _):
            await standin.say("alice", await standin.dm_channel("alice"), "hi bot")
            assert [e["t"] for e in await s0.nothing_more() if e.get("op") == 0] == [
                "MESSAGE_CREATE"
            ]
            assert not [e for e in await s1.nothing_more() if e.get("op") == 0]


async def test_an_unsharded_session_still_gets_everything() -> None:
    async with StandIn() as standin:
        zero = await standin.add_guild("Zero", shard=(0, 2))
        one = await standin.add_guild("One", shard=(1, 2))
        async with identified(standin, None) as (_, ready, creates):
            assert "shard" not in ready["d"]
            assert {g["d"]["id"] for g in creates} == {str(zero.id), str(one.id)}


async def test_too_many_guilds_on_one_session_is_closed_with_4011() -> None:
    async with StandIn(max_guilds_per_session=2) as standin:
        for name, shard in (("A", 0), ("B", 1), ("C", 0)):
            await standin.add_guild(name, shard=(shard, 2))
        assert await _close_code(standin, None) == 4011
        assert await _close_code(standin, [0, 1]) == 4011  # one shard of one: all three
        # Two shards: two guilds on shard 0, one on shard 1, each within the limit.
        async with identified(standin, [0, 2]) as (_, _, creates):
            assert len(creates) == 2
        assert standin.identify_count == 1


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,2", [True, 2]])
async def test_a_malformed_shard_is_closed_with_4010(shard: Any) -> None:
    async with StandIn() as standin:
        assert await _close_code(standin, shard) == 4010


async def test_gateway_bot_recommends_a_shard_count() -> None:
    async with StandIn(recommended_shards=3) as standin, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {standin.token}"}
        async with http.get(standin.rest_base + "/gateway/bot", headers=headers) as response:
            body = await response.json()
        assert body["shards"] == 3 and body["url"] == standin.gateway_url
    async with StandIn() as standin, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {standin.token}"}
        async with http.get(standin.rest_base + "/gateway/bot", headers=headers) as response:
            assert (await response.json())["shards"] == 1


async def test_discord_py_auto_sharded_client_runs_the_recommended_shards() -> None:
    """discord.py's AutoShardedClient asks /gateway/bot, opens one session per shard and
    knows each guild on the shard the formula gives (its `Guild.shard_id`)."""
    async with StandIn(recommended_shards=2) as standin:
        zero = await standin.add_guild("Zero", shard=(0, 2))
        one = await standin.add_guild("One", shard=(1, 2))
        with discord_url(standin.url):
            client = discord.AutoShardedClient(intents=discord.Intents.none())
            runner = asyncio.create_task(client.start(standin.token))
            try:
                await standin.wait_until_connected(identifies=2)
                await asyncio.wait_for(client.wait_until_ready(), 10)
                assert client.shard_count == 2
                assert sorted(s.shard or [] for s in standin.hub.live_sessions) == [[0, 2], [1, 2]]
                guild_zero, guild_one = client.get_guild(zero.id), client.get_guild(one.id)
                assert guild_zero is not None and guild_one is not None
                assert (guild_zero.shard_id, guild_one.shard_id) == (0, 1)
            finally:
                await client.close()
                await asyncio.gather(runner, return_exceptions=True)
