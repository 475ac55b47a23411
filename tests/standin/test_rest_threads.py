"""The thread routes over plain REST: the bodies Discord's documentation refuses (a name
outside 1-100 characters, an `auto_archive_duration` other than 60, 1440, 4320 and 10080,
a thread under a thread, a change to an archived thread that does not unarchive it), and
the active threads a bot can see (Resources > Channel, Start Thread, Modify Channel;
Topics > Threads)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest_asyncio

from standin import Permission, StandIn

Json = dict[str, Any]


@pytest_asyncio.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


async def _call(
    http: aiohttp.ClientSession, method: str, url: str, body: Json | None = None
) -> tuple[int, Any]:
    async with http.request(method, url, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else None)


def _field_codes(answer: Json, key: str) -> list[str]:
    return [e["code"] for e in answer["errors"][key]["_errors"]]


async def test_starting_a_thread_checks_its_fields(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/channels/{standin.channel('games').id}/threads"
    status, answer = await _call(http, "POST", url, {"name": "", "type": 11})
    assert status == 400 and _field_codes(answer, "name") == ["BASE_TYPE_BAD_LENGTH"]
    status, answer = await _call(http, "POST", url, {"name": "x" * 101, "type": 11})
    assert status == 400 and _field_codes(answer, "name") == ["BASE_TYPE_BAD_LENGTH"]
    body = {"name": "Round 1", "type": 11, "auto_archive_duration": 30}
    status, answer = await _call(http, "POST", url, body)
    assert status == 400 and _field_codes(answer, "auto_archive_duration")
    status, answer = await _call(http, "POST", url, {"name": "Round 1", "type": 0})
    assert status == 400 and _field_codes(answer, "type")
    status, thread = await _call(http, "POST", url, {"name": "x" * 100, "type": 11})
    assert status == 201 and thread["thread_metadata"]["auto_archive_duration"] == 1440
    status, private = await _call(http, "POST", url, {"name": "arbiters"})
    assert status == 201 and private["type"] == 12  # no type: a private thread


async def test_an_archived_thread_changes_only_by_unarchiving(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/channels/{standin.channel('games').id}/threads"
    _, thread = await _call(http, "POST", url, {"name": "Round 1", "type": 11})
    one = f"{standin.rest_base}/channels/{thread['id']}"
    status, answer = await _call(http, "PATCH", one, {"auto_archive_duration": 45})
    assert status == 400 and _field_codes(answer, "auto_archive_duration")
    status, answer = await _call(http, "PATCH", one, {"archived": True})
    assert status == 200 and answer["thread_metadata"]["archived"] is True
    status, answer = await _call(http, "PATCH", one, {"name": "Round 1 (done)"})
    assert status == 403 and answer["code"] == 50083
    status, answer = await _call(http, "PUT", f"{one}/thread-members/@me")
    assert status == 403 and answer["code"] == 50083
    status, answer = await _call(
        http, "PATCH", one, {"archived": False, "name": "Round 1 (again)"}
    )
    assert status == 200 and answer["name"] == "Round 1 (again)"
    assert answer["thread_metadata"]["archived"] is False
    status, answer = await _call(http, "POST", f"{one}/threads", {"name": "in", "type": 11})
    assert status == 400 and answer["code"] == 50024


async def test_active_threads_leave_out_archived_ones(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    await standin.add_thread("games", "open table", owner="alice")
    closed = await standin.add_thread("games", "round 1", owner="alice")
    await standin.edit_thread(closed, by="alice", archived=True)  # its creator archives it
    guild_id = standin.channel("games").guild_id
    status, answer = await _call(
        http, "GET", f"{standin.rest_base}/guilds/{guild_id}/threads/active"
    )
    assert status == 200 and [t["name"] for t in answer["threads"]] == ["open table"]
    assert [m["id"] for m in answer["members"]] == [str(standin.channel("open table").id)]
    await standin.set_permissions("games", standin.bot, deny=int(Permission.VIEW_CHANNEL))
    status, answer = await _call(
        http, "GET", f"{standin.rest_base}/guilds/{guild_id}/threads/active"
    )
    assert status == 200 and answer["threads"] == []  # the bot no longer sees #games
