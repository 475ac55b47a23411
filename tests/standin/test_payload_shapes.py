"""Payloads are complete: every key discord.py's TypedDicts require is present, over a raw
gateway connection and raw REST calls (no discord.py client in between)."""

from __future__ import annotations

import json
import zlib
from typing import Any

import aiohttp
import pytest

from standin import Permission, StandIn
from standin.records import InteractionKind
from tests.support.discord_typed_shapes import required_keys

Json = dict[str, Any]


def missing(
    payload: Json, module: str, name: str, *, except_: frozenset[str] = frozenset()
) -> set[str]:
    return set(required_keys(module, name)) - set(payload) - set(except_)


def test_shape_reader_knows_optional_and_required_keys() -> None:
    # From discord/types/member.py: PartialMember has roles, joined_at, deaf, mute, flags;
    # Member(PartialMember, total=False) adds only optional keys.
    assert required_keys("member", "Member") == {"roles", "joined_at", "deaf", "mute", "flags"}
    # ThreadChannel re-declares owner_id as NotRequired.
    assert "owner_id" not in required_keys("channel", "ThreadChannel")
    assert "thread_metadata" in required_keys("channel", "ThreadChannel")


async def _gateway(standin: StandIn, *, compress: bool = False) -> tuple[list[Json], Any]:
    session = aiohttp.ClientSession()
    query = "?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
    ws = await session.ws_connect(standin.gateway_url + query)
    inflator = zlib.decompressobj()

    async def receive() -> Json:
        msg = await ws.receive(timeout=5)
        if msg.type is aiohttp.WSMsgType.BINARY:
            assert msg.data.endswith(b"\x00\x00\xff\xff")
            return dict(json.loads(inflator.decompress(msg.data)))
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        return dict(json.loads(msg.data))

    hello = await receive()
    await ws.send_json({"op": 1, "d": None})
    ack = await receive()
    await ws.send_json(
        {"op": 2, "d": {"token": standin.token, "intents": 1 | 1 << 9, "properties": {}}}
    )
    events = [hello, ack, await receive()]
    for _ in standin.world.guilds:
        events.append(await receive())
    return events, (session, ws, receive)


@pytest.mark.parametrize("compress", [False, True])
async def test_gateway_handshake_ready_and_guild_create(standin: StandIn, compress: bool) -> None:
    await standin.add_thread("general", "a thread", owner="alice")
    events, (session, ws, _) = await _gateway(standin, compress=compress)
    try:
        hello, ack, ready, guild = events
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        assert ack["op"] == 11
        assert ready["op"] == 0 and ready["t"] == "READY" and ready["s"] == 1
        # `shard` is sent only when the client identified with one (Discord docs, Ready).
        assert not missing(ready["d"], "gateway", "ReadyEvent", except_=frozenset({"shard"}))
        assert ready["d"]["guilds"] == [{"id": guild["d"]["id"], "unavailable": True}]
        assert guild["t"] == "GUILD_CREATE" and guild["s"] == 2
        data = guild["d"]
        assert not missing(data, "guild", "Guild")
        for key in ("channels", "threads", "members", "member_count", "joined_at"):
            assert key in data  # the GUILD_CREATE extra fields
        text = [c for c in data["channels"] if c["type"] == 0]
        assert {c["name"] for c in text} == {"general", "games"}
        for channel in text:
            assert not missing(channel, "channel", "TextChannel")
            assert "flags" in channel
        [thread] = data["threads"]
        assert not missing(thread, "channel", "ThreadChannel")
        # Without the presences intent only the bot's own member comes (Discord docs).
        [member] = data["members"]
        assert member["user"]["id"] == str(standin.bot.id) and member["user"]["bot"] is True
        assert not missing(member, "member", "MemberWithUser") and "flags" in member
        assert not missing(member["user"], "user", "PartialUser")
        for role in data["roles"]:
            assert not missing(role, "role", "Role")
    finally:
        await ws.close()
        await session.close()


async def test_gateway_rejects_a_wrong_token(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(standin.gateway_url) as ws:
        await ws.receive(timeout=5)  # HELLO
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
        msg = await ws.receive(timeout=5)
        assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == 4004


async def test_rest_and_interaction_payloads(standin: StandIn) -> None:
    headers = {"Authorization": f"Bot {standin.token}"}
    api = standin.rest_base
    app = standin.application_id
    commands = [
        {
            "name": "move",
            "description": "Play a move",
            "options": [
                {"type": 3, "name": "move", "description": "The move", "required": True},
                {"type": 6, "name": "opponent", "description": "Against whom"},
            ],
        }
    ]
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{api}/oauth2/applications/@me") as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert not missing(await resp.json(), "appinfo", "AppInfo")
        async with http.get(f"{api}/users/@me") as resp:
            assert not missing(await resp.json(), "user", "PartialUser")
        async with http.put(f"{api}/applications/{app}/commands", json=commands) as resp:
            assert resp.status == 200
            [registered] = await resp.json()
            assert registered["id"] and registered["version"]
        channel = standin.channel("general")
        async with http.post(
            f"{api}/channels/{channel.id}/messages", json={"content": "hi <@1>"}
        ) as resp:
            message = await resp.json()
            assert not missing(message, "message", "Message")
        state = await standin.factory.command(
            InteractionKind.APPLICATION_COMMAND,
            "alice",
            "general",
            "move",
            {"move": "22-18", "opponent": "bob"},
            None,
        )
        payload = state.payload
        assert not missing(payload, "interactions", "ApplicationCommandInteraction")
        for key in ("app_permissions", "locale", "entitlements", "context", "guild_locale"):
            assert key in payload  # present on Discord for guild interactions
        bob = str(standin.user("bob").id)
        assert payload["data"]["options"] == [
            {"type": 3, "name": "move", "value": "22-18"},
            {"type": 6, "name": "opponent", "value": bob},
        ]
        resolved = payload["data"]["resolved"]
        assert resolved["users"][bob]["username"] == "bob"
        assert "permissions" in resolved["members"][bob] and "user" not in resolved["members"][bob]
        assert "permissions" in payload["member"] and "flags" in payload["member"]


async def test_scheduled_event_payloads(standin: StandIn) -> None:
    guild = standin.guild("Dama Club")
    role = await standin.add_role(guild, "events", int(Permission.CREATE_EVENTS))
    await standin.give_role(guild, standin.bot, role)
    body = {
        "name": "Spring Swiss",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": "2030-04-01T18:00:00+00:00",
        "scheduled_end_time": "2030-04-01T21:00:00+00:00",
        "entity_metadata": {"location": "#games"},
    }
    headers = {"Authorization": f"Bot {standin.token}"}
    url = f"{standin.rest_base}/guilds/{guild.id}/scheduled-events"
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.post(url, json=body) as resp:
            event = await resp.json()
        assert not missing(event, "scheduled_event", "ExternalScheduledEvent")
        await standin.mark_interested("alice", int(event["id"]))
        async with http.get(f"{url}/{event['id']}/users?with_member=true") as resp:
            [user] = await resp.json()
        assert not missing(user, "scheduled_event", "ScheduledEventUserWithMember")
    events, (session, ws, _) = await _gateway(standin)
    try:
        [listed] = events[-1]["d"]["guild_scheduled_events"]
        assert not missing(listed, "scheduled_event", "ExternalScheduledEvent")
    finally:
        await ws.close()
        await session.close()
