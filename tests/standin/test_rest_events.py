"""The scheduled-event routes over plain REST: what Discord's documentation refuses
(Resources > Guild Scheduled Event: field requirements by entity type, status
transitions, finished events, the users' page size), answered as Discord answers."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest_asyncio

from standin import GuildInfo, Permission, StandIn

Json = dict[str, Any]


@pytest_asyncio.fixture
async def http(standin: StandIn, guild: GuildInfo) -> AsyncIterator[aiohttp.ClientSession]:
    """A REST client as the bot, which may create events in the guild."""
    role = await standin.add_role(guild, "events", int(Permission.CREATE_EVENTS))
    await standin.give_role(guild, standin.bot, role)
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


def _external(**changes: Any) -> Json:
    start = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    body: Json = {
        "name": "Spring Swiss",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + datetime.timedelta(hours=3)).isoformat(),
        "entity_metadata": {"location": "#games"},
    }
    body.update(changes)
    return {k: v for k, v in body.items() if v is not None}


async def _call(
    http: aiohttp.ClientSession, method: str, url: str, body: Json | None = None
) -> tuple[int, Any]:
    async with http.request(method, url, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else None)


def _field_errors(answer: Json, *path: str) -> list[str]:
    node = answer["errors"]
    for key in path:
        node = node[key]
    return [e["code"] for e in node["_errors"]]


async def test_an_external_event_needs_a_location_and_an_end(
    standin: StandIn, guild: GuildInfo, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/guilds/{guild.id}/scheduled-events"
    status, answer = await _call(http, "POST", url, _external(entity_metadata={}))
    assert status == 400 and answer["code"] == 50035
    assert _field_errors(answer, "entity_metadata", "location") == ["BASE_TYPE_REQUIRED"]
    status, answer = await _call(http, "POST", url, _external(scheduled_end_time=None))
    assert status == 400 and _field_errors(answer, "scheduled_end_time")
    status, answer = await _call(http, "POST", url, _external(name="x" * 101))
    assert status == 400 and _field_errors(answer, "name") == ["BASE_TYPE_BAD_LENGTH"]
    location = {"location": "y" * 101}
    status, answer = await _call(http, "POST", url, _external(entity_metadata=location))
    assert status == 400 and _field_errors(answer, "entity_metadata", "location")
    status, answer = await _call(
        http, "POST", url, _external(channel_id=str(standin.channel("games").id))
    )
    assert status == 400 and _field_errors(answer, "channel_id")
    status, answer = await _call(http, "POST", url, _external(privacy_level=1))
    assert status == 400 and _field_errors(answer, "privacy_level")
    assert standin.scheduled_events(guild) == []


async def test_a_voice_event_needs_a_voice_channel(
    standin: StandIn, guild: GuildInfo, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/guilds/{guild.id}/scheduled-events"
    voice = _external(entity_type=2, entity_metadata=None,
                      channel_id=str(standin.channel("games").id))
    status, answer = await _call(http, "POST", url, voice)
    assert status == 400 and _field_errors(answer, "channel_id")
    status, answer = await _call(http, "POST", url, {**voice, "channel_id": None})
    assert status == 400 and _field_errors(answer, "channel_id") == ["BASE_TYPE_REQUIRED"]


async def test_status_changes_follow_the_documented_transitions(
    standin: StandIn, guild: GuildInfo, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/guilds/{guild.id}/scheduled-events"
    status, created = await _call(http, "POST", url, _external())
    assert status == 200 and created["status"] == 1 and created["channel_id"] is None
    one = f"{url}/{created['id']}"
    status, answer = await _call(http, "PATCH", one, {"status": 3})  # SCHEDULED -> COMPLETED
    assert status == 400 and _field_errors(answer, "status")
    status, answer = await _call(http, "PATCH", one, {"scheduled_end_time": None})
    assert status == 400 and _field_errors(answer, "scheduled_end_time")
    status, answer = await _call(http, "PATCH", one, {"status": 4})  # SCHEDULED -> CANCELED
    assert status == 200 and answer["status"] == 4
    status, answer = await _call(http, "PATCH", one, {"status": 2})
    assert status == 400 and answer["code"] == 180000
    status, answer = await _call(http, "GET", one)
    assert status == 200 and answer["status"] == 4  # still there by id, out of the list
    assert (await _call(http, "GET", url)) == (200, [])


async def test_users_pages_in_ascending_order(
    standin: StandIn, guild: GuildInfo, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/guilds/{guild.id}/scheduled-events"
    _, created = await _call(http, "POST", url, _external())
    for name in ("carol", "alice", "bob", "dave"):
        await standin.mark_interested(name, int(created["id"]))
    ids = sorted(standin.user(n).id for n in ("alice", "bob", "carol", "dave"))
    users = f"{url}/{created['id']}/users"
    status, page = await _call(http, "GET", f"{users}?limit=2&with_member=true")
    assert status == 200 and [int(u["user"]["id"]) for u in page] == ids[:2]
    assert all("member" in u and u["response"] == 1 for u in page)
    _, page = await _call(http, "GET", f"{users}?after={ids[1]}")
    assert [int(u["user_id"]) for u in page] == ids[2:]
    _, page = await _call(http, "GET", f"{users}?before={ids[3]}&after={ids[0]}&limit=2")
    assert [int(u["user_id"]) for u in page] == ids[1:3]  # `before` wins
    status, answer = await _call(http, "GET", f"{users}?limit=101")
    assert status == 400 and _field_errors(answer, "limit")
    status, counted = await _call(http, "GET", f"{url}/{created['id']}?with_user_count=true")
    assert counted["user_count"] == 4
    status, answer = await _call(http, "GET", f"{url}/123/users")
    assert status == 404 and answer["code"] == 10070
